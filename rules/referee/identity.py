"""A tile recorded as the wrong creature: the game retold with it as another.

The camera may read a new tile surely and wrongly (an Ant taken for a Grasshopper). The record
then names the wrong piece, and the later views, which read the tile rightly or see it move as
no Grasshopper can, make no sense against the record. ``renamed`` retells the game with that
tile as another creature of its colour, if every move stays legal; ``suspects`` names the
renamings that a view suggests. Renaming a tile renumbers the pieces of both creatures in the
order they entered (a second Grasshopper recorded as the third becomes the second).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..board import Board
from ..explain import why_illegal
from ..move import Move
from ..hexgrid import Hex
from ..pieces import Bug, Piece
from .scene import Label, Scene, changed

MOST_CHANGED = 5  # cells a view may differ in for a renaming to be looked for: the tile and two moves


@dataclass(frozen=True)
class Renaming:
    """The piece ``old`` of the record was really ``new``; ``board``: the game retold so."""

    old: Piece
    new: Piece
    board: Board

    @property
    def text(self) -> str:
        """How a person names it, e.g. ``wG1=wA1``."""
        return f"{self.old}={self.new}"


def parse_renaming(text: str) -> tuple[Piece, Piece]:
    """The tile as recorded and the piece it is, from ``"wG1=wA1"`` (``Renaming.text``);
    ``ValueError`` says what is wrong with the text."""
    old, equals, new = text.partition("=")
    if not equals:
        raise ValueError(f"{text!r}: write the tile as recorded, '=', and the piece it is, e.g. 'wG1=wA1'")
    was, now = Piece.parse(old), Piece.parse(new)
    if was.colour is not now.colour:
        raise ValueError(f"{was} is {was.colour.title}'s: a tile keeps its colour ({now} is {now.colour.title}'s)")
    return was, now


def renamed(board: Board, old: Piece, bug: Bug) -> Renaming:
    """``board``'s game retold with the tile recorded as ``old`` a piece of ``bug`` (of its
    colour). ``ValueError`` says why not: ``old`` was never placed, the game has no such piece
    left for it to be, or a move would then be illegal."""
    history = board.move_stack
    start = next(board.replay())
    placed = {move.piece for move in history if move.piece is not None and move.origin is None}
    if old not in placed:
        raise ValueError(f"no tile was recorded as {old}")
    if bug is old.bug or bug not in board.game_type.bugs:
        raise ValueError(f"{old} is a {old.bug.title} already" if bug is old.bug
                         else f"{board.game_type} has no {bug.title}")
    spare = board.next_in_hand(old.colour, bug)  # a piece never placed nor set up
    if spare is None:
        raise ValueError(f"every {old.colour.title} {bug.title} is recorded as another tile")
    names = _numbered(history, start, {old: spare})
    for ply, move in enumerate(history, start=1):
        told = move if move.piece is None else Move(names.get(move.piece, move.piece), move.dest, move.origin)
        if not start.is_legal(told):
            raise ValueError(f"with {old} as {names[old]}, move {ply} ({start.uhp(told)}) is illegal: "
                             f"{why_illegal(start, told).message}")
        start.push(told)
    return Renaming(old, names[old], start)


def _numbered(history: list[Move], start: Board, swap: Mapping[Piece, Piece]) -> dict[Piece, Piece]:
    """Each piece placed in ``history`` -> the piece it is once ``swap`` is made, numbered anew
    within its creature in the order of placement (skipping pieces already on ``start``)."""
    names: dict[Piece, Piece] = {}
    for move in history:
        piece = move.piece
        if piece is None or piece in names or start.position_of(piece) is not None:
            continue
        kind = swap.get(piece, piece)
        taken = set(names.values())
        names[piece] = next(p for p in Piece.of_kind(kind.colour, kind.bug)
                            if p not in taken and start.position_of(p) is None)
    return names


def suspects(board: Board, seen: Scene, reference: Mapping[Hex, Label]) -> list[tuple[Piece, Bug]]:
    """Renamings a view (game coordinates) suggests, against ``reference``, the labels it is
    compared with: the top of each stack whose cell changed, as each other creature of its
    colour read on a changed cell (any creature, where that read is unsure); none where over
    MOST_CHANGED cells changed."""
    cells = changed(seen, reference)
    if len(cells) > MOST_CHANGED:
        return []
    stacks = board.stacks()
    read = {(seen[cell].label[0], bug) for cell in cells if cell in seen
            for bug in ((seen[cell].label[1],) if seen[cell].sure else tuple(Bug))}
    found: list[tuple[Piece, Bug]] = []
    for cell in sorted(cells):
        top = stacks[cell][-1] if cell in stacks else None
        if top is None:
            continue
        found += [(top, bug) for colour, bug in sorted(read, key=lambda r: r[1].value)
                  if colour is top.colour and bug is not top.bug and (top, bug) not in found]
    return found
