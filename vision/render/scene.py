"""Render what the camera sees of a Hive position: 3D hexagonal tiles under perspective.

A position maps axial cells (pointy-topped, E = (1, 0), SE = (0, 1)) to stacks bottom->top.
``render_position`` returns the 1280x720 BGR frame and its ground truth: every visible stack
top (pixel centre, height, colour, creature, lattice basis) and a label image of the frame.
Drawing is painter's order (far things first). ``Conditions()`` keeps the classic look (grey-
sided tiles, one far light, flat tables); its later fields reach the wider physical world that
``vision.render.world.random_world`` draws from.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import cv2
import numpy as np

from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece
from vision.lattice import basis_pitch
from vision.render.camera import HEIGHT, HFOV_DEG, WIDTH, SyntheticCamera
from vision.render.canvas import Canvas, Label
from vision.render.hand import border_entry, draw_hand
from vision.render.lighting import Lamp, Lighting, glare, lamp_field, table_points
from vision.render.objects import TableObject, clear_of_tiles
from vision.render.surfaces import (PLANE_TABLES, TABLE_GLOSS, TABLES, camera_finish, light_field, table_texture,
                                    table_view)
from vision.render.tiles import (EAST, SIDE_LABEL, SOUTH_EAST, SQRT3, TOP_LABEL, Prism, TileShape, cell_centre_mm,
                                 draw_tile, lay_tiles, top_face)

__all__ = ["GAP_MM", "SIDE_LABEL", "TILE_SIZES", "TOP_LABEL", "Conditions", "FrameTruth", "Label", "Lamp", "Position",
           "TableObject", "TileTruth", "cell_centre_mm", "lattice_basis", "lattice_pitch", "make_camera",
           "random_conditions", "random_lamp", "render_position", "tile_shape"]

Position = dict[Hex, list[Piece]]
TILE_SIZES = {"standard": (38.0, 12.0), "pocket": (25.0, 8.0)}  # across flats, thickness (mm)
GAP_MM = 0.8
HAND_LIFT_MM = 60.0
Colour3 = tuple[float, float, float]


@dataclass(frozen=True)
class Conditions:
    """Everything about a frame except the position: camera, lens, light, table, tiles, art, hands, clutter."""

    height_mm: float = 600.0
    tilt_deg: float = 0.0
    azimuth_deg: float = 0.0
    yaw_deg: float = 0.0
    k1: float = 0.0
    table: str = "wood"  # TABLES (flat, classic) or PLANE_TABLES (patterns lying on the table in perspective)
    table_variant: int = 0
    light: float = 0.0  # strength of uneven light, 0..0.5 (classic light only)
    cast: Colour3 = (1.0, 1.0, 1.0)  # BGR gains of the lamp's colour (a warm lamp: R up, B down)
    shadow: float = 0.25  # darkness of cast shadows, 0..0.4 classic; with lamps 1 = physically dark
    noise: float = 0.0
    blur: float = 0.0
    jpeg: int = 100
    exposure: float = 1.0  # of the metered one: under 1 keeps a lamp's glare in the tops off the sensor's white
    tile_size: str = "standard"
    style: str = "a"
    mono: bool = False  # all glyphs one colour (Carbon-like sets)
    art_variant: int = 0  # which set of the style (its face tint, glyph size, ink; 0 = the plain look)
    icons: tuple[str, ...] = ()  # a made-up set: one icon PNG per creature (``Bug`` order), drawn in the style's look
    hand: bool = False
    bump_mm: tuple[float, float] = (0.0, 0.0)
    jitter: float = 1.0  # scale of the random tile placement errors
    seed: int = 0
    layout_seed: int | None = None  # how each tile lies and looks, the light and the table's print (None: ``seed``)
    # --- lens and aim
    hfov_deg: float = HFOV_DEG  # 66 standard lens, 102 wide
    k2: float = 0.0
    fit_canvas: bool = False  # draw all the lens sees (strong barrel distortion smears no corners)
    aim_mm: tuple[float, float] = (0.0, 0.0)  # the camera aims this far from the hive's middle
    # --- tiles
    flats_mm: float = 0.0  # across flats; 0 takes tile_size's
    thickness_mm: float = 0.0  # 0 takes tile_size's
    gap_mm: float = GAP_MM  # between neighbours' flats
    turn_deg: float = 0.0  # each tile turned up to this far off the lattice
    shift_mm: float = 0.0  # each tile shifted up to this far (twice that for a climber)
    solid: bool = False  # sides and chamfer of the face's own material, printed rim left off
    bevel_mm: float = 0.0  # chamfer round the top edge of a solid tile
    gloss: float = 0.0  # peak glare of a lamp mirrored in a top, 0 matte..1 white
    wear: float = 0.0  # per-tile brightness and tint differences (ivory yellowing), 0..1
    # --- light (no lamps: the classic single far light)
    lamps: tuple[Lamp, ...] = ()
    ambient: float = 0.4  # light from the room besides the lamps, relative to a lamp's power
    vignette: float = 0.0  # the lens darkens its corners by this fraction
    # --- camera motion
    motion_px: float = 0.0  # length of motion blur
    motion_deg: float = 0.0  # its direction in the image
    # --- people and clutter
    skin: Colour3 | None = None  # BGR of the hand; None draws one
    sleeve: Colour3 | None = None  # BGR of a sleeve over the forearm
    objects: tuple[TableObject, ...] = ()


def random_conditions(rng: np.random.Generator, **fixed) -> Conditions:
    """Conditions drawn from the ranges hivecam must cope with; keyword arguments pin fields."""
    drawn = Conditions(
        height_mm=rng.uniform(400, 800), tilt_deg=rng.uniform(0, 30), azimuth_deg=rng.uniform(0, 360),
        yaw_deg=rng.uniform(0, 360), k1=rng.uniform(-0.12, 0.04), table=TABLES[rng.integers(len(TABLES))],
        table_variant=int(rng.integers(3)), light=rng.uniform(0, 0.35), shadow=rng.uniform(0.1, 0.35),
        noise=rng.uniform(1, 5), blur=rng.uniform(0, 1.0), jpeg=int(rng.integers(60, 96)),
        bump_mm=tuple(rng.uniform(-5, 5, 2)), seed=int(rng.integers(1 << 30)))
    return replace(drawn, **fixed)


def random_lamp(rng: np.random.Generator) -> Colour3:
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
    shown: float = 1.0  # share of its top (in the frame) not hidden by a nearer stack or a thing on the table
    basis: np.ndarray = field(default_factory=lambda: np.zeros((2, 2)), compare=False)  # pixel steps E, SE here


@dataclass
class FrameTruth:
    """Ground truth for one frame."""

    tiles: list[TileTruth]
    camera: SyntheticCamera
    tile_px: float  # apparent across-flats size of a tile at the hive centre
    hand_occludes: bool = False
    outside: list[Hex] = field(default_factory=list)  # stack tops whose centre is out of the frame
    labels: np.ndarray = field(default_factory=lambda: np.zeros((HEIGHT, WIDTH), np.uint8), compare=False)  # Label
    pitch_px: float = 0.0  # median lattice pitch in pixels over the visible tops


def tile_shape(conditions: Conditions) -> TileShape:
    """The tiles' size and make under ``conditions``."""
    flats, thickness = TILE_SIZES[conditions.tile_size]
    return TileShape(conditions.flats_mm or flats, conditions.thickness_mm or thickness, conditions.bevel_mm,
                     conditions.solid, conditions.style, conditions.mono, conditions.art_variant, conditions.icons)


