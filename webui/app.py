"""The Flask application: the pages, the read-only API, the control API and the live stream.

``create_app(service, control, live, enrollment)`` wires a ``GameService`` (the game), a
``Control`` (PIN and session key) and optionally a ``LiveLoop`` (camera preview) and an
``Enrollment`` (learning the set from the calibration page) into one app.
"""

from __future__ import annotations

import functools
import hmac
import threading
import time
from datetime import timedelta
from functools import wraps
from typing import Any, Callable

from flask import Flask, Response, jsonify, render_template, request, session, stream_with_context

from rules.gametype import GameType, RuleOptions
from rules.pgn import format_pgn
from webui.auth import Control, PinError, TooManyGuesses, check_pin_format, new_csrf_token
from webui.game import GameService, colour_of
from webui.hub import HubFull, format_message
from webui.store import DamagedGame
from webui.rulings import destinations, load_position, parse_piece, position, ruling
from webui.validate import ApiError, bool_field, cell_field, json_body, optional_int, text_field

MAX_BODY = 256 * 1024
MJPEG_INTERVAL = 0.2
MAX_MJPEG_STREAMS = 4  # each holds a thread and encodes frames
MAX_RULINGS_AT_ONCE = 2  # a ruling replays up to rulings.MAX_PLIES moves: about half a second of CPU
MAX_GAME_ID = 2 ** 63 - 1  # SQLite's largest integer
BOARD_DPI = 300


