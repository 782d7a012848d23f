"""Zooming in on a hive that looks small: which part of the camera's whole view to read.

A Camera Module 3's sensor has 4608x2592 pixels; a 1280x720 frame of its whole view averages
about 3.6x3.6 of them into each of its own. From far off or through the wide lens the tiles
are then a dozen pixels apart and their creatures unreadable, though the sensor saw them
three and a half times larger. A camera that can crop its sensor (``FrameSource.set_view``)
is then set to show just the hive with room round it, up to ``MAX_ZOOM`` times larger. The
view goes back to the whole table when a top comes near its edge (the hive grew or moved),
when it has shown no tile for a while (the game was cleared away), or when it keeps showing
far fewer tops than the whole view did (a blurred lens: the crop reads worse).

A ``View`` is a part of the whole view: the frame's pixel (0, 0) is the whole view's
(``x``, ``y``), and the frame is ``zoom`` times larger.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.observation import Observation
from vision.tile_size import observed_pitch

WANTED_PITCH = 28.0  # pixels between tile centres that a zoom aims for (larger, the lens's blur would grow too)
MAX_ZOOM = 3.0  # the sensor's own pixels bound it (4608 / 1280 = 3.6)
MIN_ZOOM = 1.3  # a smaller gain is not worth a new view (and a few frames to settle)
MARGIN = 3.0  # pitches of table kept round the tops: room for the next tile and the hand laying it
EDGE = 1.5  # a top this near the view's edge (in pitches) calls for the whole view again
EMPTY_FRAMES = 10  # frames without a tile (and no hand) after which a zoomed view opens up again
LOST_SHARE = 0.5  # a zoomed view showing fewer tops than this share of those the whole view showed ...
LOST_FRAMES = 10  # ... for this many frames in a row (no hand) reads worse than the whole view: the lens's blur,
# grown with the zoom, outweighs the gain (a-var, seed 1: 1 top of 17 through a 2.4x crop). It opens up again, and
# zooms again only once the whole view shows more tops than it did then


@dataclass(frozen=True)
class View:
    """A part of the camera's whole view: from (``x``, ``y``) (whole-view pixels), ``zoom`` times larger."""

    x: float = 0.0
    y: float = 0.0
    zoom: float = 1.0

    def near(self, other: "View") -> bool:
        """Whether ``other`` is this view as a camera sets it (its crop rounded to sensor pixels)."""
        return abs(self.x - other.x) < 1 and abs(self.y - other.y) < 1 and abs(self.zoom / other.zoom - 1) < 0.01

    def whole(self, px: np.ndarray) -> np.ndarray:
        """Whole-view pixels of this view's frame pixels ``px`` (N, 2)."""
        return np.asarray(px, float) / self.zoom + [self.x, self.y]


WHOLE = View()


def view_for(tops: np.ndarray, pitch: float, size: tuple[int, int]) -> View:
    """The view showing ``tops`` (whole-view pixels, ``pitch`` apart, in a whole view of ``size``
    (width, height)) as large as their margin lets, but no larger than needed to see tiles
    ``WANTED_PITCH`` apart; ``WHOLE`` if it would gain less than ``MIN_ZOOM``."""
    width, height = size
    low, high = tops.min(axis=0) - MARGIN * pitch, tops.max(axis=0) + MARGIN * pitch
    zoom = min(MAX_ZOOM, WANTED_PITCH / pitch, width / (high[0] - low[0]), height / (high[1] - low[1]))
    if zoom < MIN_ZOOM:
        return WHOLE
    middle = (low + high) / 2
    x = float(np.clip(middle[0] - width / zoom / 2, 0, width - width / zoom))
    y = float(np.clip(middle[1] - height / zoom / 2, 0, height - height / zoom))
    return View(x, y, float(zoom))


class Zoom:
    """Which view to read next, from what the frames of the present view show."""

    def __init__(self, size: tuple[int, int]) -> None:
        """``size``: the frames' (width, height)."""
        self.size = size
        self.view = WHOLE
        self._empty = 0
        self._whole_tops = 0  # the tops the whole view showed when it last turned to a zoomed one
        self._worse = 0  # zoomed frames in a row showing under LOST_SHARE of them
        self._given_up: int | None = None  # the whole view's tops when a zoom that read worse was given up

    def after(self, observation: Observation) -> View | None:
        """The view to turn to (``self.view`` from now on) after a frame of the present view showed
        ``observation``; None to stay."""
        tops = np.array([tile.px for tile in observation.tiles if tile.px is not None]).reshape(-1, 2)
        if observation.occluded:
            return None  # a hand: wait until the view is clear
        self._empty = 0 if len(tops) else self._empty + 1
        if self.view != WHOLE:
            return self._zoomed_after(tops, observation)
        if self._given_up is not None and len(tops) <= self._given_up:
            return None
        pitch = observed_pitch(observation)
        view = WHOLE if pitch is None else view_for(tops, pitch, self.size)
        if view == WHOLE:
            return None
        self._whole_tops, self._given_up = len(tops), None
        return self._turn(view)

    def _zoomed_after(self, tops: np.ndarray, observation: Observation) -> View | None:
        """Back to the whole view when the tiles are gone, a top nears the edge, or the zoomed view
        has shown far fewer tops than the whole view did for LOST_FRAMES frames (given up until
        the whole view shows more); else None."""
        self._worse = self._worse + 1 if len(tops) < LOST_SHARE * self._whole_tops else 0
        if self._worse >= LOST_FRAMES:
            self._given_up = self._whole_tops
            return self._turn(WHOLE)
        turn = self._empty >= EMPTY_FRAMES or self._near_edge(tops, observation)
        return self._turn(WHOLE) if turn else None

    def _turn(self, view: View) -> View:
        self.view, self._empty, self._worse = view, 0, 0
        return view

    def _near_edge(self, tops: np.ndarray, observation: Observation) -> bool:
        """Whether a top lies within EDGE pitches of a side of the view that the whole view
        reaches beyond (at one of the whole view's own sides, opening up would show no more)."""
        pitch = observed_pitch(observation)
        if not len(tops) or pitch is None:
            return False
        size, start = np.array(self.size, float), np.array([self.view.x, self.view.y])
        room_before, room_after = start > 0.5, start + size / self.view.zoom < size - 0.5
        edge = EDGE * pitch
        return bool(((tops < edge).any(axis=0) & room_before).any() or
                    ((tops > size - edge).any(axis=0) & room_after).any())
