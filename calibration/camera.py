"""Camera intrinsics from photos of the ChArUco board, stored as calibration kind "camera".

Intrinsics are optional for the rest of hivecam: without them the detector assumes an
ideal pinhole camera.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Sequence

import cv2
import numpy as np

from calibration import files
from calibration.charuco import BoardView, detect_board
from calibration.errors import CalibrationError

KIND = "camera"
VERSION = 1
MIN_VIEWS = 5
MIN_SIDE, MAX_SIDE = 16, 16384  # pixels
MAX_DISTORTION = 1000.0  # |coefficient|; real lenses stay far below
ASPECT_TOLERANCE = 0.01  # frames of this camera at another resolution: same shape within 1 %
UNDISTORT_CRITERIA = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 50, 1e-12)


@dataclass(frozen=True)
class CameraModel:
    """Pinhole intrinsics plus OpenCV distortion coefficients for one image size."""

    matrix: np.ndarray  # 3x3 camera matrix K
    distortion: np.ndarray  # OpenCV coefficients (k1, k2, p1, p2, k3, ...)
    image_size: tuple[int, int]  # (width, height) in pixels
    rms_error: float = 0.0  # reprojection error of the calibration, pixels
    views: int = 0

    @property
    def focal_px(self) -> float:
        """Mean focal length in pixels."""
        return float((self.matrix[0, 0] + self.matrix[1, 1]) / 2)

    def at_size(self, width: int, height: int) -> "CameraModel":
        """This camera delivering ``width`` x ``height`` frames: the same lens, its matrix scaled.

        ``CalibrationError`` if the aspect ratio differs (the sensor is cropped differently)."""
        if (width, height) == tuple(self.image_size):
            return self
        resized = self._resized.get((width, height))
        if resized is None:
            w, h = self.image_size
            if abs(width * h - height * w) > ASPECT_TOLERANCE * w * h:
                self.check_size(width, height, "frame")
            sx, sy = width / w, height / h
            scale = np.array([[sx, 0.0, (sx - 1) / 2], [0.0, sy, (sy - 1) / 2], [0.0, 0.0, 1.0]])  # pixel centres
            resized = replace(self, matrix=scale @ self.matrix, image_size=(width, height))
            self._resized[(width, height)] = resized
        return resized

    def cropped(self, x: float, y: float, zoom: float) -> "CameraModel":
        """This camera showing part of its view, as a sensor crop does: the frame's pixel (0, 0)
        is this camera's (``x``, ``y``), and the frame is ``zoom`` times larger (same size, same lens)."""
        shift = (zoom - 1) / 2  # pixel centres
        crop = np.array([[zoom, 0.0, shift - zoom * x], [0.0, zoom, shift - zoom * y], [0.0, 0.0, 1.0]])
        return replace(self, matrix=crop @ self.matrix)

    @cached_property
    def _resized(self) -> dict[tuple[int, int], "CameraModel"]:
        return {}

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """Pixel positions (N, 2) of this camera's frames as an ideal pinhole camera with the
        same matrix would show them (for frames of another size, ``at_size`` first)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix,
                                   criteria=UNDISTORT_CRITERIA).reshape(-1, 2)

    def distort_points(self, points: np.ndarray) -> np.ndarray:
        """Pixel positions (N, 2) of the undistorted image as the lens shows them: the inverse
        of ``undistort_points``."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        rays = np.column_stack([pts, np.ones(len(pts))]) @ np.linalg.inv(self.matrix).T
        shown, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), self.matrix, self.distortion)
        return shown.reshape(-1, 2)

    def check_size(self, width: int, height: int, what: str) -> None:
        """Raise ``CalibrationError`` if a ``what`` of ``width`` x ``height`` does not match."""
        if (width, height) != tuple(self.image_size):
            w, h = self.image_size
            raise CalibrationError(
                f"{what} is {width}x{height} but the camera was calibrated at {w}x{h}; use the same "
                f"resolution (or one of the same shape) or {files.RECALIBRATE_HINT[KIND]}")

    def to_dict(self) -> dict:
        return {"matrix": self.matrix.tolist(), "distortion": self.distortion.ravel().tolist(),
                "image_size": list(self.image_size), "rms_error": self.rms_error, "views": self.views}

    @classmethod
    def from_dict(cls, data: dict, source: str = "camera data") -> "CameraModel":
        try:
            matrix = files.array(data["matrix"], (3, 3), "matrix")
            distortion = files.array(data["distortion"], (None,), "distortion")
            width, height = (int(v) for v in files.array(data["image_size"], (2,), "image_size"))
            rms_error = float(files.array(data.get("rms_error", 0.0), (), "rms_error"))
            views = int(files.array(data.get("views", 0), (), "views"))
            model = cls(matrix, distortion, (width, height), rms_error, views)
            _check_intrinsics(model)
        except KeyError as exc:
            raise files.CalibrationFileError(
                f"{source}: camera calibration is incomplete (no {exc}); {files.RECALIBRATE_HINT[KIND]}") from exc
        except (TypeError, ValueError) as exc:
            raise files.CalibrationFileError(
                f"{source}: unusable camera calibration ({exc}); {files.RECALIBRATE_HINT[KIND]}") from exc
        return model

    def save(self, path: str | os.PathLike[str]) -> None:
        files.save(path, KIND, VERSION, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "CameraModel":
        return cls.from_dict(files.load(path, KIND, VERSION), str(path))


def _check_intrinsics(model: CameraModel) -> None:
    """``ValueError`` unless ``model`` is a possible camera: sensible size, positive focal
    lengths, principal point inside the image, the matrix's last row (0, 0, 1)."""
    (width, height), k = model.image_size, model.matrix
    if not (MIN_SIDE <= width <= MAX_SIDE and MIN_SIDE <= height <= MAX_SIDE):
        raise ValueError(f"image_size {width}x{height} is not a camera resolution")
    if not (k[0, 0] > 0 and k[1, 1] > 0 and 0 <= k[0, 2] <= width and 0 <= k[1, 2] <= height):
        raise ValueError("matrix has no positive focal lengths or its centre lies outside the image")
    if k[1, 0] != 0 or k[2].tolist() != [0.0, 0.0, 1.0]:
        raise ValueError("matrix is not a camera matrix (its last row must be 0, 0, 1)")
    if model.distortion.size not in (4, 5, 8, 12, 14) or np.abs(model.distortion).max() > MAX_DISTORTION:
        raise ValueError("distortion must be 4, 5, 8, 12 or 14 moderate coefficients")


def calibrate_camera(images: Sequence[np.ndarray], names: Sequence[str] | None = None
                     ) -> tuple[CameraModel, list[str]]:
    """Intrinsics from photos of the board; return the model and the names of skipped photos.

    Photos in which the board is not found are skipped; at least ``MIN_VIEWS`` usable views
    (board tilted differently in each, covering the frame) are required. ``k3`` is held at
    zero: Pi camera lenses need only k1, k2 and the tangential terms, and a free k3 overfits
    the image corners the board rarely reaches.
    """
    names = list(names) if names is not None else [f"image {i + 1}" for i in range(len(images))]
    if not images:
        raise CalibrationError(f"no images given; take at least {MIN_VIEWS} photos of the board")
    sizes = {(img.shape[1], img.shape[0]) for img in images}
    if len(sizes) > 1:
        first = (images[0].shape[1], images[0].shape[0])
        odd = next(i for i, img in enumerate(images) if (img.shape[1], img.shape[0]) != first)
        raise CalibrationError(
            f"images differ in size: {names[0]} is {first[0]}x{first[1]} but {names[odd]} is "
            f"{images[odd].shape[1]}x{images[odd].shape[0]}; take all photos at the camera's working resolution")
    views: list[BoardView] = []
    skipped: list[str] = []
    for image, name in zip(images, names):
        try:
            views.append(detect_board(image, name))
        except CalibrationError:
            skipped.append(name)
    if len(views) < MIN_VIEWS:
        missing = f"; board not found in: {', '.join(skipped)}" if skipped else ""
        raise CalibrationError(
            f"only {len(views)} usable view(s) of the board, need at least {MIN_VIEWS}{missing}")
    size = sizes.pop()
    rms, matrix, distortion, _, _ = cv2.calibrateCamera(
        [v.object_points for v in views], [v.image_points for v in views], size, None, None, flags=cv2.CALIB_FIX_K3)
    return CameraModel(matrix, distortion.ravel(), size, float(rms), len(views)), skipped
