"""Axial hex coordinates for pointy-topped hexes (rows run east-west).

A cell is a plain ``(q, r)`` tuple: cheap to hash and compare. Directions follow
the Universal Hive Protocol's reference marks: ``X-`` is east of X, ``X/`` north-east,
``X\\`` south-east, and the marks before the reference mean the opposite side.
"""

from __future__ import annotations

from enum import IntEnum

Hex = tuple[int, int]

ORIGIN: Hex = (0, 0)


class Direction(IntEnum):
    """The six neighbour directions, clockwise from east."""

    E = 0
    SE = 1
    SW = 2
    W = 3
    NW = 4
    NE = 5

    @property
    def offset(self) -> Hex:
        return OFFSETS[self]

    def opposite(self) -> "Direction":
        return Direction((self + 3) % 6)


OFFSETS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


_NEIGHBOURS: dict[Hex, tuple[Hex, ...]] = {}


def neighbours(cell: Hex) -> tuple[Hex, ...]:
    """The six cells around ``cell``, clockwise from east (remembered: move generation asks
    for the same few hundred cells millions of times)."""
    found = _NEIGHBOURS.get(cell)
    if found is None:
        if len(_NEIGHBOURS) > 100_000:  # far-off cells asked about one by one: start again
            _NEIGHBOURS.clear()
        q, r = cell
        found = _NEIGHBOURS[cell] = ((q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r), (q, r - 1), (q + 1, r - 1))
    return found


def step(cell: Hex, direction: int) -> Hex:
    """The neighbour of ``cell`` in ``direction``."""
    dq, dr = OFFSETS[direction]
    return (cell[0] + dq, cell[1] + dr)


def direction_between(a: Hex, b: Hex) -> Direction | None:
    """The direction from ``a`` to its neighbour ``b``, or None if not adjacent."""
    offset = (b[0] - a[0], b[1] - a[1])
    try:
        return Direction(OFFSETS.index(offset))
    except ValueError:
        return None


def common_neighbours(a: Hex, b: Hex) -> tuple[Hex, Hex]:
    """The two cells adjacent to both of the adjacent cells ``a`` and ``b`` (the gate)."""
    d = direction_between(a, b)
    if d is None:
        raise ValueError(f"{a} and {b} are not adjacent")
    return step(a, (d + 1) % 6), step(a, (d + 5) % 6)


def distance(a: Hex, b: Hex) -> int:
    """Number of steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(cell: Hex, turns: int) -> Hex:
    """Rotate ``cell`` about the origin by ``turns`` sixths of a circle clockwise."""
    q, r = cell
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def reflect(cell: Hex) -> Hex:
    """Mirror ``cell`` across the east-west axis through the origin."""
    q, r = cell
    return (q + r, -r)
