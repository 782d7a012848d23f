"""Hive PGN: the Mzinga / hivegame.com layout, annotations, tolerant reading, clear errors."""

from __future__ import annotations

import re

import pytest

from rules import Board, Colour, GameState, RuleOptions
from rules.move import Outcome, Termination
from rules.pgn import PgnError, format_pgn, parse_pgn
from rules.record import GameRecord, Mark

MOVES = ["wS1", "bG1 -wS1", "wQ wS1-", "bQ -bG1", "wA1 wQ\\", "bA1 /bQ"]

# What Mzinga itself writes (GameRecording.SavePGN): these tags in this order, one
# half-move-numbered move per line, commentary on its own line, the result at the end.
MZINGA_STYLE = """\
[GameType "Base"]
[Date "2026.11.22"]
[Event "Club night"]
[Site ""]
[Round ""]
[White "Ann"]
[Black "Bob"]
[Result "BlackWins"]
[SgfGameName "HV-Ann-Bob"]

1. wS1
2. bG1 -wS1
{a quiet start}
3. wQ wS1-
4. bQ -bG1
5. wA1 wQ\\
6. bA1 /bQ
7. wG1 wA1\\
8. bA1 wA1/
9. wG2 /wG1
10. bA2 -bQ
11. wG3 /wG2
12. bA2 \\bA1
13. wS2 wG3\\
14. bA3 bA2/
15. wB1 wS2\\
16. bA3 -bA2
17. wB2 -wA1

BlackWins
"""


def make_record() -> GameRecord:
    record = GameRecord("Base", Date="2026.11.22", White='Ann "the Ant"', Black="Bob\\B", Venue="Hive Cafe")
    record.comment = "Round one\nboard 2"
    for number, text in enumerate(MOVES):
        record.append(text, timestamp=2 + number * 10 if number < 4 else None)
    record.append("wG1 -bA1", mark="override", comment="arbiter: let it stand",
                  timestamp="2026-11-22T18:00:00+00:00")
    record.append("bS1 bA1\\", mark=Mark.CORRECTION, comment="camera saw bG2\nfixed by hand")
    record.resign(Colour.BLACK)
    return record


def test_export_follows_mzinga_layout() -> None:
    text = format_pgn(make_record())
    assert text.startswith(
        '[GameType "Base"]\n[Date "2026.11.22"]\n[Event ""]\n[Site ""]\n[Round ""]\n'
        '[White "Ann \\"the Ant\\""]\n[Black "Bob\\\\B"]\n[Result "WhiteWins"]\n'
        '[Termination "resignation"]\n[Venue "Hive Cafe"]\n\n{Round one\nboard 2}\n'
        "1. wS1\n{[%emt 0:00:02]}\n2. bG1 -wS1\n{[%emt 0:00:10]}\n3. wQ wS1-\n{[%emt 0:00:10]}\n"
        "4. bQ -bG1\n{[%emt 0:00:10]}\n5. wA1 wQ\\\n6. bA1 /bQ\n"
        "7. wG1 -bA1\n{[%time 2026-11-22T18:00:00+00:00] [%mark override] arbiter: let it stand}\n"
        "8. bS1 bA1\\\n{[%mark correction] camera saw bG2\nfixed by hand}\n")
    assert text.endswith("\n\nWhiteWins\n")


def mzinga_reads(text: str) -> tuple[dict[str, str], Board, str]:
    """Mzinga's PGN reading rules (GameRecording.LoadPGN): line by line, tags are `[...]`
    lines, `{...}` lines are commentary, a UHP game-state word is the result, and any other
    line is a move once leading digits and dots are trimmed."""
    tags, moves, result, in_comment = {}, [], "", False
    for line in (raw.strip() for raw in text.splitlines()):
        if in_comment:
            in_comment = not line.endswith("}")
        elif line.startswith("[") and line.endswith("]"):
            key, _, value = line[1:-1].partition(" ")
            tags[key] = value.replace('"', "").strip()
        elif line.startswith("{"):
            in_comment = not line.endswith("}")
        elif line in ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins"):
            result = line
        elif line:
            moves.append(line.lstrip(".0123456789").strip())
    board = Board(tags["GameType"])
    for move in moves:
        board.push_uhp(move)
    return tags, board, result or tags["Result"]


