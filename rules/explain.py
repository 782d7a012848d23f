"""Why a move is illegal: the rule it breaks and a sentence a player can read.

``why_illegal`` checks the rules in the order a referee would argue them: the game and
the turn first, then which piece may be used, then whether it may leave its cell, and
only then how its creature moves. So a pinned Spider is told about the One Hive rule,
and a Spider that could reach a cell but for a narrow gate is told about Freedom to Move.
Cells are named the way a UHP MoveString names the destination (``bQ-``, ``/wS1``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Iterable

from . import geometry, movegen
from .hexgrid import OFFSETS, ORIGIN, Hex, direction_between, distance, neighbours
from .move import Move
from .pieces import Bug, Colour, Piece
from .uhp import MARKS, format_move

if TYPE_CHECKING:
    from .board import Board

Stacks = dict[Hex, list[Piece]]


class Rule(Enum):
    """The rule a move breaks; the value is its name as shown to players."""

    GAME_OVER = "Game over"
    PASS_NOT_ALLOWED = "Passing"
    NOT_YOUR_TURN = "Turn order"
    NOT_YOUR_PIECE = "Own pieces only"
    NOT_IN_GAME = "Pieces in this game"
    WRONG_PIECE_NUMBER = "Piece numbering"
    FIRST_PLACEMENT = "Opening placements"
    QUEEN_NOT_ON_FIRST_TURN = "No Queen on the first turn"
    QUEEN_BY_FOURTH_TURN = "Queen by the fourth turn"
    PLACE_ON_EMPTY = "Placing on an empty space"
    PLACE_TOUCHING_OPPONENT = "Placing restriction"
    PLACE_NOT_TOUCHING_OWN = "Placing next to your own pieces"
    MOVE_BEFORE_QUEEN = "No moving before the Queen"
    PIECE_COVERED = "Covered pieces"
    JUST_MOVED = "Piece just moved by a Pillbug"
    ONE_HIVE = "One Hive rule"
    FREEDOM_TO_MOVE = "Freedom to Move"
    DESTINATION_OCCUPIED = "Occupied destination"
    BUG_MOVEMENT = "How the creature moves"
    PILLBUG_JUST_MOVED = "Pillbug: not the piece just moved"
    PILLBUG_STACKED = "Pillbug: not a stacked piece"
    PILLBUG_SPLIT = "Pillbug: One Hive rule"
    PILLBUG_GATE = "Pillbug: Freedom to Move"
    PILLBUG_NOT_ADJACENT = "Pillbug: only next to itself"
    UNEXPLAINED = "Unexplained"  # a disagreement with the move generator: a bug, never expected


@dataclass(frozen=True)
class Violation:
    """A broken rule, the sentence explaining it, the cells worth highlighting, and the
    creature whose movement is at stake (for ``rulebook.citation``)."""

    rule: Rule
    message: str
    cells: tuple[Hex, ...] = ()
    bug: Bug | None = None


@dataclass(frozen=True)
class Ruling:
    """Whether ``piece`` may go to ``cell`` now, in words (``violation`` is None when legal)."""

    piece: Piece
    cell: Hex
    legal: bool
    move_string: str
    message: str
    violation: Violation | None = None


# ------------------------------------------------------------------- public API
def why_illegal(board: Board, move: Move) -> Violation:
    """The rule ``move`` breaks in ``board``'s position; ``ValueError`` if it is legal."""
    if board.state.is_over:
        return Violation(Rule.GAME_OVER, f"The game is over ({board.state.value}): no more moves.")
    if move in board.legal_moves:
        raise ValueError(f"{board.uhp(move)} is a legal move here")
    if move.piece is None:
        return Violation(Rule.PASS_NOT_ALLOWED,
                         f"{board.turn.title} may not pass: a player passes only when no piece "
                         "can be placed or moved.")
    if move.dest is None:
        raise ValueError(f"{move!r} has a piece but no destination")
    piece = move.piece
    if not board.in_play(piece.bug):
        return Violation(Rule.NOT_IN_GAME,
                         f"There is no {piece.bug.title} in a {board.game_type} game.", bug=piece.bug)
    if board.position_of(piece) is None:
        return _placement(board, piece, move.dest)
    return _movement(board, piece, move.dest)


