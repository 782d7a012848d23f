"""Who may control the game: a PIN, signed session cookies, CSRF tokens, a brake on guessing.

Viewers need nothing. Controlling (new game, confirm, override, ...) needs a session that
logged in with the PIN, and every control request must carry the session's CSRF token in
the ``X-CSRF-Token`` header (a form on another site cannot set it). The PIN comes from
``HIVECAM_PIN`` (which replaces a stored one) or is generated on first start and printed
once; only its salted hash is kept, in ``control.json`` in the data folder, beside the
cookie-signing key and the session generation.

Sessions are signed cookies the server does not list, so each carries the generation it
was made in: logging out, changing the PIN, or starting with a different ``HIVECAM_PIN``
moves the generation on and every older cookie stops controlling. A forgotten PIN is
replaced with ``hivecam pin --reset`` on the hivecam machine; a running server notices the
changed ``control.json`` at the next PIN check or control request.

The brake counts a guess before its hash is computed, so guesses sent in parallel cannot
slip past it: each address may have ``MAX_FAILURES`` wrong (or undecided) guesses in
``FAILURE_WINDOW`` seconds, and all addresses together ``MAX_GLOBAL_FAILURES``.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections import deque
from pathlib import Path

from calibration.files import write_atomic

PIN_ENV = "HIVECAM_PIN"
PIN_DIGITS = (4, 12)
ITERATIONS = 100_000
FAILURE_WINDOW = 300.0
MAX_FAILURES = 5  # per client address
MAX_GLOBAL_FAILURES = 20  # all addresses together (many addresses are easy to have)

log = logging.getLogger("hivecam.auth")


class PinError(ValueError):
    """A PIN that is not 4 to 12 digits."""


class TooManyGuesses(Exception):
    """The brake is on: ``wait`` seconds until the next guess may be checked."""

    def __init__(self, wait: float) -> None:
        super().__init__(f"too many wrong PINs: try again in {wait:.0f} s")
        self.wait = wait


def check_pin_format(pin: object) -> str:
    if not isinstance(pin, str) or not pin.isdigit() or not PIN_DIGITS[0] <= len(pin) <= PIN_DIGITS[1]:
        raise PinError(f"the PIN must be {PIN_DIGITS[0]} to {PIN_DIGITS[1]} digits")
    return pin


def _hash(pin: str, salt: bytes) -> bytes:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, ITERATIONS)


class Control:
    """The PIN check, the session key and the session generation of one data folder."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "control.json"
        self._lock = threading.Lock()
        self._failures: dict[str, deque[float]] = {}
        self._all_failures: deque[float] = deque()
        self.new_pin: str | None = None  # set when a PIN was generated now (to print once)
        self._stamp: tuple[int, int] | None = None  # the file as last read or written (mtime, size)
        stored = self._read()
        self.secret_key = bytes.fromhex(stored["secret"]) if "secret" in stored else secrets.token_bytes(32)
        self._generation = int(stored.get("generation", 0))
        from_env = os.environ.get(PIN_ENV)
        self.from_env = bool(from_env)
        if "hash" in stored:
            self._salt, self._digest = bytes.fromhex(stored["salt"]), bytes.fromhex(stored["hash"])
        if from_env:
            check_pin_format(from_env)
            if "hash" not in stored or not self._matches(from_env):
                self._set(from_env)
        elif "hash" not in stored:
            self.new_pin = f"{secrets.randbelow(10 ** 6):06d}"
            self._set(self.new_pin)
        self._save()

    def _read(self) -> dict:
        """The stored settings; a damaged file is set aside (logged) and a fresh one begins."""
        if not self.path.exists():
            return {}
        try:
            info = self.path.stat()
            stored = json.loads(self.path.read_text(encoding="utf-8"))
            self._stamp = (info.st_mtime_ns, info.st_size)
            if not isinstance(stored, dict) or not isinstance(stored.get("generation", 0), int):
                raise ValueError("not a settings object")
            for key in ("secret", "salt", "hash"):
                if key in stored:
                    bytes.fromhex(stored[key])
            if ("salt" in stored) != ("hash" in stored):
                raise ValueError("salt and hash go together")
            return stored
        except (ValueError, TypeError, UnicodeDecodeError, RecursionError) as exc:
            aside = self.path.with_name(f"{self.path.name}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}")
            self.path.rename(aside)
            log.error("%s is damaged (%s): kept as %s; a new PIN and session key are made", self.path, exc, aside)
            return {}

    @property
    def generation(self) -> int:
        """The current session generation (after any ``hivecam pin --reset`` since)."""
        self._refresh()
        return self._generation

    def recovery(self) -> str:
        """How to get control back without the PIN, in one sentence for the page and the log."""
        if self.from_env:
            return (f"The PIN is the {PIN_ENV} setting of hivecam's service: change it there "
                    "(sudo systemctl edit hivecam) and restart hivecam.")
        return (f"Forgot the PIN? On the hivecam machine run 'hivecam pin --reset --data {self.path.parent}': "
                "it prints a new PIN, in use at once (every device logs in again).")

    def _refresh(self) -> None:
        """Take up a PIN reset written to the file by ``hivecam pin`` since it was last read."""
        try:
            info = self.path.stat()
        except OSError:
            return
        if (info.st_mtime_ns, info.st_size) == self._stamp:
            return
        with self._lock:
            stored = self._read()
            if "hash" in stored:
                self._salt, self._digest = bytes.fromhex(stored["salt"]), bytes.fromhex(stored["hash"])
                self._generation = max(self._generation, int(stored.get("generation", 0)))

    def _matches(self, pin: str) -> bool:
        return hmac.compare_digest(_hash(pin, self._salt), self._digest)

    def _set(self, pin: str) -> None:
        """Store ``pin`` (new salt) and end every session."""
        self._salt = secrets.token_bytes(16)
        self._digest = _hash(pin, self._salt)
        self._generation += 1

    def _save(self) -> None:
        data = {"secret": self.secret_key.hex(), "salt": self._salt.hex(), "hash": self._digest.hex(),
                "generation": self._generation}
        write_atomic(self.path, json.dumps(data).encode("utf-8"), mode=0o600)
        info = self.path.stat()
        self._stamp = (info.st_mtime_ns, info.st_size)

    def change_pin(self, pin: str) -> int:
        """Set a new PIN (the caller checked the current one); return the new generation."""
        check_pin_format(pin)
        self._refresh()
        with self._lock:
            self._set(pin)
            self._save()
            return self._generation

    def end_sessions(self) -> int:
        """Move the generation on (every session ends); return the new generation."""
        self._refresh()
        with self._lock:
            self._generation += 1
            self._save()
            return self._generation

    def reset_pin(self) -> str:
        """Replace the PIN with a new random one (every session ends); return it."""
        pin = f"{secrets.randbelow(10 ** 6):06d}"
        self.change_pin(pin)
        return pin

    def verify(self, client: str, pin: str) -> bool:
        """Check ``pin`` for ``client``; ``TooManyGuesses`` if the brake is on.

        The guess is counted as a failure before hashing and forgiven only if it was right.
        """
        self._refresh()
        with self._lock:
            now = time.monotonic()
            mine = self._failures.setdefault(client, deque())
            for failures in (mine, self._all_failures):
                while failures and failures[0] < now - FAILURE_WINDOW:
                    failures.popleft()
            full = [f for f, limit in ((mine, MAX_FAILURES), (self._all_failures, MAX_GLOBAL_FAILURES))
                    if len(f) >= limit]
            if full:
                raise TooManyGuesses(max(f[0] for f in full) + FAILURE_WINDOW - now)
            mine.append(now)
            self._all_failures.append(now)
        ok = self._matches(pin)
        if ok:
            with self._lock:
                mine.remove(now)
                self._all_failures.remove(now)
                if not mine:
                    self._failures.pop(client, None)
        return ok


def new_csrf_token() -> str:
    return secrets.token_urlsafe(24)
