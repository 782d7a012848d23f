"""Where the tiles are: segmentation plus lattice fit, one located tile per occupied cell."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hexgrid import Hex
from rules.pieces import Colour
from vision.lattice import Lattice, fit_lattice, hex_round
from vision.segment import Blob, Segmentation, segment

PITCH_PER_ROOT_AREA = 1.26  # lattice pitch / sqrt(face area) for a face inset by the rim
MAX_LEVEL = 5  # a stack top is looked for up to this many tiles high
LEVEL_PENALTY = 0.02  # pitches of fit error a stack one level higher must save to be believed
SPLINTER_DISTANCE = 0.55  # pitches: two faces never lie closer than this


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
    levels = [lattice.lifted(k) for k in range(MAX_LEVEL)]
    best: dict[Hex, LocatedTile] = {}
    blobs = _without_splinters(seg.blobs, lattice)
    cells, levels_of = _cells_and_levels(np.array([b.centre for b in blobs]), np.array([b.cut for b in blobs]),
                                         levels)
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


def _cells_and_levels(centres: np.ndarray, cut: np.ndarray, levels: list[Lattice]
                      ) -> tuple[list[Hex], list[int]]:
    """For each face centre (N, 2), the cell and stack level whose lifted lattice centre explains it best.

    Faces cut by the frame border (``cut``) have biased centres: they are taken to lie on the table.
    """
    scores, cells = [], []
    for level, lattice in enumerate(levels):
        cell = hex_round(lattice.axial(centres))
        error = np.linalg.norm(centres - lattice.pixels(cell), axis=1) / lattice.pitches(cell)
        scores.append(np.where(cut & (level > 0), np.inf, error + LEVEL_PENALTY * level))
        cells.append(cell)
    best = np.argmin(np.array(scores), axis=0)
    chosen = [tuple(int(v) for v in cells[k][i]) for i, k in enumerate(best)]
    return chosen, [int(k) + 1 for k in best]


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