def create_app(service: GameService, control: Control, live: Any = None, enrollment: Any = None,
               secure_cookies: bool = False) -> Flask:
    """The app; ``secure_cookies`` when it is reached over HTTPS (the browser then sends the
    session cookie over HTTPS only)."""
    app = Flask(__name__)
    controller = functools.partial(_controller, control)
    mjpeg_streams, rulings_at_once = threading.Semaphore(MAX_MJPEG_STREAMS), threading.Semaphore(MAX_RULINGS_AT_ONCE)
    app.config.update(SECRET_KEY=control.secret_key, MAX_CONTENT_LENGTH=MAX_BODY,
                      SESSION_COOKIE_HTTPONLY=True, SESSION_COOKIE_SAMESITE="Strict",
                      SESSION_COOKIE_SECURE=secure_cookies,
                      PERMANENT_SESSION_LIFETIME=timedelta(hours=12))

    @app.errorhandler(ApiError)
    def api_error(error: ApiError) -> tuple[Response, int]:
        response = jsonify(error=error.message)
        response.headers.update(error.headers)
        return response, error.status

    @app.errorhandler(413)
    def too_large(_: Exception) -> tuple[Response, int]:
        return jsonify(error=f"the request is too large (at most {MAX_BODY // 1024} KB)"), 413

    @app.errorhandler(404)
    def not_found(_: Exception) -> Any:
        if request.path.startswith("/api/"):
            return jsonify(error=f"no such endpoint or item: {request.path}"), 404
        return render_template("missing.html"), 404

    @app.errorhandler(405)
    def wrong_method(_: Exception) -> tuple[Response, int]:
        return jsonify(error=f"{request.method} is not allowed on {request.path}"), 405

    @app.context_processor
    def notices() -> dict[str, Any]:
        return {"notices": service.notices}

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        return response

    # ---------------------------------------------------------------- pages
    for path, template in (("/", "live.html"), ("/rulings", "rulings.html"), ("/games", "games.html"),
                           ("/calibrate", "calibrate.html")):
        app.add_url_rule(path, template, _page(template))

    @app.get("/calibrate/board.pdf")
    def calibration_board() -> Response:
        from calibration.charuco import page_image
        from calibration.printable import pdf_bytes

        return Response(pdf_bytes(page_image(BOARD_DPI), BOARD_DPI), mimetype="application/pdf",
                        headers={"Content-Disposition": 'attachment; filename="hivecam-board.pdf"'})

    @app.get("/calibrate/layout.png")
    def enrollment_layout() -> Response:
        return Response(_layout_png(), mimetype="image/png", headers={"Cache-Control": "max-age=86400"})

    @app.get("/games/<int:game_id>")
    def replay_page(game_id: int) -> str:
        return render_template("replay.html", game_id=game_id)

    # ------------------------------------------------------------- reading
    @app.get("/api/state")
    def state() -> Response:
        return jsonify(service.snapshot())

    @app.get("/api/events")
    def events() -> Response:
        try:
            subscription = service.hub.subscribe()
        except HubFull as exc:
            raise ApiError(503, str(exc), {"Retry-After": "30"}) from None
        first = format_message("state", service.snapshot())
        response = Response(stream_with_context(subscription.stream(first)), mimetype="text/event-stream")
        response.headers["Cache-Control"] = "no-cache"
        response.headers["X-Accel-Buffering"] = "no"
        return response

    @app.get("/api/games")
    def games() -> Response:
        return jsonify(games=[g.to_dict() for g in service.store.games()], current=service.game_id,
                       notices=service.notices)

    @app.get("/api/games/<int:game_id>")
    def game(game_id: int) -> Response:
        record = _record(service, game_id)
        moves = [{"ply": n, "uhp": m.uhp, "time": m.timestamp, "mark": m.mark.value if m.mark else None}
                 for n, m in enumerate(record.moves, start=1)]
        return jsonify(id=game_id, game_type=str(record.game_type), result=record.result.value,
                       players={"w": record.tags.get("White", ""), "b": record.tags.get("Black", "")},
                       game_string=record.to_game_string(), game_string_note=record.game_string_note(),
                       moves=moves,
                       positions=[position(board) for board in record.boards()])

    @app.get("/api/games/<int:game_id>/pgn")
    def game_pgn(game_id: int) -> Response:
        return _download(format_pgn(_record(service, game_id)), f"hivecam-{game_id}.pgn", "application/x-hive-pgn")

    @app.get("/api/games/<int:game_id>/gamestring")
    def game_string(game_id: int) -> Response:
        return _download(_record(service, game_id).to_game_string() + "\n", f"hivecam-{game_id}.txt", "text/plain")

    @app.get("/api/camera.jpg")
    def camera_jpeg() -> Response:
        data = live.preview_jpeg() if live is not None else None
        if data is None:
            raise ApiError(404, "no camera frame yet")
        return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})

    @app.get("/api/camera.mjpg")
    def camera_mjpeg() -> Response:
        if live is None:
            raise ApiError(404, "no camera in this server")
        if not mjpeg_streams.acquire(blocking=False):
            raise ApiError(503, f"{MAX_MJPEG_STREAMS} camera streams are open already: "
                                "use /api/camera.jpg or close one", {"Retry-After": "30"})

        def frames():
            try:
                while not service.hub.closed:
                    data = live.preview_jpeg()
                    if data is not None:
                        yield b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + data + b"\r\n"
                    time.sleep(MJPEG_INTERVAL)
            finally:
                mjpeg_streams.release()

        return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")

    @app.post("/api/rulings")
    def rulings() -> Response:
        if not rulings_at_once.acquire(blocking=False):
            raise ApiError(503, "the rulings page is busy with other questions: ask again in a moment",
                           {"Retry-After": "1"})
        try:
            return _answer_ruling(service, json_body())
        finally:
            rulings_at_once.release()


    # ------------------------------------------------------------- session
    @app.get("/api/session")
    def session_info() -> Response:
        session.setdefault("csrf", new_csrf_token())
        return jsonify(control=_controls(control), csrf=session["csrf"])

    @app.post("/api/login")
    def login() -> Response:
        _check_csrf()
        _check_guess(control, _pin(json_body(), "pin"), "wrong PIN")
        _start_session(control.generation)
        return jsonify(control=True, csrf=session["csrf"])

    @app.post("/api/logout")
    def logout() -> Response:
        _check_csrf()
        if _controls(control):  # ends this cookie and any copy of it (and every other session)
            control.end_sessions()
        session.clear()
        return jsonify(control=False)

    @app.post("/api/pin")
    @controller
    def change_pin() -> Response:
        body = json_body()
        new = _pin(body, "pin")
        _check_guess(control, _pin(body, "current"), "the current PIN is wrong")
        _start_session(control.change_pin(new))  # every other session ends
        return jsonify(ok=True, csrf=session["csrf"])

    # ------------------------------------------------------------- control
    @app.post("/api/game/new")
    @controller
    def new_game() -> Response:
        body = json_body()
        try:
            game_type = str(GameType.parse(text_field(body, "game_type", default="Base+MLP", max_length=12)))
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        options = RuleOptions(bool_field(body, "queen_may_open"), bool_field(body, "repetition_draw"))
        state = service.new_game(game_type, options, text_field(body, "white", max_length=60),
                                 text_field(body, "black", max_length=60),
                                 optional_int(body, "illegal_move_limit", 1, 99))
        return jsonify(state=state)

    for name, method in (("override", "override"), ("undo", "undo"), ("draw", "agree_draw")):
        app.add_url_rule(f"/api/game/{name}", name, controller(_plain_action(service, method)), methods=["POST"])
    for name in ("confirm", "correct"):
        app.add_url_rule(f"/api/game/{name}", name, controller(_move_action(service, name)), methods=["POST"])

    @app.post("/api/calibrate/enroll")
    @controller
    def enroll_from_camera() -> Response:
        from calibration.errors import CalibrationError

        if enrollment is None:
            raise ApiError(404, "this server has no camera to enroll from")
        if bool_field(json_body(), "reset"):
            enrollment.reset()
        try:
            photos = enrollment.add_photo()
        except LookupError as exc:
            raise ApiError(409, str(exc)) from None
        except CalibrationError as exc:
            raise ApiError(422, f"{str(exc).rstrip('.')}. Lay the pieces out as the picture shows, all in view, and try again.") from None
        return jsonify(photos=photos, profile=str(enrollment.path),
                       message=f"Learned your set from {photos} photo{'s' if photos > 1 else ''}; "
                               "it is in use now. Turn the block and add another photo to make it surer.")

    @app.post("/api/game/resign")
    @controller
    def resign() -> Response:
        try:
            colour = colour_of(text_field(json_body(), "colour", required=True, max_length=5))
        except ValueError as exc:
            raise ApiError(400, str(exc)) from None
        return _act(service, lambda ref: ref.resign(colour))

    return app


