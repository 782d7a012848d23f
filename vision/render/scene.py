"""Render what the camera sees of a Hive position: 3D hexagonal prisms under perspective.

A position maps axial cells (pointy-topped, E = (1, 0), SE = (0, 1)) to stacks bottom->top.
``render_position`` returns the 1280x720 BGR frame and its ground truth: the pixel centre,
height, colour and creature of every visible stack top, and whether a hand hides any.
Drawing is painter's order (far prisms first): visible side faces, then the textured top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import IntEnum

import cv2
import numpy as np

from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece
from vision.render.art import SIDE_BGR, STYLES, TEXTURE_PX, hex_corners, tile_texture
from vision.render.camera import HEIGHT, WIDTH, SyntheticCamera
from vision.render.hand import border_entry, draw_hand
from vision.render.surfaces import TABLES, camera_finish, light_field, table_texture

Position = dict[Hex, list[Piece]]
TILE_SIZES = {"standard": (38.0, 12.0), "pocket": (25.0, 8.0)}  # across flats, thickness (mm)
GAP_MM = 0.8
SQRT3 = math.sqrt(3)
EAST, SOUTH_EAST = np.array([1.0, 0.0]), np.array([0.5, SQRT3 / 2])  # unit lattice steps on the table


class Label(IntEnum):
    """What each pixel of ``FrameTruth.labels`` shows."""

    TABLE = 0
    WHITE_TOP = 1
    BLACK_TOP = 2
    WHITE_SIDE = 3
    BLACK_SIDE = 4
    HAND = 5  # hand, arm, sleeve and anything carried in them
    OBJECT = 6  # a still object on the table (cup, phone)


TOP_LABEL = {Colour.WHITE: Label.WHITE_TOP, Colour.BLACK: Label.BLACK_TOP}
SIDE_LABEL = {Colour.WHITE: Label.WHITE_SIDE, Colour.BLACK: Label.BLACK_SIDE}


@dataclass(frozen=True)
class Conditions:
    """Everything about a frame except the position: camera, lens, light, table, art, hands."""

    height_mm: float = 600.0
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    yaw_deg: float = 0.0
    k1: float = 0.0
    table: str = "wood"
    table_variant: int = 0
    light: float = 0.0  # strength of uneven light, 0..0.5
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains of the lamp's colour (a warm lamp: R up, B down)
    shadow: float = 0.25  # darkness of cast shadows, 0..0.4
    noise: float = 0.0
    blur: float = 0.0
    jpeg: int = 100
    tile_size: str = "standard"
    style: str = "a"
    mono: bool = False  # all glyphs one colour (Carbon-like sets)
    hand: bool = False
    bump_mm: tuple[float, float] = (0.0, 0.0)
    jitter: float = 1.0  # scale of the random tile placement errors
    seed: int = 0


def random_conditions(rng: np.random.Generator, **fixed) -> Conditions:
    """Conditions drawn from the ranges hivecam must cope with; keyword arguments pin fields."""
    drawn = Conditions(
        height_mm=rng.uniform(400, 800), tilt_deg=rng.uniform(0, 30), azimuth_deg=rng.uniform(0, 360),
        yaw_deg=rng.uniform(0, 360), k1=rng.uniform(-0.12, 0.04), table=TABLES[rng.integers(len(TABLES))],
        table_variant=int(rng.integers(3)), light=rng.uniform(0, 0.35), shadow=rng.uniform(0.1, 0.35),
        noise=rng.uniform(1, 5), blur=rng.uniform(0, 1.0), jpeg=int(rng.integers(60, 96)),
        bump_mm=tuple(rng.uniform(-5, 5, 2)), seed=int(rng.integers(1 << 30)))
    return replace(drawn, **fixed)


def random_lamp(rng: np.random.Generator) -> tuple[float, float, float]:
    """The ``cast`` of a lamp switched on: warm to cool, a little green or magenta, 0.7-1.3 times as bright."""
    warmth, green, level = rng.uniform(-1, 1), rng.uniform(-0.1, 0.1), rng.uniform(0.7, 1.3)
    return (level * (1 - 0.25 * warmth), level * (1 + green), level * (1 + 0.3 * warmth))


@dataclass(frozen=True)
class TileTruth:
    """One visible stack top as rendered."""

    cell: Hex
    colour: Colour
    bug: Bug
    px: tuple[float, float]
    height: int
    hidden_by_hand: bool = False
    cut: bool = False  # partly outside the frame
    basis: np.ndarray = field(default_factory=lambda: np.zeros((2, 2)), compare=False)  # pixel steps E and SE at this top




@dataclass
class FrameTruth:
    """Ground truth for one frame."""

    tiles: list[TileTruth]
    camera: SyntheticCamera
    tile_px: float  # apparent across-flats size of a tile at the hive centre
    hand_occludes: bool = False
    outside: list[Hex] = field(default_factory=list)  # stack tops whose centre is out of the frame
    labels: np.ndarray = field(default_factory=lambda: np.zeros((HEIGHT, WIDTH), np.uint8), compare=False)  # Label per pixel
    pitch_px: float = 0.0  # median lattice pitch in pixels over the visible tops


def cell_centre_mm(cell: Hex, pitch: float) -> np.ndarray:
    """Table (x, y) mm of an axial cell's centre on a lattice of ``pitch`` mm between neighbours."""
    q, r = cell
    return np.array([pitch * (q + r / 2), pitch * SQRT3 / 2 * r])


