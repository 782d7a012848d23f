"""The synthetic camera used by the tests and the benchmark."""

from __future__ import annotations

import random
from collections import Counter

from rules import Board
from rules.referee.registration import Transform
from rules.referee.synthetic import Noise, Pace, add_noise, film, observe, sightings

MOVES = ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wB1 -wQ", "bA1 bQ-", "wB1 wQ")


def positions() -> list[dict]:
    board = Board("Base")
    for move in MOVES:
        board.push_uhp(move)
    return [b.stacks() for b in board.replay()]


def test_sightings_are_the_tops_moved_by_the_transform() -> None:
    stacks = positions()[-1]  # wB1 on wQ
    tiles = sightings(stacks, Transform(0, False, (10, 10)))
    assert {(t.q, t.r, t.colour.value + t.bug.value, t.height_hint) for t in tiles} == {
        (10, 10, "wS", 1), (11, 10, "bS", 1), (9, 10, "wB", 2), (12, 10, "bQ", 1), (13, 10, "bA", 1)}


def test_film_shows_each_position_after_a_hand_and_ends_still() -> None:
    pace = Pace(hand_frames=(2, 2), still_frames=(3, 3), bump_chance=1.0, fast_chance=0.0, end_frames=5)
    shown = positions()
    shots = list(film(shown, random.Random(1), pace))
    assert [round(s.timestamp * 10) for s in shots] == list(range(1, len(shots) + 1))
    assert len(shots) == 3 + (len(shown) - 2) * (2 + 3) + 2 + 5
    assert [s.occluded for s in shots[:5]] == [False, False, False, True, True]
    assert all(not s.occluded for s in shots[-5:]) and len(shots[-1].stacks) == 5
    # the hive is knocked only once the camera has seen two pieces still
    assert {s.transform for s in shots if len(s.stacks) <= 2} == {Transform(0, False, (3, -2))}
    assert len({s.transform for s in shots}) > 2


def test_a_waited_on_board_stays_as_long_as_the_last_and_is_never_skipped_by_a_fast_reply() -> None:
    pace = Pace(hand_frames=(1, 1), still_frames=(2, 2), bump_chance=0.0, fast_chance=1.0, end_frames=7)
    shown = positions()
    shots = list(film(shown, random.Random(4), pace, waited={3}))
    still = Counter(len(s.stacks) for s in shots if not s.occluded)  # board i covers i cells, the last 5
    # replies alternate fast and slow: boards 1, 4 and 6 are skipped, the waited board 3 is not
    assert still == {0: 2, 2: 2, 3: 7, 5: 2 + 7}


def test_noise_flickers_at_low_confidence_and_leaves_hands_alone() -> None:
    shots = list(film(positions(), random.Random(2), Pace()))
    clean = [observe(s) for s in shots]
    noisy = list(add_noise(iter(clean), random.Random(3), Noise(burst_chance=0.3)))
    assert len(noisy) == len(clean)
    changed = [(c, n) for c, n in zip(clean, noisy) if c != n]
    assert changed and all(not c.occluded for c, _ in changed)
    for c, n in changed:
        extra = set(n.tiles) - set(c.tiles)
        assert len(n.tiles) == len(c.tiles) - 1 or (len(extra) == 1 and extra.pop().confidence < 0.5)
