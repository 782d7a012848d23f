"""The pages' JSON, built in this one place from the referee's and the record's typed data.

``live_state`` is what ``GET /api/state`` and every SSE ``update`` carry; ``game`` is a
logged game for the replay; ``position`` is one position (rulings page, replay steps).
Colours are ``"w"``/``"b"``, cells ``{q, r}`` in game coordinates, times seconds.
"""

from __future__ import annotations

from typing import Any

from rules.board import Board
from rules.clock import clock_state, move_seconds, thinking_times, times_left
from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece
from rules.record import GameRecord, IllegalAttempt
from rules.referee import Referee

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
            "surrounded": surrounded(board), "last_cells": last_cells(board)}


def players(record: GameRecord) -> Json:
    return {"w": record.tags.get("White", ""), "b": record.tags.get("Black", "")}


def moves(record: GameRecord) -> list[Json]:
    """The recorded moves: ``turn`` counts each player's moves (ply 3 is White's turn 2),
    ``emt`` is the thinking time, ``clk`` the mover's time left after it (with a time control)."""
    control = record.time_control
    left: list[float | None] = list(times_left(record, control)) if control else [None] * len(record.moves)
    colour = record.first_to_move
    found = []
    for ply, (entry, emt, clk) in enumerate(zip(record.moves, thinking_times(record), left), start=1):
        found.append({"kind": "move", "ply": ply, "turn": (ply + 1) // 2, "colour": colour.value, "uhp": entry.uhp,
                      "time": entry.timestamp, "emt": emt, "clk": clk, "mark": entry.mark.value if entry.mark else None,
                      "comment": entry.comment})
        colour = colour.opponent
    return found


def attempt(tried: IllegalAttempt) -> Json:
    """An illegal attempt kept in the record, and how it ended."""
    return {"kind": "illegal", "after_ply": tried.ply, "colour": tried.colour.value, "uhp": tried.uhp,
            "rule": tried.rule, "message": tried.message, "time": tried.timestamp, "resolution": tried.resolution,
            "by": tried.by}


def entries(record: GameRecord, recorded: list[Json]) -> list[Json]:
    """The move list in order: the ``recorded`` moves with each illegal attempt after the move it followed."""
    found = [attempt(a) for a in record.attempts if a.ply == 0]
    for ply, entry in enumerate(recorded, start=1):
        found.append(entry)
        found += [attempt(a) for a in record.attempts if a.ply == ply]
    return found


def clocks(record: GameRecord, now: float) -> Json:
    """Both clocks at game-clock time ``now`` (seconds; the page counts the running one on)."""
    control = record.time_control
    state = clock_state(record, now, control)
    sides: Json = {c.value: {"used": state.used[c], "left": state.left[c] if state.left else None} for c in Colour}
    return {**sides, "running": state.running.value if state.running else None,
            "flagged": state.flagged.value if state.flagged else None,
            "control": str(control) if control else None}


def game(game_id: int, record: GameRecord) -> Json:
    """A logged game for the replay: every move and every position from the empty board."""
    recorded = moves(record)
    times = move_seconds(record)
    outcome = record.outcome
    return {"id": game_id, "game_type": str(record.game_type), "result": record.result.value,
            "result_text": result_words(record.result.value, outcome.termination.value if outcome else None),
            "players": players(record), "tags": dict(record.tags),
            "game_string": record.to_game_string(), "game_string_note": record.game_string_note(),
            "moves": recorded, "entries": entries(record, recorded), "clocks": clocks(record, times[-1] if times else 0.0),
            "setup": setup(record),
            "positions": [position(board) for board in record.boards()]}


def setup(record: GameRecord) -> Json | None:
    """The position a game was picked up from (None: from the empty board)."""
    found = record.setup
    return None if found is None else {"to_move": found.to_move.value, "position": str(found),
                                       "stacks": stacks({cell: list(stack) for cell, stack in found.stacks.items()})}


def live_state(referee: Referee, game_id: int, camera: Json, now: float) -> Json:
    """The current game as the live page shows it, at game-clock time ``now``."""
    board, record = referee.board, referee.record
    seen = referee.snapshot()  # the referee's pending problem and view: until its typed accessors
    recorded = moves(record)
    outcome = record.outcome
    return {
        "game_id": game_id, "camera": camera, "game_type": str(board.game_type),
        "state": record.result.value, "reason": outcome.termination.value if outcome else None,
        "result_text": result_words(record.result.value, outcome.termination.value if outcome else None),
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
        "last_cells": last_cells(board),
        "moves": recorded, "entries": entries(record, recorded), "clocks": clocks(record, now), "setup": setup(record),
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
