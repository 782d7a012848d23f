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

from calibration.camera import CameraModel
from rules.hexgrid import Hex
from rules.pieces import Colour
from vision.lattice import (PERSPECTIVE_TILES, Lattice, basis_pitch, fit_lattice, hex_round, nearest_spacing,
                            refit_flat)
from vision.tilemaps import Peak, TileMapper, TileMaps, median_pitch, tile_tops

MAX_LEVEL = 6  # a stack top is looked for up to this many tiles high
OUTLINE_RING = (0.35, 0.65)  # pitches from a lone top's centre where its outline's edges are looked for
LEVEL_PENALTY = 0.06  # pitches of fit error a stack one level higher must save to be believed (the tile map places centres less exactly than face outlines did)
HELD_FIT = 0.2  # pitches: the last frame's lattice still holds if HELD_SHARE of the tops lie this near its cells
HELD_SHARE = 0.8
HELD_SLACK = 0.05  # pitches: ... and if its tops lie on average at most this much farther from its cells than a fresh fit's
HELD_PITCH = 0.15  # ... and its pitch within this share of a fresh fit's
HELD_INLIER = 0.3  # pitches: the tops within this of the held lattice's cells refit it


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
    fitted_to: int = 0  # how many tops the lattice was fitted to (in this frame or, held, before)


def locate_tiles(frame: np.ndarray, mapper: TileMapper) -> Located:
    """Find every tile top in a BGR frame and give it lattice coordinates (one per cell)."""
    maps, found = tile_tops(mapper, frame)
    return place_tops(found, maps, frame)


def place_tops(found: list[Peak], maps: TileMaps, frame: np.ndarray, held: Located | None = None,
               lens: CameraModel | None = None) -> Located:
    """Give the tops ``found`` in a BGR ``frame`` lattice coordinates (one per cell); ``lens``: the
    frame's intrinsics (None: an ideal lens).

    ``held`` (where the frames before placed their tops: the camera and table keep still) lends
    its lattice to a hive of PERSPECTIVE_TILES or more tops that it still fits (``_holds``), as it
    is or moved across the frame with them (a knocked table), and whose stacks it sees as a fresh
    fit does (``_stacks_alike``): so a top that comes and goes, or a tile nudged by a hand, moves
    no other top's cell or level; refitted to the tops it explains once more tops show than it was
    fitted to. Else the lattice fitted afresh places them."""
    if not found:
        return Located([], None, maps)
    centres = np.array([p.centre for p in found])
    angle = outline_angle(frame, found[0]) if len(found) == 1 else 0.0
    fresh = _on_the_table(fit_lattice(centres, median_pitch(found), _size(frame), angle, lens)[0], centres,
                          _size(frame))
    if held is None or held.lattice is None or len(found) < PERSPECTIVE_TILES:
        return _placed(found, fresh, maps, len(found))
    pitches = (_pitch_at(fresh.lattice, centres), nearest_spacing(centres, median_pitch(found)))
    kept = _Placing.of(held.lattice, centres)
    if not (_holds(kept, fresh, centres, pitches) and _stacks_alike(kept, fresh)):
        kept = _Placing.of(held.lattice.moved_onto(centres), centres)
        if not (_holds(kept, fresh, centres, pitches) and _stacks_alike(kept, fresh)):
            return _placed(found, fresh, maps, len(found))
    if len(found) <= held.fitted_to:
        return _placed(found, kept, maps, held.fitted_to)
    refitted = _on_the_table(_refitted(kept.lattice, centres, _size(frame)), centres, _size(frame))
    return _placed(found, refitted, maps, len(found))


@dataclass(frozen=True)
class _Placing:
    """A lattice and where it places each top (``cells_and_levels``), worked out once."""

    lattice: Lattice
    cells: list[Hex]
    levels: list[int]
    offsets: np.ndarray  # (N,) pitches from each top's cell at its level

    @staticmethod
    def of(lattice: Lattice, centres: np.ndarray) -> "_Placing":
        return _Placing(lattice, *cells_and_levels(centres, lattice))


def _on_the_table(lattice: Lattice, centres: np.ndarray, frame_size: tuple[int, int]) -> _Placing:
    """``lattice``, fitted again without the tops it places on stacks if it places any (they lie
    nearer the camera than their cells: left in, they pull the fit), and where it places the tops."""
    placing = _Placing.of(lattice, centres)
    flat = [i for i, level in enumerate(placing.levels) if level == 1]
    if PERSPECTIVE_TILES <= len(flat) < len(centres):
        return _Placing.of(refit_flat(lattice, centres[flat], [placing.cells[i] for i in flat], frame_size), centres)
    return placing