def lattice_pitch(conditions: Conditions) -> float:
    """Millimetres between neighbouring cell centres."""
    return tile_shape(conditions).flats + conditions.gap_mm


def _hive_centre(position: Position, pitch: float) -> np.ndarray:
    if not position:
        return np.zeros(2)
    return np.mean([cell_centre_mm(c, pitch) for c in position], axis=0)


def make_camera(position: Position, conditions: Conditions) -> SyntheticCamera:
    """The camera of ``conditions`` aimed at the middle of the hive (offset by ``aim_mm``)."""
    target = _hive_centre(position, lattice_pitch(conditions)) + np.asarray(conditions.aim_mm)
    return SyntheticCamera.looking_at(target, conditions.height_mm, conditions.tilt_deg, conditions.azimuth_deg,
                                      conditions.yaw_deg, conditions.k1, conditions.k2, conditions.hfov_deg,
                                      conditions.fit_canvas)


def through_crop(conditions: Conditions, zoom: float) -> Conditions:
    """``conditions`` as a sensor crop ``zoom`` times larger than the whole view sees them: the
    lens's blur and the motion streak grow with it, and so does the sensor noise (each frame pixel
    then averages ``zoom`` squared times fewer sensor pixels)."""
    return replace(conditions, blur=conditions.blur * zoom, noise=conditions.noise * zoom,
                   motion_px=conditions.motion_px * zoom)


