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
back now and then never settles. Time comes from the observations' timestamps, never
from a clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..hexgrid import rotate
from ..observation import Observation

OCCLUDED, UNSTABLE, STEADY = "occluded", "unstable", "steady"
_EPSILON = 1e-9  # timestamps are floats: 0.7 - 0.4 < 0.3

Signature = frozenset[tuple[int, int, str, str]]
Placed = tuple[tuple[int, int, str, str], ...]  # the tiles in order, shifted to start at (0, 0)
UNSURE = ("", "")  # the read of a tile under min_confidence: only that a tile is there


def _placings(observation: Observation, min_confidence: float) -> list[Placed]:
    """The tiles with their reads (unsure under ``min_confidence``), turned by each of the six
    turns and shifted to start at (0, 0). The least of them, as a set, is the view's signature:
    what must stay the same for it to be steady, up to a shift and a turn of the observer's
    lattice (anchored afresh in every frame, and along a straight line of tiles its axes are
    ambiguous)."""
    if not observation.tiles:
        return []
    reads = [(t.colour.value, t.bug.value) if t.confidence >= min_confidence else UNSURE
             for t in observation.tiles]
    placings = []
    for turns in range(6):
        cells = [rotate(t.cell, turns) for t in observation.tiles]
        q0, r0 = min(cells)
        placings.append(tuple(sorted((q - q0, r - r0, *read) for (q, r), read in zip(cells, reads))))
    return placings


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

    def feed(self, observation: Observation) -> Frame:
        time = observation.timestamp
        if self.time is not None and time < self.time:
            raise ValueError(f"observation timestamps must not go back: {time} after {self.time}")
        self.time = time
        self._count += 1
        if observation.occluded:
            self._runs.clear()
            self._steady = None
            return self._report(OCCLUDED, None)
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
