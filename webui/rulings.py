"""The rulings page's questions: where may this piece go, and why (not) this cell?"""

from __future__ import annotations

import re
from typing import Any

from rules.board import Board
from rules.pgn import parse_pgn
from rules.pieces import Piece

MAX_PLIES = 1000  # replaying costs about 0.5 ms a move; real games stay under 400
_MOVE_NUMBER = re.compile(r"(?<!\S)\d+\.")  # a PGN move number (at most one move each, plus one unnumbered)


def load_position(text: str) -> Board:
    """A position from a UHP GameString or a Hive PGN text of at most ``MAX_PLIES`` moves;
    ``ValueError`` says why not."""
    text = text.strip()
    if not text:
        raise ValueError("paste a UHP GameString (Base;InProgress;White[1]) or a Hive PGN game")
    game_string = text.startswith("Base")
    plies = text.count(";") - 2 if game_string else len(_MOVE_NUMBER.findall(text))
    if plies > MAX_PLIES:
        raise ValueError(f"this game has {plies} moves; the rulings page takes at most {MAX_PLIES}")
    if game_string:  # read as engines read it: the moves are the truth
        return Board.from_game_string(text, strict=False)
    return parse_pgn(text).board()


def parse_piece(board: Board, name: str) -> Piece:
    try:
        piece = Piece.parse(name)
    except ValueError as exc:
        raise ValueError(f"{name!r} is not a piece (write it like wQ, bA2, wS1)") from exc
    if not board.in_play(piece.bug):
        raise ValueError(f"there is no {piece.bug.title} in a {board.game_type} game")
    return piece


def destinations(board: Board, piece: Piece) -> list[dict[str, Any]]:
    """Every legal move of ``piece`` now: its cell and MoveString."""
    return [{"cell": list(m.dest), "uhp": board.uhp(m)} for m in board.legal_moves_of(piece) if m.dest is not None]


def ruling(board: Board, piece: Piece, cell: tuple[int, int]) -> dict[str, Any]:
    """Whether ``piece`` may go to ``cell``, the engine's sentence and the rulebook's words."""
    try:
        from rules.explain import explain_cell
        from rules.rulebook import citation
    except ImportError:  # the explainer is optional: fall back to the bare verdict
        legal = any(m.dest == cell for m in board.legal_moves_of(piece))
        return {"legal": legal, "move": None, "message": "legal" if legal else "not legal", "rule": None,
                "book": "", "reference": ""}
    answer = explain_cell(board, piece, cell)
    violation = answer.violation
    result: dict[str, Any] = {"legal": answer.legal, "move": answer.move_string, "message": answer.message,
                              "rule": None, "book": "", "reference": ""}
    if violation is not None:
        book = citation(violation.rule, violation.bug)
        result.update(rule=violation.rule.value, book=book.summary, reference=book.reference,
                      cells=[list(c) for c in violation.cells])
    return result
