"""A top found where the table looks as it did when bare is the table's print, not a tile."""

from __future__ import annotations

import numpy as np

from vision.bare_table import AFTER_HAND, HAND_FRAMES, BareTable
from vision.motion import MOTION_LEVEL
from vision.tilemaps import CLASSES, Peak, TileMaps

SHAPE = (90, 160)
PITCH = 64.0
PRINT = np.array([400.0, 300.0])  # a flower on the cloth, in frame pixels
TILE = np.array([800.0, 300.0])
STILL = np.zeros(SHAPE, bool)


def _maps(heat_at: np.ndarray | None = None) -> TileMaps:
    """Sure table everywhere, with centre heat round ``heat_at`` (frame pixels) if given."""
    heat = np.zeros(SHAPE, np.float32)
    classes = np.zeros((len(CLASSES), *SHAPE), np.float32)
    classes[0] = 1.0
    if heat_at is not None:
        x, y = (heat_at / 8).astype(int)
        heat[y - 2:y + 3, x - 2:x + 3] = 0.3
    return TileMaps(heat, np.zeros((2, *SHAPE), np.float32), np.full(SHAPE, PITCH, np.float32), classes)


def _cloth() -> np.ndarray:
    """A printed cloth's mean BGR colour per map cell."""
    return np.random.default_rng(1).uniform(40, 200, (*SHAPE, 3))


def _peak(centre: np.ndarray) -> Peak:
    return Peak(centre, PITCH, 0.6, 1.0)


def test_a_top_where_the_table_looks_as_it_did_bare_is_the_table() -> None:
    table, cloth = BareTable(), _cloth()
    table.learn(cloth, _maps(), STILL, [TILE], PITCH)
    assert table.shows_bare(_peak(PRINT), cloth + MOTION_LEVEL / 2)  # sensor noise: the same picture
    assert not table.shows_bare(_peak(PRINT), cloth + 2 * MOTION_LEVEL)  # the light changed: proves nothing
    assert not table.shows_bare(_peak(TILE), cloth)  # never seen bare: a top lay there


def test_a_tile_put_down_on_a_bare_spot_is_not_taken_for_table() -> None:
    table, cloth = BareTable(), _cloth()
    table.learn(cloth, _maps(), STILL, [], PITCH)
    with_tile = cloth.copy()
    with_tile[33:43, 45:56] = 235.0  # an ivory face over the flower
    assert not table.shows_bare(_peak(PRINT), with_tile)


def test_an_ivory_face_as_bright_as_the_cream_wood_under_it_is_not_taken_for_table() -> None:
    wood = np.zeros((*SHAPE, 3))
    wood[:] = (150, 200, 240)  # BGR cream: grey ~207
    table = BareTable()
    table.learn(wood, _maps(), STILL, [], PITCH)
    with_tile = wood.copy()
    with_tile[33:43, 45:56] = (205, 208, 210)  # an ivory face in shade, of the same grey
    assert not table.shows_bare(_peak(PRINT), with_tile)
    assert table.shows_bare(_peak(PRINT), wood)


def test_a_top_the_record_has_no_piece_for_is_the_table_while_its_spot_looks_the_same() -> None:
    """The table seen through a hole of the hive, never seen bare (the map found a top there all
    along): once the game record leaves it out, its spot as it looks now is the table's, so a top
    found there is the table until a tile put there changes the look; spots beyond it stay unknown."""
    table, cloth = BareTable(), _cloth()
    table.learn(cloth, _maps(PRINT), STILL, [PRINT, TILE], PITCH)
    assert not table.shows_bare(_peak(PRINT), cloth)
    table.print_at(cloth, [PRINT], PITCH)
    assert table.shows_bare(_peak(PRINT), cloth)
    with_tile = cloth.copy()
    with_tile[33:43, 45:56] = 235.0  # an ivory face put in the hole
    assert not table.shows_bare(_peak(PRINT), with_tile)
    assert not table.shows_bare(_peak(TILE), cloth)


def test_only_spots_the_tile_map_was_sure_of_are_learnt_as_bare() -> None:
    cloth = _cloth()
    doubtful, moving, fresh = BareTable(), BareTable(), BareTable()
    doubtful.learn(cloth, _maps(heat_at=PRINT), STILL, [], PITCH)  # a faint top there, missed
    moved = STILL.copy()
    moved[30:45, 40:60] = True
    moving.learn(cloth, _maps(), moved, [], PITCH)
    assert not doubtful.shows_bare(_peak(PRINT), cloth)
    assert not moving.shows_bare(_peak(PRINT), cloth)
    assert not fresh.shows_bare(_peak(PRINT), cloth)


def _seen_bare(cloth: np.ndarray) -> BareTable:
    """A table whose every cell was seen bare as ``cloth`` (a new game about to begin on it),
    with a hand moved over it everywhere since."""
    table = BareTable()
    table.seen_bare(cloth, np.ones(SHAPE, bool))
    table.handled(np.ones(SHAPE, bool))
    return table


