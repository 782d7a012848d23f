"""Every reader fails only with its notation's own error type, on any text, and the
command line answers bad arguments with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Board, NotationError, PgnError, SgfError, parse_pgn, read_sgf
from tests.rules.test_sgf import GAME

ROOT = Path(__file__).resolve().parents[2]
PGN = ('[GameType "Base+MLP"]\n[White "Ann"]\n[Result "InProgress"]\n\n1. wS1\n{[%time 2] ok}\n'
       "2. bG1 -wS1\n3. wQ wS1-\n")
GAME_STRING = "Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ wS1-;bQ -bG1"


def _mutations(base: str) -> st.SearchStrategy[str]:
    """``base`` with a slice replaced by text made of its own characters and some others."""
    alphabet = st.sampled_from(sorted(set(base)) + ["\x00", "é", "٣", "9" * 30, "\n", "{", "}", "[", "]"])
    return st.tuples(st.integers(0, len(base)), st.integers(0, 12), st.lists(alphabet, max_size=12)).map(
        lambda cut: base[:cut[0]] + "".join(cut[2]) + base[cut[0] + cut[1]:])


def _only(error: type[Exception], read, text: str) -> None:
    try:
        read(text)
    except Exception as exc:  # anything but the notation's own error is a bug
        assert type(exc) is error, f"{type(exc).__name__}: {exc}"
        assert "\n" not in str(exc)


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.one_of(st.text(max_size=80), _mutations(PGN)))
def test_pgn_fails_only_with_pgn_error(text: str) -> None:
    _only(PgnError, parse_pgn, text)


@FUZZ
@given(st.one_of(st.text(max_size=80), _mutations(GAME)))
def test_sgf_fails_only_with_sgf_error(text: str) -> None:
    _only(SgfError, read_sgf, text)


@FUZZ
@given(st.one_of(st.text(max_size=80), _mutations(GAME_STRING)))
def test_game_strings_fail_only_with_notation_error(text: str) -> None:
    _only(NotationError, Board.from_game_string, text)


@FUZZ
@given(st.one_of(st.text(max_size=20), _mutations("bA1 wQ-")))
def test_move_strings_fail_only_with_notation_error(text: str) -> None:
    _only(NotationError, Board.from_game_string(GAME_STRING).parse_uhp, text)


@pytest.mark.parametrize("read, error, text, fragment", [
    (parse_pgn, PgnError, '[GameType "Base"]\n\n' + "7" * 5000 + ". wS1\n", "too large"),
    (parse_pgn, PgnError, '[GameType "Base"]\n\n1. wS1\n2. ' + "x " * 5000 + "\n", "move 2"),
    (read_sgf, SgfError, GAME.replace("TM[", "TM[" + "1" * 5000, 1), "milliseconds"),
    (read_sgf, SgfError, GAME.replace("M 12 /wS1", "M ١٢ /wS1"), "not a board cell"),
])
def test_long_or_foreign_numbers_are_notation_errors(read, error, text: str, fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        read(text)


def test_many_comments_read_in_one_pass() -> None:
    record = parse_pgn('[GameType "Base"]\n\n1. wS1 ' + "{}" * 200_000 + " {last}\n")
    assert [m.uhp for m in record.moves] == ["wS1"] and record.moves[0].comment == "last"


@pytest.mark.parametrize("argv, fragment", [
    (["perft", "Chess", "2"], "not a game type"),
    (["perft", "Base", "-1"], "depth must be 0 or more"),
    (["perft", "Base;InProgress;White[2];wS1;bQ -wS1", "1"], "move 2"),
])
def test_cli_answers_bad_arguments_in_one_line(argv: list[str], fragment: str) -> None:
    done = subprocess.run([sys.executable, "-m", "webui.cli", *argv], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and fragment in done.stderr and "Traceback" not in done.stderr
