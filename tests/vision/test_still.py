"""Tops kept or held back where the picture did not move, and reads summed over still frames."""

from __future__ import annotations

import cv2
import numpy as np

from vision.still import KEEP_THRESHOLD, MAX_VIEWS, REVIEW_EVERY, StillSpots
from vision.tilemaps import PEAK_THRESHOLD, Peak

MAP = (90, 160)  # motion map cells of a 1280x720 frame
FRAME = (720, 1280)
STILL = np.zeros(MAP, bool)
PITCH = 60.0
A, B, C = (np.array(xy, float) for xy in ((400.0, 300.0), (460.0, 300.0), (700.0, 500.0)))


def _peak(centre: np.ndarray, jitter: float = 0.0, heat: float = 0.9) -> Peak:
    return Peak(centre + jitter, PITCH, heat, 1.0)


def _moved_at(centre: np.ndarray) -> np.ndarray:
    moved = STILL.copy()
    x, y = (centre / 8).astype(int)
    moved[y, x] = True
    return moved


def _frame(level: int) -> np.ndarray:
    return np.full(FRAME + (3,), level, np.uint8)


def _centres(peaks: list[Peak]) -> list[tuple[float, float]]:
    return sorted((round(float(p.centre[0])), round(float(p.centre[1]))) for p in peaks)


def test_the_first_frame_is_believed_as_it_is() -> None:
    spots = StillSpots()
    assert _centres(spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool))) == [(400, 300), (460, 300)]


def test_a_top_missed_for_one_still_frame_is_kept_and_one_missed_longer_is_dropped() -> None:
    spots = StillSpots()
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool))
    assert _centres(spots.settle([_peak(A, 1.0)], STILL)) == [(401, 301), (460, 300)]
    assert _centres(spots.settle([_peak(A)], STILL)) == [(400, 300)]  # SETTLE (2) frames without it


def test_a_still_top_holds_on_weaker_heat_than_a_new_one_needs() -> None:
    spots = StillSpots()
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool))
    faint = KEEP_THRESHOLD + 0.05
    assert faint < PEAK_THRESHOLD
    for _ in range(3):  # B stays while its heat stays above KEEP_THRESHOLD; a faint newcomer at C never counts
        assert _centres(spots.settle([_peak(A), _peak(B, heat=faint), _peak(C, heat=faint)], STILL)) == [
            (400, 300), (460, 300)]
    assert _centres(spots.settle([_peak(A), _peak(B, heat=faint)], _moved_at(B))) == [(400, 300)]


def test_a_top_is_dropped_at_once_where_the_picture_moved() -> None:
    spots = StillSpots()
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool))
    assert _centres(spots.settle([_peak(A)], _moved_at(B))) == [(400, 300)]


def test_a_new_top_where_nothing_moved_needs_settle_frames_in_a_row() -> None:
    spots = StillSpots()
    spots.settle([_peak(A)], np.ones(MAP, bool))
    assert _centres(spots.settle([_peak(A), _peak(C)], STILL)) == [(400, 300)]  # one frame's phantom
    assert _centres(spots.settle([_peak(A)], STILL)) == [(400, 300)]
    assert _centres(spots.settle([_peak(A), _peak(C)], STILL)) == [(400, 300)]
    assert _centres(spots.settle([_peak(A), _peak(C)], STILL)) == [(400, 300), (700, 500)]  # there twice


def test_a_new_top_where_a_hand_put_it_counts_at_once() -> None:
    spots = StillSpots()
    spots.settle([_peak(A)], np.ones(MAP, bool))
    assert _centres(spots.settle([_peak(A), _peak(C)], _moved_at(C))) == [(400, 300), (700, 500)]


def test_a_still_tops_views_gather_up_to_the_limit_and_start_again_after_motion() -> None:
    spots = StillSpots()
    view = np.eye(4)
    spots.settle([_peak(A)], np.ones(MAP, bool))
    gathered = []
    for i in range(MAX_VIEWS + 2):
        spots.settle([_peak(A)], STILL)
        gathered.append(spots.views(A, view[i % 4]))
    assert [len(g) for g in gathered] == [*range(1, MAX_VIEWS + 1), MAX_VIEWS, MAX_VIEWS]
    assert np.array_equal(gathered[-1][-1], view[(MAX_VIEWS + 1) % 4])  # newest last
    spots.settle([_peak(A)], _moved_at(A))
    assert len(spots.views(A, view[0])) == 1
    assert len(spots.views(C, view[0])) == 1  # no spot there: just this frame's view