def explain_cell(board: Board, piece: Piece, cell: Hex) -> Ruling:
    """Whether ``piece`` may be placed or moved on ``cell`` now, and why (legal or not)."""
    if not isinstance(piece, Piece):
        raise ValueError(f"{piece!r} is not a piece: expected e.g. Piece.parse('wA1')")
    if not (isinstance(cell, tuple) and len(cell) == 2 and all(isinstance(c, int) for c in cell)):
        raise ValueError(f"{cell!r} is not a cell: expected an axial (q, r) pair of integers")
    move = Move(piece, cell, board.position_of(piece))
    name = board.uhp(move)
    if move not in board.legal_moves:
        violation = why_illegal(board, move)
        return Ruling(piece, cell, False, name, violation.message, violation)
    where = _name_cell(board, piece, cell)
    if move.origin is None:
        return Ruling(piece, cell, True, name, f"{piece} may be placed at {where}.")
    how = _reaching_bug(board.stacks(), piece, move.origin, cell) if piece.colour is board.turn else None
    if how is not None:
        copying = f", moving as the {how.title} it touches" if how is not piece.bug else ""
        return Ruling(piece, cell, True, name, f"{piece} may move to {where}{copying}.")
    thrower = next(t for t in _throwers(board, move.origin) if t is not board.last_moved
                   and distance(board.cell_of(t), cell) == 1)
    return Ruling(piece, cell, True, name,
                  f"{thrower} may move {piece} to {where} with the Pillbug's special ability.")


# ------------------------------------------------------------------- placement
def _placement(board: Board, piece: Piece, dest: Hex) -> Violation:
    colour = board.turn
    where = _name_cell(board, piece, dest)
    if piece.colour is not colour:
        return Violation(Rule.NOT_YOUR_TURN,
                         f"It is {colour.title}'s turn: {piece} belongs to {piece.colour.title}.")
    expected = board.next_in_hand(colour, piece.bug)
    if expected is not piece:
        return Violation(Rule.WRONG_PIECE_NUMBER,
                         f"{piece} cannot enter yet: pieces of a kind enter in number order, and "
                         f"{expected} is the next {piece.bug.title}.")
    if piece.bug is Bug.QUEEN and board.player_turn() == 1 and not board.options.queen_may_open:
        return Violation(Rule.QUEEN_NOT_ON_FIRST_TURN,
                         f"{piece} may not be placed on {colour.title}'s first turn: the Queen Bee "
                         "enters from the second turn on.", bug=Bug.QUEEN)
    if board.queen_due() and piece.bug is not Bug.QUEEN:
        return _queen_due(colour)
    top = board.top(dest)
    if top is not None:
        return Violation(Rule.PLACE_ON_EMPTY,
                         f"{piece} cannot be placed on top of {top}: new pieces go on empty "
                         "spaces (a Beetle climbs only after it has entered).", (dest,))
    occupied = list(board.occupied())
    if not occupied:
        return Violation(Rule.FIRST_PLACEMENT,
                         f"The first piece of the game goes in the centre, not at {dest}.", (ORIGIN,))
    around = [(cell, top) for cell in neighbours(dest) if (top := board.top(cell)) is not None]
    own_placed = any(p.colour is colour for cell in occupied for p in board.stack(cell))
    if not around:
        if not own_placed:
            return Violation(Rule.FIRST_PLACEMENT,
                             f"{colour.title}'s first piece must be placed touching the hive; "
                             f"{where} touches no piece.", (dest,))
        return Violation(Rule.PLACE_NOT_TOUCHING_OWN,
                         f"{piece} cannot be placed at {where}: a new piece must join the hive "
                         "next to its own colour, and this space touches no piece.", (dest,))
    enemies = [(cell, top) for cell, top in around if top.colour is not colour]
    if own_placed and enemies:
        names = _and(str(top) for _, top in enemies)
        return Violation(Rule.PLACE_TOUCHING_OPPONENT,
                         f"{piece} cannot be placed at {where}: it would touch {names} of "
                         f"{colour.opponent.title}, and a new piece may touch only its own colour.",
                         tuple(cell for cell, _ in enemies))
    return _unexplained(board, piece, dest)


