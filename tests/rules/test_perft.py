"""Perft counts against Mzinga's published tables for all eight game types."""

from __future__ import annotations

import pytest

from rules.board import Board
from rules.gametype import ALL_GAME_TYPES
from rules.perft import perft
from tests.conftest import CORPUS, corpus_rows

MAX_DEPTH = 4


def _expected(game_type: str) -> dict[int, int]:
    name = "Board_" + game_type.replace("+", "") + "_PerftTest.csv"
    path = CORPUS / "perft" / name
    if not path.exists():
        pytest.skip(f"perft table {path} not found")
    return {int(depth): int(count) for _, depth, count in corpus_rows(path)}


@pytest.mark.parametrize("game_type", [str(g) for g in ALL_GAME_TYPES])
def test_perft_matches_table(game_type: str) -> None:
    expected = _expected(game_type)
    board = Board(game_type)
    for depth in range(MAX_DEPTH + 1):
        assert perft(board, depth) == expected[depth], f"{game_type} depth {depth}"
    assert board.ply == 0 and not board.stacks(), "perft must leave the board as it found it"
