"""The read-only API: the live state and its event stream, the logged games and their files."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, stream_with_context

from rules.pgn import format_pgn
from rules.record import GameRecord
from webui import pagedata
from webui.context import services
from webui.hub import HubFull, format_message
from webui.store import MAX_GAME_ID, DamagedGame
from webui.validate import ApiError

blueprint = Blueprint("read_api", __name__)


@blueprint.get("/api/state")
def state() -> Response:
    return jsonify(services().service.snapshot())


@blueprint.get("/api/events")
def events() -> Response:
    """Server-Sent Events: ``state`` first, then ``update``, ``camera`` and ``resync``."""
    service = services().service
    try:
        subscription = service.hub.subscribe()
    except HubFull as exc:
        raise ApiError(503, str(exc), {"Retry-After": "30"}) from None
    first = format_message("state", service.snapshot())
    response = Response(stream_with_context(subscription.stream(first)), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@blueprint.get("/api/games")
def games() -> Response:
    service = services().service
    games = [{**g.to_dict(), "result_text": pagedata.result_words(g.result) if g.result else ""}
             for g in service.store.games()]
    return jsonify(games=games, current=service.game_id, notices=service.notices)


@blueprint.get("/api/games/<int:game_id>")
def game(game_id: int) -> Response:
    return jsonify(pagedata.game(game_id, stored_record(game_id)))


@blueprint.get("/api/games/<int:game_id>/pgn")
def game_pgn(game_id: int) -> Response:
    return _download(format_pgn(stored_record(game_id)), f"hivecam-{game_id}.pgn", "application/x-hive-pgn")


@blueprint.get("/api/games/<int:game_id>/gamestring")
def game_string(game_id: int) -> Response:
    return _download(stored_record(game_id).to_game_string() + "\n", f"hivecam-{game_id}.txt", "text/plain")


@blueprint.get("/api/table-position")
def table_position() -> Response:
    """The position on the table as the camera sees it, and the questions to start a game from it."""
    try:
        return jsonify(pagedata.table_position(services().service.table_position()))
    except ValueError as exc:
        raise ApiError(409, str(exc)) from None


def stored_record(game_id: int) -> GameRecord:
    """Game ``game_id`` of the log; 404 if there is none, 409 if it is damaged."""
    if not 1 <= game_id <= MAX_GAME_ID:
        raise ApiError(404, f"there is no game {game_id}")
    try:
        return services().service.record(game_id)
    except KeyError:
        raise ApiError(404, f"there is no game {game_id}") from None
    except DamagedGame as exc:
        raise ApiError(409, str(exc)) from None


def _download(text: str, filename: str, mimetype: str) -> Response:
    return Response(text, mimetype=mimetype, headers={"Content-Disposition": f'attachment; filename="{filename}"'})
