"""The demo script, ``hivecam doctor`` and ``hivecam referee``."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

import cv2
import pytest
from webhelpers import ROOT

from rules.board import Board
from rules.pgn import parse_pgn
from webui import doctor
from vision.profile import DEMO_PROFILE_PATH
from webui.demo import ILLEGAL_ATTEMPT, DemoTable, demo_record, demo_script


def test_demo_is_a_whole_real_game_with_an_illegal_detour():
    record = demo_record()
    assert record.result.is_over and record.tags["White"] == "rameshbga"
    scenes = demo_script(record)
    board = Board(record.game_type)
    at, attempt = ILLEGAL_ATTEMPT
    for entry in record.moves[:at]:
        board.push(entry.move)
    assert not board.is_legal(board.parse_uhp(attempt))
    shown = [s.position for s in scenes if not s.hand and s.ply == at]
    assert shown[0] == board.stacks() and shown[-1] == board.stacks()  # before, and after the takeback
    assert any(p != board.stacks() and len(p) == len(board.stacks()) for p in shown)  # the illegal move
    for entry in record.moves[at:]:
        board.push(entry.move)
    assert scenes[-1].position == board.stacks() and board.state.is_over
    assert sum(s.hand for s in scenes) == len(record.moves) + 2  # each move, the illegal one and its takeback


def test_demo_seek_starts_at_the_logged_position():
    table = DemoTable(speed=1000.0, loop=False)
    table.seek(5)
    index = next(i for i, s in enumerate(table.scenes) if s.ply == 5 and not s.hand)
    assert table._offset == pytest.approx(float(table.ends[index - 1]))
    frame = table.open().read()
    assert frame.shape == (720, 1280, 3)


def _args(tmp_path, **extra) -> argparse.Namespace:
    values = {"source": "usb:97", "data": tmp_path / "data", "profile": None, "camera_file": None}
    values.update(extra)
    return argparse.Namespace(**values)


def test_doctor_reports_and_fails_on_problems(tmp_path, capsys):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "camera.json").write_text("{not json")
    findings = {f.what: f for f in doctor.diagnose(_args(tmp_path))}
    assert findings["camera"].level == "FAIL" and "usb:97" in findings["camera"].detail
    assert findings["camera calibration"].level == "FAIL" and "calibrate camera" in findings["camera calibration"].detail
    assert findings["creature profile"].level == "warn"
    assert findings["data folder"].level == "ok" and findings["disk"].level == "ok"
    assert doctor.run(_args(tmp_path)) == 1
    assert "problem(s) to fix" in capsys.readouterr().out


def test_doctor_prints_only_its_own_lines(tmp_path):
    """OpenCV's native warnings (it cannot open a camera here) stay off the terminal."""
    done = subprocess.run([sys.executable, "-m", "webui.cli", "doctor", "--source", "usb:0", "--data",
                           str(tmp_path / "data")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert done.returncode == 1 and lines[-1] == "1 problem(s) to fix."
    assert all(line == "" or line.split()[0] in ("ok", "warn", "FAIL", "1") for line in lines), lines
    assert "table calibration" not in done.stdout


def test_doctor_data_folder_that_cannot_be_created(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    findings = doctor.check_data(blocker / "data")
    assert findings[0].level == "FAIL" and "not writable" in findings[0].detail


def test_referee_command_on_a_folder_of_frames(tmp_path):
    table = DemoTable()
    frames = tmp_path / "frames"
    frames.mkdir()
    number = 0
    for index in range(5):  # empty table, wB1 carried and placed, bS1 carried and placed
        for _ in range(5):
            cv2.imwrite(str(frames / f"{number:04d}.png"), table.frame(index))
            number += 1
    (frames / "0007a.png").write_bytes(b"a damaged frame")  # skipped with a warning, as hivecam serve does
    pgn, events = tmp_path / "game.pgn", tmp_path / "events.jsonl"
    result = subprocess.run([sys.executable, "-m", "webui.cli", "referee", "--source", str(frames), "--game-type",
                             "Base", "--profile", str(DEMO_PROFILE_PATH),  # the demo table's set, enrolled
                             "--pgn", str(pgn), "--events", str(events), "--board-name", "Table 2"], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "1 unreadable image(s) skipped, the last 0007a.png" in result.stderr
    record = parse_pgn(pgn.read_text())
    assert [m.uhp for m in record.moves] == ["wB1", "bS1 wB1\\"]
    assert record.tags["Site"] == "Table 2" and record.tags["Date"] and record.tags["Time"]
    kinds = [json.loads(line)["kind"] for line in events.read_text().splitlines()]
    assert kinds.count("move") == 2


def test_referee_command_bad_source(tmp_path):
    result = subprocess.run([sys.executable, "-m", "webui.cli", "referee", "--source", str(tmp_path / "nothing")],
                            cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "not a source" in result.stderr


def test_doctor_diagnoses_a_damaged_log_without_crashing_or_touching_it(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "games.sqlite3").write_bytes(b"this is not a database" * 50)
    (data / "games.sqlite3.corrupt-20260101-120000").write_bytes(b"an older damaged log")
    findings = [f for f in doctor.check_data(data) if f.what == "game log"]
    assert [f.level for f in findings] == ["warn", "FAIL"]
    assert "games.sqlite3.corrupt-20260101-120000" in findings[0].detail
    assert "is damaged (file is not a database)" in findings[1].detail
    assert (data / "games.sqlite3").read_bytes() == b"this is not a database" * 50


def test_doctor_names_a_damaged_game(tmp_path):
    import sqlite3

    from rules.record import GameRecord
    from webui.store import GameStore

    data = tmp_path / "data"
    store = GameStore(data / "games.sqlite3")
    game = store.create(GameRecord("Base"))
    store.close()
    with sqlite3.connect(data / "games.sqlite3") as db:
        db.execute("UPDATE games SET options = '{\"colour\": 1}'")
    db.close()
    findings = [f for f in doctor.check_data(data) if f.what == "game log"]
    assert [(f.level, f.detail.split(" (")[0]) for f in findings] == [("warn", f"game {game} in the log is damaged")]


@pytest.mark.parametrize("frame_size, level", [((1280, 720), "FAIL"), ((1280, 960), "ok")])
def test_doctor_checks_the_camera_file_against_the_camera_frames(tmp_path, frame_size, level):
    import numpy as np

    from calibration.camera import CameraModel

    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), np.zeros((frame_size[1], frame_size[0], 3), np.uint8))
    matrix = np.array([[500.0, 0, 320], [0, 500.0, 240], [0, 0, 1]])
    CameraModel(matrix, np.zeros(5), (640, 480)).save(tmp_path / "camera.json")
    findings = {f.what: f for f in doctor.diagnose(_args(tmp_path, source=str(frames),
                                                         camera_file=str(tmp_path / "camera.json")))}
    assert findings["camera calibration"].level == level
    if level == "FAIL":
        assert "1280x720 but the camera was calibrated at 640x480" in findings["camera calibration"].detail
