"""Bad input and abuse: every answer is a 4xx or a 503 with a sentence, nothing is lost, the
server keeps serving. Everything here talks to the app in-process or to a server on 127.0.0.1,
a bounded number of times."""

from __future__ import annotations

import http.cookiejar
import json
import shutil
import ssl
import subprocess
import threading
import urllib.error
import urllib.request

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webhelpers import PIN, csrf, get_json, start_server

from rules.pgn import parse_pgn
from webui import rulings_api
from webui.context import MAX_RULINGS_AT_ONCE
from webui import hub as hub_module
from webui.auth import MAX_FAILURES
from webui.rulings import MAX_PLIES

JSON_ROUTES = ["/api/rulings", "/api/login", "/api/logout", "/api/pin", "/api/game/new", "/api/game/confirm",
               "/api/game/correct", "/api/game/override", "/api/game/undo", "/api/game/resign", "/api/game/draw"]
DEEP = "[" * 1000 + "]" * 1000
BAD_NAMES = ["\ud800", "a\u2028b", "a\u0085b", "a\u000bb", "a\u2029b", "\x00", "a\tb", "x" * 61]

json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
                           lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                           max_leaves=12)
bodies = st.dictionaries(st.sampled_from(["pin", "current", "move", "position", "piece", "cell", "white", "black",
                                          "game_type", "colour", "queen_may_open", "illegal_move_limit"]),
                         json_values, max_size=5)


def _post_raw(client, url: str, text: str, token: str):
    return client.post(url, data=text, content_type="application/json", headers={"X-CSRF-Token": token})


@pytest.mark.parametrize("url", [url for url in JSON_ROUTES if url != "/api/logout"])  # logout reads no body
def test_json_nested_1000_deep_is_a_400(controller, url):
    response = _post_raw(controller, url, DEEP, csrf(controller))
    assert response.status_code == 400 and response.get_json()["error"]
    nested_object = _post_raw(controller, url, '{"a": ' + "[" * 20 + "]" * 20 + "}", csrf(controller))
    assert nested_object.status_code == 400 and "nests" in nested_object.get_json()["error"]


def test_anonymous_rulings_with_deep_json_is_a_400(client):
    assert _post_raw(client, "/api/rulings", DEEP, "").status_code == 400


@pytest.mark.parametrize("path", ["/api/games/9223372036854775808", "/api/games/0", "/api/games/-1",
                                  "/api/games/99999999999999999999/pgn", "/api/games/9223372036854775807/gamestring"])
def test_game_ids_out_of_range_are_404(client, path):
    response = client.get(path)
    assert response.status_code == 404 and response.get_json()["error"]


@pytest.mark.parametrize("name", BAD_NAMES)
def test_names_must_be_printable_single_line_text(controller, service, name):
    old = service.game_id
    response = controller.post_json("/api/game/new", {"white": name})
    assert response.status_code == 400 and "'white'" in response.get_json()["error"]
    assert service.game_id == old


def test_any_printable_name_makes_a_pgn_hivecam_reads_back(controller, service):
    name = "Zoë Łukasz 李 \u00e9\u0301 🐝"
    assert controller.post_json("/api/game/new", {"white": name, "black": "O'Neil \"Bee\""}).status_code == 200
    pgn = controller.get(f"/api/games/{service.game_id}/pgn")
    assert pgn.status_code == 200
    assert parse_pgn(pgn.get_data(as_text=True)).tags["White"] == name


def test_a_rulings_game_too_long_is_refused_before_it_is_replayed(client):
    moves = ";".join(["wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"] + ["wQ \\wS1", "bQ bS1\\"] * 14_000)
    response = client.post("/api/rulings", json={"position": f"Base;InProgress;White[7001];{moves}"})
    assert response.status_code == 422 and f"at most {MAX_PLIES}" in response.get_json()["error"]
    pgn = "[GameType \"Base\"]\n\n" + "\n".join(f"{n}. wS1" for n in range(1, MAX_PLIES + 2))
    response = client.post("/api/rulings", json={"position": pgn})
    assert response.status_code == 422 and f"at most {MAX_PLIES}" in response.get_json()["error"]


def test_rulings_beyond_the_allowed_number_at_once_are_told_to_wait(client, monkeypatch):
    release, entered = threading.Event(), threading.Semaphore(0)

    def slow_position(text: str):
        entered.release()
        release.wait(10)
        raise ValueError("done")

    monkeypatch.setattr(rulings_api, "load_position", slow_position)
    answers: list[int] = []
    threads = [threading.Thread(target=lambda: answers.append(
        client.application.test_client().post("/api/rulings", json={"position": "x"}).status_code))
        for _ in range(MAX_RULINGS_AT_ONCE)]
    for thread in threads:
        thread.start()
    for _ in threads:
        assert entered.acquire(timeout=10)
    busy = client.post("/api/rulings", json={"position": "x"})
    release.set()
    for thread in threads:
        thread.join(10)
    assert busy.status_code == 503 and busy.headers["Retry-After"] and "busy" in busy.get_json()["error"]
    assert answers == [422] * MAX_RULINGS_AT_ONCE


