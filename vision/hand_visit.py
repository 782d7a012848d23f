"""How the table looked just before the last hand came by the hive: nothing was put where it
still looks the same.

A hand that lays or moves a tile changes the picture where the tile lands. So a top seen after
the hand has gone where none was seen before it came, at a spot that looks as it did on the last
still frame before the hand came, was not put there on that visit: it is the table's print that a move
beside it made the tile map take for a top (a cloth's flower, once a tile lies next to it), or a
tile laid earlier and missed till now. The referee weighs which (``Referee._past_unplaced``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from vision.motion import spot_colours, unchanged
from vision.tilemaps import Peak

SAME_TOP = 0.5  # pitches: a top seen before the hand came this near is the same top


@dataclass(frozen=True)
class _Look:
    """A still frame with no hand by the hive: the motion map's colours, the centres of the tops
    it showed and of those of them the tile map itself found (frame pixels, (N, 2))."""

    colour: np.ndarray
    tops: np.ndarray
    found: np.ndarray


class HandVisits:
    """How the last still frame before the last hand came by the hive looked."""

    def __init__(self) -> None:
        self._calm: _Look | None = None  # the last still frame with no hand by the hive
        self._before: _Look | None = None  # the last still frame before the last hand came
        self._hand = False  # a hand by the hive on the last frame

    def see(self, colour: np.ndarray, hand: bool, still: bool, tops: Sequence[np.ndarray],
            found: Sequence[np.ndarray] = ()) -> None:
        """Take in a frame's colours (the motion map's), whether a hand was by the hive, whether
        nothing moved since the frame before, the centres of the tops it showed and of those of
        them the tile map itself ``found`` (frame pixels). Only a still frame is the look before a
        hand: a frame of a visit that the hand detection missed (the hand laying the first tile,
        by no hive yet) moves."""
        if hand and not self._hand:
            self._before = self._calm
        if still and not hand:
            self._calm = _Look(colour, _points(tops), _points(found))
        self._hand = hand

    def vacated(self, centre: np.ndarray, pitch: float) -> bool:
        """Whether the tile map found a top within SAME_TOP pitches of ``centre`` (frame pixels,
        tiles ``pitch`` apart) on the last still frame before the last hand came: the hand took
        it away, and put nothing there (one piece moves a turn; a black Ant's old spot, shaded
        anew by the tiles beside it, looked like a black Beetle put there). A top only a second
        opinion found (``vision.doubts.arrivals``) may be found so again after the next hand."""
        return self._before is not None and _within(self._before.found, centre, SAME_TOP * pitch)

    def unplaced(self, colour: np.ndarray, centres: Sequence[np.ndarray], pitch: float) -> np.ndarray:
        """(T,) bool: which tops at ``centres`` (frame pixels, tiles ``pitch`` apart) were not seen
        before the last hand came, though their spots of ``colour`` (the motion map's, of a frame
        with no hand) look as they did then (``motion.unchanged``): nothing was put there on its
        visit. None before a hand has come, or while one is by."""
        before = self._before
        if self._hand or before is None or before.colour.shape != colour.shape:
            return np.zeros(len(centres), bool)
        flags = []
        for centre in centres:
            peak = Peak(np.asarray(centre, float), pitch, 1.0, 0.0)
            new = not _within(before.tops, peak.centre, SAME_TOP * pitch)
            flags.append(new and unchanged(spot_colours(colour, peak), spot_colours(before.colour, peak)))
        return np.array(flags, bool)


def _points(centres: Sequence[np.ndarray]) -> np.ndarray:
    """(N, 2) frame pixels."""
    return np.array(centres, float).reshape(-1, 2)


def _within(points: np.ndarray, centre: np.ndarray, reach: float) -> bool:
    """Whether any of ``points`` (N, 2) lies within ``reach`` of ``centre``."""
    return bool(len(points)) and bool(np.hypot(*(points - centre).T).min() <= reach)
