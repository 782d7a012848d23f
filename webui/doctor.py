"""``hivecam doctor``: check camera, calibration, profile, disk and data folder; say what to fix.

Each check prints ``ok``, ``warn`` (works, but could be better) or ``FAIL`` with the fix.
The exit status is 1 when anything failed, so scripts and the installer can rely on it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sqlite3
import tempfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from webui.serve_command import CAMERA_NAME, DEFAULT_DATA, LOG_NAME, camera_present, data_file
from webui.store import damaged_games

MIN_FREE_MB = 200
MIN_OPENCV = (4, 7)


@dataclass(frozen=True)
class Finding:
    level: str  # "ok", "warn" or "FAIL"
    what: str
    detail: str


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default="auto", help="the camera to check: auto, picamera or usb:N")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="data folder of hivecam serve")
    parser.add_argument("--profile", help="creature profile (default: DATA/profile.json if present)")
    parser.add_argument("--camera-file", help="camera intrinsics (default: DATA/camera.json if present)")


def quiet_opencv() -> None:
    """Keep OpenCV's own warnings (a camera it cannot open, ...) off the terminal: the
    findings say what matters, with the fix."""
    os.environ["OPENCV_LOG_LEVEL"] = "SILENT"  # for code that reads it when cv2 loads
    import cv2

    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def check_camera(source: str) -> tuple[Finding, tuple[int, int] | None]:
    """The camera's finding and the size of its frames (None: no frame)."""
    if source in ("auto", "picamera") and camera_present():
        from vision.sources import PICAMERA_SIZE

        return Finding("ok", "camera", "Raspberry Pi camera found (picamera2)"), PICAMERA_SIZE
    if source == "picamera":
        if importlib.util.find_spec("picamera2") is None:
            return Finding("FAIL", "camera", "picamera2 is not installed: sudo apt install python3-picamera2, and "
                                             "create the venv with --system-site-packages (deploy/install-pi.sh)"), None
        return Finding("FAIL", "camera", "picamera2 sees no camera: check the ribbon cable (contacts facing the "
                                         "right way), then run 'rpicam-hello --list-cameras'"), None
    spec = "usb:0" if source == "auto" else source
    try:
        from vision.sources import open_source

        with open_source(spec) as camera:
            frame = camera.read()
    except Exception as exc:  # any driver failure is a finding, not a crash
        hint = "connect the Pi camera or a USB webcam" if source == "auto" else "check the cable and the device number"
        return Finding("FAIL", "camera", f"no camera found ({exc}); {hint}, or run 'hivecam serve' for the demo"), None
    if frame is None:
        return Finding("FAIL", "camera", f"{spec} opened but sent no frame: replug it or try another usb:N"), None
    height, width = frame.shape[:2]
    level = "ok" if width >= 1280 else "warn"
    note = "" if level == "ok" else " (below 1280x720: tiles may be too small to recognise)"
    return Finding(level, "camera", f"{spec} delivers {width}x{height} frames{note}"), (width, height)


def check_file(what: str, path: Path | None, loader: Callable[[Path], object], missing: str) -> Finding:
    if path is None or not path.exists():
        return Finding("warn", what, missing)
    try:
        loader(path)
    except Exception as exc:  # the loaders' messages already say how to recalibrate
        return Finding("FAIL", what, str(exc))
    return Finding("ok", what, f"{path} is valid")


def check_opencv() -> Finding:
    import cv2

    version = tuple(int(p) for p in cv2.__version__.split(".")[:2])
    if version < MIN_OPENCV:
        return Finding("FAIL", "opencv", f"OpenCV {cv2.__version__} is too old (ArUco needs 4.7): "
                                         "pip install -U opencv-python-headless in the hivecam venv")
    return Finding("ok", "opencv", f"OpenCV {cv2.__version__}")


def check_data(data: Path) -> list[Finding]:
    try:
        data.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=data) as handle:
            handle.write(b"hivecam")
            handle.flush()
    except OSError as exc:
        return [Finding("FAIL", "data folder", f"{data} is not writable ({exc.strerror or exc}): "
                                               f"sudo chown -R $USER {data}")]
    free_mb = shutil.disk_usage(data).free / 2 ** 20
    disk = Finding("ok" if free_mb >= MIN_FREE_MB else "FAIL", "disk",
                   f"{free_mb:.0f} MB free in {data}" + ("" if free_mb >= MIN_FREE_MB else
                                                         f": free at least {MIN_FREE_MB} MB"))
    return [Finding("ok", "data folder", f"{data} is writable"), disk, *check_log(data / LOG_NAME)]


def check_log(db: Path) -> list[Finding]:
    """The game log: sound, every recent game readable, and any log set aside earlier."""
    findings = [Finding("warn", "game log", f"{aside} is a damaged log hivecam set aside (its games are not "
                                            "shown); keep it for recovery or delete it")
                for aside in sorted(db.parent.glob(f"{db.name}.corrupt-*")) if aside.name[-4:] not in ("-wal", "-shm")]
    if not db.exists():
        return findings
    try:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as connection:
            status = connection.execute("PRAGMA quick_check").fetchone()[0]
            problems = damaged_games(connection) if status == "ok" else []
    except sqlite3.DatabaseError as exc:
        status, problems = str(exc), []
    if status != "ok":
        return findings + [Finding("FAIL", "game log", f"{db} is damaged ({status}): hivecam serve sets it "
                                                       "aside and starts a new log")]
    findings += [Finding("warn", "game log", problem) for problem in problems]
    return findings or [Finding("ok", "game log", f"{db} is sound")]


def diagnose(args: argparse.Namespace) -> list[Finding]:
    from calibration.camera import CameraModel
    from vision.profile import CreatureProfile

    from webui.enrollment import PROFILE_NAME

    data: Path = args.data

    def chosen(option: str | None, name: str) -> Path:
        return data_file(data, option, name)

    camera, frame_size = check_camera(args.source)

    def fitting_camera(path: Path) -> CameraModel:
        """The camera file, checked against the camera's frames (rescaled if of the same shape)."""
        model = CameraModel.load(path)
        return model if frame_size is None else model.at_size(*frame_size)

    return [
        camera,
        check_opencv(),
        check_file("camera calibration", chosen(args.camera_file, CAMERA_NAME), fitting_camera,
                   "none: hivecam assumes an ideal lens (optional: hivecam calibrate camera)"),
        check_file("creature profile", chosen(args.profile, PROFILE_NAME), CreatureProfile.load,
                   "none: using the built-in profile; enrol your own set for best results "
                   "(hivecam calibrate enroll)"),
        *check_data(data),
    ]


def run(args: argparse.Namespace) -> int:
    quiet_opencv()
    findings = diagnose(args)
    for finding in findings:
        print(f"{finding.level:<4}  {finding.what}: {finding.detail}")
    failed = [f for f in findings if f.level == "FAIL"]
    print(f"\n{len(failed)} problem(s) to fix." if failed else "\nAll good.")
    return 1 if failed else 0
