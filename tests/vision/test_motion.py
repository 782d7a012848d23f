"""Motion between frames: what a hand must show to count as one."""

from __future__ import annotations

import numpy as np

from tests.vision.test_detect import POSITION
from vision.detect import Detector
from vision.motion import MotionMap, touching
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
