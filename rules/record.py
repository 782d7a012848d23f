"""A game record: tags, rule options, the moves with their times, marks and comments, the result.

A ``GameRecord`` is built move by move with ``append``, which checks each move against the
replayed position. An arbiter's ruling can force a move the engine rejects: append it with
``mark="override"`` and it is recorded, and replayed, as played.

>>> record = GameRecord("Base", White="Ann", Black="Bob")
>>> record.append("wS1", timestamp=2.5).uhp
'wS1'
>>> record.append("bG1 -wS1").move.dest
(-1, 0)
>>> record.resign(Colour.WHITE); record.result
<GameState.BLACK_WINS: 'BlackWins'>
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Iterator

from .board import Board, GameState, Move
from .gametype import GameType, RuleOptions
from .pieces import Colour

# Tags every record has (empty until set), in the order Mzinga writes them.
STANDARD_TAGS = ("Date", "Event", "Site", "Round", "White", "Black")
# Tags a record derives from its own data (game type, result, rule options), not free text.
DERIVED_TAGS = ("GameType", "Result", "Termination", "QueenMayOpen", "RepetitionDraw")

Timestamp = float | str
"""When a move was made: seconds since the game started, or an ISO 8601 date-time."""


class Mark(Enum):
    """Why a person, not the camera and engine alone, decided a move."""

    OVERRIDE = "override"  # an arbiter made the players keep a move the engine rejects
    CORRECTION = "correction"  # a person fixed a move the camera misread


class Ending(Enum):
    """How a game ended when the position on the board does not show it."""

    RESIGNATION = "resignation"
    AGREEMENT = "agreement"  # an agreed draw
    TIME = "time forfeit"
    ADJUDICATION = "adjudication"  # an arbiter's decision
    REPORTED = "reported"  # the source states a result and does not say why


@dataclass(frozen=True)
class RecordedMove:
    """One move of a record, its UHP MoveString (in the position before it) and annotations."""

    move: Move
    uhp: str
    timestamp: Timestamp | None = None
    mark: Mark | None = None
    comment: str = ""


class GameRecord:
    """A whole game: game type, rule options, tags, moves and how it ended."""

    def __init__(self, game_type: GameType | str = "Base+MLP", options: RuleOptions | None = None,
                 **tags: str) -> None:
        self._board = Board(game_type, options)
        self.tags: dict[str, str] = dict.fromkeys(STANDARD_TAGS, "")
        for name, value in tags.items():
            self.set_tag(name, value)
        self.moves: list[RecordedMove] = []
        self._comment = ""
        self._declared: tuple[GameState, Ending] | None = None

    @property
    def game_type(self) -> GameType:
        return self._board.game_type

    @property
    def options(self) -> RuleOptions:
        return self._board.options

    def set_tag(self, name: str, value: str) -> None:
        """Set a tag such as ``White`` or a free one; results and the game type are not tags."""
        if not name.isidentifier():
            raise ValueError(f"tag name {name!r} must be a single word of letters, digits and _")
        if name in DERIVED_TAGS:
            raise ValueError(f"{name} is not set as a tag: it comes from the record itself "
                             "(its game type and options, its moves, resign()/agree_draw()/declare())")
        if not isinstance(value, str) or "\n" in value or "\r" in value:
            raise ValueError(f"tag {name} must be one line of text, not {value!r}")
        self.tags[name] = value

    @property
    def comment(self) -> str:
        """A note about the game as a whole (written before the first move)."""
        return self._comment

    @comment.setter
    def comment(self, text: str) -> None:
        _check_comment(text)
        self._comment = text.strip()

    # ------------------------------------------------------------------ moves
    def append(self, move: Move | str, timestamp: Timestamp | datetime | None = None,
               mark: Mark | str | None = None, comment: str = "") -> RecordedMove:
        """Record the next move (a ``Move`` or UHP MoveString) after checking it.

        Raises ``IllegalMoveError`` for a move the rules forbid, unless ``mark`` is
        ``"override"``; ``ValueError`` for an unreadable move, timestamp, mark or comment,
        or when the game has already been declared over.
        """
        if self._declared is not None:
            raise ValueError(f"no move can follow: the game ended ({self._describe_declared()})")
        mark = Mark(mark) if mark is not None else None
        timestamp = _check_timestamp(timestamp)
        _check_comment(comment)
        board = self._board
        if isinstance(move, str):
            move = board.parse_uhp(move)
        if mark is Mark.OVERRIDE:
            _check_playable(board, move)
        elif not board.is_legal(move):
            board.push_legal(move)  # raises IllegalMoveError with the rule broken
        uhp = board.uhp(move)
        board.push(move)
        entry = RecordedMove(board.move_stack[-1], uhp, timestamp, mark, comment.strip())
        self.moves.append(entry)
        return entry

    def pop(self) -> RecordedMove:
        """Take back the last move (a declared result must be withdrawn first)."""
        if self._declared is not None:
            raise ValueError(f"the game was declared over ({self._describe_declared()}): "
                             "call withdraw_result() before taking a move back")
        if not self.moves:
            raise ValueError("there is no move to take back")
        self._board.pop()
        return self.moves.pop()

    # ----------------------------------------------------------------- result
    def declare(self, state: GameState, ending: Ending) -> None:
        """End the game off the board: resignation, agreed draw, time, arbiter, or as reported."""
        if self._board.state.is_over:
            raise ValueError(f"the game is already over on the board ({self._board.state.value})")
        if not state.is_over:
            raise ValueError(f"{state.value} is not a result a game can be declared to end in")
        if ending is Ending.RESIGNATION and state is GameState.DRAW:
            raise ValueError("a resignation cannot end in a draw")
        if ending is Ending.AGREEMENT and state is not GameState.DRAW:
            raise ValueError("only a draw can be agreed")
        self._declared = (state, ending)

    def resign(self, colour: Colour) -> None:
        """``colour`` resigns: the opponent wins."""
        winner = colour.opponent
        self.declare(GameState.WHITE_WINS if winner is Colour.WHITE else GameState.BLACK_WINS,
                     Ending.RESIGNATION)

    def agree_draw(self) -> None:
        self.declare(GameState.DRAW, Ending.AGREEMENT)

    def withdraw_result(self) -> None:
        """Forget a declared result (e.g. a resignation entered by mistake)."""
        self._declared = None

    @property
    def result(self) -> GameState:
        """The outcome: the board's when the game ended there, else any declared one."""
        if self._declared is not None:
            return self._declared[0]
        return self._board.state

    @property
    def ending(self) -> Ending | None:
        """How a declared result came about; None when the board decides (or nothing yet)."""
        return self._declared[1] if self._declared else None

    def _describe_declared(self) -> str:
        state, ending = self._declared  # type: ignore[misc]
        return f"{state.value} by {ending.value}"

    # -------------------------------------------------------------- positions
    def board(self) -> Board:
        """The final position (an independent copy)."""
        return self._board.copy()

    def boards(self) -> Iterator[Board]:
        """Every position from the empty board to the final one, each an independent copy."""
        return self._board.replay()

    def to_game_string(self) -> str:
        """The UHP GameString of the moves (the board's state, not a declared result)."""
        return self._board.game_string()

    @classmethod
    def from_board(cls, board: Board, **tags: str) -> "GameRecord":
        """A record of the moves played on ``board`` (each checked again)."""
        record = cls(board.game_type, board.options, **tags)
        for move in board.move_stack:
            record.append(move)
        return record

    def __repr__(self) -> str:
        return f"GameRecord({self.game_type}, {len(self.moves)} moves, {self.result.value})"


