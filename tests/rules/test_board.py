"""Hand-built positions for the rules the corpus exercises least: each expectation is
worked out from the rulebook, not from the engine."""

from __future__ import annotations


from rules import PASS, Board, Bug, Colour, GameState, Move, Piece, RuleOptions

P = Piece.parse


def setup(layout: dict[tuple[int, int], str], to_move: Colour = Colour.WHITE,
          game_type: str = "Base+MLP", options: RuleOptions | None = None,
          last: str | None = None) -> Board:
    """A board with the given stacks (names bottom first, space separated), unchecked.

    Passes fill in so that ``to_move`` is on move; ``last`` (placed last) is the piece
    that counts as just moved.
    """
    board = Board(game_type, options)
    last_piece = P(last) if last else None
    for cell, names in layout.items():
        for name in names.split():
            if P(name) is not last_piece:
                board.push(Move(P(name), cell))
    board.push(PASS)
    if board.turn is not (to_move.opponent if last_piece else to_move):
        board.push(PASS)
    if last_piece is not None:
        board.push(Move(last_piece, next(c for c, n in layout.items() if last in n.split())))
    return board


def dests(board: Board, name: str) -> set[tuple[int, int]]:
    return {m.dest for m in board.legal_moves if m.piece is P(name)}


def test_queen_may_not_open_under_2024_rules() -> None:
    assert not any(m.piece.bug is Bug.QUEEN for m in Board("Base").legal_moves)
    opened = Board("Base", RuleOptions(queen_may_open=True))
    assert Move(P("wQ"), (0, 0)) in opened.legal_moves


def test_queen_must_be_placed_on_fourth_turn() -> None:
    board = Board("Base")
    for text in ["wS1", "bS1 -wS1", "wA1 wS1-", "bA1 -bS1", "wG1 wA1-", "bG1 -bA1"]:
        board.push_uhp(text)
    assert board.queen_due()
    moves = board.legal_moves
    assert moves and all(m.piece is P("wQ") for m in moves)


def test_no_movement_before_own_queen() -> None:
    board = Board("Base")
    for text in ["wS1", "bS1 -wS1", "wQ wS1-", "bA1 -bS1"]:
        board.push_uhp(text)
    board.push_uhp("wA1 wQ-")
    assert all(m.is_placement for m in board.legal_moves)  # Black has no Queen yet
    board.push_uhp("bQ -bA1")
    assert any(not m.is_placement for m in board.legal_moves)  # White has one


def test_placement_touches_only_own_colour() -> None:
    board = setup({(0, 0): "wQ", (1, 0): "bQ"})
    cells = set(board.placement_cells(Colour.WHITE))
    assert cells == {(-1, 0), (0, -1), (-1, 1)}  # the three cells not next to bQ


