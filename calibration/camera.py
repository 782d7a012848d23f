"""Camera intrinsics from photos of the ChArUco board, stored as calibration kind "camera".

Intrinsics are optional for the rest of hivecam: without them the table mapping assumes
an ideal pinhole camera (see ``calibration.table``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
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

    @cached_property
    def _undistort_maps(self) -> tuple[np.ndarray, np.ndarray]:
        return cv2.initUndistortRectifyMap(self.matrix, self.distortion, None, self.matrix, self.image_size,
                                           cv2.CV_16SC2)

    def undistort(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` with lens distortion removed (same camera matrix, same size)."""
        self.check_size(frame.shape[1], frame.shape[0], "frame")
        return cv2.remap(frame, *self._undistort_maps, cv2.INTER_LINEAR)

    def undistort_points(self, points: np.ndarray) -> np.ndarray:
        """Pixel positions (N, 2) as they would be in the undistorted image."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.undistortPoints(pts, self.matrix, self.distortion, P=self.matrix,
                                   criteria=UNDISTORT_CRITERIA).reshape(-1, 2)

    def check_size(self, width: int, height: int, what: str) -> None:
        """Raise ``CalibrationError`` if a ``what`` of ``width`` x ``height`` does not match."""
        if (width, height) != tuple(self.image_size):
            w, h = self.image_size
            raise CalibrationError(
                f"{what} is {width}x{height} but the camera was calibrated at {w}x{h}; use the same "
                f"resolution or {files.RECALIBRATE_HINT[KIND]}")

    def to_dict(self) -> dict:
        return {"matrix": self.matrix.tolist(), "distortion": self.distortion.ravel().tolist(),
                "image_size": list(self.image_size), "rms_error": self.rms_error, "views": self.views}

    @classmethod
    def from_dict(cls, data: dict, source: str = "camera data") -> "CameraModel":
        try:
            matrix = np.array(data["matrix"], np.float64)
            distortion = np.array(data["distortion"], np.float64)
            width, height = (int(v) for v in data["image_size"])
            model = cls(matrix, distortion, (width, height), float(data.get("rms_error", 0.0)),
                        int(data.get("views", 0)))
        except (KeyError, TypeError, ValueError) as exc:
            raise files.CalibrationFileError(
                f"{source}: camera calibration is incomplete ({exc}); {files.RECALIBRATE_HINT[KIND]}") from exc
        if matrix.shape != (3, 3) or distortion.size not in (4, 5, 8, 12, 14) or min(width, height) <= 0:
            raise files.CalibrationFileError(
                f"{source}: camera calibration has malformed values; {files.RECALIBRATE_HINT[KIND]}")
        return model

    def save(self, path: str | os.PathLike[str]) -> None:
        files.save(path, KIND, VERSION, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "CameraModel":
        return cls.from_dict(files.load(path, KIND, VERSION), str(path))


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