def test_mzinga_reading_rules_recover_every_move_and_the_result() -> None:
    record = make_record()
    record.withdraw_result()
    record.pop()
    record.pop()  # Mzinga's engine would refuse the overridden move
    record.resign(Colour.WHITE)
    tags, board, result = mzinga_reads(format_pgn(record))
    assert result == "BlackWins" and tags["Result"] == "BlackWins"
    assert record.to_game_string() == f"Base;{result};" + board.game_string().split(";", 2)[2]
    assert tags["White"] == 'Ann \\the Ant\\'  # Mzinga drops quotes; the game still loads


def test_reads_what_mzinga_writes() -> None:
    record = parse_pgn(MZINGA_STYLE)
    assert str(record.game_type) == "Base" and len(record.moves) == 17
    assert record.moves[1].comment == "a quiet start"
    assert record.tags["Event"] == "Club night" and record.tags["SgfGameName"] == "HV-Ann-Bob"
    assert record.result is GameState.BLACK_WINS and record.declared is None  # wQ is surrounded
    assert record.board().surrounded(Colour.WHITE)
    assert format_pgn(record) == MZINGA_STYLE


def test_reads_hivegame_com_exports() -> None:
    # hivegame.com writes `1. wS1 ` (a space for the empty reference) and no Event/Round.
    text = ('[GameType "Base"]\n[Date "22-Nov-2026_18:00:00"]\n[Site "hivegame.com"]\n'
            '[White "ann"]\n[Black "bob"]\n[Result "InProgress"]\n\n'
            + "".join(f"{n}. {m}{' ' if n == 1 else ''}\n" for n, m in enumerate(MOVES, 1)))
    record = parse_pgn(text)
    assert [m.uhp for m in record.moves] == MOVES
    assert record.tags["Site"] == "hivegame.com" and record.result is GameState.IN_PROGRESS


def test_round_trip_keeps_moves_annotations_tags_and_result() -> None:
    record = make_record()
    again = parse_pgn(format_pgn(record))
    assert again.moves == record.moves
    assert again.tags == record.tags and again.comment == record.comment
    assert again.declared == Outcome(Termination.RESIGNATION, Colour.WHITE)
    assert again.board().game_string() == record.board().game_string()


def test_braces_in_tag_values_are_text() -> None:
    record = GameRecord("Base", Event="Cup {final}")
    record.append("wS1")
    assert parse_pgn(format_pgn(record)).tags["Event"] == "Cup {final}"


def test_rule_options_travel_in_tags() -> None:
    record = GameRecord("Base+M", RuleOptions(queen_may_open=True, repetition_draw=True))
    record.append("wQ")
    text = format_pgn(record)
    assert '[QueenMayOpen "true"]\n[RepetitionDraw "true"]' in text
    assert parse_pgn(text).options == record.options
    with pytest.raises(PgnError, match=r"line 11: move 1 \('wQ'\) is illegal"):
        parse_pgn(text.replace('[QueenMayOpen "true"]\n', ""))
    assert parse_pgn(text, RuleOptions(queen_may_open=True)).options.repetition_draw is False


def test_bom_crlf_blank_lines_chess_results_and_one_line_movetext() -> None:
    text = ('\ufeff[GameType "Base"]\r\n\r\n[Result "0-1"]\r\n\r\n'
            "1. wS1 2. bG1 -wS1 {first comment}\r\n\r\n3.wQ wS1-\r\n4. bQ -bG1 0-1\r\n")
    record = parse_pgn(text)
    assert [m.uhp for m in record.moves] == MOVES[:4]
    assert record.moves[1].comment == "first comment"
    assert record.declared == Outcome(Termination.REPORTED, Colour.BLACK)


def test_unnumbered_moves_one_per_line() -> None:
    record = parse_pgn('[GameType "Base"]\n' + "\n".join(MOVES) + "\n*\n")
    assert [m.uhp for m in record.moves] == MOVES and record.result is GameState.IN_PROGRESS


