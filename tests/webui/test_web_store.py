"""The SQLite game log: what is saved comes back exactly, and a restart resumes the game."""

from __future__ import annotations

import sqlite3

from webhelpers import Table

from rules import RuleOptions
from rules.pieces import Colour
from rules.record import GameRecord
from rules.referee import RefereeConfig
from webui.game import GameService
from webui.hub import Hub
from webui.store import GameStore


def test_round_trip_of_moves_marks_result_and_warnings(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    record = GameRecord("Base+MLP", White="Ann", Black="Bob")
    game = store.create(record, illegal_move_limit=3)
    record.append("wS1", timestamp=1.5)
    record.append("bG1 -wS1", timestamp=3.25, mark="correction", comment="confirmed by hand")
    record.append("wS1 bG1/", timestamp=7.0, mark="override")  # illegal (no Queen yet), kept by the arbiter
    record.resign(Colour.BLACK)
    store.save(game, record, {Colour.WHITE: 1, Colour.BLACK: 0}, [{"kind": "move", "uhp": "wS1"}])
    store.close()

    again = GameStore(tmp_path / "log.sqlite3")
    stored = again.load(game)
    loaded, warnings = stored.record, stored.warnings
    assert stored.illegal_move_limit == 3
    assert [(m.uhp, m.timestamp, m.mark, m.comment) for m in loaded.moves] == \
        [(m.uhp, m.timestamp, m.mark, m.comment) for m in record.moves]
    assert loaded.result == record.result and loaded.declared == record.declared
    assert loaded.tags["White"] == "Ann" and warnings == {Colour.WHITE: 1, Colour.BLACK: 0}
    assert again.events(game) == [{"kind": "move", "uhp": "wS1"}]
    summary = again.games()[0]
    assert (summary.id, summary.white, summary.result, summary.moves) == (game, "Ann", "WhiteWins", 3)


def test_taken_back_moves_leave_the_log(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    record = GameRecord("Base")
    game = store.create(record)
    for move in ("wS1", "bG1 -wS1", "wQ wS1/"):
        record.append(move)
    store.save(game, record, {}, [])
    record.pop()
    record.pop()
    record.append("bA1 -wS1")
    store.save(game, record, {}, [])
    assert [m.uhp for m in store.load(game).record.moves] == ["wS1", "bA1 -wS1"]


def test_journal_is_wal_with_full_sync(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_are_on_disk_before_anyone_sees_them(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    hub = Hub()
    service = GameService(store, hub, RefereeConfig(stable_seconds=0.2))
    seen_on_disk = []
    reader = sqlite3.connect(tmp_path / "log.sqlite3")
    original = hub.publish

    def publish(name, data):
        if name == "update":  # what a second connection (another process) finds at this moment
            seen_on_disk.append(reader.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
        original(name, data)

    hub.publish = publish
    Table(service).play("wS1", "bG1 -wS1")
    assert seen_on_disk and seen_on_disk[-1] == 2


def test_a_new_service_resumes_the_latest_game(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    service = GameService(store, Hub(), RefereeConfig(stable_seconds=0.2))
    service.new_game("Base", RuleOptions(), "Ann", "Bob", illegal_move_limit=5)
    table = Table(service)
    table.play("wS1", "bG1 -wS1", "wG1 wS1-", "bQ -bG1")
    table.illegal("wG1 -bQ")  # a warning for White
    game = service.game_id
    store.close()

    resumed = GameService(GameStore(tmp_path / "log.sqlite3"), Hub(), RefereeConfig(stable_seconds=0.2))
    state = resumed.snapshot()
    assert resumed.game_id == game
    assert [m["uhp"] for m in state["moves"]] == ["wS1", "bG1 -wS1", "wG1 wS1-", "bQ -bG1"]
    assert state["warnings"] == {"w": 1, "b": 0} and state["illegal_move_limit"] == 5
    assert resumed.clock() >= state["moves"][-1]["time"]  # the game clock goes on, never back
    table.service = resumed  # the table is still there: play on
    table.play("wQ wS1\\")
    assert len(resumed.snapshot()["moves"]) == 5


def test_a_damaged_log_is_kept_aside_and_a_new_one_begins(tmp_path):
    path = tmp_path / "log.sqlite3"
    damaged = b"SQLite format 3\x00" + bytes(range(256)) * 20  # a header, then garbage
    path.write_bytes(damaged)
    store = GameStore(path)
    assert store.quarantined is not None and store.quarantined.read_bytes() == damaged
    assert store.quarantined.name.startswith("log.sqlite3.corrupt-")
    game = store.create(GameRecord("Base"))
    assert store.latest() == game and store.load(game).record.moves == []


def test_a_game_that_no_longer_replays_is_kept_and_a_new_game_begins(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    record = GameRecord("Base", White="Ann", Black="Bob")
    record.append("wS1")
    broken = store.create(record)
    store.save(broken, record, {}, [])
    with sqlite3.connect(tmp_path / "log.sqlite3") as db:  # a hand edit: a move that cannot be played
        db.execute("UPDATE moves SET uhp = 'wQ wS1-' WHERE game_id = ?", (broken,))
    service = GameService(store, Hub(), RefereeConfig())
    assert service.game_id != broken and service.snapshot()["moves"] == []
    assert [g.id for g in store.games()] == [service.game_id, broken]
