"""Every PGN and GameString hivecam writes loads back into hivecam, replays to the same
position and states the same result: over the whole boardspace corpus and over games with
overrides, resignations, agreed draws, forfeits, repetitions and passes."""

from __future__ import annotations

import pytest

from rules import Board, Colour, GameRecord, GameState, Outcome, RuleOptions, Termination
from rules.pgn import format_pgn, parse_pgn
from rules.sgf import load_sgf
from rules.uhp_engine import UhpEngine
from tests.rules.test_record import WHITE_STUCK
from tests.rules.test_sgf import SGF_DIR, SGF_FILES, needs_corpus


def _engine_loads(game_string: str, options: RuleOptions) -> str:
    """What ``hivecam uhp`` (with the game's rule options) answers to ``newgame`` with the string."""
    lines = UhpEngine(options).handle(f"newgame {game_string}")
    assert lines[-1] == "ok" and len(lines) == 2, lines
    return lines[0]


def _whole_seconds(timestamp: float | str | None) -> float | str | None:
    """PGN keeps move times to the second (a date-time as it is)."""
    return int(timestamp) if isinstance(timestamp, (int, float)) else timestamp


def assert_round_trips(record: GameRecord) -> None:
    """PGN and GameString exports reload to the same moves, position and result."""
    again = parse_pgn(format_pgn(record))
    assert [m.uhp for m in again.moves] == [m.uhp for m in record.moves]
    assert [(m.mark, m.timestamp, m.comment) for m in again.moves] == \
        [(m.mark, _whole_seconds(m.timestamp), m.comment) for m in record.moves]
    assert again.board().stacks() == record.board().stacks()
    assert (again.result, again.outcome) == (record.result, record.outcome)

    game_string = record.to_game_string()
    loaded = GameRecord.from_game_string(game_string, record.options)
    assert _engine_loads(game_string, record.options) == loaded.board().game_string()
    if record.game_string_note() is None:  # the whole game
        assert loaded.board().stacks() == record.board().stacks()
        assert loaded.board().turn is record.board().turn
        assert loaded.result is record.result
        assert loaded.to_game_string() == game_string
    else:  # cut before the first override: the moves before it, nothing after
        cut = next(i for i, m in enumerate(record.moves) if m.mark is not None and m.mark.value == "override")
        assert [m.uhp for m in loaded.moves] == [m.uhp for m in record.moves[:cut]]
        assert record.moves[cut].uhp in record.game_string_note()


@needs_corpus
def test_every_corpus_game_round_trips() -> None:
    for path in SGF_FILES:
        record = load_sgf(path)
        try:
            assert_round_trips(record)
        except AssertionError as exc:
            raise AssertionError(f"{path.name}: {exc}") from exc
    assert len(SGF_FILES) == 153 and SGF_DIR.is_dir()


def _opening(game_type: str = "Base") -> GameRecord:
    record = GameRecord(game_type, White="Ann", Black="Bob")
    for move in ("wS1", "bG1 -wS1", "wQ wS1-", "bQ -bG1"):
        record.append(move, timestamp=1.5)
    return record


def _resigned_before_any_move() -> GameRecord:
    record = GameRecord("Base")
    record.resign(Colour.BLACK)
    return record


def _agreed_draw() -> GameRecord:
    record = _opening()
    record.agree_draw()
    return record


def _override() -> GameRecord:
    record = _opening()
    record.append("wG1 /bG1", mark="override", comment="arbiter: let it stand")  # touches Black only
    record.append("bA1 -bQ")
    return record


def _override_then_resignation() -> GameRecord:
    record = _override()
    record.resign(Colour.WHITE)
    return record


def _forfeit() -> GameRecord:
    record = _opening()
    record.declare(Outcome(Termination.ILLEGAL_MOVES, Colour.WHITE))
    return record


def _repetition() -> GameRecord:
    record = GameRecord("Base", RuleOptions(repetition_draw=True))
    for move in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):
        record.append(move)
    for _ in range(2):
        for move in ("wQ \\wS1", "bQ bS1\\", "wQ -wS1", "bQ bS1-"):
            record.append(move)
    return record


def _passes() -> GameRecord:
    record = GameRecord.from_board(Board.from_game_string(WHITE_STUCK))
    record.append("pass")
    record.resign(Colour.BLACK)
    return record


@pytest.mark.parametrize("make", [_opening, _resigned_before_any_move, _agreed_draw, _override,
                                  _override_then_resignation, _forfeit, _repetition, _passes])
def test_special_games_round_trip(make) -> None:
    assert_round_trips(make())


def test_results_agree_between_formats() -> None:
    for make, state in ((_resigned_before_any_move, "WhiteWins"), (_agreed_draw, "Draw"),
                        (_forfeit, "WhiteWins"), (_repetition, "Draw")):
        record = make()
        assert record.to_game_string().split(";")[1] == state
        assert f'[Result "{state}"]' in format_pgn(record)


def test_an_override_cuts_the_game_string_and_says_so() -> None:
    record = _override_then_resignation()
    assert record.to_game_string() == "Base;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1"
    assert "move 5 (wG1 bQ\\)" in record.game_string_note()
    assert "[%mark override]" in format_pgn(record)
    assert _opening().game_string_note() is None


def test_a_stated_result_the_moves_do_not_show_is_kept_as_reported() -> None:
    record = GameRecord.from_game_string("Base;Draw;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1")
    assert record.declared == Outcome(Termination.REPORTED, None) and record.result is GameState.DRAW
