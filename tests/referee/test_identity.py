"""A tile recorded as the wrong creature: the game retold, and the question that offers it."""

from __future__ import annotations

import re

import pytest
from table_sim import Table, kinds, of, record_of, uhps

from rules import Board, Bug, Colour, Piece
from rules.record import GameRecord, IllegalAttempt
from rules.referee import Referee, RefereeConfig
from rules.referee.identity import renamed, suspects
from rules.referee.scene import Read

# wS1(0,0) bS1(1,0) wQ(-1,0) bQ(2,0) wA1(-2,1) bG1(3,0); White to move. As a Grasshopper the
# tile at (-2,1) could only jump to \wS1; as an Ant it may go round to bG1- (4,0).
PLAYED = ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 /wQ", "bG1 bQ-")
RECORDED = tuple(text.replace("wA1", "wG1") for text in PLAYED)  # the Ant read as a Grasshopper


def board_of(*moves: str) -> Board:
    board = Board("Base+MLP")
    for text in moves:
        board.push_uhp(text)
    return board


def test_a_renamed_tile_renumbers_the_pieces_of_both_creatures_in_the_order_they_entered() -> None:
    board = board_of("wG1", "bG1 wG1-", "wG2 -wG1", "bA1 bG1-")
    renaming = renamed(board, Piece.parse("wG1"), Bug.ANT)
    assert renaming is not None and renaming.text == "wG1=wA1"
    assert [str(m.piece) for m in renaming.board.move_stack] == ["wA1", "bG1", "wG1", "bA1"]
    assert {cell: str(stack[-1]) for cell, stack in renaming.board.stacks().items()} == {
        (0, 0): "wA1", (1, 0): "bG1", (-1, 0): "wG1", (2, 0): "bA1"}


def test_no_renaming_where_a_move_would_become_illegal_or_no_piece_is_left_to_be() -> None:
    jumped = board_of(*RECORDED, "wG1 \\wS1")  # the Grasshopper's jump over wQ
    ant = renamed(jumped, Piece.parse("wG1"), Bug.ANT).board  # an Ant can get there
    assert ant.position_of(Piece.parse("wA1")) == jumped.position_of(Piece.parse("wG1"))
    for old, bug, why in [("wG1", Bug.BEETLE, "move 7 (wB1 \\wS1) is illegal"),  # a Beetle cannot get there
                          ("wG1", Bug.QUEEN, "every White Queen Bee is recorded as another tile"),
                          ("wA1", Bug.SPIDER, "no tile was recorded as wA1"),
                          ("wG1", Bug.GRASSHOPPER, "wG1 is a Grasshopper already")]:
        with pytest.raises(ValueError, match=re.escape(why)):
            renamed(jumped, Piece.parse(old), bug)


def test_suspects_pair_a_changed_tile_with_the_creatures_its_colour_is_read_as() -> None:
    board = board_of("wG1", "bG1 wG1-")
    reference = {(0, 0): (Colour.WHITE, Bug.GRASSHOPPER), (1, 0): (Colour.BLACK, Bug.GRASSHOPPER)}
    sure = {(0, 0): Read((Colour.WHITE, Bug.ANT), True), (1, 0): Read((Colour.BLACK, Bug.GRASSHOPPER), True)}
    assert suspects(board, sure, reference) == [(Piece.parse("wG1"), Bug.ANT)]
    unsure = {**sure, (0, 0): Read((Colour.WHITE, Bug.ANT), False)}
    assert {bug for _, bug in suspects(board, unsure, reference)} == set(Bug) - {Bug.GRASSHOPPER}
    crowded = {**sure, **{(q, 1): Read((Colour.WHITE, Bug.SPIDER), True) for q in range(5)}}
    assert suspects(board, crowded, reference) == []  # too much changed to look for a renaming


def misread_table(truth: tuple[str, ...], recorded: tuple[str, ...] | GameRecord) -> Table:
    """A table showing ``truth`` to a referee that recorded ``recorded`` (read as such till now)."""
    record = recorded if isinstance(recorded, GameRecord) else record_of("Base+MLP", *recorded)
    referee = Referee.resume(record, RefereeConfig(stable_seconds=0.3))
    table = Table(referee)
    assert kinds(table.still()) == []
    table.board = board_of(*truth)
    return table


def test_a_first_tile_read_as_another_creature_once_the_second_is_placed_is_a_question() -> None:
    t = misread_table(("wA1",), ("wG1",))  # the first tile was read surely as a Grasshopper
    t.play("bB1 wA1-")  # now it reads as the Ant it is: no move explains the view
    events = t.still()
    assert kinds(events) == ["needs_confirmation"]
    asked = of(events, "needs_confirmation")[0]
    assert asked.candidates == ("wG1=wA1; bB1 wA1-",) and "wG1 may be wA1" in asked.reason
    answered = t.referee.confirm("wG1=wA1; bB1 wA1-")
    assert [e.to_dict() for e in answered][:1] == [
        {"kind": "renamed", "time": answered[0].time, "old": "wG1", "new": "wA1", "ply": 1}]
    assert uhps(t.referee) == ["wA1", "bB1 wA1-"]
    assert t.referee.record.moves[0].comment == "recorded as wG1 at first"
    assert kinds(t.still()) == []  # the view now shows the record


def test_a_still_tile_of_a_large_hive_read_as_another_creature_is_the_cameras_mistake() -> None:
    t = misread_table(PLAYED, RECORDED)  # six tiles agree: the new read, not the record, is doubted
    assert kinds(t.still()) == []
    assert uhps(t.referee) == list(RECORDED)


def test_a_move_only_the_other_creature_could_make_offers_the_renaming_with_it() -> None:
    t = misread_table(RECORDED, RECORDED)
    t.board = board_of(*PLAYED)
    t.play("wA1 bG1-")  # an Ant's walk: no Grasshopper gets there
    events = t.still()
    assert of(events, "needs_confirmation")[0].candidates == ("wG1=wA1; wA1 bG1-",)
    assert [e.kind for e in t.referee.confirm("wG1=wA1; wA1 bG1-")] == ["renamed", "move"]
    assert uhps(t.referee) == [*PLAYED, "wA1 bG1-"]


def test_retelling_keeps_the_times_and_illegal_attempts_of_the_moves_after_the_tile() -> None:
    record = record_of("Base+MLP", *RECORDED[:5])
    attempt = IllegalAttempt(5, "bQ wS1/", Colour.BLACK, "one_hive", "made up for the test", 12.5, "taken back", "b")
    record.add_attempt(attempt)
    record.append(RECORDED[5], timestamp=14.0)
    t = misread_table(PLAYED, record)
    t.play("wA1 bG1-")
    t.still()
    t.referee.confirm("wG1=wA1; wA1 bG1-")
    assert [m.timestamp for m in t.referee.record.moves][5] == 14.0
    assert t.referee.record.attempts == [attempt]


def test_an_unreadable_renaming_is_not_offered_when_a_legal_move_explains_the_view(table) -> None:
    t = table(*PLAYED)
    t.play("wA1 bG1-")
    assert [e.uhp for e in of(t.still(), "move")] == ["wA1 bG1-"]
