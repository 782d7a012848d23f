"""What the page shows of a game, as typed values: the move list with its clocks and illegal
attempts, what is pending and how out of it, and the camera's reading against the position."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..board import Board
from ..clock import thinking_times, times_left
from ..hexgrid import Hex
from ..pieces import Bug, Colour, Piece
from ..record import GameRecord, IllegalAttempt, Mark
from .events import Event
from .scene import Read, changed, tops


@dataclass(frozen=True)
class MoveEntry:
    """One recorded move: its ply (1-based), the turn number both colours share, who moved,
    its MoveString, thinking time and time left after it (seconds; None when unknown or without
    a time control), mark and comment."""

    ply: int
    turn: int
    colour: Colour
    uhp: str
    emt: float | None
    clk: float | None
    mark: Mark | None
    comment: str


Entry = MoveEntry | IllegalAttempt
"""A line of the move list: a move, or an illegal attempt (after move ``attempt.ply``)."""


@dataclass(frozen=True)
class SeenPiece:
    """A piece as the camera reads it; ``name`` when the game tells which one it is."""

    colour: Colour
    creature: Bug
    name: str | None


@dataclass(frozen=True)
class SeenStack:
    """The top of a stack as seen (game coordinates), the camera's guess of its height, and
    whether the read is sure."""

    cell: Hex
    top: SeenPiece
    height: int
    sure: bool


@dataclass(frozen=True)
class Difference:
    """A cell where the camera and the game disagree: the game's stack (bottom first) and what
    is seen there (None: nothing)."""

    cell: Hex
    expected: tuple[Piece, ...]
    seen: SeenStack | None


@dataclass(frozen=True)
class Pending:
    """What the referee waits for. ``kind``: ``illegal`` (a move to take back), ``needs_confirmation``
    (pick a candidate), ``check`` (the view does not match the game), ``restore`` (after an undo, put
    the board back). ``ways_out`` for a check: ``restore``, ``confirm`` (one of ``candidates``),
    ``start_from_table``; ``reading`` and ``differences`` say what the camera sees; ``undone`` the
    moves an undo took back; ``event`` the event that raised it, with its details."""

    kind: str
    message: str
    what_to_do: str
    event: Event | None = None
    candidates: tuple[str, ...] = ()
    reading: tuple[SeenStack, ...] = ()
    differences: tuple[Difference, ...] = ()
    ways_out: tuple[str, ...] = ()
    undone: tuple[str, ...] = ()


def entries(record: GameRecord, board: Board) -> list[Entry]:
    """The move list: each move, each illegal attempt after the move it followed."""
    control = record.time_control
    lefts: list[float | None] = list(times_left(record, control)) if control else [None] * len(record.moves)
    listed: list[Entry] = [a for a in record.attempts if a.ply == 0]
    colour = record.first_to_move
    for index, (entry, emt, left) in enumerate(zip(record.moves, thinking_times(record), lefts)):
        ply = index + 1
        timed = isinstance(entry.timestamp, (int, float))
        listed.append(MoveEntry(ply, (board.start_ply + index) // 2 + 1, colour, entry.uhp, emt if timed else None,
                                left if timed else None, entry.mark, entry.comment))
        listed += [a for a in record.attempts if a.ply == ply]
        colour = colour.opponent
    return listed


def reading(board: Board, seen: Mapping[Hex, Read]) -> tuple[SeenStack, ...]:
    """The camera's view (game coordinates) with the piece names the game can tell."""
    return tuple(_seen_stack(board, cell, read) for cell, read in sorted(seen.items()))


def differences(board: Board, seen: Mapping[Hex, Read]) -> tuple[Difference, ...]:
    """The cells where the view and the position disagree."""
    return tuple(Difference(cell, board.stack(cell), _seen_stack(board, cell, seen[cell]) if cell in seen else None)
                 for cell in sorted(changed(dict(seen), tops(board))))


def _seen_stack(board: Board, cell: Hex, read: Read) -> SeenStack:
    colour, bug = read.label
    top = board.top(cell)
    kind = Piece.of_kind(colour, bug)
    if top is not None and (top.colour, top.bug) == read.label:
        name: str | None = top.name
    else:
        name = kind[0].name if len(kind) == 1 else None
    return SeenStack(cell, SeenPiece(colour, bug, name), read.height, read.sure)
