"""``hivecam detect IMAGE [--profile P] [--camera-file C] [--game-type T]``: print the tiles of one photo as JSON."""

from __future__ import annotations

import argparse
import json
import sys

from calibration.camera import CameraModel
from calibration.files import CalibrationFileError
from rules.gametype import GameType
from vision.detect import Detector
from vision.images import read_image
from vision.profile import CreatureProfile, default_profile


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", metavar="IMAGE", help="a photo or frame (png, jpg...)")
    parser.add_argument("--profile", help="creature profile from 'hivecam calibrate enroll' (default: built-in)")
    parser.add_argument("--camera-file", help="camera intrinsics (hivecam calibrate camera): the hive's lattice "
                                              "bent through the lens")
    parser.add_argument("--game-type", type=_game_type, help="read only this game's creatures (e.g. Base: "
                                                                 "no Mosquito, Ladybug or Pillbug; default: any)")
    parser.add_argument("--calibration", dest="old_camera_file", help=argparse.SUPPRESS)  # the old name


def _game_type(text: str) -> GameType:
    """``--game-type``'s value; argparse names the problem of one that is not a game type."""
    try:
        return GameType.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run(args: argparse.Namespace) -> int:
    if args.old_camera_file:
        print("hivecam detect: --calibration is now called --camera-file (as in serve and referee); "
              "the old name will go", file=sys.stderr)
    camera_file = args.camera_file or args.old_camera_file
    try:
        frame = read_image(args.image)
        profile = CreatureProfile.load(args.profile) if args.profile else default_profile()
        camera = CameraModel.load(camera_file) if camera_file else None
        detector = Detector(profile, camera)
        if args.game_type is not None:
            detector.expect(args.game_type.bugs)
        observation = detector.detect(frame)
    except (CalibrationFileError, ValueError) as exc:
        print(f"hivecam detect: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(observation.to_dict()))
    return 0
