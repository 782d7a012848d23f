"""Move generation: placements and the movement of all eight creatures.

Works on ``Board`` internals for speed; the rule geometry it relies on (Freedom to Move,
keeping touch, One Hive, lifting, Mosquito copies, throwers) is ``rules.geometry``'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .geometry import (Stacks, articulation_points, climbs, flood, ladybug_paths, lift, movement_bugs, paths,
                       put_back, slides, throw_destinations)
from .hexgrid import OFFSETS, ORIGIN, Hex, neighbours
from .move import Move
from .pieces import Bug, Colour, Piece

if TYPE_CHECKING:
    from .board import Board


# --------------------------------------------------------------------- placement
def placement_cells(board: "Board", colour: Colour) -> list[Hex]:
    """Empty cells where ``colour`` may put a new piece."""
    stacks = board._stacks
    if not stacks:
        return [ORIGIN]
    if not any(p.colour is colour for stack in stacks.values() for p in stack):
        return sorted({n for cell in stacks for n in neighbours(cell) if n not in stacks})
    candidates = {n for cell, stack in stacks.items() if stack[-1].colour is colour
                  for n in neighbours(cell) if n not in stacks}
    cells = []
    for cell in candidates:
        for n in neighbours(cell):
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
    for bug in board._bugs:
        if bug is Bug.QUEEN and turn == 1 and not board.options.queen_may_open:
            continue
        piece = board.next_in_hand(colour, bug)
        if piece is not None:
            pieces.append(piece)
    return pieces


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
    return list({path[-1] for path in paths(stacks, cell, 3)})


def ant_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    reached = flood(stacks, cell)
    del reached[cell]
    return list(reached)


def ladybug_moves(stacks: Stacks, cell: Hex) -> list[Hex]:
    return list({path[-1] for path in ladybug_paths(stacks, cell)})


MOVERS = {
    Bug.QUEEN: queen_moves, Bug.BEETLE: beetle_moves, Bug.GRASSHOPPER: grasshopper_moves,
    Bug.SPIDER: spider_moves, Bug.ANT: ant_moves, Bug.LADYBUG: ladybug_moves,
    Bug.PILLBUG: queen_moves,
}


def throws(board: "Board", cell: Hex, cut: set[Hex]) -> list[tuple[Piece, Hex, Hex]]:
    """Pillbug throws by the thrower at ``cell``: (piece, origin, destination) for each
    unstacked neighbour that was not just moved and whose lifting keeps the hive whole."""
    stacks = board._stacks
    last = board._last_moved
    out = []
    for source in neighbours(cell):
        stack = stacks.get(source)
        if stack is None or len(stack) != 1 or stack[0] is last or source in cut:
            continue
        piece = lift(stacks, source)
        out += [(piece, source, dest) for dest in throw_destinations(stacks, cell, source)]
        put_back(stacks, source, piece)
    return out


# ---------------------------------------------------------------------- generate
def generate(board: "Board") -> list[Move]:
    """All legal moves of the side to move except the pass, each once."""
    colour = board.turn
    stacks = board._stacks
    pieces = placeable_bugs(board, colour)
    cells = placement_cells(board, colour) if pieces else []
    placements = [Move(piece, cell, None) for piece in pieces for cell in cells]
    if not board.queen_placed(colour):
        return placements

    moves: dict[tuple[int, Hex], Move] = {}  # a throw or a Mosquito's copies may reach one cell twice
    cut = articulation_points(stacks)
    last = board._last_moved
    for cell in list(stacks):  # lifting and putting back may replace a cell's list
        stack = stacks[cell]
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
        lift(stacks, cell)
        for copied in copies:
            for dest in MOVERS[copied](stacks, cell):
                moves[(piece.index, dest)] = Move(piece, dest, cell)
        put_back(stacks, cell, piece)
    return placements + list(moves.values())