@functools.cache
def _layout_png() -> bytes:
    """The enrollment layout as the camera should see it (PNG)."""
    import cv2

    from vision.enroll import layout_picture

    return cv2.imencode(".png", layout_picture())[1].tobytes()


def _page(template: str) -> Callable[[], str]:
    return lambda: render_template(template)


def _plain_action(service: GameService, method: str) -> Callable[[], Response]:
    """A control endpoint calling the referee's ``method`` with no argument."""

    def view() -> Response:
        json_body()  # still refuse a malformed body
        return _act(service, lambda ref: getattr(ref, method)())

    return view


def _move_action(service: GameService, method: str) -> Callable[[], Response]:
    """A control endpoint calling the referee's ``method`` with the body's ``move``."""

    def view() -> Response:
        move = text_field(json_body(), "move", required=True, max_length=120)  # a few moves, "; "-separated
        return _act(service, lambda ref: getattr(ref, method)(move))

    return view


def _check_csrf() -> None:
    token = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token", "")
    if not token or not sent or not hmac.compare_digest(sent, token):
        raise ApiError(403, "missing or stale CSRF token: reload the page (GET /api/session gives the token)")


def _controls(control: Control) -> bool:
    """Whether this session logged in with the PIN in the current generation."""
    return bool(session.get("control")) and session.get("generation") == control.generation


def _start_session(generation: int) -> None:
    session.clear()
    session.permanent = True
    session.update(control=True, generation=generation, csrf=new_csrf_token())


def _check_guess(control: Control, pin: str, wrong: str) -> None:
    """Check a PIN guess through the brake: 429 when it is on, 403 with ``wrong`` if wrong."""
    try:
        ok = control.verify(request.remote_addr or "?", pin)
    except TooManyGuesses as exc:
        raise ApiError(429, str(exc), {"Retry-After": str(int(exc.wait) + 1)}) from None
    if not ok:
        raise ApiError(403, wrong)


def _controller(control: Control, view: Callable[[], Response]) -> Callable[[], Response]:
    """Only a current session logged in with the PIN, sending its CSRF token, may control the game."""

    @wraps(view)
    def guarded() -> Response:
        if not _controls(control):
            raise ApiError(401, "log in with the PIN to control the game")
        _check_csrf()
        return view()

    return guarded


def _pin(body: dict[str, Any], name: str) -> str:
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


def _act(service: GameService, action: Callable[[Any], list]) -> Response:
    try:
        events = service.act(action)
    except ValueError as exc:  # the referee refused: nothing to confirm, illegal correction, ...
        raise ApiError(409, str(exc)) from None
    return jsonify(events=events, state=service.snapshot())


def _answer_ruling(service: GameService, body: dict[str, Any]) -> Response:
    """The rulings page's answer: the position, a piece's destinations, a cell's ruling."""
    text = text_field(body, "position", max_length=MAX_BODY, multiline=True)
    try:
        board = load_position(text) if text else service.referee.board.copy()
        answer: dict[str, Any] = {"position": position(board)}
        piece_name = text_field(body, "piece", max_length=4)
        if piece_name:
            piece = parse_piece(board, piece_name)
            answer["piece"] = piece.name
            answer["destinations"] = destinations(board, piece)
            cell = cell_field(body, "cell")
            if cell is not None:
                answer["ruling"] = ruling(board, piece, cell)
    except ValueError as exc:
        raise ApiError(422, str(exc)) from None
    return jsonify(answer)


def _record(service: GameService, game_id: int):
    if not 1 <= game_id <= MAX_GAME_ID:
        raise ApiError(404, f"there is no game {game_id}")
    try:
        return service.record(game_id)
    except KeyError:
        raise ApiError(404, f"there is no game {game_id}") from None
    except DamagedGame as exc:
        raise ApiError(409, str(exc)) from None


def _download(text: str, filename: str, mimetype: str) -> Response:
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