@pytest.mark.parametrize("text, message", [
    ('[White "Ann"]\n1. wS1\n', 'line 1: no [GameType "...'),
    ('[GameType "Base+X"]\n', "line 1: 'Base+X' is not a game type"),
    ('[GameType "Base"]\n[White Ann]\n', "line 2: '[White Ann]' is not a tag"),
    ('[GameType "Base"]\n[White "A"]\n[White "B"]\n', "line 3: tag White appears twice (first on line 2)"),
    ('[GameType "Base"]\n\n1. wS1\n2. bX1 -wS1\n', "line 4: move 2 ('bX1 -wS1'): 'bX1' is not a Hive piece"),
    ('[GameType "Base"]\n1. wS1\n2. bQ -wS1\n', "line 3: move 2 ('bQ -wS1') is illegal: "),
    ('[GameType "Base"]\n1. wS1\n3. bG1 -wS1\n', "line 3: move 2 ('bG1 -wS1') is numbered 3"),
    ('[GameType "Base"]\n1. wS1\n2.\n', "line 3: move number 2 has no move after it"),
    ('[GameType "Base"]\n1. wS1 {never closed\n', "line 2: a comment opened with '{' is never closed"),
    ('[GameType "Base"]\n1. wS1\n[Round "2"]\n', "line 3: tag '[Round \"2\"]' after the moves"),
    ('[GameType "Base"]\n[Result "2-0"]\n1. wS1\n', "line 2: result '2-0' is not one of"),
    ('[GameType "Base"]\n[Result "1-0"]\n1. wS1\n0-1\n', "line 4: the result '0-1' contradicts [Result \"1-0\"]"),
    ('[GameType "Base"]\n1. wS1\nWhiteWins\n2. bG1 -wS1\n', "line 4: '2. bG1 -wS1' follows the result"),
    ('[GameType "Base"]\n[Termination "boredom"]\n[Result "1-0"]\n1. wS1\n',
     "line 2: 'boredom' is not a valid Termination"),
    ('[GameType "Base"]\n[Termination "agreement"]\n[Result "1-0"]\n1. wS1\n',
     "line 2: a game ended by agreement is a draw"),
    ('[GameType "Base"]\n[Termination "resignation"]\n1. wS1\n', "line 2: [Termination] given, but no finished"),
    ('[GameType "Base"]\n1. wS1\n{[%time soon]}\n', "line 2: move 1 ('wS1'): timestamp 'soon' is not an ISO"),
    ('[GameType "Base"]\n1. wS1\n{[%mark maybe]}\n', "line 2: move 1 ('wS1'): 'maybe' is not a valid Mark"),
])
def test_bad_input_names_the_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(PgnError, match=re.escape(message)):
        parse_pgn(text)


def test_stated_result_must_agree_with_a_finished_board() -> None:
    with pytest.raises(PgnError, match=r"line 8: the result WhiteWins contradicts the moves, which end in BlackWins"):
        parse_pgn(MZINGA_STYLE.replace("BlackWins", "WhiteWins"))
    with pytest.raises(PgnError, match=r"\[Termination\] given, but the game ended on the board"):
        parse_pgn(MZINGA_STYLE.replace("[SgfGameName", '[Termination "resignation"]\n[SgfGameName'))


def test_times_are_thinking_times_and_clocks_in_whole_seconds() -> None:
    record = GameRecord("Base", TimeControl="1+5")
    for text, at in zip(MOVES, [12.9, 20.2, 50.5, 61.0]):
        record.append(text, timestamp=at)
    text = format_pgn(record)
    # game clock 12.9, 20.2, 50.5, 61 -> whole seconds 12, 20, 50, 61: thinking 12, 8, 30, 11;
    # left after each move, exact: White 60 - 12.9 + 5 = 52.1, Black 60 - 7.3 + 5 = 57.7,
    # White 60 - 43.2 + 10 = 26.8, Black 60 - 17.8 + 10 = 52.2 (shown rounded down)
    assert "1. wS1\n{[%emt 0:00:12] [%clk 0:00:52]}\n2. bG1 -wS1\n{[%emt 0:00:08] [%clk 0:00:57]}\n" in text
    assert "3. wQ wS1-\n{[%emt 0:00:30] [%clk 0:00:26]}\n4. bQ -bG1\n{[%emt 0:00:11] [%clk 0:00:52]}\n" in text
    assert '[TimeControl "1+5"]' in text
    assert not re.search(r"%\w+ \d+\.\d", text)  # never a float
    again = parse_pgn(text)
    assert [m.timestamp for m in again.moves] == [12, 20, 50, 61]
    assert again.time_control == record.time_control


