"""Broken, foreign or outdated calibration files are refused with a way to fix them; writes are atomic."""

from __future__ import annotations

import json
import os

import pytest

from calibration import files
from calibration.camera import CameraModel
from calibration.table import TableModel


@pytest.mark.parametrize("model, kind", [(CameraModel, "camera"), (TableModel, "table")])
@pytest.mark.parametrize("wrapper, problem", [
    (lambda kind: '{"kind": "%s", "vers' % kind, "corrupt"),
    (lambda kind: json.dumps({"kind": "profile", "version": 1, "data": {}}), "'profile' file"),
    (lambda kind: json.dumps({"kind": kind, "version": 7, "data": {}}), "version 7"),
    (lambda kind: json.dumps({"kind": kind, "version": 1, "data": {}}), "incomplete"),
    (lambda kind: json.dumps([1, 2, 3]), "not a hivecam calibration file"),
])
def test_bad_files_say_what_is_wrong_and_how_to_recalibrate(tmp_path, model, kind, wrapper, problem):
    path = tmp_path / "calibration.json"
    path.write_text(wrapper(kind))
    with pytest.raises(files.CalibrationFileError, match=f"hivecam calibrate {kind}") as error:
        model.load(path)
    assert problem in str(error.value)


def test_missing_file_names_the_command(tmp_path):
    with pytest.raises(files.CalibrationFileError, match="no such table calibration file.*calibrate table"):
        TableModel.load(tmp_path / "absent.json")


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
