"""What one camera saw at spots where nothing has moved since: a top does not come or go there
on one frame's say, and its read is the sum of the frames that saw it still.

A tile can only arrive or leave by hand, and a hand moves the picture. So where the picture
has not moved (``vision.motion``), a top stays while the tile map's heat there stays above
``KEEP_THRESHOLD`` (below the ``NEW_TOP`` a new top needs; a fainter new one is left to the second
opinion of ``vision.doubts``) and is kept through one frame that misses it altogether, and a top
found where there was none is believed only once ``SETTLE`` frames in a row agree. Where the
picture moved, the frame is believed at once, but a top the tile map loses there, or finds only
under ``NEW_TOP`` (a hand passing by), is remembered for up to ``LOST_FRAMES`` frames with the
look of its spot (``vision.spot_look``): once its spot is still again and looks as it did (the
hive perhaps jolted a pixel or two), the top is there still, whether the tile map sees it or not
(a tile beside a new neighbour, or under the shadow a hand left, can vanish from the map for good).
The creature embeddings of a still top are kept too (up to ``MAX_VIEWS``), so its read
averages over the frames instead of flickering; once it has them all, its read is kept and it
gets a fresh view only every ``REVIEW_EVERY`` frames (a still board costs little to read).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Sequence

import numpy as np

from vision.spot_look import SpotLook, found_again, spot_look
from vision.tilemaps import STRIDE, Peak, cell_of, disc_window

SETTLE = 2  # frames in a row that must disagree with a still spot before it changes
KEEP_THRESHOLD = 0.2  # centre heat that holds a still top already seen (a new one needs NEW_TOP)
NEW_TOP = 0.45  # centre heat a new top needs to count at once (over the tile map's PEAK_THRESHOLD: a bay of the
# hive, shaded by a tile just laid beside it, reached 0.39)
MATCH = 0.35  # pitches: a top this close to a spot's is the same top
STILL_REACH = 0.6  # pitches round a spot that must not have moved for it to count as still
MAX_VIEWS = 6  # embeddings of a still top kept for its read
REVIEW_EVERY = 3  # frames: a still top with MAX_VIEWS views gets a fresh one this often
LOST_FRAMES = 30  # frames a top lost where the picture moved waits for a still look at its spot


@dataclass
class _Spot:
    peak: Peak
    present: bool  # reported as a top
    doubt: int = 0  # frames in a row the tile map has said otherwise
    views: list[np.ndarray] = field(default_factory=list)  # embeddings from still frames, newest last
    read: np.ndarray | None = None  # what the views were last read as (the detector's weights)
    guessed: bool = False  # ... from a crop showing no print (glare): the read is a guess
    darker: np.ndarray | None = None  # its read from a darker frame, where glare left its print showing
    tried_darker: bool = False  # a darker frame was looked at for its print (whether it showed or not)
    crop: np.ndarray | None = None  # the top's crop of its last view
    rest: int = 0  # frames since the last view
    look: SpotLook | None = None  # how its spot looked when it was last found still
    lost: int = 0  # frames since the tile map lost it where the picture moved (0: not lost)
    recalled: bool = False  # reported from memory (``look``): the map has not found it since it was lost


class StillSpots:
    """The tops of one camera's last frames, and their embeddings, where nothing moved."""

    def __init__(self) -> None:
        self._spots: list[_Spot] = []
        self._reported: dict[bytes, _Spot] = {}  # the reported spots by their centre's bytes (``_spot``)
        self._vouched: list[Peak] = []  # the tops the second opinion reported on the last frame

    def settle(self, found: list[Peak], moved: np.ndarray, frame: np.ndarray | None = None) -> list[Peak]:
        """The tops to report for this frame from the tile map's candidates ``found`` (centre heat
        at least KEEP_THRESHOLD): those at NEW_TOP, corrected where nothing ``moved``
        (the motion map's cells) round a spot, and the lost tops whose spots look as they did
        (on ``frame``, BGR; without it, no top is remembered)."""
        spots = []
        claimed = set()
        for spot, index in zip(self._spots, _matches(self._spots, found)):
            peak, still = None if index is None else found[index], not _moved_near(spot.peak, moved)
            following = _follow(spot, peak, still) if frame is None else _remembered(spot, peak, still, frame)
            if following is not None:
                spots.append(following)
                claimed |= {index} - {None}
        for index, peak in enumerate(found):
            if index not in claimed and peak.score >= NEW_TOP:
                moved_here = _moved_near(peak, moved)
                spots.append(_Spot(peak, moved_here, 0 if moved_here else 1))
        self._spots = spots
        self._reported = {s.peak.centre.tobytes(): s for s in reversed(spots) if s.present}  # the first wins
        return [s.peak for s in spots if s.present]

    def vouch(self, peaks: list[Peak], moved: np.ndarray, frame: np.ndarray) -> None:
        """Take the tops a second opinion reported where the tile map found none (``vision.doubts``)
        as this frame's tops too. One it reported on the last frame too is then kept like the map's
        own (held by faint heat, remembered when a hand passes by); one reported on this frame
        alone is not (a gap between tiles looked like a top on one frame now and then, and the
        gap's faint heat then held it for good). A top the map lost where the picture moves stays
        lost though reported there: once its spot is still, its look, not the map, tells whether it
        is there (a table knocked as the hand left can drop a faint top from the map for good)."""
        before, self._vouched = self._vouched, peaks
        for peak in peaks:
            still = not _moved_near(peak, moved)
            look = spot_look(frame, peak) if still else None
            near = [s for s in self._spots if _near(s.peak, peak.centre)]
            if near:
                spot = replace(near[0], peak=peak, present=True, doubt=0, recalled=False,
                               lost=0 if still else near[0].lost, look=near[0].look if look is None else look)
            else:
                spot = _Spot(peak, True, look=look)
            if near or any(_near(last, peak.centre) for last in before):
                self._spots = [s for s in self._spots if all(s is not n for n in near)] + [spot]
            self._reported[peak.centre.tobytes()] = spot

    def views(self, centre: np.ndarray, view: np.ndarray, crop: np.ndarray | None = None) -> np.ndarray:
        """(V, embedding) this frame's ``view`` of the top at ``centre`` (embedded from ``crop``)
        and the views of the still frames before it (the spot keeps both for the next frame)."""
        spot = self._spot(centre)
        if spot is None:
            return view[None]
        spot.views, spot.rest, spot.crop = [*spot.views[-(MAX_VIEWS - 1):], view], 0, crop
        return np.vstack(spot.views)

    def kept_read(self, centre: np.ndarray) -> tuple[np.ndarray, bool] | None:
        """The read kept for the top at ``centre``, and whether it was a guess, if it needs no
        fresh view this frame (it has MAX_VIEWS views, the last fewer than REVIEW_EVERY frames
        ago), else None."""
        spot = self._spot(centre)
        if spot is None or spot.read is None or len(spot.views) < MAX_VIEWS or spot.rest >= REVIEW_EVERY:
            return None
        return spot.read, spot.guessed

    def keep_read(self, centre: np.ndarray, read: np.ndarray | None, guessed: bool = False) -> None:
        """Keep what the top at ``centre``'s views were read as, and whether that was a guess
        (its crop showed no print), for ``kept_read`` (None: none kept, it is read afresh)."""
        spot = self._spot(centre)
        if spot is not None:
            spot.read, spot.guessed = read, guessed

    def darker_read(self, centre: np.ndarray) -> np.ndarray | None:
        """The read of the top at ``centre`` from a darker frame (``keep_darker``), if any."""
        spot = self._spot(centre)
        return None if spot is None else spot.darker

    def tried_darker(self, centre: np.ndarray) -> bool:
        """Whether a darker frame was looked at for the print of the top at ``centre`` since it
        last moved (True for a top not kept here: nothing could be kept of it either)."""
        spot = self._spot(centre)
        return spot is None or spot.tried_darker

    def keep_darker(self, centre: np.ndarray, read: np.ndarray | None) -> None:
        """Keep the read of the top at ``centre`` from a darker frame of the same still view, where
        the glare that washed out its print in the others stayed under the sensor's white (None:
        its print did not show there either): it stands for the top's read while the top lies
        still, and the top is not looked for in a darker frame again till then."""
        spot = self._spot(centre)
        if spot is not None:
            spot.darker, spot.tried_darker = read, True

    def seen_near(self, centre: np.ndarray) -> tuple[np.ndarray, np.ndarray | None] | None:
        """The views (V, embedding) kept of the reported top nearest ``centre``, within MATCH
        pitches of it, and its last crop (None if there is no such top, or it has no view yet)."""
        near = [(float(np.linalg.norm(s.peak.centre - centre)), i) for i, s in enumerate(self._spots)
                if s.present and s.views]
        distance, index = min(near, default=(np.inf, -1))
        spot = self._spots[index] if index >= 0 else None
        if spot is None or distance > MATCH * spot.peak.pitch:
            return None
        return np.vstack(spot.views), spot.crop

    def forget_at(self, centres: Sequence[tuple[float, float]]) -> None:
        """Forget the tops at ``centres`` (frame pixels): they were the table's print, not tiles
        (``Detector.look_past``), and are not remembered through the next hand that passes."""
        points = [np.asarray(centre, float) for centre in centres]

        def apart(peak: Peak) -> bool:
            return not any(_near(peak, point) for point in points)

        self._spots = [s for s in self._spots if apart(s.peak)]
        self._reported = {key: s for key, s in self._reported.items() if apart(s.peak)}
        self._vouched = [p for p in self._vouched if apart(p)]

    def forget_reads(self, darker: bool = False) -> None:
        """Read every top afresh on the next frame (the profile changed; with ``darker``, to another
        set's: the reads from darker frames go too)."""
        for spot in self._spots:
            spot.read = None
            if darker:
                spot.darker, spot.tried_darker = None, False

    def _spot(self, centre: np.ndarray) -> _Spot | None:
        """The reported spot whose top lies exactly at ``centre`` (a located tile's), if any."""
        return self._reported.get(np.asarray(centre, np.float64).tobytes())


