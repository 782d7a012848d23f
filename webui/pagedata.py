"""The pages' JSON, built in this one place from the referee's and the record's typed data.

``live_state`` is what ``GET /api/state`` and every SSE ``update`` carry; ``game`` is a
logged game for the replay; ``position`` is one position (rulings page, replay steps).
Colours are ``"w"``/``"b"``, cells ``{q, r}`` in game coordinates, times seconds.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping, Sequence

from rules.board import Board
from rules.clock import ClockState, clock_state, move_seconds
from rules.hexgrid import Hex
from rules.pieces import Colour, Piece
from rules.record import GameRecord, IllegalAttempt
from rules.referee import Entry, IllegalEvent, MoveEntry, Pending, Referee, SeenStack, TablePosition
from rules.referee.view import entries

Json = dict[str, Any]
STATE_WORDS = {"NotStarted": "not started", "InProgress": "in progress", "Draw": "draw",
               "WhiteWins": "White wins", "BlackWins": "Black wins"}


def result_words(state: str, reason: str | None = None) -> str:
    """A game state in words, with why it ended: ``White wins (resignation)``."""
    words = STATE_WORDS.get(state, state)
    return f"{words} ({reason})" if reason else words


def last_cells(board: Board) -> Json | None:
    """Where the last move (not a pass) went from and to, to mark it on the board."""
    stack = board.move_stack
    last = stack[-1] if stack and not stack[-1].is_pass else None
    return None if last is None else {"origin": last.origin, "dest": last.dest}


def cell(at: Hex) -> Json:
    return {"q": at[0], "r": at[1]}


def stacks(by_cell: Mapping[Hex, Sequence[Piece]]) -> list[Json]:
    """Stacks by cell, pieces bottom first."""
    return [{**cell(at), "pieces": [p.name for p in stack]} for at, stack in sorted(by_cell.items())]


def hands(by_colour: Mapping[Colour, Sequence[Piece]]) -> Json:
    """The pieces each colour has still to place."""
    return {colour.value: [p.name for p in pieces] for colour, pieces in by_colour.items()}


def surrounded(board: Board) -> list[Json]:
    """The cells of the Queens surrounded on ``board`` (the end of the game)."""
    return [cell(at) for at in board.surrounded_queens()]


def position(board: Board) -> Json:
    """One position: stacks, hands, whose turn, its last move, and its GameString."""
    return {"game_string": board.game_string(), "turn": board.turn.value, "turn_number": board.turn_number,
            "state": board.state.value, "stacks": stacks(board.stacks()),
            "hand": hands({c: board.hand(c) for c in Colour}), "surrounded": surrounded(board),
            "last_cells": last_cells(board)}


def players(record: GameRecord) -> Json:
    return {"w": record.tags.get("White", ""), "b": record.tags.get("Black", "")}


def entry(listed: Entry, record: GameRecord) -> Json:
    """A line of the move list: a move (``time`` is its game-clock time, ``emt`` the thinking
    time, ``clk`` the time left after it) or an illegal attempt and how it ended."""
    if isinstance(listed, MoveEntry):
        return {"kind": "move", "ply": listed.ply, "turn": listed.turn, "colour": listed.colour.value,
                "uhp": listed.uhp, "time": record.moves[listed.ply - 1].timestamp, "emt": listed.emt,
                "clk": listed.clk, "mark": listed.mark.value if listed.mark else None, "comment": listed.comment}
    return attempt(listed)


def attempt(tried: IllegalAttempt) -> Json:
    return {"kind": "illegal", "after_ply": tried.ply, "colour": tried.colour.value, "uhp": tried.uhp,
            "rule": tried.rule, "message": tried.message, "time": tried.timestamp, "resolution": tried.resolution,
            "by": tried.by}


def clocks(state: ClockState, record: GameRecord) -> Json:
    """Both clocks (seconds; the page counts the running one on)."""
    control = record.time_control
    sides: Json = {c.value: {"used": state.used[c], "left": state.left[c] if state.left else None} for c in Colour}
    return {**sides, "running": state.running.value if state.running else None,
            "flagged": state.flagged.value if state.flagged else None, "control": str(control) if control else None}


def seen(stack: SeenStack | None) -> list[Json]:
    """What the camera reads at a cell: its top piece (the name when the game tells which)."""
    if stack is None:
        return []
    top = stack.top
    return [{"colour": top.colour.value, "creature": top.creature.value, "name": top.name,
             "height": stack.height, "sure": stack.sure}]


def pending(waiting: Pending | None) -> Json | None:
    """What the referee waits for, what to do, and (checking the board) the camera's reading,
    the cells where it differs from the game, and the ways out; the event's details with it."""
    if waiting is None:
        return None
    details = waiting.event.to_dict() if waiting.event is not None else {}
    return {**details, "kind": waiting.kind, "message": waiting.message, "what_to_do": waiting.what_to_do,
            "candidates": list(waiting.candidates), "ways_out": list(waiting.ways_out), "undone": list(waiting.undone),
            "reading": [{**cell(s.cell), "pieces": seen(s)} for s in waiting.reading],
            "differences": [{**cell(d.cell), "expected": [p.name for p in d.expected], "seen": seen(d.seen)}
                            for d in waiting.differences]}