@dataclass(frozen=True)
class _Prism:
    piece: Piece
    centre: np.ndarray  # table (x, y) mm
    level: int  # 1 = on the table
    angle: float  # degrees of extra turn of the hexagon
    turn: int  # glyph turn in sixths


def _layout(position: Position, conditions: Conditions, rng: np.random.Generator) -> list[_Prism]:
    flats, _ = TILE_SIZES[conditions.tile_size]
    pitch = flats + GAP_MM
    prisms = []
    for cell, stack in position.items():
        base = cell_centre_mm(cell, pitch) + np.asarray(conditions.bump_mm)
        for level, piece in enumerate(stack, start=1):
            offset = rng.normal(0, 0.35 if level == 1 else 1.0, 2) * conditions.jitter
            prisms.append(_Prism(piece, base + offset, level, float(rng.normal(0, 1.5) * conditions.jitter),
                                 int(rng.integers(6))))
    return prisms


def _hive_centre(position: Position, pitch: float) -> np.ndarray:
    if not position:
        return np.zeros(2)
    return np.mean([cell_centre_mm(c, pitch) for c in position], axis=0)


def make_camera(position: Position, conditions: Conditions) -> SyntheticCamera:
    """The camera of ``conditions`` aimed at the middle of the hive."""
    flats, _ = TILE_SIZES[conditions.tile_size]
    target = _hive_centre(position, flats + GAP_MM)
    return SyntheticCamera.looking_at(target, conditions.height_mm, conditions.tilt_deg, conditions.azimuth_deg,
                                      conditions.yaw_deg, conditions.k1)


def render_position(position: Position, conditions: Conditions = Conditions(),
                    carried: Piece | None = None, camera: SyntheticCamera | None = None,
                    hand_at: tuple[float, float] | None = None) -> tuple[np.ndarray, FrameTruth]:
    """The frame the camera sees of ``position`` and its ground truth.

    With ``conditions.hand`` a hand reaches over the hive (holding ``carried`` if given) to
    the table point ``hand_at`` (mm), or to a random tile.
    """
    if conditions.style not in STYLES:
        raise ValueError(f"unknown art style {conditions.style!r}; choose one of {', '.join(STYLES)}")
    rng = np.random.default_rng(conditions.seed)
    flats, thickness = TILE_SIZES[conditions.tile_size]
    camera = camera or make_camera(position, conditions)
    prisms = _layout(position, conditions, rng)
    image = table_texture(conditions.table, conditions.table_variant).copy()
    labels = np.zeros(image.shape[:2], np.uint8)
    light_dir = np.array([*rng.normal(0, 0.35, 2), -1.0])
    light_dir /= np.linalg.norm(light_dir)
    _draw_shadows(image, prisms, camera, flats, thickness, light_dir, conditions.shadow)
    order = sorted(prisms, key=lambda p: (-float(camera.depth(np.array([[*p.centre, -p.level * thickness]]))[0]),
                                          p.level))
    for prism in order:
        _draw_prism(image, labels, prism, camera, flats, thickness, conditions, light_dir)
    hive_mid = np.array([[*_hive_centre(position, flats + GAP_MM), -thickness]])
    mm_px = float(np.linalg.norm(camera.project_ideal(hive_mid + [[1, 0, 0]]) - camera.project_ideal(hive_mid)))
    hand_mask = None
    if conditions.hand:
        hand_mask = _draw_hand_over(image, labels, prisms, camera, carried, conditions, rng, mm_px, flats,
                                    thickness, hand_at)
    lit = light_field(rng, conditions.light) * np.asarray(conditions.cast, np.float32)
    image = np.clip(image * lit, 0, 255).astype(np.uint8)
    image = camera.apply_distortion(image)
    image = camera_finish(image, rng, conditions.blur, conditions.noise, conditions.jpeg)
    truth = _truth(position, prisms, camera, flats, thickness, hand_mask, mm_px, flats + GAP_MM)
    truth.labels = camera.apply_distortion(labels, nearest=True)
    return image, truth


