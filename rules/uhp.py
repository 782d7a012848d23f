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
- A GameString's moves are the truth. ``read_game_string`` (what ``hivecam uhp`` uses, as
  other UHP engines do) replays the moves and ignores a stale header (state and turn), so
  ``Base;NotStarted;White[1];wS1`` is Black to move; the header must still be well formed.
  ``parse_game_string`` (``Board.from_game_string``) is strict: the header must agree with
  the moves, so a file that says one thing and holds another is caught.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .gametype import GameType, RuleOptions
from .hexgrid import ORIGIN, Direction, Hex, direction_between, neighbours, step
from .pieces import Piece

if TYPE_CHECKING:
    from .board import Board, Move

_AFTER = {"-": Direction.E, "/": Direction.NE, "\\": Direction.SE}
_BEFORE = {"-": Direction.W, "/": Direction.SW, "\\": Direction.NW}
# direction from the reference piece -> (mark, written after the reference)
MARKS = {d: (m, True) for m, d in _AFTER.items()} | {d: (m, False) for m, d in _BEFORE.items()}
_TURN = re.compile(r"(White|Black)\[(\d{1,6})\]")


class NotationError(ValueError):
    """A move or game string that cannot be read."""


def parse_move(board: "Board", text: str) -> "Move":
    """Resolve a MoveString against ``board`` (syntax and references only, not legality)."""
    from .board import PASS, Move

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
    if token[0] in _BEFORE:
        mark, name, direction = token[0], token[1:], _BEFORE[token[0]]
    elif token[-1] in _AFTER:
        mark, name, direction = token[-1], token[:-1], _AFTER[token[-1]]
    else:
        mark, name, direction = "", token, None
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
            mark, after = MARKS[direction]
            ref = ref_stack[-1]
            return f"{piece} {ref}{mark}" if after else f"{piece} {mark}{ref}"
    return str(piece)


def read_game_string(text: str, options: RuleOptions | None = None) -> tuple["Board", "GameState"]:
    """Replay a GameString's moves (lenient: a stale state or turn in the header is ignored).

    Returns the board and the state the header states (it may differ from ``board.state``).
    """
    from .board import Board, GameState
    from .explain import IllegalMoveError

    parts = [p.strip() for p in text.strip().split(";")]
    if len(parts) < 3:
        raise NotationError(f"{text!r}: a GameString is 'GameType;GameState;Turn[;moves...]'")
    try:
        board = Board(GameType.parse(parts[0]), options)
        stated_state = GameState(parts[1])
    except ValueError as exc:
        raise NotationError(f"GameString: {exc}") from None
    if _TURN.fullmatch(parts[2]) is None:
        raise NotationError(f"GameString: {parts[2][:40]!r} is not a turn like White[1] or Black[12]")
    for number, move_text in enumerate(parts[3:], start=1):
        if not move_text:
            continue
        try:
            board.push_uhp(move_text)
        except (NotationError, IllegalMoveError) as exc:
            raise NotationError(f"GameString move {number} ({move_text!r}): {exc}") from None
    return board, stated_state


def parse_game_string(text: str, options: RuleOptions | None = None) -> "Board":
    """Replay a GameString (``Base+M;InProgress;Black[2];wS1;bM -wS1``) whose header must agree
    with its moves (strict)."""
    from .board import GameState

    board, stated_state = read_game_string(text, options)
    turn = f"{board.turn.title}[{board.turn_number}]"
    stated_turn = text.split(";")[2].strip()
    if stated_turn != turn:
        raise NotationError(f"GameString says {stated_turn} but its moves lead to {turn}")
    unstarted = {GameState.NOT_STARTED, GameState.IN_PROGRESS}
    if stated_state is not board.state and not (board.ply == 0 and stated_state in unstarted):
        raise NotationError(f"GameString says {stated_state.value} but its moves lead to {board.state.value}")
    return board


def format_game_string(board: "Board") -> str:
    """The GameString of ``board``'s game (type, state, turn, every move)."""
    from .board import Board

    replay = Board(board.game_type, board.options)
    moves = []
    for move in board.move_stack:
        moves.append(format_move(replay, move))
        replay.push(move)
    head = f"{board.game_type};{board.state.value};{board.turn.title}[{board.turn_number}]"
    return ";".join([head, *moves])