def test_grasshopper_jumps_the_whole_row() -> None:
    board = setup({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wG1", (2, 0): "bA1"})
    assert dests(board, "wG1") == {(3, 0)}


def test_spider_moves_exactly_three() -> None:
    board = setup({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wS1"})
    assert dests(board, "wS1") == {(2, -1), (1, 1)}


RING = {(1, 0): "bQ", (0, 1): "wS1", (-1, 1): "wS2", (-1, 0): "bS1", (0, -1): "bS2",
        (1, -1): "bG1", (2, 0): "wQ"}


def test_ant_cannot_slide_into_a_surrounded_space() -> None:
    board = setup(RING | {(3, 0): "wA1"})
    reach = dests(board, "wA1")
    assert (0, 0) not in reach
    assert {(2, 1), (-2, 0), (0, -2)} <= reach


def test_grasshopper_can_jump_into_a_surrounded_space() -> None:
    board = setup(RING | {(-2, 0): "wG1"})
    assert (0, 0) in dests(board, "wG1")


def test_beetle_obeys_gate_of_two_stacks() -> None:
    gate = {(0, 0): "wB1", (1, 0): "bA1", (1, -1): "bA2 bB1", (0, 1): "wA1 wB2",
            (2, 0): "wQ", (2, -1): "bQ"}
    assert (1, 0) not in dests(setup(gate), "wB1")
    gate[(0, 1)] = "wA1"  # one side of the gate lowered: the climb is free
    assert (1, 0) in dests(setup(gate), "wB1")


def test_pillbug_throws_an_unpinned_neighbour() -> None:
    layout = {(0, 0): "wP", (-1, 0): "wQ", (-2, 0): "bQ", (1, 0): "bA1"}
    board = setup(layout)
    assert dests(board, "bA1") == {(0, 1), (-1, 1), (0, -1), (1, -1)}
    assert not dests(board, "wQ")  # wQ links bQ to the hive


def test_pillbug_may_not_throw_the_piece_just_moved() -> None:
    layout = {(0, 0): "wP", (-1, 0): "wQ", (-2, 0): "bQ", (1, 0): "bA1"}
    board = setup(layout, last="bA1")
    assert board.turn is Colour.WHITE and board.last_moved is P("bA1")
    assert not dests(board, "bA1")


def test_thrown_piece_is_frozen_on_the_next_turn() -> None:
    layout = {(0, 0): "bP", (-1, 0): "bQ", (-2, 0): "wQ", (1, 0): "wA1", (-3, 0): "bA1"}
    board = setup(layout, to_move=Colour.BLACK)
    board.push(Move(P("wA1"), (0, 1)))
    assert board.turn is Colour.WHITE
    assert not dests(board, "wA1")


def test_mosquito_touching_only_a_mosquito_cannot_move() -> None:
    board = setup({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "bM", (-2, 0): "wM"})
    assert not dests(board, "wM")


def test_mosquito_on_top_moves_only_as_beetle() -> None:
    board = setup({(0, 0): "wQ", (1, 0): "bG1 wM", (2, 0): "bQ"})
    # As a Beetle it can step to any neighbour; copying a Grasshopper it would jump to (3, 0).
    assert dests(board, "wM") == {(0, 0), (2, 0), (1, -1), (0, 1), (2, -1), (1, 1)}


def test_mosquito_copies_a_pillbug_throw() -> None:
    board = setup({(0, 0): "wM", (-1, 0): "bP", (-2, 0): "wQ", (-3, 0): "bQ", (1, 0): "bA1"})
    assert (0, 1) in dests(board, "bA1")


def test_pass_only_when_nothing_else_is_possible() -> None:
    board = setup({(0, 0): "wQ bB1", (1, 0): "bQ"})
    assert board.legal_moves == [PASS]
    assert PASS not in Board("Base").legal_moves


def test_surrounding_the_queen_wins() -> None:
    ring = {(1, 0): "wS1", (0, 1): "wS2", (-1, 1): "wG1", (-1, 0): "wG2", (0, -1): "bA1"}
    board = setup({(0, 0): "bQ", **ring, (2, -1): "wQ", (3, -2): "wA1"})
    assert board.state is GameState.IN_PROGRESS
    board.push(Move(P("wA1"), (1, -1)))
    assert board.state is GameState.WHITE_WINS
    assert board.legal_moves == []
    board.pop()
    assert board.state is GameState.IN_PROGRESS


def test_surrounding_both_queens_at_once_is_a_draw() -> None:
    # bQ at (0,0) and wQ at (2,-1) share the empty cell (1,-1) as their last free neighbour.
    layout = {(0, 0): "bQ", (1, 0): "wS1", (0, 1): "wS2", (-1, 1): "wG1", (-1, 0): "wG2",
              (0, -1): "bA1", (2, -1): "wQ", (3, -1): "bS1", (2, 0): "bS2", (1, -2): "bG1",
              (2, -2): "bG2", (3, -2): "bB1", (-1, -1): "wA1"}
    board = setup(layout)
    assert not board.surrounded(Colour.WHITE) and not board.surrounded(Colour.BLACK)
    board.push(Move(P("wA1"), (1, -1)))
    assert board.state is GameState.DRAW


def test_threefold_repetition_draws_only_when_enabled() -> None:
    layout = {(-1, 0): "wQ", (0, 0): "wA1", (1, 0): "bA1", (2, 0): "bQ"}
    there_and_back = [("wQ", (-1, 1)), ("bQ", (2, -1)), ("wQ", (-1, 0)), ("bQ", (2, 0))]
    for enabled in (True, False):
        board = Board("Base", RuleOptions(repetition_draw=enabled))
        for cell, name in layout.items():
            board.push(Move(P(name), cell))
        for cycle in (1, 2):
            assert board.state is GameState.IN_PROGRESS
            for name, cell in there_and_back:
                move = Move(P(name), cell)
                assert move in board.legal_moves
                board.push(move)
            assert board.repetitions() == (cycle + 1 if enabled else 0)
        assert board.state is (GameState.DRAW if enabled else GameState.IN_PROGRESS)


def test_undo_restores_position_and_turn() -> None:
    board = Board.from_game_string("Base+MLP;InProgress;White[3];wS1;bG1 -wS1;wQ wS1/;bQ /bG1")
    before = (board.stacks(), board.position_key(), set(board.legal_moves), board.last_moved)
    for move in list(board.legal_moves):
        board.push(move)
        board.pop()
        assert (board.stacks(), board.position_key(), set(board.legal_moves), board.last_moved) == before