def _corners3d(prism: _Prism, flats: float, z: float) -> np.ndarray:
    corners = hex_corners(flats / SQRT3, prism.angle) + prism.centre
    return np.column_stack([corners, np.full(6, z)])


def _draw_prism(image: np.ndarray, labels: np.ndarray, prism: _Prism, camera: SyntheticCamera, flats: float, thickness: float,
                conditions: Conditions, light_dir: np.ndarray) -> None:
    top_z, bottom_z = -prism.level * thickness, -(prism.level - 1) * thickness
    top = camera.project_ideal(_corners3d(prism, flats, top_z))
    bottom = camera.project_ideal(_corners3d(prism, flats, bottom_z))
    eye = camera.position
    side = np.array(SIDE_BGR[prism.piece.colour], float)
    for k in range(6):
        j = (k + 1) % 6
        mid3 = np.append((_corners3d(prism, flats, top_z)[[k, j], :2].mean(axis=0)), (top_z + bottom_z) / 2)
        normal = np.append(mid3[:2] - prism.centre, 0.0)
        normal /= np.linalg.norm(normal)
        if (eye - mid3) @ normal <= 0:
            continue
        shade = 0.72 + 0.28 * max(0.0, float(-light_dir @ normal) * 2.0)
        quad = np.round(np.array([top[k], top[j], bottom[j], bottom[k]]) * 16).astype(np.int32)
        cv2.fillPoly(image, [quad], tuple(np.clip(side * shade, 0, 255).tolist()), cv2.LINE_AA, shift=4)
        cv2.fillPoly(labels, [quad], int(SIDE_LABEL[prism.piece.colour]), shift=4)
    _draw_top(image, labels, top, prism, conditions, TOP_LABEL[prism.piece.colour])


