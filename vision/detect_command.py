"""``hivecam detect IMAGE [--profile P] [--calibration C]``: print the tiles of one photo as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from calibration.camera import CameraModel
from calibration.files import CalibrationFileError
from vision.detect import Detector
from vision.images import read_image
from vision.profile import CreatureProfile, default_profile


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", metavar="IMAGE", help="a photo or frame (png, jpg...)")
    parser.add_argument("--profile", help="creature profile from 'hivecam calibrate enroll' (default: built-in)")
    parser.add_argument("--calibration", help="camera calibration file: undistort before detecting")


def run(args: argparse.Namespace) -> int:
    try:
        frame = read_image(args.image)
        profile = CreatureProfile.load(args.profile) if args.profile else default_profile()
        camera = CameraModel.load(args.calibration) if args.calibration else None
        observation = Detector(profile, camera).detect(frame)
    except (CalibrationFileError, ValueError) as exc:
        print(f"hivecam detect: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(observation.to_dict()))
    return 0
