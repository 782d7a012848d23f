"""How the table looked where it lay bare: a spot that still looks just so holds no tile.

A tile put down changes the picture where it lies. So a top the tile map finds at a spot that
looks as it did when it was last seen bare (in colour: an ivory face on cream wood can match the
wood's grey) is the table's print or grain taken for a tile, not a tile. A spot counts as seen
bare only where the tile map was sure of it: no top near, no centre heat, table all round,
nothing moving, nothing over the hive; or, where a new game is about to begin on it (the table
then holds no tile: ``seen_bare``), anywhere, so that a mat's logo the map takes for tiles is not
the game's first tile; or where the game record has no piece for a top the map found
(``print_at``: the table seen through a hole of the hive, a cloth's flower beside a move). Spots
never seen bare, and spots whose light has changed since, prove nothing either way. The other
way round, a still spot that a hand has just passed over since it lay bare, and that now looks
otherwise, holds something put there: a tile the map does not see (``arrived``). A lamp switched
on, with no hand, puts nothing anywhere; nor does a camera moved.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.motion import SPOT_REACH, spot_colours, unchanged
from vision.tilemaps import STRIDE, Peak, TileMaps, cell_of, disc_kernel

CLEARANCE = 0.7  # pitches from every top's centre beyond which a map cell counts as bare table
QUIET_HEAT = 0.1  # centre heat under which (all round a cell) the tile map sees no top there
SURE_TABLE = 0.8  # table probability over which (all round a cell) the tile map sees table
CHANGE_LEVEL = 20  # levels (in some channel) by which a cell must differ from its bare look to count as changed ...
CHANGED_SHARE = 0.45  # ... in at least this share of a spot's cells (a white Pillbug half on a mat's blue logo, its
# print much the mat's colour: 0.50; a dark grey Ant on a dark purple mat: 0.57; a bay of the hive, its wood under the
# shade and sides of the tiles round it, also 0.57: ``vision.doubts.arrivals`` looks at no bay)
KNOWN_SHARE = 0.8  # share of a spot's cells that must have been seen bare for its change to tell
HAND_FRAMES = 20  # frames after a hand during which what arrived where it passed is looked for (a resumed game's
# tiles, laid with no hand in view, changed spots a hand had passed over long before)
AFTER_HAND = 5  # frames after one with a hand by the hive whose moved cells count as handled too (the hand that
# laid a tile, gone on the next frame, had not covered its spot: the tile showed as the hand left)
NEW_VIEW = 0.5  # share of the view moving at once that makes a new one (the camera moved, the light changed)


class BareTable:
    """The colour of each motion map cell when it last lay bare (NaN: never seen bare), and when
    (in frames) a hand last moved over it since."""

    def __init__(self) -> None:
        self._colour: np.ndarray | None = None
        self._handled: np.ndarray | None = None
        self._frame = 0
        self._hand = -np.inf  # the last frame with a hand by the hive

    def learn(self, colour: np.ndarray, maps: TileMaps, moved: np.ndarray, tops: list[np.ndarray],
              pitch: float) -> None:
        """Remember the cells of ``colour`` (the motion map's, rows x cols x BGR) that lie bare: at
        least CLEARANCE pitches from every top (centres in frame pixels), unmoved, and sure table
        on ``maps``."""
        known = self._known(colour)
        kernel = disc_kernel(CLEARANCE * pitch / STRIDE)
        bare = ((cv2.dilate(maps.heat, kernel) < QUIET_HEAT) & (cv2.erode(maps.classes[0], kernel) > SURE_TABLE)
                & ~moved & ~_near(moved.shape, tops, pitch))
        known[bare] = colour[bare]
        self._handled_map(bare.shape)[bare] = -np.inf

    def seen_bare(self, colour: np.ndarray, where: np.ndarray, tiles: Sequence[tuple[float, float]] = (),
                  pitch: float = 0.0) -> None:
        """Remember the cells of ``colour`` (the motion map's) ``where`` the table is known to lie
        bare (a new game about to begin on it), whatever the tile map makes of them, but those
        within CLEARANCE pitches of ``tiles`` (frame pixels: tiles not cleared away yet)."""
        bare = where & ~_near(where.shape, tiles, pitch)
        self._known(colour)[bare] = colour[bare]
        self._handled_map(bare.shape)[bare] = -np.inf

    def print_at(self, colour: np.ndarray, centres: Sequence, pitch: float) -> None:
        """Remember the spots of ``colour`` (the motion map's) round ``centres`` (frame pixels,
        tiles ``pitch`` apart) as the table's own look: tops the map found there are its print."""
        self.seen_bare(colour, _near(colour.shape, centres, pitch, SPOT_REACH))

    def take_in(self, moved: np.ndarray) -> None:
        """Take in which cells of a frame ``moved`` since the last: where NEW_VIEW of them did, the
        camera moved or the light changed, and the table as it lay bare is seen no more (a striped
        cloth's dark stripe, filmed from elsewhere, stood where a pale one lay and looked like a
        black tile); within AFTER_HAND frames of a hand by the hive, they count as ``handled``."""
        self._frame += 1
        if moved.mean() > NEW_VIEW:
            self._colour, self._handled = None, None
        elif self._frame - self._hand <= AFTER_HAND:
            self._handled_map(moved.shape)[moved] = self._frame

    def handled(self, moved: np.ndarray) -> None:
        """Take in a frame with a hand by the hive: something may have been put where it ``moved``."""
        self._handled_map(moved.shape)[moved] = self._frame
        self._hand = self._frame

    def kept(self, centres: Sequence, pitch: float, shape: tuple[int, ...]) -> None:
        """Keep looking at the spots round ``centres`` (frame pixels, tiles ``pitch`` apart) as
        just handled: what arrived there is still there (found so on this frame)."""
        self._handled_map(shape)[_near(shape, centres, pitch)] = self._frame

    def _handled_map(self, shape: tuple[int, ...]) -> np.ndarray:
        """The frame each cell was last handled on since it was last seen bare (-inf: not), for a
        map of ``shape``."""
        if self._handled is None or self._handled.shape != shape:
            self._handled = np.full(shape, -np.inf)
        return self._handled

    def _known(self, colour: np.ndarray) -> np.ndarray:
        """The bare colours remembered, for a colour map shaped as ``colour`` (NaN where never seen:
        all of it when the shape is new)."""
        if self._colour is None or self._colour.shape != colour.shape:
            self._colour = np.full(colour.shape, np.nan)
        return self._colour

    def shows_bare(self, peak: Peak, colour: np.ndarray) -> bool:
        """True if the cells round ``peak`` look as they did when last seen bare (``motion.unchanged``)."""
        if self._colour is None or self._colour.shape != colour.shape:
            return False
        return unchanged(spot_colours(colour, peak), spot_colours(self._colour, peak))

    def arrived(self, colour: np.ndarray, moved: np.ndarray, pitch: float) -> np.ndarray:
        """(rows, cols) bool: the map cells whose spot (SPOT_REACH of tiles ``pitch`` pixels apart
        round them) lies still (no cell of ``moved`` in it), was seen bare (KNOWN_SHARE of its
        cells) and now looks otherwise where a hand has passed since: at least CHANGED_SHARE of
        those cells ``handled`` within HAND_FRAMES frames (or ``kept``) and off their bare colour
        (``colour``, the motion map's) by more than CHANGE_LEVEL."""
        if self._colour is None or self._colour.shape != colour.shape:
            return np.zeros(moved.shape, bool)
        known = ~np.isnan(self._colour).any(axis=2)
        with np.errstate(invalid="ignore"):
            changed = np.abs(colour - self._colour).max(axis=2) > CHANGE_LEVEL
        spot = disc_kernel(2 * SPOT_REACH * pitch / STRIDE)
        mean = spot.astype(np.float32) / spot.sum()
        known_share = cv2.filter2D(known.astype(np.float32), -1, mean, borderType=cv2.BORDER_CONSTANT)
        changed &= known & (self._handled_map(moved.shape) >= self._frame - HAND_FRAMES)
        changed_share = cv2.filter2D(changed.astype(np.float32), -1, mean, borderType=cv2.BORDER_CONSTANT)
        still = cv2.dilate(moved.astype(np.uint8), spot) == 0
        return still & (known_share >= KNOWN_SHARE) & (changed_share >= CHANGED_SHARE * np.maximum(known_share, 1e-6))


def _near(shape: tuple[int, ...], centres: Sequence, pitch: float, reach: float = CLEARANCE) -> np.ndarray:
    """The map cells (of a map ``shape``) within ``reach`` pitches of any of ``centres`` (frame pixels)."""
    near = np.zeros(shape[:2], np.uint8)
    radius = int(np.ceil(reach * pitch / STRIDE))
    for x, y in np.round(cell_of(np.array(centres, float).reshape(-1, 2))).astype(int):
        cv2.circle(near, (int(x), int(y)), radius, 1, -1)
    return near.astype(bool)
