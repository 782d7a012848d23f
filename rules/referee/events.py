"""What the referee tells the page: one small JSON-able event per thing that happened.

Every event has a ``kind`` (the JSON discriminator), the observation ``time`` it refers
to, and ``to_dict()``. Colours are ``"w"``/``"b"``, game states their UHP names.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Event:
    """Base class: ``kind`` names the event, ``time`` is an observation timestamp (seconds)."""

    kind: ClassVar[str] = "event"
    time: float

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            data[f.name] = _plain(getattr(self, f.name))
        return data


def _plain(value: Any) -> Any:
    """Tuples (cells, candidates) as JSON arrays, all the way down."""
    return [_plain(v) for v in value] if isinstance(value, tuple) else value


@dataclass(frozen=True)
class MoveEvent(Event):
    """A move was recorded (any pending problem is over). ``mark`` is None, ``"override"``
    or ``"correction"``; ``confirmed`` when a person picked it among candidates."""

    kind: ClassVar[str] = "move"
    uhp: str
    ply: int  # 1-based index of the move in the record
    colour: str
    mark: str | None = None
    confirmed: bool = False


@dataclass(frozen=True)
class PassEvent(Event):
    """``colour`` passes (recorded); in Hive a pass is only allowed when forced."""

    kind: ClassVar[str] = "pass"
    colour: str
    ply: int
    forced: bool = True


@dataclass(frozen=True)
class IllegalEvent(Event):
    """The board shows a change no legal move makes; it is not recorded.

    ``attempted`` describes the change, ``uhp`` is its MoveString (or None if it has none),
    ``rule``/``message``/``cells`` come from ``rules.explain.why_illegal`` (``cells``: game
    cells worth highlighting), ``book``/``reference`` from ``rules.rulebook`` (the rule in
    brief, and where the official text is); ``player`` is charged a warning (``warnings``
    is their total) and ``action`` says what to do.
    """

    kind: ClassVar[str] = "illegal"
    attempted: str
    uhp: str | None
    rule: str
    message: str
    player: str
    warnings: int
    cells: tuple[tuple[int, int], ...] = ()
    book: str = ""
    reference: str = ""
    action: str = "take it back"


@dataclass(frozen=True)
class TakebackEvent(Event):
    """The board shows the last recorded position again: the pending problem (an illegal
    move, a misread, a question, an undo waiting for the board) is over."""

    kind: ClassVar[str] = "takeback"
    ply: int  # moves recorded, unchanged


@dataclass(frozen=True)
class UndoEvent(Event):
    """Recorded moves (or a declared result) were taken back on request."""

    kind: ClassVar[str] = "undo"
    undone: tuple[str, ...]
    ply: int  # moves recorded after the undo


@dataclass(frozen=True)
class RenamedEvent(Event):
    """A tile recorded as ``old`` was really ``new``: the record was retold from its placement
    (move ``ply``) on, with every later move of it and of the pieces renumbered with it."""

    kind: ClassVar[str] = "renamed"
    old: str
    new: str
    ply: int


@dataclass(frozen=True)
class NeedsConfirmationEvent(Event):
    """Several explanations fit (or the read is unsure): a person must pick one.

    Each candidate is a MoveString, or two joined by ``"; "`` when both players moved, or
    ``doubt.NOTHING``: no move was made (the view's differences are the camera's).
    """

    kind: ClassVar[str] = "needs_confirmation"
    candidates: tuple[str, ...]
    reason: str


@dataclass(frozen=True)
class QueenDueEvent(Event):
    """``colour`` must place the Queen ``"now"`` (this turn) or on its ``"next_turn"``."""

    kind: ClassVar[str] = "queen_due"
    colour: str
    when: str


@dataclass(frozen=True)
class GameOverEvent(Event):
    """The game ended: ``state`` is the UHP state, ``winner`` a colour or None for a draw."""

    kind: ClassVar[str] = "game_over"
    state: str
    winner: str | None
    reason: str


@dataclass(frozen=True)
class MisreadEvent(Event):
    """The view fits no move, legal or not (e.g. a piece vanished): check the camera/board."""

    kind: ClassVar[str] = "misread"
    message: str
    cells: tuple[tuple[int, int], ...] = ()  # game cells involved


@dataclass(frozen=True)
class ViewEvent(Event):
    """The view changed status: ``"occluded"`` (a hand is over the board), ``"unstable"``
    (pieces are moving or detections flicker) or ``"steady"`` (still again)."""

    status: str

    @property
    def kind(self) -> str:  # type: ignore[override]
        return self.status

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.status, "time": self.time}