def _remembered(spot: _Spot, peak: Peak | None, still: bool, frame: np.ndarray) -> _Spot | None:
    """``_follow``, with the tops lost where the picture moved remembered by the look of their spot
    on ``frame``: kept out of sight while the picture there moves, reported from memory where it
    is found still and looking as it did (until the map finds them again), forgotten when it looks otherwise.
    A top whose heat sinks under NEW_TOP where the picture moves counts as lost too (a faint top
    beside the tile a hand lays: dropped, it would need a second opinion to come back)."""
    if not still and peak is not None and peak.score < NEW_TOP:
        peak = None
    if peak is None and (spot.lost or spot.recalled or (spot.present and not still)) and spot.look is not None:
        if not still:
            lost = spot.lost + 1
            return replace(spot, present=False, recalled=False, lost=lost) if lost <= LOST_FRAMES else None
        where = found_again(frame, spot.look)
        if where is None:
            return None
        return replace(spot, peak=replace(spot.peak, centre=where), present=True, recalled=True, lost=0, doubt=0,
                       rest=spot.rest + 1)
    if spot.lost and peak is not None:  # a top found again where one was lost
        if not (still and spot.look is not None and found_again(frame, spot.look) is not None):
            return None  # maybe another tile, or a shaded gap where it lay: a new top for ``settle`` to judge
        spot = replace(spot, present=True, lost=0, doubt=0)
    following = _follow(spot, peak, still)
    if following is not None and peak is not None:
        following = replace(following, recalled=False, look=spot_look(frame, peak) if still else spot.look)
    return following


