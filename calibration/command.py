"""``hivecam calibrate``: print the board, and measure the camera and your set.

    hivecam calibrate board --out board.pdf            # print at 100 %, a square is 36 mm
    hivecam calibrate camera PHOTO... --out camera.json
    hivecam calibrate layout [--out layout.png]         # how to lay out your set for enroll
    hivecam calibrate enroll PHOTO... [--darker PHOTO...] [--layout FILE] --out PROFILE

Every failure prints one line to stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2

from calibration.camera import MIN_VIEWS, calibrate_camera
from calibration.charuco import SQUARE_MM, write_board
from calibration.errors import CalibrationError
from calibration.files import CalibrationFileError
from vision.images import read_image

EXIT_ERROR = 2


def configure(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    board = actions.add_parser("board", help="write the printable ChArUco board (.png or .pdf)")
    board.add_argument("--out", required=True, help="board.pdf or board.png")
    board.add_argument("--dpi", type=float, default=300.0, help="image resolution (default 300)")
    camera = actions.add_parser("camera", help="camera intrinsics from photos of the board")
    camera.add_argument("images", nargs="+", metavar="IMAGE", help=f"at least {MIN_VIEWS} photos, board tilted")
    camera.add_argument("--out", required=True, help="camera calibration file to write")
    layout = actions.add_parser("layout", help="print the enrollment layout (and draw it as a picture)")
    layout.add_argument("--out", help="also write a picture of the layout (.png)")
    layout.add_argument("--layout", help="a layout file to draw instead of the default")
    enroll = actions.add_parser("enroll", help="learn the look of your pieces from photos")
    enroll.add_argument("images", nargs="+", metavar="IMAGE")
    enroll.add_argument("--darker", nargs="+", metavar="IMAGE", default=[],
                        help="the same views taken darker (about 1.3 stops under), one per photo in order: tops a "
                             "lamp's glare washes out in a photo are learnt from its darker view")
    enroll.add_argument("--layout", help="text file describing where each piece lies")
    enroll.add_argument("--out", required=True, help="creature profile to write")


def _board(args: argparse.Namespace) -> None:
    path = write_board(args.out, args.dpi)
    print(f"{path}: print at 100% (actual size) and check that a square measures {SQUARE_MM:g} mm")


def _camera(args: argparse.Namespace) -> None:
    model, skipped = calibrate_camera([read_image(p) for p in args.images], args.images)
    for name in skipped:
        print(f"warning: {name}: board not found, photo skipped", file=sys.stderr)
    model.save(args.out)
    print(f"{args.out}: focal {model.focal_px:.1f} px, reprojection RMS {model.rms_error:.2f} px, "
          f"{model.views} views")


def _layout(args: argparse.Namespace) -> None:
    from calibration.layout import DEFAULT_LAYOUT, parse_layout
    from vision.enroll import layout_picture

    text = Path(args.layout).read_text(encoding="utf-8") if args.layout else DEFAULT_LAYOUT
    parse_layout(text)
    print("# q r piece  (axial cells: q runs east, r south-east; tiles touching)")
    print(text)
    if args.out:
        if not cv2.imwrite(args.out, layout_picture(text)):
            raise CalibrationError(f"{args.out}: cannot write the picture (use a .png name in a writable folder)")
        print(f"{args.out}: the layout as the camera should see it", file=sys.stderr)


def _enroll(args: argparse.Namespace) -> None:
    from calibration.layout import SECOND_PHOTO
    from vision.enroll import Photo, enroll

    if args.darker and len(args.darker) != len(args.images):
        raise CalibrationError(f"--darker gives {len(args.darker)} photos for {len(args.images)}: give one per photo, "
                               "in the same order")
    layout = Path(args.layout).read_text(encoding="utf-8") if args.layout else None
    darker = [read_image(p) for p in args.darker] or [None] * len(args.images)
    profile = enroll([Photo(read_image(p), dark) for p, dark in zip(args.images, darker)], layout)
    profile.save(args.out)
    print(f"{args.out}: creature profile written{f' ({profile.note})' if profile.note else ''}")
    if len(args.images) == 1:
        print(f"learnt from one photo: {SECOND_PHOTO} (enroll both photos together)", file=sys.stderr)


ACTIONS = {"board": _board, "camera": _camera, "layout": _layout, "enroll": _enroll}


def run(args: argparse.Namespace) -> int:
    try:
        ACTIONS[args.action](args)
    except (CalibrationError, CalibrationFileError, ImportError, OSError, ValueError) as exc:
        print(f"hivecam calibrate {args.action}: {exc}", file=sys.stderr)
        return EXIT_ERROR
    return 0
