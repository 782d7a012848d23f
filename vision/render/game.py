"""A whole game as the camera sees it: a hand carries each piece, then the hive rests.

``game_frames`` yields ``(frame, GameFrameInfo)``; the ground truth says which move the
frame belongs to, whether the hand is in view, and the visible tops (``FrameTruth``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterator

import numpy as np

from rules.board import Board
from rules.pieces import Piece
from vision.render.scene import (Conditions, FrameTruth, Position, cell_centre_mm, lattice_pitch, make_camera,
                                 random_conditions, render_position)

@dataclass(frozen=True)
class GameFrameInfo:
    """Ground truth of one frame of a game video."""

    move: int  # moves played so far in the shown position (the hand carries move ``move + 1``)
    hand: bool
    truth: FrameTruth


def _positions(game_string: str) -> list[tuple[Position, Piece | None]]:
    """Every position of the game with the piece that moved to reach it."""
    board = Board.from_game_string(game_string)
    result: list[tuple[Position, Piece | None]] = []
    for step in board.replay():
        moved = step.move_stack[-1].piece if step.move_stack else None
        result.append((step.stacks(), moved))
    return result


def game_frames(game_string: str, seed: int = 0, hand_frames: int = 3, rest_frames: int = 5,
                conditions: Conditions | None = None) -> Iterator[tuple[np.ndarray, GameFrameInfo]]:
    """Frames of ``game_string`` played move by move under one camera (random unless ``conditions``)."""
    rng = np.random.default_rng(seed)
    steps = _positions(game_string)
    base = conditions or random_conditions(rng, tilt_deg=float(rng.uniform(0, 20)))
    camera = make_camera(steps[-1][0], base)
    pitch = lattice_pitch(base)
    bump = np.zeros(2)
    for index, (position, moved) in enumerate(steps):
        if index > 0 and moved is not None:
            before = {c: [p for p in s if p is not moved] for c, s in steps[index - 1][0].items()}
            before = {c: s for c, s in before.items() if s}
            target = next(c for c, s in position.items() if s[-1] is moved)
            start = start_point(steps[index - 1][0], moved, pitch, rng)
            goal = cell_centre_mm(target, pitch) + bump
            for k in range(hand_frames):
                t = (k + 1) / hand_frames
                frame_conditions = replace(base, hand=True, bump_mm=tuple(bump), seed=int(rng.integers(1 << 30)))
                frame, truth = render_position(before, frame_conditions, carried=moved, camera=camera,
                                               hand_at=tuple(start + (goal - start) * t))
                yield frame, GameFrameInfo(index - 1, True, truth)
        if rng.random() < 0.1:
            bump = bump + rng.normal(0, 2.0, 2)  # someone nudged the table
        for _ in range(rest_frames):
            frame, truth = render_position(position, replace(base, bump_mm=tuple(bump),
                                                             seed=int(rng.integers(1 << 30))), camera=camera)
            yield frame, GameFrameInfo(index, False, truth)


def start_point(position: Position, piece: Piece, pitch: float, rng: np.random.Generator) -> np.ndarray:
    """Where the hand picks ``piece`` up: its cell, or beside the hive when it comes from the hand."""
    for cell, stack in position.items():
        if stack and stack[-1] is piece:
            return cell_centre_mm(cell, pitch)
    cells = np.array([cell_centre_mm(c, pitch) for c in position]) if position else np.zeros((1, 2))
    angle = rng.uniform(0, 2 * np.pi)
    return cells.mean(axis=0) + (np.abs(cells - cells.mean(axis=0)).max() + 2 * pitch) * np.array(
        [np.cos(angle), np.sin(angle)])
