"""GameRecord: building a game move by move, overrides, annotations and declared results."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from rules import PASS, Board, Colour, GameState, Move, Piece, RuleOptions
from rules.move import IllegalMoveError, NotationError, Outcome, Termination
from rules.record import GameRecord, Mark

OPENING = "Base;InProgress;White[4];wS1;bG1 -wS1;wQ wS1-;bQ -bG1;wA1 wQ\\;bA1 /bQ"
# Boardspace game HV-guest-WeakBot-2020-08-01-1306: White had to pass here.
WHITE_STUCK = ("Base;InProgress;White[18];wS1;bB1 /wS1;wQ wS1-;bG1 bB1\\;wA1 \\wS1;bQ bG1-;"
               "wA1 bQ\\;bG2 -bB1;wG1 wQ/;bS1 \\bG2;wG1 \\bQ;bG1 wQ/;wB1 /wA1;bS2 bG1/;wB2 wA1-;"
               "bS2 \\wS1;wA2 wB2/;bB2 bG2\\;wA2 bQ/;bG3 bB2\\;wB1 -wA1;bG3 wB2-;wA3 wA2-;bA1 /bB2;"
               "wG2 wA3/;bA1 wG2/;wB1 -bQ;bB1 wG1;wG3 wA3-;bA2 -bG2;wG3 -bB1;bB2 wB1;wS2 wA1\\;bA2 /wS2")


def moves_of(game_string: str) -> list[str]:
    return game_string.split(";")[3:]


def test_moves_are_checked_and_kept_with_their_uhp() -> None:
    record = GameRecord("Base", White="Ann", Black="Bob")
    for text in moves_of(OPENING):
        record.append(text)
    assert record.to_game_string() == OPENING
    assert [m.uhp for m in record.moves] == moves_of(OPENING)
    assert record.moves[1].move == Move(Piece.parse("bG1"), (-1, 0))
    assert record.result is GameState.IN_PROGRESS and record.declared is None
    assert record.board().game_string() == OPENING
    assert (record.tags["White"], record.tags["Black"], record.tags["Event"]) == ("Ann", "Bob", "")


def test_move_objects_are_written_in_canonical_uhp() -> None:
    record = GameRecord("Base")
    record.append(Move(Piece.parse("wS1"), (0, 0)))
    entry = record.append(Move(Piece.parse("bG1"), (1, -1)))
    assert entry.uhp == "bG1 wS1/"


def test_illegal_move_is_refused_and_nothing_is_lost() -> None:
    record = GameRecord("Base")
    record.append("wS1")
    with pytest.raises(IllegalMoveError):
        record.append("bQ -wS1")  # tournament rule: no Queen on the first turn
    with pytest.raises(NotationError, match="not on the board"):
        record.append("bG1 -wA1")
    assert [m.uhp for m in record.moves] == ["wS1"]
    record.append("bG1 -wS1")
    assert len(record.moves) == 2


def test_override_records_a_move_the_engine_rejects_and_replays_it() -> None:
    record = GameRecord("Base")
    record.append("wS1")
    entry = record.append("bQ -wS1", mark="override", comment="arbiter allowed the old rule")
    assert entry.mark is Mark.OVERRIDE and entry.comment == "arbiter allowed the old rule"
    assert record.board().position_of(Piece.parse("bQ")) == (-1, 0)
    record.append("wQ wS1-")  # later moves are checked against the overridden position
    positions = list(record.boards())
    assert len(positions) == 4
    assert positions[2].position_of(Piece.parse("bQ")) == (-1, 0)
    assert positions[3].turn is Colour.BLACK


def test_override_still_needs_a_move_the_board_can_hold() -> None:
    record = GameRecord("Base")
    for text in ["wS1", "bS1 wS1-", "wB1 -wS1", "bQ bS1-", "wQ \\wS1", "bA1 bQ-", "wB1 wS1"]:
        record.append(text)
    with pytest.raises(ValueError, match="covered"):
        record.append(Move(Piece.parse("wS1"), (5, 5)), mark="override")
    with pytest.raises(ValueError, match="no Mosquito"):
        record.append(Move(Piece.parse("wM"), (2, 0)), mark=Mark.OVERRIDE)
    with pytest.raises(ValueError, match="'cheat' is not a valid Mark"):
        record.append("wA1 wQ/", mark="cheat")
    assert len(record.moves) == 7


def test_corrections_and_timestamps_are_kept() -> None:
    record = GameRecord("Base")
    record.append("wS1", timestamp=0)
    record.append("bG1 -wS1", timestamp=12.5, mark="correction", comment="camera read bS1")
    when = datetime(2026, 11, 22, 17, 44, 32, tzinfo=timezone.utc)
    record.append("wQ wS1-", timestamp=when)
    record.append("bQ -bG1", timestamp="2026-11-22T17:45:00+00:00")
    assert [m.timestamp for m in record.moves] == [0, 12.5, "2026-11-22T17:44:32+00:00",
                                                   "2026-11-22T17:45:00+00:00"]
    assert record.moves[1].mark is Mark.CORRECTION


@pytest.mark.parametrize("timestamp, fragment", [
    (-1, "0 or more"), (float("nan"), "0 or more"), ("yesterday", "ISO 8601"), (True, "neither"),
])
def test_bad_timestamps_are_refused(timestamp: object, fragment: str) -> None:
    record = GameRecord("Base")
    with pytest.raises(ValueError, match=fragment):
        record.append("wS1", timestamp=timestamp)  # type: ignore[arg-type]
    assert record.moves == []


def test_comments_may_not_hold_braces() -> None:
    record = GameRecord("Base")
    with pytest.raises(ValueError, match="may not contain '}'"):
        record.append("wS1", comment="a } b")
    with pytest.raises(ValueError, match="may not contain '{'"):
        record.comment = "{"


def test_forced_pass_is_accepted_and_a_free_pass_refused() -> None:
    board = Board.from_game_string(WHITE_STUCK)
    record = GameRecord.from_board(board)
    record.append("pass")
    assert record.moves[-1].move == PASS and record.moves[-1].uhp == "pass"
    earlier = GameRecord.from_board(Board.from_game_string(OPENING))
    with pytest.raises(IllegalMoveError):
        earlier.append(PASS)


def test_resignation_ends_the_record() -> None:
    record = GameRecord("Base")
    record.append("wS1")
    record.resign(Colour.WHITE)
    assert record.result is GameState.BLACK_WINS and record.declared.termination is Termination.RESIGNATION
    assert record.board().state is GameState.IN_PROGRESS  # the board itself shows no win
    with pytest.raises(ValueError, match="BlackWins by resignation"):
        record.append("bG1 -wS1")
    with pytest.raises(ValueError, match="withdraw_result"):
        record.pop()
    record.withdraw_result()
    assert record.pop().uhp == "wS1" and record.moves == []


def test_declared_results_must_make_sense() -> None:
    record = GameRecord("Base")
    with pytest.raises(ValueError, match="agreement is a draw"):
        record.declare(Outcome.from_state(GameState.WHITE_WINS, Termination.AGREEMENT))
    with pytest.raises(ValueError, match="resignation has a winner"):
        record.declare(Outcome.from_state(GameState.DRAW, Termination.RESIGNATION))
    with pytest.raises(ValueError, match="not a result"):
        record.declare(Outcome.from_state(GameState.IN_PROGRESS, Termination.TIME))
    with pytest.raises(ValueError, match="shown by the board"):
        record.declare(Outcome(Termination.QUEEN_SURROUNDED, Colour.WHITE))
    record.agree_draw()
    assert record.declared == Outcome(Termination.AGREEMENT, None)


def test_a_win_on_the_board_cannot_be_overruled_by_a_declaration() -> None:
    # Placed by arbiter's override wherever wanted: White ends up surrounding its own Queen.
    record = GameRecord("Base")
    for text in ["wQ", "bQ wQ-", "wG1 -wQ", "bG1 wQ\\", "wS1 /wQ", "bS1 \\wQ", "wS2 wQ/"]:
        record.append(text, mark="override")
    assert record.result is GameState.BLACK_WINS and record.declared is None
    with pytest.raises(ValueError, match="already over on the board"):
        record.resign(Colour.BLACK)
    with pytest.raises(IllegalMoveError):
        record.append("bA1 bQ-")


def test_tags_are_single_lines_and_results_are_not_tags() -> None:
    record = GameRecord("Base", Round="3", Annotator="hivecam")
    assert record.tags["Round"] == "3" and record.tags["Annotator"] == "hivecam"
    with pytest.raises(ValueError, match="comes from the record itself"):
        record.set_tag("Result", "1-0")
    with pytest.raises(ValueError, match="one line"):
        record.set_tag("White", "Ann\nBob")
    with pytest.raises(ValueError, match="single word"):
        record.set_tag("Time Control", "10+5")


def test_from_board_keeps_game_type_and_options() -> None:
    options = RuleOptions(queen_may_open=True)
    board = Board("Base+M", options)
    board.push_uhp("wQ")
    board.push_uhp("bM -wQ")
    record = GameRecord.from_board(board, White="Ann")
    assert str(record.game_type) == "Base+M" and record.options == options
    assert record.to_game_string() == board.game_string()
    assert record.tags["White"] == "Ann"
