"""Universal Hive Protocol notation: MoveStrings and GameStrings.

A MoveString names the piece, then where it goes relative to a piece on the board:
``wS1`` (first piece), ``bG1 -wS1`` (west of wS1), ``wB1 bQ`` (on top of bQ), ``pass``.
Marks before the reference piece mean west (``-``), south-west (``/``) and
north-west (``\\``); after it, east, north-east and south-east.

Strict and lenient reading (the one place this is decided):

- A MoveString is always read strictly: a mark before or after a reference names an
  *empty* cell beside it; a move onto a stack names the piece it climbs on (``wB1 bS1``),
  so ``wB1 -bQ`` with the cell west of bQ occupied is refused, never taken as a climb.
  ``wQ1``/``bM1`` are accepted for ``wQ``/``bM``, and ``pass`` in any case.
- A GameString's moves are the truth. Read leniently (``Board.from_game_string(text,
  strict=False)``, what ``hivecam uhp`` does, as other UHP engines do), a stale header
  (state and turn) is ignored, so ``Base;NotStarted;White[1];wS1`` is Black to move; the
  header must still be well formed. Read strictly (the default), the header must agree with
  the moves (``header_disagreement``), so a file that says one thing and holds another is
  caught. ``GameRecord.from_game_string`` reads leniently and keeps a stated result the
  moves do not show (a resignation, an agreed draw) as a reported result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .gametype import GameType
from .hexgrid import ORIGIN, Direction, Hex, direction_between, neighbours, step
from .move import PASS, GameState, Move, NotationError
from .pieces import Piece

if TYPE_CHECKING:
    from .board import Board

__all__ = ["NotationError", "GameStringParts", "format_game_string", "format_move", "header_disagreement",
           "parse_move", "split_game_string"]

_AFTER = {"-": Direction.E, "/": Direction.NE, "\\": Direction.SE}
_BEFORE = {"-": Direction.W, "/": Direction.SW, "\\": Direction.NW}
# direction from the reference piece -> (mark, written after the reference)
MARKS = {d: (m, True) for m, d in _AFTER.items()} | {d: (m, False) for m, d in _BEFORE.items()}
_TURN = re.compile(r"(White|Black)\[(\d{1,6})\]")


def parse_move(board: "Board", text: str) -> "Move":
    """Resolve a MoveString against ``board`` (syntax and references only, not legality)."""
    tokens = text.split()
    if len(tokens) == 1 and tokens[0].lower() == "pass":
        return PASS
    if not 1 <= len(tokens) <= 2:
        raise NotationError(f"{text!r}: a move is 'piece [reference]' or 'pass'")
    try:
        piece = Piece.parse(tokens[0])
    except ValueError as exc:
        raise NotationError(str(exc)) from None
    if not board.in_play(piece.bug):
        raise NotationError(f"{text!r}: there is no {piece.bug.title} in {board.game_type}")
    origin = board.position_of(piece)
    if len(tokens) == 1:
        if next(iter(board.occupied()), None) is not None:
            raise NotationError(f"{text!r}: only the first piece of the game is written without a reference")
        return Move(piece, ORIGIN, None)
    dest = _resolve_reference(board, piece, tokens[1], text)
    return Move(piece, dest, origin)


def _resolve_reference(board: "Board", piece: Piece, token: str, text: str) -> Hex:
    """The cell a reference names: the reference piece's own cell, or an empty cell beside it."""
    direction: Direction | None
    if token[0] in _BEFORE:
        name, direction = token[1:], _BEFORE[token[0]]
    elif token[-1] in _AFTER:
        name, direction = token[:-1], _AFTER[token[-1]]
    else:
        name, direction = token, None
    try:
        ref = Piece.parse(name)
    except ValueError:
        raise NotationError(f"{text!r}: {token!r} is not a reference like wS1, -wS1, wS1/ or \\wS1") from None
    cell = board.position_of(ref)
    if cell is None:
        raise NotationError(f"{text!r}: the reference piece {ref} is not on the board")
    if direction is None:
        return cell
    dest = step(cell, direction)
    top = board.top(dest)
    if top is not None:
        raise NotationError(f"{text!r}: the cell {token} is occupied by {top}; a move onto a stack "
                            f"names the piece it climbs on ('{piece} {top}')")
    return dest


def format_move(board: "Board", move: "Move") -> str:
    """The canonical MoveString of ``move`` played from ``board``'s position."""
    if move.piece is None:
        return "pass"
    piece, dest = move.piece, move.dest
    assert dest is not None
    stack = board.stack(dest)
    if stack:
        return f"{piece} {stack[-1]}"
    for cell in neighbours(dest):
        ref_stack = [p for p in board.stack(cell) if p is not piece]
        if ref_stack:
            direction = direction_between(cell, dest)
            assert direction is not None  # a neighbour
            mark, after = MARKS[direction]
            ref = ref_stack[-1]
            return f"{piece} {ref}{mark}" if after else f"{piece} {mark}{ref}"
    return str(piece)


@dataclass(frozen=True)
class GameStringParts:
    """A GameString taken apart (syntax only): its header and its MoveStrings."""

    game_type: GameType
    state: GameState
    turn: str
    moves: tuple[str, ...]


def split_game_string(text: str) -> GameStringParts:
    """Take a GameString (``Base+M;InProgress;Black[2];wS1;bM -wS1``) apart; check its syntax."""
    parts = [p.strip() for p in text.strip().split(";")]
    if len(parts) < 3:
        raise NotationError(f"{text[:60]!r}: a GameString is 'GameType;GameState;Turn[;moves...]'")
    try:
        game_type, state = GameType.parse(parts[0]), GameState(parts[1])
    except ValueError as exc:
        raise NotationError(f"GameString: {exc}") from None
    if _TURN.fullmatch(parts[2]) is None:
        raise NotationError(f"GameString: {parts[2][:40]!r} is not a turn like White[1] or Black[12]")
    return GameStringParts(game_type, state, parts[2], tuple(parts[3:]))


def header_disagreement(board: "Board", parts: GameStringParts) -> str | None:
    """How the header of ``parts`` disagrees with ``board``, its moves replayed (None if not)."""
    turn = f"{board.turn.title}[{board.turn_number}]"
    if parts.turn != turn:
        return f"GameString says {parts.turn} but its moves lead to {turn}"
    unstarted = {GameState.NOT_STARTED, GameState.IN_PROGRESS}
    if parts.state is not board.state and not (board.ply == 0 and parts.state in unstarted):
        return f"GameString says {parts.state.value} but its moves lead to {board.state.value}"
    return None


def format_game_string(board: "Board", state: GameState | None = None) -> str:
    """The GameString of ``board``'s game (type, state, turn, every move); ``state`` replaces
    the board's own (a result declared off the board)."""
    replay = type(board)(board.game_type, board.options)
    moves = []
    for move in board.move_stack:
        moves.append(format_move(replay, move))
        replay.push(move)
    head = f"{board.game_type};{(state or board.state).value};{board.turn.title}[{board.turn_number}]"
    return ";".join([head, *moves])

