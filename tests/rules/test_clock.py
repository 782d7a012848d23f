"""Clocks from move times: thinking times, time left with an increment, flag fall, H:MM:SS."""

from __future__ import annotations

import pytest

from rules import Colour
from rules.clock import TimeControl, clock_state, format_clock, parse_clock, thinking_times
from rules.record import GameRecord

W, B = Colour.WHITE, Colour.BLACK
OPENING = ["wS1", "bG1 -wS1", "wQ wS1-", "bQ -bG1"]


def timed(*times: float | None, control: str = "") -> GameRecord:
    record = GameRecord("Base", TimeControl=control)
    for move, at in zip(OPENING, times):
        record.append(move, timestamp=at)
    return record


def test_time_control_text() -> None:
    assert TimeControl.parse("15+10") == TimeControl(900, 10)
    assert TimeControl.parse(" 5+0 ") == TimeControl(300, 0)
    assert TimeControl.parse("") is None
    assert str(TimeControl(900, 10)) == "15+10" and str(TimeControl(90, 2)) == "1.5+2"
    assert TimeControl.parse("1.5+2") == TimeControl(90, 2)


@pytest.mark.parametrize("text", ["15", "15+", "+10", "15:10", "a+b", "0+5", "15+10+2"])
def test_time_control_rejects_other_text(text: str) -> None:
    with pytest.raises(ValueError, match="time control|more than 0"):
        TimeControl.parse(text)


def test_the_time_control_tag_is_checked_when_set() -> None:
    with pytest.raises(ValueError, match="MINUTES\\+SECONDS"):
        GameRecord("Base", TimeControl="fast")
    assert GameRecord("Base", TimeControl="3+2").time_control == TimeControl(180, 2)


def test_thinking_time_is_the_gap_since_the_previous_move() -> None:
    # moves end at 12 s, 20 s, 50.5 s and 51 s of game clock: 12, 8, 30.5 and 0.5 s of thought
    assert thinking_times(timed(12, 20, 50.5, 51)) == [12, 8, 30.5, 0.5]


def test_a_move_without_a_time_took_none() -> None:
    assert thinking_times(timed(12, None, 30)) == [12, 0, 18]


def test_used_time_and_the_running_clock() -> None:
    state = clock_state(timed(12, 20, 50.5), now=60, control=None)
    # White thought 12 + 30.5, Black 8 and is thinking since 50.5 (9.5 s at now = 60)
    assert state.used == {W: 42.5, B: 17.5}
    assert state.running is B and state.left is None and state.flagged is None


def test_time_left_with_an_increment() -> None:
    state = clock_state(timed(12, 20, 50.5, control="1+5"), now=60, control=TimeControl(60, 5))
    # White: 60 - 42.5 + 2 moves x 5 = 27.5; Black: 60 - 17.5 + 1 x 5 = 47.5
    assert state.left == {W: 27.5, B: 47.5}


def test_a_player_who_runs_out_while_thinking_has_flagged() -> None:
    control = TimeControl(60, 0)
    record = timed(12, 20, 50.5)
    assert clock_state(record, 100, control).flagged is None  # Black: 8 + 49.5 s used of 60
    late = clock_state(record, 107, control)  # Black: 8 + 56.5 s
    assert late.flagged is B and late.left is not None and late.left[B] == pytest.approx(-4.5)


def test_the_increment_comes_after_the_move() -> None:
    # White's first move took 70 s of a 1+30 control: the flag fell before the increment came
    assert clock_state(timed(70), 70, TimeControl(60, 30)).flagged is W
    # White's second move: 50 + 30 s used of 60 + 30 (the first increment counts)
    assert clock_state(timed(50, 55, 85), 85, TimeControl(60, 30)).flagged is None


def test_clocks_stop_when_the_game_is_over() -> None:
    record = timed(12, 20)
    record.resign(W)
    state = clock_state(record, 500, TimeControl(60, 0))
    assert state.running is None and state.used == {W: 12, B: 8} and state.flagged is None


@pytest.mark.parametrize("seconds, text", [(0, "0:00:00"), (59.99, "0:00:59"), (61, "0:01:01"),
                                           (3600, "1:00:00"), (36_061, "10:01:01"), (-4.5, "-0:00:04")])
def test_format_clock(seconds: float, text: str) -> None:
    assert format_clock(seconds) == text
    assert parse_clock(text) == int(seconds)


@pytest.mark.parametrize("text", ["1:2:3", "0:60:00", "12", "", "1:00:00.5"])
def test_parse_clock_rejects_other_text(text: str) -> None:
    with pytest.raises(ValueError, match="is not a time"):
        parse_clock(text)
