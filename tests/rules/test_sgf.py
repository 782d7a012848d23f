"""boardspace SGF import: the whole archive corpus, and hand-made files for each dialect rule."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import Board, GameState, Piece
from rules.move import Termination
from rules.pgn import format_pgn, parse_pgn
from rules.sgf import SgfError, load_sgf, read_sgf
from tests.conftest import CORPUS

SGF_DIR = CORPUS / "boardspace-sgf"
SGF_FILES = sorted(SGF_DIR.glob("*.sgf")) if SGF_DIR.is_dir() else []
needs_corpus = pytest.mark.skipif(not SGF_FILES, reason=f"boardspace SGF corpus not found at {SGF_DIR}")

# A short game written by hand in boardspace's newer dialect (TM clocks, `move` and pick/drop).
GAME = """ (;
GM[27]VV[1]
CM[0,1]
SU[Hive]
DT[Sun Nov 22 10:00:00 UTC 2026]
GN[HV-ann-bob-2026-11-22-1000]
RE[Game won by bob]
P0[id "ann"]
P1[id "bob"]
; P0[0 Start P0]
; P0[1 pick W 1 wS1]TM[1000]
; P0[2 dropb wS1 N 13 .]TM[2000]
; P0[3 done]TM[2500]
; P1[4 move B bG1 M 12 /wS1]TM[1500]
; P1[5 done]TM[1500]
; P0[6 pick W 3 wB1]TM[3000]
; P0[7 dropb wB1 O 13 wS1-]TM[3500]
; P0[8 pickb O 13 wB1]TM[3600]
; P0[9 dropb wB1 N 14 \\\\wS1]TM[4000]
; P0[10 done]TM[4500]
; P1[11 move B bS1 L 11 /bG1]TM[2500]
; P1[12 done]TM[2500]
; P0[13 resign]TM[5000]
; P0[14 done]TM[5000]
;
P0[time 0:00:05 ]
P1[time 0:00:03 ]
)
"""


def test_hand_made_game_imports_with_names_date_clocks_and_result() -> None:
    record = read_sgf(GAME)
    assert str(record.game_type) == "Base"
    assert [m.uhp for m in record.moves] == ["wS1", "bG1 /wS1", "wB1 \\wS1", "bS1 /bG1"]
    # (col, row) -> axial (col, -row), shifted so the first piece is at the origin:
    # M 12 is one column left and one row down of N 13, i.e. south-west.
    assert [m.move.dest for m in record.moves] == [(0, 0), (-1, 1), (0, -1), (-2, 2)]
    assert (record.tags["White"], record.tags["Black"], record.tags["Date"]) == ("ann", "bob", "2026.11.22")
    assert (record.tags["WhiteTime"], record.tags["BlackTime"]) == ("0:00:05", "0:00:03")
    # Seconds since the start: the mover's used time plus the opponent's.
    assert [m.timestamp for m in record.moves] == [2.5, 4.0, 6.0, 7.0]
    assert record.result is GameState.BLACK_WINS and record.declared.termination is Termination.RESIGNATION


def test_bom_and_crlf_change_nothing() -> None:
    plain = read_sgf(GAME)
    dressed = read_sgf("\ufeff" + GAME.replace("\n", "\r\n"))
    assert [m.uhp for m in dressed.moves] == [m.uhp for m in plain.moves]
    assert dressed.tags == plain.tags and dressed.result is plain.result


def test_load_sgf_reads_files_with_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "game.sgf"
    path.write_bytes(b"\xef\xbb\xbf" + GAME.replace("\n", "\r\n").encode("utf-8"))
    assert [m.uhp for m in load_sgf(path).moves] == [m.uhp for m in read_sgf(GAME).moves]


def test_old_rules_queen_opening_is_detected() -> None:
    text = GAME.replace("pick W 1 wS1", "pick W 0 wQ").replace("dropb wS1 N 13 .", "dropb wQ N 13 .")
    text = text.replace("wS1", "wQ")
    record = read_sgf(text)
    assert record.options.queen_may_open and not record.options.repetition_draw
    assert record.moves[0].uhp == "wQ"
    assert not read_sgf(GAME).options.queen_may_open


@pytest.mark.parametrize("cut_before, ending, fragment", [
    ("; P1[11 move", "", "line 21: the file ends inside the game (truncated?): no closing ')'"),
    ("11 move B", "", "line 21: the value of P1 is never closed with ']' (truncated?)"),
    ("; P0[10 done]", ")", "line 19 (node 11): the last turn is never done (truncated?)"),
])
def test_truncated_files_are_rejected_with_the_line(cut_before: str, ending: str, fragment: str) -> None:
    with pytest.raises(SgfError, match=re.escape(fragment)):
        read_sgf(GAME[:GAME.index(cut_before)] + ending)


def test_corrupt_coordinate_names_the_line() -> None:
    with pytest.raises(SgfError, match=r"line 14 \(node 6\): M x is not a board cell"):
        read_sgf(GAME.replace("M 12 /wS1", "M x /wS1"))


def test_pick_from_the_wrong_cell_is_caught() -> None:
    with pytest.raises(SgfError, match=r"line 18 .*wB1 is not at P 13"):
        read_sgf(GAME.replace("pickb O 13 wB1", "pickb P 13 wB1"))


def test_move_the_engine_rejects_names_turn_move_and_reason() -> None:
    # bG1 dropped two columns away from wS1 does not touch the hive.
    with pytest.raises(SgfError, match=r"line 14 \(node 6\): move 2 \(Black: bG1 to K 12\) is rejected: ") as caught:
        read_sgf(GAME.replace("M 12 /wS1", "K 12 /wS1"))
    assert caught.value.__cause__ is not None  # the engine's IllegalMoveError, with its rule


def test_result_contradicting_the_moves_is_an_error() -> None:
    with pytest.raises(SgfError, match=r"RE\[Game won by ann\] does not match"):
        read_sgf(GAME.replace("RE[Game won by bob]", "RE[Game won by ann]"))


def test_unreadable_result_text_keeps_the_game_and_the_text() -> None:
    record = read_sgf(GAME.replace("RE[Game won by bob]", "RE[Something else]"))
    assert record.result is GameState.BLACK_WINS  # from the resignation
    assert record.tags["SgfResult"] == "Something else"


def test_a_result_the_board_cannot_show_is_kept_as_reported() -> None:
    text = GAME.replace("; P0[13 resign]TM[5000]\n; P0[14 done]TM[5000]\n", "")
    record = read_sgf(text.replace("RE[Game won by bob]", "RE[La partie est nulle]"))
    assert record.result is GameState.DRAW and record.declared.termination is Termination.REPORTED


def test_unsupported_variant_is_named() -> None:
    with pytest.raises(SgfError, match=r"unsupported variant SU\[Hive-Ultimate\]"):
        read_sgf(GAME.replace("SU[Hive]", "SU[Hive-Ultimate]"))


def test_the_player_who_starts_plays_white() -> None:
    swapped = re.sub(r"; P([01])\[", lambda m: f"; P{1 - int(m.group(1))}[", GAME)
    swapped = swapped.replace("Start P0", "Start P1").replace("won by bob", "won by ann")
    record = read_sgf(swapped)
    assert (record.tags["White"], record.tags["Black"]) == ("bob", "ann")
    assert [m.uhp for m in record.moves] == [m.uhp for m in read_sgf(GAME).moves]
    assert record.result is GameState.BLACK_WINS  # White (bob, P1) resigned


def test_other_games_are_refused() -> None:
    with pytest.raises(SgfError, match=r"GM\[1\] is not Hive"):
        read_sgf(GAME.replace("GM[27]", "GM[1]"))


def test_not_an_sgf_file() -> None:
    with pytest.raises(SgfError, match="starts with"):
        read_sgf("[GameType \"Base\"]\n1. wS1\n")


# ----------------------------------------------------------------- the corpus
@needs_corpus
@pytest.mark.parametrize("path", SGF_FILES, ids=[p.name for p in SGF_FILES])
def test_every_archived_game_imports_and_ends_as_re_says(path: Path) -> None:
    record = load_sgf(path)
    text = path.read_text(encoding="utf-8-sig")
    stated = re.search(r"RE\[([^\]]*)\]", text).group(1).lower()
    resign = re.search(r"P([01])\[\d+ resign\]", text)
    if "draw" in stated or "nulle" in stated:
        assert record.result is GameState.DRAW
        return
    assert record.result in (GameState.WHITE_WINS, GameState.BLACK_WINS)
    white_won = record.result is GameState.WHITE_WINS
    winner, loser = (record.tags["White"], record.tags["Black"])[::1 if white_won else -1]

    def named(player: str) -> bool:
        stem = re.sub(r"\d+$", "", player).lower()
        return stem in stated or (stem == "guest" and "invitado" in stated)

    assert named(winner) and not named(loser), (stated, winner, loser)
    if resign:
        assert record.declared.termination is Termination.RESIGNATION
        assert (resign.group(1) == "0") == (not white_won)  # P0 plays White in these files
    else:
        assert record.board().state is record.result  # decided on the board


_PLACED = re.compile(r"P[01]\[\d+ (?:(?:p?dropb) (\S+)|(?:p?move) [WB] (\S+)) [A-Z] \d+ ([^\s\]]+)\]|P[01]\[\d+ (done)\]")


@needs_corpus
def test_coordinates_agree_with_every_relative_hint() -> None:
    """Each turn's last drop repeats its destination Mzinga-style (`/wB1`): it must name our cell."""
    checked = 0
    for path in SGF_FILES:
        hints, last = [], None
        for found in _PLACED.finditer(path.read_text(encoding="utf-8-sig")):
            if found.group(4):
                hints += [last] if last else []
                last = None
            else:
                last = (found.group(1) or found.group(2), found.group(3).replace("\\\\", "\\"))
        record = load_sgf(path)
        board = Board(record.game_type, record.options)
        played = [m for m in record.moves if not m.move.is_pass]
        assert len(played) == len(hints), path.name
        turns = iter(hints)
        for entry in record.moves:
            if not entry.move.is_pass:
                name, hint = next(turns)
                assert entry.move.piece is Piece.parse(name)
                if hint != ".":
                    assert board.parse_uhp(f"{name} {hint}").dest == entry.move.dest, (path.name, entry)
                    checked += 1
            board.push(entry.move)
    assert checked > 5000


