"""hivecam's rules engine: pure Python, no third-party imports.

>>> from rules import Board
>>> board = Board("Base+MLP")
>>> board.push_uhp("wS1")
Move(wS1 None->(0, 0))
>>> why_illegal(board, board.parse_uhp("bQ wS1-")).rule
<Rule.QUEEN_NOT_ON_FIRST_TURN: 'No Queen on the first turn'>
"""

from .board import Board
from .clock import ClockState, TimeControl
from .explain import Rule, Ruling, Violation, explain_cell, why_illegal
from .gametype import ALL_GAME_TYPES, GameType, RuleOptions
from .hexgrid import Hex
from .pgn import PgnError, format_pgn, parse_pgn
from .pieces import Bug, Colour, Piece
from .move import PASS, GameState, IllegalMoveError, Move, NotationError, Outcome, Termination
from .record import GameRecord, IllegalAttempt, Mark, RecordedMove
from .setup import Setup
from .sgf import SgfError, load_sgf, read_sgf

__all__ = ["PASS", "ALL_GAME_TYPES", "Board", "Bug", "ClockState", "Colour", "GameRecord", "GameState", "GameType",
           "Hex", "IllegalAttempt", "IllegalMoveError", "Mark", "Move", "NotationError", "Outcome", "Piece",
           "PgnError", "RecordedMove", "Rule", "RuleOptions", "Ruling", "Setup", "SgfError", "Termination",
           "TimeControl", "Violation", "explain_cell",
           "format_pgn", "load_sgf", "parse_pgn", "read_sgf", "why_illegal"]
