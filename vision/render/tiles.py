"""Hive tiles as solids: where each lies, and how it is drawn.

A classic tile (today's look) is a hexagonal prism with grey sides and the whole texture,
printed rim included, on top. A solid tile is made of its face's material: the sides and a
narrow chamfer round the top take the face's own colour (read from the texture, so they follow
whatever the art paints) and are shaded by the light; the printed rim is left off.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece
from vision.render.art import FACE_RADIUS, SIDE_BGR, TEXTURE_PX, hex_corners, texture_for_icon, tile_texture
from vision.render.camera import SyntheticCamera
from vision.render.canvas import Canvas, Label, draw_walls
from vision.render.lighting import Footprint, Lighting

SQRT3 = math.sqrt(3)
EAST, SOUTH_EAST = np.array([1.0, 0.0]), np.array([0.5, SQRT3 / 2])  # unit lattice steps on the table
TOP_LABEL = {Colour.WHITE: Label.WHITE_TOP, Colour.BLACK: Label.BLACK_TOP}
SIDE_LABEL = {Colour.WHITE: Label.WHITE_SIDE, Colour.BLACK: Label.BLACK_SIDE}
CELL_KEY = 1 << 16  # added to a cell's coordinates to seed its tile's draws (seeds cannot be negative)


@dataclass(frozen=True)
class TileShape:
    """The size and make of every tile in a frame (mm)."""

    flats: float
    thickness: float
    bevel: float = 0.0
    solid: bool = False
    style: str = "a"
    mono: bool = False
    variant: int = 0  # which set of the art style
    icons: tuple[str, ...] = ()  # a made-up set's art, one icon per creature in ``Bug`` order


@dataclass(frozen=True)
class Prism:
    """One tile as laid: its piece, centre (x, y) mm, level (1 = on the table), turn and finish."""

    piece: Piece
    centre: np.ndarray
    level: int
    angle: float  # degrees the hexagon is turned off the lattice
    turn: int  # glyph turn in sixths
    gain: np.ndarray = field(default_factory=lambda: np.ones(3))  # BGR gains of this tile's wear and tint
    gloss: float = 0.0  # peak glare as a fraction of full white
    roughness: float = 0.1  # width of its glare lobe (rad)
    tilt: np.ndarray = field(default_factory=lambda: np.zeros(2))  # the top's normal leans (x, y) off vertical
    lift_mm: float = 0.0  # held this far above where it would lie

    def top_z(self, shape: TileShape) -> float:
        return -self.level * shape.thickness - self.lift_mm

    def normal(self) -> np.ndarray:
        vector = np.array([*self.tilt, -1.0])
        return vector / np.linalg.norm(vector)

    def corners(self, radius: float, z: float) -> np.ndarray:
        """Table points (6, 3) of this tile's hexagon of circumradius ``radius`` at height ``z``."""
        return np.column_stack([hex_corners(radius, self.angle) + self.centre, np.full(6, z)])

    def footprint(self, shape: TileShape) -> Footprint:
        outline = hex_corners(shape.flats / SQRT3 * 1.04, self.angle) + self.centre
        return Footprint(outline, self.level * shape.thickness)


def cell_centre_mm(cell: Hex, pitch: float) -> np.ndarray:
    """Table (x, y) mm of an axial cell's centre on a lattice of ``pitch`` mm between neighbours."""
    q, r = cell
    return pitch * (q * EAST + r * SOUTH_EAST)


def _texture(shape: TileShape, piece: Piece, turn: int) -> np.ndarray:
    if shape.icons:
        icon = shape.icons[list(Bug).index(piece.bug)]
        return texture_for_icon(icon, piece.colour, turn, shape.style, shape.variant, shape.mono)[0]
    return tile_texture(shape.style, piece.colour, piece.bug, turn, shape.mono, shape.variant)[0]


@lru_cache(maxsize=2048)
def face_colour(shape: TileShape, piece: Piece, turn: int) -> np.ndarray:
    """The face's own colour: the median of the texture along a ring just inside its printed bevel."""
    texture = _texture(shape, piece, turn)
    ring = hex_corners(FACE_RADIUS * 0.93)
    steps = np.linspace(0, 1, 20, endpoint=False)[:, None, None]
    points = (ring[None] * (1 - steps) + np.roll(ring, -1, axis=0)[None] * steps).reshape(-1, 2) + TEXTURE_PX / 2
    xs, ys = np.clip(np.round(points).astype(int).T, 0, TEXTURE_PX - 1)
    return np.median(texture[ys, xs].astype(float), axis=0)


