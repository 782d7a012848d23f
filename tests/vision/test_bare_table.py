"""A top found where the table looks as it did when bare is the table's print, not a tile."""

from __future__ import annotations

import numpy as np

from vision.bare_table import BareTable
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
