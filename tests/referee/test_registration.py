"""Rigid hex-lattice transforms and finding the one that registers a view."""

from __future__ import annotations

import pytest

from rules import Board, Bug, Colour
from rules.referee.inference import tops
from rules.referee.registration import Transform, best_fit, candidate_transforms

ALL = [Transform(turns, mirror, shift) for turns in range(6) for mirror in (False, True)
       for shift in [(0, 0), (3, -5)]]


@pytest.mark.parametrize("transform", ALL, ids=str)
def test_inverse_undoes_and_distances_are_kept(transform: Transform) -> None:
    cells = [(0, 0), (1, 0), (2, -3), (-4, 1)]
    moved = [transform.apply(c) for c in cells]
    assert [transform.inverse().apply(c) for c in moved] == cells
    # a rigid map: neighbours stay neighbours
    assert transform.apply((1, 0)) in [(moved[0][0] + dq, moved[0][1] + dr)
                                       for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))]


def test_sixth_turn_is_a_full_turn() -> None:
    assert Transform(1).apply((1, 0)) == (0, 1)  # east to south-east, clockwise
    with pytest.raises(ValueError):
        Transform(6)


def test_the_camera_frame_is_found_by_votes() -> None:
    board = Board.from_game_string("Base;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 wQ/;bA1 bQ\\")
    known = tops(board)
    camera = Transform(4, False, (7, -2))  # game -> camera
    seen = {camera.apply(cell): label for cell, label in known.items()}
    votes = candidate_transforms(seen, known)
    best, count = votes.most_common(1)[0]
    assert count == len(known)
    assert all(best.apply(camera.apply(cell)) == cell for cell in known)
    assert votes.most_common(2)[1][1] < count


def test_the_best_fit_puts_the_tiles_where_the_position_has_them_whatever_they_were_read_as() -> None:
    board = Board.from_game_string("Base;InProgress;White[3];wG1;bG1 wG1-;wQ -wG1;bQ bG1/")
    known = tops(board)
    camera = Transform(2, False, (3, -1))
    # every tile read as its eastern neighbour (or a black Ant): by labels alone, the view
    # would lie one cell west of the hive
    misread = {cell: known.get((cell[0] + 1, cell[1]), (Colour.BLACK, Bug.ANT)) for cell in known}
    seen = {camera.apply(cell): label for cell, label in misread.items()}
    assert candidate_transforms(seen, known).most_common(1)[0][0].apply(camera.apply((0, 0))) != (0, 0)
    fit = best_fit(seen, known, Transform())
    assert all(fit.apply(camera.apply(cell)) == cell for cell in known)