def _placed(found: list[Peak], placing: _Placing, maps: TileMaps, fitted_to: int) -> Located:
    """The tops ``found`` where ``placing`` puts them, one per cell."""
    levels = [placing.lattice.lifted(k) for k in range(MAX_LEVEL)]
    return Located(_one_per_cell(found, placing.cells, placing.levels, levels), placing.lattice, maps, fitted_to)


def _size(frame: np.ndarray) -> tuple[int, int]:
    """A frame's (width, height)."""
    return frame.shape[1], frame.shape[0]


def _holds(held: _Placing, fresh: _Placing, centres: np.ndarray, pitches: tuple[float, float | None]) -> bool:
    """Whether the ``held`` lattice still fits the top ``centres`` (N, 2) as well as the ``fresh``
    fit does: HELD_SHARE of them within HELD_FIT pitches of its cells, on average no more than
    HELD_SLACK pitches farther from them, at a pitch within HELD_PITCH of one of ``pitches``: the
    fresh fit's and the tops' median distance to their nearest neighbour (None: too few have one).
    A lattice a third of the tiles' size turned by 30 degrees holds every top too (a split hive was
    so fitted); a fresh fit to a hive split in two can be as far off (the parts placed a cell apart,
    a homography bent to join them)."""
    pitch = _pitch_at(held.lattice, centres)
    return bool(np.mean(held.offsets <= HELD_FIT) >= HELD_SHARE
                and held.offsets.mean() <= fresh.offsets.mean() + HELD_SLACK
                and any(abs(np.log(pitch / ref)) <= np.log(1 + HELD_PITCH) for ref in pitches if ref))


def _pitch_at(lattice: Lattice, centres: np.ndarray) -> float:
    """The median pitch of ``lattice`` where the top ``centres`` (N, 2) lie."""
    return float(np.median(lattice.pitches(lattice.axial(centres))))


def _stacks_alike(held: _Placing, fresh: _Placing) -> bool:
    """Whether the ``held`` lattice, as it was or moved with the tops (a knocked table or a nudged
    camera moves the whole hive alike), may place them: it sees at most one stack more than the
    ``fresh`` fit (the move made as the hand knocked). Fitted afresh, a hive that a missed top or an
    illegal move split in two could have its parts placed a cell apart (a gap of two pitches, its
    tiles a little off the lattice, rounded the wrong way); but a lattice off by whole tile
    thicknesses fits most tops at some stack level, as one left from another camera pose did (a
    resumed game filmed from elsewhere: every flat tile placed three or four high)."""
    return sum(level > 1 for level in held.levels) <= sum(level > 1 for level in fresh.levels) + 1


def _refitted(held: Lattice, centres: np.ndarray, frame_size: tuple[int, int]) -> Lattice:
    """``held`` fitted again (least squares, every top weighed alike) to the tops that lie within
    HELD_INLIER pitches of its cells on the table (as a fresh fit takes every top to lie there
    first: a top taken for a stack's and left out would stay one), if enough do to fit its perspective."""
    cells = hex_round(held.axial(centres))
    offsets = np.linalg.norm(centres - held.pixels(cells), axis=1) / held.pitches(cells)
    inliers = offsets <= HELD_INLIER
    if inliers.sum() < PERSPECTIVE_TILES:
        return held
    return refit_flat(held, centres[inliers], [(int(q), int(r)) for q, r in cells[inliers]], frame_size)


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


def cells_and_levels(centres: np.ndarray, lattice: Lattice) -> tuple[list[Hex], list[int], np.ndarray]:
    """For each top centre (N, 2), the cell and stack level whose lifted ``lattice`` centre explains it
    best, and (N,) its distance from that centre in pitches."""
    scores, cells, errors = [], [], []
    for level in range(MAX_LEVEL):
        lifted = lattice.lifted(level)
        cell = hex_round(lifted.axial(centres))
        error = np.linalg.norm(centres - lifted.pixels(cell), axis=1) / lifted.pitches(cell)
        scores.append(error + LEVEL_PENALTY * level)
        cells.append(cell)
        errors.append(error)
    best = np.argmin(np.array(scores), axis=0)
    chosen = [tuple(int(v) for v in cells[k][i]) for i, k in enumerate(best)]
    return chosen, [int(k) + 1 for k in best], np.array(errors)[best, np.arange(len(centres))]
