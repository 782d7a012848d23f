"""``hivecam serve`` as built: the demo's own log, the board's name, the log lines, PIN recovery."""

from __future__ import annotations

import argparse
import logging
import os
import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from webhelpers import PIN, ROOT, csrf, start_server

from calibration.files import CalibrationFileError, save
from rules.pgn import parse_pgn
from rules.record import GameRecord
from vision.profile import default_profile
from webui import serve_command
from webui.auth import Control
from webui.demo import demo_record
from webui.enrollment import PROFILE_NAME
from webui.store import GameStore


def _serve_args(data, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    serve_command.configure(parser)
    return parser.parse_args(["--data", str(data), *extra])


def test_demo_games_go_to_their_own_log_and_never_pile_up(data_dir):
    service, _, live, _, spec = serve_command.build(_serve_args(data_dir, "--source", "demo"))
    try:
        assert spec == "demo" and service.store.path == data_dir / "demo.sqlite3"
        first = service.game_id
        for _ in range(3):
            live.source.on_cycle()  # the demo starts over
        kept = sorted(g.id for g in service.store.games())
        assert kept == [service.game_id - 1, service.game_id] and first not in kept  # the latest two only
        assert not (data_dir / "games.sqlite3").exists()
    finally:
        service.store.close()


def test_the_board_name_is_the_site_and_the_start_time_is_recorded(data_dir):
    service, _, _, app, _ = serve_command.build(_serve_args(data_dir, "--source", "usb:97",
                                                            "--board-name", "Table 3"))
    try:
        assert service.store.path == data_dir / "games.sqlite3"
        pgn = parse_pgn(app.test_client().get(f"/api/games/{service.game_id}/pgn").get_data(as_text=True))
        assert pgn.tags["Site"] == "Table 3" and pgn.tags["Date"]
        hours, minutes, seconds = map(int, pgn.tags["Time"].split(":"))
        assert 0 <= hours < 24 and 0 <= minutes < 60 and 0 <= seconds < 60
    finally:
        service.store.close()


def test_a_profile_an_earlier_network_enrolled_is_set_aside_not_lost(data_dir, caplog):
    old = default_profile().to_dict() | {"network": "0123456789abcdef"}
    save(data_dir / PROFILE_NAME, "profile", 2, old)
    before = (data_dir / PROFILE_NAME).read_bytes()
    caplog.set_level(logging.WARNING, logger="hivecam")
    service, _, live, _, _ = serve_command.build(_serve_args(data_dir, "--source", "usb:97"))
    try:
        assert live.recognise.__self__.enrolled.note == default_profile().note  # the built-in one reads
        assert "another creature network" in caplog.text and "calibrate enroll" in caplog.text
        assert (data_dir / PROFILE_NAME).read_bytes() == before
    finally:
        service.store.close()
    with pytest.raises(CalibrationFileError, match="another creature network"):  # named: it must load
        serve_command.load_profile(str(data_dir / PROFILE_NAME))


def test_moves_illegal_moves_and_rulings_are_logged_one_line_each(table, controller, caplog):
    caplog.set_level(logging.INFO, logger="hivecam")
    table.play("wS1", "bG1 -wS1", "wG1 wS1-", "bQ -bG1")
    table.illegal("wG1 -bQ")
    controller.post_json("/api/game/override")
    lines = [r.getMessage() for r in caplog.records if r.name == "hivecam.game"]
    assert all("\n" not in line for line in lines)
    assert any(line.endswith("move 1 wS1") for line in lines)
    assert any("illegal move by White" in line and "No moving before the Queen" in line for line in lines)
    assert any("move 5 wG1 -bQ, kept by the arbiter" in line for line in lines)


def test_a_failing_request_is_a_json_500_and_one_log_line(client, service, monkeypatch, caplog):
    monkeypatch.setattr(type(service), "snapshot", lambda self: 1 / 0)
    response = client.get("/api/state")
    assert response.status_code == 500 and "log" in response.get_json()["error"]
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert errors == ["GET /api/state failed: ZeroDivisionError: division by zero"]


def test_the_session_says_how_to_recover_the_pin(client, data_dir, monkeypatch):
    assert "HIVECAM_PIN" in client.get("/api/session").get_json()["pin_help"]
    monkeypatch.delenv("HIVECAM_PIN")
    assert f"hivecam pin --reset --data {data_dir}" in Control(data_dir).recovery()


def test_pin_reset_prints_a_new_pin_the_running_server_takes_at_once(controller, data_dir, monkeypatch):
    env = {k: v for k, v in os.environ.items() if k != "HIVECAM_PIN"}
    done = subprocess.run([sys.executable, "-m", "webui.cli", "pin", "--reset", "--data", str(data_dir)],
                          cwd=ROOT, env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    new = done.stdout.split("PIN ")[1].split()[0]
    assert new.isdigit() and len(new) == 6
    assert controller.get("/api/session").get_json()["control"] is False  # the old session ended
    token = csrf(controller)
    assert controller.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token}).status_code == 403
    assert controller.post("/api/login", json={"pin": new}, headers={"X-CSRF-Token": token}).status_code == 200


