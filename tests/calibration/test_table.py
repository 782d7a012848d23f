"""The table plane from the board or from tiles, checked against the exact synthetic camera."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import calibrate_camera
from calibration.synthetic import exact_table_points, project
from calibration.table import TableModel, hex_lattice_mm, local_scale, table_from_board, table_from_tiles

TILE_HEIGHT_MM = 11.0
ACROSS_FLATS_MM = 42.0


def true_scale(camera, pose, pixel) -> float:
    return local_scale(lambda pixels: exact_table_points(camera, pose, pixels), pixel)


def grid(left, top, right, bottom, n=7) -> np.ndarray:
    return np.stack(np.meshgrid(np.linspace(left, right, n), np.linspace(top, bottom, n)), axis=-1).reshape(-1, 2)


@pytest.fixture(scope="module")
def models(overhead_view, true_camera, survey_views) -> dict[str, TableModel]:
    calibrated, _ = calibrate_camera(survey_views)
    return {"board": table_from_board(overhead_view), "board+intrinsics": table_from_board(overhead_view, calibrated),
            "board+true intrinsics": table_from_board(overhead_view, true_camera)}


@pytest.mark.parametrize("name", ["board", "board+intrinsics", "board+true intrinsics"])
def test_scale_within_one_percent(models, name, true_camera, overhead_pose):
    model = models[name]
    centre = (319.5, 239.5)
    assert model.mm_per_pixel() == pytest.approx(true_scale(true_camera, overhead_pose, centre), rel=0.01)


@pytest.mark.parametrize("name", ["board+intrinsics", "board+true intrinsics"])
def test_pixels_map_to_the_right_table_point_around_the_board(models, name, true_camera, overhead_pose):
    pixels = grid(100, 60, 540, 420)
    error = models[name].pixel_to_table(pixels) - exact_table_points(true_camera, overhead_pose, pixels)
    assert np.linalg.norm(error, axis=1).max() < 2.0
    back = models[name].table_to_pixel(models[name].pixel_to_table(pixels))
    np.testing.assert_allclose(back, pixels, atol=1e-3)


def test_camera_position_is_recovered_with_intrinsics(models, overhead_pose):
    truth = -overhead_pose.rotation.T @ overhead_pose.translation
    position = models["board+true intrinsics"].camera_position_mm
    np.testing.assert_allclose(position, [truth[0], truth[1], -truth[2]], atol=5.0)


@pytest.mark.parametrize("name, tolerance_mm", [("board", 1.2), ("board+intrinsics", 0.3)])
def test_tile_top_correction_moves_points_the_right_way_by_the_right_amount(models, name, tolerance_mm,
                                                                           true_camera, overhead_pose):
    model = models[name]
    tops_mm = grid(-150, -120, 330, 380)  # across most of the view, well beyond the board
    tops_px = project(true_camera, overhead_pose, tops_mm, TILE_HEIGHT_MM)
    correction = model.pixel_to_table(tops_px) - model.pixel_to_table(tops_px, TILE_HEIGHT_MM)
    exact = exact_table_points(true_camera, overhead_pose, tops_px) - tops_mm
    camera = -overhead_pose.rotation.T @ overhead_pose.translation
    outward = tops_mm - camera[:2]
    assert np.all(np.sum(correction * outward, axis=1) > 0)  # tops are pulled back towards the camera
    assert np.linalg.norm(exact, axis=1).max() > 4.0  # the effect is worth correcting
    assert np.linalg.norm(correction - exact, axis=1).max() < tolerance_mm


@pytest.mark.parametrize("intrinsics", [True, False])
def test_tiles_alone_give_the_table_plane(intrinsics, true_camera, overhead_pose):
    cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    lattice = hex_lattice_mm(cells, ACROSS_FLATS_MM)
    origin = np.array([90.0, 126.0])  # where cell (0, 0) lies in the synthetic table frame
    noise = np.random.default_rng(5).normal(0.0, 0.4, (len(cells), 2))
    centres = project(true_camera, overhead_pose, lattice + origin, TILE_HEIGHT_MM) + noise
    model = table_from_tiles(centres, cells, ACROSS_FLATS_MM, (640, 480), TILE_HEIGHT_MM,
                             camera=true_camera if intrinsics else None)
    around = grid(-100, -100, 100, 100) + origin  # the tiles' neighbourhood, on the table
    pixels = project(true_camera, overhead_pose, around)
    error = model.pixel_to_table(pixels) + origin - around
    assert np.linalg.norm(error, axis=1).max() < (2.0 if intrinsics else 4.0)
    centre = (319.5, 239.5)
    assert model.mm_per_pixel() == pytest.approx(true_scale(true_camera, overhead_pose, centre), rel=0.01)


def test_two_tiles_give_a_top_down_similarity():
    model = table_from_tiles(np.array([[300.0, 240.0], [360.0, 240.0]]), [(0, 0), (1, 0)], 42.0, (640, 480),
                             TILE_HEIGHT_MM, focal_px=560.0)
    assert model.mm_per_pixel(height_mm=TILE_HEIGHT_MM) == pytest.approx(42.0 / 60.0, rel=1e-6)
    np.testing.assert_allclose(model.pixel_to_table([[360.0, 240.0]], TILE_HEIGHT_MM), [[42.0, 0.0]], atol=1e-6)
    assert model.camera.focal_px == 560.0


def test_save_and_load_round_trip(models, tmp_path):
    original = models["board+intrinsics"]
    original.save(tmp_path / "table.json")
    loaded = TableModel.load(tmp_path / "table.json")
    pixels = grid(0, 0, 639, 479, 4)
    np.testing.assert_allclose(loaded.pixel_to_table(pixels, 11.0), original.pixel_to_table(pixels, 11.0))
    assert loaded.source == "board+intrinsics"
