"""The tile map network: where tile tops lie, their colour, and what is neither table nor tile.

A small fully convolutional network (``vision/models/tilemap.onnx``, trained on randomised
renders by ``python -m vision.training.train tilemap``) reads the frame at a quarter of its
size and answers, for every ``STRIDE`` x ``STRIDE`` patch of the frame: how likely a tile
top's centre lies there (with the sub-patch offset and the local lattice pitch), and which
of ``CLASSES`` the patch shows. It runs on the Pi through OpenCV's ``cv2.dnn``. Tiles under
LOOK_AGAIN_PITCH apart (a far camera, a wide lens, a middling view) get a second look at two or
three times the size, over their region only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.dnn import load_network

CLASSES = ("table", "white top", "black top", "white side", "black side", "hand", "object")
WHITE_TOP, BLACK_TOP, HAND, OBJECT = 1, 2, 5, 6
MAP_CHANNELS = 4 + len(CLASSES)  # heat, offset x, offset y, log pitch, class logits
INPUT_SCALE = 4  # frame pixels per network input pixel
STRIDE = 8  # frame pixels per map cell
MULTIPLE = 16  # the network's input sides must be multiples of this
MODEL_PATH = Path(__file__).with_name("models") / "tilemap.onnx"
PEAK_THRESHOLD = 0.35  # centre heat a tile top must reach
COLOUR_REACH = 0.4  # pitches around a centre whose top-face classes decide the tile's colour
MIN_TOP_SHARE = 0.3  # ... and of which at least this share must look like a tile top (not table or sides)
SMALL_PITCH = 32.0  # pixels: a second look enlarges tiles ZOOM times or more, up to MAX_ZOOM, to bring
ZOOM = 2  # them at least this far apart (the network finds centres and pitch reliably from about 32
MAX_ZOOM = 3  # to 90 pixels a tile)
LOOK_AGAIN_PITCH = 48.0  # pixels: tops found closer than this come from that second look. From 32 to 48 pixels it
# finds tops the first look misses on busy tables and drops phantoms (nine training styles, 150 frames each, seeds
# 1 and 2: frames newly right 28 and 25, newly wrong 13 and 11), for about 3 ms more a frame. A lone top needs
# SMALL_PITCH: its pitch is only its own guess, and a tile some 50 pixels wide doubled lies beyond the network's range
FAINT_HEAT = 0.12  # where no top is found, patches this hot may be tiles too small to see: looked at ZOOM times as large
TILE_CLASSES = slice(1, 5)  # white and black tops and sides: where tiles are


@dataclass(frozen=True)
class TileMaps:
    """The network's answer for one frame, on the grid of ``STRIDE``-pixel cells."""

    heat: np.ndarray  # (H, W) 0..1
    offset: np.ndarray  # (2, H, W) sub-cell offset of a centre, in cells
    pitch: np.ndarray  # (H, W) lattice pitch in frame pixels where a centre lies
    classes: np.ndarray  # (len(CLASSES), H, W) probabilities

    def not_table(self) -> np.ndarray:
        """(H, W) bool: cells that show anything but bare table."""
        return self.classes[0] < 0.5


@dataclass(frozen=True)
class Peak:
    """One tile top the map found."""

    centre: np.ndarray  # frame pixels (x, y)
    pitch: float  # local lattice pitch, frame pixels
    score: float  # centre heat
    white: float  # probability that the top is white (rather than black)
    share: float = 1.0  # how much of the patch round the centre looks like a tile top


