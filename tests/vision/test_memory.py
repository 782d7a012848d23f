"""Read memory: a top's class weights summed with those of the same spot in the last few frames."""

from __future__ import annotations

import numpy as np

from vision.memory import FRAMES, ReadMemory

PITCH = 40.0
SPOTS = np.array([[100.0, 100.0], [140.0, 100.0]])
LEVELS = np.array([1, 1])


def weights(first: float, second: float) -> np.ndarray:
    """Two tops over three classes: the first leans to class 0 by ``first``, the second to class 2 by ``second``."""
    return np.array([[first, 1 - first, 0.0], [0.0, 1 - second, second]])


def test_a_read_that_flickers_for_one_frame_keeps_what_the_frames_before_saw() -> None:
    memory = ReadMemory()
    for _ in range(3):
        memory.fuse(SPOTS, LEVELS, PITCH, weights(0.9, 0.9))
    fused = memory.fuse(SPOTS + 3.0, LEVELS, PITCH, weights(0.3, 0.9))  # the camera shook by 3 px
    assert fused[0].argmax() == 0 and fused[1].argmax() == 2
    assert np.allclose(fused.sum(axis=1), 1.0)


def test_another_spot_another_level_or_a_cleared_memory_is_not_fused() -> None:
    memory = ReadMemory()
    memory.fuse(SPOTS, LEVELS, PITCH, weights(0.9, 0.9))
    moved = memory.fuse(SPOTS + [0.3 * PITCH, 0.0], LEVELS, PITCH, weights(0.3, 0.9))
    assert moved[0].argmax() == 1  # a top a third of a pitch away is another top
    climbed = memory.fuse(SPOTS, np.array([2, 1]), PITCH, weights(0.3, 0.9))
    assert climbed[0].argmax() == 1  # a beetle on top at the same spot is another top
    memory.clear()
    assert memory.fuse(SPOTS, LEVELS, PITCH, weights(0.3, 0.9))[0].argmax() == 1


def test_only_the_last_frames_are_remembered() -> None:
    memory = ReadMemory()
    memory.fuse(SPOTS, LEVELS, PITCH, weights(1.0, 0.9))
    for _ in range(FRAMES):
        memory.fuse(SPOTS, LEVELS, PITCH, weights(0.45, 0.9))
    assert memory.fuse(SPOTS, LEVELS, PITCH, weights(0.45, 0.9))[0].argmax() == 1  # the sure frame is forgotten


def test_a_frame_with_no_tops_and_remembered_frames_with_none_are_harmless() -> None:
    memory = ReadMemory()
    assert memory.fuse(np.zeros((0, 2)), np.zeros(0, int), PITCH, np.zeros((0, 3))).shape == (0, 3)
    assert memory.fuse(SPOTS, LEVELS, PITCH, weights(0.9, 0.9))[0].argmax() == 0


def test_a_top_round_which_the_picture_changed_is_read_afresh() -> None:
    memory = ReadMemory()
    memory.fuse(SPOTS, LEVELS, PITCH, weights(0.9, 0.9))
    fused = memory.fuse(SPOTS, LEVELS, PITCH, weights(0.3, 0.3), still=np.array([False, True]))
    assert fused[0].argmax() == 1 and fused[1].argmax() == 2
