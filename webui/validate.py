"""Checking what clients send: every problem becomes an ``ApiError`` with a clear message."""

from __future__ import annotations

from typing import Any

from flask import request

from calibration.files import depth
from webui.text import is_plain_text

MAX_JSON_DEPTH = 8  # the API's bodies are flat; cells nest two deep
MAX_BODY = 256 * 1024
MAX_CELLS = 28  # a player has 14 pieces (Base+MLP)


class ApiError(Exception):
    """A request the server refuses; answered as ``{"error": message}`` with ``status``."""

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers or {}


def json_body() -> dict[str, Any]:
    """The request's JSON object (an empty body counts as ``{}``)."""
    if not request.get_data(cache=True):
        return {}
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        data = None
    if data is not None and depth(data) > MAX_JSON_DEPTH:
        raise ApiError(400, f"the body nests more than {MAX_JSON_DEPTH} deep")
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object, e.g. {\"move\": \"wS1\"}")
    return data


def text_field(body: dict[str, Any], name: str, required: bool = False, default: str = "",
               max_length: int = 200, multiline: bool = False) -> str:
    """A string field of at most ``max_length`` characters, one line unless ``multiline``."""
    value = body.get(name)
    if value is None:
        if required:
            raise ApiError(400, f"'{name}' is required")
        return default
    if not isinstance(value, str):
        raise ApiError(400, f"'{name}' must be a string")
    value = value.strip()
    if required and not value:
        raise ApiError(400, f"'{name}' must not be empty")
    if len(value) > max_length:
        raise ApiError(400, f"'{name}' is too long (at most {max_length} characters)")
    if not is_plain_text(value, multiline):
        raise ApiError(400, f"'{name}' must be printable text" + ("" if multiline else " on one line"))
    return value


def bool_field(body: dict[str, Any], name: str, default: bool = False) -> bool:
    value = body.get(name, default)
    if not isinstance(value, bool):
        raise ApiError(400, f"'{name}' must be true or false")
    return value


def optional_int(body: dict[str, Any], name: str, low: int, high: int) -> int | None:
    value = body.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ApiError(400, f"'{name}' must be a whole number from {low} to {high}, or null")
    return value


def cells_field(body: dict[str, Any], name: str, kind: type) -> dict[tuple[int, int], Any]:
    """An object keyed by cells written ``"q,r"``, each value of ``kind`` (a piece name, or a
    list of them): e.g. ``{"1,0": "bA2"}``."""
    value = body.get(name) or {}
    if not isinstance(value, dict) or len(value) > MAX_CELLS:
        raise ApiError(400, f"'{name}' must be an object of at most {MAX_CELLS} cells, e.g. {{\"1,0\": \"bA2\"}}")
    found = {}
    for key, item in value.items():
        try:
            q, r = (int(part) for part in key.split(","))
        except ValueError:
            raise ApiError(400, f"'{name}': {key[:20]!r} is not a cell written q,r such as 1,0") from None
        pieces = item if isinstance(item, list) else [item]
        if not isinstance(item, kind) or not all(isinstance(p, str) and len(p) <= 4 for p in pieces) or len(pieces) > 6:
            raise ApiError(400, f"'{name}' at {key}: give piece names such as wA2")
        found[(q, r)] = item
    return found


def cell_field(body: dict[str, Any], name: str) -> tuple[int, int] | None:
    """An axial cell sent as ``[q, r]``."""
    value = body.get(name)
    if value is None:
        return None
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) and -100 <= v <= 100 for v in value)):
        raise ApiError(400, f"'{name}' must be a cell [q, r] of two whole numbers")
    return (value[0], value[1])
