"""Tile-top artwork: two procedural styles of creature markings, their variations, and icon sets.

Style ``a`` ("naturalist") draws each creature as a little body made of ellipses and legs;
style ``b`` ("emblem") uses unrelated geometric emblems (stars, chevrons, webs...). Both use
each creature's customary colour; ``mono=True`` paints every glyph one colour, like the
Carbon edition, so creatures differ by shape only. ``a-var`` and ``b-var`` vary their ink, line
weight, fill and size; the other styles draw third-party icon sets (``vision.render.icons``,
fetched by ``benchmarks/fetch_art.py``). ``variant`` picks one "set" of a style (``looks.Look``).

A texture is a square image of one pointy-topped tile top (rim included) plus its mask; the
glyph is turned by ``turn`` sixths of a circle, the way a player may lay a tile.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

import cv2
import numpy as np

from rules.pieces import Bug, Colour
from vision.render.icons import FETCH_SCRIPT, ICON_SETS, creature_png
from vision.render.looks import BGR, PROCEDURAL, PROCEDURAL_SCALE, Look, style_look

TEXTURE_PX = 96
STYLES = (*PROCEDURAL, *ICON_SETS)
RIM_FRACTION = 0.075  # bevel width as a fraction of the across-flats size
FACE_RADIUS = TEXTURE_PX / 2 * (1 - 2 * RIM_FRACTION)  # circumradius of the face inside the bevel
FACE_APOTHEM = FACE_RADIUS * np.sqrt(3) / 2
PAINTED_RIM = 0.88  # a painted rim's circumradius as a fraction of the face's
DARK_FLOOR, DARK_KNEE = 100, 150  # on black faces, art lumas 0..knee are lifted to floor..knee
INK_CONTRAST = 80  # the least luma difference between a recoloured creature and its face
LUMA_BGR = (0.114, 0.587, 0.299)
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

    def __init__(self, canvas: Canvas, colour: tuple, turn: float, size: float = 1.0, weight: float = 1.0,
                 outline: bool = False) -> None:
        self.canvas, self.colour, self.turn = canvas, colour, turn
        self.size, self.weight, self.outline = size, weight, outline
        self.centre = canvas.shape[0] / 2
        self.unit = canvas.shape[0] * 0.30 * size

    def _width(self, width: float) -> int:
        return max(1, round(width * self.unit * self.weight))

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
        if fill and not self.outline:
            cv2.fillPoly(self.canvas, [px], colour or self.colour, cv2.LINE_AA, shift=4)
        else:
            cv2.polylines(self.canvas, [px], True, colour or self.colour, self._width(width), cv2.LINE_AA, shift=4)

    def line(self, points: list[tuple[float, float]], width: float = 0.08, colour: tuple | None = None) -> None:
        cv2.polylines(self.canvas, [self._px(points)], False, colour or self.colour, self._width(width),
                      cv2.LINE_AA, shift=4)


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
        super().__init__(pen.canvas, pen.colour, pen.turn + np.pi / 2, pen.size, pen.weight, pen.outline)


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


def _hex_px(radius: float) -> np.ndarray:
    """A pointy-topped hexagon about the texture centre in OpenCV's 4-bit fixed point."""
    return np.round((hex_corners(radius) + TEXTURE_PX / 2) * 16).astype(np.int32)


@lru_cache(maxsize=1)
def _face_alpha() -> np.ndarray:
    """0-1 float mask (px, px, 1) of the face inside the bevel: icon art is clipped to it."""
    mask = np.zeros((TEXTURE_PX, TEXTURE_PX), np.uint8)
    cv2.fillPoly(mask, [_hex_px(FACE_RADIUS)], 255, cv2.LINE_AA, shift=4)
    return (mask.astype(np.float32) / 255)[..., None]


