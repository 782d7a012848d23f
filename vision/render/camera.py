"""The synthetic camera: pose above the table, pinhole intrinsics and radial lens distortion.

Table coordinates are millimetres: x east, y south, z down into the table (so points above
the table have z < 0). The camera's image x runs along its right, image y down.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from calibration.camera import CameraModel

WIDTH, HEIGHT = 1280, 720
HFOV_DEG = 66.0  # Raspberry Pi Camera Module 3, standard lens
WIDE_HFOV_DEG = 102.0  # Raspberry Pi Camera Module 3 Wide


@dataclass(frozen=True)
class SyntheticCamera:
    """Where the camera is and how it images: ``pixel = distort(K [R | t] x_table)``."""

    rotation: np.ndarray  # 3x3, table -> camera
    translation: np.ndarray  # (3,)
    matrix: np.ndarray  # 3x3 intrinsics K
    k1: float = 0.0  # radial distortion coefficients (OpenCV convention)
    k2: float = 0.0
    fit_canvas: bool = False  # shrink the pinhole canvas so barrel distortion smears no corners
    view: tuple[float, float, float] = (0.0, 0.0, 1.0)  # (x, y, zoom) of a sensor crop, see ``cropped``

    @classmethod
    def looking_at(cls, target: np.ndarray, height_mm: float, tilt_deg: float, azimuth_deg: float,
                   yaw_deg: float, k1: float = 0.0, k2: float = 0.0,
                   hfov_deg: float = HFOV_DEG, fit_canvas: bool = False) -> "SyntheticCamera":
        """A camera ``height_mm`` above the table, tilted ``tilt_deg`` from vertical, aimed at ``target``.

        ``azimuth_deg`` says from which side it leans; ``yaw_deg`` turns the image about the view axis;
        ``hfov_deg`` is the lens's horizontal field of view; ``fit_canvas`` see ``canvas_matrix``.
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
        focal = (WIDTH / 2) / np.tan(np.radians(hfov_deg / 2))
        matrix = np.array([[focal, 0, WIDTH / 2], [0, focal, HEIGHT / 2], [0, 0, 1]])
        return cls(rotation, -rotation @ position, matrix, k1, k2, fit_canvas)

    def intrinsics(self) -> CameraModel:
        """What ``hivecam calibrate camera`` measures of this camera's whole view: its pinhole
        matrix and radial lens distortion."""
        return CameraModel(self.matrix, np.array([self.k1, self.k2, 0.0, 0.0, 0.0]), (WIDTH, HEIGHT))

    def cropped(self, x: float, y: float, zoom: float) -> "SyntheticCamera":
        """The camera showing only part of its whole view, as a sensor crop does: the frame's pixel
        (0, 0) is the whole view's (``x``, ``y``), and the frame is ``zoom`` times larger."""
        return replace(self, view=(float(x), float(y), float(zoom)))

    @property
    def position(self) -> np.ndarray:
        """Camera centre in table mm."""
        return -self.rotation.T @ self.translation

    @property
    def canvas_matrix(self) -> np.ndarray:
        """Intrinsics of the pinhole canvas drawn before the lens bends it.

        With ``fit_canvas``, under barrel distortion its focal length shrinks just enough that the
        whole frame's view fits inside the canvas (no smeared corners); otherwise it is ``matrix``.
        A cropped camera's canvas holds just what its crop sees, as large as the canvas allows.
        """
        matrix = self.matrix.copy()
        if self.fit_canvas:
            focal = float(self.matrix[0, 0])
            matrix[:2, :2] *= _canvas_scale(round(self.k1, 3), round(self.k2, 3), round(focal, 1))
        if self.view == (0.0, 0.0, 1.0):
            return matrix
        return _crop_fit(self.view, self.matrix, matrix, self.k1, self.k2) @ matrix

    def project_ideal(self, points: np.ndarray) -> np.ndarray:
        """Pinhole canvas pixels (N, 2) of table points (N, 3), before lens distortion."""
        cam = np.asarray(points, np.float64).reshape(-1, 3) @ self.rotation.T + self.translation
        pix = cam @ self.canvas_matrix.T
        return pix[:, :2] / pix[:, 2:3]

    def project(self, points: np.ndarray) -> np.ndarray:
        """Pixels (N, 2) of table points (N, 3) as the distorting lens images them."""
        canvas = self.canvas_matrix
        normalised = (self.project_ideal(points) - canvas[:2, 2]) / canvas[0, 0]
        whole = distort_pixels(normalised * self.matrix[0, 0] + self.matrix[:2, 2], self.matrix, self.k1, self.k2)
        x, y, zoom = self.view
        return (whole - [x, y]) * zoom

    def depth(self, points: np.ndarray) -> np.ndarray:
        """Distance along the view axis of table points (N, 3)."""
        return (np.asarray(points, np.float64).reshape(-1, 3) @ self.rotation.T + self.translation)[:, 2]

    def apply_distortion(self, ideal_image: np.ndarray, nearest: bool = False) -> np.ndarray:
        """The image the distorting lens forms of a scene whose pinhole image is ``ideal_image``.

        ``nearest`` samples without blending (for label images).
        """
        if self.k1 == 0.0 and self.k2 == 0.0:
            return ideal_image
        maps = _distortion_maps(round(self.k1, 3), round(self.k2, 3), round(float(self.matrix[0, 0]), 1),
                                self.fit_canvas, self.view)
        interpolation = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        return cv2.remap(ideal_image, *maps, interpolation, borderMode=cv2.BORDER_REPLICATE)


