"""Where the tiles are: the tile map's centres, the hex lattice fitted to them, one top per cell.

The tile map network (``vision.tilemaps``) finds tile-top centres wherever tiles lie, touching
or not, without relying on a rim between faces. The lattice fitted to those centres gives
every top its cell, and the lattice lifted by whole tile thicknesses its stack level: a top
lies at the level whose lifted lattice explains its centre best. A lone top (the game's first
tile) has no neighbour to turn the lattice by: its outline's edges do.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.hexgrid import Hex
from rules.pieces import Colour
from vision.lattice import PERSPECTIVE_TILES, Lattice, basis_pitch, fit_lattice, hex_round, refit_flat
from vision.tilemaps import Peak, TileMapper, TileMaps, median_pitch, tile_tops

MAX_LEVEL = 6  # a stack top is looked for up to this many tiles high
OUTLINE_RING = (0.35, 0.65)  # pitches from a lone top's centre where its outline's edges are looked for
LEVEL_PENALTY = 0.06  # pitches of fit error a stack one level higher must save to be believed (the tile map places centres less exactly than face outlines did)


@dataclass(frozen=True)
class LocatedTile:
    """One stack top: its cell, where it lies in the frame, its colour and the lattice steps there."""

    cell: Hex
    centre: np.ndarray  # pixels
    colour: Colour  # the tile map's reading (the detector weighs it with the creature profile's)
    white: float  # the tile map's probability that the top is white
    basis: np.ndarray  # (2, 2) pixel steps east and south-east at this tile's top
    level: int  # 1 = lying on the table, 2 = on one other tile...
    offset: float  # distance from the lattice centre of its cell at that level, in pitches
    score: float  # the tile map's centre heat


@dataclass
class Located:
    tiles: list[LocatedTile]
    lattice: Lattice | None
    maps: TileMaps


def locate_tiles(frame: np.ndarray, mapper: TileMapper) -> Located:
    """Find every tile top in a BGR frame and give it lattice coordinates (one per cell)."""
    maps, found = tile_tops(mapper, frame)
    return place_tops(found, maps, frame)


def place_tops(found: list[Peak], maps: TileMaps, frame: np.ndarray) -> Located:
    """Give the tops ``found`` in a BGR ``frame`` lattice coordinates (one per cell)."""
    if not found:
        return Located([], None, maps)
    height, width = frame.shape[:2]
    centres = np.array([p.centre for p in found])
    angle = outline_angle(frame, found[0]) if len(found) == 1 else 0.0
    lattice, _ = fit_lattice(centres, median_pitch(found), (width, height), angle)
    levels = [lattice.lifted(k) for k in range(MAX_LEVEL)]
    cells, levels_of = cells_and_levels(centres, levels)
    flat = [i for i, level in enumerate(levels_of) if level == 1]
    if PERSPECTIVE_TILES <= len(flat) < len(found):  # stacks seen: fit the table's lattice without them
        lattice = refit_flat(lattice, centres[flat], [cells[i] for i in flat], (width, height))
        levels = [lattice.lifted(k) for k in range(MAX_LEVEL)]
        cells, levels_of = cells_and_levels(centres, levels)
    return Located(_one_per_cell(found, cells, levels_of, levels), lattice, maps)


def outline_angle(frame: np.ndarray, top: Peak) -> float:
    """The turn (radians, modulo 60 degrees) of the lattice steps of a BGR ``frame``'s ``top``:
    its hexagon's edges lie across the steps, so their gradients, their angles folded by six,
    point along them."""
    inner, outer = (top.pitch * share for share in OUTLINE_RING)
    reach = int(np.ceil(outer)) + 1
    x0, y0 = (max(int(round(v)) - reach, 0) for v in top.centre)
    window = cv2.cvtColor(frame[y0:y0 + 2 * reach + 1, x0:x0 + 2 * reach + 1], cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx, gy = cv2.Sobel(window, cv2.CV_32F, 1, 0), cv2.Sobel(window, cv2.CV_32F, 0, 1)
    rows, cols = np.indices(window.shape)
    distance = np.hypot(cols + x0 - top.centre[0], rows + y0 - top.centre[1])
    ring = (distance > inner) & (distance < outer)
    folded = ((gx[ring] ** 2 + gy[ring] ** 2) * np.exp(6j * np.arctan2(gy[ring], gx[ring]))).sum()
    return float(np.angle(folded) / 6)


def _one_per_cell(found: list[Peak], cells: list[Hex], levels_of: list[int], levels: list[Lattice]
                  ) -> list[LocatedTile]:
    """One tile per cell: a stack's top hides its lower tiles, so the highest (then best placed) wins."""
    where, level_index = np.array(cells, np.float64), np.array(levels_of) - 1
    centres = np.array([peak.centre for peak in found])
    offsets, bases = np.empty(len(found)), np.empty((len(found), 2, 2))
    for k in np.unique(level_index):  # each level's lattice once for all its tops
        rows = np.flatnonzero(level_index == k)
        bases[rows] = levels[k].bases(where[rows])
        offsets[rows] = (np.linalg.norm(centres[rows] - levels[k].pixels(where[rows]), axis=1)
                         / basis_pitch(bases[rows]))
    best: dict[Hex, LocatedTile] = {}
    for peak, cell, level, offset, basis in zip(found, cells, levels_of, offsets, bases):
        colour = Colour.WHITE if peak.white >= 0.5 else Colour.BLACK
        tile = LocatedTile(cell, peak.centre, colour, peak.white, basis, level, float(offset), peak.score)
        if cell not in best or (level, -offset) > (best[cell].level, -best[cell].offset):
            best[cell] = tile
    return list(best.values())


def cells_and_levels(centres: np.ndarray, levels: list[Lattice]) -> tuple[list[Hex], list[int]]:
    """For each top centre (N, 2), the cell and stack level whose lifted lattice centre explains it best."""
    scores, cells = [], []
    for level, lattice in enumerate(levels):
        cell = hex_round(lattice.axial(centres))
        error = np.linalg.norm(centres - lattice.pixels(cell), axis=1) / lattice.pitches(cell)
        scores.append(error + LEVEL_PENALTY * level)
        cells.append(cell)
    best = np.argmin(np.array(scores), axis=0)
    chosen = [tuple(int(v) for v in cells[k][i]) for i, k in enumerate(best)]
    return chosen, [int(k) + 1 for k in best]
