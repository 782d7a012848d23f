"""No dead ends through the API: checking the board, starting from the table, replacing the last move."""

from __future__ import annotations

import logging

from webhelpers import Table

from rules import RuleOptions
from rules.pgn import parse_pgn

OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")
MIDGAME = OPENING + ("wA1 -wQ", "bA1 bQ-", "wA2 -wA1", "bS1 bA1-", "wB1 /wQ")  # Black to move


def _table_showing(service, *moves: str) -> Table:
    """A new empty game while ``moves`` have been played on the table, shown to the camera long
    enough for the referee to say the board must be checked."""
    service.new_game("Base+MLP", RuleOptions(), "Ann", "Bob")
    table = Table(service)
    for move in moves:
        table.board.push_uhp(move)
    table.show(table.board.stacks(), frames=30)
    return table


def test_a_board_that_does_not_match_shows_the_reading_and_the_ways_out(client, service):
    _table_showing(service, *MIDGAME)
    pending = client.get("/api/state").get_json()["pending"]
    assert pending["kind"] == "check" and "9 pieces appeared" in pending["message"]
    assert pending["what_to_do"] and pending["ways_out"] == ["restore", "start_from_table"]
    assert len(pending["reading"]) == 9 and len(pending["differences"]) == 9
    queens = [p for s in pending["reading"] for p in s["pieces"] if p["creature"] == "Q"]
    assert sorted(p["name"] for p in queens) == ["bQ", "wQ"]
    assert all(d["expected"] == [] and len(d["seen"]) == 1 for d in pending["differences"])


def test_start_from_the_table_adopts_the_position_and_referees_on(controller, service):
    table = _table_showing(service, *MIDGAME)
    position = controller.get("/api/table-position").get_json()
    kinds = [q["kind"] for q in position["questions"]]
    assert kinds[0] == "to_move" and position["questions"][0]["default"] == "b" and "numbers" in kinds
    assert len(position["stacks"]) == 9
    ants = next(q for q in position["questions"] if q["kind"] == "numbers" and "Ant" in q["text"])
    first, second = ants["cells"]
    body = {"to_move": "b", "white": "Ann", "black": "Bob", "time_control": "10+5", "event": "Club",
            "numbers": {f"{first['q']},{first['r']}": "wA2", f"{second['q']},{second['r']}": "wA1"}}
    old = service.game_id
    response = controller.post_json("/api/game/start-from-table", body)
    assert response.status_code == 200, response.get_json()
    state = response.get_json()["state"]
    assert service.game_id != old and state["setup"]["to_move"] == "b" and state["turn"] == "b"
    at_once = controller.get(f"/api/games/{service.game_id}/pgn")  # before anything else is saved
    assert at_once.status_code == 200 and '[SetUp "1"]' in at_once.get_data(as_text=True)
    on_cell = {(s["q"], s["r"]): s["pieces"] for s in state["stacks"]}
    assert on_cell[(first["q"], first["r"])] == ["wA2"] and on_cell[(second["q"], second["r"])] == ["wA1"]
    assert state["entries"] == [] and state["clocks"]["control"] == "10+5" and state["clocks"]["running"] == "b"
    table.show(table.board.stacks())
    assert controller.get("/api/state").get_json()["pending"] is None  # the table is the game now
    table.play("bA2 bS1-")
    after = controller.get("/api/state").get_json()
    assert [e["uhp"] for e in after["entries"]] == ["bA2 bS1-"] and after["entries"][0]["colour"] == "b"
    pgn = controller.get(f"/api/games/{service.game_id}/pgn").get_data(as_text=True)
    record = parse_pgn(pgn)
    assert '[SetUp "1"]' in pgn and record.setup is not None and record.setup.to_move.value == "b"
    assert [m.uhp for m in record.moves] == ["bA2 bS1-"] and record.tags["Event"] == "Club"


