"""A still view that nothing changes need not be read again.

Most frames of a game show the board left alone. Once the last ``SAME_READS`` reads of a view
agreed (every top in the same cell, of the same colour, creature and height, no hand) on frames
in which nothing moved (a frame that comes to rest after a move is still read, and so are the
next ones, while the detector's memory of the move settles: a tile too small for the map is
looked for again once the scene rests, a new top is believed once frames agree), a frame
whose every map cell looks as it did at the last read (mean brightness within ``QUIET_LEVEL``
grey levels) shows the same: the detector answers with that read again, without running its
networks. Any change anywhere in the view (a hand coming, a lamp switched on, the light
drifting that far since the last read) brings a full read back.
"""

from __future__ import annotations

import numpy as np

from rules.observation import Observation
from vision.motion import MOTION_LEVEL, grey

QUIET_LEVEL = MOTION_LEVEL  # grey levels a map cell may differ from the last read's and still count as unchanged
SAME_READS = 10  # reads in a row that must agree before an unchanged frame is answered from the last one: a second
# at 10 fps (the last move's top in a world-referee film was read as a white Beetle three frames running, a white
# Mosquito six, then as the black Queen it was: three froze it as the Mosquito)


def signature(observation: Observation) -> tuple:
    """What a read says of the board: whether a hand hid it, and each top's cell, colour,
    creature and height (not its confidence or pixel, which vary a little from frame to frame)."""
    return observation.occluded, tuple((s.q, s.r, s.colour, s.bug, s.height_hint) for s in observation.tiles)


class QuietView:
    """Whether a frame shows nothing new since the last reads of one view agreed."""

    def __init__(self) -> None:
        self.forget()

    def forget(self) -> None:
        """The next frames must be read afresh (a new view, set or lens, or reads that changed)."""
        self._grey: np.ndarray | None = None  # the map cells' grey levels at the last read
        self._said: tuple | None = None  # the last read's ``signature``
        self._agreeing = 0  # reads in a row that said it

    def read(self, colour: np.ndarray, observation: Observation, moved: bool) -> None:
        """A frame of map-cell colours ``colour`` (the motion map's), in which something ``moved``
        since the frame before or not, was read as ``observation``."""
        said = signature(observation)
        self._agreeing = 0 if moved else self._agreeing + 1 if said == self._said else 1
        self._said, self._grey = said, grey(colour)

    def unchanged(self, colour: np.ndarray) -> bool:
        """Whether a frame of map-cell colours ``colour`` shows what the agreeing reads did, with no hand."""
        if self._grey is None or self._said is None or self._said[0] or self._agreeing < SAME_READS:
            return False
        now = grey(colour)
        return now.shape == self._grey.shape and int(np.abs(now - self._grey).max()) <= QUIET_LEVEL
