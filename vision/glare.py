"""Tops washed out by glare: a lamp's reflection that turns a top's middle to the sensor's white.

The print under such glare cannot be seen, so the top's creature (and often its colour: a glossy
black tile's reflection is as white as an ivory one's) is a guess. In the wide world (six
training styles, 150 frames each, one photo enrolled) the tops ``glared`` finds were 0.6-3.1 % of
the tops, in 5-10 % of the frames, and were read wrong 33-77 % of the time against 0.4-5.1 % for
the rest: 13-63 % of all wrong reads by style. The reflection adds light to the print rather than
hiding it: only the sensor's white clips it. So a camera whose exposure can be set takes one
frame of the still view DARKER where tops show no print, or where part of a top's middle lies
at the sensor's white (``clipped``: glare that dims the print but clips some of it, or a white face
exposed to white; ``Detector.wants_darker``), where the reflection stays under white and the print
shows through it, and the detector reads those tops from it (``Detector.read_darker``); a lamp
so bright that even that frame clips is for the person at the table to move, and the live page
says so while it lasts. Enrollment learns tops showing no print from a darker view of the same
photo where it has one, and no creature from such tops alone (``vision.enroll``).
"""

from __future__ import annotations

import numpy as np

from rules.observation import Observation
from vision.tile_size import observed_pitch

WHITE = 245  # every channel at least this: the sensor's white
WHITE_SHARE = 0.5  # of a top's middle, for glare ...
FLAT = 4.0  # ... with a grey spread under this: no print shows through it
MIDDLE = 1 / 6  # the middle's half-width, in pitches
CLIPPED_REACH = 0.25  # pitches round a top's centre ...
CLIPPED_SHARE = 0.1  # ... of which this share at the sensor's white clips part of its print: a darker frame shows it whole
DARKER = 0.4  # exposure of the darker frame, of the metered one (-1.3 EV): a face at 0.8 of white under
# the brightest glare of one lamp that the wide world draws (1.5 times white) stays under white. Rendered so,
# the washed-out tops of three styles' frames (seed 1) were read right 35 of 37, 34 of 35, 38 of 42 times
# (a-var, twemoji, blind mdi) against 14, 11 and 12 from the frame itself


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
        middle = _square(frame, round(tile.px[0]), round(tile.px[1]), half)
        if middle.size and _washed(middle):
            found.append(tile.px)
    return found


def clipped(frame: np.ndarray, centres: np.ndarray, pitches: np.ndarray) -> np.ndarray:
    """(T,) which tops at ``centres`` (T, 2; frame pixels, ``pitches`` (T,) apart) have part of
    their middle at the sensor's white in the BGR ``frame`` as captured (glare, or a white face
    exposed to white): a print only dimmed is read as it is, but where it is clipped some is lost."""
    out = np.zeros(len(centres), bool)
    for index, ((x, y), pitch) in enumerate(zip(np.round(np.asarray(centres, float)).astype(int), pitches)):
        middle = _square(frame, x, y, max(1, round(CLIPPED_REACH * float(pitch))))
        out[index] = bool(middle.size) and white_share(middle) >= CLIPPED_SHARE
    return out


def _washed(middle: np.ndarray) -> bool:
    return bool(white_share(middle) >= WHITE_SHARE and middle.mean(axis=2).std() < FLAT)


def _square(image: np.ndarray, x: int, y: int, half: int) -> np.ndarray:
    """The pixels of ``image`` within ``half`` pixels of (``x``, ``y``) each way, cut at its edges."""
    return image[max(0, y - half):y + half + 1, max(0, x - half):x + half + 1]


def white_share(middle: np.ndarray) -> float:
    """The share of a BGR patch's pixels at the sensor's white in every channel."""
    return float((middle.min(axis=2) >= WHITE).mean())
