"""Synthetic enrollment photos: a set laid out as a layout says, under random conditions."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.layout import DEFAULT_LAYOUT, layout_position, parse_layout
from vision.enroll import Photo, TooFar, enroll
from vision.glare import DARKER
from vision.profile import CreatureProfile
from vision.render.scene import Conditions, random_conditions, render_position

RAISE = 1.2  # the camera goes this much higher each time the layout does not fit in the view


def enrollment_photos(count: int, seed: int, layout: str = DEFAULT_LAYOUT, **conditions) -> list[np.ndarray]:
    """``count`` photos of ``layout`` under random conditions (tiles re-laid each time); keyword
    arguments pin ``Conditions`` fields."""
    rng = np.random.default_rng(seed)
    position = layout_position(layout)
    return [render_position(position, random_conditions(rng, **conditions))[0] for _ in range(count)]


def framed_photo(layout: str, conditions: Conditions, tries: int = 8) -> Photo:
    """A photo of ``layout`` with the whole layout in view, as a user frames it: the camera raised
    from its drawn height (RAISE each try) until no tile is cut off or out of the frame; with the
    same view taken darker, as a camera whose exposure can be set gives it (``vision.glare``)."""
    position = layout_position(layout)
    for _ in range(tries):
        photo, truth = render_position(position, conditions)
        if not truth.outside and not any(t.cut for t in truth.tiles):
            break
        conditions = replace(conditions, height_mm=conditions.height_mm * RAISE)
    return Photo(photo, render_position(position, replace(conditions, exposure=DARKER))[0])


def enrolled_as_told(layout: str, conditions: Conditions, photos: int = 1) -> tuple[CreatureProfile, Conditions]:
    """The set enrolled from ``photos`` framed photos of ``layout``, as a user does it: each photo
    after the first shows the block turned half round from the one before (as the calibration page
    asks: glare and blur then fall on other tops), and photos whose tiles hivecam finds too small
    are taken once more, the camera as near as the error asks. Returns the profile and the
    conditions the camera was left in (``conditions``, or nearer as asked)."""
    try:
        return _enrolled(layout, conditions, photos), conditions
    except TooFar as exc:
        nearer = replace(conditions, height_mm=conditions.height_mm * exc.nearer)
        return _enrolled(layout, nearer, photos), nearer


def _enrolled(layout: str, conditions: Conditions, photos: int) -> CreatureProfile:
    laid = [half_turned(layout) if k % 2 else layout for k in range(photos)]
    return enroll([framed_photo(block, conditions) for block in laid], layout)


def half_turned(layout: str) -> str:
    """``layout`` (text) with every cell turned half round about the origin: the block as it lies
    after the user turns it, which the same layout text still describes."""
    return "\n".join(f"{-q} {-r} {piece.name}" for (q, r), piece in parse_layout(layout).items())
