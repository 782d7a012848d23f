"""Frame sources: Raspberry Pi camera, any OpenCV capture, or a folder of images.

Every source has ``open()``, ``read()`` (a BGR frame, or None when a finite source is
exhausted), ``close()`` and ``reopen()``. Failures raise ``SourceError`` with a message
saying what went wrong; a source that failed can be reopened. ``open_source`` turns the
one-string form (``picamera``, ``usb:N``, a video file or stream URL, a folder) into a
source. The demo game is ``webui.demo.DemoTable``, which also plays its illegal attempt.
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import cv2
import numpy as np

from vision.zoom import WHOLE, View

IMAGE_SUFFIXES = {".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"}
PICAMERA_SIZE = (1280, 720)
PICAMERA_FPS = 15.0  # the Pi 4 processes ~8-25 frames a second; the live loop drops the rest
PICAMERA_SETTLE_SECONDS = 1.5  # automatic exposure and white balance settle before they are locked
AF_MODE_AUTO, AF_MODE_CONTINUOUS = 1, 2  # libcamera's AfModeEnum


class SourceError(RuntimeError):
    """A frame source could not be opened or stopped delivering frames."""


class FrameSource:
    """Base class: subclasses implement ``_open``, ``_read`` and ``_close``."""

    name = "source"

    def __init__(self) -> None:
        self.is_open = False
        self.warning = ""  # something the person should know while frames still come (files skipped)
        self.view = WHOLE  # the part of the camera's whole view that the last frame read shows
        self.exposure = 1.0  # the last frame's exposure, of the one the source settled on

    def open(self) -> "FrameSource":
        if not self.is_open:
            try:
                self._open()
            except SourceError:
                raise
            except Exception as exc:  # driver errors of every kind become one clear error
                raise SourceError(f"{self.name}: cannot open ({type(exc).__name__}: {exc})") from exc
            self.is_open = True
        return self

    def read(self) -> np.ndarray | None:
        """The next BGR frame; None when a finite source has no more; ``SourceError`` on failure."""
        if not self.is_open:
            raise SourceError(f"{self.name}: not open (call open() or reopen())")
        try:
            return self._read()
        except SourceError:
            self.close()
            raise
        except Exception as exc:
            self.close()
            raise SourceError(f"{self.name}: read failed ({type(exc).__name__}: {exc})") from exc

    def close(self) -> None:
        if self.is_open:
            self.is_open = False
            try:
                self._close()
            except Exception:  # closing a dead device must not hide the original error
                pass

    def set_view(self, view: View) -> bool:
        """Take the frames from now on through ``view``, a part of the camera's whole view
        (``vision.zoom``); False where the source cannot crop (a file, a folder, a USB camera)."""
        return False

    def set_exposure(self, share: float) -> bool:
        """Expose the frames from now on for ``share`` of the exposure the source settled on (a
        darker frame keeps a lamp's glare in the tops off the sensor's white: ``vision.glare``); False
        where it cannot be set (a file, a folder, a USB camera, a camera whose exposure is not locked)."""
        return False

    def reopen(self) -> "FrameSource":
        """Close and open again, e.g. after the device was unplugged and plugged back."""
        self.close()
        return self.open()

    def __enter__(self) -> "FrameSource":
        return self.open()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __iter__(self) -> Iterator[np.ndarray]:
        while (frame := self.read()) is not None:
            yield frame

    def _open(self) -> None:
        raise NotImplementedError

    def _read(self) -> np.ndarray | None:
        raise NotImplementedError

    def _close(self) -> None:
        pass


class PiCameraSource(FrameSource):
    """A Raspberry Pi camera through picamera2 (imported only when opened).

    Set up for a camera fixed above a table: 1280x720 RGB888 (BGR bytes, as OpenCV wants)
    at ``fps``; a Camera Module 3 focuses once on the table and keeps that focus (a hand
    passing close to the lens must not make it hunt); after ``settle_seconds`` of automatic
    exposure and white balance both are locked, so a lamp switched on mid-game does not
    shift colours. Each (re)open repeats this. The sensor runs in its full-resolution mode
    (a Camera Module 3 gives about 14 frames a second there), so that a view of part of it
    (``set_view``: libcamera's ScalerCrop) shows detail a frame of the whole view averages away.
    """

    name = "picamera"

    def __init__(self, size: tuple[int, int] = PICAMERA_SIZE, fps: float = PICAMERA_FPS,
                 settle_seconds: float = PICAMERA_SETTLE_SECONDS) -> None:
        super().__init__()
        self.size = size
        self.fps = fps
        self.settle_seconds = settle_seconds
        self.camera: Any = None
        self.locked_controls: dict[str, Any] = {}
        self._whole_crop: tuple[int, int, int, int] | None = None  # the sensor's crop (x, y, w, h) of the whole view

    def _open(self) -> None:
        try:
            picamera2 = importlib.import_module("picamera2")
        except ImportError as exc:
            raise SourceError("picamera: the picamera2 package is not installed (apt install python3-picamera2)"
                              ) from exc
        camera = picamera2.Picamera2()
        self.locked_controls, self.exposure = {}, 1.0  # this opening's, once settled
        frame_us = int(1_000_000 / self.fps)
        camera.configure(camera.create_video_configuration(
            main={"size": self.size, "format": "RGB888"}, raw={"size": camera.sensor_resolution}, buffer_count=2,
            controls={"FrameDurationLimits": (frame_us, frame_us)}))
        camera.start()
        self.camera = camera
        self.view = WHOLE
        self._whole_crop = camera.camera_controls.get("ScalerCrop", (None, None, None))[1]
        try:
            if "AfMode" in getattr(camera, "camera_controls", {}):
                camera.set_controls({"AfMode": AF_MODE_AUTO})  # one scan, then the lens stays put
                if not camera.autofocus_cycle():
                    camera.set_controls({"AfMode": AF_MODE_CONTINUOUS})
            if self.settle_seconds > 0:
                time.sleep(self.settle_seconds)
                self.lock_exposure()
        except Exception:
            self._close()
            raise

    def _read(self) -> np.ndarray | None:
        request = self.camera.capture_request()
        try:
            frame, metadata = request.make_array("main"), request.get_metadata()
        finally:
            request.release()
        if frame is None:
            raise SourceError("picamera: no frame")
        crop = metadata.get("ScalerCrop")
        if crop is not None and self._whole_crop is not None:
            self.view = self._view_of(crop)
        locked, exposed = self.locked_controls.get("ExposureTime"), metadata.get("ExposureTime")
        self.exposure = exposed / locked if locked and exposed else 1.0
        return np.ascontiguousarray(frame[..., :3])

    def set_exposure(self, share: float) -> bool:
        locked = self.locked_controls.get("ExposureTime")
        if self.camera is None or not locked:
            return False
        self.camera.set_controls({"ExposureTime": max(1, round(locked * share))})
        return True

    def set_view(self, view: View) -> bool:
        if self.camera is None or self._whole_crop is None:
            return False
        x, y, width, height = self._whole_crop
        across, down = width / self.size[0], height / self.size[1]  # sensor pixels per whole-view frame pixel
        self.camera.set_controls({"ScalerCrop": (round(x + view.x * across), round(y + view.y * down),
                                                 round(width / view.zoom), round(height / view.zoom))})
        return True

    def _view_of(self, crop: tuple[int, int, int, int]) -> View:
        """The view that the sensor crop ``crop`` (x, y, w, h) shows, as a frame's metadata reports it."""
        assert self._whole_crop is not None
        x, y, width, height = self._whole_crop
        return View((crop[0] - x) * self.size[0] / width, (crop[1] - y) * self.size[1] / height, width / crop[2])

    def _close(self) -> None:
        self.camera.stop()
        self.camera.close()
        self.camera = None

    def lock_exposure(self) -> dict[str, Any]:
        """Freeze exposure and white balance at their current automatic values; return the controls set."""
        from calibration.lighting import locked_camera_controls

        if self.camera is None:
            raise SourceError("picamera: open the camera before locking its exposure")
        self.locked_controls = locked_camera_controls(self.camera.capture_metadata())
        self.camera.set_controls(self.locked_controls)
        return self.locked_controls


class CaptureSource(FrameSource):
    """Anything OpenCV's VideoCapture opens: ``usb:N`` devices, video files, stream URLs.

    A video file ends, or with ``loop`` starts again from its beginning."""

    def __init__(self, target: int | str, opener: Callable[[int | str], Any] = cv2.VideoCapture,
                 loop: bool = False) -> None:
        super().__init__()
        self.target, self.opener, self.loop = target, opener, loop
        self.name = f"usb:{target}" if isinstance(target, int) else str(target)
        self.capture: Any = None
        self.finite = isinstance(target, str) and "://" not in target

    def _open(self) -> None:
        capture = self.opener(self.target)
        if not capture.isOpened():
            capture.release()
            raise SourceError(f"{self.name}: cannot open (no such device, file or stream?)")
        self.capture = capture

    def _read(self) -> np.ndarray | None:
        ok, frame = self.capture.read()
        if (not ok or frame is None) and self.finite and self.loop:
            self.capture.release()
            self._open()
            ok, frame = self.capture.read()
        if ok and frame is not None:
            return frame
        if self.finite:
            return None  # end of the video file
        raise SourceError(f"{self.name}: stopped delivering frames (disconnected?)")

    def _close(self) -> None:
        self.capture.release()
        self.capture = None


class FolderSource(FrameSource):
    """The images of a folder in name order, paced at ``fps`` (0 = as fast as read).

    An image that cannot be read is skipped and counted in ``warning``. The folder ends
    after its last image, or with ``loop`` starts again from its first.
    """

    def __init__(self, folder: str | Path, fps: float = 10.0, loop: bool = False) -> None:
        super().__init__()
        self.folder, self.fps, self.loop = Path(folder), fps, loop
        self.name = str(folder)
        self.paths: list[Path] = []
        self.index = 0
        self.next_time = 0.0
        self.skipped = 0
        self._any_read = False

    def _open(self) -> None:
        if not self.folder.is_dir():
            raise SourceError(f"{self.name}: no such folder")
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise SourceError(f"{self.name}: no images (looked for {', '.join(sorted(IMAGE_SUFFIXES))})")
        self.index, self.next_time = 0, time.monotonic()

    def _read(self) -> np.ndarray | None:
        while True:
            if self.index >= len(self.paths):
                if not self.loop:
                    return None
                if not self._any_read:
                    raise SourceError(f"{self.name}: none of its {len(self.paths)} images can be read")
                self.index = 0
            self._pace()
            path = self.paths[self.index]
            self.index += 1
            frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if frame is not None:
                self._any_read = True
                return frame
            self.skipped += 1
            self.warning = f"{self.skipped} unreadable image(s) skipped, the last {path.name}"

    def _pace(self) -> None:
        """Wait until the next frame is due at ``fps``."""
        if self.fps > 0:
            delay = self.next_time - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            self.next_time = max(self.next_time, time.monotonic() - 1.0) + 1.0 / self.fps


def open_source(spec: str, fps: float = 10.0, loop: bool = False) -> FrameSource:
    """Open a source from its one-string form: ``picamera``, ``usb:N``, a video/URL or a folder;
    a video file or a folder ends unless ``loop``.

    (``hivecam serve`` and ``hivecam referee`` also take ``demo``: ``webui.demo.DemoTable``.)
    """
    text = spec.strip()
    if text == "picamera":
        source: FrameSource = PiCameraSource()
    elif text.startswith("usb:"):
        try:
            source = CaptureSource(int(text[4:]))
        except ValueError:
            raise SourceError(f"{spec!r}: expected usb:N with a device number, e.g. usb:0") from None
    elif "://" in text:
        source = CaptureSource(text)
    elif Path(text).is_dir():
        source = FolderSource(text, fps=fps, loop=loop)
    elif Path(text).is_file():
        source = CaptureSource(text, loop=loop)
    else:
        raise SourceError(f"{spec!r}: not a source (use picamera, usb:N, a video file, a stream URL, a folder "
                          "of images)")
    return source.open()