def _follow(spot: _Spot, peak: Peak | None, still: bool) -> _Spot | None:
    """The spot after a frame whose tile map found ``peak`` there (or nothing); None once gone."""
    sure = peak is not None and peak.score >= NEW_TOP
    if not still:
        return _Spot(peak, True) if sure and peak is not None else None
    if spot.present:
        if peak is not None:  # held while its heat stays above KEEP_THRESHOLD
            return replace(spot, peak=peak, doubt=0, rest=spot.rest + 1)
        return replace(spot, doubt=spot.doubt + 1, rest=spot.rest + 1) if spot.doubt + 1 < SETTLE else None
    if not sure or peak is None:
        return None
    doubt = spot.doubt + 1
    return _Spot(peak, doubt >= SETTLE, 0 if doubt >= SETTLE else doubt)


def _near(peak: Peak, centre: np.ndarray) -> bool:
    """Whether ``centre`` lies within MATCH pitches of ``peak``'s (the same top)."""
    return bool(np.linalg.norm(peak.centre - centre) <= MATCH * peak.pitch)


def _matches(spots: list[_Spot], found: list[Peak]) -> list[int | None]:
    """For each spot, the index of the top of ``found`` within MATCH pitches of it (nearest
    first, each top to one spot), or None."""
    if not spots or not found:
        return [None] * len(spots)
    distance = np.linalg.norm(np.array([s.peak.centre for s in spots])[:, None]
                              - np.array([p.centre for p in found])[None], axis=2)
    distance[distance > MATCH * np.array([[s.peak.pitch] for s in spots])] = np.inf
    matches: list[int | None] = [None] * len(spots)
    for flat in np.argsort(distance, axis=None):
        row, col = divmod(int(flat), len(found))
        if not np.isfinite(distance[row, col]):
            break
        if matches[row] is None and col not in matches:
            matches[row] = col
    return matches


def _moved_near(peak: Peak, moved: np.ndarray) -> bool:
    """True if any motion map cell within STILL_REACH pitches of the top moved (or it lies off the map)."""
    window, near = disc_window(tuple(cell_of(peak.centre[None])[0]), STILL_REACH * peak.pitch / STRIDE, moved.shape)
    return not near.any() or bool(moved[window][near].any())
