"""Legal moves from the empty board to a set-up position, found by a bounded search.

A game picked up from the table has no moves of its own, but UHP can only describe a game
by its moves. ``moves_to_reach`` looks for a legal game that ends in the same position (the
same pieces in the same stacks, up to a shift of the whole hive) with the same side to move.

It searches backwards from the position, undoing one move at a time for alternate players:
a piece lying alone that its owner could have placed there last (touching only its own
colour, the hive still one without it, the highest number of its kind) can be taken off,
or one of its pieces steps back to a cell it can reach (moves play backwards for every
creature; a Mosquito's or Pillbug's are checked forwards, as is the whole game found).
Depth first, the undos leaving the fewest pieces, and the fewest pieces touching the other
colour or covered, are tried first, a few per position; a way that brings the position no
nearer for a few undos is given up, and so is the search after a budget of positions. A
position out of reach gives ``Unreachable`` with the reason. On positions of real games
(the boardspace corpus) it finds a game for nearly nine in ten, in up to a few seconds.
"""

from __future__ import annotations


from . import movegen
from .board import Board
from .geometry import is_connected
from .gametype import GameType, RuleOptions
from .hexgrid import Hex, neighbours
from .move import Move
from .pieces import Bug, Colour, Piece
from .setup import Setup

BUDGET = 1000
"""Positions expanded before the search gives up."""
BRANCHES = 4
"""The most promising undos tried from each position."""
STALL = 4
"""Undos in a row that bring the position no nearer to the empty board before trying another way."""
STEPS_PER_PIECE = 12
"""The longest game looked for, in moves per piece on the table."""
COVER = 2
"""What a covered piece adds to a position's distance from the empty board (touching adds 1)."""
Stacks = dict[Hex, list[Piece]]


class Unreachable(ValueError):
    """No legal game reaching the position was found; the message says why."""


def moves_to_reach(setup: Setup, game_type: GameType | str = "Base+MLP", options: RuleOptions | None = None,
                   budget: int = BUDGET) -> list[Move]:
    """Legal moves from the empty board reaching ``setup`` (up to a shift), checked by replay."""
    game_type = GameType.parse(game_type) if isinstance(game_type, str) else game_type
    options = options or RuleOptions()
    setup.check_game_type(game_type)
    _check_counts(setup)
    if not setup.stacks:
        return []
    undone = _search(setup, game_type, options, budget)
    if undone is None:
        raise Unreachable(f"no legal game reaching this position was found within {budget} positions tried")
    return _replayed(list(reversed(undone)), setup, game_type, options)


def _check_counts(setup: Setup) -> None:
    """Turn order limits how far apart the players' piece counts can be before their Queens are down."""
    for colour in Colour:
        own = [p for p in setup.pieces() if p.colour is colour]
        if own and not any(p.bug is Bug.QUEEN for p in own) and len(own) > 3:
            raise Unreachable(f"{colour.title} has {len(own)} pieces down but no Queen: the Queen must come "
                              "by the fourth turn")


def _search(setup: Setup, game_type: GameType, options: RuleOptions, budget: int) -> list[Move] | None:
    """The moves undone from ``setup`` back to the empty board, last move first, or None:
    depth first, the most promising undo first, at most ``budget`` positions."""
    seen: set[tuple[frozenset[tuple[Hex, tuple[Piece, ...]]], Colour]] = set()
    undone: list[Move] = []
    depth = STEPS_PER_PIECE * len(setup.pieces())

    def undo_from(stacks: Stacks, to_move: Colour, best: tuple[int, int], stalled: int) -> bool:
        if not stacks:
            return to_move is Colour.WHITE
        key = (_shape(stacks), to_move)
        if key in seen or len(seen) >= budget or len(undone) > depth or stalled > STALL:
            return False
        seen.add(key)
        ranked = sorted(((_cost(before), move, before) for move, before
                         in _undo_options(stacks, to_move.opponent, game_type, options)), key=lambda c: c[0])
        for cost, move, before in ranked[:BRANCHES]:
            undone.append(move)
            if undo_from(before, to_move.opponent, min(cost, best), 0 if cost < best else stalled + 1):
                return True
            undone.pop()
        return False

    start = {cell: list(stack) for cell, stack in setup.stacks.items()}
    return undone if undo_from(start, setup.to_move, _cost(start), 0) else None


def _shape(stacks: Stacks) -> frozenset[tuple[Hex, tuple[Piece, ...]]]:
    """The position up to a shift of the hive."""
    if not stacks:
        return frozenset()
    q0, r0 = min(stacks)
    return frozenset(((q - q0, r - r0), tuple(s)) for (q, r), s in stacks.items())


def _cost(stacks: Stacks) -> tuple[int, int]:
    """How far from the empty board: pieces left, plus those touching the other colour, plus
    (``COVER`` each) those covered: each needs moves before it can be taken off."""
    pieces = sum(len(s) for s in stacks.values())
    touching = sum(1 for cell, stack in stacks.items()
                   if any(n in stacks and stacks[n][-1].colour is not stack[-1].colour for n in neighbours(cell)))
    return (pieces + touching + COVER * (pieces - len(stacks)), pieces)


def _undo_options(stacks: Stacks, mover: Colour, game_type: GameType, options: RuleOptions
                  ) -> list[tuple[Move, Stacks]]:
    """The moves ``mover`` could have made last, each with the position before it: taking a
    piece off (undoing a placement), or stepping a piece back."""
    placed = [cell for cell, stack in stacks.items() if stack[-1].colour is mover and _could_be_placed(stacks, cell)]
    placed = [cell for cell in placed if _queen_in_time(stacks, cell, options)]
    undos = ([(Move(stacks[cell][0], cell, None), _without(stacks, cell)) for cell in placed]
             + _step_backs(stacks, mover, game_type, options))
    return [(move, before) for move, before in undos if _placed_only(before, mover)]


