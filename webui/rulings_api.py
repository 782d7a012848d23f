"""The rulings page's API: a position, a piece's legal destinations, the ruling for a cell."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from webui import pagedata
from webui.context import services
from webui.rulings import destinations, load_position, parse_piece, ruling
from webui.validate import MAX_BODY, ApiError, cell_field, json_body, text_field

blueprint = Blueprint("rulings_api", __name__)


@blueprint.post("/api/rulings")
def rulings() -> Response:
    """At most ``MAX_RULINGS_AT_ONCE`` questions at once (each may replay a long game); 503 beyond."""
    at_once = services().rulings_at_once
    if not at_once.acquire(blocking=False):
        raise ApiError(503, "the rulings page is busy with other questions: ask again in a moment",
                       {"Retry-After": "1"})
    try:
        return jsonify(_answer(json_body()))
    finally:
        at_once.release()


def _answer(body: dict[str, Any]) -> dict[str, Any]:
    """The position (sent, else the current game's), a piece's destinations, a cell's ruling."""
    text = text_field(body, "position", max_length=MAX_BODY, multiline=True)
    try:
        board = load_position(text) if text else services().service.referee.board.copy()
        answer: dict[str, Any] = {"position": pagedata.position(board)}
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
    return answer
