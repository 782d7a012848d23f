"""What moved since the previous frame: a hand over the hive moves; a table that looks like skin does not."""

from __future__ import annotations

import cv2
import numpy as np

MOTION_LEVEL = 10  # grey levels: a map cell whose mean brightness changed more than this has moved


class MotionMap:
    """Cells of the tile maps' grid that changed since the previous frame of one camera."""

    def __init__(self) -> None:
        self._colour: np.ndarray | None = None

    @property
    def colour(self) -> np.ndarray | None:
        """The last frame's mean BGR colour per map cell (rows, cols, 3)."""
        return self._colour

    def moved(self, frame: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
        """(rows, cols) bool: cells of ``frame`` unlike the frame before (all of them for the first)."""
        last = self._colour
        self._colour = cv2.resize(frame, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)
        if last is None or last.shape != self._colour.shape:
            return np.ones(shape, bool)
        return np.abs(_grey(self._colour) - _grey(last)) > MOTION_LEVEL


def _grey(colour: np.ndarray) -> np.ndarray:
    """Grey levels of a BGR image, signed so that differences do not wrap."""
    return cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY).astype(np.int16)


def touching(mask: np.ndarray, moved: np.ndarray) -> np.ndarray:
    """The connected parts of ``mask`` that have at least one moved cell."""
    count, labels = cv2.connectedComponents(mask.astype(np.uint8))
    keep = np.zeros(count, bool)
    keep[np.unique(labels[mask & moved])] = True
    keep[0] = False
    return keep[labels]
