"""Keep colours steady through a session: a lamp switched on mid-game must not change what is read.

The first clear view of the table (no hand in it) is the reference. Every later frame is
scaled, one gain per colour channel, so that the bare table looks as it did then
(``calibration.lighting.LightingReference``). The table is what the previous frame showed
as neither tile nor anything else, and each gain is the median over regions of the table,
so the hive and a hand reaching in do not bias it. Gains are measured on a small copy of
the frame and left out when they are all close to 1.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.lighting import CLIPPED, LightingReference

SHRINK = 16  # gains are measured at 1/SHRINK resolution: light varies slowly across the table
GRID = (3, 4)  # rows, columns of table regions, each measuring the gains; their median is used
UNCHANGED = 0.03  # gains within this of 1 leave the frame as it is
MEASURE_EVERY = 5  # frames between measurements of the gains (and of which pixels are table)
MARGIN_PX = 1  # the non-table mask grows by this many small-image pixels (tile shadows, blur)


class SessionLight:
    """The table's colour as first seen, and the gains that bring later frames back to it.

    Light changes slowly next to a frame rate: the gains and the table mask are measured
    again every ``MEASURE_EVERY`` frames, and applied to every frame.
    """

    def __init__(self, grid: tuple[int, int] = GRID) -> None:
        self.grid = grid
        self.reference: LightingReference | None = None
        self._table: np.ndarray | None = None  # bool mask of table pixels at 1/SHRINK size
        self._gains: np.ndarray | None = None  # (3,), None: not measured since the reference
        self._frames = 0

    def normalise(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` under the reference light (unchanged until a reference has been learnt)."""
        self._frames += 1
        if self.reference is None or self._table is None:
            return frame
        if self._gains is None or self._frames % MEASURE_EVERY == 0:
            try:
                self._gains = self.reference.uniform_gains(_shrink(frame), self._table)
            except ValueError:  # too little table in view to measure the light: keep the last gains
                pass
        gains = self._gains
        if gains is None or np.all(np.abs(gains - 1.0) < UNCHANGED):
            return frame
        table = np.clip(np.rint(np.arange(256, dtype=np.float32)[:, None] * gains), 0, 255).astype(np.uint8)
        scaled = cv2.LUT(frame, table.reshape(256, 1, 3))
        # a saturated channel was at least as bright as captured: a clipped white face turned
        # down with it would come out tinted, so it takes its pixel's brightest channel instead
        channels = list(cv2.split(scaled))
        brightest = cv2.max(cv2.max(channels[0], channels[1]), channels[2])
        for channel in np.nonzero(gains < 1.0)[0]:
            clipped = cv2.compare(cv2.extractChannel(frame, int(channel)), CLIPPED, cv2.CMP_GE)
            channels[channel] = cv2.copyTo(brightest, clipped, channels[channel])
        return cv2.merge(channels)

    def learn(self, frame: np.ndarray, foreground: np.ndarray, occluded: bool) -> None:
        """Note which pixels of ``frame`` (as captured) are table; the first clear view becomes the reference.

        ``foreground`` is the segmentation's non-table mask (any resolution, non-zero = not table).
        """
        if self.reference is not None and self._frames % MEASURE_EVERY != MEASURE_EVERY - 1:
            return  # the mask is needed by the next measuring frame only
        small = _shrink(frame)
        height, width = small.shape[:2]
        blocked = cv2.resize(np.where(foreground > 0, 255, 0).astype(np.uint8), (width, height),
                             interpolation=cv2.INTER_AREA)
        blocked = cv2.dilate(blocked, np.ones((2 * MARGIN_PX + 1, 2 * MARGIN_PX + 1), np.uint8))
        self._table = blocked == 0
        if self.reference is None and not occluded:
            try:
                self.reference = LightingReference.from_frame(small, self._table, self.grid)
            except ValueError:  # hardly any table in view yet: try again on a later frame
                pass


def _shrink(frame: np.ndarray) -> np.ndarray:
    height, width = frame.shape[:2]
    return cv2.resize(frame, (max(1, width // SHRINK), max(1, height // SHRINK)), interpolation=cv2.INTER_AREA)
