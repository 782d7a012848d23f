"""The frame being drawn (picture, per-pixel labels, which tile top each pixel shows) and the walls of solids."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

import cv2
import numpy as np

from vision.render.camera import HEIGHT, WIDTH, SyntheticCamera
from vision.render.lighting import Lighting


class Label(IntEnum):
    """What each pixel of a frame's label image shows."""

    TABLE = 0
    WHITE_TOP = 1
    BLACK_TOP = 2
    WHITE_SIDE = 3
    BLACK_SIDE = 4
    HAND = 5  # hand, arm, sleeve and anything carried in them
    OBJECT = 6  # a still object on the table (cup, phone)


@dataclass
class Canvas:
    """The pinhole picture being painted, with its truth painted in the same order."""

    image: np.ndarray
    labels: np.ndarray = field(default_factory=lambda: np.zeros((HEIGHT, WIDTH), np.uint8))
    top_ids: np.ndarray = field(default_factory=lambda: np.zeros((HEIGHT, WIDTH), np.int32))  # 1 + tile index

    def fill(self, polygon_px: np.ndarray, colour: np.ndarray, label: int) -> None:
        """Paint a flat-coloured polygon (N, 2) pinhole pixels."""
        points = [np.round(polygon_px * 16).astype(np.int32)]
        cv2.fillPoly(self.image, points, tuple(np.clip(colour, 0, 255).tolist()), cv2.LINE_AA, shift=4)
        cv2.fillPoly(self.labels, points, int(label), shift=4)


def draw_walls(canvas: Canvas, camera: SyntheticCamera, upper: np.ndarray, lower: np.ndarray, axis: np.ndarray,
               colour: np.ndarray, label: int, lighting: Lighting) -> None:
    """The faces between two rings of table points (N, 3) about the vertical ``axis`` (x, y) that face the camera.

    Each quad ``upper[k], upper[k+1], lower[k+1], lower[k]`` is shaded by its outward normal: walls
    when the rings are the same shape, a chamfer when the upper ring is smaller.
    """
    upper_px, lower_px = camera.project_ideal(upper), camera.project_ideal(lower)
    upper_next, lower_next = np.roll(upper, -1, axis=0), np.roll(lower, -1, axis=0)
    normals = np.cross(upper_next - upper, lower - upper)
    middles = (upper + upper_next + lower + lower_next) / 4
    outward = np.einsum("ij,ij->i", normals[:, :2], middles[:, :2] - axis) < 0
    normals[outward] *= -1
    normals /= np.linalg.norm(normals, axis=1, keepdims=True)
    facing = np.einsum("ij,ij->i", camera.position - middles, normals) > 0
    for k in np.nonzero(facing)[0]:
        j = (k + 1) % len(upper)
        quad = np.array([upper_px[k], upper_px[j], lower_px[j], lower_px[k]])
        canvas.fill(quad, colour * lighting.shade(normals[k]), label)
