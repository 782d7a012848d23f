"""Synthetic enrollment photos: a set laid out as a layout says, under random conditions."""

from __future__ import annotations

import numpy as np

from calibration.layout import DEFAULT_LAYOUT, layout_position
from vision.render.scene import random_conditions, render_position


def enrollment_photos(count: int, seed: int, layout: str = DEFAULT_LAYOUT, **conditions) -> list[np.ndarray]:
    """``count`` photos of ``layout`` under random conditions (tiles re-laid each time); keyword
    arguments pin ``Conditions`` fields."""
    rng = np.random.default_rng(seed)
    position = layout_position(layout)
    return [render_position(position, random_conditions(rng, **conditions))[0] for _ in range(count)]