def draw_tile(canvas: Canvas, prism: Prism, index: int, shape: TileShape, camera: SyntheticCamera,
              lighting: Lighting, top_label: int | None = None) -> None:
    """Draw one tile's visible sides, chamfer and textured top; ``top_label`` overrides its top's label."""
    colour = prism.piece.colour
    radius = shape.flats / SQRT3
    top_z, bottom_z = prism.top_z(shape), prism.top_z(shape) + shape.thickness
    bevel = shape.bevel if shape.solid else 0.0
    body = (face_colour(shape, prism.piece, prism.turn) * prism.gain if shape.solid
            else np.array(SIDE_BGR[colour], float))
    side_label = SIDE_LABEL[colour] if top_label is None else top_label
    edge = prism.corners(radius, top_z + bevel)
    draw_walls(canvas, camera, edge, prism.corners(radius, bottom_z), prism.centre, body, side_label, lighting)
    top = top_face(prism, shape)
    if bevel > 0:
        draw_walls(canvas, camera, top, edge, prism.centre, body, side_label, lighting)
    crop = FACE_RADIUS / (TEXTURE_PX / 2) * 0.97 if shape.solid else 1.0
    _draw_top(canvas, camera.project_ideal(top), prism, shape, crop, TOP_LABEL[colour] if top_label is None
              else top_label, index)


def top_face(prism: Prism, shape: TileShape) -> np.ndarray:
    """Table points (6, 3) of the corners of ``prism``'s flat top, inside its bevel."""
    bevel = shape.bevel if shape.solid else 0.0
    return prism.corners(shape.flats / SQRT3 - 2 * bevel / SQRT3, prism.top_z(shape))


def _draw_top(canvas: Canvas, top_px: np.ndarray, prism: Prism, shape: TileShape, crop: float, label: int,
              index: int) -> None:
    """Warp the tile's texture (its central ``crop`` of the hexagon) onto the top's pixels."""
    texture = _texture(shape, prism.piece, prism.turn)
    height, width = canvas.labels.shape
    x0, y0 = np.maximum(np.floor(top_px.min(axis=0)).astype(int) - 1, 0)
    x1, y1 = np.minimum(np.ceil(top_px.max(axis=0)).astype(int) + 2, [width, height])
    if x1 <= x0 or y1 <= y0:
        return
    src = (hex_corners(TEXTURE_PX / 2 * crop) + TEXTURE_PX / 2).astype(np.float32)
    dst = (top_px - [x0, y0]).astype(np.float32)
    homography = cv2.getPerspectiveTransform(src[:4], dst[:4])
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(texture, homography, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    coverage = np.zeros(size[::-1], np.uint8)
    cv2.fillPoly(coverage, [np.round(dst * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    alpha = coverage.astype(np.float32)[..., None] / 255
    roi = canvas.image[y0:y1, x0:x1]
    roi[:] = np.clip(roi * (1 - alpha) + warped * (prism.gain * alpha), 0, 255).astype(np.uint8)
    inside = coverage >= 128
    canvas.labels[y0:y1, x0:x1][inside] = label
    canvas.top_ids[y0:y1, x0:x1][inside] = index + 1


def lay_tiles(position: dict[Hex, list[Piece]], pitch: float, offset: np.ndarray, jitter: float, turn_deg: float,
              shift_mm: float, seed: int, gloss: float, wear: float) -> list[Prism]:
    """Every tile of ``position`` as laid by hand.

    Each tile draws its small placement errors (scaled by ``jitter``), its extra turn (up to
    ``turn_deg``) and shift (up to ``shift_mm``) from ``seed``, its piece and where it lies,
    and its wear and gloss from ``seed`` and its piece: with one ``seed`` a tile that is not
    moved lies and looks the same however the rest of the position changes.
    """
    prisms = []
    for cell, stack in position.items():
        base = cell_centre_mm(cell, pitch) + offset
        for level, piece in enumerate(stack, start=1):
            rng = np.random.default_rng([seed, piece.index, cell[0] + CELL_KEY, cell[1] + CELL_KEY, level])
            error = rng.normal(0, 0.35 if level == 1 else 1.0, 2) * jitter
            angle = float(rng.normal(0, 1.5) * jitter)
            turn = int(rng.integers(6))
            if turn_deg:
                angle += float(rng.uniform(-turn_deg, turn_deg))
            prisms.append(Prism(piece, base + error + _placement(rng, shift_mm, level), level, angle, turn,
                                *_finish(np.random.default_rng([seed, piece.index]), piece.colour, gloss, wear)))
    return prisms


def _placement(rng: np.random.Generator, shift_mm: float, level: int) -> np.ndarray:
    """A hand-laid tile's extra shift: within ``shift_mm``, twice that for a tile climbing on others."""
    if not shift_mm:
        return np.zeros(2)
    return rng.uniform(-1, 1, 2) * shift_mm * (1 if level == 1 else 2)


def _finish(finish: np.random.Generator, colour: Colour, gloss: float, wear: float
            ) -> tuple[np.ndarray, float, float, np.ndarray]:
    """One tile's (gain, gloss, roughness, tilt): worn tiles differ in brightness and tint, glossy ones in glare."""
    if not (gloss or wear):
        return np.ones(3), 0.0, 0.1, np.zeros(2)
    level = 1 + finish.normal(0, 0.05 * wear)
    tint = finish.normal(0, 0.025 * wear, 3) + ([-0.06 * wear, -0.01 * wear, 0.0] if colour is Colour.WHITE
                                                else [0.0, 0.0, 0.0])  # ivory yellows: blue falls first
    return (level * (1 + tint), gloss * finish.uniform(0.5, 1.2), finish.uniform(0.04, 0.16),
            finish.normal(0, 0.02, 2))
