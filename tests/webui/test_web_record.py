"""The complete record through the API: illegal attempts, clocks and time controls, in the
page's JSON, the log and the downloaded PGN; logs of older hivecams still open."""

from __future__ import annotations

import sqlite3
import time

import pytest

from rules import RuleOptions
from rules.pgn import parse_pgn
from rules.pieces import Colour
from rules.record import GameRecord, IllegalAttempt
from rules.referee import RefereeConfig
from rules.setup import Setup
from webui import doctor
from webui.game import GameService
from webui.hub import Hub
from webui.store import MIGRATIONS, SCHEMA, DamagedGame, GameStore, damaged_games

OPENING = ("wS1", "bG1 -wS1", "wG1 wS1-", "bQ -bG1")


def _pgn(client, game_id: int) -> str:
    return client.get(f"/api/games/{game_id}/pgn").get_data(as_text=True)


def test_a_taken_back_illegal_attempt_stays_in_the_move_list_the_log_and_the_pgn(client, table, service):
    table.play(*OPENING)
    table.illegal("wG1 -bQ")  # a Grasshopper jump before White's Queen
    table.show(table.board.stacks())  # taken back
    table.play("wQ wS1\\")
    entries = client.get("/api/state").get_json()["entries"]
    assert [e["kind"] for e in entries] == ["move"] * 4 + ["illegal", "move"]
    tried = entries[4]
    assert (tried["after_ply"], tried["colour"], tried["uhp"], tried["resolution"], tried["by"]) == \
        (4, "w", "wG1 -bQ", "taken back", "w")
    assert tried["rule"] == "No moving before the Queen" and tried["message"]
    pgn = _pgn(client, service.game_id)
    assert "[%illegal wG1 -bQ]" in pgn and "taken back by White" in pgn
    assert [(a.ply, a.uhp, a.resolution) for a in parse_pgn(pgn).attempts] == [(4, "wG1 -bQ", "taken back")]
    replay = client.get(f"/api/games/{service.game_id}").get_json()
    assert [e["kind"] for e in replay["entries"]] == [e["kind"] for e in entries]
    assert client.get("/api/state").get_json()["warnings_total"] == 1


def test_attempts_survive_a_restart(data_dir, table, service):
    table.play(*OPENING)
    table.illegal("wG1 -bQ")
    service.store.close()
    again = GameService(GameStore(data_dir / "games.sqlite3"), Hub(), RefereeConfig(stable_seconds=0.2))
    assert [(a.uhp, a.resolution) for a in again.referee.record.attempts] == [("wG1 -bQ", "pending")]
    again.store.close()


def test_clocks_run_for_the_side_to_move_and_are_written(controller, table, service):
    response = controller.post_json("/api/game/new", {"white": "Ann", "black": "Bob", "time_control": "5+3"})
    assert response.status_code == 200 and response.get_json()["state"]["clocks"]["control"] == "5+3"
    table.time = service.clock()  # frames stamped on the game clock, as the live loop does
    table.play("wS1", "bG1 -wS1")
    time.sleep(max(0.0, table.time - service.clock()) + 0.05)  # the fake frames came faster than real time
    first = controller.get("/api/state").get_json()
    time.sleep(0.3)
    later = controller.get("/api/state").get_json()["clocks"]
    clocks = first["clocks"]
    assert clocks["running"] == "w" and clocks["flagged"] is None
    assert later["w"]["used"] > clocks["w"]["used"] and later["b"]["used"] == clocks["b"]["used"]
    moves = first["entries"]
    assert moves[0]["emt"] > 0 and moves[1]["clk"] == pytest.approx(300 + 3 - moves[1]["emt"])
    assert clocks["b"]["left"] == pytest.approx(moves[1]["clk"])
    pgn = _pgn(controller, service.game_id)
    assert '[TimeControl "5+3"]' in pgn and "[%emt 0:00:0" in pgn and "[%clk 0:05:0" in pgn
    assert "%time" not in pgn


def test_without_a_time_control_the_clocks_count_up_only(client, table):
    table.play("wS1")
    clocks = client.get("/api/state").get_json()["clocks"]
    assert clocks["control"] is None and clocks["w"]["left"] is None and clocks["running"] == "b"


