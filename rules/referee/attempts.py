"""Reconstructing the move someone attempted when no legal move explains the view.

The cells that changed are sorted into pieces that left (uncovering what they stood on),
pieces that arrived, and stacks that vanished; one piece leaving and the same-looking
piece arriving is a movement, a piece arriving alone a placement; beside such a move, one tile
seen where the position has none may be no tile (``scene.phantom``: read unsure, the table's
print or a shadow). Anything else is a ``Misread`` (the camera, not the players, is probably wrong).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..board import Board
from ..geometry import throwers
from ..hexgrid import Hex
from ..move import Move
from ..pieces import Colour
from .registration import Transform
from .scene import Label, Scene, after_move, changed, label, phantom, tops


@dataclass(frozen=True)
class Attempt:
    """A change no legal move makes: ``move`` (after the legal moves ``before``)."""

    before: tuple[Move, ...]
    move: Move
    transform: Transform


@dataclass(frozen=True)
class Misread:
    """A view no move explains, not even an illegal one; ``arrived`` counts the pieces
    that appeared."""

    message: str
    cells: tuple[Hex, ...]
    arrived: int
    transform: Transform


def reconstruct(board: Board, seen: Scene, reference: Mapping[Hex, Label], transform: Transform
                ) -> Attempt | Misread:
    """The move someone tried, reconstructed from what changed, if one move could do it."""
    cells = changed(seen, reference)
    # a top seen higher than its stack, with the same look, was perhaps climbed on by a
    # look-alike; heights are only hints, so that is the reading of last resort
    result = _single_change(board, seen, cells, transform)
    climbed = {c for c, read in seen.items() if read.height > board.height(c)} - cells
    if climbed and not isinstance(result, Attempt):
        cells |= climbed
        result = _single_change(board, seen, cells, transform)
    if isinstance(result, Misread) and result.arrived > 1:
        result = _beside_phantom(board, seen, cells, transform) or result
    if isinstance(result, Attempt) and board.is_legal(result.move):  # legal, yet the rest does not fit
        return Misread(f"{board.uhp(result.move)} would be legal, but the rest of the board does not match it",
                       tuple(sorted(cells)), 1, transform)
    if isinstance(result, Attempt) or result.arrived < 2:
        return result
    # maybe a legal move was made first, then an illegal reply
    for move in board.legal_moves:
        if move.piece is None or not ({move.dest, move.origin} & cells):
            continue
        board.push(move)
        after = dict(reference)
        after_move(after, board, move)
        second = _single_change(board, seen, changed(seen, after), transform)
        legal = isinstance(second, Attempt) and board.is_legal(second.move)
        board.pop()
        if isinstance(second, Attempt) and not legal:
            return Attempt((move,), second.move, transform)
    return result


def _beside_phantom(board: Board, seen: Scene, cells: set[Hex], transform: Transform) -> Attempt | None:
    """The illegal move tried, if one is, once the one tile seen that may be no tile is left out
    (``scene.phantom``, beside a move)."""
    for cell in phantom(tops(board), seen, beside_moves=True):
        result = _single_change(board, {c: r for c, r in seen.items() if c != cell}, cells - {cell}, transform)
        if isinstance(result, Attempt) and not board.is_legal(result.move):
            return result
    return None


def _single_change(board: Board, seen: Scene, cells: set[Hex], transform: Transform) -> Attempt | Misread:
    left: list[Hex] = []  # the top piece went away, uncovering what it stood on
    arrived: list[Hex] = []  # a piece is now on top that was not
    vanished: list[Hex] = []  # a whole stack disappeared
    for cell in sorted(cells):
        read = seen.get(cell)
        now = read.label if read else None
        stack = board.stack(cell)
        was = label(stack[-1]) if stack else None
        under = label(stack[-2]) if len(stack) > 1 else None
        if now == was and not (read and read.height > len(stack)):
            continue
        if was is not None and now == under and not (read and read.height > len(stack)):
            left.append(cell)
        elif now is not None:
            arrived.append(cell)
        else:
            vanished.append(cell)
    involved = tuple(left + arrived + vanished)
    if vanished:
        return Misread(f"the stack of {_names(board, vanished)} has vanished", involved, len(arrived), transform)
    if not arrived:
        return Misread(f"{_names(board, left)} {'is' if len(left) == 1 else 'are'} missing", involved, 0,
                       transform)
    if len(arrived) > 1:
        return Misread(f"too many changes at once ({len(arrived)} pieces appeared)", involved, len(arrived),
                       transform)
    dest = arrived[0]
    colour, bug = seen[dest].label
    if not left:
        piece = board.next_in_hand(colour, bug)
        if piece is not None:
            return Attempt((), Move(piece, dest, None), transform)
        hidden = [c for c, s in board.stacks().items() if len(s) > 1 and c != dest
                  and label(s[-1]) == label(s[-2]) == (colour, bug)]
        if len(hidden) == 1:  # e.g. a Beetle left another Beetle of the same colour
            return Attempt((), Move(board.top(hidden[0]), dest, hidden[0]), transform)
        where = "in this game" if not board.in_play(bug) else f"in {colour.title}'s hand"
        return Misread(f"a {colour.title} {bug.title} appeared at {dest} but there is none {where}",
                       involved, 1, transform)
    movers = [c for c in left if label(board.top(c)) == (colour, bug)]
    if len(left) == 1 and movers:
        origin = movers[0]
        return Attempt((), Move(board.top(origin), dest, origin), transform)
    return Misread(f"{_names(board, left)} went away but a {colour.title} {bug.title} appeared at {dest}",
                   involved, 1, transform)


def _names(board: Board, cells: list[Hex]) -> str:
    return ", ".join(f"{board.top(c)} at {c}" for c in cells)


def offender(board: Board, move: Move) -> Colour:
    """Who is answerable for ``move``: its piece's owner, or the side to move when it
    moved an opponent's piece lying next to one of its throwers (a Pillbug, or a Mosquito
    touching one)."""
    piece = move.piece
    assert piece is not None
    if move.origin is None or piece.colour is board.turn:
        return piece.colour
    return board.turn if throwers(board.stacks(), move.origin, board.turn) else piece.colour
