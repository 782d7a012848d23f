"""Compare an observed board with the true one up to lattice rotation and translation.

The observer's axial coordinates are its own; the best of the six rotations, and the
translation most tile pairs agree on, maps them onto the truth's coordinates.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypeVar

from rules.hexgrid import Hex, rotate

T = TypeVar("T")


@dataclass(frozen=True)
class Alignment:
    """How observed cells map onto true cells: rotate by ``turns`` sixths, then add ``shift``."""

    turns: int
    shift: Hex
    matched: int  # observed cells that land on a true cell

    def apply(self, cell: Hex) -> Hex:
        q, r = rotate(cell, self.turns)
        return (q + self.shift[0], r + self.shift[1])


def align(observed: dict[Hex, T], truth: dict[Hex, T]) -> Alignment:
    """The rotation and translation that put the most observed cells on true cells with equal values.

    Values break ties (e.g. ``(colour, bug)``), so symmetric shapes align the right way round.
    """
    best = Alignment(0, (0, 0), 0)
    best_score = (-1, -1)
    for turns in range(6):
        votes: Counter[Hex] = Counter()
        for cell in observed:
            q, r = rotate(cell, turns)
            for true_cell in truth:
                votes[(true_cell[0] - q, true_cell[1] - r)] += 1
        for shift, _ in votes.most_common(4):
            candidate = Alignment(turns, shift, 0)
            placed = {candidate.apply(c): v for c, v in observed.items()}
            hits = sum(1 for c in placed if c in truth)
            agree = sum(1 for c, v in placed.items() if truth.get(c) == v)
            if (hits, agree) > best_score:
                best_score, best = (hits, agree), Alignment(turns, shift, hits)
    return best
