"""Render what a known camera sees of a flat printed sheet on the table (tests, benchmark).

Rendering is by inverse mapping: every output sub-pixel is undistorted to a ray,
intersected with the table plane, and the sheet texture is sampled there, so lens
distortion, perspective and anti-aliasing are exact (``exact_table_points``).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from calibration.camera import CameraModel
from calibration.charuco import board_image, board_size_mm

PAPER_MARGIN_MM = 12.0
TABLE_BGR = (70, 100, 130)


@dataclass(frozen=True)
class Pose:
    """Table-to-camera transform: x_cam = R @ x_table + t, table z pointing into the table."""

    rotation: np.ndarray  # 3x3
    translation: np.ndarray  # (3,)

    @classmethod
    def look_at(cls, position: np.ndarray, target: np.ndarray, down: np.ndarray = np.array([0.0, 1.0, 0.0])
                ) -> "Pose":
        """A camera at ``position`` (table mm; above the table means z < 0) looking at ``target``.

        ``down`` is the table direction that should point down the image.
        """
        position = np.asarray(position, np.float64)
        forward = np.asarray(target, np.float64) - position
        forward /= np.linalg.norm(forward)
        image_down = down - forward * float(down @ forward)
        image_down /= np.linalg.norm(image_down)
        rotation = np.stack([np.cross(image_down, forward), image_down, forward])
        return cls(rotation, -rotation @ position)


def survey_poses(count: int, distance_mm: float, seed: int = 0) -> list[Pose]:
    """Varied camera poses around the board (tilted 20-45 degrees, rolled, aimed off-centre).

    The aim points spread the board over the whole frame, as a good calibration session does.
    """
    rng = np.random.default_rng(seed)
    centre = np.array([*np.divide(board_size_mm(), 2), 0.0])
    poses = []
    for index in range(count):
        azimuth = 2 * np.pi * index / count + rng.uniform(-0.3, 0.3)
        tilt = np.radians(rng.uniform(20, 45))
        direction = np.array([np.sin(tilt) * np.cos(azimuth), np.sin(tilt) * np.sin(azimuth), -np.cos(tilt)])
        aim = centre + np.array([*rng.uniform(-0.25, 0.25, 2) * distance_mm, 0.0])
        roll = rng.uniform(-0.6, 0.6)
        poses.append(Pose.look_at(centre + distance_mm * rng.uniform(0.9, 1.1) * direction, aim,
                                  np.array([np.sin(roll), np.cos(roll), 0.0])))
    return poses


def exact_table_points(camera: CameraModel, pose: Pose, pixels: np.ndarray) -> np.ndarray:
    """Exact table (x, y) mm seen at ``pixels`` (N, 2)."""
    ideal = camera.undistort_points(pixels)
    rays = np.column_stack([ideal, np.ones(len(ideal))]) @ np.linalg.inv(camera.matrix).T
    r = pose.rotation
    plane = np.column_stack([r[:, 0], r[:, 1], pose.translation])
    table = rays @ np.linalg.inv(plane).T
    return table[:, :2] / table[:, 2:]


def render_sheet(camera: CameraModel, pose: Pose, sheet: np.ndarray, pixels_per_mm: float,
                 origin_mm: tuple[float, float], supersample: int = 2) -> np.ndarray:
    """Float BGR view of ``sheet`` (image whose top-left is at table ``origin_mm``) on a plain table."""
    width, height = camera.image_size
    offsets = (np.arange(supersample) + 0.5) / supersample - 0.5
    us = (np.arange(width)[:, None] + offsets).ravel()
    vs = (np.arange(height)[:, None] + offsets).ravel()
    table = exact_table_points(camera, pose, np.stack(np.meshgrid(us, vs), axis=-1).reshape(-1, 2))
    texture = (table - origin_mm) * pixels_per_mm - 0.5
    map_x = texture[:, 0].reshape(len(vs), len(us)).astype(np.float32)
    map_y = texture[:, 1].reshape(len(vs), len(us)).astype(np.float32)
    colour_sheet = cv2.cvtColor(sheet, cv2.COLOR_GRAY2BGR) if sheet.ndim == 2 else sheet
    fine = cv2.remap(colour_sheet, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=TABLE_BGR)
    return fine.reshape(height, supersample, width, supersample, 3).astype(np.float32).mean(axis=(1, 3))


def printed_board(pixels_per_mm: float) -> tuple[np.ndarray, tuple[float, float]]:
    """The board on white paper, and the board-mm position of the paper's top-left corner."""
    board = board_image(pixels_per_mm)
    margin = round(PAPER_MARGIN_MM * pixels_per_mm)
    paper = cv2.copyMakeBorder(board, margin, margin, margin, margin, cv2.BORDER_CONSTANT, value=255)
    offset = -margin / pixels_per_mm
    return paper, (offset, offset)


def finish(image: np.ndarray, blur_sigma: float = 0.0, noise_sigma: float = 0.0, seed: int = 0) -> np.ndarray:
    """Blur and add Gaussian noise to a float rendering; return uint8."""
    out = image.astype(np.float32)
    if blur_sigma > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur_sigma)
    if noise_sigma > 0:
        out += np.random.default_rng(seed).normal(0.0, noise_sigma, out.shape).astype(np.float32)
    return np.clip(np.rint(out), 0, 255).astype(np.uint8)