def _queen_due(colour: Colour) -> Violation:
    return Violation(Rule.QUEEN_BY_FOURTH_TURN,
                     f"This is {colour.title}'s fourth turn and their Queen Bee is still in hand: "
                     "it must be placed now.", bug=Bug.QUEEN)


# -------------------------------------------------------------------- movement
def _movement(board: Board, piece: Piece, dest: Hex) -> Violation:
    colour = board.turn
    origin = board.position_of(piece)
    assert origin is not None
    throwers = _throwers(board, origin)
    if piece.colour is not colour and not throwers:
        return Violation(Rule.NOT_YOUR_PIECE,
                         f"{piece} belongs to {piece.colour.title}: {colour.title} may move an "
                         f"opponent's piece only with the special ability of a Pillbug (or a "
                         f"Mosquito touching one) next to it, and none touches {piece}.", (origin,))
    if board.queen_due():
        return _queen_due(colour)
    if not board.queen_placed(colour):
        return Violation(Rule.MOVE_BEFORE_QUEEN,
                         f"{colour.title} cannot move any piece before placing their Queen Bee.")
    if dest == origin:
        return Violation(Rule.BUG_MOVEMENT, f"{piece} is already there: a move must change its place.",
                         (origin,), piece.bug)
    top = board.top(origin)
    if top is not piece:
        return Violation(Rule.PIECE_COVERED,
                         f"{piece} cannot move: {top} is on top of it, and a covered piece is "
                         "pinned until it is uncovered.", (origin,))
    if piece is board.last_moved:
        if piece.colour is colour:
            return Violation(Rule.JUST_MOVED,
                             f"{piece} was just moved by {colour.opponent.title}'s Pillbug, so it may "
                             "not be moved at all this turn.", (origin,))
        return Violation(Rule.PILLBUG_JUST_MOVED,
                         f"{piece} was just moved by {piece.colour.title}: a Pillbug may not move the "
                         "piece its opponent has just moved.", (origin,))
    if piece.colour is not colour:
        return _throw(board, piece, origin, dest, throwers)
    violation = _own_move(board, piece, origin, dest)
    carried = board.height(origin) == 1 and dest not in board.occupied() and any(
        distance(board.cell_of(t), dest) == 1 for t in throwers)
    if violation.rule is Rule.BUG_MOVEMENT and carried:  # beyond its reach: judge it as a throw
        return _throw(board, piece, origin, dest, throwers)
    return violation


def _own_move(board: Board, piece: Piece, origin: Hex, dest: Hex) -> Violation:
    """Why ``piece`` cannot reach ``dest`` by its own (or a copied) movement."""
    stacks = board.stacks()
    height = len(stacks[origin])
    if height == 1 and origin in geometry.articulation_points(stacks):
        return Violation(Rule.ONE_HIVE,
                         f"{piece} cannot move: it is the only link between two parts of the hive "
                         "(One Hive rule).", (origin,))
    geometry.lift(stacks, origin)
    copies = sorted(geometry.movement_bugs(stacks, origin, piece, height), key=lambda b: b.title)
    if piece.bug is not Bug.MOSQUITO or height > 1:  # one way of moving
        only = _creature(board, stacks, piece, copies[0], origin, dest)
        if piece.bug is Bug.MOSQUITO and only.rule is Rule.BUG_MOVEMENT:
            return Violation(Rule.BUG_MOVEMENT,
                             f"{piece} is on top of the hive, so it moves only as a Beetle until it "
                             f"climbs down: one space at a time, and {_name_cell(board, piece, dest)} "
                             "is not next to it.", (dest,), Bug.MOSQUITO)
        return only
    if not copies:
        return Violation(Rule.BUG_MOVEMENT,
                         f"{piece} touches only Mosquitoes, so it has no creature to copy and "
                         "cannot move.", (origin,), Bug.MOSQUITO)
    found = [_creature(board, stacks, piece, bug, origin, dest) for bug in copies]
    for rule in (Rule.FREEDOM_TO_MOVE, Rule.ONE_HIVE):
        for blocked in found:
            if blocked.rule is rule:
                return blocked
    titles = _and(bug.title for bug in copies)
    return Violation(Rule.BUG_MOVEMENT,
                     f"{piece} moves only like the creatures it touches ({titles}), and none of "
                     f"them can go from its place to {_name_cell(board, piece, dest)}.",
                     (dest,), Bug.MOSQUITO)


