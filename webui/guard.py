"""The checks in front of control: the session's PIN login, its CSRF token, the PIN brake."""

from __future__ import annotations

import hmac
from functools import wraps
from typing import Any, Callable

from flask import Response, request, session

from webui.auth import Control, PinError, TooManyGuesses, check_pin_format, new_csrf_token
from webui.context import services
from webui.validate import ApiError


def check_csrf() -> None:
    """403 unless the request carries this session's CSRF token."""
    token = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token", "")
    if not token or not sent or not hmac.compare_digest(sent, token):
        raise ApiError(403, "missing or stale CSRF token: reload the page (GET /api/session gives the token)")


def controls(control: Control) -> bool:
    """Whether this session logged in with the PIN in the current generation."""
    return bool(session.get("control")) and session.get("generation") == control.generation


def start_session(generation: int) -> None:
    """Make this session a controlling one of ``generation`` (with a new CSRF token)."""
    session.clear()
    session.permanent = True
    session.update(control=True, generation=generation, csrf=new_csrf_token())


def check_guess(control: Control, pin: str, wrong: str) -> None:
    """Check a PIN guess through the brake: 429 when it is on, 403 with ``wrong`` if wrong."""
    try:
        ok = control.verify(request.remote_addr or "?", pin)
    except TooManyGuesses as exc:
        raise ApiError(429, str(exc), {"Retry-After": str(int(exc.wait) + 1)}) from None
    if not ok:
        raise ApiError(403, wrong)


def controller(view: Callable[[], Response]) -> Callable[[], Response]:
    """Only a current session logged in with the PIN, sending its CSRF token, may control the game."""

    @wraps(view)
    def guarded() -> Response:
        if not controls(services().control):
            raise ApiError(401, "log in with the PIN to control the game")
        check_csrf()
        return view()

    return guarded


def pin_field(body: dict[str, Any], name: str) -> str:
    """The PIN in field ``name``; 400 unless it is 4 to 12 digits."""
    pin = body.get(name)
    if isinstance(pin, int) and not isinstance(pin, bool):
        pin = str(pin)
    if pin is None:
        raise ApiError(400, f"'{name}' is required")
    try:
        return check_pin_format(pin)
    except PinError as exc:
        raise ApiError(400, f"'{name}': {exc}") from None
