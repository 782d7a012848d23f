"""How the table looked just before the last hand came by the hive: nothing was put where it
still looks the same.

A hand that lays or moves a tile changes the picture where the tile lands. So a top seen after
the hand has gone where none was seen before it came, at a spot that looks as it did on the last
still frame before the hand came, was not put there on that visit: it is the table's print that a move
beside it made the tile map take for a top (a cloth's flower, once a tile lies next to it), or a
tile laid earlier and missed till now. The referee weighs which (``Referee._past_unplaced``).
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from vision.motion import spot_colours, unchanged
from vision.tilemaps import Peak

SAME_TOP = 0.5  # pitches: a top seen before the hand came this near is the same top


class HandVisits:
    """The motion map's colours, and the tops seen, on the last frame before the last hand came
    by the hive."""

    def __init__(self) -> None:
        self._calm: tuple[np.ndarray, np.ndarray] | None = None  # the last still frame with no hand by the hive
        self._before: tuple[np.ndarray, np.ndarray] | None = None  # the last frame before the last hand came
        self._hand = False  # a hand by the hive on the last frame

    def see(self, colour: np.ndarray, hand: bool, still: bool, tops: Sequence[np.ndarray]) -> None:
        """Take in a frame's colours (the motion map's), whether a hand was by the hive, whether
        nothing moved since the frame before, and the centres of the tops it showed (frame pixels).
        Only a still frame is the look before a hand: a frame of a visit that the hand detection
        missed (the hand laying the first tile, by no hive yet) moves."""
        if hand and not self._hand:
            self._before = self._calm
        if still and not hand:
            self._calm = colour, np.array(tops, float).reshape(-1, 2)
        self._hand = hand

    def unplaced(self, colour: np.ndarray, centres: Sequence[np.ndarray], pitch: float) -> np.ndarray:
        """(T,) bool: which tops at ``centres`` (frame pixels, tiles ``pitch`` apart) were not seen
        before the last hand came, though their spots of ``colour`` (the motion map's, of a frame
        with no hand) look as they did then (``motion.unchanged``): nothing was put there on its
        visit. None before a hand has come, or while one is by."""
        if self._hand or self._before is None or self._before[0].shape != colour.shape:
            return np.zeros(len(centres), bool)
        before, seen = self._before
        flags = []
        for centre in centres:
            peak = Peak(np.asarray(centre, float), pitch, 1.0, 0.0)
            new = not len(seen) or np.hypot(*(seen - peak.centre).T).min() > SAME_TOP * pitch
            flags.append(new and unchanged(spot_colours(colour, peak), spot_colours(before, peak)))
        return np.array(flags, bool)
