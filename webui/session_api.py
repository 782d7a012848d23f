"""The session API: log in with the PIN, log out, change the PIN."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, session

from webui.auth import new_csrf_token
from webui.context import services
from webui.guard import check_csrf, check_guess, controller, controls, pin_field, start_session
from webui.validate import json_body

blueprint = Blueprint("session_api", __name__)


@blueprint.get("/api/session")
def session_info() -> Response:
    """Whether this session controls the game, its CSRF token, and how to recover the PIN."""
    session.setdefault("csrf", new_csrf_token())
    control = services().control
    return jsonify(control=controls(control), csrf=session["csrf"], pin_help=control.recovery())


@blueprint.post("/api/login")
def login() -> Response:
    check_csrf()
    control = services().control
    check_guess(control, pin_field(json_body(), "pin"), "wrong PIN")
    start_session(control.generation)
    return jsonify(control=True, csrf=session["csrf"])


@blueprint.post("/api/logout")
def logout() -> Response:
    check_csrf()
    control = services().control
    if controls(control):  # ends this cookie and any copy of it (and every other session)
        control.end_sessions()
    session.clear()
    return jsonify(control=False)


@blueprint.post("/api/pin")
@controller
def change_pin() -> Response:
    """A new PIN, given the current one; every other session ends."""
    control = services().control
    body = json_body()
    new = pin_field(body, "pin")
    check_guess(control, pin_field(body, "current"), "the current PIN is wrong")
    start_session(control.change_pin(new))
    return jsonify(ok=True, csrf=session["csrf"])
