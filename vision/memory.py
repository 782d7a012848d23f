"""What the tops of the last few frames were read as, by where they lay.

A top is read with the class weights it got now plus those its spot got in the frames just
before (the same place, to a quarter pitch, at the same stack level), so a read that flickers in
one frame in four does not flip the tile, and the referee sees a steady board sooner. Only a top
round which nothing moved since the last frame is fused (``vision.motion``: an unrelated frame,
a piece put down or lifted all change the pixels), a hand over the hive wipes the memory, and
only a few frames are kept.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

FRAMES = 4  # frames remembered: about a quarter second at 15 fps
SAME_SPOT = 0.25  # pitches: a top this close to where one lay, at the same level, is that top


@dataclass(frozen=True)
class _Frame:
    centres: np.ndarray  # (T, 2) pixels
    levels: np.ndarray  # (T,)
    weights: np.ndarray  # (T, classes), each row summing to 1


class ReadMemory:
    """Class weights of the tops of the last ``frames`` frames."""

    def __init__(self, frames: int = FRAMES) -> None:
        self._past: deque[_Frame] = deque(maxlen=frames)

    def fuse(self, centres: np.ndarray, levels: np.ndarray, pitch: float, weights: np.ndarray,
             still: np.ndarray | None = None) -> np.ndarray:
        """This frame's weights (T, classes), with those of the same tops in the remembered frames
        added for the tops that are ``still`` (default all: nothing round them changed since the
        last frame), rows summing to 1; this frame's own weights are then remembered."""
        centres, levels = np.asarray(centres, np.float64).reshape(-1, 2), np.asarray(levels)
        still = np.ones(len(centres), bool) if still is None else np.asarray(still, bool)
        summed = np.array(weights, np.float64)
        for past in self._past:
            if not len(past.centres) or not len(centres):
                continue
            distance = np.linalg.norm(centres[:, None] - past.centres[None], axis=2)
            nearest = distance.argmin(axis=1)
            near = distance[np.arange(len(centres)), nearest] < SAME_SPOT * pitch
            same = still & near & (past.levels[nearest] == levels)
            summed[same] += past.weights[nearest[same]]
        self._past.append(_Frame(centres, levels, np.array(weights, np.float64)))
        return summed / np.maximum(summed.sum(axis=1, keepdims=True), 1e-12)

    def clear(self) -> None:
        """Forget every frame (a hand moved pieces, or the next frame shows another scene)."""
        self._past.clear()