def test_live_pages_beyond_the_cap_get_a_clear_refusal(client, service, monkeypatch):
    monkeypatch.setattr(hub_module, "MAX_VIEWERS", 2)
    held = [service.hub.subscribe(), service.hub.subscribe()]
    refused = client.get("/api/events")
    assert refused.status_code == 503 and "pages are open" in refused.get_json()["error"]
    for subscription in held:
        service.hub.unsubscribe(subscription)
    assert client.get("/api/events", buffered=False).status_code == 200


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.sampled_from(JSON_ROUTES), body=bodies)
def test_fuzzed_bodies_never_make_a_500(controller, service, url, body):
    moves = len(service.snapshot()["moves"])
    try:
        text = json.dumps(body)
    except ValueError:
        return
    response = _post_raw(controller, url, text, csrf(controller))
    assert response.status_code < 500, response.get_data(as_text=True)
    if response.status_code >= 400:
        assert response.get_json()["error"]
    assert len(service.snapshot()["moves"]) >= moves or url == "/api/game/undo"


# ------------------------------------------------------------------ a real server on 127.0.0.1
class Browser:
    """One visitor with its own cookies, talking to ``base`` on loopback."""

    def __init__(self, base: str) -> None:
        self.base, self.cookies = base, http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))
        self.token = self.call("GET", "/api/session")[1]["csrf"]

    def call(self, method: str, path: str, body: object = None, raw: bytes | None = None) -> tuple[int, dict]:
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        request = urllib.request.Request(self.base + path, data=data, method=method, headers={
            "Content-Type": "application/json", "X-CSRF-Token": getattr(self, "token", "")})
        try:
            with self.opener.open(request, timeout=20) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            return error.code, json.load(error)


@pytest.fixture
def folder(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "a.png"), np.zeros((48, 64, 3), np.uint8))
    (frames / "b.png").write_bytes(b"damaged")
    return frames


def test_a_parallel_pin_burst_gets_only_the_allowed_guesses_checked(tmp_path, folder):
    process, base = start_server(tmp_path / "data", "--source", str(folder))
    try:
        browsers = [Browser(base) for _ in range(20)]
        barrier = threading.Barrier(len(browsers))
        answers: list[int] = [0] * len(browsers)

        def guess(n: int) -> None:
            barrier.wait()
            answers[n] = browsers[n].call("POST", "/api/login", {"pin": PIN if n == 14 else f"{1000 + n}"})[0]

        threads = [threading.Thread(target=guess, args=(n,)) for n in range(len(browsers))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        # the right PIN is forgiven once checked, so a wrong guess may take its place
        assert answers.count(403) <= MAX_FAILURES and answers.count(200) <= 1 and set(answers) <= {200, 403, 429}
        status, deep = browsers[0].call("POST", "/api/rulings", raw=DEEP.encode())
        assert status == 400 and deep["error"]
        assert Browser(base).call("GET", "/api/games/9223372036854775808")[0] == 404
        assert get_json(base + "/api/state")["game_id"]  # still serving
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert "Traceback" not in output


def test_an_old_cookie_is_refused_after_a_restart_with_a_new_pin(tmp_path, folder):
    process, base = start_server(tmp_path / "data", "--source", str(folder))
    try:
        owner = Browser(base)
        assert owner.call("POST", "/api/login", {"pin": PIN})[0] == 200
        owner.token = owner.call("GET", "/api/session")[1]["csrf"]
        assert owner.call("POST", "/api/game/draw", {})[0] != 401
    finally:
        process.terminate()
        process.wait(10)
    process, base = start_server(tmp_path / "data", "--source", str(folder), pin="86420")
    try:
        owner.base = base
        assert owner.call("POST", "/api/game/undo", {})[0] == 401
        assert owner.call("GET", "/api/session")[1]["control"] is False
    finally:
        process.terminate()
        process.wait(10)


def test_https_with_a_self_signed_certificate_sends_secure_cookies(tmp_path, folder):
    if shutil.which("openssl") is None:
        pytest.skip("openssl is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=60)
    process, base = start_server(tmp_path / "data", "--source", str(folder), "--cert", str(cert), "--key", str(key))
    try:
        assert base.startswith("https://127.0.0.1:")
        context = ssl._create_unverified_context()
        with urllib.request.urlopen(base + "/api/session", timeout=5, context=context) as response:
            cookie = response.headers["Set-Cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie
        with pytest.raises(OSError):  # plain HTTP is not served on that port
            urllib.request.urlopen(base.replace("https:", "http:") + "/api/state", timeout=5)
        assert get_json(base + "/api/state")["game_id"]  # and trying it harms nothing
    finally:
        process.terminate()
        process.wait(10)