def _draw_top(image: np.ndarray, labels: np.ndarray, top_px: np.ndarray, prism: _Prism, conditions: Conditions,
              label: int) -> None:
    texture, mask = tile_texture(conditions.style, prism.piece.colour, prism.piece.bug, prism.turn, conditions.mono)
    src = (hex_corners(TEXTURE_PX / 2) + TEXTURE_PX / 2).astype(np.float32)
    x0, y0 = np.floor(top_px.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(top_px.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, image.shape[1]), min(y1, image.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    dst = (top_px - [x0, y0]).astype(np.float32)
    homography, _ = cv2.findHomography(src, dst)
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(texture, homography, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(mask, homography, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
    roi = image[y0:y1, x0:x1]
    roi[:] = (roi * (1 - alpha) + warped * alpha).astype(np.uint8)
    labels[y0:y1, x0:x1][alpha[..., 0] >= 0.5] = label


def _draw_shadows(image: np.ndarray, prisms: list[_Prism], camera: SyntheticCamera, flats: float,
                  thickness: float, light_dir: np.ndarray, darkness: float) -> None:
    if not prisms or darkness <= 0:
        return
    scale = 4
    mask = np.zeros((HEIGHT // scale, WIDTH // scale), np.uint8)
    for prism in prisms:
        lift = prism.level * thickness
        shift = -light_dir[:2] / -light_dir[2] * lift
        moved = replace(prism, centre=prism.centre + shift)
        px = camera.project_ideal(_corners3d(moved, flats * 1.04, 0.0)) / scale
        cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
    soft = cv2.GaussianBlur(mask, (0, 0), 2.0)
    shade = 1.0 - darkness * cv2.resize(soft, (WIDTH, HEIGHT)).astype(np.float32)[..., None] / 255
    image[:] = (image * shade).astype(np.uint8)


def _draw_hand_over(image: np.ndarray, labels: np.ndarray, prisms: list[_Prism], camera: SyntheticCamera, carried: Piece | None,
                    conditions: Conditions, rng: np.random.Generator, mm_px: float, flats: float,
                    thickness: float, hand_at: tuple[float, float] | None) -> np.ndarray:
    if hand_at is not None:
        aim = np.asarray(hand_at, float)
    elif prisms:
        aim = prisms[int(rng.integers(len(prisms)))].centre + rng.normal(0, flats * 0.8, 2)
    else:
        aim = rng.normal(0, flats, 2)
    fingertip = camera.project_ideal(np.array([[*aim, -60.0]]))[0]
    if carried is not None:
        held = _Prism(carried, aim, 1, float(rng.uniform(-30, 30)), int(rng.integers(6)))
        lifted = camera.project_ideal(_corners3d(held, flats, -60.0 - thickness))
        outline = np.round(lifted * 16).astype(np.int32)
        cv2.fillPoly(image, [outline], SIDE_BGR[carried.colour], cv2.LINE_AA, shift=4)
        _draw_top(image, labels, lifted, held, conditions, Label.HAND)
    mask = draw_hand(image, border_entry(rng), fingertip, mm_px * 1.1, rng)
    labels[mask >= 128] = Label.HAND
    return mask


def _truth(position: Position, prisms: list[_Prism], camera: SyntheticCamera, flats: float, thickness: float,
           hand_mask: np.ndarray | None, mm_px: float, pitch: float) -> FrameTruth:
    tops: dict[Hex, _Prism] = {}
    for cell, stack in position.items():
        tops[cell] = next(p for p in prisms if p.piece is stack[-1])
    tiles, outside = [], []
    radius_px = flats / 2 * mm_px
    for cell, prism in tops.items():
        centre3 = np.array([[*prism.centre, -prism.level * thickness]])
        px = camera.project(centre3)[0]
        if not (0 <= px[0] < WIDTH and 0 <= px[1] < HEIGHT):
            outside.append(cell)
            continue
        cut = not (radius_px <= px[0] < WIDTH - radius_px and radius_px <= px[1] < HEIGHT - radius_px)
        hidden = False
        if hand_mask is not None:
            probe = camera.project_ideal(np.vstack([centre3, _corners3d(prism, flats * 0.8, centre3[0, 2])]))
            xs = np.clip(np.round(probe[:, 0]).astype(int), 0, WIDTH - 1)
            ys = np.clip(np.round(probe[:, 1]).astype(int), 0, HEIGHT - 1)
            hidden = bool((hand_mask[ys, xs] > 0).any())
        tiles.append(TileTruth(cell, prism.piece.colour, prism.piece.bug, (float(px[0]), float(px[1])),
                               prism.level, hidden, cut, lattice_basis(camera, centre3[0], pitch)))
    pitch_px = float(np.median([np.linalg.norm(t.basis, axis=1).mean() for t in tiles])) if tiles else 0.0
    return FrameTruth(tiles, camera, flats * mm_px, any(t.hidden_by_hand for t in tiles), outside,
                      pitch_px=pitch_px)


def lattice_basis(camera: SyntheticCamera, centre: np.ndarray, pitch: float) -> np.ndarray:
    """Pixel steps (2, 2) of one lattice cell east and south-east at table point ``centre`` (x, y, z), lens included.

    Central differences: half the pixel distance between the neighbours on either side.
    """
    steps = np.array([[*EAST * pitch, 0.0], [*SOUTH_EAST * pitch, 0.0]])
    ahead, behind = camera.project(centre + steps), camera.project(centre - steps)
    return (ahead - behind) / 2
