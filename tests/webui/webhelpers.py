"""Helpers of the web tests: the test PIN, a perfect camera over a table, the CSRF token."""

from __future__ import annotations

import json
import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from rules.board import Board
from rules.observation import Observation
from rules.referee.synthetic import sightings
from webui.game import GameService

PIN = "2468"
ROOT = Path(__file__).resolve().parents[2]


class Table:
    """A perfect camera over a board: ``play`` shows moves (legal or not) long enough to judge."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.board = Board(service.referee.board.game_type)
        self.time = 0.0

    def show(self, stacks: dict, frames: int = 6) -> list[dict]:
        events = []
        for _ in range(frames):
            self.time += 0.1
            events += self.service.observe(Observation(sightings(stacks), False, self.time))
        return events

    def play(self, *moves: str) -> list[dict]:
        events = []
        for move in moves:
            self.board.push_uhp(move)
            events += self.show(self.board.stacks())
        return events

    def illegal(self, move: str) -> list[dict]:
        """Show ``move`` made by a hand although it is illegal (the board object is left
        unchanged): the referee rules on no illegal move no hand was seen making."""
        self.time += 0.1
        hand = self.service.observe(Observation((), True, self.time))
        parsed = self.board.parse_uhp(move)
        stacks = {c: [p for p in s if p != parsed.piece] for c, s in self.board.stacks().items()}
        stacks = {c: s for c, s in stacks.items() if s}
        stacks.setdefault(parsed.dest, []).append(parsed.piece)
        return hand + self.show(stacks)


def csrf(client) -> str:
    return client.get("/api/session").get_json()["csrf"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(data_dir: Path, *args: str, pin: str = PIN) -> tuple[subprocess.Popen, str]:
    """``hivecam serve`` on a free loopback port in a subprocess, once it answers; (process, base URL)."""
    port = free_port()
    env = {**os.environ, "HIVECAM_PIN": pin, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "webui.cli", "serve", "--port", str(port), "--data",
                                str(data_dir), *args], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    base = f"{'https' if '--cert' in args else 'http'}://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited: {process.stdout.read()}")
        try:
            get_json(base + "/api/state")
            return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("server did not answer within 30 s")


def get_json(url: str) -> dict:
    """GET ``url`` as JSON (over HTTPS, a test server's self-signed certificate is accepted)."""
    context = ssl._create_unverified_context() if url.startswith("https:") else None
    with urllib.request.urlopen(url, timeout=5, context=context) as response:
        return json.load(response)


def wait_for(predicate, timeout: float, what: str, interval: float = 0.2):
    """Poll ``predicate`` until it returns something truthy; fail naming ``what``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")