def network_input(frame: np.ndarray) -> np.ndarray:
    """The NCHW float32 blob the network reads: the frame at 1/INPUT_SCALE, padded to MULTIPLE."""
    height, width = frame.shape[:2]
    small = cv2.resize(frame, (width // INPUT_SCALE, height // INPUT_SCALE), interpolation=cv2.INTER_AREA)
    pad_y, pad_x = -small.shape[0] % MULTIPLE, -small.shape[1] % MULTIPLE
    small = cv2.copyMakeBorder(small, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
    return (small.astype(np.float32) / 255.0 - 0.5).transpose(2, 0, 1)[None].copy()


def decode(raw: np.ndarray, frame_shape: tuple[int, ...]) -> TileMaps:
    """``TileMaps`` from the network's raw (1, MAP_CHANNELS, H, W) output, cut to the frame."""
    rows, cols = map_shape(frame_shape)
    out = raw[0, :, :rows, :cols].astype(np.float32)
    logits = out[4:] - out[4:].max(axis=0, keepdims=True)
    classes = np.exp(logits)
    classes /= classes.sum(axis=0, keepdims=True)
    return TileMaps(1 / (1 + np.exp(-out[0])), out[1:3], np.exp(out[3]) * STRIDE, classes)


def map_shape(frame_shape: tuple[int, ...]) -> tuple[int, int]:
    """(rows, cols) of the maps of a frame of ``frame_shape``: a cell per STRIDE pixels."""
    return -(-frame_shape[0] // STRIDE), -(-frame_shape[1] // STRIDE)


def cell_of(points: np.ndarray) -> np.ndarray:
    """Map coordinates (fractional cells) of frame pixels (N, 2)."""
    return (np.asarray(points, np.float64) + 0.5) / STRIDE - 0.5


def pixel_of(cells: np.ndarray) -> np.ndarray:
    """Frame pixels of map coordinates (N, 2): the inverse of ``cell_of``."""
    return (np.asarray(cells, np.float64) + 0.5) * STRIDE - 0.5


class TileMapper:
    """Runs the tile map network on frames (a ``cv2.dnn`` net of its own)."""

    def __init__(self, path: Path | None = None) -> None:
        """``path``: the network's ONNX file (None: ``MODEL_PATH`` as it is now)."""
        self.net = load_network(MODEL_PATH if path is None else path, "python -m vision.training.train tilemap")

    def maps(self, frame: np.ndarray) -> TileMaps:
        self.net.setInput(network_input(frame))
        return decode(self.net.forward(), frame.shape)


def peaks(maps: TileMaps, threshold: float = PEAK_THRESHOLD, min_share: float = MIN_TOP_SHARE) -> list[Peak]:
    """Tile-top centres: local maxima of the heat over ``threshold`` whose patch looks at least
    ``min_share`` like a tile top, with sub-cell offsets."""
    heat = maps.heat
    strong = heat >= threshold
    if not strong.any():
        return []
    pitch_cells = float(np.median(maps.pitch[strong])) / STRIDE
    reach = max(1, int(0.35 * pitch_cells))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    local_max = heat >= cv2.dilate(heat, kernel)
    ys, xs = np.nonzero(strong & local_max)
    found = []
    for y, x in zip(ys, xs):
        centre = pixel_of(np.array([[x + maps.offset[0, y, x], y + maps.offset[1, y, x]]]))[0]
        pitch = float(maps.pitch[y, x])
        white, black = _top_classes(maps, y, x, pitch / STRIDE)
        if white + black >= min_share:
            found.append(Peak(centre, pitch, float(heat[y, x]), white / max(white + black, 1e-6), white + black))
    return found


def peak_at(maps: TileMaps, centre: np.ndarray, pitch: float) -> Peak:
    """The maps' reading of a top taken to lie at ``centre`` (frame pixels, ``pitch`` apart): its
    hottest heat within a third of a pitch, its colour and top share from the patch round it."""
    rows, cols = maps.heat.shape
    x, y = np.clip(np.round(cell_of(np.asarray(centre)[None])[0]), 0, [cols - 1, rows - 1]).astype(int)
    window, disc = disc_window((x, y), max(1.0, pitch / STRIDE / 3), maps.heat.shape)
    white, black = _top_classes(maps, y, x, pitch / STRIDE)
    return Peak(np.asarray(centre, np.float64), pitch, float(maps.heat[window][disc].max()),
                white / max(white + black, 1e-6), white + black)


def tile_tops(mapper: TileMapper, frame: np.ndarray, threshold: float = PEAK_THRESHOLD, hint: Hint | None = None
              ) -> tuple[TileMaps, list[Peak]]:
    """The frame's maps and its tile tops (centre heat at least ``threshold``). Where the tops lie
    under LOOK_AGAIN_PITCH apart (far camera, wide lens, pocket tiles; a lone top under
    SMALL_PITCH), or no top is found but some
    patches look faintly like tiles (a hive only a dozen pixels a tile, too small for this scale),
    the tops come from another look at the tiles' region, ZOOM times as large or, for tops under
    half SMALL_PITCH apart, MAX_ZOOM times. Where nothing at all looks like a tile, the ``hint`` (if
    any) says where to look again so."""
    maps, found, _ = _looked(mapper, frame, threshold, hint)
    return maps, found


def tops_and_faint(mapper: TileMapper, frame: np.ndarray, threshold: float, faint: float, hint: Hint | None = None,
                   off_print: Callable[[list[Peak]], list[Peak]] = list) -> tuple[TileMaps, list[Peak], list[Peak]]:
    """``tile_tops``, and the faint candidates of the same look: the other local maxima at least
    ``faint`` hot, whatever their patch looks like (tops the network doubted, for a second
    opinion). ``off_print`` drops the tops known to be the table's print (``vision.bare_table``):
    a mat's logo must not count as the tiles found, or the looks for small tiles elsewhere are
    never made."""
    maps, found, look = _looked(mapper, frame, threshold, hint, off_print)
    return maps, found, [] if look is None else _others(look.peaks(faint, 0.0), found)


@dataclass(frozen=True)
class Hint:
    """Where to look again, larger, when nothing in a frame looks like a tile at its own scale:
    a box of frame pixels (x0, y0, x1, y1; None: the whole frame) and the pitch of the tiles last
    seen there (None: not known)."""

    box: tuple[int, int, int, int] | None = None
    pitch: float | None = None


@dataclass(frozen=True)
class _Look:
    """The maps a frame's tops are read from: its own, or those of its tiles' region ``zoom``
    times as large, whose top-left corner lies at ``origin`` (frame pixels)."""

    maps: TileMaps
    zoom: int = 1
    origin: tuple[float, float] = (0.0, 0.0)

    def peaks(self, threshold: float, min_share: float = MIN_TOP_SHARE) -> list[Peak]:
        """``peaks`` of these maps, in frame pixels."""
        return [replace(p, centre=p.centre / self.zoom + self.origin, pitch=p.pitch / self.zoom)
                for p in peaks(self.maps, threshold, min_share)]


def _looked(mapper: TileMapper, frame: np.ndarray, threshold: float, hint: Hint | None,
            off_print: Callable[[list[Peak]], list[Peak]] = list) -> tuple[TileMaps, list[Peak], _Look | None]:
    """The frame's maps (with those of a larger look pooled in over its region: ``_pooled``), its
    tops (``tile_tops``, less those ``off_print`` drops) and the look they come from (None: no top,
    nothing faintly like a tile and no ``hint``)."""
    maps = mapper.maps(frame)
    found = off_print(peaks(maps, threshold))
    if found and median_pitch(found) >= (LOOK_AGAIN_PITCH if len(found) > 1 else SMALL_PITCH):
        return maps, found, _Look(maps)
    region = _tile_region(maps, found, frame.shape)
    look = None
    if region is not None:
        look = _zoomed(mapper, frame, region, median_pitch(found) if found else None)
        found = off_print(look.peaks(threshold))
    if not found and hint is not None:  # faint patches may be the table's print, and the tiles elsewhere
        height, width = frame.shape[:2]
        look = _zoomed(mapper, frame, hint.box or (0, 0, width, height), hint.pitch)
        found = off_print(look.peaks(threshold))
    return (maps if look is None else _pooled(maps, look)), found, look


def _pooled(maps: TileMaps, look: _Look) -> TileMaps:
    """``maps`` with the larger ``look``'s answer over its region, brought to their grid: the
    hottest heat and the mean classes and pitch of the look's cells in each cell. Where tiles are
    a dozen pixels wide, the frame's own look cannot tell a dark top from a cup, nor a top's heat
    from the table's."""
    zoom = look.zoom
    rows, cols = (np.array(look.maps.heat.shape) // zoom) * zoom

    def pool(values: np.ndarray, how) -> np.ndarray:
        blocks = values[..., :rows, :cols].reshape(*values.shape[:-2], rows // zoom, zoom, cols // zoom, zoom)
        return how(blocks, axis=(-3, -1))

    top, left = (int(round(v / STRIDE)) for v in (look.origin[1], look.origin[0]))
    height, width = maps.heat.shape
    inside = (slice(top, min(top + rows // zoom, height)), slice(left, min(left + cols // zoom, width)))
    part = (slice(0, inside[0].stop - top), slice(0, inside[1].stop - left))
    heat, pitch, classes = maps.heat.copy(), maps.pitch.copy(), maps.classes.copy()
    heat[inside] = pool(look.maps.heat, np.max)[part]
    pitch[inside] = pool(look.maps.pitch, np.mean)[part] / zoom
    classes[(slice(None), *inside)] = pool(look.maps.classes, np.mean)[(slice(None), *part)]
    return replace(maps, heat=heat, pitch=pitch, classes=classes)


def _zoomed(mapper: TileMapper, frame: np.ndarray, region: tuple[int, int, int, int], pitch: float | None) -> _Look:
    """The look at ``region`` of the frame, enlarged to bring tiles ``pitch`` apart (None: not
    known) to SMALL_PITCH: ZOOM times at least, MAX_ZOOM at most."""
    x0, y0, x1, y1 = region
    zoom = ZOOM if pitch is None else int(np.clip(np.ceil(SMALL_PITCH / pitch), ZOOM, MAX_ZOOM))
    crop = cv2.resize(frame[y0:y1, x0:x1], None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
    return _Look(mapper.maps(crop), zoom, (float(x0), float(y0)))


def _others(candidates: list[Peak], found: list[Peak]) -> list[Peak]:
    """The ``candidates`` that are not among the tops ``found``."""
    kept = {peak.centre.tobytes() for peak in found}
    return [peak for peak in candidates if peak.centre.tobytes() not in kept]


def median_pitch(found: list[Peak]) -> float:
    """The median local lattice pitch of the tops ``found`` (at least one), frame pixels."""
    return float(np.median([peak.pitch for peak in found]))


def _tile_region(maps: TileMaps, found: list[Peak], frame_shape: tuple[int, ...]
                 ) -> tuple[int, int, int, int] | None:
    """Frame pixels (x0, y0, x1, y1) of the box round every top found, every patch that looks like
    tile and, with no top found, every patch at least FAINT_HEAT hot, with a margin (None: nothing
    of that)."""
    tiles = maps.classes[TILE_CLASSES].sum(axis=0) > 0.5
    ys, xs = np.nonzero(tiles if found else tiles | (maps.heat >= FAINT_HEAT))
    if not found and not len(xs):
        return None
    return box_round(np.vstack([pixel_of(np.column_stack([xs, ys])), np.reshape([p.centre for p in found], (-1, 2))]),
                     frame_shape)


def box_round(points: np.ndarray, frame_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """Frame pixels (x0, y0, x1, y1) of the box round ``points`` (N, 2), with a margin of two
    SMALL_PITCH, within the frame."""
    (left, top), (right, bottom) = points.min(axis=0), points.max(axis=0)
    margin = 2 * SMALL_PITCH
    height, width = frame_shape[:2]
    return (max(int(left - margin), 0), max(int(top - margin), 0),
            min(int(right + margin), width), min(int(bottom + margin), height))


def _top_classes(maps: TileMaps, y: int, x: int, pitch_cells: float) -> tuple[float, float]:
    """The mean white-top and black-top probabilities within COLOUR_REACH pitches of a centre
    (the face around large artwork, not the artwork alone)."""
    window, disc = disc_window((x, y), max(1, int(round(COLOUR_REACH * pitch_cells))), maps.heat.shape)
    white = maps.classes[WHITE_TOP][window][disc]
    black = maps.classes[BLACK_TOP][window][disc]
    return float(white.mean()), float(black.mean())


def disc_kernel(width: float) -> np.ndarray:
    """An elliptical structuring element about ``width`` map cells across (odd, at least 3)."""
    size = max(3, int(round(width)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def disc_window(point: tuple[float, float], reach: float, shape: tuple[int, ...]
                ) -> tuple[tuple[slice, slice], np.ndarray]:
    """The map cells within ``reach`` cells of ``point`` (x, y in map cells) on a map of
    ``shape``: the (rows, columns) window round it, and which cells of that window lie within."""
    x, y = point
    y0, x0 = max(int(y - reach), 0), max(int(x - reach), 0)
    y1, x1 = min(int(np.ceil(y + reach)) + 1, shape[0]), min(int(np.ceil(x + reach)) + 1, shape[1])
    rows, cols = np.ogrid[y0:max(y1, y0), x0:max(x1, x0)]
    return (slice(y0, y1), slice(x0, x1)), (cols - x) ** 2 + (rows - y) ** 2 <= reach ** 2