def distort_pixels(ideal: np.ndarray, matrix: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Apply radial distortion ``1 + k1 r^2 + k2 r^4`` to pinhole pixels (N, 2)."""
    centre = matrix[:2, 2]
    norm = (ideal - centre) / matrix[0, 0]
    r2 = (norm ** 2).sum(axis=1, keepdims=True)
    return centre + norm * (1 + k1 * r2 + k2 * r2 * r2) * matrix[0, 0]


def _undistorted_radius(seen: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """Normalised pinhole radius whose distorted radius is ``seen`` (Newton's method)."""
    radius = seen.copy()
    for _ in range(12):
        r2 = radius * radius
        excess = radius * (1 + k1 * r2 + k2 * r2 * r2) - seen
        radius -= excess / np.maximum(1 + 3 * k1 * r2 + 5 * k2 * r2 * r2, 0.05)
    return radius


def _square_border(low: float, count: int) -> np.ndarray:
    """Points (4 * count, 2) along the four sides of the square from (``low``, ``low``) to (1, 1),
    ``count`` a side."""
    steps = np.linspace(low, 1, count)
    return np.concatenate([np.column_stack([steps, np.full_like(steps, side)]) for side in (low, 1)] +
                          [np.column_stack([np.full_like(steps, side), steps]) for side in (low, 1)])


@lru_cache(maxsize=64)
def _canvas_scale(k1: float, k2: float, focal: float) -> float:
    """How much to shrink the canvas focal length so the whole frame's border fits inside it (1 when it does)."""
    seen = _square_border(-1.0, 257) * [WIDTH / 2 / focal, HEIGHT / 2 / focal]
    radius = np.hypot(seen[:, 0], seen[:, 1])
    reach = np.abs(seen) * (_undistorted_radius(radius, k1, k2) / radius)[:, None] * focal
    return float(min(1.0, WIDTH / 2 / reach[:, 0].max(), HEIGHT / 2 / reach[:, 1].max()))


def _unbent(dx: np.ndarray, dy: np.ndarray, k1: float, k2: float) -> np.ndarray:
    """How much farther from the centre the pinhole sees what the lens shows at normalised (dx, dy)."""
    seen = np.hypot(dx, dy)
    return np.where(seen > 0, _undistorted_radius(seen, k1, k2) / np.maximum(seen, 1e-9), 1.0)


def _crop_fit(view: tuple[float, float, float], matrix: np.ndarray, canvas: np.ndarray, k1: float,
              k2: float) -> np.ndarray:
    """The 3x3 map from the whole view's canvas to a crop's: what the crop sees, centred and as
    large as fits the canvas (just the crop's own pixels when the lens does not bend)."""
    x, y, zoom = view
    normalised = (_square_border(0.0, 33) * [WIDTH / zoom, HEIGHT / zoom] + [x, y] - matrix[:2, 2]) / matrix[0, 0]
    seen = normalised * _unbent(normalised[:, 0], normalised[:, 1], k1, k2)[:, None] * canvas[0, 0] + canvas[:2, 2]
    low, high = seen.min(axis=0), seen.max(axis=0)
    edge = 0 if k1 == k2 == 0.0 else 2  # canvas pixels kept clear round a bent view, for the remap's blending
    scale = min((WIDTH - 2 * edge) / (high[0] - low[0]), (HEIGHT - 2 * edge) / (high[1] - low[1]))
    middle = (low + high) / 2
    return np.array([[scale, 0, WIDTH / 2 - scale * middle[0]], [0, scale, HEIGHT / 2 - scale * middle[1]], [0, 0, 1]])


@lru_cache(maxsize=32)
def _distortion_maps(k1: float, k2: float, focal: float, fit_canvas: bool,
                     view: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    """For every distorted output pixel, the canvas pixel it shows, as compact remap maps (``view``:
    the crop (x, y, zoom) of the whole view the frame shows)."""
    x, y, zoom = view
    camera = SyntheticCamera(np.eye(3), np.zeros(3), np.array([[focal, 0, WIDTH / 2], [0, focal, HEIGHT / 2], [0, 0, 1]]),
                             k1, k2, fit_canvas, view)
    canvas = camera.canvas_matrix.tolist()  # Python floats: the maps are worked out in float32
    xs, ys = np.meshgrid(np.arange(WIDTH, dtype=np.float32), np.arange(HEIGHT, dtype=np.float32))
    dx, dy = (xs / zoom + x - WIDTH / 2) / focal, (ys / zoom + y - HEIGHT / 2) / focal
    scale = _unbent(dx, dy, k1, k2)
    map_x = (dx * scale * canvas[0][0] + canvas[0][2]).astype(np.float32)
    map_y = (dy * scale * canvas[1][1] + canvas[1][2]).astype(np.float32)
    return cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
