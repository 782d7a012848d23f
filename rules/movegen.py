"""Move generation: placements and the movement of all eight creatures.

Works on ``Board`` internals for speed. Conventions:
- a cell's *height* is the number of pieces on it;
- *Freedom to Move*: a piece stepping from cell a to a neighbour b passes between
  the two cells next to both (the gate). With ``s`` the height left under the piece
  at a and ``t`` the height of b, the step is blocked when both gate cells are
  higher than ``max(s, t)``. On the ground (s == t == 0) the piece also has to keep
  touching the hive, so exactly one gate cell may be occupied;
- *One Hive*: a lone piece whose cell is an articulation point of the occupied cells
  may not leave it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .hexgrid import OFFSETS, ORIGIN, Hex
from .move import Move
from .pieces import Bug, Colour, Piece

if TYPE_CHECKING:
    from .board import Board

Stacks = dict[Hex, list[Piece]]


def _around(cell: Hex) -> list[Hex]:
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in OFFSETS]


# --------------------------------------------------------------------- placement
def placement_cells(board: "Board", colour: Colour) -> list[Hex]:
    """Empty cells where ``colour`` may put a new piece."""
    stacks = board._stacks
    if not stacks:
        return [ORIGIN]
    if not any(p.colour is colour for stack in stacks.values() for p in stack):
        return sorted({n for cell in stacks for n in _around(cell) if n not in stacks})
    candidates = {n for cell, stack in stacks.items() if stack[-1].colour is colour
                  for n in _around(cell) if n not in stacks}
    cells = []
    for cell in candidates:
        for n in _around(cell):
            stack = stacks.get(n)
            if stack is not None and stack[-1].colour is not colour:
                break
        else:
            cells.append(cell)
    return cells


def placeable_bugs(board: "Board", colour: Colour) -> list[Piece]:
    """The piece of each bug type ``colour`` may place now (lowest number first)."""
    turn = board.player_turn(colour)
    if turn == 4 and not board.queen_placed(colour):
        queen = board.next_in_hand(colour, Bug.QUEEN)
        return [queen] if queen else []
    pieces = []
    for bug in board.game_type.bugs:
        if bug is Bug.QUEEN and turn == 1 and not board.options.queen_may_open:
            continue
        piece = board.next_in_hand(colour, bug)
        if piece is not None:
            pieces.append(piece)
    return pieces


# ------------------------------------------------------------------ connectivity
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
        (start, None, [n for n in _around(start) if n in stacks])]
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
                stack.append((nxt, cell, [n for n in _around(nxt) if n in stacks]))
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
    if not stacks:
        return True
    start = next(iter(stacks))
    seen = {start}
    todo = [start]
    while todo:
        for n in _around(todo.pop()):
            if n in stacks and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(stacks)


# ------------------------------------------------------------------------- steps
def slides(stacks: Stacks, cell: Hex) -> list[Hex]:
    """Ground cells one slide from ``cell`` (the moving piece already lifted off)."""
    around = _around(cell)
    occupied = [n in stacks for n in around]
    return [around[i] for i in range(6)
            if not occupied[i] and occupied[i - 1] != occupied[(i + 1) % 6]]


def climbs(stacks: Stacks, cell: Hex) -> list[Hex]:
    """Cells one Beetle step from ``cell``, on or off the hive (piece already lifted)."""
    around = _around(cell)
    heights = [len(stacks[n]) if n in stacks else 0 for n in around]
    below = len(stacks[cell]) if cell in stacks else 0
    out = []
    for i in range(6):
        left, right, target = heights[i - 1], heights[(i + 1) % 6], heights[i]
        if below == 0 and target == 0:
            if (left > 0) != (right > 0):
                out.append(around[i])
        elif min(left, right) <= max(below, target):
            out.append(around[i])
    return out


def _gate_open(stacks: Stacks, a: Hex, i: int, below: int, target: int) -> bool:
    """Freedom to Move at height for a step from ``a`` in direction ``i``."""
    q, r = a
    dq, dr = OFFSETS[i - 1]
    left = stacks.get((q + dq, r + dr))
    dq, dr = OFFSETS[(i + 1) % 6]
    right = stacks.get((q + dq, r + dr))
    return min(len(left) if left else 0, len(right) if right else 0) <= max(below, target)


# ------------------------------------------------------------------ destinations
def queen_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    return slides(stacks, cell)


def beetle_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    return climbs(stacks, cell)


def grasshopper_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    out = []
    for dq, dr in OFFSETS:
        q, r = cell[0] + dq, cell[1] + dr
        if (q, r) not in stacks:
            continue
        while (q, r) in stacks:
            q, r = q + dq, r + dr
        out.append((q, r))
    return out


def spider_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    ends: set[Hex] = set()
    paths = [(cell,)]
    for depth in range(3):
        paths = [path + (n,) for path in paths for n in slides(stacks, path[-1]) if n not in path]
    for path in paths:
        ends.add(path[-1])
    return list(ends)


def ant_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    seen = {cell}
    todo = [cell]
    while todo:
        for n in slides(stacks, todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    seen.discard(cell)
    return list(seen)


def ladybug_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    """Two steps on top of the hive, then one down, each through open gates."""
    ends: set[Hex] = set()
    for i, first in enumerate(_around(cell)):
        if first not in stacks or not _gate_open(stacks, cell, i, 0, len(stacks[first])):
            continue
        h1 = len(stacks[first])
        for j, second in enumerate(_around(first)):
            if second not in stacks or second == first or not _gate_open(
                    stacks, first, j, h1, len(stacks[second])):
                continue
            h2 = len(stacks[second])
            for k, last in enumerate(_around(second)):
                if last not in stacks and last != cell and _gate_open(stacks, second, k, h2, 0):
                    ends.add(last)
    return list(ends)


MOVERS = {
    Bug.QUEEN: queen_moves, Bug.BEETLE: beetle_moves, Bug.GRASSHOPPER: grasshopper_moves,
    Bug.SPIDER: spider_moves, Bug.ANT: ant_moves, Bug.LADYBUG: ladybug_moves,
    Bug.PILLBUG: queen_moves,
}


def mimicked_bugs(stacks: Stacks, cell: Hex) -> set[Bug]:
    """The creatures a ground-level Mosquito at ``cell`` may copy (the tops around it)."""
    return {stacks[n][-1].bug for n in _around(cell) if n in stacks} - {Bug.MOSQUITO}


def movement_bugs(stacks: Stacks, cell: Hex, piece: Piece, height: int) -> set[Bug]:
    """The creatures whose movement ``piece`` (lifted from a stack of ``height`` at ``cell``) may use."""
    if piece.bug is not Bug.MOSQUITO:
        return {piece.bug}
    return {Bug.BEETLE} if height > 1 else mimicked_bugs(stacks, cell)


def throws(board: "Board", cell: Hex, cut: set[Hex]) -> list[tuple[Piece, Hex, Hex]]:
    """Pillbug throws from a Pillbug (or Mosquito copying one) at ``cell``.

    Returns (piece, origin, destination): an unstacked neighbour that was not just moved
    and whose lifting keeps the hive whole goes up over ``cell`` and down to an empty
    neighbour, through gates open at height 1.
    """
    stacks = board._stacks
    last = board._last_moved
    around = _around(cell)
    height = len(stacks[cell])
    out = []
    for i, source in enumerate(around):
        stack = stacks.get(source)
        if stack is None or len(stack) != 1 or stack[0] is last or source in cut:
            continue
        back = (i + 3) % 6
        if not _gate_open(stacks, source, back, 0, height):
            continue
        piece = stack[0]
        del stacks[source]
        for k, dest in enumerate(around):
            if dest not in stacks and dest != source and _gate_open(stacks, cell, k, height, 0):
                out.append((piece, source, dest))
        stacks[source] = stack
    return out


# ---------------------------------------------------------------------- generate
def generate(board: "Board") -> list["Move"]:
    """All legal moves of the side to move except the pass, each once."""
    colour = board.turn
    stacks = board._stacks
    moves: dict[tuple[int, Hex], Move] = {}
    pieces = placeable_bugs(board, colour)
    if pieces:
        cells = placement_cells(board, colour)
        for piece in pieces:
            for cell in cells:
                moves[(piece.index, cell)] = Move(piece, cell, None)
    if not board.queen_placed(colour):
        return list(moves.values())

    cut = articulation_points(stacks)
    last = board._last_moved
    for cell, stack in list(stacks.items()):
        piece = stack[-1]
        if piece.colour is not colour or piece is last:
            continue
        height = len(stack)
        copies = movement_bugs(stacks, cell, piece, height)
        if Bug.PILLBUG in copies:
            for thrown, source, dest in throws(board, cell, cut):
                moves[(thrown.index, dest)] = Move(thrown, dest, source)
        if height == 1 and cell in cut:
            continue
        stack.pop()
        if not stack:
            del stacks[cell]
        for copied in copies:
            for dest in MOVERS[copied](stacks, cell):
                moves[(piece.index, dest)] = Move(piece, dest, cell)
        if cell in stacks:
            stack.append(piece)
        else:
            stack.append(piece)
            stacks[cell] = stack
    return list(moves.values())
