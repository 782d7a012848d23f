"""Rendered views of the ChArUco board from a known camera, shared by the calibration tests."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import CameraModel
from calibration.synthetic import Pose, finish, printed_board, render_sheet, survey_poses

SHEET_PIXELS_PER_MM = 4.0


@pytest.fixture(scope="session")
def true_camera() -> CameraModel:
    """A 640x480 camera with visible barrel distortion and an off-centre principal point."""
    matrix = np.array([[560.0, 0.0, 323.0], [0.0, 562.0, 236.0], [0.0, 0.0, 1.0]])
    return CameraModel(matrix, np.array([-0.10, 0.04, 0.001, -0.0005, 0.0]), (640, 480))


@pytest.fixture(scope="session")
def printed() -> tuple[np.ndarray, tuple[float, float]]:
    return printed_board(SHEET_PIXELS_PER_MM)


def render(camera: CameraModel, pose: Pose, printed: tuple[np.ndarray, tuple[float, float]], seed: int = 0
           ) -> np.ndarray:
    sheet, origin = printed
    return finish(render_sheet(camera, pose, sheet, SHEET_PIXELS_PER_MM, origin), blur_sigma=0.7,
                  noise_sigma=2.0, seed=seed)


@pytest.fixture(scope="session")
def photograph(printed):
    """Render the printed board from ``camera`` at ``pose``, with blur and sensor noise."""
    return lambda camera, pose, seed=0: render(camera, pose, printed, seed)


@pytest.fixture(scope="session")
def survey_views(true_camera, printed) -> list[np.ndarray]:
    """Eight photos of the board from varied tilted poses, as a user would take them."""
    return [render(true_camera, pose, printed, seed) for seed, pose in enumerate(survey_poses(8, 400.0, seed=3))]


@pytest.fixture(scope="session")
def overhead_pose() -> Pose:
    """The camera on its arm: 550 mm above the table, slightly to the side, looking down at an angle."""
    return Pose.look_at(np.array([40.0, 60.0, -550.0]), np.array([100.0, 140.0, 0.0]))


@pytest.fixture(scope="session")
def overhead_view(true_camera, printed, overhead_pose) -> np.ndarray:
    return render(true_camera, overhead_pose, printed, seed=99)
