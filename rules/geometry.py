"""Rule geometry, in one place: lifting a piece, Freedom to Move, keeping touch with the hive,
sliding paths, One Hive, and which creatures (and throwers) a piece may move as.

Move generation (``rules.movegen``), explanations (``rules.explain``) and the referee all
use these functions, so one rule has one implementation. Conventions:

- ``stacks`` maps each occupied cell to its pieces, bottom first; a cell's *height* is the
  number of pieces on it. Functions that move a piece expect it lifted off first (``lift``).
- *Freedom to Move*: a piece stepping from cell a to its neighbour b passes between the two
  cells next to both (the gate). With ``below`` the height left under it at a and
  ``target`` the height of b, the step is blocked when both gate cells are higher than
  ``max(below, target)`` (``gate_open``).
- *Keeping touch*: a piece sliding on the ground must stay next to the hive during the
  step, so at least one gate cell is occupied (``contact_steps``). On the ground the two
  rules together say: exactly one gate cell is occupied (``slides``).
- *One Hive*: a lone piece whose cell is an articulation point of the occupied cells may
  not leave it (``articulation_points``).

>>> from rules import Piece
>>> stacks = {(1, 0): [Piece.parse("wQ")], (0, -1): [Piece.parse("bQ")]}
>>> gate(stacks, (0, 0), (1, -1))  # between wQ and bQ: too narrow
((1, 0), (0, -1))
>>> sorted(slides(stacks, (0, 0)))  # around either Queen instead
[(-1, 0), (0, 1)]
"""

from __future__ import annotations

from typing import Callable, Iterator

from .hexgrid import OFFSETS, Hex, common_neighbours, direction_between, neighbours
from .pieces import Bug, Colour, Piece

Stacks = dict[Hex, list[Piece]]
Steps = Callable[[Stacks, Hex], list[Hex]]


# ---------------------------------------------------------------------- lifting
def lift(stacks: Stacks, cell: Hex) -> Piece:
    """Take the top piece off ``cell`` (the cell disappears when it empties)."""
    stack = stacks[cell]
    piece = stack.pop()
    if not stack:
        del stacks[cell]
    return piece


def put_back(stacks: Stacks, cell: Hex, piece: Piece) -> None:
    """Undo ``lift``: put ``piece`` back on top of ``cell``."""
    stack = stacks.get(cell)
    if stack is None:
        stacks[cell] = [piece]
    else:
        stack.append(piece)


# ------------------------------------------------------------- Freedom to Move
def gate_open(stacks: Stacks, a: Hex, i: int, below: int, target: int) -> bool:
    """Freedom to Move, at any height, for a step from ``a`` in direction ``i``."""
    q, r = a
    dq, dr = OFFSETS[i - 1]
    left = stacks.get((q + dq, r + dr))
    dq, dr = OFFSETS[(i + 1) % 6]
    right = stacks.get((q + dq, r + dr))
    return min(len(left) if left else 0, len(right) if right else 0) <= max(below, target)


def gate(stacks: Stacks, a: Hex, b: Hex) -> tuple[Hex, Hex] | None:
    """The two cells that block a step from ``a`` to its neighbour ``b`` (heights as in
    ``stacks``, the piece lifted), or None when the gate is open."""
    direction = direction_between(a, b)
    if direction is None:
        raise ValueError(f"{a} and {b} are not adjacent")
    if gate_open(stacks, a, direction, len(stacks.get(a, ())), len(stacks.get(b, ()))):
        return None
    return common_neighbours(a, b)


def keeps_touch(stacks: Stacks, a: Hex, b: Hex) -> bool:
    """Whether a ground step from ``a`` to its neighbour ``b`` stays next to the hive on the way."""
    left, right = common_neighbours(a, b)
    return left in stacks or right in stacks


# ---------------------------------------------------------------------- steps
def contact_steps(stacks: Stacks, cell: Hex) -> list[Hex]:
    """Empty neighbours a ground piece could slide to keeping touch, if no gate were narrow."""
    return [n for n in neighbours(cell) if n not in stacks and keeps_touch(stacks, cell, n)]


def slides(stacks: Stacks, cell: Hex) -> list[Hex]:
    """Ground cells one slide from ``cell``: keeping touch and through an open gate, which on
    the ground is exactly one occupied gate cell (the inner loop of move generation)."""
    around = neighbours(cell)
    occupied = [n in stacks for n in around]
    return [around[i] for i in range(6)
            if not occupied[i] and occupied[i - 1] != occupied[(i + 1) % 6]]


def climbs(stacks: Stacks, cell: Hex) -> list[Hex]:
    """Cells one Beetle step from ``cell``: ground slides, and steps onto, along or off the hive."""
    below = len(stacks.get(cell, ()))
    out = slides(stacks, cell) if below == 0 else []
    for i, n in enumerate(neighbours(cell)):
        target = len(stacks.get(n, ()))
        if (below or target) and gate_open(stacks, cell, i, below, target):
            out.append(n)
    return out


def paths(stacks: Stacks, origin: Hex, length: int, steps: Steps = slides) -> list[tuple[Hex, ...]]:
    """Paths of exactly ``length`` steps (a Spider's, with ``slides``), never revisiting a cell."""
    found: list[tuple[Hex, ...]] = [(origin,)]
    for _ in range(length):
        found = [p + (n,) for p in found for n in steps(stacks, p[-1]) if n not in p]
    return found


