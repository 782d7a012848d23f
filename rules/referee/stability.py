"""Deciding when the view has settled: the same tiles, unoccluded, for long enough.

Each distinct view (the tiles and their sure reads; an unsure read only says that a tile is
there, and its label may change from frame to frame) seen since the last occlusion has a *run*:
when it was first seen, and in which frames. The run goes on through interruptions of
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


def signature(observation: Observation, min_confidence: float = 0.0) -> Signature:
    """What must stay the same for a view to be steady: where each tile is and its read
    (unless the read is under ``min_confidence``), up to a shift and a turn of the observer's
    lattice (anchored afresh in every frame, and along a straight line of tiles its axes are
    ambiguous)."""
    if not observation.tiles:
        return frozenset()
    reads = [(t.colour.value, t.bug.value) if t.confidence >= min_confidence else ("", "")
             for t in observation.tiles]
    return frozenset(min(_placed(observation, reads, turns) for turns in range(6)))


def _placed(observation: Observation, reads: list[tuple[str, str]], turns: int
            ) -> tuple[tuple[int, int, str, str], ...]:
    """The tiles with their ``reads``, turned by ``turns`` sixths and shifted to start at (0, 0), in order."""
    cells = [rotate(t.cell, turns) for t in observation.tiles]
    q0, r0 = min(cells)
    return tuple(sorted((q - q0, r - r0, *read) for (q, r), read in zip(cells, reads)))


@dataclass
class _Run:
    since: float  # first seen
    last: float  # last seen
    first_frame: int
    frames: int  # how many frames showed it
    view: Observation  # the latest of them
    rival_frames: int  # frames of the steady view's run when this run began


@dataclass(frozen=True)
class Frame:
    """The state of the view after one observation."""

    status: str  # OCCLUDED, UNSTABLE or STEADY
    changed: bool  # the status differs from the previous frame's
    view: Observation | None  # while steady: the latest frame of the steady view
    signature: Signature | None  # while steady: its signature
    since: float | None  # while steady: when it was first seen


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
        seen = signature(observation, self.min_confidence)
        run = self._runs.get(seen)
        steady = self._runs.get(self._steady) if self._steady is not None else None
        if run is None:
            self._runs[seen] = run = _Run(time, time, self._count, 0, observation, steady.frames if steady else 0)
        run.last, run.view = time, observation
        run.frames += 1
        if (time - run.since >= self.stable_seconds - _EPSILON
                and 2 * run.frames > self._count - run.first_frame + 1
                and (steady is None or run.frames > steady.frames - run.rival_frames)):  # outnumbers it
            self._steady = seen
        elif self._steady not in self._runs:  # the steady view is gone, not just flickering
            self._steady = None
        steady = self._runs.get(self._steady) if self._steady is not None else None
        return self._report(STEADY if steady else UNSTABLE, steady)

    def _report(self, status: str, run: _Run | None) -> Frame:
        changed = status != self.status
        self.status = status
        if run is None:
            return Frame(status, changed, None, None, None)
        return Frame(status, changed, run.view, self._steady, run.since)