@needs_corpus
def test_several_pick_and_drops_in_one_turn_count_once() -> None:
    # White lifts the Queen, moves it, puts it back, then places wA2 (nodes 26-32).
    record = load_sgf(SGF_DIR / "HV-Michaelbg-WeakBot1-2020-03-29-0611.sgf")
    index = next(i for i, m in enumerate(record.moves) if m.move.piece is Piece.parse("wA2"))
    boards = list(record.boards())
    queen = Piece.parse("wQ")
    assert record.moves[index].move.is_placement
    assert boards[index].position_of(queen) == boards[index + 1].position_of(queen)


def _without(text: str, *nodes: str) -> str:
    """``text`` with the node lines starting with each of ``nodes`` removed."""
    lines = text.splitlines(keepends=True)
    kept = [line for line in lines if not any(line.startswith(node) for node in nodes)]
    assert len(lines) - len(kept) == len(nodes)
    return "".join(kept)


@needs_corpus
def test_unrecorded_forced_pass_is_inserted_only_when_forced() -> None:
    path = SGF_DIR / "HV-guest-WeakBot-2020-08-01-1306.sgf"
    text = path.read_text(encoding="utf-8-sig")
    recorded = load_sgf(path)
    silent = read_sgf(_without(text, "; P0[86 pass]", "; P0[87 done]"))
    assert [m.uhp for m in silent.moves] == [m.uhp for m in recorded.moves]
    assert "pass" in [m.uhp for m in silent.moves]
    with pytest.raises(SgfError, match=r"Black plays twice in a row, but White had legal moves"):
        read_sgf(_without(text, "; P0[90 ", "; P0[91 ", "; P0[92 "))


