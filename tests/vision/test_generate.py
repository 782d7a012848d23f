"""Training shards: the hard frames kept for fine-tuning the tile map are those it errs on, and
how found tops are matched to the rendered ones."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rules.pieces import Piece
from vision.render.scene import Conditions, render_position
from vision.tilemaps import TileMapper
from vision.training.generate import _frame, map_errs
from vision.training.targets import top_errors

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
    assert top_errors(tops, truth) == (0, 0)
    assert top_errors([(x + 0.3 * step, y) for x, y in tops], truth) == (0, 0)  # within reach
    assert top_errors([(x + 0.5 * step, y) for x, y in tops], truth) == (3, 3)  # beyond it
    assert top_errors(tops[:2], truth) == (1, 0)
    assert top_errors([*tops, tops[0]], truth) == (0, 1)  # two found on one top: one is a phantom
    assert top_errors([], truth) == (3, 0)
    hidden = replace(truth, tiles=(replace(truth.tiles[0], hidden_by_hand=True), *truth.tiles[1:]))
    assert top_errors(tops[1:], hidden) == (0, 0)  # a top the hand hides need not be found


def test_a_pinned_table_films_its_share_of_the_frames() -> None:
    rng = np.random.default_rng(5)
    tables = [_frame(rng, {"style": "a"}, None, ("felt", share))[2].table for share in (1.0, 1.0, 0.0, 0.0, 0.0)]
    assert tables[:2] == ["felt", "felt"]
    assert "felt" not in tables[2:] and len(set(tables[2:])) > 1
