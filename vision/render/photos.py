"""Synthetic enrollment photos: a set laid out as a layout says, under random conditions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.layout import DEFAULT_LAYOUT, layout_position
from vision.enroll import TooFar, enroll
from vision.profile import CreatureProfile
from vision.render.scene import Conditions, random_conditions, render_position

RAISE = 1.2  # the camera goes this much higher each time the layout does not fit in the view


def enrollment_photos(count: int, seed: int, layout: str = DEFAULT_LAYOUT, **conditions) -> list[np.ndarray]:
    """``count`` photos of ``layout`` under random conditions (tiles re-laid each time); keyword
    arguments pin ``Conditions`` fields."""
    rng = np.random.default_rng(seed)
    position = layout_position(layout)
    return [render_position(position, random_conditions(rng, **conditions))[0] for _ in range(count)]


def framed_photo(layout: str, conditions: Conditions, tries: int = 8) -> np.ndarray:
    """A photo of ``layout`` with the whole layout in view, as a user frames it: the camera raised
    from its drawn height (RAISE each try) until no tile is cut off or out of the frame."""
    position = layout_position(layout)
    for _ in range(tries):
        photo, truth = render_position(position, conditions)
        if not truth.outside and not any(t.cut for t in truth.tiles):
            break
        conditions = replace(conditions, height_mm=conditions.height_mm * RAISE)
    return photo


def enrolled_as_told(layout: str, conditions: Conditions) -> CreatureProfile:
    """The set enrolled from one framed photo of ``layout``, as a user does it: a photo whose tiles
    hivecam finds too small is taken once more, the camera as near as the error asks."""
    try:
        return enroll([framed_photo(layout, conditions)], layout)
    except TooFar as exc:
        nearer = replace(conditions, height_mm=conditions.height_mm * exc.nearer)
        return enroll([framed_photo(layout, nearer)], layout)
