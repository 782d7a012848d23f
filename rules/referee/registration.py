"""Registering what the camera sees with the game's coordinates.

The observer's lattice coordinates are arbitrary and change when the hive is bumped or
the camera nudged. A ``Transform`` is a rigid map of the hex lattice (an optional
mirror, one of six rotations, a translation); ``candidate_transforms`` ranks the
transforms by how many seen tiles land on a known tile with the same colour and bug.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Hashable, Mapping

from ..hexgrid import ORIGIN, Hex, distance, reflect, rotate


@dataclass(frozen=True)
class Transform:
    """``cell -> rotate(reflect(cell) if mirror else cell, turns) + shift``."""

    turns: int = 0
    mirror: bool = False
    shift: Hex = ORIGIN

    def __post_init__(self) -> None:
        if not 0 <= self.turns < 6:
            raise ValueError(f"turns must be 0..5, not {self.turns!r}")

    def apply(self, cell: Hex) -> Hex:
        q, r = rotate(reflect(cell) if self.mirror else cell, self.turns)
        return (q + self.shift[0], r + self.shift[1])

    def inverse(self) -> "Transform":
        """The transform undoing this one."""
        back = (-self.turns) % 6
        q, r = rotate((-self.shift[0], -self.shift[1]), back)
        if self.mirror:  # reflect(rotate(c, -t)) == rotate(reflect(c), t)
            return Transform(self.turns, True, reflect((q, r)))
        return Transform(back, False, (q, r))

    def nearness(self, other: "Transform") -> tuple[int, int, int]:
        """How far apart two transforms are (smaller is nearer): mirror, rotation, shift."""
        turn = abs(self.turns - other.turns)
        return (self.mirror != other.mirror, min(turn, 6 - turn), distance(self.shift, other.shift))


IDENTITY = Transform()


def candidate_transforms(seen: Mapping[Hex, Hashable], known: Mapping[Hex, Hashable],
                         allow_mirror: bool = False) -> Counter[Transform]:
    """Every transform putting at least one seen tile on a known tile with the same label,
    with the number of tiles it puts so (its votes)."""
    where: dict[Hashable, list[Hex]] = defaultdict(list)
    for cell, label in known.items():
        where[label].append(cell)
    votes: Counter[Transform] = Counter()
    for mirror in (False, True) if allow_mirror else (False,):
        for turns in range(6):
            turned = Transform(turns, mirror)
            for cell, label in seen.items():
                q, r = turned.apply(cell)
                for kq, kr in where.get(label, ()):
                    votes[Transform(turns, mirror, (kq - q, kr - r))] += 1
    return votes


def best_fit(seen: Mapping[Hex, Hashable], known: Mapping[Hex, Hashable], near: Transform,
             allow_mirror: bool = False) -> Transform:
    """The transform putting the most seen cells on known cells, whatever they were read as
    (a misread label must not turn the view), then the most on a known tile of the same label,
    then the nearest to ``near``."""
    cells = candidate_transforms(dict.fromkeys(seen, 0), dict.fromkeys(known, 0), allow_mirror)
    same = candidate_transforms(seen, known, allow_mirror)
    return min(cells, key=lambda t: (-cells[t], -same[t], t.nearness(near)), default=near)
