"""Illegal attempts stay in the record once resolved: who tried what, and how it ended."""

from __future__ import annotations

import pytest
from table_sim import kinds

from rules import Colour
from rules.explain import Rule
from rules.pgn import format_pgn, parse_pgn

OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0)


def attempt_queen_step(t) -> None:
    """White's Queen jumps two cells, from (-1, 0) to (1, -1): not how a Queen moves."""
    t.hand()
    t.force("wQ", (1, -1))
    assert kinds(t.still()) == ["illegal"]


def test_an_attempt_taken_back_is_kept_with_its_rule_and_taker(table) -> None:
    t = table(*OPENING)
    attempt_queen_step(t)
    [pending] = t.referee.record.attempts
    assert (pending.ply, pending.uhp, pending.colour, pending.rule) == (4, "wQ \\bG1", Colour.WHITE,
                                                                          Rule.BUG_MOVEMENT.value)
    assert (pending.resolution, pending.by) == ("pending", None) and pending.timestamp is not None
    t.hand()
    t.take_back()
    assert kinds(t.still()) == ["takeback"]
    [kept] = t.referee.record.attempts
    assert (kept.resolution, kept.by) == ("taken back", "w")
    t.turn("wA1 -wQ")
    text = format_pgn(t.referee.record)
    assert "4. bQ bG1-\n{[%illegal wQ \\bG1] [%player w]" in text
    assert "; taken back by White}\n5. wA1 -wQ\n" in text
    assert parse_pgn(text).attempts[0].resolution == "taken back"


def test_an_overridden_attempt_is_marked_by_the_arbiter(table) -> None:
    t = table(*OPENING)
    attempt_queen_step(t)
    t.referee.override()
    [kept] = t.referee.record.attempts
    assert (kept.resolution, kept.by, kept.ply) == ("overridden", "arbiter", 4)
    assert t.referee.record.moves[4].uhp == kept.uhp


def test_a_corrected_attempt_is_marked_by_the_arbiter(table) -> None:
    t = table(*OPENING)
    attempt_queen_step(t)
    t.referee.correct("wQ /wG1")
    assert [(a.resolution, a.by) for a in t.referee.record.attempts] == [("corrected", "arbiter")]


def test_a_second_attempt_replaces_the_first(table) -> None:
    t = table(*OPENING)
    attempt_queen_step(t)
    t.hand()
    t.take_back()
    t.force("wQ", (1, 1))  # straight to another illegal cell
    assert kinds(t.still()) == ["illegal"]
    assert [(a.resolution, a.by) for a in t.referee.record.attempts] == [("taken back", "w"), ("pending", None)]


def test_undoing_the_move_before_an_attempt_forgets_it(table) -> None:
    t = table(*OPENING)
    attempt_queen_step(t)
    t.referee.undo()
    assert t.referee.record.attempts == [] and len(t.referee.record.moves) == 3


def test_the_move_list_interleaves_moves_clocks_and_attempts(table) -> None:
    t = table(*OPENING)
    t.referee.record.set_tag("TimeControl", "1+2")
    t.turn("wA1 -wQ")
    white_done = t.referee.record.moves[-1].timestamp
    attempt_queen_step_black(t)
    t.hand()
    t.take_back()
    t.still()
    t.turn("bA1 bQ-")
    black_done = t.referee.record.moves[-1].timestamp
    listed = t.referee.entries()
    assert [getattr(e, "uhp") for e in listed] == [*OPENING, "wA1 -wQ", "bQ \\bG1", "bA1 bQ-"]
    move, kept, reply = listed[-3:]
    assert kept.resolution == "taken back" and kept.by == "b" and kept.ply == 5
    assert move.emt == pytest.approx(white_done)  # the moves before it have no time: from t = 0
    assert reply.emt == pytest.approx(black_done - white_done)
    # Black's third move (the two untimed ones took no time): 60 s + 3 increments of 2 s - its thinking
    assert reply.clk == pytest.approx(60 + 3 * 2 - reply.emt)


def attempt_queen_step_black(t) -> None:
    """Black's Queen jumps from (2, 0) to (1, -1): not how a Queen moves."""
    t.hand()
    t.force("bQ", (1, -1))
    assert kinds(t.still()) == ["illegal"]


def test_replacing_the_last_move_resolves_a_pending_attempt_as_corrected(table) -> None:
    t = table(*OPENING)
    attempt_queen_step(t)
    t.referee.replace_last("bQ bG1/")
    assert [(a.resolution, a.by) for a in t.referee.record.attempts] == []  # it followed the replaced move
    assert t.referee.pending() is None
