"""Broken, foreign or outdated calibration files are refused with a way to fix them; writes are atomic."""

from __future__ import annotations

import json
import os

import pytest

from calibration import files
from calibration.camera import CameraModel


@pytest.mark.parametrize("wrapper, problem", [
    (lambda kind: '{"kind": "%s", "vers' % kind, "corrupt"),
    (lambda kind: json.dumps({"kind": "profile", "version": 1, "data": {}}), "'profile' file"),
    (lambda kind: json.dumps({"kind": kind, "version": 7, "data": {}}), "version 7"),
    (lambda kind: json.dumps({"kind": kind, "version": 1, "data": {}}), "incomplete"),
    (lambda kind: json.dumps([1, 2, 3]), "not a hivecam calibration file"),
])
def test_bad_files_say_what_is_wrong_and_how_to_recalibrate(tmp_path, wrapper, problem):
    path = tmp_path / "calibration.json"
    path.write_text(wrapper("camera"))
    with pytest.raises(files.CalibrationFileError, match="hivecam calibrate camera") as error:
        CameraModel.load(path)
    assert problem in str(error.value)


def test_missing_file_names_the_command(tmp_path):
    with pytest.raises(files.CalibrationFileError, match="no such camera calibration file.*calibrate camera"):
        CameraModel.load(tmp_path / "absent.json")


def test_failed_write_keeps_the_old_file_and_leaves_no_partial_file(tmp_path, monkeypatch):
    path = files.save(tmp_path / "camera.json", "camera", 1, {"old": True})

    def crash(fd: int) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "fsync", crash)
    with pytest.raises(OSError, match="disk full"):
        files.save(path, "camera", 1, {"old": False, "padding": "x" * 100_000})
    assert files.load(path, "camera", 1) == {"old": True}
    assert [p.name for p in tmp_path.iterdir()] == ["camera.json"]


def test_written_files_are_readable_by_others(tmp_path):
    path = files.write_atomic(tmp_path / "board.png", b"\x89PNG")
    assert path.stat().st_mode & 0o044 == 0o044 and path.read_bytes() == b"\x89PNG"


GOOD_CAMERA = {"matrix": [[900.0, 0.0, 640.0], [0.0, 900.0, 360.0], [0.0, 0.0, 1.0]],
               "distortion": [0.1, -0.2, 0.0, 0.0, 0.0], "image_size": [1280, 720]}


def _camera_file(tmp_path, **changes) -> str:
    data = {**GOOD_CAMERA, **changes}
    return json.dumps({"kind": "camera", "version": 1, "data": data})


@pytest.mark.parametrize("text, problem", [
    ('{"kind": "camera", "version": 1, "data": {"matrix": 1e400}}', "too large"),
    ('{"kind": "camera", "version": 1, "data": {"matrix": Infinity}}', "Infinity is not a number"),
    ('{"kind": "camera", "version": 1, "data": {"matrix": NaN}}', "NaN is not a number"),
    ('{"kind": "camera", "version": 1, "data": ' + "[" * 5000 + "]" * 5000 + "}", "nested"),
    ('{"kind": "camera", "version": 1, "data": ' + "[" * 40 + "]" * 40 + "}", "nested"),
    ('{"kind": "camera", "version": 1, "data": {"views": ' + "9" * 5000 + "}}", "corrupt"),
])
def test_numbers_and_nesting_json_cannot_hold_are_refused(tmp_path, text, problem):
    path = tmp_path / "camera.json"
    path.write_text(text)
    with pytest.raises(files.CalibrationFileError, match="calibrate camera") as error:
        CameraModel.load(path)
    assert problem in str(error.value) and "\n" not in str(error.value)


def test_an_oversized_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 100)
    path = tmp_path / "camera.json"
    path.write_text(_camera_file(tmp_path))
    with pytest.raises(files.CalibrationFileError, match="too large"):
        CameraModel.load(path)


@pytest.mark.parametrize("changes, problem", [
    ({"matrix": [[0.0] * 3] * 3}, "focal"),
    ({"matrix": [[900.0, 0.0, 640.0], [0.0, -900.0, 360.0], [0.0, 0.0, 1.0]]}, "focal"),
    ({"matrix": [[900.0, 0.0, 5000.0], [0.0, 900.0, 360.0], [0.0, 0.0, 1.0]]}, "outside the image"),
    ({"matrix": [[900.0, 0.0, 640.0], [0.0, 900.0, 360.0], [0.0, 0.0, 0.0]]}, "last row"),
    ({"matrix": [[900.0, 0.0], [0.0, 900.0]]}, "3x3"),
    ({"matrix": "camera"}, "not an array of numbers"),
    ({"distortion": [1e9, 0, 0, 0, 0]}, "distortion"),
    ({"distortion": [0.1, 0.2, 0.3]}, "distortion"),
    ({"image_size": [0, 720]}, "not a camera resolution"),
    ({"image_size": [1280, 720, 3]}, "image_size must be 2"),
])
def test_impossible_cameras_are_refused(tmp_path, changes, problem):
    path = tmp_path / "camera.json"
    path.write_text(_camera_file(tmp_path, **changes))
    with pytest.raises(files.CalibrationFileError, match="unusable camera calibration") as error:
        CameraModel.load(path)
    assert problem in str(error.value)


def test_a_possible_camera_loads(tmp_path):
    path = tmp_path / "camera.json"
    path.write_text(_camera_file(tmp_path))
    assert CameraModel.load(path).image_size == (1280, 720)