def test_a_still_top_with_all_its_views_keeps_its_read_and_is_looked_at_again_now_and_then() -> None:
    spots = StillSpots()
    read = np.array([0.2, 0.8])
    spots.settle([_peak(A)], np.ones(MAP, bool))
    for i in range(MAX_VIEWS):  # a fresh view every frame until the views are complete
        assert spots.kept_read(A) is None
        spots.views(A, np.eye(4)[i % 4])
        spots.keep_read(A, read)
        spots.settle([_peak(A)], STILL)
    kept = []
    for _ in range(2 * REVIEW_EVERY):
        kept.append(spots.kept_read(A) is not None)
        if not kept[-1]:
            spots.views(A, np.eye(4)[0])
        spots.settle([_peak(A)], STILL)
    assert kept == ([True] * (REVIEW_EVERY - 1) + [False]) * 2
    assert np.array_equal(spots.kept_read(A)[0], read) and spots.kept_read(A)[1] is False
    spots.keep_read(A, read, guessed=True)
    assert spots.kept_read(A)[1] is True
    spots.keep_read(A, None)  # seen afresh as no tile at all (``vision.doubts.unlike``): read afresh
    assert spots.kept_read(A) is None
    spots.keep_read(A, read)
    spots.settle([_peak(A)], _moved_at(A))
    assert spots.kept_read(A) is None  # a hand came by: the read starts again


def test_a_top_a_passing_hand_made_the_map_lose_is_recalled_where_its_spot_looks_as_it_did() -> None:
    spots = StillSpots()
    colour = _frame(90)
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool), colour)
    spots.settle([_peak(A), _peak(B)], STILL, colour)  # still: the look of each spot is kept
    assert _centres(spots.settle([_peak(A)], _moved_at(B), colour)) == [(400, 300)]  # a hand by B: not shown
    assert _centres(spots.settle([_peak(A)], _moved_at(B), colour)) == [(400, 300)]
    for _ in range(4):  # the hand gone, B's spot looks as it did: B is there, though the map has lost it
        assert _centres(spots.settle([_peak(A)], STILL, colour)) == [(400, 300), (460, 300)]
    spots.settle([_peak(A)], _moved_at(B), colour)
    taken = colour.copy()
    taken[240:360, 416:504] = 160  # B's spot now shows the table: the hand took B away
    assert _centres(spots.settle([_peak(A)], STILL, taken)) == [(400, 300)]
    assert _centres(spots.settle([_peak(A)], STILL, colour)) == [(400, 300)]  # forgotten


def _tile_at_b(shift: float, print_turn: int | None = 0) -> np.ndarray:
    """A grey table holding an ivory tile at B printed with thin black bars turned ``print_turn``
    degrees (a sharp print: a nudge changes the picture most there; None: no tile), the whole
    picture moved ``shift`` pixels right and down."""
    frame = _frame(120)
    if print_turn is not None:
        x, y = B.astype(int)
        cv2.circle(frame, (x, y), 28, (215, 225, 230), -1)
        bars = np.zeros(FRAME, np.uint8)
        for bar in range(-20, 21, 10):
            cv2.line(bars, (x - 18, y + bar), (x + 18, y + bar - 6), 1, 3)
        bars = cv2.warpAffine(bars, cv2.getRotationMatrix2D((float(x), float(y)), print_turn, 1.0), FRAME[::-1])
        frame[bars > 0] = 20
    return cv2.warpAffine(frame, np.float32([[1, 0, shift], [0, 1, shift]]), FRAME[::-1], borderMode=cv2.BORDER_REPLICATE)


def _b_lost_as_a_hand_passes() -> StillSpots:
    """Tops A and B seen still with B's tile at rest (``_tile_at_b``), then B lost by the map as a
    hand passes by it."""
    spots = StillSpots()
    before = _tile_at_b(0.0)
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool), before)
    spots.settle([_peak(A), _peak(B)], STILL, before)
    spots.settle([_peak(A)], _moved_at(B), before)
    return spots


def test_a_lost_top_is_found_again_after_the_table_was_nudged_but_not_where_it_was_taken_or_swapped() -> None:
    """A hand passes by B and the map loses it; as the hand leaves, the table is nudged three pixels,
    which changes most of the picture across B's sharp print. B's spot looks as it did, moved: B is
    there, where it now lies. Where the hand took B away (the table shows), or left another tile (its
    print turned), B is forgotten."""
    for shift, print_turn, reported in ((3.0, 0, [(400, 300), (463, 303)]), (3.0, None, [(400, 300)]),
                                        (0.0, None, [(400, 300)]), (0.0, 60, [(400, 300)])):
        spots = _b_lost_as_a_hand_passes()
        assert _centres(spots.settle([_peak(A)], STILL, _tile_at_b(shift, print_turn))) == reported


def test_a_lost_top_the_second_opinion_reports_while_the_hand_is_by_is_judged_by_its_look_once_still() -> None:
    """The map loses B as a hand passes, and the second opinion reports B on that moving frame. As
    the hand leaves, the table is nudged three pixels: B is there still, where it now lies, though
    the map never finds it again; where the hand took B away, B is gone on the first still frame."""
    for print_turn, reported in ((0, [(400, 300), (463, 303)]), (None, [(400, 300)])):
        spots = _b_lost_as_a_hand_passes()
        spots.vouch([_peak(B, heat=0.3)], _moved_at(B), _tile_at_b(0.0))
        for _ in range(3):
            now = _centres(spots.settle([_peak(A)], STILL, _tile_at_b(3.0, print_turn)))
            assert now == reported


