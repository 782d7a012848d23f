"""Synthetic camera frames, for tests and benchmarks.

``film`` turns a game's successive positions into *shots* (what is on the table, where
the hive lies, whether a hand covers it, when); ``observe`` is what a perfect camera
sees of a shot (a renderer plus the vision pipeline can stand in for it), and
``add_noise`` adds recognition flicker to any stream of observations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Collection, Iterable, Iterator, Mapping, Sequence

from ..hexgrid import Hex
from ..observation import Observation, TileSighting
from ..pieces import Bug, Piece
from .registration import IDENTITY, Transform


def sightings(stacks: Mapping[Hex, Sequence[Piece]], transform: Transform = IDENTITY) -> tuple[TileSighting, ...]:
    """The stack tops a perfect camera sees, with game cells moved by ``transform``."""
    tiles = []
    for cell, stack in sorted(stacks.items()):
        q, r = transform.apply(cell)
        top = stack[-1]
        tiles.append(TileSighting(q, r, top.colour, top.bug, 1.0, len(stack)))
    return tuple(tiles)


@dataclass(frozen=True)
class Shot:
    """One frame to produce: the stacks on the table (game cells), the rigid transform
    from game cells to the camera's lattice, whether a hand hides the board, and when."""

    stacks: Mapping[Hex, Sequence[Piece]]
    transform: Transform
    occluded: bool
    timestamp: float


def observe(shot: Shot) -> Observation:
    """What a perfect camera reports for ``shot``."""
    tiles = () if shot.occluded else sightings(shot.stacks, shot.transform)
    return Observation(tiles, shot.occluded, shot.timestamp)


@dataclass(frozen=True)
class Pace:
    """How a game is played in front of the camera, in frames (at ``fps``)."""

    fps: float = 10.0
    hand_frames: tuple[int, int] = (4, 12)  # a hand over the board while a move is made
    still_frames: tuple[int, int] = (6, 20)  # the board left alone afterwards
    bump_chance: float = 0.05  # per move, that the hive is knocked (a new rigid transform)
    fast_chance: float = 0.05  # per move, that the reply follows before the board is still
    end_frames: int = 30  # the final position stays in view


def random_transform(rng: random.Random, mirror: bool = False) -> Transform:
    return Transform(rng.randrange(6), mirror and rng.random() < 0.5, (rng.randint(-9, 9), rng.randint(-9, 9)))


def film(positions: Sequence[Mapping[Hex, Sequence[Piece]]], rng: random.Random, pace: Pace = Pace(),
         start: Transform = Transform(0, False, (3, -2)), waited: Collection[int] = ()) -> Iterator[Shot]:
    """Shots of a game: for each position after the first, a hand (the move being made)
    then the still board. ``start`` is the first registration (turns 0 keeps the game's
    orientation, so records compare move for move). The positions whose indices are in
    ``waited`` stay still as long as the last one: boards the players leave until the
    referee speaks (an illegal move is taken back once it is flagged, not before).

    A bump happens under the hand once the camera has seen two pieces still (a lone piece
    turned on the spot looks the same however it turned). A fast reply skips the still
    board, so the camera sees two moves at once; the last position is always shown still.
    """
    step = 1.0 / pace.fps
    frame = 0
    transform = start
    fast = False
    shown = 0  # pieces in the last position shown still
    for index, stacks in enumerate(positions):
        waits = index == len(positions) - 1 or index in waited
        if index:
            if shown > 1 and rng.random() < pace.bump_chance:
                transform = random_transform(rng)
            for _ in range(rng.randint(*pace.hand_frames)):
                frame += 1
                yield Shot(stacks, transform, True, round(frame * step, 6))
            fast = not fast and not waits and rng.random() < pace.fast_chance
            if fast:
                continue
        shown = len(stacks)
        still = pace.end_frames if waits else rng.randint(*pace.still_frames)
        for _ in range(still):
            frame += 1
            yield Shot(stacks, transform, False, round(frame * step, 6))


@dataclass(frozen=True)
class Noise:
    """Recognition noise: bursts of a few frames in which one tile is misread (wrong
    creature or colour, at low confidence) or missed."""

    burst_chance: float = 0.03  # per frame, that a burst starts
    burst_frames: tuple[int, int] = (1, 2)  # its length, inclusive range
    low_confidence: float = 0.35


def add_noise(frames: Iterable[Observation], rng: random.Random, noise: Noise = Noise()) -> Iterator[Observation]:
    """``frames`` with flicker bursts; occluded frames pass unchanged."""
    left, victim, wrong = 0, 0, None
    for frame in frames:
        if frame.occluded or not frame.tiles:
            yield frame
            continue
        if left == 0 and rng.random() < noise.burst_chance:
            left = rng.randint(*noise.burst_frames)
            victim = rng.randrange(len(frame.tiles))
            wrong = rng.choice(["missing", "bug", "colour"])
        if left == 0:
            yield frame
            continue
        left -= 1
        tiles = list(frame.tiles)
        index = victim % len(tiles)
        tile = tiles[index]
        if wrong == "missing":
            del tiles[index]
        elif wrong == "bug":
            other = rng.choice([b for b in Bug if b is not tile.bug])
            tiles[index] = replace(tile, bug=other, confidence=noise.low_confidence)
        else:
            tiles[index] = replace(tile, colour=tile.colour.opponent, confidence=noise.low_confidence)
        yield replace(frame, tiles=tuple(tiles))