@dataclass(frozen=True)
class _Scene:
    """What one render needs besides the canvas."""

    conditions: Conditions
    camera: SyntheticCamera
    shape: TileShape
    lighting: Lighting
    hive: np.ndarray  # table (x, y) of the hive's middle as laid
    mm_px: float  # pixels per mm at the hive's tops


def render_position(position: Position, conditions: Conditions = Conditions(),
                    carried: Piece | None = None, camera: SyntheticCamera | None = None,
                    hand_at: tuple[float, float] | None = None,
                    view: tuple[float, float, float] | None = None) -> tuple[np.ndarray, FrameTruth]:
    """The frame the camera sees of ``position`` and its ground truth.

    With ``conditions.hand`` a hand reaches over the hive (holding ``carried`` if given) to
    the table point ``hand_at`` (mm), or to a random tile. A ``view`` (x, y, zoom) takes the
    frame through a crop of the sensor (``SyntheticCamera.cropped``, ``through_crop``).
    """
    layout_seed = conditions.seed if conditions.layout_seed is None else conditions.layout_seed
    rng, finish = np.random.default_rng(conditions.seed), np.random.default_rng([layout_seed, 1])
    shape, pitch = tile_shape(conditions), lattice_pitch(conditions)
    camera = camera or make_camera(position, conditions)
    if view is not None:
        camera, conditions = camera.cropped(*view), through_crop(conditions, view[2])
    prisms = lay_tiles(position, pitch, np.asarray(conditions.bump_mm), conditions.jitter, conditions.turn_deg,
                       conditions.shift_mm, layout_seed, conditions.gloss, conditions.wear)
    hive = _hive_centre(position, pitch) + np.asarray(conditions.bump_mm)
    lighting = (Lighting.from_lamps(conditions.lamps, conditions.ambient) if conditions.lamps
                else Lighting.single(finish))
    scene = _Scene(conditions, camera, shape, lighting, hive, _mm_px(camera.project_ideal, hive, shape.thickness))
    canvas = Canvas(_table(scene, finish))
    placed = [(obj, clear_of_tiles(obj, hive, np.array([p.centre for p in prisms]).reshape(-1, 2), shape.flats))
              for obj in conditions.objects]
    footprints = [p.footprint(shape) for p in prisms] + [obj.footprint(at) for obj, at in placed]
    shade = lighting.shadow_field(footprints, camera, conditions.shadow, scene.mm_px)
    if shade is not None:
        canvas.image[:] = (canvas.image * shade).astype(np.uint8)
    _draw_in_depth_order(canvas, scene, prisms, placed)
    shown = _shown(canvas, scene, prisms)
    hand_mask = _draw_hand_over(canvas, scene, prisms, carried, rng, hand_at) if conditions.hand else None
    image = _expose(canvas, scene, prisms, rng)
    image = camera.apply_distortion(image)
    image = camera_finish(image, rng, conditions.blur, conditions.noise, conditions.jpeg, conditions.motion_px,
                          conditions.motion_deg)
    truth = _truth(position, prisms, scene, hand_mask, pitch, shown)
    truth.labels = camera.apply_distortion(canvas.labels, nearest=True)
    return image, truth


def _mm_px(project: Callable[[np.ndarray], np.ndarray], hive: np.ndarray, thickness: float) -> float:
    """Pixels per mm at the hive's tops, on the canvas (``camera.project_ideal``) or in the frame (``project``)."""
    middle = np.array([[*hive, -thickness]])
    return float(np.linalg.norm(project(middle + [[1, 0, 0]]) - project(middle)))


