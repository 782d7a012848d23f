"""What the networks should answer for one rendered frame, from the renderer's ground truth."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.pieces import Colour
from vision.features import jittered_crop
from vision.lattice import basis_pitch
from vision.render.scene import FrameTruth
from vision.still import NEW_TOP
from vision.tilemaps import INPUT_SCALE, MULTIPLE, STRIDE, TileMapper, cell_of, tile_tops

IGNORE = 255  # class label of padding cells
MIN_SIGMA = 0.6  # map cells
MATCH_REACH = 0.4  # tile sizes within which a found top counts as a rendered top's


@dataclass
class MapTargets:
    """Training targets of the tile map network for one frame (map-grid arrays, padded)."""

    image: np.ndarray  # (H*2, W*2, 3) uint8: the network's input before normalising
    classes: np.ndarray  # (H, W) uint8 pixel class, IGNORE on padding
    centres: np.ndarray  # (N, 3) float32: map x, map y, log pitch in cells (visible tops only)


def map_targets(frame: np.ndarray, truth: FrameTruth) -> MapTargets:
    """The tile map targets of a rendered frame."""
    height, width = frame.shape[:2]
    small = cv2.resize(frame, (width // INPUT_SCALE, height // INPUT_SCALE), interpolation=cv2.INTER_AREA)
    pad_y, pad_x = -small.shape[0] % MULTIPLE, -small.shape[1] % MULTIPLE
    image = cv2.copyMakeBorder(small, 0, pad_y, 0, pad_x, cv2.BORDER_REPLICATE)
    rows, cols = image.shape[0] // 2, image.shape[1] // 2
    classes = np.full((rows, cols), IGNORE, np.uint8)
    labels = _majority_labels(truth.labels)
    classes[:labels.shape[0], :labels.shape[1]] = labels
    centres = []
    for tile in truth.tiles:
        if tile.hidden_by_hand:
            continue
        (x, y), = cell_of(np.array([tile.px]))
        pitch = float(basis_pitch(tile.basis)) / STRIDE
        with np.errstate(divide="ignore"):  # a top whose lattice steps the renderer could not say: -inf
            centres.append((x, y, np.log(pitch)))
    return MapTargets(image, classes, np.array(centres, np.float32).reshape(-1, 3))


def _majority_labels(labels: np.ndarray) -> np.ndarray:
    """Each STRIDE x STRIDE block's most common label (the block's class)."""
    rows, cols = -(-labels.shape[0] // STRIDE), -(-labels.shape[1] // STRIDE)
    padded = np.zeros((rows * STRIDE, cols * STRIDE), np.uint8)
    padded[:labels.shape[0], :labels.shape[1]] = labels
    blocks = padded.reshape(rows, STRIDE, cols, STRIDE).transpose(0, 2, 1, 3).reshape(rows, cols, -1)
    counts = np.stack([(blocks == k).sum(axis=2) for k in range(int(labels.max()) + 1)])
    return counts.argmax(axis=0).astype(np.uint8)


def tile_crops(frame: np.ndarray, truth: FrameTruth, rng: np.random.Generator, copies: int
               ) -> list[tuple[int, np.ndarray]]:
    """(index into ``truth.tiles``, rectified crop) for each fully visible top, ``copies`` per top,
    with the small errors in centre, turn and scale that locating a tile makes."""
    crops = []
    for index, tile in enumerate(truth.tiles):
        if tile.hidden_by_hand or tile.cut:
            continue
        for _ in range(copies):
            crops.append((index, jittered_crop(frame, np.asarray(tile.px), tile.basis, rng, 0.04, 0.05, 0.05)))
    return crops


@dataclass(frozen=True)
class MapReading:
    """How the tile map's tops of one frame compare with the rendered tops no hand hides."""

    missed: int
    phantoms: int
    wrong_colour: int  # matched tops whose colour the map read wrong
    offsets: tuple[float, ...]  # each matched top's centre error, in its lattice pitches


def top_pairs(centres: np.ndarray, truth: FrameTruth) -> tuple[list[tuple[int, int]], int, int]:
    """The found tops (frame pixels, (N, 2)) matched one to one, nearest pairs first, to the
    rendered tops no hand hides within MATCH_REACH tile sizes: (found index, index into
    ``truth.tiles``) pairs, and how many rendered tops and found tops were left over (missed, phantoms)."""
    shown = [k for k, tile in enumerate(truth.tiles) if not tile.hidden_by_hand]
    tops = np.array([truth.tiles[k].px for k in shown]).reshape(-1, 2)
    found = np.asarray(centres, np.float64).reshape(-1, 2)
    distance = np.linalg.norm(found[:, None] - tops[None], axis=2)
    pairs: dict[int, int] = {}  # found index -> index into shown
    for flat in np.argsort(distance, axis=None):
        i, j = np.unravel_index(flat, distance.shape)
        if distance[i, j] >= MATCH_REACH * truth.tile_px:
            break
        if i not in pairs and j not in pairs.values():
            pairs[int(i)] = int(j)
    return [(i, shown[j]) for i, j in pairs.items()], len(tops) - len(pairs), len(found) - len(pairs)


def map_reading(mapper: TileMapper, frame: np.ndarray, truth: FrameTruth) -> MapReading:
    """The tile map's tops of ``frame``, read alone as a new scene's (at least ``NEW_TOP`` hot: the
    detector takes those at once, and cooler ones only on a second opinion), against the rendered
    ones: tops missed, phantoms, and of the matched tops the colours read wrong and how far each
    centre lies off."""
    _, found = tile_tops(mapper, frame, NEW_TOP)
    pairs, missed, phantoms = top_pairs(np.array([peak.centre for peak in found]), truth)
    tiles = [(found[i], truth.tiles[j]) for i, j in pairs]
    wrong = sum((peak.white >= 0.5) != (tile.colour is Colour.WHITE) for peak, tile in tiles)
    offsets = tuple(float(np.linalg.norm(peak.centre - tile.px) / basis_pitch(tile.basis)) for peak, tile in tiles)
    return MapReading(missed, phantoms, wrong, offsets)
