"""Frame in, ``rules.observation.Observation`` out: tiles, cells, colours, creatures, occlusion.

Pipeline: ``locate_tiles`` (segmentation + lattice) -> per tile a rectified crop and glyph
features -> the appearance profile's classifier. A frame is flagged ``occluded`` instead of
being reported as a (wrong) board when something that is neither table nor tile (a hand,
an arm, a cup) lies on or next to the hive.
"""

from __future__ import annotations

import cv2
import numpy as np

from calibration.appearance import AppearanceProfile, default_profile
from calibration.camera import CameraModel
from rules.hexgrid import OFFSETS
from rules.observation import Observation, TileSighting
from vision.features import COLOUR_FEATURES, crop_mask, glyph_features, hidden_share, rectified_crop
from vision.locate import Located, LocatedTile, locate_tiles
from vision.segment import FOREGROUND_SCALE
from vision.session_light import SessionLight

OCCLUDER_TILE_FRACTION = 0.5  # an unexplained blob this big (in tile faces) hides tiles
EMPTY_VIEW_BLOB = 0.01  # with no tile in view, this share of non-table pixels means something blocks it
OCCLUDER_REACH = 2.5  # ... when it comes within this many pitches of a tile
MOSTLY_HIDDEN = 0.25  # with this share of its glyph hidden, a tile is judged by its ink colour alone
OVERHANG_REACH = 2.5  # pitches: a taller stack farther away than this cannot hide a tile top
CELL_CORNERS = np.array([np.add(OFFSETS[k], OFFSETS[(k + 1) % 6]) / 3 for k in range(6)])  # axial units
# a tile with its sides and shadow: the cell's corners pushed out to 0.78 pitch from the centre
TILE_OUTLINE = CELL_CORNERS * 0.78 * np.sqrt(3)
OVERHANG_OUTLINE = CELL_CORNERS * 1.05  # a taller stack's tile with its blurred edge


class Detector:
    """Recognise Hive positions in frames with one appearance profile (and optional intrinsics)."""

    def __init__(self, profile: AppearanceProfile | None = None, camera: CameraModel | None = None,
                 light: SessionLight | None = None) -> None:
        """``light`` keeps colours steady across the frames of one session (one table, one camera)."""
        self.profile = profile or default_profile()
        self.camera = camera
        self.light = light

    def detect(self, frame: np.ndarray, timestamp: float = 0.0) -> Observation:
        """The observation of one BGR frame (undistorted first if intrinsics were given)."""
        if self.camera is not None:
            frame = self.camera.undistort(frame)
        captured = frame
        if self.light is not None:
            frame = self.light.normalise(frame)
        located = locate_tiles(frame)
        sightings = []
        for tile in located.tiles:
            centre, polygons = tile.centre, overhangs(tile, located)
            hidden = crop_mask(polygons, centre, tile.basis)
            if hidden is not None:  # the blob is the visible part only: the lattice knows the centre better
                lifted = located.lattice.lifted(tile.level - 1).pixel(tile.cell)
                if np.isfinite(lifted).all():
                    centre, hidden = lifted, crop_mask(polygons, lifted, tile.basis)
            features = glyph_features(rectified_crop(frame, centre, tile.basis), hidden)
            only = COLOUR_FEATURES if hidden_share(hidden) > MOSTLY_HIDDEN else None  # too little shape left
            bug, confidence = self.profile.classify(features, tile.colour, only)
            q, r = tile.cell
            sightings.append(TileSighting(q, r, tile.colour, bug, confidence, tile.level,
                                          (float(tile.centre[0]), float(tile.centre[1]))))
        occluded = occluder_near_hive(located)
        if self.light is not None:
            self.light.learn(captured, located.segmentation.foreground, occluded)
        return Observation(tuple(sorted(sightings, key=lambda s: (s.r, s.q))), occluded, timestamp)


def overhangs(tile: LocatedTile, located: Located) -> list[np.ndarray]:
    """Frame polygons of the parts of taller stacks that rise above ``tile``'s top: they may hide some of it."""
    pitch = float(np.linalg.norm(tile.basis, axis=1).mean())
    polygons = []
    for other in (t for t in located.tiles if t.level > tile.level):
        if np.linalg.norm(other.centre - tile.centre) > OVERHANG_REACH * pitch:
            continue
        top, low = located.lattice.lifted(other.level - 1), located.lattice.lifted(tile.level - 1)
        shift = other.centre - top.pixel(other.cell)  # the tile as laid, not as the lattice expects it
        corners = np.asarray(other.cell) + OVERHANG_OUTLINE
        prism = np.vstack([top.pixels(corners), low.pixels(corners)]) + shift
        if not np.isfinite(prism).all():  # a degenerate pose fit: no outline to trust
            continue
        polygons.append(cv2.convexHull(prism.astype(np.float32)).reshape(-1, 2))
    return polygons


def occluder_near_hive(located: Located) -> bool:
    """True if a non-table, non-tile blob at least half a tile big lies within reach of the hive
    (or, with no tile seen, if anything sizeable is in view)."""
    seg = located.segmentation
    if not located.tiles or seg.tile_area <= 0:  # no hive seen: blocked if anything big is in view
        return cv2.countNonZero(seg.foreground) > EMPTY_VIEW_BLOB * seg.foreground.size
    scale = FOREGROUND_SCALE
    covered = np.zeros_like(seg.foreground)
    pitches = []
    for tile in located.tiles:
        pitches.append(float(np.linalg.norm(tile.basis, axis=1).mean()))
        outline = (TILE_OUTLINE @ tile.basis + tile.centre) / scale
        cv2.fillPoly(covered, [np.round(outline * 4).astype(np.int32)], 255, shift=2)
    pitch = float(np.median(pitches))
    covered = cv2.dilate(covered, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    residual = cv2.morphologyEx(cv2.subtract(seg.foreground, covered), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(residual, connectivity=8)
    minimum = OCCLUDER_TILE_FRACTION * seg.tile_area / scale ** 2
    centres = np.array([t.centre for t in located.tiles]) / scale
    for index in range(1, count):
        if stats[index, cv2.CC_STAT_AREA] < minimum:
            continue
        ys, xs = np.nonzero(labels == index)
        points = np.column_stack([xs, ys])[:: max(1, len(xs) // 400)]
        nearest = np.min(np.linalg.norm(points[:, None, :] - centres[None], axis=2))
        if nearest * scale < OCCLUDER_REACH * pitch:
            return True
    return False

