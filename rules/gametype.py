"""Game types (which expansion bugs are in play) and rule options."""

from __future__ import annotations

from dataclasses import dataclass

from .pieces import BASE_BUGS, Bug, EXPANSION_BUGS

_LETTERS = {Bug.MOSQUITO: "M", Bug.LADYBUG: "L", Bug.PILLBUG: "P"}


@dataclass(frozen=True)
class GameType:
    """The base game plus a subset of Mosquito, Ladybug and Pillbug (UHP ``Base+MLP``)."""

    expansions: frozenset[Bug] = frozenset()

    @classmethod
    def parse(cls, text: str) -> "GameType":
        """Parse ``Base``, ``Base+M``, ... ``Base+MLP`` (letters in any order)."""
        name = text.strip()
        head, plus, letters = name.partition("+")
        if head != "Base" or (plus and not letters):
            raise ValueError(f"{text!r} is not a game type (expected Base, Base+M, ..., Base+MLP)")
        found: set[Bug] = set()
        for letter in letters:
            bug = next((b for b, code in _LETTERS.items() if code == letter), None)
            if bug is None or bug in found:
                raise ValueError(f"{text!r} is not a game type: bad expansion letter {letter!r}")
            found.add(bug)
        return cls(frozenset(found))

    @property
    def bugs(self) -> tuple[Bug, ...]:
        """The creatures in play, base bugs first."""
        return BASE_BUGS + tuple(b for b in EXPANSION_BUGS if b in self.expansions)

    def __str__(self) -> str:
        letters = "".join(_LETTERS[b] for b in EXPANSION_BUGS if b in self.expansions)
        return "Base+" + letters if letters else "Base"


ALL_GAME_TYPES = tuple(GameType.parse(n) for n in (
    "Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP", "Base+MLP"))


@dataclass(frozen=True)
class RuleOptions:
    """Choices where rule sets differ. The defaults are the 2024 rules.

    ``queen_may_open``: the older books let a player place the Queen on their first turn.
    ``repetition_draw``: a position occurring for the third time (same player to move)
    ends the game as a draw.
    """

    queen_may_open: bool = False
    repetition_draw: bool = False
