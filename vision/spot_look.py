"""How a top's spot looked when it was last seen still, and whether it looks so again.

A top the tile map loses while a hand passes by is remembered by the picture round its centre
(``vision.still``). A bumped table, or a hand leaving, can jolt the whole hive a pixel or two;
that changes most of a spot's cells along the edges of its print, so the picture is looked
for again within a few pixels of where it was, not compared where it was alone. A tile taken
away shows the table there instead, which no small shift makes look as the tile did.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.glare import WHITE_SHARE, white_share
from vision.motion import MOTION_LEVEL
from vision.tilemaps import Peak

LOOK_REACH = 0.3  # pitches: half the side of the square of picture kept round a top's centre
NUDGE = 0.15  # pitches: how far the picture round a top may have shifted and still be that top
LOOK_LEVEL = 14.0  # grey levels: root mean square difference under which a spot looks as it did (a
# tile's own spot, the hive bumped up to 3 mm and the noise drawn afresh, stayed under it 98.5 % of the time;
# another creature of its colour there, a Beetle climbed onto it, or the table where it lay, never did; at 24
# an ivory tile's spot on pale wood, the tile taken away, still passed)
TIE = 0.01  # squared grey levels added per squared pixel of shift: of pictures alike, the least shifted wins


@dataclass(frozen=True)
class SpotLook:
    """The picture round a top's centre on a still frame (smoothed BGR, float32)."""

    peak: Peak
    picture: np.ndarray


def spot_look(frame: np.ndarray, peak: Peak) -> SpotLook:
    """The look of ``peak``'s spot on ``frame`` (BGR)."""
    return SpotLook(peak, _picture(frame, peak.centre, _reach(peak)))


def found_again(frame: np.ndarray, look: SpotLook) -> np.ndarray | None:
    """Where (frame pixels) ``look``'s picture lies again on ``frame``, within NUDGE pitches of
    where it lay, if it looks as it did there: alike within LOOK_LEVEL, and its mean colour within
    ``motion.MOTION_LEVEL`` in each channel (an ivory face and pale wood differ mostly in tint),
    else None. A look mostly at the sensor's white (``glare.WHITE_SHARE``) is never found again."""
    if white_share(look.picture) >= WHITE_SHARE:
        return None  # glare: a washed-out top and the table washed out where it lay look alike
    reach, nudge = _reach(look.peak), int(np.ceil(NUDGE * look.peak.pitch))
    around = _picture(frame, look.peak.centre, reach + nudge)
    squares = cv2.matchTemplate(around, look.picture, cv2.TM_SQDIFF) / look.picture.size
    offsets = np.arange(-nudge, nudge + 1) ** 2
    _, _, (x, y), _ = cv2.minMaxLoc(squares + TIE * (offsets[:, None] + offsets[None]))  # the nearest of equals
    side = look.picture.shape[0]
    tint = np.abs((around[y:y + side, x:x + side] - look.picture).mean(axis=(0, 1))).max()
    if np.sqrt(max(float(squares[y, x]), 0.0)) > LOOK_LEVEL or tint > MOTION_LEVEL:
        return None
    return look.peak.centre + np.array([x - nudge, y - nudge], float)


def _reach(peak: Peak) -> int:
    """Half the side of a spot's square of picture, in pixels."""
    return max(2, int(round(LOOK_REACH * peak.pitch)))


def _picture(frame: np.ndarray, centre: np.ndarray, reach: int) -> np.ndarray:
    """The square of ``frame`` 2 * reach + 1 pixels wide round ``centre``, smoothed over 3x3 pixels
    against sensor noise (the frame's edge repeated beyond it)."""
    side = 2 * reach + 3
    square = cv2.getRectSubPix(frame, (side, side), (float(centre[0]), float(centre[1])))
    return cv2.GaussianBlur(square, (3, 3), 0)[1:-1, 1:-1].astype(np.float32)
