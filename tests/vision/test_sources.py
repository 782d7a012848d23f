"""Frame sources: fake picamera2 at the import boundary, folders, captures that disconnect."""

from __future__ import annotations

import sys
import types

import cv2
import numpy as np
import pytest

from vision.sources import CaptureSource, FolderSource, PiCameraSource, SourceError, open_source
from vision.zoom import WHOLE, View


class FakePicamera2:
    instances: list["FakePicamera2"] = []

    focus_succeeds = True

    sensor_resolution = (4608, 2592)  # a Camera Module 3

    def __init__(self) -> None:
        self.camera_controls = {"AfMode": (0, 2, 0), "ExposureTime": (1, 100000, 1000),
                                "ScalerCrop": ((0, 0, 64, 64), (0, 0, 4608, 2592), (0, 0, 4608, 2592))}
        self.set: list[dict] = []
        self.started = self.closed = False
        self.focus_cycles = 0
        self.crops = [(0, 0, 4608, 2592)]  # the sensor crop of each frame from the next on
        self.exposures = [8000]  # ... and its exposure time (microseconds)
        FakePicamera2.instances.append(self)

    def create_video_configuration(self, main: dict, raw: dict | None = None, buffer_count: int = 4,
                                   controls: dict | None = None) -> dict:
        return {"main": main, "raw": raw, "buffer_count": buffer_count, "controls": controls or {}}

    def autofocus_cycle(self) -> bool:
        assert self.started and self.set[-1] == {"AfMode": 1}
        self.focus_cycles += 1
        return self.focus_succeeds

    def configure(self, config: dict) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True

    def set_controls(self, controls: dict) -> None:
        self.set.append(controls)
        if "ScalerCrop" in controls:  # it takes effect a frame later, aligned to even pixels, as libcamera's does
            self.crops = [self.crops[0], tuple(2 * (value // 2) for value in controls["ScalerCrop"])]
        if "ExposureTime" in controls:  # a frame later too
            self.exposures = [self.exposures[0], controls["ExposureTime"]]

    def capture_request(self) -> "FakeRequest":
        w, h = self.config["main"]["size"]
        crop = self.crops.pop(0) if len(self.crops) > 1 else self.crops[0]
        exposure = self.exposures.pop(0) if len(self.exposures) > 1 else self.exposures[0]
        return FakeRequest(np.full((h, w, 3), (10, 20, 30), np.uint8), {"ScalerCrop": crop, "ExposureTime": exposure})

    def capture_metadata(self) -> dict:
        return {"ExposureTime": 8000, "AnalogueGain": 2.5, "ColourGains": (1.8, 1.4), "Lux": 300.0}


class FakeRequest:
    def __init__(self, frame: np.ndarray, metadata: dict) -> None:
        self.frame, self.metadata, self.released = frame, metadata, False

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "main" and not self.released
        return self.frame

    def get_metadata(self) -> dict:
        return self.metadata

    def release(self) -> None:
        self.released = True


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.instances.clear()
    return FakePicamera2


LOCKED = {"AeEnable": False, "AwbEnable": False, "ExposureTime": 8000, "AnalogueGain": 2.5,
          "ColourGains": (1.8, 1.4)}


def test_picamera_configures_rgb888_720p_focuses_once_and_locks_exposure(fake_picamera2) -> None:
    source = PiCameraSource(settle_seconds=0.01).open()
    camera = fake_picamera2.instances[-1]
    assert camera.config["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert camera.config["raw"] == {"size": (4608, 2592)}  # every sensor pixel, for a view of part of it
    assert camera.config["controls"]["FrameDurationLimits"] == (66666, 66666)  # 15 fps
    assert camera.started and camera.focus_cycles == 1
    assert camera.set == [{"AfMode": 1}, LOCKED] and source.locked_controls == LOCKED
    frame = source.read()
    assert frame.shape == (720, 1280, 3) and tuple(frame[0, 0]) == (10, 20, 30)
    source.close()
    assert camera.closed


def test_picamera_shows_a_view_of_part_of_its_sensor_and_says_which_each_frame_shows(fake_picamera2) -> None:
    source = PiCameraSource(settle_seconds=0).open()
    camera = fake_picamera2.instances[-1]
    assert source.view == WHOLE
    assert source.set_view(View(320.0, 180.0, 2.0))
    assert camera.set[-1] == {"ScalerCrop": (1152, 648, 2304, 1296)}  # on the sensor: 3.6 of its pixels a frame pixel
    source.read()
    assert source.view == WHOLE  # the frame taken before the crop took effect
    source.read()
    assert source.view == View(320.0, 180.0, 2.0)
    source.set_view(View(100.2, 50.3, 1.7))  # (361, 181, 2711, 1525) on the sensor, set as (360, 180, 2710, 1524)
    source.read()
    source.read()
    assert source.view.near(View(100.2, 50.3, 1.7)) and source.view != View(100.2, 50.3, 1.7)
    source.reopen()
    assert source.view == WHOLE


def test_picamera_takes_darker_frames_once_its_exposure_is_locked_and_says_each_frames_exposure(
        fake_picamera2) -> None:
    assert not PiCameraSource(settle_seconds=0).open().set_exposure(0.4)  # not locked: nothing to take a share of
    source = PiCameraSource(settle_seconds=0.01).open()
    camera = fake_picamera2.instances[-1]
    assert source.set_exposure(0.4) and camera.set[-1] == {"ExposureTime": 3200}
    source.read()
    assert source.exposure == 1.0  # the frame taken before the exposure took effect
    source.read()
    assert source.exposure == pytest.approx(0.4)
    source.set_exposure(1.0)
    source.read()
    source.read()
    assert source.exposure == 1.0 and camera.set[-1] == {"ExposureTime": 8000}


def test_files_and_usb_cameras_cannot_show_part_of_their_view(tmp_path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    folder = FolderSource(tmp_path).open()
    assert not folder.set_view(View(10.0, 10.0, 2.0)) and folder.view == WHOLE
    assert not folder.set_exposure(0.4) and folder.exposure == 1.0


def test_picamera_falls_back_to_continuous_focus_when_the_scan_fails(fake_picamera2, monkeypatch) -> None:
    monkeypatch.setattr(fake_picamera2, "focus_succeeds", False)
    PiCameraSource(settle_seconds=0).open()
    assert fake_picamera2.instances[-1].set == [{"AfMode": 1}, {"AfMode": 2}]


def test_picamera_relocks_exposure_after_a_reopen(fake_picamera2, monkeypatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr("vision.sources.time.sleep", waits.append)
    source = open_source("picamera")
    source.reopen()
    first, second = fake_picamera2.instances
    assert first.closed and not second.closed and second.set[-1] == LOCKED
    assert waits == [1.5, 1.5]  # auto exposure settles each time before it is locked


def test_picamera_that_fails_while_settling_is_closed_and_reported(fake_picamera2, monkeypatch) -> None:
    monkeypatch.setattr(fake_picamera2, "capture_metadata", lambda self: {"Lux": 1.0})
    with pytest.raises(SourceError, match="lacks ExposureTime"):
        PiCameraSource(settle_seconds=0.01).open()
    assert fake_picamera2.instances[-1].closed


def test_picamera_missing_package_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # import fails
    with pytest.raises(SourceError, match="picamera2"):
        open_source("picamera")


def _write_images(folder, names: list[str]) -> None:
    for value, name in enumerate(names):
        cv2.imwrite(str(folder / name), np.full((8, 8, 3), value * 40, np.uint8))


def test_folder_plays_images_in_name_order_at_the_given_rate(tmp_path) -> None:
    _write_images(tmp_path, ["b.png", "a.png", "c.png"])  # values 0, 40, 80 written in this order
    (tmp_path / "notes.txt").write_text("not an image")
    source = FolderSource(tmp_path, fps=50).open()
    start = cv2.getTickCount()
    values = [int(frame[0, 0, 0]) for frame in source]
    elapsed = (cv2.getTickCount() - start) / cv2.getTickFrequency()
    assert values == [40, 0, 80]  # a, b, c
    assert elapsed >= 2 / 50 * 0.9  # three frames at 50 fps span two intervals


def test_folder_errors(tmp_path) -> None:
    with pytest.raises(SourceError, match="no images"):
        FolderSource(tmp_path).open()
    (tmp_path / "bad.png").write_bytes(b"not a png")
    assert FolderSource(tmp_path, fps=0).open().read() is None  # nothing readable: it ends
    with pytest.raises(SourceError, match="none of its 1 images can be read"):
        FolderSource(tmp_path, fps=0, loop=True).open().read()


def test_folder_skips_an_unreadable_image_and_counts_it(tmp_path) -> None:
    _write_images(tmp_path, ["a.png", "b.png", "c.png"])
    (tmp_path / "b.png").write_bytes(b"damaged")
    source = FolderSource(tmp_path, fps=0).open()
    assert [int(frame[0, 0, 0]) for frame in source] == [0, 80]
    assert source.skipped == 1 and "b.png" in source.warning


def test_folder_loops_only_when_asked(tmp_path) -> None:
    _write_images(tmp_path, ["a.png", "b.png"])
    once = FolderSource(tmp_path, fps=0).open()
    assert len(list(once)) == 2
    looping = FolderSource(tmp_path, fps=0, loop=True).open()
    assert [int(looping.read()[0, 0, 0]) for _ in range(5)] == [0, 40, 0, 40, 0]


def test_a_video_file_loops_only_when_asked() -> None:
    def opener(target):
        return FlakyCapture(2)

    once = CaptureSource("game.mp4", opener=opener).open()
    assert len(list(once)) == 2
    looping = CaptureSource("game.mp4", opener=opener, loop=True).open()
    assert all(looping.read() is not None for _ in range(5))


class FlakyCapture:
    """A capture that delivers ``frames`` frames and then fails, like an unplugged USB camera."""

    def __init__(self, frames: int) -> None:
        self.left = frames
        self.released = False

    def isOpened(self) -> bool:
        return True

    def read(self):
        if self.left <= 0:
            return False, None
        self.left -= 1
        return True, np.zeros((4, 4, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_disconnecting_device_reports_and_can_be_reopened() -> None:
    opened: list[FlakyCapture] = []

    def opener(target):
        opened.append(FlakyCapture(2))
        return opened[-1]

    source = CaptureSource(0, opener=opener).open()
    assert source.read() is not None and source.read() is not None
    with pytest.raises(SourceError, match="usb:0.*stopped delivering"):
        source.read()
    assert not source.is_open and opened[0].released
    with pytest.raises(SourceError, match="not open"):
        source.read()
    source.reopen()
    assert source.read() is not None and len(opened) == 2


def test_open_source_rejects_bad_specs(tmp_path) -> None:
    with pytest.raises(SourceError, match="usb:N"):
        open_source("usb:front")
    with pytest.raises(SourceError, match="not a source"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(SourceError, match="cannot open"):
        open_source("usb:97")
