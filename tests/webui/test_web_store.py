"""The SQLite game log: what is saved comes back exactly, and a restart resumes the game."""

from __future__ import annotations

import json
import sqlite3

import pytest

from webhelpers import Table

from rules import RuleOptions
from rules.pieces import Colour, Piece
from rules.record import GameRecord
from rules.referee import NOTHING, RefereeConfig
from webui.game import GameService
from webui.hub import Hub
from webui.store import DamagedGame, GameStore


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
    table.service = resumed  # the table is still there: seen as recorded, then play goes on
    table.show(table.board.stacks())
    table.play("wQ wS1\\")
    assert len(resumed.snapshot()["moves"]) == 5


def test_a_resumed_game_asks_about_a_tile_no_hand_laid_and_nothing_keeps_the_record(tmp_path):
    store = GameStore(tmp_path / "log.sqlite3")
    service = GameService(store, Hub(), RefereeConfig(stable_seconds=0.2))
    table = Table(service)
    table.play("wS1", "bG1 -wS1")
    store.close()

    resumed = GameService(GameStore(tmp_path / "log.sqlite3"), Hub(), RefereeConfig(stable_seconds=0.2))
    table.service = resumed
    page = resumed.hub.subscribe()
    table.show(table.board.stacks() | {(1, 0): [Piece.parse("wA1")]})  # a mat's print read as a white Ant
    pending = resumed.snapshot()["pending"]
    assert pending["kind"] == "needs_confirmation" and pending["candidates"] == ["wA1 wS1-", NOTHING]
    while not page.queue.empty():
        page.queue.get_nowait()
    assert resumed.act(lambda referee: referee.confirm(NOTHING)) == []
    assert [m["uhp"] for m in resumed.snapshot()["moves"]] == ["wS1", "bG1 -wS1"]
    told = json.loads(page.queue.get_nowait().split("data: ", 1)[1])
    assert told["state"]["pending"] is None  # the page drops the question at once
    table.play("wA1 wS1/")
    assert [m["uhp"] for m in resumed.snapshot()["moves"]][-1] == "wA1 wS1/"


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


def _damaged_log(tmp_path, column: str, value) -> tuple[GameStore, int, int]:
    """A log of two games, the older with ``column`` of its row set to ``value`` (a hand edit)."""
    store = GameStore(tmp_path / "log.sqlite3")
    record = GameRecord("Base", White="Ann", Black="Bob")
    record.append("wS1")
    broken = store.create(record)
    store.save(broken, record, {}, [])
    with sqlite3.connect(tmp_path / "log.sqlite3") as db:
        db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (value, broken))
    db.close()
    return store, broken, store.create(GameRecord("Base"))


DAMAGE = [("tags", "{not json"), ("tags", "[1, 2]"), ("tags", '{"White": 5}'), ("tags", '{"White": "a\\u2028b"}'),
          ("tags", '{"White": "\\ud800"}'), ("tags", "[" * 5000 + "]" * 5000), ("tags", 7),
          ("options", '{"queen_may_open": false, "colour": "red"}'), ("options", '{"queen_may_open": "yes"}'),
          ("options", '{"illegal_move_limit": 1e300}'), ("result", "Somebody"), ("warnings", '{"w": -1}'),
          ("warnings", '{"green": 1}'), ("game_type", "Chess"), ("ending", "Boredom")]


@pytest.mark.parametrize("column, value", DAMAGE)
def test_a_damaged_row_is_reported_and_the_rest_of_the_log_served(tmp_path, column, value):
    store, broken, sound = _damaged_log(tmp_path, column, value)
    with pytest.raises(DamagedGame, match=f"game {broken} in the log is damaged"):
        store.load(broken)
    assert store.load(sound).record.moves == []
    listed = {g.id: g for g in store.games()}
    assert listed[sound].problem == ""
    if column in ("tags", "result"):  # the values the list shows
        assert "damaged" in listed[broken].problem
    service = GameService(store, Hub(), RefereeConfig())  # starts, resuming the sound latest game
    assert service.game_id == sound


@pytest.mark.parametrize("column, value", [("options", '{"colour": "red"}'), ("tags", '{"White": "\\u0085"}')])
def test_a_damaged_latest_game_is_kept_and_said_and_a_new_game_begins(tmp_path, column, value):
    store, broken, sound = _damaged_log(tmp_path, column, value)
    with sqlite3.connect(tmp_path / "log.sqlite3") as db:
        db.execute("DELETE FROM games WHERE id = ?", (sound,))
    db.close()
    service = GameService(store, Hub(), RefereeConfig())
    assert service.game_id not in (broken, sound)
    assert f"Game {broken} could not be resumed" in service.notices[0]


def test_a_set_aside_log_is_said_on_the_pages(tmp_path):
    path = tmp_path / "log.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 20)
    service = GameService(GameStore(path), Hub(), RefereeConfig())
    assert str(service.store.quarantined) in service.notices[0]
