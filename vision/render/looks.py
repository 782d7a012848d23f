"""How one set of tiles looks: face colours, glyph size, ink, line weight, painted rim.

A ``Look`` is drawn once per (style, variant) and shared by all 28 tiles of that "set", so one set
is consistent while two variants of a style differ. Variant 0 is each style's plain look; other
variants are drawn from a generator seeded by the style's name and the variant, so they repeat.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, replace

import cv2
import numpy as np

from rules.pieces import Colour

BGR = tuple[int, int, int]
PROCEDURAL = ("a", "b", "a-var", "b-var")
FACE_BGR = {Colour.WHITE: (228, 232, 234), Colour.BLACK: (34, 33, 32)}
PLAIN_INK = {Colour.WHITE: (32, 30, 30), Colour.BLACK: (225, 235, 240)}  # shape-only sets, like Carbon
MONO_BGR = (60, 180, 230)  # every other style's single ink on both faces
PROCEDURAL_SCALE = 0.815  # styles a and b: glyph radius 0.30 of the texture, over the face's apothem
GLYPH_SCALE = (0.55, 0.98)  # the glyph's extent as a fraction of the face's width across flats
RIM_CHANCE = 0.25
OUTLINE_CHANCE = 0.3


@dataclass(frozen=True)
class Look:
    """One set's appearance; ``ink`` is the single colour used when art is recoloured."""

    face: dict[Colour, BGR]
    glyph_scale: float
    # "drawn": the art's own colours; "ink": one colour; "bug-ink": one per creature (procedural: as drawn)
    treatment: str
    ink: dict[Colour, BGR]
    rim: dict[Colour, BGR] | None = None  # a painted line just inside the face's edge
    hue_shift: int = 0  # creature colours turned round the hue circle (OpenCV hue units, 0-179)
    suffix: str = ""  # icon-name suffix picking one of the icon set's weights
    weight: float = 1.0  # procedural line-width factor
    outline: bool = False  # procedural shapes drawn as outlines instead of filled


def hsv_bgr(hue: float, sat: float, val: float) -> BGR:
    """One colour from OpenCV HSV (hue 0-179, saturation and value 0-255) to BGR."""
    pixel = np.array([[[hue, sat, val]]], np.float32).clip(0, [179, 255, 255]).astype(np.uint8)
    return tuple(int(c) for c in cv2.cvtColor(pixel, cv2.COLOR_HSV2BGR)[0, 0])


def plain_look(shape_only: bool) -> Look:
    """Variant 0: ivory and black faces, art as drawn (shape-only sets: black on ivory, ivory on black)."""
    if shape_only:
        return Look(dict(FACE_BGR), 0.8, "ink", dict(PLAIN_INK))
    return Look(dict(FACE_BGR), PROCEDURAL_SCALE, "drawn", {Colour.WHITE: MONO_BGR, Colour.BLACK: MONO_BGR})


def _faces(rng: np.random.Generator) -> dict[Colour, BGR]:
    """Worn ivory/off-white and black faces with a slight tint."""
    ivory = hsv_bgr(rng.uniform(12, 30), rng.uniform(0, 45), rng.uniform(205, 245))
    black = hsv_bgr(rng.uniform(0, 179), rng.uniform(0, 60), rng.uniform(18, 55))
    return {Colour.WHITE: ivory, Colour.BLACK: black}


def _inks(rng: np.random.Generator) -> dict[Colour, BGR]:
    """A dark or saturated ink for ivory faces and a light one for black faces."""
    dark = hsv_bgr(rng.uniform(0, 179), rng.uniform(0, 255), rng.uniform(15, 150))
    light = hsv_bgr(rng.uniform(0, 179), rng.uniform(0, 110), rng.uniform(200, 255))
    return {Colour.WHITE: dark, Colour.BLACK: light}


def _rim(rng: np.random.Generator) -> dict[Colour, BGR] | None:
    """Sometimes a painted rim: a mid-tone colour on ivory faces, a light one on black faces."""
    if rng.random() >= RIM_CHANCE:
        return None
    hue = rng.uniform(0, 179)
    return {Colour.WHITE: hsv_bgr(hue, rng.uniform(80, 220), rng.uniform(120, 200)),
            Colour.BLACK: hsv_bgr(hue, rng.uniform(0, 120), rng.uniform(190, 255))}


def style_look(style: str, variant: int, shape_only: bool = False, suffixes: tuple[str, ...] = ("",)) -> Look:
    """The look of one set of ``style``: plain for variant 0 and for styles ``a``/``b``, else random.

    ``shape_only`` sets (single-colour icons) are always recoloured; ``suffixes`` are the icon
    set's line weights to choose from.
    """
    if variant == 0 or style in ("a", "b"):
        return plain_look(shape_only)
    rng = np.random.default_rng([zlib.crc32(style.encode()), variant])
    treatments = ("ink", "bug-ink") if shape_only else ("drawn", "drawn", "ink", "bug-ink")
    look = Look(_faces(rng), float(rng.uniform(*GLYPH_SCALE)), str(rng.choice(treatments)), _inks(rng), _rim(rng),
                int(rng.integers(0, 180)), str(rng.choice(suffixes)))
    if style in PROCEDURAL:
        look = replace(look, weight=float(rng.uniform(0.6, 1.8)), outline=bool(rng.random() < OUTLINE_CHANCE))
    return look
