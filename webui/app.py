"""The Flask application: one blueprint per kind of route, the shared error and header rules.

``create_app(service, control, live, enrollment)`` wires a ``GameService`` (the game), a
``Control`` (PIN and session key) and optionally a ``LiveLoop`` (camera preview) and an
``Enrollment`` (learning the set from the calibration page) into one app.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any

from flask import Flask, Response, jsonify, render_template, request

from webui import calibration_api, camera_api, control_api, pages, read_api, rulings_api, session_api
from webui.auth import Control
from webui.context import Services, install
from webui.game import GameService
from webui.validate import MAX_BODY, ApiError

if TYPE_CHECKING:
    from webui.enrollment import Enrollment
    from webui.live import LiveLoop

log = logging.getLogger("hivecam.web")
BLUEPRINTS = (pages.blueprint, read_api.blueprint, session_api.blueprint, control_api.blueprint,
              camera_api.blueprint, calibration_api.blueprint, rulings_api.blueprint)


def create_app(service: GameService, control: Control, live: LiveLoop | None = None,
               enrollment: Enrollment | None = None, secure_cookies: bool = False) -> Flask:
    """The app; ``secure_cookies`` when it is reached over HTTPS (the browser then sends the
    session cookie over HTTPS only)."""
    app = _App(__name__)
    app.config.update(SECRET_KEY=control.secret_key, MAX_CONTENT_LENGTH=MAX_BODY,
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_SECURE=secure_cookies,
                      PERMANENT_SESSION_LIFETIME=timedelta(hours=12))
    install(app, Services(service, control, live, enrollment))
    app.register_error_handler(ApiError, _api_error)
    app.register_error_handler(413, _too_large)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(405, _wrong_method)
    app.register_error_handler(500, _server_error)
    app.context_processor(lambda: {"notices": service.notices})
    app.after_request(_headers)
    for blueprint in BLUEPRINTS:
        app.register_blueprint(blueprint)
    return app


class _App(Flask):
    def log_exception(self, exc_info: tuple[type, BaseException, TracebackType] | tuple[None, None, None]) -> None:
        """A failed request is one log line (the traceback only at debug level)."""
        log.error("%s %s failed: %s: %s", request.method, request.path, exc_info[0].__name__ if exc_info[0] else "?",
                  exc_info[1])
        log.debug("the traceback", exc_info=exc_info)


def _api_error(error: ApiError) -> tuple[Response, int]:
    response = jsonify(error=error.message)
    response.headers.update(error.headers)
    return response, error.status


def _too_large(_: Exception) -> tuple[Response, int]:
    return jsonify(error=f"the request is too large (at most {MAX_BODY // 1024} KB)"), 413


def _not_found(_: Exception) -> Any:
    if request.path.startswith("/api/"):
        return jsonify(error=f"no such endpoint or item: {request.path}"), 404
    return render_template("missing.html"), 404


def _wrong_method(_: Exception) -> tuple[Response, int]:
    return jsonify(error=f"{request.method} is not allowed on {request.path}"), 405


def _server_error(_: Exception) -> Any:
    message = "the server failed on this request; the error is in hivecam's log"
    if request.path.startswith("/api/"):
        return jsonify(error=message), 500
    return Response(message + "\n", 500, mimetype="text/plain")


def _headers(response: Response) -> Response:
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response