def test_a_faint_top_a_hand_passes_by_is_remembered_as_a_lost_one_not_dropped() -> None:
    """B holds on faint heat. A hand lays a tile beside it and the map still finds it faintly: it is
    not shown while the picture there moves, and is back once its spot is still and looks as it did
    (where the hand changed the spot, it is gone)."""
    for after, reported in ((90, [(400, 300), (460, 300)]), (160, [(400, 300)])):
        spots = StillSpots()
        colour = _frame(90)
        spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool), colour)
        spots.settle([_peak(A), _peak(B, heat=0.3)], STILL, colour)
        assert _centres(spots.settle([_peak(A), _peak(B, heat=0.3)], _moved_at(B), colour)) == [(400, 300)]
        assert _centres(spots.settle([_peak(A), _peak(B, heat=0.3)], STILL, _frame(after))) == reported


def test_a_top_the_second_opinion_found_on_two_frames_running_is_kept_like_the_maps_own() -> None:
    """Reported on two frames running, a faint top is held by its faint heat and recalled after a
    hand passes; reported on one frame alone (a gap between tiles that looked like a top once), it
    is neither."""
    for frames, reported in ((1, [(400, 300)]), (2, [(400, 300), (460, 300)])):
        held, recalled = StillSpots(), StillSpots()
        colour = _frame(90)
        for spots in (held, recalled):
            for _ in range(frames):
                spots.settle([_peak(A)], STILL, colour)
                spots.vouch([_peak(B, heat=0.3)], STILL, colour)  # a faint top the second opinion confirmed
        assert _centres(held.settle([_peak(A), _peak(B, heat=0.3)], STILL, colour)) == reported
        recalled.settle([_peak(A)], _moved_at(B), colour)
        assert _centres(recalled.settle([_peak(A)], STILL, colour)) == reported


def test_a_top_found_again_where_one_was_lost_is_that_top_only_if_its_spot_looks_as_it_did() -> None:
    """A hand by B hides B from the map. Found there again with B's look, it is B, with B's views; with
    another look (a Beetle climbed there, or B left a shaded gap), it is a new top: read afresh, and
    believed only as a new top is (a faint one never)."""
    for colours_after, heat, reported, views_after in ((90, 0.3, 2, 3), (160, 0.9, 1, 1), (160, 0.3, 1, 1)):
        spots = StillSpots()
        colour = _frame(90)
        spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool), colour)
        spots.views(B, np.eye(4)[0])
        spots.settle([_peak(A), _peak(B)], STILL, colour)
        spots.views(B, np.eye(4)[1])
        spots.settle([_peak(A)], _moved_at(B), colour)
        assert len(spots.settle([_peak(A), _peak(B, heat=heat)], STILL, _frame(colours_after))) == reported
        assert len(spots.views(B, np.eye(4)[2])) == views_after


def test_a_still_tops_read_from_a_darker_frame_stands_until_it_moves_and_is_tried_once_till_then() -> None:
    spots = StillSpots()
    lit = np.array([0.1, 0.9])
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool))
    assert not spots.tried_darker(A) and spots.darker_read(A) is None
    spots.keep_darker(A, lit)
    spots.keep_darker(B, None)  # its print did not show in the darker frame either
    for _ in range(3):
        spots.settle([_peak(A), _peak(B)], STILL)
        assert np.array_equal(spots.darker_read(A), lit) and spots.tried_darker(A) and spots.tried_darker(B)
    spots.forget_reads()  # the set learnt more of itself: a darker frame's read still stands
    assert np.array_equal(spots.darker_read(A), lit)
    spots.settle([_peak(A), _peak(B)], _moved_at(A))
    assert spots.darker_read(A) is None and not spots.tried_darker(A)  # a hand came by: look again
    assert spots.tried_darker(B) and spots.tried_darker(C)  # B lay still; nothing is kept where no top is
    spots.keep_darker(A, lit)
    spots.forget_reads(darker=True)  # another set enrolled
    assert spots.darker_read(A) is None and not spots.tried_darker(A)


def test_a_top_taken_for_the_table_is_not_remembered_through_the_next_hand() -> None:
    """B, a cloth's flower the game record left out (``Detector.look_past``), is forgotten: a hand
    passing by with the map finding it faintly does not bring it back from memory; A stays."""
    spots = StillSpots()
    colour = _frame(90)
    spots.settle([_peak(A), _peak(B)], np.ones(MAP, bool), colour)
    spots.settle([_peak(A), _peak(B, heat=0.3)], STILL, colour)
    spots.forget_at([(B[0] + 2.0, B[1] + 2.0)])
    spots.settle([_peak(A), _peak(B, heat=0.3)], _moved_at(B), colour)
    assert _centres(spots.settle([_peak(A), _peak(B, heat=0.3)], STILL, colour)) == [(400, 300)]
