"""UHP MoveStrings and GameStrings: reading, canonical writing, and clear errors."""

from __future__ import annotations

import re

import pytest

from rules import Board, Colour, GameState, Piece
from rules.move import NotationError
from tests.conftest import CORPUS, corpus_rows


def test_every_legal_move_round_trips_in_real_positions(corpus) -> None:
    rows = corpus_rows(CORPUS / "valid-moves" / "Board_ValidMovesFromRealGamesTest.csv")
    checked = 0
    for game_string, _ in rows[::5]:
        board = Board.from_game_string(game_string)
        for move in board.legal_moves:
            assert board.parse_uhp(board.uhp(move)) == move
            checked += 1
    assert checked > 1000


def test_reference_marks_point_the_documented_way() -> None:
    board = Board("Base")
    board.push_uhp("wS1")
    expected = {"bG1 wS1-": (1, 0), "bG1 -wS1": (-1, 0), "bG1 wS1/": (1, -1),
                "bG1 /wS1": (-1, 1), "bG1 wS1\\": (0, 1), "bG1 \\wS1": (0, -1)}
    for text, cell in expected.items():
        assert board.parse_uhp(text).dest == cell, text


def test_climbs_are_written_with_the_piece_underneath() -> None:
    board = Board.from_game_string(
        "Base;InProgress;White[4];wS1;bB1 wS1-;wQ -wS1;bQ bB1-;wB1 \\wS1;bS1 bQ-")
    move = board.parse_uhp("wB1 wS1")
    assert move.dest == (0, 0) and board.uhp(move) == "wB1 wS1"
    board.push_legal(move)
    board.push_uhp("bA1 bS1-")
    board.push_uhp("wB1 bB1")
    assert board.stack((1, 0)) == (Piece.parse("bB1"), Piece.parse("wB1"))
    assert board.stack((0, 0)) == (Piece.parse("wS1"),)


@pytest.mark.parametrize("text, fragment", [
    ("wX1", "not a Hive piece"),
    ("wS1 -wS9", "not a reference"),
    ("bG1 wS1 extra", "piece [reference]"),
    ("bG1 -bQ", "not on the board"),
    ("bG1", "without a reference"),
    ("wM", "no Mosquito in Base"),
])
def test_malformed_move_strings_say_what_is_wrong(text: str, fragment: str) -> None:
    board = Board("Base")
    board.push_uhp("wS1")
    with pytest.raises(NotationError, match=re.escape(fragment)):
        board.parse_uhp(text)


def test_game_string_round_trip_and_state() -> None:
    text = "Base+MLP;InProgress;Black[3];wL;bM -wL;wQ wL/;bQ /bM;wP wQ-"
    board = Board.from_game_string(text)
    assert board.game_string() == text
    assert board.turn is Colour.BLACK and board.turn_number == 3
    assert board.state is GameState.IN_PROGRESS


@pytest.mark.parametrize("text, fragment", [
    ("Base;InProgress;White[2];wS1;bG1 wS1-;wQ", "move 3"),
    ("Base;InProgress;White[9];wS1;bG1 -wS1", "lead to White[2]"),
    ("Chess;InProgress;White[1]", "not a game type"),
    ("Base;Winning;White[1]", "GameString"),
    ("Base+MLP", "GameType;GameState;Turn"),
    ("Base;InProgress;White[2];wS1;bQ -wS1", "move 2"),
])
def test_bad_game_strings_are_rejected_clearly(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=re.escape(fragment)):
        Board.from_game_string(text)