@pytest.mark.parametrize("text", ["15", "15+", "a+b", "0+5", "15+10+1", "9" * 13])
def test_a_bad_time_control_is_refused(controller, service, text):
    old = service.game_id
    response = controller.post_json("/api/game/new", {"time_control": text})
    assert response.status_code == 400 and response.get_json()["error"]
    assert service.game_id == old


def _older_log(path) -> None:
    """A log as hivecam wrote it before attempts and set-ups were kept."""
    with sqlite3.connect(path) as db:
        db.executescript(SCHEMA)
        db.execute("INSERT INTO games (created, game_type, options, tags, result, moves) VALUES "
                   "(1.0, 'Base', '{}', '{\"White\": \"Ann\"}', 'InProgress', 2)")
        db.executemany("INSERT INTO moves VALUES (1, ?, ?, ?, NULL, '')", [(1, "wS1", "2.5"), (2, "bG1 -wS1", "4.0")])
    db.close()


def test_doctor_reads_an_older_log_without_changing_it(tmp_path):
    path = tmp_path / "games.sqlite3"
    _older_log(path)
    assert [(f.level, f.what) for f in doctor.check_log(path)] == [("ok", "game log")]
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    db.close()


def test_a_log_of_an_older_hivecam_opens_with_every_game(tmp_path):
    path = tmp_path / "games.sqlite3"
    _older_log(path)
    store = GameStore(path)
    stored = store.load(1)
    assert [m.uhp for m in stored.record.moves] == ["wS1", "bG1 -wS1"] and stored.record.attempts == []
    assert store._db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    stored.record.add_attempt(IllegalAttempt(2, "wQ bG1-", Colour.WHITE, "Rule", "A message.", 5.0))
    store.save(1, stored.record, {}, [])
    store.close()
    assert [a.uhp for a in GameStore(path).load(1).record.attempts] == ["wQ bG1-"]


def test_a_damaged_attempt_row_marks_the_game_damaged_not_lost(tmp_path):
    path = tmp_path / "games.sqlite3"
    store = GameStore(path)
    service = GameService(store, Hub())
    service.new_game("Base", RuleOptions())
    game = service.game_id
    store._db.execute("INSERT INTO attempts VALUES (?, 0, 7, 'wQ', 'w', 'r', 'm', NULL, 'pending', NULL)", (game,))
    with pytest.raises(DamagedGame, match="never recorded"):
        store.load(game)
    assert any("never recorded" in problem for problem in damaged_games(store._db))
    store.close()


def test_a_game_from_a_set_up_position_is_logged_and_read_back(tmp_path):
    setup = Setup.parse("b 0,0:wQ 1,0:bQ -1,0:wS1 2,0:bS1")
    store = GameStore(tmp_path / "games.sqlite3")
    record = GameRecord("Base", setup=setup, White="Ann")
    game = store.create(record)
    record.append("bG1 bS1-", timestamp=3.0)
    store.save(game, record, {}, [])
    store.close()
    loaded = GameStore(tmp_path / "games.sqlite3").load(game).record
    assert loaded.setup == setup and [m.uhp for m in loaded.moves] == ["bG1 bS1-"]
    assert loaded.first_to_move is Colour.BLACK


def test_a_save_that_fails_half_way_changes_nothing(tmp_path):
    store = GameStore(tmp_path / "games.sqlite3")
    record = GameRecord("Base")
    game = store.create(record)
    record.append("wS1")
    store.save(game, record, {}, [{"kind": "move"}])
    store._db.execute("ALTER TABLE attempts RENAME TO gone")  # the save's last statements fail
    record.append("bG1 -wS1")
    with pytest.raises(sqlite3.OperationalError):
        store.save(game, record, {}, [{"kind": "move"}])
    assert store._db.execute("SELECT COUNT(*) FROM moves").fetchone()[0] == 1
    assert store._db.execute("SELECT COUNT(*) FROM events").fetchone()[0] == 1
    assert store._db.execute("SELECT moves FROM games").fetchone()[0] == 1
