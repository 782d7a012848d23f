"""A still view whose reads agreed is answered without the networks, until something in it changes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour, Piece
from tests.vision.test_detect import POSITION
from vision.detect import Detector
from vision.quiet import SAME_READS, QuietView
from vision.render.scene import Conditions, render_position


@pytest.fixture(scope="module")
def boards() -> tuple[np.ndarray, np.ndarray]:
    """The test position and the same with one more tile, laid beside it (no hand in either)."""
    conditions = Conditions(seed=5, height_mm=600)
    more = {**POSITION, (3, 0): [Piece.parse("bA2")]}
    return render_position(POSITION, conditions)[0], render_position(more, conditions)[0]


def counted(detector: Detector) -> list[int]:
    """A counter of the tile map's runs on ``detector`` (one element per run)."""
    runs: list[int] = []
    maps = detector.mapper.maps

    def counting(frame: np.ndarray):
        runs.append(1)
        return maps(frame)

    detector.mapper.maps = counting  # type: ignore[method-assign]
    return runs


def look(detector: Detector, frame: np.ndarray, timestamp: float) -> Observation:
    """One frame as the live loop reads it: a darker one taken where the detector wants it (``vision.glare``)."""
    observation = detector.detect(frame, timestamp)
    if detector.wants_darker():
        observation = detector.read_darker(cv2.convertScaleAbs(frame, alpha=0.4)) or observation
    return observation


def test_a_still_view_read_alike_is_answered_again_without_the_networks(boards) -> None:
    frame, _ = boards
    detector = Detector()
    runs = counted(detector)
    reads = [look(detector, frame.copy(), 0.1 * i) for i in range(SAME_READS + 2)]  # the first frame moved everywhere
    assert len(reads[-1].tiles) == len(POSITION)
    before = len(runs)
    again = [look(detector, frame.copy(), 1.0 + 0.1 * i) for i in range(3)]
    assert len(runs) == before
    assert all(a.tiles == reads[-1].tiles for a in again)
    assert [a.timestamp for a in again] == [1.0, 1.1, 1.2]


def test_a_tile_laid_on_a_quiet_view_is_read_at_once(boards) -> None:
    frame, more = boards
    detector = Detector()
    for i in range(SAME_READS + 3):
        look(detector, frame, 0.1 * i)
    assert len(look(detector, more, 1.0).tiles) == len(POSITION) + 1


def test_light_drifting_by_small_steps_is_read_again_once_it_has_drifted_far() -> None:
    frame, _ = render_position(POSITION, Conditions(seed=5, height_mm=600))
    detector = Detector()
    runs = counted(detector)
    for i in range(SAME_READS + 3):
        look(detector, frame, 0.1 * i)
    quiet = len(runs)
    look(detector, frame, 0.9)
    assert len(runs) == quiet
    for step in range(1, 6):  # 3 grey levels a frame: no frame moved since the one before
        look(detector, cv2.add(frame, np.full(frame.shape, 3 * step, np.uint8)), 1.0 + 0.1 * step)
    assert len(runs) > quiet


def sighting(confidence: float, bug: Bug = Bug.ANT) -> TileSighting:
    return TileSighting(0, 0, Colour.WHITE, bug, confidence, 1, (640.0, 360.0))


def test_reads_agree_whatever_their_confidence_but_not_across_creatures_hands_or_motion() -> None:
    colour = np.full((90, 160, 3), 100, np.uint8)
    quiet = QuietView()
    for confidence in np.linspace(0.8, 0.99, SAME_READS):
        quiet.read(colour, Observation((sighting(float(confidence)),)), moved=False)
    assert quiet.unchanged(colour)
    quiet.read(colour, Observation((sighting(0.9, Bug.SPIDER),)), moved=False)
    assert not quiet.unchanged(colour)  # a new say: it must be read alike SAME_READS times again
    for _ in range(SAME_READS):
        quiet.read(colour, Observation((sighting(0.9),)), moved=True)
    assert not quiet.unchanged(colour)  # frames in which something moved do not count
    for _ in range(SAME_READS):
        quiet.read(colour, Observation((sighting(0.9),), occluded=True), moved=False)
    assert not quiet.unchanged(colour)  # a hand over the board is never taken as still
