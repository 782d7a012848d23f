"""The engine's vocabulary, with no dependencies on the rest of it: moves, game states,
outcomes and the error types.

>>> Outcome(Termination.RESIGNATION, Colour.BLACK).state
<GameState.BLACK_WINS: 'BlackWins'>
>>> Outcome.from_state(GameState.DRAW, Termination.AGREEMENT).winner is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, NamedTuple

from .hexgrid import Hex
from .pieces import Colour, Piece

if TYPE_CHECKING:
    from .explain import Violation


class GameState(Enum):
    """UHP game states."""

    NOT_STARTED = "NotStarted"
    IN_PROGRESS = "InProgress"
    DRAW = "Draw"
    WHITE_WINS = "WhiteWins"
    BLACK_WINS = "BlackWins"

    @property
    def is_over(self) -> bool:
        return self in (GameState.DRAW, GameState.WHITE_WINS, GameState.BLACK_WINS)

    @property
    def winner(self) -> Colour | None:
        """The colour that won, or None (a draw, or no result yet)."""
        return _WINNERS.get(self)

    @classmethod
    def won_by(cls, colour: Colour) -> "GameState":
        """The state of a game ``colour`` has won."""
        return GameState.WHITE_WINS if colour is Colour.WHITE else GameState.BLACK_WINS


_WINNERS = {GameState.WHITE_WINS: Colour.WHITE, GameState.BLACK_WINS: Colour.BLACK}


class Termination(Enum):
    """Why a game ended; the value is the words shown on the page and in PGN's Termination tag."""

    QUEEN_SURROUNDED = "queen surrounded"
    BOTH_SURROUNDED = "both queens surrounded"
    REPETITION = "threefold repetition"
    RESIGNATION = "resignation"
    AGREEMENT = "agreement"  # an agreed draw
    ILLEGAL_MOVES = "illegal-move limit"  # forfeited by too many illegal moves
    TIME = "time forfeit"
    ADJUDICATION = "adjudication"  # an arbiter's decision
    REPORTED = "reported"  # a source states a result and does not say why

    @property
    def on_board(self) -> bool:
        """Whether the position itself shows this ending (it cannot be declared)."""
        return self in (Termination.QUEEN_SURROUNDED, Termination.BOTH_SURROUNDED, Termination.REPETITION)


_DRAWN = {Termination.BOTH_SURROUNDED, Termination.REPETITION, Termination.AGREEMENT}
_DECIDED = {Termination.QUEEN_SURROUNDED, Termination.RESIGNATION, Termination.ILLEGAL_MOVES}


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winner (None for a draw) and why."""

    termination: Termination
    winner: Colour | None

    def __post_init__(self) -> None:
        if self.winner is not None and self.termination in _DRAWN:
            raise ValueError(f"a game ended by {self.termination.value} is a draw, not a win")
        if self.winner is None and self.termination in _DECIDED:
            raise ValueError(f"a game ended by {self.termination.value} has a winner, not a draw")

    @classmethod
    def from_state(cls, state: GameState, termination: Termination) -> "Outcome":
        """The outcome a finished ``state`` stands for, ended by ``termination``."""
        if not state.is_over:
            raise ValueError(f"{state.value} is not a result a game can end in")
        return cls(termination, state.winner)

    @property
    def state(self) -> GameState:
        return GameState.DRAW if self.winner is None else GameState.won_by(self.winner)


class Move(NamedTuple):
    """A placement, a movement (including a Pillbug throw), or a pass.

    Two moves are equal when they put the same piece on the same cell: that is what
    changes the position. ``origin`` (None for a placement) is kept for display.
    A tuple underneath, so that move generation makes millions of them quickly.
    """

    piece: Piece | None
    dest: Hex | None
    origin: Hex | None = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Move) and self.piece is other.piece and self.dest == other.dest

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self.piece.index if self.piece else -1, self.dest))

    @property
    def is_pass(self) -> bool:
        return self.piece is None

    @property
    def is_placement(self) -> bool:
        return self.piece is not None and self.origin is None

    def __repr__(self) -> str:
        if self.piece is None:
            return "Move(pass)"
        return f"Move({self.piece} {self.origin}->{self.dest})"


PASS = Move(None, None)


class NotationError(ValueError):
    """Text in a game notation (UHP, PGN, SGF) that cannot be read; the message is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


class IllegalMoveError(ValueError):
    """A move that breaks a rule; ``violation`` says which and why."""

    def __init__(self, move: Move, violation: "Violation") -> None:
        super().__init__(violation.message)
        self.move = move
        self.violation = violation
