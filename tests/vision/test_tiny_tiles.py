"""Tiles too small for the tile map's own scale: where to look again, and a lone far tile found."""

from __future__ import annotations

import numpy as np
import pytest

from rules.pieces import Piece
from vision.detect import Detector
from vision.render.scene import Conditions, render_position
from vision.tilemaps import Hint, Peak
from vision.tiny_tiles import TinyTiles

FRAME = (720, 1280, 3)
STILL = np.zeros((90, 160), bool)
MOVING = np.ones((90, 160), bool)


def _tops(pitch: float) -> list[Peak]:
    return [Peak(np.array([600.0, 300.0]), pitch, 0.9, 1.0), Peak(np.array([600.0 + pitch, 300.0]), pitch, 0.9, 0.0)]


def test_the_hint_follows_small_tiles_and_looks_everywhere_once_after_a_hand() -> None:
    tiny = TinyTiles()
    assert tiny.hint == Hint() and tiny.shows_all([])  # a new scene: the whole frame, larger
    tiny.saw(_tops(14.0), STILL, FRAME)
    assert tiny.hint == Hint((536, 236, 678, 364), 14.0)  # round the small tops, with their pitch
    tiny.saw([], MOVING, FRAME)  # a hand: keep looking where they were
    assert tiny.hint == Hint((536, 236, 678, 364), 14.0) and not tiny.shows_all([])
    tiny.saw([], STILL, FRAME)  # gone with the tiles, at rest: once over the whole frame
    assert tiny.hint == Hint()
    tiny.saw([], STILL, FRAME)  # nothing there either: no more looks until something moves
    assert tiny.hint is None
    tiny.saw([], STILL, FRAME)
    assert tiny.hint is None
    tiny.saw(_tops(48.0), STILL, FRAME)  # tiles the map sees at its own scale need no hint
    assert tiny.hint is None and tiny.shows_all(_tops(48.0))


def test_on_a_bare_table_that_moves_the_whole_frame_is_looked_at_once_it_rests() -> None:
    tiny = TinyTiles()
    tiny.saw([], STILL, FRAME)
    assert tiny.hint is None
    for _ in range(3):
        tiny.saw([], MOVING, FRAME)
        assert tiny.hint is None  # not while a hand moves about: that would cost every frame
    tiny.saw([], STILL, FRAME)
    assert tiny.hint == Hint()


@pytest.fixture(scope="module")
def far_scene() -> tuple[np.ndarray, np.ndarray]:
    """A lone tile 21 pixels wide on a flowered cloth under a wide lens (the map at its quarter scale
    sees nothing like a tile), and the bare cloth."""
    conditions = Conditions(height_mm=900, hfov_deg=102, tilt_deg=14, seed=3, table="floral", table_variant=2)
    frame, truth = render_position({(0, 0): [Piece.parse("wQ")]}, conditions)
    bare, _ = render_position({}, conditions)
    return frame, bare


def test_a_lone_far_tile_is_found_in_a_scenes_first_frame(far_scene) -> None:
    frame, _ = far_scene
    assert len(Detector().detect(frame).tiles) == 1


def test_a_far_tile_laid_on_a_bare_table_is_found_and_kept(far_scene) -> None:
    """The first frames of the tile show nothing at the map's scale; the bare table must not learn
    them as bare (it would then drop the tile once found)."""
    frame, bare = far_scene
    detector = Detector()
    seen = [len(detector.detect(f, 0.1 * i).tiles) for i, f in enumerate([bare] * 3 + [frame] * 8)]
    assert seen[:3] == [0, 0, 0] and seen[6:] == [1] * 5