def _creature(board: Board, stacks: Stacks, piece: Piece, bug: Bug, origin: Hex,
              dest: Hex) -> Violation:
    """Why ``bug``'s movement cannot take the lifted ``piece`` from ``origin`` to ``dest``."""
    where = _name_cell(board, piece, dest)
    occupied = stacks.get(dest)
    if occupied and bug is not Bug.BEETLE:
        top = occupied[-1]
        how = {Bug.LADYBUG: "a Ladybug must end its move down on the ground",
               Bug.GRASSHOPPER: "a Grasshopper lands on the first empty space after the pieces "
                                "it jumps over"}.get(bug, "only Beetles (and Mosquitoes copying "
                                                          "one) climb onto the hive")
        return Violation(Rule.DESTINATION_OCCUPIED,
                         f"{piece} cannot move onto {top}: {how}.", (dest,), bug)
    if not occupied and not any(n in stacks for n in neighbours(dest)):
        return Violation(Rule.ONE_HIVE,
                         f"{piece} cannot move to {where}: it would be left detached from the hive "
                         "(One Hive rule).", (dest,))
    if bug in (Bug.QUEEN, Bug.PILLBUG, Bug.BEETLE):
        return _one_step(board, stacks, piece, bug, origin, dest)
    if bug is Bug.GRASSHOPPER:
        return _jump(board, stacks, piece, origin, dest)
    if bug is Bug.LADYBUG:
        return _ladybug(board, stacks, piece, origin, dest)
    return _slider(board, stacks, piece, bug, origin, dest)


def _one_step(board: Board, stacks: Stacks, piece: Piece, bug: Bug, origin: Hex,
              dest: Hex) -> Violation:
    if distance(origin, dest) != 1:
        extra = {Bug.BEETLE: " (it may climb onto or off the hive)",
                 Bug.PILLBUG: " (its special ability moves other pieces, not itself)"}.get(bug, "")
        return Violation(Rule.BUG_MOVEMENT,
                         f"{piece} cannot reach {_name_cell(board, piece, dest)}: a {bug.title} "
                         f"moves exactly one space per turn{extra}.", (dest,), bug)
    return _step(board, stacks, piece, origin, dest) or _unexplained(board, piece, dest)


def _jump(board: Board, stacks: Stacks, piece: Piece, origin: Hex, dest: Hex) -> Violation:
    where = _name_cell(board, piece, dest)
    line = _straight_line(origin, dest)
    if line is None:
        return Violation(Rule.BUG_MOVEMENT,
                         f"{piece} cannot reach {where}: a Grasshopper jumps in a straight line, and "
                         "that space is not in line with it.", (dest,), Bug.GRASSHOPPER)
    if not line or line[0] not in stacks:
        return Violation(Rule.BUG_MOVEMENT,
                         f"{piece} cannot reach {where}: a Grasshopper must jump over at least one "
                         "piece, and the space next to it on that line is empty.",
                         (dest,), Bug.GRASSHOPPER)
    gap = next((cell for cell in line if cell not in stacks), None)
    if gap is not None:
        return Violation(Rule.BUG_MOVEMENT,
                         f"{piece} cannot reach {where}: a Grasshopper cannot jump across the gap "
                         f"at {_name_cell(board, piece, gap)}; it lands on the first empty space.",
                         (gap,), Bug.GRASSHOPPER)
    return _unexplained(board, piece, dest)


