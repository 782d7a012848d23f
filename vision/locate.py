"""Where the tiles are: segmentation plus lattice fit, one located tile per occupied cell.

Face fragments the segmentation could not use alone (a dark face on a dark table, cut into
arcs by a grey glyph) are joined per lattice cell once the lattice is known, and become a
tile where their joined hull is face-sized and centred on an empty cell.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.hexgrid import Hex
from rules.pieces import Colour
from vision.lattice import PERSPECTIVE_TILES, Lattice, fit_lattice, hex_round, refit_flat
from vision.segment import Blob, Segmentation, hull_centre, segment

PITCH_PER_ROOT_AREA = 1.26  # lattice pitch / sqrt(face area) for a face inset by the rim
MAX_LEVEL = 5  # a stack top is looked for up to this many tiles high
LEVEL_PENALTY = 0.02  # pitches of fit error a stack one level higher must save to be believed
PARTIAL_FACE = 0.8  # a face blob under this share of a whole face's area is seen only in part
SPLINTER_DISTANCE = 0.55  # pitches: two faces never lie closer than this
JOINED_MIN_AREA = 0.55  # fragments joined in one cell must span this share of a face ...
JOINED_MAX_AREA = 1.3  # ... and no more than this
JOINED_MAX_OFFSET = 0.25  # pitches from the cell's centre (at its best level) the joined face may lie


@dataclass(frozen=True)
class LocatedTile:
    """One stack top: its cell, its face blob's centre and colour, and the lattice steps there."""

    cell: Hex
    centre: np.ndarray  # pixels
    colour: Colour
    basis: np.ndarray  # (2, 2) pixel steps east and south-east at this tile
    area: float
    cut: bool
    level: int  # 1 = lying on the table, 2 = on one other tile...
    offset: float  # distance from the lattice centre of its cell at that level, in pitches


@dataclass
class Located:
    tiles: list[LocatedTile]
    lattice: Lattice | None
    segmentation: Segmentation


def locate_tiles(frame: np.ndarray) -> Located:
    """Find every tile top in a BGR frame and give it lattice coordinates (one per cell)."""
    seg = segment(frame)
    if not seg.blobs:
        return Located([], None, seg)
    centres = np.array([b.centre for b in seg.blobs])
    height, width = frame.shape[:2]
    lattice, _ = fit_lattice(centres, PITCH_PER_ROOT_AREA * np.sqrt(seg.tile_area), (width, height))
    blobs = _without_splinters(seg.blobs, lattice)
    centres = np.array([b.centre for b in blobs])
    partial = np.array([b.cut for b in blobs]) | _hidden_in_part(blobs, lattice, seg.tile_area)
    levels = [lattice.lifted(k) for k in range(MAX_LEVEL)]
    cells, levels_of = _cells_and_levels(centres, partial, levels)
    flat = [i for i, level in enumerate(levels_of) if level == 1]
    if PERSPECTIVE_TILES <= len(flat) < len(blobs):  # stacks seen: fit the table's lattice without them
        lattice = refit_flat(lattice, centres[flat], [cells[i] for i in flat], (width, height))
        levels = [lattice.lifted(k) for k in range(MAX_LEVEL)]
        cells, levels_of = _cells_and_levels(centres, partial, levels)
    best: dict[Hex, LocatedTile] = {}
    for blob, cell, level in _joined_fragments(seg, levels, set(cells)):
        blobs.append(blob)
        cells.append(cell)
        levels_of.append(level)
    for blob, cell, level in zip(blobs, cells, levels_of):
        basis = levels[level - 1].basis(cell)
        pitch = float(np.linalg.norm(basis, axis=1).mean())
        expected = levels[0].pixel(cell)
        if blob.cut and not (0 <= expected[0] < width and 0 <= expected[1] < height):
            continue  # mostly outside the frame
        # a face cut by the border is only partly seen: its lattice position is the better centre
        centre = levels[level - 1].pixel(cell) if blob.cut else blob.centre
        offset = float(np.linalg.norm(blob.centre - levels[level - 1].pixel(cell))) / pitch
        tile = LocatedTile(cell, centre, blob.colour, basis, blob.area, blob.cut, level, offset)
        if cell not in best or (level, -offset) > (best[cell].level, -best[cell].offset):
            best[cell] = tile  # a stack's top hides its lower tiles: the highest face wins
    return Located(list(best.values()), lattice, seg)


