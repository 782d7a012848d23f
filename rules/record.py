"""A game record: tags, rule options, the moves with their times, marks and comments, the result.

A ``GameRecord`` is built move by move with ``append``, which checks each move against the
replayed position. An arbiter's ruling can force a move the engine rejects: append it with
``mark="override"`` and it is recorded, and replayed, as played. Illegal attempts (moves
tried, then taken back, overridden or corrected) are kept in ``attempts``; a game picked up
from the table starts from its ``setup`` position (``rules.setup``); the ``TimeControl``
tag sets the clocks (``rules.clock``).

>>> record = GameRecord("Base", White="Ann", Black="Bob")
>>> record.append("wS1", timestamp=2.5).uhp
'wS1'
>>> record.append("bG1 -wS1").move.dest
(-1, 0)
>>> record.resign(Colour.WHITE); record.result
<GameState.BLACK_WINS: 'BlackWins'>
>>> record.to_game_string()
'Base;BlackWins;White[2];wS1;bG1 -wS1'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from enum import Enum
from typing import Iterator

from .board import Board
from .clock import TimeControl
from .gametype import GameType, RuleOptions
from .move import GameState, Move, Outcome, Termination
from .pieces import Colour
from .reach import Unreachable, moves_to_reach
from .setup import Setup
from .uhp import format_game_string, split_game_string

# Tags every record has (empty until set), in the order Mzinga writes them.
STANDARD_TAGS = ("Date", "Event", "Site", "Round", "White", "Black")
# Tags a record derives from its own data (game type, result, rule options), not free text.
DERIVED_TAGS = ("GameType", "Result", "Termination", "QueenMayOpen", "RepetitionDraw", "SetUp", "Position")

Timestamp = float | str
"""When a move was made: seconds since the game started, or an ISO 8601 date-time."""


class Mark(Enum):
    """Why a person, not the camera and engine alone, decided a move."""

    OVERRIDE = "override"  # an arbiter made the players keep a move the engine rejects
    CORRECTION = "correction"  # a person fixed a move the camera misread


RESOLUTIONS = ("pending", "taken back", "overridden", "corrected")
"""What became of an illegal attempt: still on the board, or who ended it and how."""
RESOLVERS = ("w", "b", "arbiter")


@dataclass(frozen=True)
class IllegalAttempt:
    """A move someone tried that the rules forbid, kept in the record after it is resolved.

    ``ply`` is the number of moves recorded before it; ``colour`` the player charged;
    ``rule`` the rule's short name and ``message`` what happened; ``resolution`` one of
    ``RESOLUTIONS`` and ``by`` who resolved it (``"w"``, ``"b"`` or ``"arbiter"``; None while
    pending).
    """

    ply: int
    uhp: str
    colour: Colour
    rule: str
    message: str
    timestamp: float | None = None
    resolution: str = "pending"
    by: str | None = None

    def __post_init__(self) -> None:
        if self.resolution not in RESOLUTIONS:
            raise ValueError(f"resolution {self.resolution!r} is not one of {', '.join(RESOLUTIONS)}")
        if (self.by is None) != (self.resolution == "pending") or self.by not in (None, *RESOLVERS):
            raise ValueError(f"an attempt {self.resolution} is resolved by one of {', '.join(RESOLVERS)} "
                             f"(none while pending), not {self.by!r}")
        for text in (self.uhp, self.rule, self.message):
            _check_comment(text)
        if self.ply < 0:
            raise ValueError(f"an attempt follows move {self.ply}: moves are counted from 0")
        _check_timestamp(self.timestamp)


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
                 setup: Setup | None = None, **tags: str) -> None:
        self._board = Board(game_type, options) if setup is None else Board.from_position(setup, game_type, options)
        self._reached: list[Move] | Unreachable | None = None  # moves_to_reach(setup), once looked for
        self.tags: dict[str, str] = dict.fromkeys(STANDARD_TAGS, "")
        for name, value in tags.items():
            self.set_tag(name, value)
        self.moves: list[RecordedMove] = []
        self.attempts: list[IllegalAttempt] = []
        self._comment = ""
        self._declared: Outcome | None = None

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
        if name == "TimeControl":
            TimeControl.parse(value)
        self.tags[name] = value

    def set_start(self, when: datetime) -> None:
        """Date and Time tags of the start of the game (``2026.11.24``, ``18:05:00``, local time)."""
        self.set_tag("Date", when.strftime("%Y.%m.%d"))
        self.set_tag("Time", when.strftime("%H:%M:%S"))

    @property
    def time_control(self) -> TimeControl | None:
        """The ``[TimeControl "15+10"]`` tag, read; None without one."""
        return TimeControl.parse(self.tags.get("TimeControl", ""))

    @property
    def setup(self) -> Setup | None:
        """The position the game was picked up from (None: from the empty board)."""
        return self._board.setup

    @property
    def first_to_move(self) -> Colour:
        """Who made (or makes) the record's first move."""
        return Colour.WHITE if self.setup is None else self.setup.to_move

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
        entry = self.moves.pop()
        self.attempts = [a for a in self.attempts if a.ply <= len(self.moves)]
        return entry

    # --------------------------------------------------------------- attempts
    def add_attempt(self, attempt: IllegalAttempt) -> None:
        """Keep an illegal attempt made after the moves recorded so far."""
        if attempt.ply != len(self.moves):
            raise ValueError(f"an attempt made now follows move {len(self.moves)}, not {attempt.ply}")
        self.attempts.append(attempt)

    def resolve_attempt(self, resolution: str, by: str) -> IllegalAttempt:
        """Say how the pending attempt ended (``"taken back"`` by ``"w"``, ...); return it."""
        index = next((i for i in range(len(self.attempts) - 1, -1, -1)
                      if self.attempts[i].resolution == "pending"), None)
        if index is None:
            raise ValueError("there is no pending illegal attempt to resolve")
        self.attempts[index] = replace(self.attempts[index], resolution=resolution, by=by)
        return self.attempts[index]

    # ----------------------------------------------------------------- result
    def declare(self, outcome: Outcome) -> None:
        """End the game off the board: resignation, agreed draw, time, arbiter, or as reported."""
        if self._board.state.is_over:
            raise ValueError(f"the game is already over on the board ({self._board.state.value})")
        if outcome.termination.on_board:
            raise ValueError(f"{outcome.termination.value} is shown by the board, not declared")
        self._declared = outcome

    def resign(self, colour: Colour) -> None:
        """``colour`` resigns: the opponent wins."""
        self.declare(Outcome(Termination.RESIGNATION, colour.opponent))

    def agree_draw(self) -> None:
        self.declare(Outcome(Termination.AGREEMENT, None))

    def withdraw_result(self) -> None:
        """Forget a declared result (e.g. a resignation entered by mistake)."""
        self._declared = None

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended: on the board, or as declared; None while it goes on."""
        return self._board.outcome or self._declared

    @property
    def declared(self) -> Outcome | None:
        """The result declared off the board (resignation, agreement, ...), if any."""
        return self._declared

    @property
    def result(self) -> GameState:
        """The game's state: its outcome's once it is over, else the board's."""
        outcome = self.outcome
        return outcome.state if outcome else self._board.state

    def _describe_declared(self) -> str:
        assert self._declared is not None
        return f"{self._declared.state.value} by {self._declared.termination.value}"

    # -------------------------------------------------------------- positions
    def board(self) -> Board:
        """The final position (an independent copy)."""
        return self._board.copy()

    def boards(self) -> Iterator[Board]:
        """Every position from the empty board to the final one, each an independent copy."""
        return self._board.replay()

    def to_game_string(self) -> str:
        """The UHP GameString of the game, its state the record's result (so a resignation reads
        ``WhiteWins``, as in PGN). UHP cannot hold a move an arbiter allowed against the rules, so
        the string stops before the first override; a game from a set-up position begins with moves
        that reach it (``moves_to_reach``), or is only its header when none were found
        (``game_string_note`` says why)."""
        cut = self._first_override()
        lead = self._lead_in()
        if cut is None and not isinstance(lead, Unreachable):
            return format_game_string(self._whole_board(lead, self.moves), self.result)
        if isinstance(lead, Unreachable):
            return f"{self.game_type};{GameState.NOT_STARTED.value};White[1]"
        return format_game_string(self._whole_board(lead, self.moves[:cut]))

    def game_string_note(self) -> str | None:
        """Why ``to_game_string`` is not the whole game as played, or None when it is."""
        lead = self._lead_in()
        if isinstance(lead, Unreachable):
            return (f"This game began from a position set up on the table, and no legal game reaching it was "
                    f"found ({lead}), so the GameString holds no moves. The PGN holds the position and the game.")
        notes = []
        if lead:
            notes.append(f"This game began from a position set up on the table: the GameString's first {len(lead)} "
                         "moves are a legal game reaching it (up to where the hive lies), not moves played here.")
        cut = self._first_override()
        if cut is not None:
            notes.append(f"The GameString stops before move {cut + 1} ({self.moves[cut].uhp}), which an arbiter "
                         "allowed against the rules: UHP cannot record it. The PGN holds the whole game.")
        return " ".join(notes) or None

    def _lead_in(self) -> list[Move] | Unreachable:
        """Moves from the empty board to the set-up position (none without one), or why there are none."""
        setup = self.setup
        if setup is None:
            return []
        if self._reached is None:
            try:
                self._reached = moves_to_reach(setup, self.game_type, self.options)
            except Unreachable as exc:
                self._reached = exc
        return self._reached

    def _whole_board(self, lead: list[Move], moves: list[RecordedMove]) -> Board:
        """A board from empty with ``lead``, then ``moves`` (shifted to where ``lead`` left the hive)."""
        board = Board(self.game_type, self.options)
        for move in lead:
            board.push(move)
        shift = _shift(self.setup, board) if self.setup is not None and lead else (0, 0)
        for entry in moves:
            move = entry.move
            board.push(Move(move.piece, _moved(move.dest, shift), _moved(move.origin, shift)))
        return board

    def _first_override(self) -> int | None:
        return next((i for i, entry in enumerate(self.moves) if entry.mark is Mark.OVERRIDE), None)

    @classmethod
    def from_game_string(cls, text: str, options: RuleOptions | None = None, **tags: str) -> "GameRecord":
        """A record of a GameString's moves (read leniently, see ``rules.uhp``); a finished state
        the moves do not show is kept as a reported result."""
        stated = split_game_string(text).state
        record = cls.from_board(Board.from_game_string(text, options, strict=False), **tags)
        if stated.is_over and not record.result.is_over:
            record.declare(Outcome.from_state(stated, Termination.REPORTED))
        return record

    @classmethod
    def from_board(cls, board: Board, **tags: str) -> "GameRecord":
        """A record of the moves played on ``board`` (each checked again) from its set-up position, if any."""
        record = cls(board.game_type, board.options, board.setup, **tags)
        for move in board.move_stack:
            record.append(move)
        return record

    def __repr__(self) -> str:
        return f"GameRecord({self.game_type}, {len(self.moves)} moves, {self.result.value})"


def _shift(setup: Setup, board: Board) -> tuple[int, int]:
    """How far ``board``'s hive lies from ``setup``'s (the same position shifted)."""
    here = min(board.stacks())
    there = min(setup.stacks)
    return (here[0] - there[0], here[1] - there[1])


def _moved(cell: tuple[int, int] | None, shift: tuple[int, int]) -> tuple[int, int] | None:
    return None if cell is None else (cell[0] + shift[0], cell[1] + shift[1])


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