def _cell(point: np.ndarray) -> tuple[int, int]:
    """The (row, column) map cell of a frame pixel."""
    return int(point[1] // 8), int(point[0] // 8)


def _black_face(cloth: np.ndarray) -> np.ndarray:
    """``cloth`` with a black face over the flower at PRINT."""
    with_tile = cloth.copy()
    with_tile[33:43, 45:56] = 60.0
    return with_tile


def test_a_still_spot_a_hand_passed_over_unlike_the_bare_table_it_was_holds_something_put_there() -> None:
    cloth = _cloth()
    arrived = _seen_bare(cloth).arrived(_black_face(cloth), STILL, PITCH)
    assert arrived[_cell(PRINT)]
    assert not arrived[_cell(TILE)]  # the cloth as it was


def test_nothing_arrived_where_the_picture_moves_was_never_seen_bare_or_barely_changed() -> None:
    cloth = _cloth()
    moving = STILL.copy()
    moving[37, 50] = True  # a hand still passing over the spot
    assert not _seen_bare(cloth).arrived(_black_face(cloth), moving, PITCH)[_cell(PRINT)]
    assert not BareTable().arrived(_black_face(cloth), STILL, PITCH).any()
    sliver = cloth.copy()
    sliver[33:37, 45:56] = 60.0  # a neighbour's side or shadow over the spot's edge only
    assert not _seen_bare(cloth).arrived(sliver, STILL, PITCH)[_cell(PRINT)]
    assert not _seen_bare(cloth).arrived(cloth + MOTION_LEVEL, STILL, PITCH).any()  # noise, a slight drift of light


def test_nothing_arrived_where_no_hand_passed_since_the_table_lay_bare() -> None:
    cloth = _cloth()
    table = BareTable()
    table.seen_bare(cloth, np.ones(SHAPE, bool))
    assert not table.arrived(_black_face(cloth), STILL, PITCH).any()  # a shadow or a lamp: no hand put it there
    elsewhere = STILL.copy()
    elsewhere[30:45, 90:110] = True
    table.handled(elsewhere)
    assert not table.arrived(_black_face(cloth), STILL, PITCH)[_cell(PRINT)]
    table.handled(np.ones(SHAPE, bool))
    assert table.arrived(_black_face(cloth), STILL, PITCH)[_cell(PRINT)]
    table.seen_bare(cloth, np.ones(SHAPE, bool))  # seen bare again: what a hand did before is past
    assert not table.arrived(_black_face(cloth), STILL, PITCH)[_cell(PRINT)]


def test_a_new_view_forgets_the_table_as_it_lay_bare() -> None:
    """The camera moved (most of the view changed at once): the bare table it saw, and where a
    hand went, tell nothing of the new view; a hand moving over part of it does not forget them."""
    cloth = _cloth()
    table = _seen_bare(cloth)
    part = STILL.copy()
    part[20:60, 30:90] = True
    table.take_in(part)
    assert table.arrived(_black_face(cloth), STILL, PITCH)[_cell(PRINT)]
    assert not table.shows_bare(_peak(PRINT), _black_face(cloth)) and table.shows_bare(_peak(TILE), cloth)
    table.take_in(~STILL)
    assert not table.arrived(_black_face(cloth), STILL, PITCH).any()
    assert not table.shows_bare(_peak(TILE), cloth)


def test_what_arrived_is_looked_for_just_after_the_hand_and_kept_while_found() -> None:
    """A spot a hand passed over long ago that looks otherwise now (a resumed game's tiles set out
    out of view) holds nothing new; one found holding a tile just after the hand is kept."""
    cloth, face = _cloth(), _black_face(_cloth())
    stale, found = _seen_bare(cloth), _seen_bare(cloth)
    for _ in range(HAND_FRAMES + 1):
        stale.take_in(STILL)
        found.take_in(STILL)
        assert found.arrived(face, STILL, PITCH)[_cell(PRINT)]
        found.kept([PRINT], PITCH, SHAPE)
    assert not stale.arrived(face, STILL, PITCH)[_cell(PRINT)]
    assert found.arrived(face, STILL, PITCH)[_cell(PRINT)]


def test_a_tile_that_shows_as_the_hand_leaves_arrived_and_one_that_shows_long_after_did_not() -> None:
    """The hand that laid a tile was elsewhere on its last frame; the tile's spot changed on the
    next one, as the hand went. A spot that changes long after any hand holds nothing put there."""
    cloth, face = _cloth(), _black_face(_cloth())
    spot = STILL.copy()
    spot[33:43, 45:56] = True
    elsewhere = STILL.copy()
    elsewhere[30:45, 90:110] = True
    tables = [BareTable(), BareTable()]
    for table in tables:
        table.seen_bare(cloth, np.ones(SHAPE, bool))
        table.take_in(elsewhere)
        table.handled(elsewhere)
    just_after, long_after = tables
    for _ in range(AFTER_HAND):
        long_after.take_in(STILL)
    just_after.take_in(spot)
    long_after.take_in(spot)
    assert just_after.arrived(face, STILL, PITCH)[_cell(PRINT)]
    assert not long_after.arrived(face, STILL, PITCH)[_cell(PRINT)]
