"""What a steady view shows, cell by cell, and how it compares with a position.

A *scene* maps each occupied cell to its ``Read``: the label (colour and creature) of the
top of the stack, whether the read is sure, and the camera's guess of the stack height.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..board import Board
from ..hexgrid import Hex, neighbours
from ..move import Move
from ..observation import Observation
from ..pieces import Bug, Colour, Piece
from .registration import Transform

Label = tuple[Colour, Bug]
BAY_SIDES = 5  # neighbours of a bay in the hive where an unsure read may be the table, shaded


@dataclass(frozen=True)
class Read:
    """What one tile was read as, whether the read is sure enough to rely on, the camera's
    guess of the stack's height, and whether no hand put it there (``TileSighting.unplaced``)."""

    label: Label
    sure: bool
    height: int = 1
    unplaced: bool = False


Scene = dict[Hex, Read]


def scene_of(observation: Observation, min_confidence: float) -> Scene:
    """The reads of an observation by cell (observer coordinates)."""
    scene: Scene = {}
    for tile in observation.tiles:
        if tile.cell in scene:
            raise ValueError(f"observation at t={observation.timestamp} has two tiles at {tile.cell}")
        scene[tile.cell] = Read((tile.colour, tile.bug), tile.confidence >= min_confidence, tile.height_hint,
                                tile.unplaced)
    return scene


def label(piece: Piece | None) -> Label | None:
    return None if piece is None else (piece.colour, piece.bug)


def tops(board: Board) -> dict[Hex, Label]:
    """The label of the top piece of every stack."""
    return {cell: (stack[-1].colour, stack[-1].bug) for cell, stack in board.stacks().items()}


def moved(scene: Scene, transform: Transform) -> Scene:
    return {transform.apply(cell): read for cell, read in scene.items()}


def labels(scene: Scene) -> dict[Hex, Label]:
    return {cell: read.label for cell, read in scene.items()}


def after_move(view: dict[Hex, Label], board: Board, move: Move) -> None:
    """Update ``view`` (labels, game coordinates) where ``move``, just made on ``board``, changed
    the tops: the cells it left and reached now show what the board has there."""
    for cell in (c for c in (move.origin, move.dest) if c is not None):
        top = label(board.top(cell))
        if top is None:
            view.pop(cell, None)
        else:
            view[cell] = top


def changed(seen: Scene, reference: Mapping[Hex, Label]) -> set[Hex]:
    """Cells whose read differs from the reference (a piece came, went or changed)."""
    cells = {c for c, read in seen.items() if reference.get(c) != read.label}
    cells.update(c for c in reference if c not in seen)
    return cells


def phantom(before: Mapping[Hex, Label], seen: Scene, beside_moves: bool) -> set[Hex]:
    """The cell of a tile seen where the position ``before`` has none, if there is exactly one
    that may be no tile: read surely, in a hole of the hive (all six neighbours seen: the table
    seen through it); read unsure, in a bay of it (five: the table shaded there) or, where moves
    (legal or not) explain the rest of the view (``beside_moves``), anywhere (the table's print or
    a shadow). An unsure new tile on a board otherwise unchanged is left to be judged: it may be a
    placement that breaks the rules, read unsure."""
    def sides(cell: Hex) -> int:
        return sum(n in seen for n in neighbours(cell))
    phantoms = {c for c in seen if c not in before
                and (sides(c) == 6 or not seen[c].sure and (beside_moves or sides(c) >= BAY_SIDES))}
    return phantoms if len(phantoms) == 1 else set()
