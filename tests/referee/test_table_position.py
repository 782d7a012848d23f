"""Reading the position on the table: what the camera cannot tell becomes a question."""

from __future__ import annotations

import pytest

from rules import Bug, Colour, GameRecord
from rules.observation import Observation, TileSighting
from rules.pgn import format_pgn, parse_pgn
from rules.referee import Referee, table_position

W, B = Colour.WHITE, Colour.BLACK


def seen(*tiles: tuple[int, int, Colour, Bug, float]) -> Observation:
    return Observation(tuple(TileSighting(q, r, c, bug, conf) for q, r, c, bug, conf in tiles))


LINE = [(0, 0, W, Bug.QUEEN, 0.9), (1, 0, B, Bug.QUEEN, 0.9)]


def test_too_many_pieces_of_a_kind_is_unreadable() -> None:
    ants = [(q, 1, W, Bug.ANT, 0.9) for q in range(-1, 3)]  # four White Ants: a player has three
    position = table_position(seen(*LINE, *ants), "Base")
    [question] = [q for q in position.questions if q.kind == "unreadable"]
    assert "4 pieces are seen as a White Soldier Ant; a player has 3" in question.text
    assert len(question.cells) == 4 and len(position.stacks) == 2


def test_a_creature_not_in_the_game_is_unreadable() -> None:
    position = table_position(seen(*LINE, (2, 0, B, Bug.MOSQUITO, 0.9)), "Base")
    [question] = [q for q in position.questions if q.kind == "unreadable"]
    assert question.cells == ((2, 0),) and "there is none in Base" in question.text


def test_an_unsure_read_is_asked() -> None:
    position = table_position(seen(*LINE, (2, 0, B, Bug.SPIDER, 0.3)), "Base", min_confidence=0.6)
    [question] = [q for q in position.questions if q.kind == "unsure"]
    assert question.cells == ((2, 0),) and "Black Spider" in question.text


def test_the_side_to_move_is_asked_with_a_guess() -> None:
    even = table_position(seen(*LINE), "Base").questions[0]
    assert (even.kind, even.choices, even.default) == ("to_move", ("w", "b"), "w")
    more_white = table_position(seen(*LINE, (-1, 0, W, Bug.ANT, 0.9)), "Base").questions[0]
    assert more_white.default == "b"


def test_a_game_from_the_table_with_black_to_move_round_trips_through_pgn() -> None:
    position = table_position(seen(*LINE, (-1, 0, W, Bug.ANT, 0.9)), "Base")
    setup = position.answered("b")
    referee = Referee.from_position("Base", None, setup.stacks, "b")
    record: GameRecord = referee.record
    record.append("bA1 bQ-", timestamp=7)
    text = format_pgn(record)
    assert '[Position "b -1,0:wA1 0,0:wQ 1,0:bQ"]' in text and "1. bA1 bQ-\n{[%emt 0:00:07]}" in text
    again = parse_pgn(text)
    assert again.setup == setup and again.first_to_move is B and again.board().turn is W


def test_a_position_that_is_no_hive_is_refused() -> None:
    with pytest.raises(ValueError, match="not one hive"):
        table_position(seen(*LINE, (5, 5, B, Bug.ANT, 0.9)), "Base").answered("w")
