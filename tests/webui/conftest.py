"""Fixtures of the web tests: a game service on a temporary log, a Flask client, a table."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest
from webhelpers import PIN, Table, csrf

from rules import RuleOptions
from rules.referee import RefereeConfig
from webui.app import create_app
from webui.auth import Control
from webui.game import GameService
from webui.hub import Hub
from webui.store import GameStore


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("HIVECAM_PIN", PIN)
    return tmp_path


@pytest.fixture
def service(data_dir: Path) -> Iterator[GameService]:
    store = GameStore(data_dir / "games.sqlite3")
    service = GameService(store, Hub(), RefereeConfig(stable_seconds=0.2))
    service.new_game("Base", RuleOptions(), "Ann", "Bob")
    yield service
    store.close()


@pytest.fixture
def table(service: GameService) -> Table:
    return Table(service)


@pytest.fixture
def client(service: GameService, data_dir: Path):
    app = create_app(service, Control(data_dir))
    return app.test_client()


@pytest.fixture
def controller(client):
    """A client logged in with the PIN; ``controller.post_json(url, body)`` sends its CSRF token."""
    token = csrf(client)
    response = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token})
    assert response.status_code == 200, response.get_json()
    token = response.get_json()["csrf"]

    def post_json(url: str, body: object = None):
        return client.post(url, json=body if body is not None else {}, headers={"X-CSRF-Token": token})

    client.post_json = post_json
    return client
