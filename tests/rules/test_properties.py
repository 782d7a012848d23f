"""Invariants that must hold after every move of random legal games, in every game type."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import ALL_GAME_TYPES, PASS, Board, Bug, Colour, GameType, Piece
from rules.geometry import is_connected

CLIMBERS = {Bug.BEETLE, Bug.MOSQUITO}


@st.composite
def random_game(draw: st.DrawFn, max_plies: int = 70) -> Board:
    """A board after a random number of random legal moves, in a random game type."""
    board = Board(draw(st.sampled_from(ALL_GAME_TYPES)))
    for _ in range(draw(st.integers(0, max_plies))):
        moves = board.legal_moves
        if not moves:
            break
        board.push(moves[draw(st.integers(0, len(moves) - 1))])
    return board


def snapshot(board: Board) -> tuple:
    return (board.stacks(), board.position_key(), board.last_moved, board.state,
            frozenset(board.legal_moves))


def check_position(board: Board) -> None:
    stacks = board.stacks()
    assert is_connected(stacks), f"hive split: {board.game_string()}"
    seen: Counter[Piece] = Counter()
    for cell, stack in stacks.items():
        assert stack, f"empty stack kept at {cell}"
        for level, piece in enumerate(stack):
            seen[piece] += 1
            assert board.in_play(piece.bug), f"{piece} is not in {board.game_type}"
            assert board.position_of(piece) == cell
            assert level == 0 or piece.bug in CLIMBERS, f"{piece} stacked at {cell}"
    assert all(n == 1 for n in seen.values()), "a piece is on the board twice"
    for colour in Colour:
        hand = set(board.hand(colour))
        on_board = {p for p in seen if p.colour is colour}
        assert not hand & on_board
        assert hand | on_board == {p for p in Piece.ALL if p.colour is colour and board.in_play(p.bug)}
        for bug in board.game_type.bugs:  # never more than a player owns (numbers are per piece)
            assert sum(p.bug is bug for p in on_board) <= bug.count
        if board.player_turn(colour) > 4 or (board.player_turn(colour) == 4 and colour is not board.turn):
            assert board.queen_placed(colour), f"{colour.title} passed turn 4 without the Queen"
    moves = board.legal_moves
    assert len(set(moves)) == len(moves), "a legal move listed twice"
    if PASS in moves:
        assert moves == [PASS], "pass offered beside other moves"
    assert bool(moves) != board.state.is_over


def check_round_trip(board: Board) -> None:
    again = Board.from_game_string(board.game_string(), board.options)
    assert again.game_type == board.game_type
    assert again.stacks() == board.stacks()
    assert again.position_key() == board.position_key()
    assert again.last_moved is board.last_moved and again.state is board.state


@pytest.mark.parametrize("game_type", ALL_GAME_TYPES, ids=str)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_invariants_hold_after_every_move(game_type: GameType, data: st.DataObject) -> None:
    board = Board(game_type)
    check_position(board)
    for _ in range(data.draw(st.integers(10, 90), label="plies")):
        moves = board.legal_moves
        if not moves:
            break
        move = moves[data.draw(st.integers(0, len(moves) - 1))]
        before = snapshot(board)
        board.push(move)
        board.pop()
        assert snapshot(board) == before, f"undo of {board.uhp(move)} changed the position"
        board.push(move)
        check_position(board)
        check_round_trip(board)
