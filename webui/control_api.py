"""The control API (PIN and CSRF token needed): new game, a person's word on the moves, the result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from flask import Blueprint, Response, jsonify

from rules.clock import TimeControl
from rules.gametype import GameType, RuleOptions
from rules.referee import Event, Referee, TablePosition
from webui import pagedata
from webui.context import services
from webui.game import colour_of
from webui.guard import controller
from webui.validate import ApiError, bool_field, cells_field, json_body, optional_int, text_field

blueprint = Blueprint("control_api", __name__)
MAX_MOVES_TEXT = 120  # a few MoveStrings, "; "-separated


@blueprint.post("/api/game/new")
@controller
def new_game() -> Response:
    """A new game; the current one stays in the log as it is."""
    game = _new_game_form(json_body())
    return jsonify(state=services().service.new_game(*game.arguments, **game.tags))


@blueprint.post("/api/game/start-from-table")
@controller
def start_from_table() -> Response:
    """A new game from the position on the table (``GET /api/table-position``), with the answers
    to its questions: ``to_move``, ``numbers`` ({"q,r": "wA2"}), ``under`` ({"q,r": ["wQ"]}),
    and ``view``, the reading answered (409 when the table has changed since)."""
    body = json_body()
    service = services().service
    game = _new_game_form(body, str(service.referee.record.game_type))
    try:
        to_move = colour_of(text_field(body, "to_move", required=True, max_length=5))
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    numbers, under = cells_field(body, "numbers", str), cells_field(body, "under", list)
    view = text_field(body, "view", max_length=64)
    try:
        state = service.start_from_table(lambda position: _unchanged(position, view).answered(to_move, numbers, under),
                                         *game.arguments, **game.tags)
    except ValueError as exc:  # no steady view yet, or answers that make no position
        raise ApiError(409, str(exc)) from None
    return jsonify(state=state)


def _unchanged(position: TablePosition, view: str) -> TablePosition:
    """``position`` when it is the reading ``view`` names (or none is named); ``ValueError`` when
    the table changed since the person read it, so that answers meet the position they answer."""
    if view and view != pagedata.view_key(position):
        raise ValueError("the table changed since it was read: read the table again and check the answers")
    return position


@dataclass(frozen=True)
class _NewGame:
    """The new-game form: ``arguments`` of ``GameService.new_game``, and the record's ``tags``."""

    arguments: tuple[str, RuleOptions, str, str, int | None]
    tags: dict[str, str]


def _new_game_form(body: dict[str, Any], game_type: str = "Base+MLP") -> _NewGame:
    try:
        kind = str(GameType.parse(text_field(body, "game_type", default=game_type, max_length=12)))
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    options = RuleOptions(bool_field(body, "queen_may_open"), bool_field(body, "repetition_draw"))
    return _NewGame((kind, options, text_field(body, "white", max_length=60), text_field(body, "black", max_length=60),
                     optional_int(body, "illegal_move_limit", 1, 99)), _game_tags(body))


def _game_tags(body: dict[str, Any]) -> dict[str, str]:
    """The ``Event``, ``Round`` and ``TimeControl`` tags of a new game's form (those given)."""
    try:
        control = TimeControl.parse(text_field(body, "time_control", max_length=12))
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    tags = {"Event": text_field(body, "event", max_length=60), "Round": text_field(body, "round", max_length=20),
            "TimeControl": str(control) if control else ""}
    return {name: value for name, value in tags.items() if value}


@blueprint.post("/api/game/confirm")
@controller
def confirm() -> Response:
    """Pick one of the candidates the referee asked about (``move``: its text)."""
    move = _moves_field("move")
    return _act(lambda ref: ref.confirm(move))


@blueprint.post("/api/game/add-missed")
@blueprint.post("/api/game/correct")  # the old name
@controller
def add_missed() -> Response:
    """Record moves the camera missed, played since the last recorded position (``move``)."""
    moves = _moves_field("move")
    return _act(lambda ref: ref.correct(moves))


@blueprint.post("/api/game/replace-last")
@controller
def replace_last() -> Response:
    """The last recorded move was really ``move`` (one MoveString, or several ``"; "``-separated)."""
    moves = _moves_field("move")
    return _act(lambda ref: ref.replace_last(moves))


@blueprint.post("/api/game/rename")
@controller
def rename() -> Response:
    """A tile of the record is another piece of its colour (``tile``: e.g. ``"wG1=wA1"``)."""
    tile = text_field(json_body(), "tile", required=True, max_length=20)
    return _act(lambda ref: ref.rename(tile))


@blueprint.post("/api/game/override")
@controller
def override() -> Response:
    """Arbiter's ruling: record the pending illegal move anyway."""
    json_body()  # still refuse a malformed body
    return _act(lambda ref: ref.override())


@blueprint.post("/api/game/undo")
@controller
def undo() -> Response:
    json_body()
    return _act(lambda ref: ref.undo())


@blueprint.post("/api/game/draw")
@controller
def draw() -> Response:
    json_body()
    return _act(lambda ref: ref.agree_draw())


@blueprint.post("/api/game/resign")
@controller
def resign() -> Response:
    try:
        colour = colour_of(text_field(json_body(), "colour", required=True, max_length=5))
    except ValueError as exc:
        raise ApiError(400, str(exc)) from None
    return _act(lambda ref: ref.resign(colour))


def _moves_field(name: str) -> str:
    return text_field(json_body(), name, required=True, max_length=MAX_MOVES_TEXT)


def _act(action: Callable[[Referee], list[Event]]) -> Response:
    """Carry out a person's decision; 409 with the referee's sentence when it refuses."""
    service = services().service
    try:
        events = service.act(action)
    except ValueError as exc:  # nothing to confirm, an illegal correction, ...
        raise ApiError(409, str(exc)) from None
    return jsonify(events=events, state=service.snapshot())
