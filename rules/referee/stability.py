"""Deciding when the view has settled: the same tiles, unoccluded, for long enough.

Each distinct view (the tiles and their sure reads; an unsure read only says that a tile is
there, and its label may change from frame to frame) seen since the last occlusion has a *run*:
when it was first seen, and in which frames. A frame that shows the same tiles, read alike
wherever both reads are sure, counts for that run (a read wavering about the bar of a sure read
does not unsettle the view; a frame reading more tiles surely makes the view new, to be judged
afresh, and the frame judged is the latest reading most tiles surely). The run goes on through interruptions of
up to ``flicker_seconds`` (a tile misread or missed for a frame or two); a view is steady
once its run has lasted ``stable_seconds`` and it was seen in most of the frames since
the run began (and more often than the steady view meanwhile), so flicker that comes
back now and then never settles. A tile read surely in the view judged that a frame of its run
read as something else nearly as confidently (``CONTESTED``) is handed on read unsure: a read
flipping between two creatures about the bar is not a sure read of either, whichever frame
crossed it. Time comes from the observations' timestamps, never from a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..hexgrid import rotate
from ..observation import Observation

OCCLUDED, UNSTABLE, STEADY = "occluded", "unstable", "steady"
_EPSILON = 1e-9  # timestamps are floats: 0.7 - 0.4 < 0.3

Signature = frozenset[tuple[int, int, str, str]]
Placed = tuple[tuple[int, int, str, str], ...]  # the tiles in order, shifted to start at (0, 0)
UNSURE = ("", "")  # the read of a tile under min_confidence: only that a tile is there
RECENT = 10  # frames since the last occlusion looked at for a contested read
CONTESTED = 0.8  # a sure read that a frame of its run read otherwise this confidently, relative to it, is unsure


def _placings(observation: Observation, min_confidence: float) -> list[Placed]:
    """The tiles with their reads (unsure under ``min_confidence``), turned by each of the six
    turns and shifted to start at (0, 0). The least of them, as a set, is the view's signature:
    what must stay the same for it to be steady, up to a shift and a turn of the observer's
    lattice (anchored afresh in every frame, and along a straight line of tiles its axes are
    ambiguous)."""
    return [tuple(tile for tile, _ in turned) for turned in _turned(observation, min_confidence)]


def _turned(observation: Observation, min_confidence: float) -> list[list[tuple[tuple[int, int, str, str], int]]]:
    """``_placings`` with each tile's index in ``observation.tiles``."""
    if not observation.tiles:
        return []
    reads = [(t.colour.value, t.bug.value) if t.confidence >= min_confidence else UNSURE
             for t in observation.tiles]
    placings = []
    for turns in range(6):
        cells = [rotate(t.cell, turns) for t in observation.tiles]
        q0, r0 = min(cells)
        placings.append(sorted(((q - q0, r - r0, *read), index)
                               for index, ((q, r), read) in enumerate(zip(cells, reads))))
    return placings


def _labelled(observation: Observation) -> list[list[tuple[int, int, tuple[str, str], float, int]]]:
    """The tiles of ``observation`` as ``_turned`` places them, each with its read (sure or not),
    its confidence and its index."""
    tiles = observation.tiles
    return [[(q, r, (tiles[index].colour.value, tiles[index].bug.value), tiles[index].confidence, index)
             for (q, r, *_), index in turned] for turned in _turned(observation, 0.0)]


def _agrees(a: Placed, b: Placed) -> bool:
    """Whether two placings show the same cells, read alike wherever both reads are sure."""
    return len(a) == len(b) and all(x[:2] == y[:2] and (x[2:] == y[2:] or UNSURE in (x[2:], y[2:]))
                                    for x, y in zip(a, b))


def _sure(placed: Placed) -> int:
    return sum(tile[2:] != UNSURE for tile in placed)


@dataclass
class _Run:
    since: float  # first seen
    last: float  # last seen
    first_frame: int
    frames: int  # how many frames showed it
    view: Observation  # the latest of them with the most sure reads
    rival_frames: int  # frames of the steady view's run when this run began
    placed: Placed  # its signature's placing


@dataclass(frozen=True)
class Frame:
    """The state of the view after one observation."""

    status: str  # OCCLUDED, UNSTABLE or STEADY
    changed: bool  # the status differs from the previous frame's
    view: Observation | None  # while steady: the latest frame of the steady view
    signature: Signature | None  # while steady: its signature
    since: float | None  # while steady: when it was first seen
    current: bool = False  # while steady: this frame shows it (not another view that may settle next)


