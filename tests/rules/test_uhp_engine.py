"""``hivecam uhp`` and its search: a scripted protocol session, the command-line engine
over real pipes, and best-move checks (mate in one, legality, limits)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from rules import Board, Colour, GameState, Move, Piece, RuleOptions
from rules.search import best_move
from rules.uhp_engine import UhpEngine
from tests.rules.test_board import setup as position

ROOT = Path(__file__).resolve().parents[2]
P = Piece.parse


def reply(engine: UhpEngine, line: str) -> list[str]:
    lines = engine.handle(line)
    assert lines[-1] == "ok", lines
    return lines[:-1]


def test_greeting_and_info() -> None:
    engine = UhpEngine()
    assert engine.greeting() == ["id hivecam v0.1.0", "Mosquito;Ladybug;Pillbug", "ok"]
    assert reply(engine, "info") == ["id hivecam v0.1.0", "Mosquito;Ladybug;Pillbug"]


def test_scripted_session() -> None:
    engine = UhpEngine()
    assert reply(engine, "newgame") == ["Base;NotStarted;White[1]"]
    assert reply(engine, "newgame Base+MLP") == ["Base+MLP;NotStarted;White[1]"]
    assert reply(engine, "play wS1") == ["Base+MLP;InProgress;Black[1];wS1"]
    assert reply(engine, "play bG1 -wS1") == ["Base+MLP;InProgress;White[2];wS1;bG1 -wS1"]

    board = Board.from_game_string("Base+MLP;InProgress;White[2];wS1;bG1 -wS1")
    (listed,) = reply(engine, "validmoves")
    assert set(listed.split(";")) == {board.uhp(m) for m in board.legal_moves}
    assert len(listed.split(";")) == len(board.legal_moves)

    (rejected,) = reply(engine, "play wA1 bG1-")  # east of bG1 is wS1's own cell
    assert rejected.startswith("invalidmove ")
    (rejected,) = reply(engine, "play wA1 -bG1")  # touches only Black's piece
    assert rejected.startswith("invalidmove ") and "bG1" in rejected
    assert reply(engine, "play wQ wS1-") == ["Base+MLP;InProgress;Black[2];wS1;bG1 -wS1;wQ wS1-"]
    assert reply(engine, "undo") == ["Base+MLP;InProgress;White[2];wS1;bG1 -wS1"]
    assert reply(engine, "undo 2") == ["Base+MLP;NotStarted;White[1]"]
    assert reply(engine, "undo")[0].startswith("err ")


@pytest.mark.parametrize("line, answer, fragment", [
    ("fly away", "err", "unknown command"),
    ("play", "err", "needs a MoveString"),
    ("newgame Base+X", "err", "not a game type"),
    ("bestmove fast", "err", "usage"),
    ("bestmove time 5s", "err", "hh:mm:ss"),
    ("bestmove depth 0", "err", ">= 1"),
    ("undo two", "err", "usage"),
    ("options get Speed", "err", "unknown option"),
    ("options set QueenMayOpen maybe", "err", "True or False"),
    ("play wX9", "invalidmove", "not a Hive piece"),  # moves that cannot be read here
    ("play bG1 -bQ", "invalidmove", "not on the board"),
    ("play wA1 bG1-", "invalidmove", "occupied by wS1"),
])
def test_garbage_gets_err_or_invalidmove_then_ok(line: str, answer: str, fragment: str) -> None:
    engine = UhpEngine()
    reply(engine, "newgame Base+MLP;InProgress;White[2];wS1;bG1 -wS1")
    (error,) = reply(engine, line)
    assert error.startswith(answer + " ") and fragment in error


def test_commands_need_a_game() -> None:
    engine = UhpEngine()
    for line in ("play wS1", "validmoves", "bestmove depth 1", "undo"):
        (error,) = reply(engine, line)
        assert error.startswith("err ") and "newgame" in error


def test_newgame_from_a_game_string() -> None:
    engine = UhpEngine()
    game = "Base;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1"
    assert reply(engine, f"newgame {game}") == [game]



@pytest.mark.parametrize("stale, real", [
    ("Base;NotStarted;White[1];wS1", "Base;InProgress;Black[1];wS1"),
    ("Base;InProgress;White[9];wS1", "Base;InProgress;Black[1];wS1"),
    ("Base;Draw;Black[2];wS1;bS1 wS1-", "Base;InProgress;White[2];wS1;bS1 wS1-"),
    ("Base;InProgress;White[1]", "Base;NotStarted;White[1]"),
])
def test_a_stale_header_is_ignored_and_the_reply_states_the_real_game(stale: str, real: str) -> None:
    engine = UhpEngine()
    assert reply(engine, f"newgame {stale}") == [real]


@pytest.mark.parametrize("line, fragment", [
    ("newgame Base;InProgress;Blue[1];wS1", "not a turn"),
    ("newgame Base;Winning;White[1]", "Winning"),
    ("newgame Base;InProgress;White[1];wS1;bQ -wS1", "move 2"),
])
def test_a_malformed_game_string_is_still_refused(line: str, fragment: str) -> None:
    (error,) = reply(UhpEngine(), line)
    assert error.startswith("err ") and fragment in error


def test_a_ground_reference_to_an_occupied_cell_is_refused_not_taken_as_a_climb() -> None:
    engine = UhpEngine()
    reply(engine, "newgame Base;InProgress;White[4];wS1;bB1 wS1-;wQ -wS1;bQ bB1-;wB1 \\wS1;bS1 bQ-")
    (refused,) = reply(engine, "play wB1 -bB1")  # west of bB1 is wS1: a climb names wS1
    assert refused.startswith("invalidmove ") and "occupied by wS1" in refused and "'wB1 wS1'" in refused
    assert reply(engine, "play wB1 wS1")[0].endswith(";wB1 wS1")


def test_pass_is_refused_unless_forced_and_won_games_refuse_moves() -> None:
    engine = UhpEngine()
    reply(engine, "newgame Base")
    (refused,) = reply(engine, "pass")
    assert refused.startswith("invalidmove ") and "pass" in refused
    board = position({(0, 0): "bQ", (1, 0): "wS1", (0, 1): "wS2", (-1, 1): "wG1", (-1, 0): "wG2",
                      (0, -1): "bA1", (2, -1): "wQ", (3, -2): "wA1"}, game_type="Base")
    board.push(Move(P("wA1"), (1, -1)))
    assert board.state is GameState.WHITE_WINS
    engine.board = board
    for line in ("validmoves", "play bA1 wQ\\", "bestmove depth 1"):
        (error,) = reply(engine, line)
        assert error.startswith("err ") and "over" in error


def test_options_list_get_set() -> None:
    engine = UhpEngine()
    assert reply(engine, "options") == ["QueenMayOpen;bool;False;False", "RepetitionDraw;bool;False;False"]
    reply(engine, "newgame Base")
    assert reply(engine, "play wQ")[0].startswith("invalidmove ")
    assert reply(engine, "options set QueenMayOpen True") == ["QueenMayOpen;bool;True;False"]
    assert reply(engine, "options get queenmayopen") == ["QueenMayOpen;bool;True;False"]
    assert reply(engine, "play wQ") == ["Base;InProgress;Black[1];wQ"]
    (error,) = reply(engine, "options set QueenMayOpen False")  # the game on the board opened wQ
    assert error.startswith("err ") and "wQ" in error
    assert reply(engine, "options get QueenMayOpen") == ["QueenMayOpen;bool;True;False"]


def test_bestmove_replies_with_a_legal_move() -> None:
    engine = UhpEngine()
    reply(engine, "newgame Base;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1")
    board = Board.from_game_string("Base;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1")
    legal = {board.uhp(m) for m in board.legal_moves}
    for line in ("bestmove depth 1", "bestmove time 00:00:01"):
        start = time.monotonic()
        (move,) = reply(engine, line)
        assert move in legal
        assert time.monotonic() - start < 3
    assert engine.handle("exit") == [] and engine.finished


def test_engine_over_stdin_and_stdout() -> None:
    script = "newgame Base+MLP\nplay wS1\nplay bQ -wS1\nvalidmoves\nundo\nexit\n"
    done = subprocess.run([sys.executable, "-m", "webui.cli", "uhp"], input=script, cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["id hivecam v0.1.0", "Mosquito;Ladybug;Pillbug", "ok"]
    assert lines[3:7] == ["Base+MLP;NotStarted;White[1]", "ok", "Base+MLP;InProgress;Black[1];wS1", "ok"]
    assert lines[7].startswith("invalidmove ") and "first turn" in lines[7] and lines[8] == "ok"
    assert "bS1 -wS1" in lines[9].split(";") and lines[10] == "ok"
    assert lines[11:] == ["Base+MLP;NotStarted;White[1]", "ok"]


def test_undecodable_input_gets_err_and_the_engine_goes_on() -> None:
    script = b"newgame Base\nplay \xff\xfewS1\nplay wS1\nexit\n"
    done = subprocess.run([sys.executable, "-m", "webui.cli", "uhp"], input=script, cwd=ROOT,
                          capture_output=True, timeout=60, env={"PYTHONUTF8": "0", "LC_ALL": "C.UTF-8"})
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines[3:5] == ["Base;NotStarted;White[1]", "ok"]
    assert lines[5].startswith("err ") and "not UTF-8" in lines[5] and lines[6] == "ok"
    assert lines[7:] == ["Base;InProgress;Black[1];wS1", "ok"]


# --------------------------------------------------------------------- search
MATE_IN_ONE = {(0, 0): "bQ", (1, 0): "wS1", (0, 1): "wS2", (-1, 1): "wG1", (-1, 0): "wG2",
               (0, -1): "bA1", (2, -1): "wQ", (3, -2): "wA1", (-2, 0): "bG1"}


@pytest.mark.parametrize("limits", [{"depth": 1}, {"depth": 2}, {"seconds": 0.5}])
def test_search_finds_mate_in_one(limits: dict) -> None:
    board = position(MATE_IN_ONE, game_type="Base")
    result = best_move(board, **limits)
    board.push(result.move)
    assert board.state is GameState.WHITE_WINS


def test_search_blocks_a_mate_threat() -> None:
    # White threatens to fill (1,-1), bQ's last free side; Black must let bQ breathe first.
    board = position(MATE_IN_ONE | {(-3, 1): "bA2"}, to_move=Colour.BLACK, game_type="Base")
    result = best_move(board, depth=2)
    board.push(result.move)
    for move in board.legal_moves:
        board.push(move)
        assert board.state is not GameState.WHITE_WINS, f"{result.move} allows mate by {move}"
        board.pop()


def test_search_is_legal_quick_and_leaves_the_board_alone() -> None:
    board = Board.from_game_string("Base+MLP;InProgress;White[4];wS1;bP -wS1;wQ wS1/;bQ /bP;"
                                   "wA1 wQ-;bA1 -bQ")
    before = board.game_string()
    for limits in ({"depth": 1}, {"seconds": 0.0}, {"seconds": 0.3}):
        start = time.monotonic()
        result = best_move(board, **limits)
        assert time.monotonic() - start < 1.5
        assert result.move in board.legal_moves
        assert result.depth <= limits.get("depth", 99)
    assert board.game_string() == before


def test_search_rejects_impossible_requests() -> None:
    with pytest.raises(ValueError, match="depth"):
        best_move(Board("Base"), depth=0)
    with pytest.raises(ValueError, match="limit"):
        best_move(Board("Base"))
    board = position(MATE_IN_ONE, game_type="Base")
    board.push(best_move(board, depth=1).move)
    with pytest.raises(ValueError, match="over"):
        best_move(board, depth=1)


def test_repetition_option_reaches_the_board() -> None:
    engine = UhpEngine(RuleOptions(repetition_draw=True))
    reply(engine, "newgame Base")
    assert engine.board is not None and engine.board.options.repetition_draw
