"""Positions as people lay them, drawn from a seeded generator.

Real games (a prefix of a recorded game, replayed by ``rules``), long rows and compact blobs
of touching tiles of one colour, stacks, and enrollment layouts (rows one cell apart, a loose
scatter, the documented block), each turned any multiple of 60 degrees. Recorded games are
passed in by the caller (benchmark or training code); the product never reads the corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from calibration.layout import DEFAULT_LAYOUT, layout_position
from rules.board import Board
from rules.hexgrid import Hex
from rules.pieces import Colour, Piece
from rules.sgf import load_sgf

Position = dict[Hex, list[Piece]]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
MAX_STACK = 6


def load_games(folder: str | Path) -> list[list[Position]]:
    """Every position of every SGF game in ``folder`` (for benchmark and training code only)."""
    games = []
    for path in sorted(Path(folder).glob("*.sgf")):
        try:
            games.append([board.stacks() for board in load_sgf(path).boards()])
        except ValueError:
            continue  # a record the rules cannot replay is skipped
    return games


def game_positions(game_string: str) -> list[Position]:
    """Every position of a UHP GameString, from the first move on."""
    return [board.stacks() for board in Board.from_game_string(game_string).replay()][1:]


def from_game(rng: np.random.Generator, games: Sequence[list[Position]]) -> Position:
    """A position partway through one of ``games`` (lists of positions), at least two tiles in."""
    game = games[int(rng.integers(len(games)))]
    playable = [p for p in game if len(p) >= 2] or game
    return playable[int(rng.integers(len(playable)))]


def pieces_of(colour: Colour) -> list[Piece]:
    return [piece for piece in Piece.ALL if piece.colour is colour]


def _shuffled(rng: np.random.Generator, pieces: list[Piece]) -> list[Piece]:
    return [pieces[i] for i in rng.permutation(len(pieces))]


def row(rng: np.random.Generator) -> Position:
    """One or two long straight rows of touching tiles, each of one colour (two rows lie side by side)."""
    colours = list(Colour) if rng.random() < 0.5 else [Colour(rng.choice(list(Colour)))]
    direction = DIRECTIONS[int(rng.integers(6))]
    side = DIRECTIONS[(DIRECTIONS.index(direction) + 1) % 6]
    position: Position = {}
    for line, colour in enumerate(colours):
        pieces = _shuffled(rng, pieces_of(colour))[:int(rng.integers(5, 15))]
        start = (side[0] * line, side[1] * line)
        for k, piece in enumerate(pieces):
            position[(start[0] + direction[0] * k, start[1] + direction[1] * k)] = [piece]
    return position


def blob(rng: np.random.Generator) -> Position:
    """A compact cluster of touching tiles of one colour, sometimes beside a cluster of the other."""
    position: Position = {}
    for colour in (list(Colour) if rng.random() < 0.5 else [Colour(rng.choice(list(Colour)))]):
        pieces = _shuffled(rng, pieces_of(colour))[:int(rng.integers(5, 15))]
        seed_cell = (0, 0) if not position else _free_neighbour(rng, position)
        grown = [seed_cell]
        while len(grown) < len(pieces):
            frontier = [c for c in _neighbours_of(grown) if c not in position and c not in grown]
            if not frontier:  # seeded in a hole of the first cluster, and filled it: the rest stay in the box
                break
            counts = np.array([sum(n in grown for n in _neighbours(c)) for c in frontier], float)
            grown.append(frontier[int(rng.choice(len(frontier), p=counts ** 2 / (counts ** 2).sum()))])
        position.update({cell: [piece] for cell, piece in zip(grown, pieces)})
    return position


def stacked(rng: np.random.Generator) -> Position:
    """A game-like cluster with climbers piled on it, up to six high."""
    position = blob(rng)
    cells = list(position)
    for _ in range(int(rng.integers(1, 6))):
        source, target = (cells[int(i)] for i in rng.choice(len(cells), 2, replace=False))
        if len(position[source]) == 1 and len(position[target]) < MAX_STACK and len(position) > 2:
            position[target] = position[target] + position.pop(source)
            cells.remove(source)
    return position


def enrollment(rng: np.random.Generator) -> Position:
    """An enrollment layout: each colour in rows one cell apart, a loose scatter with gaps, or the default block."""
    kind = int(rng.integers(3))
    if kind == 0:
        pieces = _shuffled(rng, pieces_of(Colour.WHITE)) + _shuffled(rng, pieces_of(Colour.BLACK))
        position = {(2 * (k % 7), 2 * (k // 7)): [piece] for k, piece in enumerate(pieces)}
    elif kind == 1:
        position = _scatter(rng, _shuffled(rng, list(Piece.ALL)))
    else:
        position = layout_position(DEFAULT_LAYOUT)
    return turned(position, int(rng.integers(6)))


def _scatter(rng: np.random.Generator, pieces: list[Piece]) -> Position:
    """Pieces on random cells of a loose field, no two touching."""
    position: Position = {}
    while len(position) < len(pieces):
        cell = (int(rng.integers(-7, 8)), int(rng.integers(-5, 6)))
        if cell not in position and not any(n in position for n in _neighbours(cell)):
            position[cell] = [pieces[len(position)]]
    return position


def turned(position: Position, sixths: int) -> Position:
    """``position`` turned ``sixths`` times 60 degrees about (0, 0)."""
    result = position
    for _ in range(sixths % 6):
        result = {(-r, q + r): stack for (q, r), stack in result.items()}
    return result


def _neighbours(cell: Hex) -> list[Hex]:
    return [(cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS]


def _neighbours_of(cells: list[Hex]) -> list[Hex]:
    return list(dict.fromkeys(n for c in cells for n in _neighbours(c)))


def _free_neighbour(rng: np.random.Generator, position: Position) -> Hex:
    free = [c for c in _neighbours_of(list(position)) if c not in position]
    return free[int(rng.integers(len(free)))]


def opening(rng: np.random.Generator) -> Position:
    """A game's first moves: one to three touching tiles of any pieces (every game starts so, and
    a lone tile shows no neighbour to judge its size by)."""
    pieces = _shuffled(rng, list(Piece.ALL))[:int(rng.integers(1, 4))]
    position: Position = {(0, 0): [pieces[0]]}
    for piece in pieces[1:]:
        position[_free_neighbour(rng, position)] = [piece]
    return position


GENERATORS: dict[str, Callable[[np.random.Generator], Position]] = {
    "row": row, "blob": blob, "stacked": stacked, "enrollment": enrollment, "opening": opening}


def random_position(rng: np.random.Generator, games: Sequence[list[Position]] = ()) -> Position:
    """A position from a recorded game (half the time, when ``games`` are given) or from a generator."""
    if games and rng.random() < 0.5:
        return from_game(rng, games)
    names = list(GENERATORS)
    return GENERATORS[names[int(rng.integers(len(names)))]](rng)