def _slider(board: Board, stacks: Stacks, piece: Piece, bug: Bug, origin: Hex,
            dest: Hex) -> Violation:
    """Spider and Ant: sliding around the hive, with gates named when they are the obstacle."""
    where = _name_cell(board, piece, dest)
    if all(n in stacks for n in neighbours(dest)):
        return Violation(Rule.FREEDOM_TO_MOVE,
                         f"{piece} cannot reach {where}: that space is surrounded, and a sliding "
                         "piece cannot get into it (Freedom to Move).", (dest,), bug)
    if bug is Bug.SPIDER:
        for path in geometry.paths(stacks, origin, 3, geometry.contact_steps):
            if path[-1] == dest:
                return _first_blocked(board, stacks, piece, path) or _unexplained(board, piece, dest)
        if dest not in geometry.flood(stacks, origin, geometry.contact_steps):
            return _enclosed(piece, bug, where, dest)
        reached = geometry.flood(stacks, origin)
        steps = len(geometry.path_to(reached, dest)) - 1 if dest in reached else None
        away = "" if steps is None else f"; that space is {steps} space{'s' * (steps > 1)} away"
        return Violation(Rule.BUG_MOVEMENT,
                         f"{piece} cannot reach {where}: a Spider moves exactly three spaces around "
                         f"the hive, no more, no less, without turning back{away}.", (dest,), bug)
    relaxed = geometry.flood(stacks, origin, geometry.contact_steps)
    if dest not in relaxed:
        return _enclosed(piece, bug, where, dest)
    path = geometry.path_to(relaxed, dest)
    reach = geometry.flood(stacks, origin)
    entry = next(i for i, cell in enumerate(path) if cell not in reach)
    return _step(board, stacks, piece, path[entry - 1], path[entry]) or _unexplained(board, piece, dest)


def _enclosed(piece: Piece, bug: Bug, where: str, dest: Hex) -> Violation:
    return Violation(Rule.FREEDOM_TO_MOVE,
                     f"{piece} cannot reach {where}: it lies in a space enclosed by the hive that a "
                     "sliding piece cannot get into (Freedom to Move).", (dest,), bug)


def _ladybug(board: Board, stacks: Stacks, piece: Piece, origin: Hex, dest: Hex) -> Violation:
    path = next((p for p in geometry.ladybug_paths(stacks, origin, gated=False) if p[-1] == dest), None)
    if path is not None:
        return _first_blocked(board, stacks, piece, path) or _unexplained(board, piece, dest)
    return Violation(Rule.BUG_MOVEMENT,
                     f"{piece} cannot reach {_name_cell(board, piece, dest)}: a Ladybug moves "
                     "exactly two spaces on top of the hive and then one down.", (dest,), Bug.LADYBUG)


# ---------------------------------------------------------------------- throws
def _throwers(board: Board, cell: Hex) -> list[Piece]:
    """The side to move's pieces next to ``cell`` that may use the Pillbug's special ability."""
    return geometry.throwers(board.stacks(), cell, board.turn)


def _throw(board: Board, piece: Piece, origin: Hex, dest: Hex, throwers: list[Piece]) -> Violation:
    """Why no Pillbug next to ``piece`` may lift it onto itself and put it down on ``dest``."""
    where = _name_cell(board, piece, dest)
    near = [t for t in throwers if distance(board.cell_of(t), dest) == 1]
    if not near:
        names = _and(str(t) for t in throwers)
        return Violation(Rule.PILLBUG_NOT_ADJACENT,
                         f"{names} can put {piece} down only on an empty space next to itself, and "
                         f"{where} is not.", (dest,), Bug.PILLBUG)
    if board.top(dest) is not None:
        return Violation(Rule.DESTINATION_OCCUPIED,
                         f"{near[0]} cannot put {piece} on top of {board.top(dest)}: a Pillbug puts "
                         "pieces down on empty spaces.", (dest,), Bug.PILLBUG)
    thrower = near[0]
    if thrower is board.last_moved:
        return Violation(Rule.JUST_MOVED,
                         f"{thrower} was just moved by {board.turn.opponent.title}'s Pillbug, so it "
                         "may not use the special ability this turn.", (board.cell_of(thrower),))
    if board.height(origin) > 1:
        return Violation(Rule.PILLBUG_STACKED,
                         f"{thrower} cannot move {piece}: a Pillbug may not move a piece that is part "
                         "of a stack.", (origin,), Bug.PILLBUG)
    stacks = board.stacks()
    if origin in geometry.articulation_points(stacks):
        return Violation(Rule.PILLBUG_SPLIT,
                         f"{thrower} cannot move {piece}: {piece} is the only link between two parts "
                         "of the hive (One Hive rule).", (origin,), Bug.PILLBUG)
    geometry.lift(stacks, origin)
    centre = board.cell_of(thrower)
    for a, b in ((origin, centre), (centre, dest)):
        gate = geometry.gate(stacks, a, b)
        if gate is not None:
            names = _and(str(stacks[cell][-1]) for cell in gate)
            return Violation(Rule.PILLBUG_GATE,
                             f"{thrower} cannot move {piece} to {where}: it would pass through the "
                             f"narrow gap between the stacks {names} (Freedom to Move).",
                             gate, Bug.PILLBUG)
    return _unexplained(board, piece, dest)