class Steadiness:
    """Feeds on observations and says when the view is steady; reads under ``min_confidence``
    count only as tiles there."""

    def __init__(self, stable_seconds: float, flicker_seconds: float, min_confidence: float = 0.0) -> None:
        self.stable_seconds = stable_seconds
        self.flicker_seconds = flicker_seconds
        self.min_confidence = min_confidence
        self.status: str | None = None
        self.time: float | None = None
        self._count = 0
        self._runs: dict[Signature, _Run] = {}
        self._steady: Signature | None = None  # the view last found steady
        self._recent: list[Observation] = []  # the last RECENT frames since the last occlusion

    def feed(self, observation: Observation) -> Frame:
        time = observation.timestamp
        if self.time is not None and time < self.time:
            raise ValueError(f"observation timestamps must not go back: {time} after {self.time}")
        self.time = time
        self._count += 1
        if observation.occluded:
            self._runs.clear()
            self._recent.clear()
            self._steady = None
            return self._report(OCCLUDED, None)
        self._recent = self._recent[1 - RECENT:] + [observation]
        self._runs = {s: run for s, run in self._runs.items()
                      if time - run.last <= self.flicker_seconds + _EPSILON}
        placings = _placings(observation, self.min_confidence)
        placed = min(placings, default=())
        steady = self._runs.get(self._steady) if self._steady is not None else None
        seen, run = self._run_of(placed, placings)
        if run is None:
            self._runs[seen] = run = _Run(time, time, self._count, 0, observation, steady.frames if steady else 0,
                                          placed)
        if _sure(placed) >= _sure(run.placed):
            run.view = observation
        run.last = time
        run.frames += 1
        if (time - run.since >= self.stable_seconds - _EPSILON
                and 2 * run.frames > self._count - run.first_frame + 1
                and (steady is None or run.frames > steady.frames - run.rival_frames)):  # outnumbers it
            self._steady = seen
        elif self._steady not in self._runs:  # the steady view is gone, not just flickering
            self._steady = None
        steady = self._runs.get(self._steady) if self._steady is not None else None
        return self._report(STEADY if steady else UNSTABLE, steady)

    def _run_of(self, placed: Placed, placings: list[Placed]) -> tuple[Signature, _Run | None]:
        """The signature and run of the view this frame (``placings``, the least ``placed``) shows:
        its own, or else one whose tiles lie where they did with the same sure reads, only read
        unsure here or there (the steady view's first), taken over by this frame's signature if it
        reads more tiles surely (the view is judged afresh); no run if none."""
        seen = frozenset(placed)
        if seen in self._runs:
            return seen, self._runs[seen]
        for old, run in sorted(self._runs.items(), key=lambda item: item[0] != self._steady):
            if any(_agrees(run.placed, p) for p in placings):
                if _sure(placed) <= _sure(run.placed):
                    return old, run
                del self._runs[old]
                self._runs[seen], run.placed = run, placed
                self._steady = seen if self._steady == old else self._steady
                return seen, run
        return seen, None

    def _report(self, status: str, run: _Run | None) -> Frame:
        changed = status != self.status
        self.status = status
        if run is None:
            return Frame(status, changed, None, None, None)
        return Frame(status, changed, run.view, self._steady, run.since, run.last == self.time)

    def judged(self) -> Observation | None:
        """The steady view as it is to be judged (None while none is steady): its contested tiles
        (``_contested``) read unsure (none is with no ``min_confidence``)."""
        run = self._runs.get(self._steady) if self._steady is not None else None
        if run is None:
            return None
        contested = self._contested(run) if self.min_confidence > 0 and run.view.tiles else set()
        if not contested:
            return run.view
        bar = self.min_confidence / 2
        tiles = tuple(replace(tile, confidence=min(tile.confidence, bar)) if index in contested else tile
                      for index, tile in enumerate(run.view.tiles))
        return replace(run.view, tiles=tiles)

    def _contested(self, run: _Run) -> set[int]:
        """The tiles of ``run``'s view (indices) read surely that a frame of the run (of the last
        RECENT) read as something else at least CONTESTED times as confidently."""
        base = _labelled(run.view)[0]
        cells = [tile[:2] for tile in base]
        rivals = [0.0] * len(base)  # each tile's most confident other read
        for frame in (frame for frame in self._recent if frame.timestamp >= run.since):
            turns = [turned for turned in _labelled(frame) if [tile[:2] for tile in turned] == cells]
            if not turns:
                continue
            best = max(turns, key=lambda turned: sum(a[2] == b[2] for a, b in zip(base, turned)))
            for index, (mine, theirs) in enumerate(zip(base, best)):
                if theirs[2] != mine[2]:
                    rivals[index] = max(rivals[index], theirs[3])
        return {index for (_, _, _, confidence, index), rival in zip(base, rivals)
                if confidence >= self.min_confidence and rival >= CONTESTED * confidence}
