"""Colours, creatures and the individual pieces of a Hive set.

Pieces are interned: there is exactly one ``Piece`` object per name, so they compare
by identity and hash cheaply. Names follow the Universal Hive Protocol: colour letter,
bug letter, and a number only for bugs a player owns more than one of (``wQ``,
``bA3``, ``wP``).
"""

from __future__ import annotations

from enum import Enum
from typing import Callable


class Colour(Enum):
    WHITE = "w"
    BLACK = "b"

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C (move generation)

    @property
    def opponent(self) -> "Colour":
        return Colour.BLACK if self is Colour.WHITE else Colour.WHITE

    @property
    def title(self) -> str:
        return "White" if self is Colour.WHITE else "Black"


class Bug(Enum):
    """The eight creatures, by their one-letter UHP code."""

    QUEEN = "Q"
    SPIDER = "S"
    BEETLE = "B"
    GRASSHOPPER = "G"
    ANT = "A"
    MOSQUITO = "M"
    LADYBUG = "L"
    PILLBUG = "P"

    __hash__ = object.__hash__  # members are singletons: hash by identity, in C (move generation)

    @property
    def count(self) -> int:
        """How many of this bug each player owns."""
        return BUG_COUNTS[self]

    @property
    def title(self) -> str:
        return BUG_TITLES[self]


BUG_COUNTS = {
    Bug.QUEEN: 1, Bug.SPIDER: 2, Bug.BEETLE: 2, Bug.GRASSHOPPER: 3, Bug.ANT: 3,
    Bug.MOSQUITO: 1, Bug.LADYBUG: 1, Bug.PILLBUG: 1,
}
BUG_TITLES = {
    Bug.QUEEN: "Queen Bee", Bug.SPIDER: "Spider", Bug.BEETLE: "Beetle",
    Bug.GRASSHOPPER: "Grasshopper", Bug.ANT: "Soldier Ant", Bug.MOSQUITO: "Mosquito",
    Bug.LADYBUG: "Ladybug", Bug.PILLBUG: "Pillbug",
}
BASE_BUGS = (Bug.QUEEN, Bug.SPIDER, Bug.BEETLE, Bug.GRASSHOPPER, Bug.ANT)
EXPANSION_BUGS = (Bug.MOSQUITO, Bug.LADYBUG, Bug.PILLBUG)


class Piece:
    """One physical piece, e.g. White's second Ant (``wA2``). Use ``Piece.get``."""

    __slots__ = ("colour", "bug", "number", "name", "index")
    _by_name: dict[str, "Piece"] = {}
    _by_kind: dict[tuple[Colour, Bug], tuple["Piece", ...]] = {}
    ALL: tuple["Piece", ...] = ()

    colour: Colour
    bug: Bug
    number: int
    name: str
    index: int

    def __init__(self, colour: Colour, bug: Bug, number: int, index: int) -> None:
        self.colour, self.bug, self.number, self.index = colour, bug, number, index
        self.name = colour.value + bug.value + (str(number) if bug.count > 1 else "")

    @classmethod
    def get(cls, colour: Colour, bug: Bug, number: int = 1) -> "Piece":
        """The piece with this colour, bug and number (1-based)."""
        if not 1 <= number <= bug.count:
            raise ValueError(f"there is no {colour.title} {bug.title} number {number}")
        return cls._by_name[colour.value + bug.value + (str(number) if bug.count > 1 else "")]

    @classmethod
    def of_kind(cls, colour: Colour, bug: Bug) -> tuple["Piece", ...]:
        """``colour``'s pieces of ``bug``, in numbering order (the order they enter)."""
        return cls._by_kind[colour, bug]

    @classmethod
    def parse(cls, text: str) -> "Piece":
        """Parse a UHP piece name such as ``wA1`` or ``bQ``; ``wQ1`` and ``bM1`` are accepted too."""
        name = text.strip()
        if len(name) == 3 and name[2] == "1" and name[:2] in cls._by_name:
            name = name[:2]
        piece = cls._by_name.get(name)
        if piece is None:
            raise ValueError(f"{text!r} is not a Hive piece name (expected e.g. wQ, bA2, wB1)")
        return piece

    def __repr__(self) -> str:
        return self.name

    __str__ = __repr__

    def __reduce__(self) -> tuple[Callable[[str], "Piece"], tuple[str]]:
        return (Piece.parse, (self.name,))


def _make_all() -> tuple[Piece, ...]:
    made: list[Piece] = []
    for colour in Colour:
        for bug in Bug:
            for number in range(1, bug.count + 1):
                piece = Piece(colour, bug, number, len(made))
                Piece._by_name[piece.name] = piece
                made.append(piece)
            Piece._by_kind[colour, bug] = tuple(made[-bug.count:])
    return tuple(made)


Piece.ALL = _make_all()
