"""The table plane: pixel <-> table millimetres, for the table itself or any height above it.

A ``TableModel`` holds the homography ``H0`` from table mm (x, y, 1) to undistorted pixels
and the image ``v`` of the table's normal (its vertical vanishing point, on the same
scale). A plane ``h`` mm above the table maps by ``H0`` with its last column replaced by
``H0[:, 2] - h * v``; this is the tile-top correction (tiles are 10-12 mm tall, and a
table-plane mapping misplaces their tops by ``h * d / (Z - h)`` mm at distance ``d`` from
the camera's foot point, ``Z`` = camera height).

``v`` needs the camera pose. With calibrated intrinsics the pose comes from ``solvePnP``.
Without them the camera is taken as an ideal pinhole with its principal point at the image
centre and a focal length from an assumed field of view (or ``focal_px``); ``H0`` is then
the measured homography itself, exact on the table, and ``v`` is obtained by decomposing
it. A focal length off by x % changes the tile-top correction by about x % (a fraction of
a millimetre for a 12 mm tile), and never the mapping of the table plane itself.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Callable, Sequence

import cv2
import numpy as np

from calibration import files
from calibration.camera import CameraModel
from calibration.charuco import detect_board
from calibration.errors import CalibrationError

KIND = "table"
VERSION = 1
DEFAULT_HFOV_DEG = 66.0  # Raspberry Pi Camera Module 3, standard lens
DEFAULT_TILE_HEIGHT_MM = 11.0
MIN_HOMOGRAPHY_TILES = 5


@dataclass(frozen=True)
class TableModel:
    """Camera-to-table geometry; see the module docstring for the representation."""

    homography: np.ndarray  # 3x3, table mm at height 0 -> undistorted pixels
    vertical: np.ndarray  # (3,), image of the table normal, same scale as ``homography``
    camera: CameraModel  # calibrated, or an assumed ideal pinhole (``views == 0``)
    source: str  # how it was measured: "board", "board+intrinsics", "tiles", "tiles+intrinsics"
    rms_error: float = 0.0  # pixels, of the points it was fitted to

    def homography_at(self, height_mm: float = 0.0) -> np.ndarray:
        """Homography from table mm to undistorted pixels for the plane ``height_mm`` above the table."""
        lifted = self.homography.copy()
        lifted[:, 2] -= height_mm * self.vertical
        return lifted

    def pixel_to_table(self, pixels: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Table (x, y) mm under image ``pixels`` (N, 2) lying on a plane ``height_mm`` up."""
        undistorted = self.camera.undistort_points(pixels).reshape(-1, 1, 2)
        inverse = np.linalg.inv(self.homography_at(height_mm))
        return cv2.perspectiveTransform(undistorted, inverse).reshape(-1, 2)

    def table_to_pixel(self, points_mm: np.ndarray, height_mm: float = 0.0) -> np.ndarray:
        """Image pixels (N, 2) of table points (N, 2) mm on a plane ``height_mm`` up."""
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        ideal = cv2.perspectiveTransform(pts, self.homography_at(height_mm)).reshape(-1, 2)
        rays = np.column_stack([ideal, np.ones(len(ideal))]) @ np.linalg.inv(self.camera.matrix).T
        pixels, _ = cv2.projectPoints(rays.reshape(-1, 1, 3), np.zeros(3), np.zeros(3), self.camera.matrix,
                                      self.camera.distortion)
        return pixels.reshape(-1, 2)

    def mm_per_pixel(self, pixel: tuple[float, float] | None = None, height_mm: float = 0.0) -> float:
        """Local scale (mm per pixel, geometric mean of both axes) at ``pixel`` (default: centre)."""
        if pixel is None:
            width, height = self.camera.image_size
            pixel = ((width - 1) / 2, (height - 1) / 2)
        return local_scale(lambda pixels: self.pixel_to_table(pixels, height_mm), pixel)

    @property
    def camera_position_mm(self) -> np.ndarray:
        """Camera centre as (x, y, height above the table) in table mm."""
        projection = np.column_stack([self.homography[:, :2], -self.vertical, self.homography[:, 2]])
        centre = np.linalg.svd(projection)[2][-1]
        return centre[:3] / centre[3]

    def to_dict(self) -> dict:
        return {"homography": self.homography.tolist(), "vertical": self.vertical.tolist(),
                "camera": self.camera.to_dict(), "source": self.source, "rms_error": self.rms_error}

    @classmethod
    def from_dict(cls, data: dict, source: str = "table data") -> "TableModel":
        hint = files.RECALIBRATE_HINT[KIND]
        try:
            homography = files.array(data["homography"], (3, 3), "homography")
            vertical = files.array(data["vertical"], (3,), "vertical")
            model = cls(homography, vertical, CameraModel.from_dict(data["camera"], source), str(data["source"]),
                        float(files.array(data.get("rms_error", 0.0), (), "rms_error")))
        except KeyError as exc:
            raise files.CalibrationFileError(f"{source}: table calibration is incomplete (no {exc}); {hint}") from exc
        except (TypeError, ValueError) as exc:
            raise files.CalibrationFileError(f"{source}: unusable table calibration ({exc}); {hint}") from exc
        if abs(np.linalg.det(homography)) < 1e-12:
            raise files.CalibrationFileError(f"{source}: table calibration has a degenerate homography; {hint}")
        return model

    def save(self, path: str | os.PathLike[str]) -> None:
        files.save(path, KIND, VERSION, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "TableModel":
        return cls.from_dict(files.load(path, KIND, VERSION), str(path))


def local_scale(pixel_to_table: Callable[[np.ndarray], np.ndarray], pixel: tuple[float, float]) -> float:
    """Geometric-mean mm per pixel of a pixel -> table mapping around ``pixel`` (central differences)."""
    x, y = pixel
    table = pixel_to_table(np.array([[x - 0.5, y], [x + 0.5, y], [x, y - 0.5], [x, y + 0.5]]))
    return math.sqrt(abs(np.linalg.det(np.column_stack([table[1] - table[0], table[3] - table[2]]))))


def assumed_camera(image_size: tuple[int, int], focal_px: float | None = None) -> CameraModel:
    """An ideal pinhole for ``image_size``: centred principal point, focal from ``DEFAULT_HFOV_DEG``."""
    width, height = image_size
    focal = focal_px or width / (2 * math.tan(math.radians(DEFAULT_HFOV_DEG) / 2))
    matrix = np.array([[focal, 0, (width - 1) / 2], [0, focal, (height - 1) / 2], [0, 0, 1]])
    return CameraModel(matrix, np.zeros(5), (width, height))


def table_from_board(image: np.ndarray, camera: CameraModel | None = None, focal_px: float | None = None,
                     name: str = "image") -> TableModel:
    """Table plane from one photo of the ChArUco board lying flat on the table.

    Table coordinates are the board's: mm from its top-left corner (see ``calibration.charuco``).
    """
    size = (image.shape[1], image.shape[0])
    view = detect_board(image, name)
    if camera is None:
        model_camera = assumed_camera(size, focal_px)
        plane, _ = cv2.findHomography(view.object_points[:, :2], view.image_points, 0)
        return _from_plane_homography(plane, 0.0, model_camera, "board", view.object_points[:, :2],
                                      view.image_points)
    camera.check_size(*size, name)
    ok, rvec, tvec = cv2.solvePnP(view.object_points, view.image_points, camera.matrix, camera.distortion,
                                  flags=cv2.SOLVEPNP_IPPE)
    if not ok:
        raise CalibrationError(f"{name}: cannot find the board's pose; retake the photo with the whole board in view")
    rotation = cv2.Rodrigues(rvec)[0]
    plane = camera.matrix @ np.column_stack([rotation[:, 0], rotation[:, 1], tvec.ravel()])
    return _from_plane_homography(plane, 0.0, camera, "board+intrinsics", view.object_points[:, :2],
                                  camera.undistort_points(view.image_points))


def hex_lattice_mm(cells: Sequence[tuple[int, int]], across_flats_mm: float) -> np.ndarray:
    """Table mm of pointy-topped axial ``cells`` (``rules.hexgrid``) for touching tiles."""
    axial = np.asarray(cells, np.float64).reshape(-1, 2)
    return across_flats_mm * np.column_stack([axial[:, 0] + axial[:, 1] / 2, axial[:, 1] * math.sqrt(3) / 2])


def table_from_tiles(centres_px: np.ndarray, cells: Sequence[tuple[int, int]], across_flats_mm: float,
                     image_size: tuple[int, int], tile_height_mm: float = DEFAULT_TILE_HEIGHT_MM,
                     camera: CameraModel | None = None, focal_px: float | None = None) -> TableModel:
    """Table plane from detected tile-top centres (pixels) and their axial cells, no printout.

    Table coordinates are those of the hex lattice: cell (0, 0) at the origin, east along +x.
    Five or more cells not all in one line give a full homography; fewer give a similarity
    (rotation, scale, shift), which assumes the camera looks straight down.
    """
    lattice = hex_lattice_mm(cells, across_flats_mm)
    if len(lattice) != len(np.asarray(centres_px).reshape(-1, 2)):
        raise CalibrationError("table_from_tiles needs one pixel centre per cell")
    if len({tuple(c) for c in np.asarray(cells).reshape(-1, 2).tolist()}) < 2:
        raise CalibrationError("need at least two tiles on different cells to measure the table from tiles")
    if camera is not None:
        camera.check_size(*image_size, "frame")
    model_camera = camera if camera is not None else assumed_camera(image_size, focal_px)
    pixels = model_camera.undistort_points(centres_px)
    spread = np.linalg.svd(lattice - lattice.mean(axis=0), compute_uv=False)
    if len(lattice) >= MIN_HOMOGRAPHY_TILES and spread[1] > 0.2 * spread[0]:
        top, _ = cv2.findHomography(lattice, pixels, 0)
    else:
        similarity, _ = cv2.estimateAffinePartial2D(lattice, pixels, method=cv2.LMEDS)
        top = None if similarity is None else np.vstack([similarity, [0.0, 0.0, 1.0]])
    source = "tiles+intrinsics" if camera is not None else "tiles"
    return _from_plane_homography(top, tile_height_mm, model_camera, source, lattice, pixels)


def _from_plane_homography(plane: np.ndarray, plane_height_mm: float, camera: CameraModel, source: str,
                           points_mm: np.ndarray, undistorted_px: np.ndarray) -> TableModel:
    """Build the model from the homography of a plane ``plane_height_mm`` above the table.

    Decomposes ``K^-1 H = s [r1 r2 t]``: the vertical is ``s K r3`` with ``r3`` the unit
    normal pointing away from the camera, and the table plane is ``t`` moved by the height.
    """
    if plane is None or abs(np.linalg.det(plane)) < 1e-12:
        raise CalibrationError("the points do not determine a plane (too few, or all in a line)")
    metric = np.linalg.inv(camera.matrix) @ plane
    if metric[2, 2] < 0:
        plane, metric = -plane, -metric
    scale = (np.linalg.norm(metric[:, 0]) + np.linalg.norm(metric[:, 1])) / 2
    normal = np.cross(metric[:, 0], metric[:, 1])
    normal *= np.sign(normal[2]) / np.linalg.norm(normal)
    vertical = scale * camera.matrix @ normal
    table = plane.copy()
    table[:, 2] += plane_height_mm * vertical
    fitted = cv2.perspectiveTransform(np.asarray(points_mm, np.float64).reshape(-1, 1, 2), plane).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((fitted - undistorted_px) ** 2, axis=1))))
    norm = table[2, 2]
    return TableModel(table / norm, vertical / norm, camera, source, rms)
