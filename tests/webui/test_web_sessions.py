"""Sessions end when they should, and the PIN brake holds against parallel guesses."""

from __future__ import annotations

import threading

import pytest
from webhelpers import PIN, csrf

from webui import auth
from webui.app import create_app
from webui.auth import MAX_FAILURES, MAX_GLOBAL_FAILURES, Control, TooManyGuesses


def _login(client, pin: str = PIN):
    return client.post("/api/login", json={"pin": pin}, headers={"X-CSRF-Token": csrf(client)})


def _undo(client, token: str):
    return client.post("/api/game/undo", json={}, headers={"X-CSRF-Token": token})


def _saved_cookie(client) -> tuple[str, str]:
    """Log ``client`` in; return its session cookie and CSRF token (what a thief would copy)."""
    token = _login(client).get_json()["csrf"]
    return client.get_cookie("session").value, token


def _replay(app, cookie: str, token: str):
    thief = app.test_client()
    thief.set_cookie("session", cookie)
    return _undo(thief, token)


@pytest.fixture
def app(service, data_dir):
    return create_app(service, Control(data_dir))


def test_a_saved_cookie_controls_until_logout(app):
    client = app.test_client()
    cookie, token = _saved_cookie(client)
    assert _replay(app, cookie, token).status_code != 401  # 409: nothing to undo, but allowed
    client.post("/api/logout", headers={"X-CSRF-Token": token})
    assert _replay(app, cookie, token).status_code == 401


def test_anonymous_logout_ends_no_session(app):
    client = app.test_client()
    cookie, token = _saved_cookie(client)
    stranger = app.test_client()
    stranger.post("/api/logout", headers={"X-CSRF-Token": csrf(stranger)})
    assert _replay(app, cookie, token).status_code != 401


def test_a_pin_change_ends_other_sessions(app):
    first, second = app.test_client(), app.test_client()
    cookie, token = _saved_cookie(first)
    token2 = _login(second).get_json()["csrf"]
    changed = second.post("/api/pin", json={"current": PIN, "pin": "97531"}, headers={"X-CSRF-Token": token2})
    assert changed.status_code == 200
    assert _replay(app, cookie, token).status_code == 401
    assert _undo(second, changed.get_json()["csrf"]).status_code != 401


def test_a_restart_with_a_new_pin_ends_sessions(service, data_dir, monkeypatch):
    client = create_app(service, Control(data_dir)).test_client()
    cookie, token = _saved_cookie(client)
    same = create_app(service, Control(data_dir))  # restart, same HIVECAM_PIN: sessions survive
    assert _replay(same, cookie, token).status_code != 401
    monkeypatch.setenv("HIVECAM_PIN", "86420")
    restarted = create_app(service, Control(data_dir))
    assert _replay(restarted, cookie, token).status_code == 401
    assert _login(restarted.test_client(), "86420").status_code == 200


def test_a_damaged_control_file_is_set_aside(data_dir):
    (data_dir / "control.json").write_text('{"secret": "zz"')
    control = Control(data_dir)
    assert control.verify("a", PIN)
    assert list(data_dir.glob("control.json.corrupt-*"))


def _burst(control: Control, clients: list[str], right: int | None = 14) -> tuple[int, int]:
    """Guess in parallel, the ``right``-th guess the right PIN; return (hashes computed, logins won)."""
    hashed, won = [], []
    real = auth._hash
    barrier = threading.Barrier(len(clients))

    def counting(pin: str, salt: bytes) -> bytes:
        hashed.append(pin)
        return real(pin, salt)

    def guess(n: int, client: str) -> None:
        barrier.wait()
        try:
            if control.verify(client, PIN if n == right else f"{1000 + n}"):
                won.append(n)
        except TooManyGuesses:
            pass

    auth._hash = counting
    try:
        threads = [threading.Thread(target=guess, args=(n, c)) for n, c in enumerate(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
    finally:
        auth._hash = real
    return len(hashed), len(won)


def test_parallel_guesses_from_one_address_are_braked(data_dir):
    hashed, won = _burst(Control(data_dir), ["10.0.0.1"] * 20)
    assert hashed <= MAX_FAILURES
    assert won <= 1


def test_guesses_from_many_addresses_are_braked_together(data_dir):
    control = Control(data_dir)
    # all wrong: a right guess among the first checked would be forgiven, leaving room for one more
    hashed, _ = _burst(control, [f"10.0.0.{n}" for n in range(60)], right=None)
    assert hashed <= MAX_GLOBAL_FAILURES
    with pytest.raises(TooManyGuesses):
        control.verify("10.9.9.9", PIN)  # a fresh address too must wait


def test_a_right_pin_is_not_counted_as_a_failure(data_dir):
    control = Control(data_dir)
    for _ in range(MAX_FAILURES * 2):
        assert control.verify("10.0.0.1", PIN)
    for _ in range(MAX_FAILURES):
        assert not control.verify("10.0.0.1", "0000")
    with pytest.raises(TooManyGuesses):
        control.verify("10.0.0.1", PIN)
