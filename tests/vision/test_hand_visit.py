"""A top first seen after a hand's visit where the picture did not change was put there by no hand."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rules.pieces import Piece
from vision.detect import Detector
from vision.hand_visit import HandVisits
from vision.motion import MOTION_LEVEL
from vision.profile import demo_profile
from vision.render.scene import Conditions, make_camera, render_position
from vision.tilemaps import STRIDE, TileMaps

SHAPE = (90, 160, 3)
PITCH = 64.0
FLOWER = np.array([400.0, 300.0])  # frame pixels
TILE = np.array([800.0, 300.0])
OLD = np.array([600.0, 300.0])


def _cloth() -> np.ndarray:
    """A printed cloth's mean BGR colour per motion map cell."""
    return np.random.default_rng(1).uniform(40, 200, SHAPE)


def test_a_top_new_since_the_hand_where_the_picture_stayed_is_unplaced_and_one_laid_is_not() -> None:
    visits, cloth = HandVisits(), _cloth()
    visits.see(cloth, False, True, [OLD])
    assert not visits.unplaced(cloth, [FLOWER, TILE, OLD], PITCH).any()  # no hand has come yet: nothing to tell
    visits.see(cloth * 0.3, True, False, [])  # the hand over the table
    assert not visits.unplaced(cloth, [FLOWER], PITCH).any()  # ... and while it is by
    after = cloth + MOTION_LEVEL / 2  # sensor noise
    after[35:40, 97:104] = 230.0  # an ivory face laid where the tile now lies
    visits.see(after, False, True, [FLOWER, TILE, OLD])
    assert visits.unplaced(after, [FLOWER, TILE, OLD + 5.0], PITCH).tolist() == [True, False, False]


def test_a_spot_a_top_lay_on_before_the_hand_came_was_vacated_by_it() -> None:
    visits, cloth = HandVisits(), _cloth()
    visits.see(cloth, False, True, [OLD, FLOWER], found=[OLD])  # FLOWER: a top only a second opinion found
    assert not visits.vacated(OLD, PITCH)  # no hand has come yet
    visits.see(cloth * 0.3, True, False, [])
    visits.see(cloth, False, True, [TILE, FLOWER], found=[TILE])  # the tile at OLD moved to TILE
    assert visits.vacated(OLD + (0.4 * PITCH, 0), PITCH) and not visits.vacated(OLD + (0.6 * PITCH, 0), PITCH)
    assert not visits.vacated(TILE, PITCH) and not visits.vacated(FLOWER, PITCH)


def test_the_look_before_is_that_of_the_last_frame_before_the_hand() -> None:
    """A shadow that crept over the flower long before the hand came changes nothing: the look
    compared is the one just before the visit, not the first."""
    visits, cloth = HandVisits(), _cloth()
    visits.see(cloth, False, True, [])
    shaded = cloth - 3 * MOTION_LEVEL
    visits.see(shaded, False, True, [])
    visits.see(cloth, True, False, [])
    visits.see(shaded, False, True, [FLOWER])
    assert visits.unplaced(shaded, [FLOWER], PITCH).tolist() == [True]


def test_a_moving_frame_the_hand_detection_missed_is_not_the_look_before() -> None:
    """The hand laying the first tile (no hive yet to be by) is flagged on some frames only: the
    frame between, with the tile already down, moves, so the look before stays the bare table's
    and the tile is not taken for one no hand put there."""
    visits, cloth = HandVisits(), _cloth()
    visits.see(cloth, False, True, [])
    visits.see(cloth * 0.3, True, False, [])
    laid = cloth.copy()
    laid[35:40, 47:54] = 230.0  # the tile down at FLOWER, the hand just off it, unflagged
    visits.see(laid, False, False, [FLOWER])
    visits.see(laid * 0.3, True, False, [])
    visits.see(laid, False, True, [FLOWER])
    assert visits.unplaced(laid, [FLOWER], PITCH).tolist() == [False]


class _BlindUntil:
    """The tile map, finding no top round ``spot`` (frame pixels) for its first ``frames`` frames."""

    def __init__(self, spot: np.ndarray, frames: int) -> None:
        self.mapper, self.spot, self.frames = Detector(demo_profile()).mapper, spot, frames

    def maps(self, frame: np.ndarray) -> TileMaps:
        maps = self.mapper.maps(frame)
        self.frames -= 1
        if self.frames < 0:
            return maps
        x, y = (int(v // STRIDE) for v in self.spot)
        heat = maps.heat.copy()
        heat[y - 5:y + 6, x - 5:x + 6] = 0.0
        return replace(maps, heat=heat)


def test_rendered_a_top_found_only_after_a_hand_laid_another_is_unplaced() -> None:
    """The tile map misses the black Ant until White's Grasshopper is laid beside it (as it missed a
    cloth's flower until then): the Ant, first seen after that hand, lies where the picture did not
    change, so no hand put it there; the Queen seen before and the Grasshopper just laid are not so."""
    view = Conditions(height_mm=450, tilt_deg=12, yaw_deg=25, seed=5)
    pair = {(0, 0): [Piece.parse("wQ")], (1, 0): [Piece.parse("bA1")]}
    three = {**pair, (2, 0): [Piece.parse("wG1")]}
    camera = make_camera(three, view)  # one camera, not one aimed at each position's hive
    frames = [render_position(pair, view, camera=camera)[0]] * 3
    frames.append(render_position(three, replace(view, hand=True), camera=camera, hand_at=(80.0, 0.0))[0])
    frames += [render_position(three, view, camera=camera)[0]] * 3
    detector = Detector(demo_profile())
    detector.mapper = _BlindUntil(render_position(pair, view, camera=camera)[1].tiles[1].px, 4)
    seen = [detector.detect(frame, 0.1 * k) for k, frame in enumerate(frames)]
    assert [tile.colour.value + tile.bug.value for tile in seen[2].tiles] == ["wQ"] and seen[3].occluded
    marks = {tile.colour.value + tile.bug.value: tile.unplaced for tile in seen[-1].tiles}
    assert marks == {"wQ": False, "bA": True, "wG": False}