def _hidden_in_part(blobs: list[Blob], lattice: Lattice, tile_area: float) -> np.ndarray:
    """Which blobs are clearly smaller than a whole face where they lie (perspective allowed for).

    Their centres lean away from whatever hides the rest, which would pass for a stack's lift.
    """
    centres = np.array([b.centre for b in blobs])
    pitches = lattice.pitches(hex_round(lattice.axial(centres)))
    expected = tile_area * (pitches / np.median(pitches)) ** 2
    return np.array([b.area for b in blobs]) < PARTIAL_FACE * expected


def _cells_and_levels(centres: np.ndarray, partial: np.ndarray, levels: list[Lattice]
                      ) -> tuple[list[Hex], list[int]]:
    """For each face centre (N, 2), the cell and stack level whose lifted lattice centre explains it best.

    Faces seen only in part (cut by the frame border or hidden by a taller stack in front) have
    biased centres: they are taken to lie on the table.
    """
    scores, cells = [], []
    for level, lattice in enumerate(levels):
        cell = hex_round(lattice.axial(centres))
        error = np.linalg.norm(centres - lattice.pixels(cell), axis=1) / lattice.pitches(cell)
        scores.append(np.where(partial & (level > 0), np.inf, error + LEVEL_PENALTY * level))
        cells.append(cell)
    best = np.argmin(np.array(scores), axis=0)
    chosen = [tuple(int(v) for v in cells[k][i]) for i, k in enumerate(best)]
    return chosen, [int(k) + 1 for k in best]


def _joined_fragments(seg: Segmentation, levels: list[Lattice], taken: set[Hex]) -> list[tuple[Blob, Hex, int]]:
    """Faces (blob, cell, level) joined from the fragments of one colour in one cell that holds no blob.

    Fragments are grouped by table-level cell; a group becomes a face if its joined hull is
    face-sized and centred on its cell (at the level that explains it best).
    """
    if not seg.fragments:
        return []
    groups: dict[tuple[Hex, Colour], list[np.ndarray]] = {}
    centres = np.array([f.points.mean(axis=0) for f in seg.fragments])
    for fragment, cell in zip(seg.fragments, hex_round(levels[0].axial(centres))):
        key = ((int(cell[0]), int(cell[1])), fragment.colour)
        if key[0] not in taken:
            groups.setdefault(key, []).append(fragment.points)
    blobs = []
    for (_, colour), parts in groups.items():
        hull = cv2.convexHull(np.vstack(parts))
        area = float(cv2.contourArea(hull))
        if JOINED_MIN_AREA * seg.tile_area <= area <= JOINED_MAX_AREA * seg.tile_area:
            blobs.append(Blob(hull_centre(hull), area, colour, False))
    if not blobs:
        return []
    joined = []
    cells, levels_of = _cells_and_levels(np.array([b.centre for b in blobs]), np.zeros(len(blobs), bool), levels)
    for blob, cell, level in zip(blobs, cells, levels_of):
        offset = np.linalg.norm(blob.centre - levels[level - 1].pixel(cell)) / levels[level - 1].pitch(cell)
        if cell not in taken and offset < JOINED_MAX_OFFSET:
            joined.append((blob, cell, level))
    return joined


def _without_splinters(blobs: list[Blob], lattice: Lattice) -> list[Blob]:
    """Drop blobs closer than half a pitch to a bigger one: pieces of a face a glyph cut off."""
    ordered = sorted(blobs, key=lambda b: -b.area)
    centres = np.array([b.centre for b in ordered])
    reach = SPLINTER_DISTANCE * lattice.pitches(lattice.axial(centres))
    kept: list[int] = []
    for i in range(len(ordered)):
        if all(np.linalg.norm(centres[i] - centres[j]) > reach[i] for j in kept):
            kept.append(i)
    return [ordered[i] for i in kept]