@needs_corpus
def test_archive_facts_hold() -> None:
    records = {p.name: load_sgf(p) for p in SGF_FILES}
    assert len(records) == 153
    resigned = [r for r in records.values() if r.declared and r.declared.termination is Termination.RESIGNATION]
    assert len(resigned) == 7  # SOURCES.md: 7 resign turns
    variants = {str(r.game_type) for r in records.values()}
    assert variants == {"Base", "Base+MLP", "Base+L", "Base+ML"}
    passes = sum(m.move.is_pass for r in records.values() for m in r.moves)
    assert passes >= 31  # every recorded pass, plus any unrecorded forced ones


@needs_corpus
@pytest.mark.parametrize("name", [
    "HV-guest-WeakBot-2020-08-01-1306.sgf",  # passes
    "HV-Michaelbg-WeakBot1-2020-03-29-0611.sgf",  # re-drops, resignation
    "HV-Dumbot-guest-2020-07-30-1554.sgf",  # clocks, localised result
    "HV-wayfarer-WeakBot-2020-08-03-1807.sgf",  # reported draw
])
def test_imported_games_survive_a_pgn_round_trip(name: str) -> None:
    record = load_sgf(SGF_DIR / name)
    text = format_pgn(record)
    again = parse_pgn(text)
    assert [(m.uhp, m.timestamp) for m in again.moves] == \
        [(m.uhp, None if m.timestamp is None else int(float(m.timestamp))) for m in record.moves]  # whole seconds
    assert again.tags == record.tags
    assert (again.result, again.declared) == (record.result, record.declared)
    assert format_pgn(again) == text
