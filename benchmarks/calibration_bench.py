"""Calibration accuracy on rendered views of the ChArUco board from a known camera.

    python benchmarks/calibration_bench.py [--views 12] [--seed 0]

Prints the focal-length error of the intrinsics; then, for two camera placements, the
table-plane scale error at the image centre, the worst pixel -> table error (central half
of the view and whole view), and the worst error of the tile-top height correction against
the exact projection of the synthetic camera, for the board with and without intrinsics
and for the tiles-only fallback.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.camera import CameraModel, calibrate_camera  # noqa: E402
from calibration.synthetic import (Pose, exact_table_points, finish, printed_board, project,  # noqa: E402
                                   render_sheet, survey_poses)
from calibration.table import (TableModel, hex_lattice_mm, local_scale, table_from_board,  # noqa: E402
                               table_from_tiles)

IMAGE_SIZE = (1280, 960)
TRUE_CAMERA = CameraModel(np.array([[1000.0, 0.0, 645.0], [0.0, 1003.0, 474.0], [0.0, 0.0, 1.0]]),
                          np.array([-0.09, 0.05, 0.0008, -0.0004, 0.0]), IMAGE_SIZE)
TABLE_POSES = {  # the camera on its arm: nearly overhead, and from the side of the table
    "overhead": Pose.look_at(np.array([30.0, 50.0, -600.0]), np.array([100.0, 140.0, 0.0])),
    "oblique": Pose.look_at(np.array([-200.0, 50.0, -500.0]), np.array([150.0, 140.0, 0.0])),
}
SHEET_PIXELS_PER_MM = 6.0
TILE_HEIGHT_MM = 11.0
ACROSS_FLATS_MM = 42.0
TILE_NOISE_PX = 0.7


def render(pose: Pose, seed: int) -> np.ndarray:
    sheet, origin = printed_board(SHEET_PIXELS_PER_MM)
    return finish(render_sheet(TRUE_CAMERA, pose, sheet, SHEET_PIXELS_PER_MM, origin), 0.8, 2.0, seed)


def view_grid(margin: float, count: int = 15) -> np.ndarray:
    width, height = IMAGE_SIZE
    xs = np.linspace(margin * width, (1 - margin) * width - 1, count)
    ys = np.linspace(margin * height, (1 - margin) * height - 1, count)
    return np.stack(np.meshgrid(xs, ys), axis=-1).reshape(-1, 2)


def report_table(label: str, model: TableModel, pose: Pose, offset: np.ndarray = np.zeros(2)) -> None:
    centre = ((IMAGE_SIZE[0] - 1) / 2, (IMAGE_SIZE[1] - 1) / 2)
    true_scale = local_scale(lambda px: exact_table_points(TRUE_CAMERA, pose, px), centre)
    scale_error = (model.mm_per_pixel() / true_scale - 1) * 100
    errors = {}
    for name, margin in (("central half", 0.25), ("whole view", 0.0)):
        pixels = view_grid(margin)
        found = model.pixel_to_table(pixels) + offset
        errors[name] = np.linalg.norm(found - exact_table_points(TRUE_CAMERA, pose, pixels), axis=1).max()
    tops_px = view_grid(0.02)
    tops_mm = exact_table_points(TRUE_CAMERA, pose, tops_px, TILE_HEIGHT_MM)
    exact_shift = exact_table_points(TRUE_CAMERA, pose, tops_px) - tops_mm
    shift = model.pixel_to_table(tops_px) - model.pixel_to_table(tops_px, TILE_HEIGHT_MM)
    correction_error = np.linalg.norm(shift - exact_shift, axis=1).max()
    print(f"  {label:<26} scale {scale_error:+6.3f} %   map error: central {errors['central half']:6.2f} mm, "
          f"whole {errors['whole view']:6.2f} mm   tile-top shift <= {np.linalg.norm(exact_shift, axis=1).max():4.1f}"
          f" mm, its correction off by <= {correction_error:4.2f} mm")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--views", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    started = time.perf_counter()
    views = [render(pose, args.seed + i) for i, pose in enumerate(survey_poses(args.views, 650.0, args.seed))]
    rendered = time.perf_counter()
    camera, skipped = calibrate_camera(views)
    focal_error = (camera.focal_px / TRUE_CAMERA.focal_px - 1) * 100
    centre_error = np.linalg.norm(camera.matrix[:2, 2] - TRUE_CAMERA.matrix[:2, 2])
    print(f"intrinsics: {camera.views} of {args.views} views usable ({len(skipped)} without the board), "
          f"{IMAGE_SIZE[0]}x{IMAGE_SIZE[1]}, rendered in {rendered - started:.1f} s, "
          f"calibrated in {time.perf_counter() - rendered:.2f} s")
    print(f"  focal error {focal_error:+.3f} %   principal point off by {centre_error:.2f} px   "
          f"RMS {camera.rms_error:.3f} px")

    cells = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
    origin = np.array([100.0, 140.0])
    lattice = hex_lattice_mm(cells, ACROSS_FLATS_MM) + origin
    for index, (name, pose) in enumerate(TABLE_POSES.items()):
        photo = render(pose, args.seed + 100 + index)
        height = (pose.rotation.T @ pose.translation)[2]
        print(f"table plane, {name} camera {height:.0f} mm above the table, tile tops {TILE_HEIGHT_MM:g} mm:")
        report_table("board, no intrinsics", table_from_board(photo), pose)
        report_table("board, true focal only", table_from_board(photo, focal_px=TRUE_CAMERA.focal_px), pose)
        report_table("board + intrinsics", table_from_board(photo, camera), pose)
        noise = np.random.default_rng(args.seed + index).normal(0.0, TILE_NOISE_PX, (len(cells), 2))
        centres = project(TRUE_CAMERA, pose, lattice, TILE_HEIGHT_MM) + noise
        for label, intrinsics in (("tiles, no intrinsics", None), ("tiles + intrinsics", camera)):
            model = table_from_tiles(centres, cells, ACROSS_FLATS_MM, IMAGE_SIZE, TILE_HEIGHT_MM, camera=intrinsics)
            report_table(f"{label} ({len(cells)})", model, pose, origin)


if __name__ == "__main__":
    main()