def flood(stacks: Stacks, origin: Hex, steps: Steps = slides) -> dict[Hex, Hex | None]:
    """Every cell reachable from ``origin`` by ``steps`` (an Ant's, with ``slides``), each with
    the cell it is first reached from (breadth first, so paths back are shortest)."""
    parent: dict[Hex, Hex | None] = {origin: None}
    todo = [origin]
    for cell in todo:
        for n in steps(stacks, cell):
            if n not in parent:
                parent[n] = cell
                todo.append(n)
    return parent


def path_to(parent: dict[Hex, Hex | None], dest: Hex) -> tuple[Hex, ...]:
    """The path ``flood`` found to ``dest`` (which it must have reached), origin first."""
    path = [dest]
    step = parent[dest]
    while step is not None:
        path.append(step)
        step = parent[step]
    return tuple(reversed(path))


def ladybug_paths(stacks: Stacks, origin: Hex, gated: bool = True) -> Iterator[tuple[Hex, Hex, Hex, Hex]]:
    """A Ladybug's paths (origin, first, second, last): two steps on top of the hive, then one
    down to an empty cell; with ``gated``, only through gates open at those heights."""
    for i, first in enumerate(neighbours(origin)):
        h1 = len(stacks.get(first, ()))
        if not h1 or (gated and not gate_open(stacks, origin, i, 0, h1)):
            continue
        for j, second in enumerate(neighbours(first)):
            h2 = len(stacks.get(second, ()))
            if not h2 or (gated and not gate_open(stacks, first, j, h1, h2)):
                continue
            for k, last in enumerate(neighbours(second)):
                if last not in stacks and last != origin and (not gated or gate_open(stacks, second, k, h2, 0)):
                    yield origin, first, second, last


# ---------------------------------------------------------------- connectivity
def articulation_points(stacks: Stacks) -> set[Hex]:
    """Cells whose emptying would split the hive (Tarjan's algorithm)."""
    if len(stacks) < 3:
        return set()
    start = next(iter(stacks))
    order: dict[Hex, int] = {start: 0}
    low: dict[Hex, int] = {start: 0}
    points: set[Hex] = set()
    root_children = 0
    stack: list[tuple[Hex, Hex | None, list[Hex]]] = [
        (start, None, [n for n in neighbours(start) if n in stacks])]
    while stack:
        cell, parent, pending = stack[-1]
        if pending:
            nxt = pending.pop()
            if nxt == parent:
                continue
            if nxt in order:
                low[cell] = min(low[cell], order[nxt])
            else:
                order[nxt] = low[nxt] = len(order)
                stack.append((nxt, cell, [n for n in neighbours(nxt) if n in stacks]))
            continue
        stack.pop()
        if parent is None:
            continue
        low[parent] = min(low[parent], low[cell])
        if parent == start:
            root_children += 1
        elif low[cell] >= order[parent]:
            points.add(parent)
    if root_children > 1:
        points.add(start)
    return points


def is_connected(stacks: Stacks) -> bool:
    """Whether the occupied cells form one group."""
    return not stacks or len(flood(stacks, next(iter(stacks)), _occupied_neighbours)) == len(stacks)


def _occupied_neighbours(stacks: Stacks, cell: Hex) -> list[Hex]:
    return [n for n in neighbours(cell) if n in stacks]


# ------------------------------------------------------------------ creatures
def mimicked_bugs(stacks: Stacks, cell: Hex) -> set[Bug]:
    """The creatures a ground-level Mosquito at ``cell`` may copy (the tops around it)."""
    return {stacks[n][-1].bug for n in neighbours(cell) if n in stacks} - {Bug.MOSQUITO}


def movement_bugs(stacks: Stacks, cell: Hex, piece: Piece, height: int) -> set[Bug]:
    """The creatures whose movement (and special ability) ``piece``, on a stack of ``height``
    at ``cell``, may use: its own, or for a Mosquito those it touches (a Beetle's when up)."""
    if piece.bug is not Bug.MOSQUITO:
        return {piece.bug}
    return {Bug.BEETLE} if height > 1 else mimicked_bugs(stacks, cell)


def throwers(stacks: Stacks, cell: Hex, colour: Colour) -> list[Piece]:
    """``colour``'s pieces next to ``cell`` that may use the Pillbug's special ability:
    its Pillbugs, and ground Mosquitoes touching a Pillbug."""
    found = []
    for n in neighbours(cell):
        stack = stacks.get(n)
        if stack and stack[-1].colour is colour and Bug.PILLBUG in movement_bugs(stacks, n, stack[-1], len(stack)):
            found.append(stack[-1])
    return found


def throw_destinations(stacks: Stacks, centre: Hex, source: Hex) -> Iterator[Hex]:
    """Where a thrower at ``centre`` may put down the unstacked piece at ``source`` (already
    lifted): up over ``centre`` and down to an empty neighbour, through gates open at height."""
    height = len(stacks[centre])
    back = direction_between(source, centre)
    if back is None:
        raise ValueError(f"{source} is not next to {centre}")
    if not gate_open(stacks, source, back, 0, height):
        return
    for k, dest in enumerate(neighbours(centre)):
        if dest not in stacks and dest != source and gate_open(stacks, centre, k, height, 0):
            yield dest
