"""How the table looked where it lay bare: a spot that still looks just so holds no tile.

A tile put down changes the picture where it lies. So a top the tile map finds at a spot that
looks as it did when it was last seen bare (in colour: an ivory face on cream wood can match the
wood's grey) is the table's print or grain taken for a tile, not a tile. A spot counts as seen
bare only where the tile map was sure of it: no top near, no centre heat, table all round,
nothing moving, nothing over the hive; or, where a new game is about to begin on it (the table
then holds no tile: ``seen_bare``), anywhere, so that a mat's logo the map takes for tiles is not
the game's first tile. Spots never seen bare, and spots whose light has changed since, prove
nothing either way.
"""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

from vision.motion import spot_colours, unchanged
from vision.tilemaps import STRIDE, Peak, TileMaps, cell_of, disc_kernel

CLEARANCE = 0.7  # pitches from every top's centre beyond which a map cell counts as bare table
QUIET_HEAT = 0.1  # centre heat under which (all round a cell) the tile map sees no top there
SURE_TABLE = 0.8  # table probability over which (all round a cell) the tile map sees table


class BareTable:
    """The colour of each motion map cell when it last lay bare (NaN: never seen bare)."""

    def __init__(self) -> None:
        self._colour: np.ndarray | None = None

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

    def seen_bare(self, colour: np.ndarray, where: np.ndarray, tiles: Sequence[tuple[float, float]] = (),
                  pitch: float = 0.0) -> None:
        """Remember the cells of ``colour`` (the motion map's) ``where`` the table is known to lie
        bare (a new game about to begin on it), whatever the tile map makes of them, but those
        within CLEARANCE pitches of ``tiles`` (frame pixels: tiles not cleared away yet)."""
        bare = where & ~_near(where.shape, tiles, pitch)
        self._known(colour)[bare] = colour[bare]

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


def _near(shape: tuple[int, ...], centres: Sequence, pitch: float) -> np.ndarray:
    """The map cells (of a map ``shape``) within CLEARANCE pitches of any of ``centres`` (frame pixels)."""
    near = np.zeros(shape[:2], np.uint8)
    radius = int(np.ceil(CLEARANCE * pitch / STRIDE))
    for x, y in np.round(cell_of(np.array(centres, float).reshape(-1, 2))).astype(int):
        cv2.circle(near, (int(x), int(y)), radius, 1, -1)
    return near.astype(bool)
