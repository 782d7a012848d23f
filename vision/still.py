"""What one camera saw at spots where nothing has moved since: a top does not come or go there
on one frame's say, and its read is the sum of the frames that saw it still.

A tile can only arrive or leave by hand, and a hand moves the picture. So where the picture
has not moved (``vision.motion``), a top the tile map misses in one frame is kept, and a top it
finds where there was none is believed only once ``SETTLE`` frames in a row agree. Where the
picture moved, the frame is believed at once. The creature embeddings of a still top are kept
too (up to ``MAX_VIEWS``), so its read averages over the frames instead of flickering.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from vision.tilemaps import Peak, STRIDE, cell_of

SETTLE = 2  # frames in a row that must disagree with a still spot before it changes
MATCH = 0.35  # pitches: a top this close to a spot's is the same top
STILL_REACH = 0.6  # pitches round a spot that must not have moved for it to count as still
MAX_VIEWS = 6  # embeddings of a still top kept for its read


@dataclass
class _Spot:
    peak: Peak
    present: bool  # reported as a top
    doubt: int = 0  # frames in a row the tile map has said otherwise
    views: list[np.ndarray] = field(default_factory=list)  # embeddings from still frames, newest last


class StillSpots:
    """The tops of one camera's last frames, and their embeddings, where nothing moved."""

    def __init__(self) -> None:
        self._spots: list[_Spot] = []

    def settle(self, found: list[Peak], moved: np.ndarray) -> list[Peak]:
        """The tops to report for this frame: ``found`` (the tile map's) corrected where
        nothing ``moved`` (the motion map's cells) round a spot."""
        spots, claimed = [], set()
        for spot in self._spots:
            index = _nearest(spot.peak, found, claimed)
            still = not _moved_near(spot.peak, moved)
            if index is not None:
                claimed.add(index)
                spots.append(_seen(spot, found[index], still))
            elif still and spot.present and spot.doubt + 1 < SETTLE:
                spots.append(_Spot(spot.peak, True, spot.doubt + 1, spot.views))
        for index, peak in enumerate(found):
            if index not in claimed:
                moved_here = _moved_near(peak, moved)
                spots.append(_Spot(peak, moved_here, 0 if moved_here else 1))
        self._spots = spots
        return [s.peak for s in spots if s.present]

    def views(self, centre: np.ndarray, view: np.ndarray) -> np.ndarray:
        """(V, embedding) this frame's ``view`` of the top at ``centre`` and the views of the
        still frames before it (the spot keeps it for the next frame)."""
        spot = next((s for s in self._spots if s.present and np.array_equal(s.peak.centre, centre)), None)
        if spot is None:
            return view[None]
        spot.views = [*spot.views[-(MAX_VIEWS - 1):], view]
        return np.vstack(spot.views)


def _seen(spot: _Spot, peak: Peak, still: bool) -> _Spot:
    """A spot whose top the tile map found again (at ``peak``)."""
    if not still:
        return _Spot(peak, True)
    if spot.present:
        return _Spot(peak, True, 0, spot.views)
    doubt = spot.doubt + 1
    return _Spot(peak, doubt >= SETTLE, 0 if doubt >= SETTLE else doubt)


def _nearest(spot: Peak, found: list[Peak], claimed: set[int]) -> int | None:
    """The unclaimed top of ``found`` within MATCH pitches of ``spot``, if any."""
    best, best_distance = None, MATCH * spot.pitch
    for index, peak in enumerate(found):
        distance = float(np.linalg.norm(peak.centre - spot.centre))
        if index not in claimed and distance <= best_distance:
            best, best_distance = index, distance
    return best


def _moved_near(peak: Peak, moved: np.ndarray) -> bool:
    """True if any motion map cell within STILL_REACH pitches of the top moved."""
    x, y = cell_of(peak.centre[None])[0]
    reach = STILL_REACH * peak.pitch / STRIDE
    rows, cols = moved.shape
    y0, y1 = max(int(y - reach), 0), min(int(np.ceil(y + reach)) + 1, rows)
    x0, x1 = max(int(x - reach), 0), min(int(np.ceil(x + reach)) + 1, cols)
    return y0 >= y1 or x0 >= x1 or bool(moved[y0:y1, x0:x1].any())
