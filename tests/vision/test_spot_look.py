"""A spot's look found again on a later frame: through a bumped table and fresh sensor noise, and
not where the tile was taken away."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rules.pieces import Piece
from vision.render.scene import make_camera, render_position
from vision.render.world import random_world
from vision.spot_look import found_again, spot_look
from vision.tilemaps import Peak

ROW = {(q, 0): [Piece.parse(name)] for q, name in enumerate(("wQ", "bA1", "wS1", "bG1", "wA1", "bS1"))}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_top_is_found_again_where_a_bumped_table_moved_it_and_a_taken_one_is_not(seed: int) -> None:
    """The hive bumped 2.5 mm (a pixel or more) and the frame's noise drawn afresh: every tile's look is
    found again, within two pixels of where the tile now lies. With bS1 taken away, its spot shows
    the table, and its look is not found."""
    conditions = replace(random_world(np.random.default_rng(seed), style="a", hand=False, objects=()),
                         bump_mm=(0.0, 0.0), tilt_deg=10.0)
    camera = make_camera(ROW, conditions)
    frame, truth = render_position(ROW, conditions, camera=camera)
    bumped = replace(conditions, bump_mm=(2.0, -1.5), layout_seed=conditions.seed, seed=conditions.seed + 1)
    later, moved = render_position(ROW, bumped, camera=camera)
    taken, _ = render_position({cell: stack for cell, stack in ROW.items() if cell != (5, 0)}, bumped, camera=camera)
    now = {tile.cell: np.asarray(tile.px) for tile in moved.tiles}
    for tile in truth.tiles:
        look = spot_look(frame, Peak(np.asarray(tile.px, float), truth.tile_px, 0.9, 1.0))
        where = found_again(later, look)
        assert where is not None, tile.cell
        assert np.linalg.norm(where - now[tile.cell]) <= 2.0, tile.cell
        assert np.linalg.norm(np.asarray(tile.px) - now[tile.cell]) >= 1.0  # the bump did move it
        assert (found_again(taken, look) is None) is (tile.cell == (5, 0)), tile.cell


def test_a_plain_face_taken_from_a_table_a_shade_apart_is_not_found_again() -> None:
    """An ivory face showing little print, taken away from pale wood 12 grey levels brighter: the
    spot differs by little in detail, but in tint by more than a still spot ever does."""
    face = np.full((120, 160, 3), 200, np.uint8)
    face[58:62, 70:90] = 180  # a faint print
    look = spot_look(face, Peak(np.array([80.0, 60.0]), 60.0, 0.9, 1.0))
    assert found_again(face, look) is not None
    assert found_again(np.full_like(face, 212), look) is None


def test_a_look_washed_out_by_glare_is_never_found_again() -> None:
    """A top at the sensor's white under glare looks just as the table washed out where it lay."""
    white = np.full((120, 160, 3), 255, np.uint8)
    assert found_again(white, spot_look(white, Peak(np.array([80.0, 60.0]), 60.0, 0.9, 1.0))) is None
