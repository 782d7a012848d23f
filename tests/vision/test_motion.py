"""Motion between frames: what a hand must show to count as one."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_detect import POSITION
from vision.detect import Detector
from vision.motion import MotionMap, touching
from vision.render.canvas import Label
from vision.render.scene import Conditions, render_position


def test_the_first_frame_moved_everywhere_then_only_what_changed() -> None:
    motion = MotionMap()
    frame = np.full((720, 1280, 3), 100, np.uint8)
    assert motion.moved(frame, (90, 160)).all()
    assert not motion.moved(frame.copy(), (90, 160)).any()
    changed = frame.copy()
    changed[80:160, 240:320] = 160  # map cells 10-19 down, 30-39 across
    moved = motion.moved(changed, (90, 160))
    assert moved[10:20, 30:40].all() and moved.sum() == 100


def test_only_parts_with_a_moved_cell_are_kept() -> None:
    mask = np.zeros((20, 20), bool)
    mask[2:5, 2:5] = mask[10:15, 10:15] = True
    moved = np.zeros_like(mask)
    moved[12, 14] = True
    kept = touching(mask, moved)
    assert kept[10:15, 10:15].all() and kept.sum() == 25


def test_a_hand_moving_over_the_hive_is_flagged_and_a_still_table_is_not() -> None:
    detector = Detector()
    conditions = Conditions(hand=True, seed=3, height_mm=600)
    for x in (-40.0, 0.0, 40.0):  # the hand sweeps across the hive, frame after frame
        frame, truth = render_position(POSITION, conditions, hand_at=(x, 0.0))
        assert truth.hand_occludes and detector.detect(frame).occluded
    still, _ = render_position(POSITION, Conditions(seed=3, height_mm=600))
    detector.detect(still)
    assert not detector.detect(still).occluded


def test_cells_back_as_they_last_kept_still_are_left_not_moving() -> None:
    motion = MotionMap()
    table = np.full((720, 1280, 3), 100, np.uint8)
    for _ in range(3):
        motion.moved(table, (90, 160))
    sleeve, gone = table.copy(), table.copy()
    sleeve[80:160, 240:320] = 30  # map cells 10-19 down, 30-39 across
    gone[80:160, 320:400] = 200  # a tile laid beside it
    assert motion.moved(sleeve, (90, 160))[10:20, 30:40].all() and not motion.left().any()
    motion.moved(sleeve, (90, 160))  # the sleeve keeps still for one frame: not long enough to be the table's look
    moved = motion.moved(gone, (90, 160))
    assert moved[10:20, 30:50].all()
    assert motion.left()[10:20, 30:40].all() and not motion.left()[10:20, 40:50].any()


def test_a_skin_coloured_print_a_hand_has_just_left_is_no_hand() -> None:
    """A print the tile map takes for skin changes where a hand's arm passed over it: once the
    hand has gone it looks again as it did before, and the board is not taken for hidden."""
    still, _ = render_position(POSITION, Conditions(seed=3, height_mm=600))
    hand, _ = render_position(POSITION, Conditions(hand=True, seed=3, height_mm=600), hand_at=(60.0, 0.0))
    printed = still.copy()
    cv2.ellipse(printed, (330, 300), (150, 80), 0, 0, 360, (150, 165, 215), -1)  # pink, beside the hive
    passing = np.where((np.abs(hand.astype(int) - still).max(axis=2) > 40)[..., None], hand, printed)
    detector = Detector()
    for _ in range(3):
        detector.detect(printed)
    assert detector.detect(passing).occluded
    assert not detector.detect(printed).occluded


def _printed_under(frame: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``frame`` with a flat pink print on the table (``table``: its table pixels) round the hive."""
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.ellipse(inside, (640, 360), (330, 230), 0, 0, 360, 1, -1)
    return np.where((table & inside.astype(bool))[..., None], np.array([120, 150, 215], np.uint8), frame)


def test_a_tile_laid_on_a_skin_coloured_print_is_no_hand() -> None:
    """The tile map takes a pink print under the hive for skin; a tile laid on it changes the print
    round the tile's rim (its sides and shadow), a thin ring that no hand draws: the board is read."""
    conditions = Conditions(seed=3, height_mm=600)
    before = {cell: pieces for cell, pieces in POSITION.items() if cell != (1, 1)}
    frames = []
    for position in (before, POSITION):
        frame, truth = render_position(position, conditions)
        frames.append(_printed_under(frame, truth.labels == Label.TABLE))
    detector = Detector()
    for _ in range(3):  # the first frame moved everywhere
        detector.detect(frames[0])
    assert not detector.detect(frames[0]).occluded
    laid = detector.detect(frames[1])
    assert not laid.occluded and len(laid.tiles) == len(POSITION)
