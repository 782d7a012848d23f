"""Find tile tops in a frame: table background model, face masks, one blob per tile.

Tile tops are flat white or black faces framed by a bevel (rim) of a different shade, so
after dividing brightness by a smooth estimate of the table's own brightness, face pixels
are either much brighter or much darker than the table and the rims split touching tiles.
Glyph holes are bridged by taking each blob's convex hull. Blobs that hold two tiles (a rim
lost to blur) are split by k-means on their pixels. Pieces too small or thin to be a face
are kept as fragments: once the lattice is known, the pieces of one cell can be joined.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import cv2
import numpy as np

from rules.pieces import Colour

COARSE = 8  # the background model is computed at 1/COARSE resolution
FOREGROUND_DISTANCE = 25.0  # Lab distance (brightness as a relative change) from the table
CHROMA_WEIGHT = 1.5  # colour shifts count more than brightness ones (shadows change brightness only)
TINTED_DISTANCE = 16.0  # a colour shift alone this big, over a patch, is not table either (a hand)
FOREGROUND_SCALE = 4  # the non-table mask is kept at 1/FOREGROUND_SCALE resolution
MIN_FACE_PX = 120  # smallest face area considered a tile (pocket tiles at 80 cm are ~450)
INK_CHROMA = 40  # a pixel this colourful is glyph ink (faces and rims are grey)
INK_FLOOD_PX = 3  # face masks grow this far over ink, joining faces cut by thin strokes
LOOSE_BLACK = 0.75  # a black face pixel blurred into its rim may be this light (relative to the table) ...
LOOSE_FACTOR = 1.5  # ... and this many times as light as the median black face pixel ...
LOOSE_FLOOD_PX = 4  # ... if it lies this close to a surely-black pixel
MIN_FACE_SHARE = 0.5  # a region grown over ink must still be mostly face (not a dark spot in a glyph)
MAX_ASPECT = 2.2  # longest/shortest side of a face blob (a face half hidden by a stack)
SINGLE_SHARE_OF_LARGEST = 0.3  # a compact region this share of the largest one's area may be a whole face
MIN_FRAGMENT_PX = 20  # smallest piece of a face kept for joining with the rest of it


@dataclass(frozen=True)
class Blob:
    """One candidate tile top in frame pixels."""

    centre: np.ndarray  # (x, y)
    area: float  # convex hull area, pixels
    colour: Colour
    cut: bool  # touches the frame border


@dataclass(frozen=True)
class Fragment:
    """Face pixels too few or too thin for a tile top alone (e.g. a ring cut by a grey glyph)."""

    points: np.ndarray  # (N, 2) float32 frame pixels
    colour: Colour


@dataclass
class Segmentation:
    """Blobs plus the masks occlusion checks need (all full frame size)."""

    blobs: list[Blob]
    foreground: np.ndarray  # uint8 0/255 at 1/FOREGROUND_SCALE size: anything that is not table
    tile_area: float  # typical face area of one tile, pixels (0 if none)
    fragments: list[Fragment] = field(default_factory=list)


def _table_model(lab_small: np.ndarray) -> np.ndarray:
    """Smooth Lab image of the table alone (tiles and hands filled in from around them)."""
    lab = lab_small.astype(np.float32)
    median = np.median(lab.reshape(-1, 3), axis=0)
    table = np.broadcast_to(median, lab.shape)
    weight = np.ones(lab.shape[:2], np.float32)
    for _ in range(2):
        weight = (_distance(lab, table) < FOREGROUND_DISTANCE).astype(np.float32)
        weight = cv2.erode(weight, np.ones((3, 3), np.uint8))
        k = (max(3, lab.shape[1] // 6) | 1, max(3, lab.shape[0] // 6) | 1)
        norm = cv2.blur(weight, k)[..., None]
        table = np.where(norm > 1e-3, cv2.blur(lab * weight[..., None], k) / np.maximum(norm, 1e-3), median)
        if (weight > 0).mean() < 0.2:
            break
    return table.astype(np.float32)


def _brightness_shift(lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Lightness change relative to the table's own (so a shadow on a dark table counts as on a light one)."""
    return (lab[..., 0] - table[..., 0]) / np.maximum(table[..., 0], 8.0) * 60.0


def _hue_shift(lab: np.ndarray, table: np.ndarray) -> np.ndarray:
    """The colour part of ``_distance`` alone (shadows and light falloff leave it near 0)."""
    return CHROMA_WEIGHT * np.sqrt((lab[..., 1] - table[..., 1]) ** 2 + (lab[..., 2] - table[..., 2]) ** 2)


def _distance(lab: np.ndarray, table: np.ndarray, hue: np.ndarray | None = None) -> np.ndarray:
    """How far each pixel is from the table, brightness and colour together (``hue``: its ``_hue_shift``)."""
    return np.hypot(_brightness_shift(lab, table), _hue_shift(lab, table) if hue is None else hue)