@pytest.mark.parametrize("args, problem", [([], "holds no PIN yet")])
def test_pin_command_without_a_pin(tmp_path, capsys, args, problem):
    from webui.cli import main

    assert main(["pin", "--data", str(tmp_path), *args]) == 2
    assert problem in capsys.readouterr().err


def test_first_start_logs_the_pin_and_later_starts_how_to_recover_it(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "HIVECAM_PIN"}
    outputs = []
    with socket.socket() as taken:  # the server stops at once: the port is in use
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        for _ in range(2):
            done = subprocess.run([sys.executable, "-m", "webui.cli", "serve", "--data", str(tmp_path), "--source",
                                   "usb:97", "--port", str(taken.getsockname()[1])], cwd=ROOT,
                                  env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=60)
            assert done.returncode != 0
            outputs.append(done.stderr)
    assert "control PIN" in outputs[0] and "hivecam pin --reset" in outputs[1]


def test_pages_are_told_when_the_server_stops(tmp_path):
    process, base = start_server(tmp_path / "data", "--source", "usb:97")
    try:
        with urllib.request.urlopen(base + "/api/events", timeout=20) as stream:
            assert stream.readline().startswith(b"event: state")
            process.send_signal(signal.SIGTERM)
            lines = [stream.readline() for _ in range(40)]
        assert b"event: server\n" in lines and any(b'"status":"stopping"' in line for line in lines)
    finally:
        process.terminate()
        process.wait(10)


def test_camera_status_changes_are_logged_once_each(service, caplog):
    caplog.set_level(logging.INFO, logger="hivecam")
    for pause in (0.5, 1, 2):
        service.set_camera("reconnecting", f"usb:0: not found; retrying in {pause:g} s")
    service.set_camera("ok", "usb:0: live")
    lines = [(r.levelname, r.getMessage()) for r in caplog.records if r.getMessage().startswith("camera:")]
    assert lines == [("WARNING", "camera: usb:0: not found; retrying in 0.5 s"), ("INFO", "camera: usb:0: live")]


def test_demo_games_an_older_hivecam_logged_with_real_ones_are_kept_but_not_listed(data_dir):
    demo = demo_record()
    store = GameStore(data_dir / "games.sqlite3")
    for players, moves in (((demo.tags["White"], demo.tags["Black"]), demo.moves[:5]), (("Ann", "Bob"), []),
                           ((demo.tags["White"], demo.tags["Black"]), demo.moves)):
        record = GameRecord(demo.game_type, demo.options, White=players[0], Black=players[1])
        game = store.create(record)
        for entry in moves:
            record.append(entry.move)
        store.save(game, record, {}, [])
    store.close()
    service, _, _, app, _ = serve_command.build(_serve_args(data_dir, "--source", "usb:97"))
    try:
        listed = app.test_client().get("/api/games").get_json()["games"]
        assert [(g["id"], g["white"]) for g in listed] == [(2, "Ann")] and service.game_id == 2
        assert len(service.store._db.execute("SELECT id FROM games").fetchall()) == 3  # none lost
    finally:
        service.store.close()
