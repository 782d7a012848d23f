"""The page's JSON (``webui.pagedata``): one shape for the live state, the replay and the rulings."""

from __future__ import annotations

from rules.board import Board
from rules.pieces import Piece
from webui import pagedata
from webui.demo import demo_record


def test_state_has_every_key_the_pages_read(client, table):
    table.play("wS1", "bG1 -wS1")
    state = client.get("/api/state").get_json()
    for key in ("game_id", "camera", "game_type", "state", "turn", "turn_number", "ply", "players", "options",
                "hand", "stacks", "pending", "warnings", "warnings_total", "moves", "entries", "surrounded",
                "clocks", "setup", "last_cells", "game_string"):
        assert key in state, key
    assert state["warnings_total"] == 0 and state["surrounded"] == []
    assert [(e["kind"], e["ply"], e["turn"], e["colour"], e["uhp"]) for e in state["entries"]] == [
        ("move", 1, 1, "w", "wS1"), ("move", 2, 1, "b", "bG1 -wS1")]


def test_the_warnings_total_counts_both_players(client, table):
    table.play("wS1", "bG1 -wS1", "wG1 wS1-", "bQ -bG1")
    table.illegal("wG1 -bQ")
    assert client.get("/api/state").get_json()["warnings_total"] == 1


def test_the_surrounded_queen_is_named_by_its_cell():
    board = demo_record().board()  # White wins: Black's Queen surrounded
    assert pagedata.surrounded(board) == [{"q": q, "r": r} for q, r in [board.cell_of(Piece.parse("bQ"))]]
    assert pagedata.surrounded(Board("Base")) == []


def test_replay_positions_carry_hands_and_the_game_its_tags(client, table, service):
    table.play("wS1", "bG1 -wS1")
    game = client.get(f"/api/games/{service.game_id}").get_json()
    assert game["positions"][0]["hand"]["w"][0] == "wQ" and len(game["positions"][2]["hand"]["b"]) == 10
    assert game["tags"]["White"] == "Ann" and [e["uhp"] for e in game["entries"]] == ["wS1", "bG1 -wS1"]


def test_results_in_words_and_the_last_move_of_each_replay_position(controller, table, service):
    table.play("wS1", "bG1 -wS1")
    controller.post_json("/api/game/resign", {"colour": "b"})
    game = controller.get(f"/api/games/{service.game_id}").get_json()
    assert game["result_text"] == "White wins (resignation)"
    assert game["positions"][0]["last_cells"] is None and game["positions"][2]["last_cells"] == {
        "origin": None, "dest": [-1, 0]}
    listed = controller.get("/api/games").get_json()["games"][0]
    assert listed["result_text"] == "White wins"
    assert controller.get("/api/state").get_json()["result_text"] == "White wins (resignation)"
