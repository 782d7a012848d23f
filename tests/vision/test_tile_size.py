"""How large the tiles look: their spacing in a frame, and how near to bring the camera."""

from __future__ import annotations

import math

import pytest

from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour, Piece
from vision.detect import Detector
from vision.profile import demo_profile
from vision.render.scene import Conditions, render_position
from vision.tile_size import closer_advice, nearer, observed_pitch


def row(pitch: float, cells: list[tuple[int, int]], px: bool = True) -> Observation:
    """Tops at ``cells`` on a lattice ``pitch`` pixels apart (pointy-topped axial cells)."""
    def at(q: int, r: int) -> tuple[float, float]:
        return (100 + pitch * (q + r / 2), 100 + pitch * math.sqrt(3) / 2 * r)

    return Observation(tuple(TileSighting(q, r, Colour.WHITE, Bug.ANT, px=at(q, r) if px else None)
                             for q, r in cells))


def test_the_spacing_is_that_of_neighbouring_tops_only() -> None:
    assert observed_pitch(row(18.0, [(0, 0), (1, 0), (0, 1), (5, -2)])) == pytest.approx(18.0)
    assert observed_pitch(row(18.0, [(0, 0), (2, 0), (5, 5)])) is None  # no two tops touch
    assert observed_pitch(row(18.0, [(0, 0), (1, 0)], px=False)) is None  # where they lie is unknown


def test_a_rendered_hive_gives_its_tiles_spacing() -> None:
    position = {cell: [Piece.parse(name)] for cell, name in (((0, 0), "wQ"), ((1, 0), "bQ"), ((0, 1), "wA1"),
                                                              ((-1, 1), "bS1"))}
    frame, truth = render_position(position, Conditions(height_mm=900, seed=4))
    pitch = observed_pitch(Detector(demo_profile()).detect(frame))
    assert pitch == pytest.approx(truth.tile_px, rel=0.08)


def test_how_near_to_come_leaves_a_tenth_to_spare() -> None:
    assert nearer(15.0, 20.0) == pytest.approx(0.675)
    assert "about 68 % of its distance" in closer_advice(15.0, 20.0)
