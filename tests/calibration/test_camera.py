"""Camera intrinsics recovered from rendered photos, and the errors users can run into."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.camera import MIN_VIEWS, CameraModel, calibrate_camera
from calibration.charuco import detect_board
from calibration.errors import CalibrationError
from calibration.files import CalibrationFileError
from calibration.synthetic import Pose


@pytest.fixture(scope="module")
def calibrated(survey_views) -> CameraModel:
    model, skipped = calibrate_camera(survey_views)
    assert skipped == []
    return model


def test_focal_length_within_one_percent(calibrated, true_camera):
    assert abs(calibrated.focal_px / true_camera.focal_px - 1) < 0.01
    assert np.abs(calibrated.matrix[:2, 2] - true_camera.matrix[:2, 2]).max() < 5.0
    assert calibrated.rms_error < 0.5 and calibrated.views == 8


def test_undistortion_matches_the_true_lens_inside_the_frame(calibrated, true_camera):
    inner = np.stack(np.meshgrid(np.linspace(60, 580, 6), np.linspace(60, 420, 5)), axis=-1).reshape(-1, 2)
    error = calibrated.undistort_points(inner) - true_camera.undistort_points(inner)
    assert np.abs(error).max() < 1.0


def test_distorting_points_undoes_undistorting_them(true_camera):
    """The lattice is fitted to pinhole positions and bent back through the lens to meet pixels."""
    xs, ys = np.meshgrid(np.linspace(5, 634, 9), np.linspace(5, 474, 7))
    seen = np.column_stack([xs.ravel(), ys.ravel()])
    pinhole = true_camera.undistort_points(seen)
    assert np.abs(pinhole - seen).max() > 10  # the corners move: the lens bends them
    assert np.allclose(true_camera.distort_points(pinhole), seen, atol=0.01)


def _pinhole_corners(camera: CameraModel, photo: np.ndarray) -> np.ndarray:
    """The board's corners found in ``photo``, as an ideal pinhole ``camera`` would show them."""
    height, width = photo.shape[:2]
    return camera.at_size(width, height).undistort_points(detect_board(photo).image_points)


def test_undistorted_corners_match_an_ideal_pinhole_view(calibrated, true_camera, photograph):
    pose = Pose.look_at(np.array([40.0, 60.0, -400.0]), np.array([100.0, 140.0, 0.0]))
    photo = photograph(true_camera, pose, seed=1)
    ideal = photograph(CameraModel(calibrated.matrix, np.zeros(5), (640, 480)), pose, seed=2)
    expected = detect_board(ideal).image_points
    assert np.abs(detect_board(photo).image_points - expected).max() > 1.0  # the lens bends the board
    assert np.abs(_pinhole_corners(calibrated, photo) - expected).max() < 0.4
    with pytest.raises(CalibrationError, match="calibrated at 640x480"):
        calibrated.at_size(480, 480)  # another shape: a different crop


def test_a_frame_of_another_resolution_of_the_same_shape_is_undistorted_rescaled(calibrated, true_camera,
                                                                                photograph):
    pose = Pose.look_at(np.array([40.0, 60.0, -400.0]), np.array([100.0, 140.0, 0.0]))
    photo = photograph(true_camera, pose, seed=1)
    half = cv2.resize(photo, (320, 240), interpolation=cv2.INTER_AREA)
    full_size = _pinhole_corners(calibrated, photo)
    half_size = _pinhole_corners(calibrated, half)
    assert np.abs((half_size + 0.5) * 2 - 0.5 - full_size).max() < 1.5  # the same undistorted board, halved
    assert np.abs((calibrated.undistort_points(detect_board(half).image_points) + 0.5) * 2 - 0.5
                  - full_size).max() > 3.0  # undistorted as if full size: wrong


def test_a_crop_of_the_sensor_is_undistorted_as_that_part_of_the_lens(calibrated, true_camera, photograph):
    pose = Pose.look_at(np.array([40.0, 60.0, -700.0]), np.array([100.0, 140.0, 0.0]))
    whole_photo = photograph(true_camera, pose, seed=1)
    whole = detect_board(whole_photo)
    x, y, zoom = 200.0, 120.0, 2.0
    crop = photograph(true_camera.cropped(x, y, zoom), pose, seed=1)  # the sensor's pixels of that part, 2x larger
    expected = {tuple(corner): (seen + 0.5 - [x, y]) * zoom - 0.5
                for corner, seen in zip(whole.object_points, _pinhole_corners(calibrated, whole_photo))}
    seen = detect_board(crop)

    def error(lens: CameraModel) -> float:
        common = [(found, expected[tuple(corner)])
                  for corner, found in zip(seen.object_points, lens.undistort_points(seen.image_points))
                  if tuple(corner) in expected]
        assert len(common) >= 15
        return max(float(np.abs(found - want).max()) for found, want in common)

    assert error(calibrated.cropped(x, y, zoom)) < 1.0
    assert error(calibrated) > 2.0  # undistorted as the whole lens: bent wrong


def test_save_and_load_round_trip(calibrated, tmp_path):
    calibrated.save(tmp_path / "camera.json")
    loaded = CameraModel.load(tmp_path / "camera.json")
    np.testing.assert_allclose(loaded.matrix, calibrated.matrix)
    np.testing.assert_allclose(loaded.distortion, calibrated.distortion)
    assert loaded.image_size == (640, 480) and loaded.rms_error == calibrated.rms_error


def test_photos_without_the_board_are_skipped_and_named(survey_views):
    blank = np.full_like(survey_views[0], 90)
    model, skipped = calibrate_camera([*survey_views[:MIN_VIEWS], blank], [f"p{i}.jpg" for i in range(MIN_VIEWS + 1)])
    assert skipped == [f"p{MIN_VIEWS}.jpg"] and model.views == MIN_VIEWS


def test_too_few_views_says_how_many_are_needed_and_which_failed(survey_views):
    blank = np.full_like(survey_views[0], 90)
    expected = rf"only 2 usable view\(s\).*at least {MIN_VIEWS}.*not found in: empty.jpg"
    with pytest.raises(CalibrationError, match=expected):
        calibrate_camera([survey_views[0], survey_views[1], blank], ["a.jpg", "b.jpg", "empty.jpg"])


def test_mismatched_image_sizes_name_both_images(survey_views):
    small = survey_views[1][::2, ::2]
    with pytest.raises(CalibrationError, match=r"a.jpg is 640x480 but b.jpg is 320x240"):
        calibrate_camera([survey_views[0], small], ["a.jpg", "b.jpg"])


def test_malformed_camera_values_are_a_file_error(tmp_path):
    from calibration import files

    files.save(tmp_path / "camera.json", "camera", 1, {"matrix": [[1, 0], [0, 1]], "distortion": [0] * 5,
                                                       "image_size": [640, 480]})
    with pytest.raises(CalibrationFileError, match="hivecam calibrate camera"):
        CameraModel.load(tmp_path / "camera.json")
