"""What moved since the previous frame: a hand over the hive moves; a table that looks like skin does not,
and where a hand has just gone the table looks again as it did before the hand came."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tilemaps import STRIDE, Peak, cell_of, disc_window

MOTION_LEVEL = 10  # grey levels: a map cell whose mean brightness changed more than this has moved
SPOT_REACH = 0.35  # pitches round a top's centre whose cells make its spot
STILL_FRAMES = 2  # frames in a row a cell must keep still to count as seen still (a sleeve can keep still for one)
SAME_SHARE = 0.8  # share of a spot's cells that must look as they did for the spot to look unchanged


class MotionMap:
    """Cells of the tile maps' grid that changed since the previous frame of one camera."""

    def __init__(self) -> None:
        self._colour: np.ndarray | None = None
        self._still: np.ndarray | None = None  # each cell's colour when it last kept still for STILL_FRAMES
        self._calm = np.zeros((0, 0), int)  # frames each cell has kept still
        self._left = np.zeros((0, 0), bool)

    @property
    def colour(self) -> np.ndarray | None:
        """The last frame's mean BGR colour per map cell (rows, cols, 3)."""
        return self._colour

    def moved(self, frame: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
        """(rows, cols) bool: cells of ``frame`` unlike the frame before (all of them for the first)."""
        last = self._colour
        self._colour = cv2.resize(frame, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
        if last is None or last.shape != self._colour.shape:
            self._still = np.full(self._colour.shape, np.nan)
            self._calm, self._left = np.zeros(shape, int), np.zeros(shape, bool)
            return np.ones(shape, bool)
        moved = np.abs(grey(self._colour) - grey(last)) > MOTION_LEVEL
        assert self._still is not None
        self._left = moved & (np.abs(self._colour - self._still).max(axis=2) <= MOTION_LEVEL)
        self._calm = np.where(moved, 0, self._calm + 1)
        still = self._calm >= STILL_FRAMES
        self._still[still] = self._colour[still]
        return moved

    def left(self) -> np.ndarray:
        """(rows, cols) bool: the cells the last ``moved`` found moved only to look again as they
        did when they last kept still (STILL_FRAMES frames in a row): what passed over them (a
        hand) has gone."""
        return self._left


def grey(colour: np.ndarray) -> np.ndarray:
    """Grey levels of a BGR image, signed so that differences do not wrap."""
    return cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY).astype(np.int16)


def touching(mask: np.ndarray, moved: np.ndarray) -> np.ndarray:
    """The connected parts of ``mask`` that have at least one moved cell."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8))
    keep = np.zeros(count, bool)
    keep[np.unique(labels[mask & moved])] = True
    keep[0] = False
    return keep[labels]


def spot_colours(colour: np.ndarray, peak: Peak) -> np.ndarray:
    """The colours (N, 3) of the cells of a colour map (the motion map's, rows x cols x BGR) within
    SPOT_REACH pitches of ``peak``'s centre."""
    window, near = disc_window(tuple(cell_of(peak.centre[None])[0]), SPOT_REACH * peak.pitch / STRIDE,
                               colour.shape[:2])
    return colour[window][near].astype(float)


def unchanged(now: np.ndarray, then: np.ndarray) -> bool:
    """Whether a spot's colours ``now`` are as ``then`` (``spot_colours``): SAME_SHARE of its cells
    within MOTION_LEVEL in every channel (NaN, a cell never seen so, never is)."""
    if not len(now) or now.shape != then.shape:
        return False
    return bool((np.abs(now - then).max(axis=1) <= MOTION_LEVEL).mean() >= SAME_SHARE)