def segment(frame: np.ndarray) -> Segmentation:
    """Blobs of tile faces and the non-table mask (at 1/FOREGROUND_SCALE size) of a BGR frame."""
    height, width = frame.shape[:2]
    small = cv2.resize(frame, (width // COARSE, height // COARSE), interpolation=cv2.INTER_AREA)
    table_small = _table_model(cv2.cvtColor(small, cv2.COLOR_BGR2LAB))
    quarter_size = (width // FOREGROUND_SCALE, height // FOREGROUND_SCALE)
    quarter = cv2.cvtColor(cv2.resize(frame, quarter_size, interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2LAB)
    table_quarter = cv2.resize(table_small, quarter_size, interpolation=cv2.INTER_LINEAR)
    lab_quarter = quarter.astype(np.float32)
    hue = _hue_shift(lab_quarter, table_quarter)
    foreground = (_distance(lab_quarter, table_quarter, hue) > FOREGROUND_DISTANCE).astype(np.uint8) * 255
    ys, xs = np.nonzero(cv2.erode(foreground, np.ones((2, 2), np.uint8)))
    # a dim hand on a grey table differs from it in colour only a little, but all over: not table either
    tinted = (hue > TINTED_DISTANCE).astype(np.uint8) * 255
    foreground = foreground | cv2.morphologyEx(tinted, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    if len(xs) == 0:
        return Segmentation([], foreground, 0.0)
    s = FOREGROUND_SCALE
    x0, x1 = max(0, (xs.min() - 2) * s), min(width, (xs.max() + 3) * s)
    y0, y1 = max(0, (ys.min() - 2) * s), min(height, (ys.max() + 3) * s)
    lab = cv2.cvtColor(cv2.GaussianBlur(frame[y0:y1, x0:x1], (3, 3), 0.8), cv2.COLOR_BGR2LAB)
    table_l = cv2.resize(table_small[..., 0], (width, height), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    blobs, area, fragments = _face_blobs(lab, table_l, (x0, y0), (width, height))
    return Segmentation(blobs, foreground, area, fragments)


def _chroma(lab: np.ndarray) -> np.ndarray:
    return np.abs(lab[..., 1].astype(np.int16) - 128) + np.abs(lab[..., 2].astype(np.int16) - 128)


def _face_masks(lab: np.ndarray, table_l: np.ndarray) -> list[tuple[Colour, np.ndarray, np.ndarray | None]]:
    """Per face colour, a strict mask (surely face) and a loose one (face blurred into its rim or glyph).

    Only black faces get a loose cut: on a dark table they differ from it by little, so the thin
    face ring of a small tile, blurred with its light rim and glyph, rises above the strict cut.
    The loose cut stays below the lit sides of black tiles (well over LOOSE_FACTOR times as
    bright as their faces). White faces are several times brighter than a dark table and as
    bright as their own rims on a light one: they get no loose mask.
    """
    light = lab[..., 0].astype(np.float32) / np.maximum(table_l, 8.0)
    chroma = _chroma(lab)
    grey, dark_grey = chroma < 24, chroma < 44  # dark pixels carry noisy chroma
    bright, dark = light > 1.15, light < 0.6
    white_level = np.percentile(light[bright & grey], 90) if (bright & grey).sum() > MIN_FACE_PX else 1.6
    black_level = np.percentile(light[dark & dark_grey], 10) if (dark & dark_grey).sum() > MIN_FACE_PX else 0.3
    white_cut, black_cut = max(1.15, 0.86 * white_level), min(0.6, 1.5 * black_level + 0.03)
    black = dark_grey & (light < black_cut)
    loose = None
    if black.sum() > MIN_FACE_PX:
        loose_cut = min(LOOSE_BLACK, LOOSE_FACTOR * float(np.median(light[black])))
        loose = dark_grey & (light < loose_cut) if loose_cut > black_cut else None
    return [(Colour.WHITE, grey & (light > white_cut), None), (Colour.BLACK, black, loose)]


def _flood(mask: np.ndarray, into: np.ndarray, steps: int) -> np.ndarray:
    """Grow ``mask`` up to ``steps`` pixels over the pixels of ``into`` it touches."""
    kernel = np.ones((3, 3), np.uint8)
    for _ in range(steps):
        mask = mask | (cv2.dilate(mask, kernel) & into)
    return mask


class _Region(NamedTuple):
    """Pixels of one connected face region (or of several joined), with its convex hull."""

    points: np.ndarray  # (N, 2) float32 pixels, ROI coordinates
    colour: Colour
    area: float  # hull area
    aspect: float  # long / short side of the hull's bounding rectangle
    hull: np.ndarray

    @classmethod
    def of(cls, points: np.ndarray, colour: Colour) -> "_Region":
        hull = cv2.convexHull(points)
        (_, (rw, rh), _) = cv2.minAreaRect(hull)
        return cls(points, colour, float(cv2.contourArea(hull)), max(rw, rh) / max(min(rw, rh), 1.0), hull)


def _face_blobs(lab: np.ndarray, table_l: np.ndarray, origin: tuple[int, int], frame_size: tuple[int, int]
                ) -> tuple[list[Blob], float, list[Fragment]]:
    regions: list[_Region] = []
    open_kernel = np.ones((2, 2), np.uint8)
    ink = (_chroma(lab) >= INK_CHROMA).astype(np.uint8)
    for colour, strict, loose in _face_masks(lab, table_l):
        face = cv2.morphologyEx(strict.astype(np.uint8), cv2.MORPH_OPEN, open_kernel)
        if loose is not None:
            face = _flood(face, loose.astype(np.uint8), LOOSE_FLOOD_PX)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(_flood(face, ink, INK_FLOOD_PX), connectivity=4)
        face_px = np.bincount(labels[face > 0], minlength=count)
        sizes = stats[:, cv2.CC_STAT_AREA]
        keep = (sizes >= MIN_FRAGMENT_PX) & (face_px >= MIN_FACE_SHARE * sizes)
        keep[0] = False  # the background label
        for index in np.nonzero(keep)[0]:
            x, y, w, h = stats[index, :4]
            ys, xs = np.nonzero(labels[y:y + h, x:x + w] == index)
            regions.append(_Region.of(np.column_stack([xs + x, ys + y]).astype(np.float32), colour))
    singles = np.array([r.area for r in regions if r.aspect < 1.35 and r.area >= MIN_FACE_PX])
    if not len(singles):
        return [], 0.0, []
    # faces, not the dark marks of a glyph: within a frame faces differ in size by perspective only
    tile_area = float(np.median(singles[singles >= SINGLE_SHARE_OF_LARGEST * singles.max()]))
    blobs, fragments = [], []
    width, height = frame_size
    for region in _merge_fragments(regions, tile_area):
        shifted = region.hull.reshape(-1, 2) + origin
        cut = bool(shifted[:, 0].min() <= 1 or shifted[:, 1].min() <= 1 or shifted[:, 0].max() >= width - 2
                   or shifted[:, 1].max() >= height - 2)
        pieces = int(round(region.area / tile_area))
        if pieces >= 2:
            blobs.extend(_split(region.points, pieces, region.colour, tile_area, origin))
        elif (region.aspect < MAX_ASPECT or cut) and (region.area >= 0.3 * tile_area
                                                      or (cut and region.area > 0.2 * tile_area)):
            blobs.append(Blob(hull_centre(region.hull) + origin, region.area, region.colour, cut))
        else:
            fragments.append(Fragment(region.points + np.float32(origin), region.colour))
    return blobs, tile_area, fragments


def _merge_fragments(regions: list[_Region], tile_area: float) -> list[_Region]:
    """Join pieces of one face cut apart by glyph strokes that reach its rim."""
    reach = 0.7 * np.sqrt(tile_area)
    merged = [r for r in regions if r.area >= 0.85 * tile_area]
    fragments = sorted((r for r in regions if r.area < 0.85 * tile_area), key=lambda r: -r.area)
    centres = [f.points.mean(axis=0) for f in fragments]
    used = [False] * len(fragments)
    for i, seed in enumerate(fragments):
        if used[i]:
            continue
        used[i] = True
        group = [seed]
        for j in range(i + 1, len(fragments)):
            if used[j] or fragments[j].colour is not seed.colour or np.linalg.norm(centres[j] - centres[i]) > reach:
                continue
            trial = np.vstack([g.points for g in group] + [fragments[j].points])
            if cv2.contourArea(cv2.convexHull(trial)) < 1.15 * tile_area:
                group.append(fragments[j])
                used[j] = True
        merged.append(seed if len(group) == 1 else _Region.of(np.vstack([g.points for g in group]), seed.colour))
    return merged


def hull_centre(hull: np.ndarray) -> np.ndarray:
    """The centroid (x, y) of a convex hull's area (of its points if it has none)."""
    m = cv2.moments(hull)
    if m["m00"] <= 0:
        return hull.reshape(-1, 2).mean(axis=0).astype(np.float64)
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])


def _split(points: np.ndarray, pieces: int, colour: Colour, tile_area: float, origin: tuple[int, int]
           ) -> list[Blob]:
    """Split a region holding several faces by k-means, started from slices along its long axis."""
    centred = points - points.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    order = np.argsort(np.argsort(centred @ axis))
    labels = (order * pieces // len(points)).astype(np.int32).reshape(-1, 1)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    _, labels, centres = cv2.kmeans(points, pieces, labels, criteria, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    counts = np.bincount(labels.ravel(), minlength=pieces)
    return [Blob(centres[k].astype(np.float64) + origin, float(counts[k]), colour, False)
            for k in range(pieces) if counts[k] > 0.4 * tile_area]