def _table(scene: _Scene, finish: np.random.Generator) -> np.ndarray:
    """The bare table as the camera sees it, glossy tables mirroring the lamps."""
    conditions = scene.conditions
    if conditions.table not in PLANE_TABLES:
        return table_texture(conditions.table, conditions.table_variant).copy()
    camera = scene.camera
    plane_to_image = camera.canvas_matrix @ np.column_stack([camera.rotation[:, :2], camera.translation])
    image = table_view(conditions.table, conditions.table_variant, plane_to_image, finish)
    gloss = TABLE_GLOSS.get(conditions.table, 0.0)
    if not (gloss and conditions.lamps):
        return image
    h, w = HEIGHT // 4, WIDTH // 4
    ys, xs = np.mgrid[0:h, 0:w]
    points = table_points(camera, np.column_stack([xs.ravel(), ys.ravel()]) * 4.0 + 2.0, 0.0)
    roughness = np.full(len(points), 0.02 if conditions.table.startswith("glass") else 0.25)
    spec = glare(points, np.tile([0.0, 0.0, -1.0], (len(points), 1)), np.full(len(points), gloss),
                 conditions.lamps, scene.hive, camera, roughness)
    spec = cv2.resize(spec.reshape(h, w, 3).astype(np.float32), (WIDTH, HEIGHT))
    return np.clip(image + spec * 255, 0, 255).astype(np.uint8)


def _draw_in_depth_order(canvas: Canvas, scene: _Scene, prisms: list[Prism],
                         placed: list[tuple[TableObject, np.ndarray]]) -> None:
    """Tiles and objects, farthest first (a stack bottom-up)."""
    camera, shape = scene.camera, scene.shape
    items = [(-float(camera.depth(np.array([[*p.centre, p.top_z(shape)]]))[0]), p.level, index)
             for index, p in enumerate(prisms)]
    items += [(-float(camera.depth(np.array([[*at, -obj.height_mm / 2]]))[0]), 0, -1 - k)
              for k, (obj, at) in enumerate(placed)]
    for _, _, index in sorted(items):
        if index >= 0:
            draw_tile(canvas, prisms[index], index, shape, camera, scene.lighting)
        else:
            obj, at = placed[-1 - index]
            obj.draw(canvas, at, camera, scene.lighting, scene.mm_px)


def _draw_hand_over(canvas: Canvas, scene: _Scene, prisms: list[Prism], carried: Piece | None,
                    rng: np.random.Generator, hand_at: tuple[float, float] | None) -> np.ndarray:
    flats, camera = scene.shape.flats, scene.camera
    if hand_at is not None:
        aim = np.asarray(hand_at, float)
    elif prisms:
        aim = prisms[int(rng.integers(len(prisms)))].centre + rng.normal(0, flats * 0.8, 2)
    else:
        aim = rng.normal(0, flats, 2)
    fingertip = camera.project_ideal(np.array([[*aim, -HAND_LIFT_MM]]))[0]
    if carried is not None:
        held = Prism(carried, aim, 1, float(rng.uniform(-30, 30)), int(rng.integers(6)), lift_mm=HAND_LIFT_MM)
        draw_tile(canvas, held, -1, scene.shape, camera, scene.lighting, top_label=Label.HAND)
    mask = draw_hand(canvas.image, border_entry(rng), fingertip, scene.mm_px * 1.1, rng, scene.conditions.skin,
                     scene.conditions.sleeve)
    canvas.labels[mask >= 128] = Label.HAND
    return mask


def _expose(canvas: Canvas, scene: _Scene, prisms: list[Prism], rng: np.random.Generator) -> np.ndarray:
    """The picture under the room's light: uneven light and colour cast, then glare off glossy
    tops, at the camera's exposure (the sensor's white clips what is brighter)."""
    conditions = scene.conditions
    if conditions.lamps:
        lit = lamp_field(conditions.lamps, conditions.ambient, scene.hive, scene.camera, conditions.vignette)
    else:
        lit = light_field(rng, conditions.light)
    lit = lit * np.asarray(conditions.cast, np.float32)
    image = cv2.multiply(canvas.image, lit, dtype=cv2.CV_32F)
    if conditions.lamps and conditions.gloss > 0:
        _add_glare(image, canvas, scene, prisms)
    return cv2.convertScaleAbs(image, alpha=conditions.exposure)


