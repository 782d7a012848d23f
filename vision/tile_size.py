"""How large the tiles look, and how near to bring the camera when they look too small.

Tiles far off or under a wide lens show little of their creature: in the wide-world benchmark
(one photo enrolled, 200 frames of each of 8 styles), tops under 20 pixels apart were read right
71-95 % of the time (by style), from 30 pixels on 91-99 %, and under 20 pixels a tenth or more
of the tiles were missed. The live page warns of a view whose tiles lie under ``READABLE_PITCH``
apart; enrollment asks for larger ones (``SHARP_PITCH``).
"""

from __future__ import annotations

import statistics

import numpy as np

from rules.hexgrid import neighbours
from rules.observation import Observation

READABLE_PITCH = 20.0  # pixels between tile centres, below which the tops show too little to read
SHARP_PITCH = 28.0  # pixels between tile centres from which a top's print shows sharp (smaller ones are a blur)
SPARE = 0.9  # a camera too far off is asked to come this much nearer than just near enough


def nearer(pitch: float, wanted: float) -> float:
    """The share of its present distance a camera seeing tiles ``pitch`` pixels apart should come
    to, to see them ``wanted`` pixels apart, with a tenth to spare (e.g. 0.7: 30 % closer)."""
    return SPARE * pitch / wanted


def closer_advice(pitch: float, wanted: float) -> str:
    """What to tell the user whose tiles lie ``pitch`` pixels apart where ``wanted`` are needed."""
    return (f"bring the camera to about {100 * nearer(pitch, wanted):.0f} % of its distance from the pieces, "
            "or use the normal lens rather than the wide one")


def observed_pitch(observation: Observation) -> float | None:
    """The median distance in frame pixels between the tops of neighbouring cells (None if no two
    tops seen are neighbours)."""
    at = {(tile.q, tile.r): np.asarray(tile.px, float) for tile in observation.tiles if tile.px is not None}
    spans = [float(np.linalg.norm(at[cell] - at[other])) for cell in at for other in neighbours(cell)
             if other in at and other > cell]
    return statistics.median(spans) if spans else None