def _check_timestamp(value: Timestamp | datetime | None) -> Timestamp | None:
    """Seconds (a non-negative number) or an ISO 8601 date-time; datetimes become ISO text."""
    if value is None:
        return None
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"timestamp {value!r} is neither seconds nor an ISO 8601 date-time")
    if isinstance(value, str):
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise ValueError(f"timestamp {value!r} is not an ISO 8601 date-time") from None
        return value
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"timestamp {value!r} must be a finite number of seconds, 0 or more")
    return value


def _check_comment(comment: str) -> None:
    for brace in "{}":
        if brace in comment:
            raise ValueError(f"comment {comment!r} may not contain {brace!r} (game files end comments with it)")


def _check_playable(board: Board, move: Move) -> None:
    """Whether the engine can play ``move`` at all, legal or not (for arbiter overrides)."""
    piece = move.piece
    if piece is None:
        return
    if move.dest is None:
        raise ValueError(f"{piece} has no destination")
    if not board.in_play(piece.bug):
        raise ValueError(f"there is no {piece.bug.title} in {board.game_type}")
    if board.is_covered(piece):
        raise ValueError(f"{piece} is covered by another piece and cannot be moved")
    if board.position_of(piece) == move.dest:
        raise ValueError(f"{piece} is already on {move.dest}")