def test_old_files_with_time_in_seconds_are_still_read() -> None:
    record = parse_pgn('[GameType "Base"]\n\n1. wS1\n{[%time 2.3787792650000483]}\n2. bG1 -wS1\n{[%time 9.5]}\n')
    assert [m.timestamp for m in record.moves] == [2.3787792650000483, 9.5]
    assert "[%emt 0:00:02]" in format_pgn(record) and "%time" not in format_pgn(record)


def test_start_date_and_time_tags() -> None:
    from datetime import datetime
    record = GameRecord("Base", Event="Club night", Site="board 2", Round="3")
    record.set_start(datetime(2026, 11, 24, 18, 5, 9))
    text = format_pgn(record)
    assert text.startswith('[GameType "Base"]\n[Date "2026.11.24"]\n[Event "Club night"]\n[Site "board 2"]\n'
                           '[Round "3"]\n[White ""]\n[Black ""]\n[Result "NotStarted"]\n[Time "18:05:09"]\n')


def _with_attempts() -> GameRecord:
    from rules.record import IllegalAttempt
    record = GameRecord("Base")
    record.add_attempt(IllegalAttempt(0, "wQ", Colour.WHITE, "No Queen on the first turn",
                                      "The Queen may not be placed on the first turn.", 3.0, "taken back", "w"))
    record.append("wS1", timestamp=5)
    record.append("bG1 -wS1", timestamp=9)
    record.add_attempt(IllegalAttempt(2, "wS1 bG1\\", Colour.WHITE, "No moving before the Queen",
                                      "White's Queen is not on the board yet.", 14.7))
    record.resolve_attempt("overridden", "arbiter")
    record.append("wS1 bG1\\", timestamp=20, mark="override")
    record.add_attempt(IllegalAttempt(3, "bA1 wS1-", Colour.BLACK, "Placing restriction",
                                      "bA1 would touch White's wS1.", 25.0))
    return record


def test_illegal_attempts_are_comment_lines_after_the_move_they_followed() -> None:
    text = format_pgn(_with_attempts())
    assert ("\n{[%illegal wQ] [%player w] [%at 0:00:03] [%rule No Queen on the first turn] The Queen may not "
            "be placed on the first turn.; taken back by White}\n1. wS1\n") in text
    assert ("2. bG1 -wS1\n{[%emt 0:00:04]}\n{[%illegal wS1 bG1\\] [%player w] [%at 0:00:14] [%rule No moving "
            "before the Queen] White's Queen is not on the board yet.; overridden by the arbiter}\n3. wS1 bG1\\\n"
            ) in text
    assert text.endswith("{[%illegal bA1 wS1-] [%player b] [%at 0:00:25] [%rule Placing restriction] "
                         "bA1 would touch White's wS1.; pending}\n")


def test_illegal_attempts_read_back() -> None:
    record = _with_attempts()
    again = parse_pgn(format_pgn(record))
    assert [(a.ply, a.uhp, a.colour, a.rule, a.message, a.resolution, a.by) for a in again.attempts] == \
        [(a.ply, a.uhp, a.colour, a.rule, a.message, a.resolution, a.by) for a in record.attempts]
    assert [a.timestamp for a in again.attempts] == [3, 14, 25]
    assert [m.comment for m in again.moves] == ["", "", ""]


def test_an_attempt_comment_without_its_player_is_refused() -> None:
    with pytest.raises(PgnError, match=r"illegal attempt after move 1 \(line 2\): it needs \[%player"):
        parse_pgn('[GameType "Base"]\n1. wS1\n{[%illegal bQ] [%rule Turn order] out of turn; pending}\n')
