"""Where to look again for tiles too small to see at the tile map's own scale.

From far away or through a wide lens, a tile can be a dozen pixels across: a quarter-scale map
finds a large hive of them, faintly, but not the first few tiles of a game. So a frame in which
nothing looks like a tile looks again, larger (``tilemaps.Hint``): round the small tiles the last
frames showed, or over the whole frame once the scene has moved and come to rest again (a hand
may have laid the first tile), and on the first frame of a scene. A bare table that keeps still
costs nothing more.
"""

from __future__ import annotations

import numpy as np

from vision.tilemaps import SMALL_PITCH, Hint, Peak, box_round, median_pitch


class TinyTiles:
    """The hint for the next frame of one scene, from what this one showed."""

    def __init__(self) -> None:
        self.hint: Hint | None = Hint()  # a new scene: look everywhere if nothing shows at once
        self._rest_due = False

    def shows_all(self, found: list[Peak]) -> bool:
        """Whether the frame now looked at, whose look ``found`` these tops, showed every tile:
        tops were found, or nothing was anywhere at ``hint`` (the whole frame, larger). A frame
        whose own look shows nothing may hold tiles too small for it: its table is not known bare."""
        return bool(found) or (self.hint is not None and self.hint.box is None)

    def saw(self, found: list[Peak], moved: np.ndarray, frame_shape: tuple[int, ...]) -> None:
        """Take in one frame: the tops its look ``found`` (held back or not) and the map cells
        that moved since the frame before."""
        if found:
            pitch = median_pitch(found)
            small = pitch < SMALL_PITCH
            self.hint = Hint(box_round(np.array([p.centre for p in found]), frame_shape), pitch) if small else None
            self._rest_due = False
        elif moved.any():  # a hand: go on looking where small tiles were, everywhere once it is gone
            self._rest_due = True
            if self.hint is not None and self.hint.box is None:
                self.hint = None
        else:
            self.hint = Hint() if self._rest_due else None
            self._rest_due = False
