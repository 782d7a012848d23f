"""Legal-move sets for real championship positions, compared with Mzinga's lists."""

from __future__ import annotations

import pytest

from rules.board import Board
from tests.conftest import CORPUS, corpus_rows

REAL_GAMES = CORPUS / "valid-moves" / "Board_ValidMovesFromRealGamesTest.csv"


def _rows(path):
    if not path.exists():
        pytest.skip(f"{path} not found")
    return corpus_rows(path)


def test_real_game_positions_have_exactly_the_listed_moves() -> None:
    rows = _rows(REAL_GAMES)
    assert len(rows) == 195
    for number, (game_string, listed) in enumerate(rows, start=1):
        board = Board.from_game_string(game_string)
        expected = {board.parse_uhp(text) for text in listed.split(";") if text.strip()}
        got = set(board.legal_moves)
        assert got == expected, (
            f"row {number}: missing {sorted(board.uhp(m) for m in expected - got)}, "
            f"extra {sorted(board.uhp(m) for m in got - expected)}")


@pytest.mark.parametrize("bug", ["QueenBee", "Spider", "Beetle", "Grasshopper", "SoldierAnt",
                                 "Mosquito", "Ladybug", "Pillbug"])
def test_per_bug_listed_moves_are_legal(bug: str) -> None:
    rows = _rows(CORPUS / "valid-moves" / f"Board_ValidMovesFor{bug}Test.csv")
    for game_string, listed in rows:
        board = Board.from_game_string(game_string)
        legal = set(board.legal_moves)
        for text in filter(None, (t.strip() for t in listed.split(";"))):
            assert board.parse_uhp(text) in legal, f"{bug}: {text} should be legal in {game_string}"
