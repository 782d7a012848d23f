"""Calibration accuracy on rendered views of the ChArUco board from a known camera.

    python benchmarks/calibration_bench.py [--views 12] [--seed 0]

Prints the focal-length and principal-point errors of the intrinsics recovered from the
rendered views, and the reprojection RMS.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.camera import CameraModel, calibrate_camera  # noqa: E402
from calibration.synthetic import Pose, finish, printed_board, render_sheet, survey_poses  # noqa: E402

IMAGE_SIZE = (1280, 960)
TRUE_CAMERA = CameraModel(np.array([[1000.0, 0.0, 645.0], [0.0, 1003.0, 474.0], [0.0, 0.0, 1.0]]),
                          np.array([-0.09, 0.05, 0.0008, -0.0004, 0.0]), IMAGE_SIZE)
SHEET_PIXELS_PER_MM = 6.0


def render(pose: Pose, seed: int) -> np.ndarray:
    sheet, origin = printed_board(SHEET_PIXELS_PER_MM)
    return finish(render_sheet(TRUE_CAMERA, pose, sheet, SHEET_PIXELS_PER_MM, origin), 0.8, 2.0, seed)


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


if __name__ == "__main__":
    main()