def _blank_tile(colour: Colour, look: Look) -> tuple[np.ndarray, np.ndarray]:
    """(BGR image, 0/255 mask) of a tile top with its bevel, face and any painted rim, but no art."""
    image = np.zeros((TEXTURE_PX, TEXTURE_PX, 3), np.uint8)
    mask = np.zeros((TEXTURE_PX, TEXTURE_PX), np.uint8)
    outer = _hex_px(TEXTURE_PX / 2)
    cv2.fillPoly(mask, [outer], 255, cv2.LINE_AA, shift=4)
    cv2.fillPoly(image, [outer], RIM_BGR[colour], cv2.LINE_AA, shift=4)
    cv2.fillPoly(image, [_hex_px(FACE_RADIUS)], look.face[colour], cv2.LINE_AA, shift=4)
    if look.rim is not None:
        cv2.polylines(image, [_hex_px(FACE_RADIUS * PAINTED_RIM)], True, look.rim[colour], 2, cv2.LINE_AA, shift=4)
    return image, mask


def _luma(bgr: BGR) -> float:
    return float(np.dot(LUMA_BGR, bgr))


def _creature_ink(palette: dict[Bug, BGR], bug: Bug, look: Look, face: BGR | None) -> BGR:
    """A creature's customary colour turned ``look.hue_shift`` round the hue circle; if a ``face`` is
    given, mixed with white (dark face) or black (light face) until it stands out from that face."""
    bgr = palette[bug]
    if look.hue_shift:
        hsv = cv2.cvtColor(np.array([[bgr]], np.uint8), cv2.COLOR_BGR2HSV)
        hsv[0, 0, 0] = (int(hsv[0, 0, 0]) + look.hue_shift) % 180
        bgr = tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0])
    if face is None:
        return bgr
    luma, face_luma = _luma(bgr), _luma(face)
    if face_luma < 128:
        t = max(0.0, (face_luma + INK_CONTRAST - luma) / (255 - luma))
        return tuple(round(c + t * (255 - c)) for c in bgr)
    t = max(0.0, (luma - (face_luma - INK_CONTRAST)) / max(luma, 1.0))
    return tuple(round(c * (1 - t)) for c in bgr)


def _procedural_ink(style: str, look: Look, colour: Colour, bug: Bug, mono: bool) -> BGR:
    """A procedural glyph's colour: the look's single ink, or the creature's customary colour (hue-shifted,
    and in the ``-var`` styles made to stand out from the face)."""
    if mono or look.treatment == "ink":
        return look.ink[colour]
    palette = STYLE_B_BGR if style.startswith("b") else BUG_BGR
    return _creature_ink(palette, bug, look, look.face[colour] if style.endswith("-var") else None)


def _icon_ink(look: Look, colour: Colour, bug: Bug | None, mono: bool) -> BGR | None:
    """The single colour an icon is painted in, or None to keep its own colours."""
    if look.treatment == "drawn" and not mono:
        return None
    if look.treatment == "bug-ink" and bug is not None and not mono:
        return _creature_ink(BUG_BGR, bug, look, look.face[colour])
    return look.ink[colour]


@lru_cache(maxsize=64)
def _look(style: str, variant: int) -> Look:
    """One set's look; a ValueError for an unknown style."""
    if style not in STYLES:
        raise ValueError(f"unknown art style {style!r}; choose one of {', '.join(STYLES)}")
    icon_set = ICON_SETS.get(style)
    if icon_set is None:
        return style_look(style, variant)
    return style_look(style, variant, icon_set.shape_only, icon_set.weights)


@lru_cache(maxsize=256)
def _icon(path: str) -> np.ndarray:
    """A rasterised icon (RGBA, uint8) cropped to its opaque pixels."""
    rgba = cv2.imread(path, cv2.IMREAD_UNCHANGED)
    if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
        raise ValueError(f"icon art {path} is missing or not RGBA; run {FETCH_SCRIPT} to fetch the icon sets")
    ys, xs = np.nonzero(rgba[..., 3] > 8)
    if len(xs) == 0:
        raise ValueError(f"icon art {path} is blank")
    return rgba[ys.min():ys.max() + 1, xs.min():xs.max() + 1]


