"""Why a move is illegal: the rule it breaks and a sentence a player can read."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board, Move


class Rule(Enum):
    GAME_OVER = "game over"
    UNKNOWN = "not a legal move"


@dataclass(frozen=True)
class Violation:
    rule: Rule
    message: str


class IllegalMoveError(ValueError):
    """A move that breaks a rule; ``violation`` says which and why."""

    def __init__(self, move: "Move", violation: Violation) -> None:
        super().__init__(violation.message)
        self.move = move
        self.violation = violation


def why_illegal(board: "Board", move: "Move") -> Violation:
    return Violation(Rule.UNKNOWN, f"{move} is not legal")