# ------------------------------------------------------------------- geometry
def _step(board: Board, stacks: Stacks, piece: Piece, a: Hex, b: Hex) -> Violation | None:
    """What forbids one step of ``piece`` from ``a`` to ``b`` (gate, or losing touch), if anything."""
    gate = geometry.gate(stacks, a, b)
    if gate is not None:
        names = _and(str(stacks[cell][-1]) for cell in gate)
        return Violation(Rule.FREEDOM_TO_MOVE,
                         f"{piece} cannot get to {_name_cell(board, piece, b)}: the gap between "
                         f"{names} is too narrow (Freedom to Move).", gate, piece.bug)
    ground = a not in stacks and b not in stacks
    if ground and not geometry.keeps_touch(stacks, a, b):
        return Violation(Rule.ONE_HIVE,
                         f"{piece} cannot slide to {_name_cell(board, piece, b)}: it would lose touch "
                         "with the hive on the way (One Hive rule).", (b,))
    return None


def _first_blocked(board: Board, stacks: Stacks, piece: Piece,
                   path: tuple[Hex, ...]) -> Violation | None:
    for a, b in zip(path, path[1:]):
        blocked = _step(board, stacks, piece, a, b)
        if blocked is not None:
            return blocked
    return None


def _straight_line(origin: Hex, dest: Hex) -> list[Hex] | None:
    """The cells strictly between ``origin`` and ``dest`` if they share a row, else None."""
    for dq, dr in OFFSETS:
        cells: list[Hex] = []
        q, r = origin[0] + dq, origin[1] + dr
        for _ in range(distance(origin, dest)):
            if (q, r) == dest:
                return cells
            cells.append((q, r))
            q, r = q + dq, r + dr
    return None


def _reaching_bug(stacks: Stacks, piece: Piece, origin: Hex, dest: Hex) -> Bug | None:
    """The creature whose movement takes ``piece`` from ``origin`` to ``dest`` (its own, or
    one a Mosquito copies), or None."""
    height = len(stacks[origin])
    if height == 1 and origin in geometry.articulation_points(stacks):
        return None
    geometry.lift(stacks, origin)
    bugs = sorted(geometry.movement_bugs(stacks, origin, piece, height), key=lambda b: b.title)
    return next((bug for bug in bugs if dest in movegen.MOVERS[bug](stacks, origin)), None)


# ---------------------------------------------------------------------- words
def _name_cell(board: Board, piece: Piece, cell: Hex) -> str:
    """``cell`` as a MoveString of ``piece`` would write it (``bQ-``), else its coordinates."""
    top = board.top(cell)
    if top is not None:
        return f"the top of {top}"
    if next(iter(board.occupied()), None) is None and cell == ORIGIN:
        return "the centre"
    reference = format_move(board, Move(piece, cell)).partition(" ")[2]
    if reference:
        return reference
    here = board.position_of(piece)
    direction = None if here is None else direction_between(here, cell)
    if direction is None:
        return f"{cell}"
    mark, after = MARKS[direction]  # beside the piece itself, which is leaving
    return f"{piece}{mark}" if after else f"{mark}{piece}"


def _and(names: Iterable[str]) -> str:
    items = list(names)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _unexplained(board: Board, piece: Piece, dest: Hex) -> Violation:
    return Violation(Rule.UNEXPLAINED,
                     f"{piece} may not go to {_name_cell(board, piece, dest)} here.", (dest,))