def _lighten_dark(bgr: np.ndarray) -> np.ndarray:
    """Art for a black face with its dark colours mixed with white: lumas 0..DARK_KNEE map onto
    DARK_FLOOR..DARK_KNEE, so dark creatures show while keeping their hue and shading."""
    luma = (bgr @ np.float32(LUMA_BGR))[..., None]
    lifted = np.where(luma < DARK_KNEE, DARK_FLOOR + luma * (DARK_KNEE - DARK_FLOOR) / DARK_KNEE, luma)
    return bgr + (lifted - luma) / np.maximum(255 - luma, 1) * (255 - bgr)


def _paste_icon(image: np.ndarray, rgba: np.ndarray, ink: BGR | None, black_face: bool, scale: float,
                turn: int) -> None:
    """Composite an icon over the face: its longer side ``scale`` of the face's width, turned, clipped to the face."""
    k = scale * 2 * FACE_APOTHEM / max(rgba.shape[:2])
    w, h = max(1, round(rgba.shape[1] * k)), max(1, round(rgba.shape[0] * k))
    small = cv2.resize(rgba, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = small[..., 3:] / 255
    bgr = small[..., :3] if ink is None else np.broadcast_to(np.float32(ink), small[..., :3].shape)
    if ink is None and black_face:
        bgr = _lighten_dark(bgr)
    premultiplied = np.concatenate([bgr * alpha, alpha], axis=2)
    turning = cv2.getRotationMatrix2D((w / 2, h / 2), -60 * turn, 1.0)
    turning[:, 2] += (TEXTURE_PX / 2 - w / 2, TEXTURE_PX / 2 - h / 2)
    placed = cv2.warpAffine(premultiplied, turning, (TEXTURE_PX, TEXTURE_PX), flags=cv2.INTER_LINEAR)
    face = _face_alpha()
    blended = image * (1 - placed[..., 3:] * face) + placed[..., :3] * face
    image[:] = np.clip(np.round(blended), 0, 255).astype(np.uint8)


def _icon_texture(path: str, style: str, colour: Colour, bug: Bug | None, turn: int, mono: bool,
                  variant: int) -> tuple[np.ndarray, np.ndarray]:
    """A tile top showing one icon in the look of (icon style, variant)."""
    look = _look(style, variant)
    image, mask = _blank_tile(colour, look)
    _paste_icon(image, _icon(path), _icon_ink(look, colour, bug, mono), colour is Colour.BLACK,
                look.glyph_scale, turn)
    return image, mask


@lru_cache(maxsize=2048)
def tile_texture(style: str, colour: Colour, bug: Bug, turn: int, mono: bool = False,
                 variant: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(BGR image, 0/255 mask) of one tile top; its corners are ``hex_corners(TEXTURE_PX / 2)`` about the centre.

    ``variant`` picks one set of the style (0: its plain look; styles ``a`` and ``b`` never vary).
    Icon styles read ``var/art``; a ValueError names the script that fetches it when it is missing.
    """
    look = _look(style, variant)
    if style in ICON_SETS:
        path = creature_png(style, bug, look.suffix)
        if not path.exists():
            raise ValueError(f"art for style {style!r} is missing ({path}); run {FETCH_SCRIPT}")
        return _icon_texture(str(path), style, colour, bug, turn, mono, variant)
    image, mask = _blank_tile(colour, look)
    pen = _Pen(image, _procedural_ink(style, look, colour, bug, mono), np.radians(60 * turn),
               look.glyph_scale / PROCEDURAL_SCALE, look.weight, look.outline)
    GLYPHS[style[0]][bug](pen)
    if look.glyph_scale <= PROCEDURAL_SCALE:  # a and b's own size: their legs may touch the bevel, as always
        return image, mask
    face = _face_alpha()
    return np.round(image * face + _blank_tile(colour, look)[0] * (1 - face)).astype(np.uint8), mask


@lru_cache(maxsize=1024)
def texture_for_icon(path: str, colour: Colour, turn: int = 0, style: str = "twemoji", variant: int = 0,
                     mono: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Any rasterised icon (e.g. from ``icons.icon_pool``) drawn as a tile top in the look of an icon style."""
    if style not in ICON_SETS:
        raise ValueError(f"{style!r} is not an icon style; choose one of {', '.join(ICON_SETS)}")
    return _icon_texture(path, style, colour, None, turn, mono, variant)
