"""Illegal-move reasons: one hand-built position per rule, each expectation worked out from
the rulebook (which rule, which pieces and cells), plus a property test over random games."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import PASS, Board, Bug, Colour, Move, Piece, RuleOptions
from rules import geometry
from rules.explain import Rule, Ruling, explain_cell, why_illegal
from rules.move import IllegalMoveError
from rules.hexgrid import neighbours
from rules.rulebook import CREATURES, RULES, citation
from tests.conftest import corpus_rows
from tests.rules.test_board import setup as position
from tests.rules.test_properties import random_game

P = Piece.parse


def reason(board: Board, name: str, cell: tuple[int, int]):
    move = Move(P(name), cell)
    assert move not in board.legal_moves, f"{name} -> {cell} should be illegal"
    return why_illegal(board, move)


# ------------------------------------------------------------- game and turn
def test_game_over() -> None:
    ring = {(1, 0): "wS1", (0, 1): "wS2", (-1, 1): "wG1", (-1, 0): "wG2", (0, -1): "bA1"}
    board = position({(0, 0): "bQ", **ring, (2, -1): "wQ", (3, -2): "wA1"})
    board.push(Move(P("wA1"), (1, -1)))
    violation = why_illegal(board, Move(P("bQ"), (0, -2)))
    assert violation.rule is Rule.GAME_OVER and "WhiteWins" in violation.message


def test_pass_only_when_forced() -> None:
    violation = why_illegal(Board("Base"), PASS)
    assert violation.rule is Rule.PASS_NOT_ALLOWED and "White" in violation.message


def test_legal_move_is_not_explained_as_illegal() -> None:
    with pytest.raises(ValueError, match="legal"):
        why_illegal(Board("Base"), Move(P("wS1"), (0, 0)))


def test_not_your_turn_to_place() -> None:
    violation = reason(Board("Base"), "bS1", (0, 0))
    assert violation.rule is Rule.NOT_YOUR_TURN
    assert "White's turn" in violation.message and "bS1" in violation.message


def test_opponent_piece_needs_a_pillbug() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ", (2, 0): "bA1"})
    violation = reason(board, "bA1", (1, 1))
    assert violation.rule is Rule.NOT_YOUR_PIECE and "Pillbug" in violation.message


def test_bug_not_in_this_game_type() -> None:
    violation = reason(Board("Base"), "wM", (0, 0))
    assert violation.rule is Rule.NOT_IN_GAME and "Base" in violation.message


def test_pieces_of_a_kind_enter_in_number_order() -> None:
    violation = reason(Board("Base"), "wA2", (0, 0))
    assert violation.rule is Rule.WRONG_PIECE_NUMBER and "wA1" in violation.message


# ------------------------------------------------------------------ placement
def test_queen_not_on_first_turn_under_2024_rules() -> None:
    violation = reason(Board("Base"), "wQ", (0, 0))
    assert violation.rule is Rule.QUEEN_NOT_ON_FIRST_TURN
    assert Move(P("wQ"), (0, 0)) in Board("Base", RuleOptions(queen_may_open=True)).legal_moves


def opening_without_queens() -> Board:
    board = Board("Base")
    for text in ["wS1", "bS1 -wS1", "wA1 wS1-", "bA1 -bS1", "wG1 wA1-", "bG1 -bA1"]:
        board.push_uhp(text)
    return board


def test_queen_by_the_fourth_turn_blocks_other_placements_and_moves() -> None:
    board = opening_without_queens()
    place = reason(board, "wA2", (3, 0))
    assert place.rule is Rule.QUEEN_BY_FOURTH_TURN and "fourth turn" in place.message
    assert reason(board, "wG1", (3, -1)).rule is Rule.QUEEN_BY_FOURTH_TURN


def test_no_movement_before_the_queen() -> None:
    board = Board("Base")
    for text in ["wS1", "bS1 -wS1", "wA1 wS1-", "bA1 -bS1"]:
        board.push_uhp(text)
    violation = reason(board, "wA1", (1, 1))
    assert violation.rule is Rule.MOVE_BEFORE_QUEEN and "Queen Bee" in violation.message


def test_first_piece_goes_in_the_centre_and_the_second_touches_it() -> None:
    board = Board("Base")
    assert reason(board, "wS1", (3, 0)).rule is Rule.FIRST_PLACEMENT
    board.push_uhp("wS1")
    violation = reason(board, "bS1", (2, 0))
    assert violation.rule is Rule.FIRST_PLACEMENT and "Black's first piece" in violation.message


def test_new_pieces_go_on_empty_spaces_even_beetles() -> None:
    board = Board("Base")
    board.push_uhp("wS1")
    board.push_uhp("bS1 -wS1")
    violation = reason(board, "wB1", (0, 0))
    assert violation.rule is Rule.PLACE_ON_EMPTY and "wS1" in violation.message


def test_placement_may_not_touch_the_opponent() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ"})
    violation = reason(board, "wA1", (1, -1))  # touches wQ and bQ
    assert violation.rule is Rule.PLACE_TOUCHING_OPPONENT
    assert "bQ" in violation.message and violation.cells == ((1, 0),)


def test_placement_must_join_own_colour() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ"})
    violation = reason(board, "wA1", (4, -4))
    assert violation.rule is Rule.PLACE_NOT_TOUCHING_OWN and "touches no piece" in violation.message


# ---------------------------------------------------------- may it leave its cell
def test_covered_piece_is_pinned_by_the_beetle_on_it() -> None:
    board = position({(0, 0): "wQ bB1", (1, 0): "bQ", (-1, 0): "wA1"})
    violation = reason(board, "wQ", (0, 1))
    assert violation.rule is Rule.PIECE_COVERED and "bB1" in violation.message


def test_piece_thrown_by_a_pillbug_is_frozen() -> None:
    board = position({(0, 0): "bP", (-1, 0): "bQ", (-2, 0): "wQ", (1, 0): "wA1", (-3, 0): "bA1"},
                     to_move=Colour.BLACK)
    board.push(Move(P("wA1"), (0, 1)))  # Black's Pillbug throws wA1
    violation = reason(board, "wA1", (-2, 1))
    assert violation.rule is Rule.JUST_MOVED and "Pillbug" in violation.message


def test_pinned_piece_is_one_hive_not_movement() -> None:
    board = position({(0, 0): "wQ", (1, 0): "wS1", (2, 0): "bQ"})
    violation = reason(board, "wS1", (5, 5))  # nowhere near, but the pin is the real reason
    assert violation.rule is Rule.ONE_HIVE
    assert violation.message == ("wS1 cannot move: it is the only link between two parts of the "
                                 "hive (One Hive rule).")


def test_destination_that_leaves_the_piece_alone() -> None:
    board = position({(-1, 0): "wQ", (0, 0): "wA1", (1, 0): "bQ"})
    violation = reason(board, "wQ", (-2, 0))
    assert violation.rule is Rule.ONE_HIVE and "detached" in violation.message


def test_slide_that_loses_touch_with_the_hive() -> None:
    # wQ at (0,0) hangs off wA1; (1,0) touches bQ but the two cells beside the step are empty.
    board = position({(0, 0): "wQ", (0, -1): "wA1", (1, -2): "wA2", (2, -2): "bA1", (2, -1): "bQ"})
    violation = reason(board, "wQ", (1, 0))
    assert violation.rule is Rule.ONE_HIVE and "lose touch" in violation.message


# ------------------------------------------------------------ Freedom to Move
POCKET = {(1, -1): "bQ", (0, -1): "wA2", (-1, 0): "wA3", (-1, 1): "wB1", (0, 1): "bA1"}


def test_queen_cannot_squeeze_out_through_a_gate() -> None:
    board = position(POCKET | {(0, 0): "wQ"})
    violation = reason(board, "wQ", (1, 0))
    assert violation.rule is Rule.FREEDOM_TO_MOVE
    assert set(violation.cells) == {(1, -1), (0, 1)}
    assert "bQ" in violation.message and "bA1" in violation.message


def test_spider_that_could_reach_but_for_a_gate() -> None:
    board = position(POCKET | {(-2, 1): "wQ", (2, -2): "wS1"})
    # (2,-2) -> (2,-1) -> (1,0) -> (0,0) is three slides, but the last squeezes between bQ and bA1.
    violation = reason(board, "wS1", (0, 0))
    assert violation.rule is Rule.FREEDOM_TO_MOVE and set(violation.cells) == {(1, -1), (0, 1)}


def test_ant_names_the_gate_into_a_pocket() -> None:
    board = position(POCKET | {(-2, 1): "wQ", (3, -1): "wA1", (2, -1): "wG1"})
    violation = reason(board, "wA1", (0, 0))
    assert violation.rule is Rule.FREEDOM_TO_MOVE and set(violation.cells) == {(1, -1), (0, 1)}


RING = {(1, 0): "bQ", (0, 1): "wS1", (-1, 1): "wS2", (-1, 0): "bS1", (0, -1): "bS2",
        (1, -1): "bG1", (2, 0): "wQ"}


def test_ant_cannot_enter_a_surrounded_space() -> None:
    board = position(RING | {(3, 0): "wA1"})
    violation = reason(board, "wA1", (0, 0))
    assert violation.rule is Rule.FREEDOM_TO_MOVE and "surrounded" in violation.message


def test_beetle_gate_of_two_stacks() -> None:
    gate = {(0, 0): "wB1", (1, 0): "bA1", (1, -1): "bA2 bB1", (0, 1): "wA1 wB2",
            (2, 0): "wQ", (2, -1): "bQ"}
    violation = reason(position(gate), "wB1", (1, 0))
    assert violation.rule is Rule.FREEDOM_TO_MOVE and set(violation.cells) == {(1, -1), (0, 1)}
    assert "bB1" in violation.message and "wB2" in violation.message


# ------------------------------------------------------------ creature movement
def test_queen_moves_one_space_and_the_cell_is_named_like_a_movestring() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ"})
    violation = reason(board, "wQ", (2, -1))
    assert violation.rule is Rule.BUG_MOVEMENT and violation.bug is Bug.QUEEN
    assert "one space" in violation.message and "bQ/" in violation.message


def test_only_climbers_end_on_top_of_a_piece() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ"})
    violation = reason(board, "wQ", (1, 0))
    assert violation.rule is Rule.DESTINATION_OCCUPIED and "Beetle" in violation.message


def test_spider_moves_exactly_three() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wS1"})
    violation = reason(board, "wS1", (0, -1))
    assert violation.rule is Rule.BUG_MOVEMENT and "exactly three" in violation.message
    assert "1 space away" in violation.message


GRASSHOPPER_ROW = {(-1, 0): "wG1", (0, 0): "wQ", (1, 0): "bQ", (2, -1): "bA1", (3, -1): "bA2",
                   (3, 0): "bG1"}


@pytest.mark.parametrize("cell, words", [
    ((4, 0), "gap"),                 # over wQ, bQ, then an empty cell before bG1
    ((0, 1), "straight line"),
    ((-1, 1), "at least one piece"),
])
def test_grasshopper(cell: tuple[int, int], words: str) -> None:
    violation = reason(position(GRASSHOPPER_ROW), "wG1", cell)
    assert violation.rule is Rule.BUG_MOVEMENT and words in violation.message
    if words == "gap":
        assert violation.cells == ((2, 0),)


def test_ladybug_two_up_one_down() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wL"})
    violation = reason(board, "wL", (-1, 1))
    assert violation.rule is Rule.BUG_MOVEMENT and "two spaces on top" in violation.message
    landing = reason(board, "wL", (1, 0))
    assert landing.rule is Rule.DESTINATION_OCCUPIED and "ground" in landing.message


def test_ladybug_climbing_through_a_gate_of_stacks() -> None:
    # The only route to (3,0) starts by climbing onto bA1 between two stacks of height 2.
    gate = {(0, 0): "wL", (1, 0): "bA1", (1, -1): "bA2 bB1", (0, 1): "wA1 wB2",
            (2, 0): "wQ", (2, -1): "bQ"}
    violation = reason(position(gate), "wL", (3, 0))
    assert violation.rule is Rule.FREEDOM_TO_MOVE and set(violation.cells) == {(1, -1), (0, 1)}


def test_mosquito_touching_only_a_mosquito() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "bM", (-2, 0): "wM"})
    violation = reason(board, "wM", (-3, 1))
    assert violation.rule is Rule.BUG_MOVEMENT and "only Mosquitoes" in violation.message


def test_mosquito_on_top_moves_only_as_a_beetle() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bG1 wM", (2, 0): "bQ"})
    violation = reason(board, "wM", (3, 0))  # a Grasshopper's jump, but wM is up on the hive
    assert violation.rule is Rule.BUG_MOVEMENT and "only as a Beetle" in violation.message


def test_mosquito_copies_only_its_neighbours() -> None:
    board = position({(-1, 0): "wM", (0, 0): "wQ", (1, 0): "bQ"})
    violation = reason(board, "wM", (1, 1))  # an Ant could go there, but wM touches only wQ
    assert violation.rule is Rule.BUG_MOVEMENT and "(Queen Bee)" in violation.message


def test_pillbug_moves_itself_only_one_space() -> None:
    board = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wP"})
    violation = reason(board, "wP", (1, 1))
    assert violation.rule is Rule.BUG_MOVEMENT and violation.bug is Bug.PILLBUG


# ----------------------------------------------------------------- Pillbug
THROW = {(0, 0): "wP", (-1, 0): "wQ", (-2, 0): "bQ"}


def test_pillbug_puts_pieces_down_next_to_itself() -> None:
    board = position(THROW | {(1, 0): "bA1"})
    violation = reason(board, "bA1", (2, -1))
    assert violation.rule is Rule.PILLBUG_NOT_ADJACENT and "wP" in violation.message


def test_pillbug_may_not_move_the_piece_just_moved() -> None:
    board = position(THROW | {(1, 0): "bA1"}, last="bA1")
    violation = reason(board, "bA1", (0, 1))
    assert violation.rule is Rule.PILLBUG_JUST_MOVED


def test_pillbug_may_not_move_a_stacked_piece() -> None:
    board = position(THROW | {(1, 0): "bA1 bB1"})
    violation = reason(board, "bB1", (0, 1))
    assert violation.rule is Rule.PILLBUG_STACKED


def test_pillbug_may_not_split_the_hive() -> None:
    board = position({(0, 0): "wP", (-1, 0): "wQ", (1, 0): "bQ", (2, 0): "bA1"})
    violation = reason(board, "bQ", (0, 1))
    assert violation.rule is Rule.PILLBUG_SPLIT


def test_pillbug_may_not_lift_through_a_gate_of_stacks() -> None:
    board = position(THROW | {(1, 0): "bA1", (1, -1): "wA1 bB1", (0, 1): "wA2 bB2"})
    violation = reason(board, "bA1", (-1, 1))
    assert violation.rule is Rule.PILLBUG_GATE and set(violation.cells) == {(1, -1), (0, 1)}


def test_own_piece_beyond_its_reach_is_judged_as_a_throw() -> None:
    # wQ cannot walk two spaces, and wP, which could carry it there, was itself just moved.
    board = position({(0, 0): "wP", (1, 0): "wQ", (-1, 0): "bQ"}, last="wP")
    violation = reason(board, "wQ", (-1, 1))
    assert violation.rule is Rule.JUST_MOVED and "wP" in violation.message


# -------------------------------------------------------------- explain_cell
def test_explain_cell_for_legal_and_illegal_cells() -> None:
    board = position(THROW | {(1, 0): "bA1"})
    thrown = explain_cell(board, P("bA1"), (0, 1))
    assert isinstance(thrown, Ruling) and thrown.legal and thrown.violation is None
    assert "special ability" in thrown.message and thrown.move_string == board.uhp(Move(P("bA1"), (0, 1)))
    walk = explain_cell(board, P("wQ"), (-1, 1))
    assert walk.legal is False and walk.violation.rule is Rule.ONE_HIVE
    placed = explain_cell(board, P("wA1"), (0, -1))
    assert placed.legal and "placed" in placed.message


def test_explain_cell_says_which_creature_a_mosquito_copied() -> None:
    board = position({(-1, 0): "wM", (0, 0): "wQ", (1, 0): "bQ", (0, -1): "wG1"})
    jump = explain_cell(board, P("wM"), (1, -2))  # over wG1, as a Grasshopper would
    assert jump.legal and "moving as the Grasshopper it touches" in jump.message
    hop = explain_cell(board, P("wG1"), (0, 1))
    assert hop.legal and hop.message == "wG1 may move to wQ\\."


def test_explain_cell_rejects_a_malformed_cell() -> None:
    with pytest.raises(ValueError, match="axial"):
        explain_cell(Board("Base"), P("wS1"), (0, 0, 0))


def test_push_legal_raises_with_the_violation() -> None:
    board = Board("Base")
    with pytest.raises(IllegalMoveError) as caught:
        board.push_legal(Move(P("wQ"), (0, 0)))
    assert caught.value.violation.rule is Rule.QUEEN_NOT_ON_FIRST_TURN
    assert caught.value.move == Move(P("wQ"), (0, 0))


# -------------------------------------------------------------------- rulebook
def test_every_rule_and_creature_has_the_books_words() -> None:
    assert set(RULES) == set(Rule)
    assert set(CREATURES) == set(Bug)
    assert "three" in citation(Rule.BUG_MOVEMENT, Bug.SPIDER).summary
    assert "p. 9" in citation(Rule.ONE_HIVE).reference
    assert citation(Rule.ONE_HIVE, Bug.SPIDER) is RULES[Rule.ONE_HIVE]


# ------------------------------------------------------------------ property
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_illegal_pair_gets_a_named_rule(data: st.DataObject) -> None:
    board = data.draw(random_game())
    pieces = [p for p in Piece.ALL if board.in_play(p.bug)]
    occupied = list(board.occupied())
    cells = sorted(set(occupied) | {n for c in occupied for n in neighbours(c)} | {(0, 0), (6, -6)})
    legal = set(board.legal_moves)
    for _ in range(25):
        piece = data.draw(st.sampled_from(pieces))
        cell = data.draw(st.sampled_from(cells))
        ruling = explain_cell(board, piece, cell)
        if Move(piece, cell) in legal:
            assert ruling.legal and ruling.violation is None
        else:
            assert not ruling.legal and ruling.violation.rule is not Rule.UNEXPLAINED, (
                board.game_string(), piece, cell, ruling.message)


def test_every_illegal_movement_in_real_games_gets_a_named_rule(corpus) -> None:
    rows = corpus_rows(corpus / "valid-moves" / "Board_ValidMovesFromRealGamesTest.csv")
    explained = 0
    for game_string, _ in rows[::8]:
        board = Board.from_game_string(game_string)
        legal = set(board.legal_moves)
        occupied = list(board.occupied())
        cells = set(occupied) | {n for c in occupied for n in neighbours(c)}
        for piece in (p for c in occupied for p in board.stack(c)):
            for cell in cells - {m.dest for m in legal if m.piece is piece}:
                violation = why_illegal(board, Move(piece, cell))
                assert violation.rule is not Rule.UNEXPLAINED, (game_string, piece, cell)
                explained += 1
    assert explained > 5000


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_game(max_plies=50))
def test_explanations_and_move_generation_agree_on_every_cell(board: Board) -> None:
    legal = set(board.legal_moves)
    occupied = list(board.occupied())
    cells = set(occupied) | {n for c in occupied for n in neighbours(c)} | {(0, 0)}
    for piece in (p for p in Piece.ALL if board.in_play(p.bug)):
        for cell in cells:
            ruling = explain_cell(board, piece, cell)
            assert ruling.legal is (Move(piece, cell) in legal), (board.game_string(), piece, cell)
            assert ruling.legal or ruling.violation.rule is not Rule.UNEXPLAINED, (
                board.game_string(), piece, cell, ruling.message)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_game())
def test_ground_slides_are_contact_steps_through_open_gates(board: Board) -> None:
    stacks = board.stacks()
    for cell in {n for c in stacks for n in neighbours(c)} - set(stacks):
        gated = [n for n in geometry.contact_steps(stacks, cell) if geometry.gate(stacks, cell, n) is None]
        assert sorted(geometry.slides(stacks, cell)) == sorted(gated), (board.game_string(), cell)
