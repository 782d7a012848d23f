"""Tops washed out by glare: a lamp's reflection that turns a top's middle to the sensor's white.

The print under such glare cannot be seen, so the top's creature (and often its colour: a glossy
black tile's reflection is as white as an ivory one's) is a guess. In the wide world (six
training styles, 150 frames each, one photo enrolled) the tops ``glared`` finds were 0.6-3.1 % of
the tops, in 5-10 % of the frames, and were read wrong 33-77 % of the time against 0.4-5.1 % for
the rest: 13-63 % of all wrong reads by style. Only the person at the table can move the lamp, so
the live page says so while it lasts; enrollment learns no creature from such a top where the
photos show another of it.
"""

from __future__ import annotations

import numpy as np

from rules.observation import Observation
from vision.features import CANON_PITCH, CROP_PX
from vision.tile_size import observed_pitch

WHITE = 245  # every channel at least this: the sensor's white
WHITE_SHARE = 0.5  # of a top's middle, for glare ...
FLAT = 4.0  # ... with a grey spread under this: no print shows through it
MIDDLE = 1 / 6  # the middle's half-width, in pitches


def glared(frame: np.ndarray, observation: Observation) -> list[tuple[float, float]]:
    """Where (frame pixels) the tops of ``observation`` lie under glare in the BGR ``frame``: the
    middle of the top mostly at the sensor's white, and flat (no print showing)."""
    pitch = observed_pitch(observation)
    if pitch is None:
        return []
    half = max(1, round(MIDDLE * pitch))
    found = []
    for tile in observation.tiles:
        if tile.px is None:
            continue
        x, y = round(tile.px[0]), round(tile.px[1])
        middle = frame[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]
        if middle.size and _washed(middle):
            found.append(tile.px)
    return found


def washed_crop(crop: np.ndarray) -> bool:
    """Whether the rectified crop of one top (``vision.features``) shows its middle under glare."""
    half, centre = round(MIDDLE * CANON_PITCH), CROP_PX // 2
    return _washed(crop[centre - half:centre + half + 1, centre - half:centre + half + 1])


def _washed(middle: np.ndarray) -> bool:
    white = (middle.min(axis=2) >= WHITE).mean() >= WHITE_SHARE
    return bool(white and middle.mean(axis=2).std() < FLAT)
