"""Tile-top artwork drawn by our own code: two procedural styles of creature markings.

Style ``a`` ("naturalist") draws each creature as a little body made of ellipses and legs;
style ``b`` ("emblem") uses unrelated geometric emblems (stars, chevrons, webs...). Both use
each creature's customary colour; ``mono=True`` paints every glyph one colour, like the
Carbon edition, so creatures differ by shape only.

A texture is a square image of one pointy-topped tile top (rim included) plus its mask; the
glyph is turned by ``turn`` sixths of a circle, the way a player may lay a tile.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import cv2
import numpy as np

from rules.pieces import Bug, Colour

TEXTURE_PX = 96
STYLES = ("a", "b")
RIM_FRACTION = 0.075  # bevel width as a fraction of the across-flats size
FACE_BGR = {Colour.WHITE: (228, 232, 234), Colour.BLACK: (34, 33, 32)}
RIM_BGR = {Colour.WHITE: (150, 152, 152), Colour.BLACK: (115, 115, 115)}
SIDE_BGR = {Colour.WHITE: (172, 176, 178), Colour.BLACK: (80, 78, 78)}
BUG_BGR = {
    Bug.QUEEN: (20, 170, 235), Bug.BEETLE: (150, 50, 120), Bug.GRASSHOPPER: (40, 160, 40),
    Bug.SPIDER: (35, 72, 140), Bug.ANT: (200, 100, 20), Bug.MOSQUITO: (140, 140, 140),
    Bug.LADYBUG: (40, 30, 215), Bug.PILLBUG: (150, 150, 20),
}
# style b keeps each creature's customary colour family but uses its own shades
STYLE_B_BGR = {
    Bug.QUEEN: (0, 130, 240), Bug.BEETLE: (170, 40, 170), Bug.GRASSHOPPER: (30, 200, 140),
    Bug.SPIDER: (25, 55, 115), Bug.ANT: (230, 160, 40), Bug.MOSQUITO: (100, 100, 100),
    Bug.LADYBUG: (60, 60, 240), Bug.PILLBUG: (120, 170, 0),
}
MONO_BGR = (60, 180, 230)

Canvas = np.ndarray


def hex_corners(radius: float, angle_deg: float = 0.0) -> np.ndarray:
    """Corners (6, 2) of a pointy-topped hexagon of circumradius ``radius`` about the origin, turned."""
    angles = np.radians(-90 + 60 * np.arange(6) + angle_deg)
    return radius * np.stack([np.cos(angles), np.sin(angles)], axis=1)


def _pts(points: list[tuple[float, float]], centre: float, unit: float, turn: float) -> np.ndarray:
    """Glyph-space points (unit = glyph radius, y down) to canvas pixels, rotated by ``turn`` radians."""
    p = np.asarray(points, np.float64)
    c, s = np.cos(turn), np.sin(turn)
    rotated = p @ np.array([[c, s], [-s, c]])
    return (rotated * unit + centre).astype(np.float64)


class _Pen:
    """Drawing helpers in glyph space: the unit is the glyph radius, (0, 0) the tile centre."""

    def __init__(self, canvas: Canvas, colour: tuple, turn: float) -> None:
        self.canvas, self.colour, self.turn = canvas, colour, turn
        self.centre = canvas.shape[0] / 2
        self.unit = canvas.shape[0] * 0.30

    def _px(self, points: list[tuple[float, float]]) -> np.ndarray:
        return np.round(_pts(points, self.centre, self.unit, self.turn) * 16).astype(np.int32)

    def ellipse(self, x: float, y: float, rx: float, ry: float, angle: float = 0.0, fill: bool = True,
                colour: tuple | None = None) -> None:
        ts = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        a = np.radians(angle)
        pts = [(x + rx * np.cos(t) * np.cos(a) - ry * np.sin(t) * np.sin(a),
                y + rx * np.cos(t) * np.sin(a) + ry * np.sin(t) * np.cos(a)) for t in ts]
        self.poly(pts, fill, colour)

    def poly(self, points: list[tuple[float, float]], fill: bool = True, colour: tuple | None = None,
             width: float = 0.08) -> None:
        px = self._px(points)
        if fill:
            cv2.fillPoly(self.canvas, [px], colour or self.colour, cv2.LINE_AA, shift=4)
        else:
            cv2.polylines(self.canvas, [px], True, colour or self.colour, max(1, round(width * self.unit)),
                          cv2.LINE_AA, shift=4)

    def line(self, points: list[tuple[float, float]], width: float = 0.08, colour: tuple | None = None) -> None:
        cv2.polylines(self.canvas, [self._px(points)], False, colour or self.colour,
                      max(1, round(width * self.unit)), cv2.LINE_AA, shift=4)


def _legs(pen: _Pen, xs: list[float], spread: float, bend: float, width: float = 0.07) -> None:
    for x in xs:
        for side in (-1, 1):
            pen.line([(x, 0.0), (x + bend * 0.5, side * spread * 0.6), (x + bend, side * spread)], width)


# ----- style a: naturalist bodies (head points up the tile, y negative) -----

def _a_queen(pen: _Pen) -> None:
    pen.ellipse(-0.55, -0.25, 0.45, 0.22, -30), pen.ellipse(0.55, -0.25, 0.45, 0.22, 30)
    pen.ellipse(0, 0.25, 0.28, 0.55), pen.ellipse(0, -0.45, 0.2, 0.2)


def _a_beetle(pen: _Pen) -> None:
    pen.ellipse(0, 0.1, 0.6, 0.75), pen.ellipse(0, -0.75, 0.28, 0.2)
    pen.line([(0, -0.55), (0, 0.8)], 0.06, (255, 255, 255))


def _a_grasshopper(pen: _Pen) -> None:
    pen.ellipse(0, 0, 0.18, 0.8)
    for side in (-1, 1):
        pen.line([(0, -0.1), (side * 0.7, 0.25), (side * 0.35, 0.95)], 0.09)
    pen.line([(0, -0.8), (-0.35, -1.0)], 0.05), pen.line([(0, -0.8), (0.35, -1.0)], 0.05)


def _a_spider(pen: _Pen) -> None:
    pen.ellipse(0, 0.25, 0.35, 0.42), pen.ellipse(0, -0.3, 0.22, 0.2)
    for i, angle in enumerate((-60, -25, 15, 50)):
        for side in (-1, 1):
            a = np.radians(angle)
            pen.line([(0, -0.2), (side * 0.6 * np.cos(a), -0.2 + 0.6 * np.sin(a) - 0.2),
                      (side * 0.95 * np.cos(a), 0.55 * np.sin(a) + 0.35)], 0.06)


def _a_ant(pen: _Pen) -> None:
    pen.ellipse(0, -0.6, 0.2, 0.2), pen.ellipse(0, -0.1, 0.16, 0.22), pen.ellipse(0, 0.5, 0.3, 0.4)
    _legs(_Rot90(pen), [-0.35, -0.1, 0.15], 0.75, 0.25)


def _a_mosquito(pen: _Pen) -> None:
    pen.ellipse(0, 0.15, 0.1, 0.7)
    pen.ellipse(-0.45, -0.2, 0.4, 0.14, -20, fill=False), pen.ellipse(0.45, -0.2, 0.4, 0.14, 20, fill=False)
    pen.line([(0, -0.5), (0, -1.05)], 0.05)
    _legs(_Rot90(pen), [0.1, 0.35], 0.9, 0.35, 0.04)


def _a_ladybug(pen: _Pen) -> None:
    pen.ellipse(0, 0.1, 0.75, 0.75), pen.ellipse(0, -0.72, 0.3, 0.18, colour=(20, 20, 20))
    pen.line([(0, -0.6), (0, 0.85)], 0.06, (20, 20, 20))
    for x, y in ((-0.4, -0.15), (0.4, -0.15), (-0.35, 0.45), (0.35, 0.45)):
        pen.ellipse(x, y, 0.13, 0.13, colour=(20, 20, 20))


def _a_pillbug(pen: _Pen) -> None:
    pen.ellipse(0, 0, 0.55, 0.85)
    for y in (-0.45, -0.15, 0.15, 0.45):
        pen.line([(-0.5, y), (0.5, y)], 0.07, (255, 255, 255))


class _Rot90(_Pen):
    """A pen whose x axis runs along the body (legs drawn sideways)."""

    def __init__(self, pen: _Pen) -> None:
        super().__init__(pen.canvas, pen.colour, pen.turn + np.pi / 2)


# ----- style b: geometric emblems -----

def _b_queen(pen: _Pen) -> None:
    outer = [(0.95 * np.cos(np.radians(-90 + 36 * k)) * (1 if k % 2 == 0 else 0.45),
              0.95 * np.sin(np.radians(-90 + 36 * k)) * (1 if k % 2 == 0 else 0.45)) for k in range(10)]
    pen.poly(outer)


def _b_beetle(pen: _Pen) -> None:
    pen.poly([(-0.55, -0.2), (0.55, -0.2), (0.55, 0.7), (-0.55, 0.7)])
    pen.poly([(-0.55, -0.2), (-0.75, -0.9), (-0.2, -0.2)]), pen.poly([(0.55, -0.2), (0.75, -0.9), (0.2, -0.2)])


def _b_grasshopper(pen: _Pen) -> None:
    for y in (-0.55, 0.05, 0.65):
        pen.line([(-0.8, y + 0.3), (0, y - 0.3), (0.8, y + 0.3)], 0.16)


def _b_spider(pen: _Pen) -> None:
    for radius in (0.35, 0.8):
        pen.poly([tuple(c) for c in hex_corners(radius, 30)], fill=False, width=0.07)
    for c in hex_corners(0.95, 30):
        pen.line([(0, 0), tuple(c)], 0.07)


def _b_ant(pen: _Pen) -> None:
    for cx, cy in ((0, -0.5), (-0.5, 0.4), (0.5, 0.4)):
        pen.poly([(cx, cy - 0.38), (cx + 0.36, cy + 0.26), (cx - 0.36, cy + 0.26)])


def _b_mosquito(pen: _Pen) -> None:
    pen.poly([(0, -0.95), (0.55, 0), (0, 0.95), (-0.55, 0)], fill=False, width=0.1)
    pen.line([(-0.7, -0.7), (0.7, 0.7)], 0.1), pen.line([(0.7, -0.7), (-0.7, 0.7)], 0.1)


def _b_ladybug(pen: _Pen) -> None:
    pen.ellipse(0, 0, 0.8, 0.8, fill=False, colour=None)
    pen.ellipse(0, 0, 0.62, 0.62, fill=False)
    for k in range(5):
        a = np.radians(-90 + 72 * k)
        pen.ellipse(0.35 * np.cos(a), 0.35 * np.sin(a), 0.14, 0.14)


def _b_pillbug(pen: _Pen) -> None:
    for k, radius in enumerate((0.35, 0.6, 0.85)):
        arc = [(radius * np.cos(t), radius * np.sin(t) + 0.3) for t in np.linspace(np.pi, 2 * np.pi, 12)]
        pen.line(arc, 0.13)


GLYPHS: dict[str, dict[Bug, Callable[[_Pen], None]]] = {
    "a": {Bug.QUEEN: _a_queen, Bug.BEETLE: _a_beetle, Bug.GRASSHOPPER: _a_grasshopper, Bug.SPIDER: _a_spider,
          Bug.ANT: _a_ant, Bug.MOSQUITO: _a_mosquito, Bug.LADYBUG: _a_ladybug, Bug.PILLBUG: _a_pillbug},
    "b": {Bug.QUEEN: _b_queen, Bug.BEETLE: _b_beetle, Bug.GRASSHOPPER: _b_grasshopper, Bug.SPIDER: _b_spider,
          Bug.ANT: _b_ant, Bug.MOSQUITO: _b_mosquito, Bug.LADYBUG: _b_ladybug, Bug.PILLBUG: _b_pillbug},
}


@lru_cache(maxsize=512)
def tile_texture(style: str, colour: Colour, bug: Bug, turn: int, mono: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """(BGR image, 0/255 mask) of one tile top; its corners are ``hex_corners(TEXTURE_PX / 2)`` about the centre."""
    if style not in GLYPHS:
        raise ValueError(f"unknown art style {style!r}; choose one of {', '.join(STYLES)}")
    size = TEXTURE_PX
    image = np.zeros((size, size, 3), np.uint8)
    mask = np.zeros((size, size), np.uint8)
    outer = np.round((hex_corners(size / 2) + size / 2) * 16).astype(np.int32)
    inner = np.round((hex_corners(size / 2 * (1 - 2 * RIM_FRACTION)) + size / 2) * 16).astype(np.int32)
    cv2.fillPoly(mask, [outer], 255, cv2.LINE_AA, shift=4)
    cv2.fillPoly(image, [outer], RIM_BGR[colour], cv2.LINE_AA, shift=4)
    cv2.fillPoly(image, [inner], FACE_BGR[colour], cv2.LINE_AA, shift=4)
    ink = MONO_BGR if mono else (STYLE_B_BGR if style == "b" else BUG_BGR)[bug]
    GLYPHS[style][bug](_Pen(image, ink, np.radians(60 * turn)))
    return image, mask
