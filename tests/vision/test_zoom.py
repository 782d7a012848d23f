"""Zooming in on a hive that looks small: the view picked, and when it opens up again."""

from __future__ import annotations

import numpy as np
import pytest

from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour
from vision.zoom import (EDGE, EMPTY_FRAMES, LOST_FRAMES, MARGIN, MAX_ZOOM, WANTED_PITCH, WHOLE, View, Zoom,
                         view_for)

SIZE = (1280, 720)


def _row(start: tuple[float, float], pitch: float, count: int = 4, occluded: bool = False) -> Observation:
    """``count`` touching tops in a row from ``start`` (frame pixels), ``pitch`` apart."""
    tiles = tuple(TileSighting(q, 0, Colour.WHITE, Bug.ANT, 0.9, 1, (start[0] + q * pitch, start[1]))
                  for q in range(count))
    return Observation(tiles, occluded)


def _inside(view: View, tops: np.ndarray, room: float) -> bool:
    low = np.array([view.x, view.y])
    high = low + np.array(SIZE) / view.zoom
    return bool(((tops - room >= low - 1e-9) & (tops + room <= high + 1e-9)).all())


def test_a_small_hive_is_shown_as_large_as_wanted_with_room_round_it() -> None:
    pitch = 16.0
    tops = np.array([[600.0 + q * pitch, 300.0] for q in range(4)])
    view = view_for(tops, pitch, SIZE)
    assert view.zoom == pytest.approx(WANTED_PITCH / pitch)
    assert _inside(view, tops, MARGIN * pitch)
    assert np.allclose(view.whole((tops - [view.x, view.y]) * view.zoom), tops)


def test_a_tiny_hive_is_zoomed_no_more_than_the_sensor_allows_and_the_view_stays_on_it() -> None:
    tops = np.array([[5.0 + q * 8.0, 700.0] for q in range(3)])  # in the whole view's corner
    view = view_for(tops, 8.0, SIZE)
    assert view.zoom == MAX_ZOOM
    assert view.x == 0.0 and view.y == pytest.approx(720 - 720 / MAX_ZOOM)  # pushed back inside the whole view
    assert _inside(view, tops, 0.0)


def test_a_spread_hive_gets_only_the_zoom_its_margin_leaves_and_a_large_one_none() -> None:
    pitch = 14.0
    spread = np.array([[100.0, 360.0], [900.0, 360.0]])
    view = view_for(spread, pitch, SIZE)
    assert view.zoom == pytest.approx(1280 / (800 + 2 * MARGIN * pitch))
    assert view_for(np.array([[640.0, 360.0], [676.0, 360.0]]), 36.0, SIZE) == WHOLE  # too little to gain


def test_the_zoom_holds_until_a_top_nears_the_edge_or_the_tiles_are_gone() -> None:
    zoom = Zoom(SIZE)
    assert zoom.after(_row((600.0, 360.0), 40.0)) is None  # large enough already
    assert zoom.after(_row((600.0, 360.0), 15.0, occluded=True)) is None  # a hand: wait
    view = zoom.after(_row((600.0, 360.0), 12.0))
    assert view is not None and view.zoom == pytest.approx(WANTED_PITCH / 12.0) and zoom.view == view
    assert zoom.after(_row((500.0, 300.0), 40.0)) is None  # the zoomed frames: tops well inside
    assert zoom.after(_row((1280.0 - EDGE * 40.0 - 3 * 40.0 + 5, 300.0), 40.0)) == WHOLE  # the row reached the edge
    assert zoom.view == WHOLE
    zoom.after(_row((600.0, 360.0), 15.0))
    empty = Observation((), False)
    assert [zoom.after(empty) for _ in range(EMPTY_FRAMES)][-1] == WHOLE
    assert zoom.after(empty) is None


def test_a_hive_at_the_whole_views_edge_keeps_its_zoom() -> None:
    zoom = Zoom(SIZE)
    view = zoom.after(_row((4.0, 360.0), 12.0))  # the hive at the whole view's left side
    assert view is not None and view.x == 0.0
    at_left = _row((10.0, 300.0), 12.0 * view.zoom)  # its tops by the zoomed view's left side: the whole view's
    assert zoom.after(at_left) is None and zoom.view == view
    at_right = _row((1280.0 - 3 * 28.0 - 10.0, 300.0), 28.0)  # by its right side: there is more to see there
    assert zoom.after(at_right) == WHOLE


def test_a_zoom_that_shows_far_fewer_tops_is_given_up_until_the_hive_grows() -> None:
    zoom = Zoom(SIZE)
    view = zoom.after(_row((600.0, 360.0), 12.0, count=6))
    assert view is not None
    for _ in range(LOST_FRAMES - 1):  # a blurred crop: two of the six tops found
        assert zoom.after(_row((500.0, 300.0), 28.0, count=2)) is None
    assert zoom.after(_row((500.0, 300.0), 28.0, count=2, occluded=True)) is None  # a hand proves nothing
    assert zoom.after(_row((500.0, 300.0), 28.0, count=2)) == WHOLE
    assert zoom.after(_row((600.0, 360.0), 12.0, count=6)) is None  # the same hive: not again
    assert zoom.after(_row((600.0, 360.0), 12.0, count=7)) is not None  # a tile more: worth another look


def test_a_zoom_that_finds_the_tops_is_kept() -> None:
    zoom = Zoom(SIZE)
    assert zoom.after(_row((600.0, 360.0), 12.0, count=6)) is not None
    for _ in range(3 * LOST_FRAMES):
        assert zoom.after(_row((500.0, 300.0), 28.0, count=5)) is None