def _placed_only(stacks: Stacks, colour: Colour) -> bool:
    """Whether ``colour``'s pieces can be where they were placed, as they must be while its
    Queen is in hand (nothing moves before it): on the ground, each touching another of them."""
    cells = [cell for cell, stack in stacks.items() for p in stack if p.colour is colour]
    if any(p.bug is Bug.QUEEN for cell in cells for p in stacks[cell] if p.colour is colour):
        return True
    if any(stacks[cell][0].colour is not colour for cell in cells):
        return False
    return is_connected({cell: stacks[cell] for cell in cells})


def _could_be_placed(stacks: Stacks, cell: Hex) -> bool:
    """Whether the piece alone on ``cell`` could have been placed there last (as far as the
    position shows: not the Queen's timing, see ``_queen_in_time``)."""
    stack = stacks[cell]
    if len(stack) != 1:
        return False
    piece = stack[0]
    if any(p.colour is piece.colour and p.bug is piece.bug and p.number > piece.number
           for s in stacks.values() for p in s):
        return False
    rest = _without(stacks, cell)
    if not is_connected(rest):
        return False
    if not any(p.colour is piece.colour for s in rest.values() for p in s):
        return len(rest) <= 1  # the first piece of each player: the first two of the game
    tops = [rest[n][-1].colour for n in neighbours(cell) if n in rest]
    return all(colour is piece.colour for colour in tops)


def _queen_in_time(stacks: Stacks, cell: Hex, options: RuleOptions) -> bool:
    """A Queen comes on one of its owner's first four turns (not the first, unless allowed);
    another piece after the Queen, or among the first three."""
    piece = stacks[cell][0]
    own = sum(1 for s in stacks.values() for p in s if p.colour is piece.colour)
    if piece.bug is Bug.QUEEN:
        return own <= 4 and (own > 1 or options.queen_may_open)
    queen_down = any(p.colour is piece.colour and p.bug is Bug.QUEEN for s in stacks.values() for p in s)
    return queen_down or own <= 3


def _step_backs(stacks: Stacks, mover: Colour, game_type: GameType, options: RuleOptions
                ) -> list[tuple[Move, Stacks]]:
    board = Board.from_position(Setup({c: tuple(s) for c, s in stacks.items()}, mover), game_type, options)
    found = []
    for move in movegen.generate(board):
        piece, origin, dest = move.piece, move.origin, move.dest
        if piece is None or origin is None or dest is None or piece.colour is not mover:
            continue
        before = _moved(stacks, origin, dest)
        if _queen_surrounded(before):
            continue
        forward = Move(piece, origin, dest)
        if _thrower_near(stacks, origin, piece) and not _legal_from(before, mover, forward, game_type, options):
            continue  # what a Mosquito copies, and whom a Pillbug throws, depends on where they stand
        found.append((forward, before))
    return found


def _thrower_near(stacks: Stacks, cell: Hex, piece: Piece) -> bool:
    """Whether the move of ``piece`` to ``cell`` may not play backwards: it is a Mosquito or
    Pillbug, or a Mosquito or Pillbug beside it may have thrown it."""
    throwers = (Bug.MOSQUITO, Bug.PILLBUG)
    return piece.bug in throwers or any(n in stacks and stacks[n][-1].bug in throwers for n in neighbours(cell))


def _legal_from(stacks: Stacks, mover: Colour, move: Move, game_type: GameType, options: RuleOptions) -> bool:
    board = Board.from_position(Setup({c: tuple(s) for c, s in stacks.items()}, mover), game_type, options)
    return move in movegen.generate(board)


def _queen_surrounded(stacks: Stacks) -> bool:
    return any(p.bug is Bug.QUEEN and all(n in stacks for n in neighbours(cell))
               for cell, stack in stacks.items() for p in stack)


def _without(stacks: Stacks, cell: Hex) -> Stacks:
    rest = {c: list(s) for c, s in stacks.items()}
    rest[cell].pop()
    if not rest[cell]:
        del rest[cell]
    return rest


def _moved(stacks: Stacks, origin: Hex, dest: Hex) -> Stacks:
    before = _without(stacks, origin)
    before.setdefault(dest, []).append(stacks[origin][-1])
    return before


def _replayed(moves: list[Move], setup: Setup, game_type: GameType, options: RuleOptions) -> list[Move]:
    """``moves`` shifted to start at the centre and checked by playing them from the empty board."""
    first = moves[0].dest
    assert first is not None
    dq, dr = -first[0], -first[1]

    def shift(cell: Hex | None) -> Hex | None:
        return None if cell is None else (cell[0] + dq, cell[1] + dr)

    board = Board(game_type, options)
    for move in moves:
        shifted = Move(move.piece, shift(move.dest), shift(move.origin))
        if not board.is_legal(shifted):
            raise Unreachable(f"the game found breaks a rule at {board.uhp(shifted)} (a Mosquito or Pillbug move "
                              "that does not play backwards)")
        board.push(shifted)
    if _shape(board.stacks()) != _shape({c: list(s) for c, s in setup.stacks.items()}) or \
            board.turn is not setup.to_move:
        raise Unreachable("the game found does not end in the position")
    return board.move_stack
