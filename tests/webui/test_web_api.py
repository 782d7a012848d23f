"""The HTTP API: every control endpoint with good input, bad input, and without the PIN."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import PIN, csrf

from rules.pgn import parse_pgn

CONTROL = ["/api/game/new", "/api/game/confirm", "/api/game/correct", "/api/game/add-missed",
           "/api/game/replace-last", "/api/game/rename", "/api/game/start-from-table", "/api/game/override",
           "/api/game/undo", "/api/game/resign", "/api/game/draw", "/api/pin"]


@pytest.mark.parametrize("url", CONTROL)
def test_control_needs_the_pin(client, url):
    response = client.post(url, json={}, headers={"X-CSRF-Token": csrf(client)})
    assert response.status_code == 401
    assert "PIN" in response.get_json()["error"]


@pytest.mark.parametrize("url", CONTROL)
def test_control_needs_the_csrf_token(controller, url):
    response = controller.post(url, json={})
    assert response.status_code == 403
    assert "CSRF" in response.get_json()["error"]


def test_login_wrong_pin_and_rate_limit(client):
    token = csrf(client)
    for _ in range(5):
        response = client.post("/api/login", json={"pin": "0000"}, headers={"X-CSRF-Token": token})
        assert response.status_code == 403
    blocked = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0


@pytest.mark.parametrize("body", [{"pin": "12"}, {"pin": "abcd"}, {}, {"pin": None}, {"pin": True}])
def test_login_malformed_pin(client, body):
    response = client.post("/api/login", json=body, headers={"X-CSRF-Token": csrf(client)})
    assert response.status_code == 400


def test_login_then_logout(controller):
    assert controller.get("/api/session").get_json()["control"] is True
    assert controller.post_json("/api/logout").status_code == 200
    assert controller.get("/api/session").get_json()["control"] is False


def test_change_pin(controller, client):
    assert controller.post_json("/api/pin", {"current": PIN, "pin": "12"}).status_code == 400
    assert controller.post_json("/api/pin", {"pin": "975310"}).status_code == 400  # no current PIN
    assert controller.post_json("/api/pin", {"current": "1357", "pin": "975310"}).status_code == 403
    assert controller.post_json("/api/pin", {"current": PIN, "pin": "975310"}).status_code == 200
    assert controller.get("/api/session").get_json()["control"] is True  # the changer stays in
    controller.post_json("/api/logout")
    token = csrf(client)
    assert client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token}).status_code == 403
    assert client.post("/api/login", json={"pin": "975310"}, headers={"X-CSRF-Token": token}).status_code == 200


def test_new_game(controller, service):
    old = service.game_id
    response = controller.post_json("/api/game/new", {"game_type": "Base+ML", "white": "Cy", "black": "Di",
                                                       "queen_may_open": True, "illegal_move_limit": 3})
    assert response.status_code == 200
    state = response.get_json()["state"]
    assert state["game_type"] == "Base+ML" and state["players"] == {"w": "Cy", "b": "Di"}
    assert state["options"]["queen_may_open"] is True and state["illegal_move_limit"] == 3
    assert service.game_id != old


def test_new_game_event_and_round_reach_the_pgn(controller, service):
    response = controller.post_json("/api/game/new", {"white": "Cy", "black": "Di", "event": "Club night",
                                                       "round": "3"})
    assert response.status_code == 200
    pgn = parse_pgn(controller.get(f"/api/games/{service.game_id}/pgn").get_data(as_text=True))
    assert pgn.tags["Event"] == "Club night" and pgn.tags["Round"] == "3"


@pytest.mark.parametrize("body", [{"game_type": "Chess"}, {"game_type": 7}, {"queen_may_open": "yes"},
                                  {"illegal_move_limit": 0}, {"white": "x" * 61}, {"white": "a\nb"},
                                  {"event": "x" * 61}, {"round": ["1"]}])
def test_new_game_rejects_bad_input(controller, service, body):
    old = service.game_id
    response = controller.post_json("/api/game/new", body)
    assert response.status_code == 400 and response.get_json()["error"]
    assert service.game_id == old


def test_body_must_be_a_json_object(controller):
    response = controller.post("/api/game/undo", data="[1, 2]", content_type="application/json",
                               headers={"X-CSRF-Token": controller.get("/api/session").get_json()["csrf"]})
    assert response.status_code == 400


@pytest.mark.parametrize("url", ["/api/game/add-missed", "/api/game/correct"])
def test_add_missed_and_undo(controller, table, service, url):
    table.play("wS1", "bG1 -wS1")
    assert controller.post_json(url, {"move": "wQ wS1/"}).status_code == 200
    assert [m["uhp"] for m in service.snapshot()["moves"]] == ["wS1", "bG1 -wS1", "wQ wS1/"]
    assert service.snapshot()["moves"][-1]["mark"] == "correction"
    assert controller.post_json("/api/game/undo").status_code == 200
    assert len(service.snapshot()["moves"]) == 2


@pytest.mark.parametrize("body,status", [({"move": "wQ bG1-"}, 409), ({"move": "zz"}, 409), ({}, 400),
                                         ({"move": 5}, 400)])
def test_correct_rejects_bad_moves(controller, table, service, body, status):
    table.play("wS1", "bG1 -wS1")
    response = controller.post_json("/api/game/correct", body)
    assert response.status_code == status and response.get_json()["error"]
    assert len(service.snapshot()["moves"]) == 2


def test_undo_with_no_moves_is_a_conflict(controller):
    response = controller.post_json("/api/game/undo")
    assert response.status_code == 409 and "no move" in response.get_json()["error"]


def test_override_an_illegal_move(controller, table, service):
    table.play("wS1", "bG1 -wS1", "wG1 wS1-", "bQ -bG1")
    events = table.illegal("wG1 -bQ")  # a Grasshopper jump, but White has not placed the Queen
    assert [e["kind"] for e in events if e["kind"] == "illegal"] == ["illegal"]
    assert service.snapshot()["pending"]["rule"] == "No moving before the Queen"
    response = controller.post_json("/api/game/override")
    assert response.status_code == 200
    moves = service.snapshot()["moves"]
    assert moves[-1]["mark"] == "override" and moves[-1]["uhp"] == "wG1 -bQ" and len(moves) == 5


def test_override_without_an_illegal_move_is_a_conflict(controller):
    assert controller.post_json("/api/game/override").status_code == 409


def test_confirm_without_a_question_is_a_conflict(controller, table):
    table.play("wS1")
    response = controller.post_json("/api/game/confirm", {"move": "wS1"})
    assert response.status_code == 409
    assert controller.post_json("/api/game/confirm", {}).status_code == 400


def test_resign_and_draw(controller, table, service):
    table.play("wS1", "bG1 -wS1")
    assert controller.post_json("/api/game/resign", {"colour": "purple"}).status_code == 400
    assert controller.post_json("/api/game/resign", {"colour": "w"}).status_code == 200
    assert service.snapshot()["state"] == "BlackWins"
    assert controller.post_json("/api/game/draw").status_code == 409  # already over
    assert controller.post_json("/api/game/undo").status_code == 200  # withdraws the result
    assert controller.post_json("/api/game/draw").status_code == 200
    assert service.snapshot()["state"] == "Draw"


def test_downloads_replay_in_the_engine(client, table, service):
    table.play("wS1", "bG1 -wS1", "wQ wS1/")
    pgn = client.get(f"/api/games/{service.game_id}/pgn")
    assert pgn.status_code == 200 and "attachment" in pgn.headers["Content-Disposition"]
    record = parse_pgn(pgn.get_data(as_text=True))
    assert [m.uhp for m in record.moves] == ["wS1", "bG1 -wS1", "wQ wS1/"]
    assert record.tags["White"] == "Ann"
    text = client.get(f"/api/games/{service.game_id}/gamestring").get_data(as_text=True)
    assert text.strip() == "Base;InProgress;Black[2];wS1;bG1 -wS1;wQ wS1/"
    replay = client.get(f"/api/games/{service.game_id}").get_json()
    assert len(replay["positions"]) == 4 and replay["positions"][3]["stacks"]


def test_unknown_game_and_endpoint_are_404(client):
    assert client.get("/api/games/999/pgn").status_code == 404
    missing = client.get("/api/games/999")
    assert missing.status_code == 404 and missing.get_json()["error"] == "there is no game 999"
    page = client.get("/games/999")
    assert page.status_code == 404 and "Not found" in page.get_data(as_text=True)
    assert client.get(f"/games/{2 ** 70}").status_code == 404
    assert client.get("/api/nothing").get_json()["error"]
    assert client.get("/api/camera.jpg").status_code == 404


def test_rulings(client, table):
    table.play("wS1", "bG1 -wS1")
    answer = client.post("/api/rulings", json={"piece": "wQ"}).get_json()
    assert answer["position"]["turn"] == "w" and len(answer["destinations"]) == 3
    bad = client.post("/api/rulings", json={"piece": "wQ", "cell": [-2, 0]}).get_json()["ruling"]
    assert bad["legal"] is False and bad["rule"] == "Placing restriction" and bad["book"]
    good = client.post("/api/rulings", json={"piece": "wQ", "cell": [1, 0]}).get_json()["ruling"]
    assert good["legal"] is True


def test_rulings_on_a_pasted_position(client):
    body = {"position": "Base;InProgress;White[2];wS1;bG1 -wS1", "piece": "wS1", "cell": [1, 0]}
    ruling = client.post("/api/rulings", json=body).get_json()["ruling"]
    assert ruling["legal"] is False and "Queen" in ruling["message"]
    pgn = "[GameType \"Base\"]\n\n1. wS1\n2. bG1 -wS1\n"
    assert client.post("/api/rulings", json={"position": pgn}).get_json()["position"]["stacks"]


@pytest.mark.parametrize("body", [{"position": "Base;Nonsense"}, {"piece": "xQ"}, {"piece": "wM"}])
def test_rulings_bad_input_is_422(client, body):
    response = client.post("/api/rulings", json=body)
    assert response.status_code == 422 and response.get_json()["error"]


@pytest.mark.parametrize("body", [{"piece": "wQ", "cell": [1]}, {"piece": "wQ", "cell": ["a", 1]}, {"piece": 3}])
def test_rulings_malformed_is_400(client, body):
    assert client.post("/api/rulings", json=body).status_code == 400


def test_printable_calibration_board(client):
    response = client.get("/calibrate/board.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")


def test_pages_render(client):
    for path in ("/", "/rulings", "/games", "/calibrate", "/games/1"):
        assert client.get(path).status_code == 200, path
    assert client.get("/static/hive.js").status_code == 200


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                    max_leaves=6)
FIELDS = st.fixed_dictionaries({}, optional={k: JSON for k in ("move", "colour", "game_type", "white", "pin",
                                                                "illegal_move_limit", "queen_may_open", "piece",
                                                                "cell", "position", "to_move", "numbers", "under",
                                                                "time_control", "event", "round")})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(CONTROL + ["/api/rulings", "/api/login"]), body=FIELDS | JSON)
def test_no_input_makes_a_server_error(controller, service, url, body):
    moves = len(service.snapshot()["moves"])
    response = controller.post_json(url, body)
    assert response.status_code < 500, response.get_data(as_text=True)
    assert response.is_json and (response.status_code < 400) == ("error" not in response.get_json())
    if response.status_code >= 400:
        assert len(service.snapshot()["moves"]) == moves