def test_start_from_the_table_refuses_answers_that_make_no_position(controller, service):
    _table_showing(service, *MIDGAME)
    old = service.game_id
    for body, status in (({"to_move": "b", "numbers": {"0,0": "bQ"}}, 409), ({"to_move": "x"}, 400),
                         ({}, 400), ({"to_move": "b", "numbers": {"zero": "wA1"}}, 400),
                         ({"to_move": "b", "numbers": ["wA1"]}, 400), ({"to_move": "b", "under": {"0,0": "wQ"}}, 400)):
        response = controller.post_json("/api/game/start-from-table", body)
        assert response.status_code == status, (body, response.get_json())
        assert response.get_json()["error"]
    assert service.game_id == old


def test_answers_to_a_reading_the_table_has_left_are_refused(controller, service):
    table = _table_showing(service, *MIDGAME)
    read = controller.get("/api/table-position").get_json()
    assert read["view"] == controller.get("/api/table-position").get_json()["view"]  # the same table, the same name
    table.board.push_uhp("bA2 bS1-")  # a move while the person answers
    table.show(table.board.stacks(), frames=30)
    old = service.game_id
    response = controller.post_json("/api/game/start-from-table", {"to_move": "b", "view": read["view"]})
    assert response.status_code == 409 and "table changed" in response.get_json()["error"]
    assert service.game_id == old
    again = controller.get("/api/table-position").get_json()
    assert again["view"] != read["view"] and len(again["stacks"]) == len(read["stacks"]) + 1
    response = controller.post_json("/api/game/start-from-table", {"to_move": "w", "view": again["view"]})
    assert response.status_code == 200, response.get_json()
    assert len(response.get_json()["state"]["stacks"]) == 10


def test_table_position_before_any_steady_view_is_a_conflict(client):
    response = client.get("/api/table-position")
    assert response.status_code == 409 and "steady view" in response.get_json()["error"]


def test_start_from_the_table_needs_the_pin(client, service):
    _table_showing(service, *MIDGAME)
    token = client.get("/api/session").get_json()["csrf"]
    assert client.post("/api/game/start-from-table", json={"to_move": "b"},
                       headers={"X-CSRF-Token": token}).status_code == 401


def test_replace_last_corrects_the_last_recorded_move(controller, table, service):
    table.play("wS1", "bG1 -wS1")
    response = controller.post_json("/api/game/replace-last", {"move": "bA1 -wS1"})
    assert response.status_code == 200, response.get_json()
    moves = controller.get("/api/state").get_json()["entries"]
    assert [m["uhp"] for m in moves] == ["wS1", "bA1 -wS1"] and moves[-1]["mark"] == "correction"
    bad = controller.post_json("/api/game/replace-last", {"move": "bQ bQ-"})
    assert bad.status_code == 409 and bad.get_json()["error"]
    assert [m["uhp"] for m in service.snapshot()["entries"]] == ["wS1", "bA1 -wS1"]


def test_rename_retells_the_record_with_a_tile_as_another_creature(controller, table, service, caplog):
    table.play("wG1", "bG1 wG1-", "wG2 -wG1")
    with caplog.at_level(logging.INFO, logger="hivecam"):
        response = controller.post_json("/api/game/rename", {"tile": "wG1=wA1"})
    assert response.status_code == 200, response.get_json()
    assert [e["kind"] for e in response.get_json()["events"]] == ["renamed"]
    assert "the tile recorded as wG1 was wA1: the record is retold from move 1" in caplog.text
    stored = service.store.load(service.game_id).record  # the log holds the retold record
    assert [m.uhp for m in stored.moves] == ["wA1", "bG1 wA1-", "wG1 -wA1"]
    assert stored.moves[0].comment == "recorded as wG1 at first"
    assert [m["uhp"] for m in service.snapshot()["entries"]] == ["wA1", "bG1 wA1-", "wG1 -wA1"]
    for bad in ("wG1=bA1", "wQ=wA1", "wG1"):  # another colour, a piece never placed, no '='
        answer = controller.post_json("/api/game/rename", {"tile": bad})
        assert answer.status_code == 409 and answer.get_json()["error"], bad
    assert [m["uhp"] for m in service.snapshot()["entries"]] == ["wA1", "bG1 wA1-", "wG1 -wA1"]


def test_replace_last_with_no_move_recorded_is_a_conflict(controller):
    response = controller.post_json("/api/game/replace-last", {"move": "wS1"})
    assert response.status_code == 409 and "no recorded move" in response.get_json()["error"]
