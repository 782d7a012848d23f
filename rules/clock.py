"""Chess clocks for Hive from the camera's move times.

A move's time (``RecordedMove.timestamp``, seconds of game clock) is when the board became
still after it, so the thinking time of ply n is t(n) - t(n-1), with t(0) = 0 (the start of
the game, or the adoption of a set-up position). A time control ``15+10`` gives each player
15 minutes plus 10 seconds after each of their moves (Fischer increment); a player whose time
runs out while thinking has lost on time (``flagged``).

>>> control = TimeControl.parse("15+10")
>>> control.base, control.increment, str(control)
(900.0, 10.0, '15+10')
>>> format_clock(3725.9)
'1:02:05'
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .pieces import Colour

if TYPE_CHECKING:
    from .record import GameRecord

_CONTROL = re.compile(r"(\d{1,4}(?:\.\d+)?)\+(\d{1,4})")


@dataclass(frozen=True)
class TimeControl:
    """Base time and increment per move, both in seconds."""

    base: float
    increment: float = 0.0

    def __post_init__(self) -> None:
        if not (math.isfinite(self.base) and self.base > 0):
            raise ValueError(f"a time control's base time must be more than 0 seconds, not {self.base!r}")
        if not (math.isfinite(self.increment) and self.increment >= 0):
            raise ValueError(f"a time control's increment must be 0 seconds or more, not {self.increment!r}")

    @classmethod
    def parse(cls, text: str) -> "TimeControl | None":
        """``"MINUTES+SECONDS"`` (``"15+10"``, ``"5+0"``); ``""`` means no time control."""
        text = text.strip()
        if not text:
            return None
        match = _CONTROL.fullmatch(text)
        if match is None:
            raise ValueError(f"time control {text!r} is not MINUTES+SECONDS such as 15+10 (or empty for none)")
        return cls(float(match.group(1)) * 60, float(match.group(2)))

    def __str__(self) -> str:
        minutes = self.base / 60
        shown = str(int(minutes)) if minutes.is_integer() else f"{minutes:g}"
        return f"{shown}+{int(self.increment)}"


@dataclass(frozen=True)
class ClockState:
    """Both clocks at one moment: thinking time used, time left (with a time control), whose
    clock runs (None once the game is over) and who ran out of time first (or None)."""

    used: dict[Colour, float]
    left: dict[Colour, float] | None
    running: Colour | None
    flagged: Colour | None


def move_seconds(record: "GameRecord") -> list[float]:
    """The game-clock time of each move: its timestamp in seconds, or (a move without one, or
    with a date-time) the time of the move before it."""
    times, last = [], 0.0
    for entry in record.moves:
        stamp = entry.timestamp
        if isinstance(stamp, (int, float)):
            last = max(last, float(stamp))
        times.append(last)
    return times


def thinking_times(record: "GameRecord") -> list[float]:
    """Seconds each move took: t(n) - t(n-1), from t(0) = 0."""
    times = move_seconds(record)
    return [now - before for before, now in zip([0.0] + times, times)]


def clock_state(record: "GameRecord", now: float, control: TimeControl | None) -> ClockState:
    """The clocks at game-clock time ``now``: the side to move thinks from the last move's time."""
    clocks = _Clocks(control)
    colour = record.first_to_move
    for spent in thinking_times(record):
        clocks.think(colour, spent)
        clocks.moved(colour)
        colour = colour.opponent
    running = None if record.result.is_over else colour
    if running is not None:
        clocks.think(running, max(0.0, now - (move_seconds(record) or [0.0])[-1]))
    left = None if control is None else {c: clocks.left(c) for c in Colour}
    return ClockState(clocks.used, left, running, clocks.flagged)


def times_left(record: "GameRecord", control: TimeControl) -> list[float]:
    """Each mover's time left just after each move (its increment added)."""
    clocks = _Clocks(control)
    colour, left = record.first_to_move, []
    for spent in thinking_times(record):
        clocks.think(colour, spent)
        clocks.moved(colour)
        left.append(clocks.left(colour))
        colour = colour.opponent
    return left


class _Clocks:
    """Time used and moves made per player; who ran out of time first."""

    def __init__(self, control: TimeControl | None) -> None:
        self.control = control
        self.used = {Colour.WHITE: 0.0, Colour.BLACK: 0.0}
        self.made = {Colour.WHITE: 0, Colour.BLACK: 0}
        self.flagged: Colour | None = None

    def think(self, colour: Colour, seconds: float) -> None:
        self.used[colour] += seconds
        if self.flagged is None and self.control is not None and self.left(colour) < 0:
            self.flagged = colour

    def moved(self, colour: Colour) -> None:
        self.made[colour] += 1

    def left(self, colour: Colour) -> float:
        assert self.control is not None
        return self.control.base + self.control.increment * self.made[colour] - self.used[colour]


def format_clock(seconds: float) -> str:
    """``H:MM:SS`` of whole seconds (rounded down; a negative time reads as ``-H:MM:SS``)."""
    if not math.isfinite(seconds):
        raise ValueError(f"{seconds!r} is not a number of seconds")
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    return f"{sign}{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def parse_clock(text: str) -> int:
    """Seconds of an ``H:MM:SS`` (or ``MM:SS``) time; ``ValueError`` for anything else."""
    match = re.fullmatch(r"(-?)(?:(\d{1,4}):)?([0-5]?\d):([0-5]\d)", text.strip())
    if match is None:
        raise ValueError(f"{text!r} is not a time like 0:01:30")
    sign, hours, minutes, seconds = match.groups()
    total = int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds)
    return -total if sign else total