def table_position(found: TablePosition) -> Json:
    """The position the camera sees (pieces numbered in reading order) and the questions a
    person must answer before a game starts from it; ``view`` names that reading, so that
    answers to it are never applied to a later one."""
    return {"game_type": str(found.game_type), "stacks": stacks(found.stacks), "view": view_key(found),
            "heights": [{**cell(at), "height": height} for at, height in sorted(found.heights.items())],
            "questions": [{"kind": q.kind, "text": q.text, "cells": [cell(at) for at in q.cells],
                           "choices": list(q.choices), "default": q.default} for q in found.questions]}


def view_key(found: TablePosition) -> str:
    """A short name of what the camera saw on the table: equal readings, equal names."""
    seen = [stacks(found.stacks), sorted(found.heights.items()), str(found.game_type)]
    return hashlib.sha256(json.dumps(seen).encode()).hexdigest()[:16]


def setup(record: GameRecord) -> Json | None:
    """The position a game was picked up from (None: from the empty board)."""
    found = record.setup
    return None if found is None else {"to_move": found.to_move.value, "position": str(found),
                                       "stacks": stacks(found.stacks)}


def _common(record: GameRecord, listed: list[Entry], state: ClockState) -> Json:
    """What the live state and a logged game both show of a record."""
    outcome = record.outcome
    lines = [entry(e, record) for e in listed]
    return {"game_type": str(record.game_type), "players": players(record), "tags": dict(record.tags),
            "result_text": result_words(record.result.value, outcome.termination.value if outcome else None),
            "entries": lines, "moves": [line for line in lines if line["kind"] == "move"],
            "clocks": clocks(state, record), "setup": setup(record),
            "game_string": record.to_game_string(), "game_string_note": record.game_string_note()}


def game(game_id: int, record: GameRecord) -> Json:
    """A logged game for the replay: every line of its move list and every position."""
    times = move_seconds(record)
    final = clock_state(record, times[-1] if times else 0.0, record.time_control)
    return {"id": game_id, "result": record.result.value, **_common(record, entries(record, record.board()), final),
            "positions": [position(board) for board in record.boards()]}


def live_state(referee: Referee, game_id: int, camera: Json, now: float) -> Json:
    """The current game as the live page shows it, at game-clock time ``now``."""
    board, record = referee.board, referee.record
    waiting = referee.pending()
    outcome = record.outcome
    return {
        "game_id": game_id, "camera": camera, **_common(record, referee.entries(), referee.clock_state(now)),
        "state": record.result.value, "reason": outcome.termination.value if outcome else None,
        "turn": board.turn.value, "turn_number": board.turn_number, "ply": board.ply,
        "options": {"queen_may_open": record.options.queen_may_open,
                    "repetition_draw": record.options.repetition_draw},
        "illegal_move_limit": referee.config.illegal_move_limit,
        "hand": hands(referee.hands()), "stacks": stacks(referee.stacks()),
        "surrounded": surrounded(referee.board),
        "queen_due": board.queen_due() and not record.result.is_over,
        "view": referee.view, "pending": pending(waiting), "attempt": _attempt(board, waiting),
        "warnings": {c.value: n for c, n in referee.warnings.items()},
        "warnings_total": sum(referee.warnings.values()),
        "last_move": record.moves[-1].uhp if record.moves else None, "last_cells": last_cells(board),
    }


def _attempt(board: Board, waiting: Pending | None) -> Json | None:
    """The illegal move on the table, in cells, so the page can draw it over the position."""
    event = waiting.event if waiting is not None else None
    if not isinstance(event, IllegalEvent) or not event.uhp:
        return None
    try:
        attempted = board.parse_uhp(event.uhp)
    except ValueError:
        return None
    if attempted.piece is None:
        return None
    return {"piece": attempted.piece.name, "origin": attempted.origin, "dest": attempted.dest}