def _add_glare(image: np.ndarray, canvas: Canvas, scene: _Scene, prisms: list[Prism]) -> None:
    """Add each lamp's mirror image in the glossy tile tops that show."""
    ys, xs = np.nonzero((canvas.top_ids > 0) & (canvas.labels <= Label.BLACK_TOP))
    if not len(ys):
        return
    tile = canvas.top_ids[ys, xs] - 1
    z = np.array([p.top_z(scene.shape) for p in prisms])[tile]
    points = table_points(scene.camera, np.column_stack([xs, ys]) + 0.5, z)
    normals = np.array([p.normal() for p in prisms])[tile]
    spec = glare(points, normals, np.array([p.gloss for p in prisms])[tile], scene.conditions.lamps, scene.hive,
                 scene.camera, np.array([p.roughness for p in prisms])[tile])
    image[ys, xs] += (spec * 255).astype(np.float32)


def _shown(canvas: Canvas, scene: _Scene, prisms: list[Prism]) -> np.ndarray:
    """(len(prisms),) the share of each tile's top face within the frame that shows: a tall stack
    or a cup nearer the camera can hide the top of a tile behind it."""
    tops = (canvas.labels == Label.WHITE_TOP) | (canvas.labels == Label.BLACK_TOP)
    shares = np.zeros(len(prisms))
    for index, prism in enumerate(prisms):
        corners = scene.camera.project_ideal(top_face(prism, scene.shape))
        x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 1, [WIDTH, HEIGHT])
        if x1 <= x0 or y1 <= y0:
            continue
        face = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillPoly(face, [np.round((corners - [x0, y0]) * 16).astype(np.int32)], 1, shift=4)
        seen = (face > 0) & tops[y0:y1, x0:x1] & (canvas.top_ids[y0:y1, x0:x1] == index + 1)
        shares[index] = seen.sum() / max(int(face.sum()), 1)
    return shares


def _truth(position: Position, prisms: list[Prism], scene: _Scene, hand_mask: np.ndarray | None,
           pitch: float, shown: np.ndarray) -> FrameTruth:
    camera, flats = scene.camera, scene.shape.flats
    tiles, outside, laid = [], [], 0
    tile_px = flats * _mm_px(camera.project, scene.hive, scene.shape.thickness)
    radius_px = tile_px / 2
    for cell, stack in position.items():
        laid += len(stack)
        prism = prisms[laid - 1]
        centre3 = np.array([[*prism.centre, prism.top_z(scene.shape)]])
        px = camera.project(centre3)[0]
        if not (0 <= px[0] < WIDTH and 0 <= px[1] < HEIGHT):
            outside.append(cell)
            continue
        cut = not (radius_px <= px[0] < WIDTH - radius_px and radius_px <= px[1] < HEIGHT - radius_px)
        hidden = False
        if hand_mask is not None:
            probe = camera.project_ideal(np.vstack([centre3, prism.corners(flats * 0.8 / SQRT3, centre3[0, 2])]))
            xs = np.clip(np.round(probe[:, 0]).astype(int), 0, WIDTH - 1)
            ys = np.clip(np.round(probe[:, 1]).astype(int), 0, HEIGHT - 1)
            hidden = bool((hand_mask[ys, xs] > 0).any())
        tiles.append(TileTruth(cell, prism.piece.colour, prism.piece.bug, (float(px[0]), float(px[1])),
                               prism.level, hidden, cut, float(shown[laid - 1]),
                               lattice_basis(camera, centre3[0], pitch)))
    pitch_px = float(np.median(basis_pitch(np.array([t.basis for t in tiles])))) if tiles else 0.0
    return FrameTruth(tiles, camera, tile_px, any(t.hidden_by_hand for t in tiles), outside,
                      pitch_px=pitch_px)


def lattice_basis(camera: SyntheticCamera, centre: np.ndarray, pitch: float) -> np.ndarray:
    """Pixel steps (2, 2) of one lattice cell east and south-east at table point ``centre`` (x, y, z), lens included.

    Central differences: half the pixel distance between the neighbours on either side.
    """
    steps = np.array([[*EAST * pitch, 0.0], [*SOUTH_EAST * pitch, 0.0]])
    ahead, behind = camera.project(centre + steps), camera.project(centre - steps)
    return (ahead - behind) / 2
