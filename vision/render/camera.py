"""The synthetic camera: pose above the table, pinhole intrinsics and radial lens distortion.

Table coordinates are millimetres: x east, y south, z down into the table (so points above
the table have z < 0). The camera's image x runs along its right, image y down.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

WIDTH, HEIGHT = 1280, 720
HFOV_DEG = 66.0  # Raspberry Pi Camera Module 3, standard lens


@dataclass(frozen=True)
class SyntheticCamera:
    """Where the camera is and how it images: ``pixel = distort(K [R | t] x_table)``."""

    rotation: np.ndarray  # 3x3, table -> camera
    translation: np.ndarray  # (3,)
    matrix: np.ndarray  # 3x3 intrinsics K
    k1: float = 0.0  # radial distortion coefficients (OpenCV convention)
    k2: float = 0.0

    @classmethod
    def looking_at(cls, target: np.ndarray, height_mm: float, tilt_deg: float, azimuth_deg: float,
                   yaw_deg: float, k1: float = 0.0, k2: float = 0.0) -> "SyntheticCamera":
        """A camera ``height_mm`` above the table, tilted ``tilt_deg`` from vertical, aimed at ``target``.

        ``azimuth_deg`` says from which side it leans; ``yaw_deg`` turns the image about the view axis.
        """
        tilt, azimuth, yaw = np.radians([tilt_deg, azimuth_deg, yaw_deg])
        target = np.array([target[0], target[1], 0.0])
        position = target + np.array([height_mm * np.tan(tilt) * np.cos(azimuth),
                                      height_mm * np.tan(tilt) * np.sin(azimuth), -height_mm])
        forward = target - position
        forward /= np.linalg.norm(forward)
        down = np.array([-np.sin(yaw), np.cos(yaw), 0.0])
        down -= forward * float(down @ forward)
        down /= np.linalg.norm(down)
        rotation = np.stack([np.cross(down, forward), down, forward])
        focal = (WIDTH / 2) / np.tan(np.radians(HFOV_DEG / 2))
        matrix = np.array([[focal, 0, WIDTH / 2], [0, focal, HEIGHT / 2], [0, 0, 1]])
        return cls(rotation, -rotation @ position, matrix, k1, k2)

    @property
    def position(self) -> np.ndarray:
        """Camera centre in table mm."""
        return -self.rotation.T @ self.translation

    def project_ideal(self, points: np.ndarray) -> np.ndarray:
        """Pinhole pixels (N, 2) of table points (N, 3), without lens distortion."""
        cam = np.asarray(points, np.float64).reshape(-1, 3) @ self.rotation.T + self.translation
        pix = cam @ self.matrix.T
        return pix[:, :2] / pix[:, 2:3]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) of table points (N, 3) as the distorting lens images them."""
        return distort_pixels(self.project_ideal(points), self.matrix, self.k1, self.k2)

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the view axis of table points (N, 3)."""
        return (np.asarray(points, np.float64).reshape(-1, 3) @ self.rotation.T + self.translation)[:, 2]

    def apply_distortion(self, ideal_image: np.ndarray, nearest: bool = False) -> np.ndarray:
        """The image the distorting lens forms of a scene whose pinhole image is ``ideal_image``.

        ``nearest`` samples without blending (for label images).
        """
        if self.k1 == 0.0 and self.k2 == 0.0:
            return ideal_image
        map_x, map_y = _distortion_maps(round(self.k1, 3), round(self.k2, 3), float(self.matrix[0, 0]))
        interpolation = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        return cv2.remap(ideal_image, map_x, map_y, interpolation, borderMode=cv2.BORDER_REPLICATE)


def distort_pixels(ideal: np.ndarray, matrix: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Apply radial distortion ``1 + k1 r^2 + k2 r^4`` to pinhole pixels (N, 2)."""
    centre = matrix[:2, 2]
    norm = (ideal - centre) / matrix[0, 0]
    r2 = (norm ** 2).sum(axis=1, keepdims=True)
    return centre + norm * (1 + k1 * r2 + k2 * r2 * r2) * matrix[0, 0]


@lru_cache(maxsize=16)
def _distortion_maps(k1: float, k2: float, focal: float) -> tuple[np.ndarray, np.ndarray]:
    """For every distorted output pixel, the pinhole pixel it shows (fixed-point inversion)."""
    xs, ys = np.meshgrid(np.arange(WIDTH, dtype=np.float32), np.arange(HEIGHT, dtype=np.float32))
    dx, dy = (xs - WIDTH / 2) / focal, (ys - HEIGHT / 2) / focal
    ux, uy = dx.copy(), dy.copy()
    for _ in range(8):
        r2 = ux * ux + uy * uy
        factor = 1 + k1 * r2 + k2 * r2 * r2
        ux, uy = dx / factor, dy / factor
    return ux * focal + WIDTH / 2, uy * focal + HEIGHT / 2
