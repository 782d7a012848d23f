"""Games picked up from the table: set-up positions, their PGN tags, and the GameString's lead-in
(a legal game reaching the position, found by search: checked here against real games)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules import Board, Bug, Colour, GameRecord, Piece
from rules.pgn import PgnError, format_pgn, parse_pgn
from rules.reach import Unreachable, moves_to_reach
from rules.setup import Setup
from rules.sgf import load_sgf
from tests.rules.test_sgf import SGF_FILES, needs_corpus

# wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0): the position after wG1; bG1 wG1-; wQ -wG1; bQ bG1-
OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")


def position_after(*moves: str, game_type: str = "Base+MLP") -> tuple[Setup, Board]:
    board = Board(game_type)
    for move in moves:
        board.push_uhp(move)
    return Setup({c: tuple(s) for c, s in board.stacks().items()}, board.turn), board


def shape(stacks: dict) -> set:
    """Stacks up to a shift of the whole hive (names bottom first)."""
    q0, r0 = min(stacks)
    return {((q - q0, r - r0), tuple(p.name for p in s)) for (q, r), s in stacks.items()}


def test_position_text_round_trips() -> None:
    setup, _ = position_after(*OPENING)
    assert str(setup) == "w -1,0:wQ 0,0:wG1 1,0:bG1 2,0:bQ"
    assert Setup.parse(str(setup)) == setup


@pytest.mark.parametrize("text, message", [
    ("", "must begin with the side to move"),
    ("x 0,0:wQ", "must begin with the side to move"),
    ("w 0,0", "is not a stack like"),
    ("w 0,0:wQ 0,0:bQ", "cell (0, 0) is given twice"),
    ("w 0,0:wQ 1,0:wQ", "wQ is on the table twice"),
    ("w 0,0:wQ 3,0:bQ", "not one hive"),
    ("w 0,0:wQ/bQ", "only a Beetle or a Mosquito can climb"),
    ("w 0,0:wA2 1,0:bQ", "wA2 is on the table but wA1 is not"),
    ("w 0,0:wX1", "is not a Hive piece name"),
    ("b", "on an empty table White moves first"),
])
def test_bad_positions_are_refused_with_a_reason(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Setup.parse(text)


def test_a_set_up_board_plays_on_by_the_rules() -> None:
    setup, played = position_after(*OPENING)
    board = Board.from_position(setup)
    assert board.turn is Colour.WHITE and board.turn_number == 3 and board.stacks() == played.stacks()
    assert sorted(board.uhp(m) for m in board.legal_moves) == \
        sorted(played.uhp(m) for m in played.legal_moves)
    board.push_uhp("wA1 -wQ")
    assert board.turn is Colour.BLACK and board.copy().stacks() == board.stacks()
    assert [b.ply for b in board.replay()] == [0, 1]


def test_the_queen_rules_hold_in_a_set_up_position() -> None:
    # White has three pieces down and no Queen: its fourth turn must place the Queen
    setup, _ = position_after("wG1", "bG1 wG1-", "wA1 -wG1", "bQ bG1-", "wS1 -wA1", "bA1 bQ-")
    board = Board.from_position(setup)
    assert {m.piece.bug for m in board.legal_moves} == {Bug.QUEEN}
    # Black to move after White's first piece: Black's first turn, which may not place the Queen
    first = Board.from_position(Setup.parse("b 0,0:wS1"), "Base")
    assert Bug.QUEEN not in {m.piece.bug for m in first.legal_moves}


def test_a_piece_not_in_the_game_type_is_refused() -> None:
    with pytest.raises(ValueError, match="there is no Mosquito in Base"):
        Board.from_position(Setup.parse("w 0,0:wM 1,0:bQ"), "Base")


def test_pgn_keeps_the_set_up_position_and_the_moves_after_it() -> None:
    setup, _ = position_after(*OPENING)
    record = GameRecord("Base+MLP", setup=setup, White="Ann")
    record.append("wA1 -wQ", timestamp=4)
    text = format_pgn(record)
    assert '[SetUp "1"]\n[Position "w -1,0:wQ 0,0:wG1 1,0:bG1 2,0:bQ"]\n' in text
    assert "\n1. wA1 -wQ\n{[%emt 0:00:04]}\n" in text
    again = parse_pgn(text)
    assert again.setup == setup and [m.uhp for m in again.moves] == ["wA1 -wQ"]
    assert again.board().stacks() == record.board().stacks()


def test_pgn_refuses_a_position_without_set_up() -> None:
    with pytest.raises(PgnError, match=r"line 2: \[Position\] without \[SetUp"):
        parse_pgn('[GameType "Base"]\n[Position "w 0,0:wQ"]\n')
    with pytest.raises(PgnError, match="line 2: the set-up position: .* is not a stack"):
        parse_pgn('[GameType "Base"]\n[Position "w 0:0"]\n[SetUp "1"]\n')


def test_the_game_string_of_a_set_up_game_reaches_the_position_then_plays_on() -> None:
    setup, played = position_after(*OPENING)
    record = GameRecord("Base+MLP", setup=setup)
    record.append("wA1 -wQ")
    text = record.to_game_string()
    replayed = Board.from_game_string(text)
    played.push_uhp("wA1 -wQ")
    assert shape(replayed.stacks()) == shape(played.stacks()) and replayed.turn is played.turn
    assert text.endswith(";wA1 -wQ")
    assert "first 4 moves are a legal game reaching it" in (record.game_string_note() or "")


def test_a_position_no_game_reaches_says_why() -> None:
    # White's Queen touches only Black: White could not have placed a fourth piece without it
    setup = Setup.parse("w 0,0:wG1 1,0:wA1 2,0:wS1 3,0:wG2 4,0:bQ")
    with pytest.raises(Unreachable, match="White has 4 pieces down but no Queen"):
        moves_to_reach(setup, "Base")
    record = GameRecord("Base", setup=setup)
    assert record.to_game_string() == "Base;NotStarted;White[1]"
    assert "no legal game reaching it was found" in (record.game_string_note() or "")


def corpus_positions(step: int, fractions: tuple[float, ...]) -> list[tuple[str, float, Board]]:
    positions = []
    for path in SGF_FILES[::step]:
        record = load_sgf(path)
        boards = list(record.board().replay())
        for fraction in fractions:
            positions.append((Path(path).name, fraction, boards[int((len(boards) - 1) * fraction)]))
    return positions


def rebuild_rate(step: int, fractions: tuple[float, ...]) -> float:
    """Positions of real games, their moves forgotten, rebuilt by the search and compared."""
    found = 0
    positions = corpus_positions(step, fractions)
    for name, fraction, board in positions:
        setup = Setup({c: tuple(s) for c, s in board.stacks().items()}, board.turn)
        try:
            moves = moves_to_reach(setup, board.game_type, board.options)
        except Unreachable as exc:
            assert str(exc), name
            continue
        rebuilt = Board(board.game_type, board.options)
        for move in moves:
            rebuilt.push_legal(move)
        assert shape(rebuilt.stacks()) == shape(board.stacks()), (name, fraction)
        assert rebuilt.turn is board.turn, (name, fraction)
        found += 1
    return found / len(positions)


@needs_corpus
def test_real_positions_are_rebuilt_by_a_legal_game() -> None:
    assert rebuild_rate(25, (0.25, 0.5)) >= 0.7


@needs_corpus
@pytest.mark.slow
def test_real_positions_of_every_corpus_game() -> None:
    assert rebuild_rate(1, (0.2, 0.5, 1.0)) >= 0.75


def test_pieces_are_numbered_in_order_in_the_rebuilt_game() -> None:
    setup, _ = position_after(*OPENING, "wA1 -wQ", "bA1 bQ-", "wA2 -wA1", "bA2 bA1-")
    moves = moves_to_reach(setup, "Base+MLP")
    ants = [m.piece for m in moves if m.piece is not None and m.piece.bug is Bug.ANT and m.origin is None]
    assert [a for a in ants if a.colour is Colour.WHITE] == [Piece.parse("wA1"), Piece.parse("wA2")]
