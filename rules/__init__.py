"""hivecam's rules engine: pure Python, no third-party imports.

>>> from rules import Board
>>> board = Board("Base+MLP")
>>> board.push_uhp("wS1")
Move(wS1 None->(0, 0))
"""

from .board import PASS, Board, GameState, Move
from .gametype import ALL_GAME_TYPES, GameType, RuleOptions
from .hexgrid import Hex
from .pieces import Bug, Colour, Piece

__all__ = ["PASS", "ALL_GAME_TYPES", "Board", "Bug", "Colour", "GameState", "GameType", "Hex",
           "Move", "Piece", "RuleOptions"]
