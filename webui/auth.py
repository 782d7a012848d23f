"""Who may control the game: a PIN, signed session cookies, CSRF tokens, a brake on guessing.

Viewers need nothing. Controlling (new game, confirm, override, ...) needs a session that
logged in with the PIN, and every control request must carry the session's CSRF token in
the ``X-CSRF-Token`` header (a form on another site cannot set it). The PIN comes from
``HIVECAM_PIN`` (which replaces a stored one) or is generated on first start and printed once; only its salted hash is
kept, in ``control.json`` in the data folder, beside the cookie-signing key.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import threading
import time
from collections import defaultdict, deque
from pathlib import Path

from calibration.files import write_atomic

PIN_ENV = "HIVECAM_PIN"
PIN_DIGITS = (4, 12)
ITERATIONS = 100_000
MAX_FAILURES, FAILURE_WINDOW = 5, 300.0  # per client address


class PinError(ValueError):
    """A PIN that is not 4 to 12 digits."""


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not pin.isdigit() or not PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]:
        raise PinError(f"the PIN must be {PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits")
    return pin


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, ITERATIONS)


class Control:
    """The PIN check and the session key of one data folder."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "control.json"
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self.new_pin: str | None = None  # set when a PIN was generated now (to print once)
        stored = json.loads(self.path.read_text()) if self.path.exists() else {}
        self.secret_key = bytes.fromhex(stored["secret"]) if "secret" in stored else secrets.token_bytes(32)
        from_env = os.environ.get(PIN_ENV)
        if from_env:
            self._set(check_pin_format(from_env))
        elif "hash" in stored:
            self._salt, self._digest = bytes.fromhex(stored["salt"]), bytes.fromhex(stored["hash"])
        else:
            self.new_pin = f"{secrets.randbelow(10 ** 6):06d}"
            self._set(self.new_pin)
        self._save()

    def _set(self, pin: str) -> None:
        self._salt = secrets.token_bytes(16)
        self._digest = _hash(pin, self._salt)

    def _save(self) -> None:
        data = {"secret": self.secret_key.hex(), "salt": self._salt.hex(), "hash": self._digest.hex()}
        write_atomic(self.path, json.dumps(data).encode("utf-8"), mode=0o600)

    def change_pin(self, pin: str) -> None:
        with self._lock:
            self._set(check_pin_format(pin))
            self._save()

    def retry_after(self, client: str) -> float:
        """Seconds ``client`` must wait before trying a PIN again (0: may try now)."""
        with self._lock:
            failures = self._failures[client]
            now = time.monotonic()
            while failures and failures[0] < now - FAILURE_WINDOW:
                failures.popleft()
            return failures[0] + FAILURE_WINDOW - now if len(failures) >= MAX_FAILURES else 0.0

    def verify(self, client: str, pin: str) -> bool:
        """Check ``pin``; failures count against ``client``."""
        ok = hmac.compare_digest(_hash(pin, self._salt), self._digest)
        if not ok:
            with self._lock:
                self._failures[client].append(time.monotonic())
        return ok


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)
