"""The pages' JSON, built in this one place from the referee's and the record's typed data.

``live_state`` is what ``GET /api/state`` and every SSE ``update`` carry; ``game`` is a
logged game for the replay; ``position`` is one position (rulings page, replay steps).
Colours are ``"w"``/``"b"``, cells ``{q, r}`` in game coordinates, times seconds.
"""

from __future__ import annotations

from typing import Any

from rules.board import Board
from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece
from rules.record import GameRecord, RecordedMove
from rules.referee import Referee

Json = dict[str, Any]


def stacks(board_stacks: dict[Hex, list[Piece]]) -> list[Json]:
    """Stacks by cell, pieces bottom first."""
    return [{"q": q, "r": r, "pieces": [p.name for p in stack]} for (q, r), stack in sorted(board_stacks.items())]


def hands(board: Board) -> Json:
    """The pieces each colour has still to place."""
    return {c.value: [p.name for p in board.hand(c)] for c in Colour}


def surrounded(board: Board) -> list[Json]:
    """The cells of the Queens surrounded on ``board`` (the end of the game)."""
    cells = []
    for colour in Colour:
        queen = board.position_of(Piece.get(colour, Bug.QUEEN))
        if queen is not None and board.surrounded(colour):
            cells.append({"q": queen[0], "r": queen[1]})
    return cells


def position(board: Board) -> Json:
    """One position: stacks, hands, whose turn, and its GameString."""
    return {"game_string": board.game_string(), "turn": board.turn.value, "turn_number": board.turn_number,
            "state": board.state.value, "stacks": stacks(board.stacks()), "hand": hands(board),
            "surrounded": surrounded(board)}


def players(record: GameRecord) -> Json:
    return {"w": record.tags.get("White", ""), "b": record.tags.get("Black", "")}


def move(ply: int, entry: RecordedMove) -> Json:
    """One recorded move; ``turn`` counts each player's moves (ply 3 is White's turn 2)."""
    colour = entry.move.piece.colour.value if entry.move.piece else ("w" if ply % 2 else "b")
    return {"kind": "move", "ply": ply, "turn": (ply + 1) // 2, "colour": colour, "uhp": entry.uhp,
            "time": entry.timestamp, "mark": entry.mark.value if entry.mark else None, "comment": entry.comment}


def moves(record: GameRecord) -> list[Json]:
    return [move(ply, entry) for ply, entry in enumerate(record.moves, start=1)]


def game(game_id: int, record: GameRecord) -> Json:
    """A logged game for the replay: every move and every position from the empty board."""
    recorded = moves(record)
    return {"id": game_id, "game_type": str(record.game_type), "result": record.result.value,
            "players": players(record), "tags": dict(record.tags),
            "game_string": record.to_game_string(), "game_string_note": record.game_string_note(),
            "moves": recorded, "entries": recorded,
            "positions": [position(board) for board in record.boards()]}


def live_state(referee: Referee, game_id: int, camera: Json) -> Json:
    """The current game as the live page shows it."""
    board, record = referee.board, referee.record
    seen = referee.snapshot()  # the referee's pending problem and view: until its typed accessors
    recorded = moves(record)
    last = board.move_stack[-1] if board.move_stack and not board.move_stack[-1].is_pass else None
    outcome = record.outcome
    return {
        "game_id": game_id, "camera": camera, "game_type": str(board.game_type),
        "state": record.result.value, "reason": outcome.termination.value if outcome else None,
        "turn": board.turn.value, "turn_number": board.turn_number, "ply": board.ply,
        "players": players(record),
        "options": {"queen_may_open": record.options.queen_may_open,
                    "repetition_draw": record.options.repetition_draw},
        "illegal_move_limit": referee.config.illegal_move_limit,
        "hand": hands(board), "stacks": stacks(board.stacks()), "surrounded": surrounded(board),
        "queen_due": board.queen_due() and not record.result.is_over,
        "view": seen["view"], "pending": seen["pending"], "attempt": _attempt(board, seen["pending"]),
        "warnings": {c.value: n for c, n in referee.warnings.items()},
        "warnings_total": sum(referee.warnings.values()),
        "last_move": recorded[-1]["uhp"] if recorded else None,
        "last_cells": None if last is None else {"origin": last.origin, "dest": last.dest},
        "moves": recorded, "entries": recorded,
        "clocks": None, "setup": None,
        "game_string": record.to_game_string(), "game_string_note": record.game_string_note(),
    }


def _attempt(board: Board, pending: Json | None) -> Json | None:
    """The illegal move on the table, in cells, so the page can draw it over the position."""
    if not pending or pending.get("kind") != "illegal" or not pending.get("uhp"):
        return None
    try:
        attempted = board.parse_uhp(pending["uhp"])
    except ValueError:
        return None
    if attempted.piece is None:
        return None
    return {"piece": attempted.piece.name, "origin": attempted.origin, "dest": attempted.dest}
