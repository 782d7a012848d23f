"""A set-up position: a game picked up from the table instead of from an empty board.

The position is every stack (bottom first) and the side to move. In PGN it is the tag
``[Position "..."]`` (with ``[SetUp "1"]``) in hivecam's own text: the side to move, then
each stack as ``q,r:piece/piece`` (bottom first), cells in axial coordinates:

>>> setup = Setup.parse("b 0,0:wQ 1,0:bS1/bB1 -1,0:wA1")
>>> setup.to_move, setup.stacks[(1, 0)]
(<Colour.BLACK: 'b'>, (bS1, bB1))
>>> str(setup)
'b -1,0:wA1 0,0:wQ 1,0:bS1/bB1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from .geometry import is_connected
from .gametype import GameType
from .hexgrid import Hex
from .pieces import Bug, Colour, Piece

_STACK = re.compile(r"(-?\d{1,3}),(-?\d{1,3}):(\w+(?:/\w+)*)")
CLIMBERS = (Bug.BEETLE, Bug.MOSQUITO)
"""The creatures that can be on top of another piece."""


@dataclass(frozen=True)
class Setup:
    """Stacks by cell (bottom first) and the side to move; checked when made (``ValueError``)."""

    stacks: Mapping[Hex, tuple[Piece, ...]]
    to_move: Colour

    def __post_init__(self) -> None:
        stacks = {cell: tuple(stack) for cell, stack in sorted(self.stacks.items())}
        object.__setattr__(self, "stacks", stacks)
        seen: set[Piece] = set()
        for cell, stack in stacks.items():
            if not stack:
                raise ValueError(f"the stack at {cell} is empty")
            for height, piece in enumerate(stack):
                if piece in seen:
                    raise ValueError(f"{piece} is on the table twice")
                seen.add(piece)
                if height and piece.bug not in CLIMBERS:
                    raise ValueError(f"{piece} lies on top of {stack[height - 1]} at {cell}: only a Beetle "
                                     "or a Mosquito can climb on another piece")
        for piece in seen:
            if piece.number > 1 and Piece.get(piece.colour, piece.bug, piece.number - 1) not in seen:
                raise ValueError(f"{piece} is on the table but {Piece.get(piece.colour, piece.bug, piece.number - 1)} "
                                 "is not: pieces of one kind enter in number order")
        if not is_connected({c: list(s) for c, s in stacks.items()}):
            raise ValueError("the pieces on the table are not one hive (some do not touch the rest)")
        if not stacks and self.to_move is not Colour.WHITE:
            raise ValueError("on an empty table White moves first")

    def pieces(self) -> list[Piece]:
        return [piece for stack in self.stacks.values() for piece in stack]

    def check_game_type(self, game_type: GameType) -> None:
        """``ValueError`` when a piece on the table is not in ``game_type``."""
        for piece in self.pieces():
            if piece.bug not in game_type.bugs:
                raise ValueError(f"{piece} is on the table, but there is no {piece.bug.title} in {game_type}")

    def __str__(self) -> str:
        stacks = " ".join(f"{q},{r}:{'/'.join(p.name for p in stack)}" for (q, r), stack in self.stacks.items())
        return f"{self.to_move.value} {stacks}".strip()

    @classmethod
    def parse(cls, text: str) -> "Setup":
        """Read the ``Position`` text (see the module docstring)."""
        words = text.split()
        if not words or words[0] not in ("w", "b"):
            raise ValueError(f"position {text[:40]!r} must begin with the side to move, w or b")
        stacks: dict[Hex, tuple[Piece, ...]] = {}
        for word in words[1:]:
            match = _STACK.fullmatch(word)
            if match is None:
                raise ValueError(f"{word[:40]!r} is not a stack like 0,-1:wQ or 1,0:bS1/wB2")
            cell = (int(match.group(1)), int(match.group(2)))
            if cell in stacks:
                raise ValueError(f"cell {cell} is given twice")
            stacks[cell] = tuple(Piece.parse(name) for name in match.group(3).split("/"))
        return cls(stacks, Colour(words[0]))


def setup_of(stacks: Mapping[Hex, Sequence[Piece]], to_move: Colour | str) -> Setup:
    """A ``Setup`` from any stacks (lists or tuples) and a colour or its letter."""
    colour = Colour(to_move) if isinstance(to_move, str) else to_move
    return Setup({cell: tuple(stack) for cell, stack in stacks.items()}, colour)
