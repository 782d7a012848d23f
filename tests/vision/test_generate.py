"""Training shards: the hard frames kept for fine-tuning the tile map are those it errs on, and
how found tops are matched to the rendered ones and scored."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rules.pieces import Piece
from vision.render.scene import Conditions, render_position
from vision.tilemaps import TileMapper
from vision.zoom import WANTED_PITCH
from vision.training.generate import _frame, _zoomed, map_errs
from vision.training.targets import map_reading, top_pairs

POSITION = {(0, 0): [Piece.parse("wQ")], (1, 0): [Piece.parse("bQ")], (0, 1): [Piece.parse("wA1")]}


def test_a_frame_the_map_reads_right_is_not_hard_and_one_it_reads_otherwise_is() -> None:
    mapper = TileMapper()
    frame, truth = render_position(POSITION, Conditions(seed=3))
    assert not map_errs(mapper, frame, truth)
    assert map_errs(mapper, frame, replace(truth, tiles=truth.tiles[1:]))  # a top found where none was drawn
    shifted = [replace(tile, px=(tile.px[0] + truth.tile_px, tile.px[1])) for tile in truth.tiles]
    assert map_errs(mapper, frame, replace(truth, tiles=shifted))  # tops a tile away from the drawn ones
    empty, bare = render_position({}, Conditions(seed=1))
    assert not map_errs(mapper, empty, bare)
    assert map_errs(mapper, empty, replace(bare, tiles=truth.tiles))  # drawn tops the map missed


def test_found_tops_match_rendered_ones_one_to_one_within_reach() -> None:
    _, truth = render_position(POSITION, Conditions(seed=3))
    tops = [tile.px for tile in truth.tiles]
    step = truth.tile_px

    def errors(found, frame_truth=truth) -> tuple[int, int]:
        return top_pairs(found, frame_truth)[1:]

    assert sorted(top_pairs(tops[::-1], truth)[0]) == [(0, 2), (1, 1), (2, 0)]
    assert errors(tops) == (0, 0)
    assert errors([(x + 0.3 * step, y) for x, y in tops]) == (0, 0)  # within reach
    assert errors([(x + 0.5 * step, y) for x, y in tops]) == (3, 3)  # beyond it
    assert errors(tops[:2]) == (1, 0)
    assert errors([*tops, tops[0]]) == (0, 1)  # two found on one top: one is a phantom
    assert errors([]) == (3, 0)
    hidden = replace(truth, tiles=(replace(truth.tiles[0], hidden_by_hand=True), *truth.tiles[1:]))
    assert errors(tops[1:], hidden) == (0, 0)  # a top the hand hides need not be found
    assert sorted(top_pairs(tops[1:], hidden)[0]) == [(0, 1), (1, 2)]  # indices into the truth's tiles


def test_the_map_reading_counts_wrong_colours_and_how_far_centres_lie_off() -> None:
    frame, truth = render_position(POSITION, Conditions(seed=3))
    reading = map_reading(TileMapper(), frame, truth)
    assert (reading.missed, reading.phantoms, reading.wrong_colour) == (0, 0, 0)
    assert len(reading.offsets) == 3 and max(reading.offsets) < 0.1  # centres within a tenth of a pitch
    swapped = tuple(replace(tile, colour=truth.tiles[(k + 1) % 3].colour) for k, tile in enumerate(truth.tiles))
    assert map_reading(TileMapper(), frame, replace(truth, tiles=swapped)).wrong_colour == 2  # wQ/bQ/wA1 rotated


def test_a_pinned_table_films_its_share_of_the_frames() -> None:
    rng = np.random.default_rng(5)
    tables = [_frame(rng, {"style": "a"}, None, ("felt", share))[2].table for share in (1.0, 1.0, 0.0, 0.0, 0.0)]
    assert tables[:2] == ["felt", "felt"]
    assert "felt" not in tables[2:] and len(set(tables[2:])) > 1


def test_a_hive_that_looks_small_is_filmed_through_the_view_a_camera_zooms_to() -> None:
    far = Conditions(seed=3, height_mm=2500)
    frame, truth = render_position(POSITION, far)
    assert truth.pitch_px < 20
    zoomed, zoomed_truth = _zoomed(POSITION, far, frame, truth)
    assert zoomed.shape == frame.shape and abs(zoomed_truth.pitch_px - WANTED_PITCH) < 2  # zoomed to the size aimed at
    assert len(zoomed_truth.tiles) == 3 and not zoomed_truth.outside  # every top still in view
    near, near_truth = render_position(POSITION, Conditions(seed=3))
    assert _zoomed(POSITION, Conditions(seed=3), near, near_truth)[0] is near  # large enough: the whole view
