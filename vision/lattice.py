"""Fit the hex lattice to tile centres and give every tile axial coordinates.

Neighbouring centres differ by one of six lattice steps. The dominant step direction
(angles folded modulo 60 degrees) seeds an affine basis, refined by least squares over all
neighbour offsets (this absorbs the foreshortening of a tilted camera). Coordinates are
spread from one tile over the neighbour graph, then a lattice-to-pixel homography fitted to
all of them re-assigns every tile by rounding, which also places tiles with no neighbour.
Where stack tops lie (the image of the table's normal) comes from the camera pose fitted to
the same centres with an assumed pinhole camera. With too few tiles, or all but one in a row
(which pins nothing across the row), the fit stays affine and the camera is taken to face
the table. With the camera's intrinsics (``hivecam calibrate camera``) the lattice is fitted to
the centres as a pinhole would show them and bent back through the lens where it meets pixels:
the frame itself is read as the lens shows it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from calibration.camera import CameraModel
from rules.hexgrid import OFFSETS, Hex

SQRT3 = float(np.sqrt(3))
STEPS = np.array(OFFSETS, np.float64)  # axial neighbour offsets, clockwise from east


TILE_THICKNESS_PITCH = 0.31  # tile thickness / centre spacing (12 / 38.8 standard, 8 / 25.8 pocket)
PERSPECTIVE_TILES = 6  # with fewer tiles, the fit is affine and the camera taken to face the table
STEP_FIT = 0.3  # pitches: a neighbour offset this near a lattice step steers the steps' fit (all did: nine training
# styles, 150 frames each, seeds 1 and 2, tops missed 272 -> 253 and 262 -> 242, misread 462 -> 410 and 442 -> 385)
NEIGHBOUR_REACH = 1.45  # pitches: two centres at most this far apart (and over 0.6 pitches) are neighbours
CLOSER_SHARE = 0.9  # tops whose usual spacing is under this share of the pitch guessed are placed at their spacing
SPACED_TOPS = 4  # ... if at least this many tops have a nearest neighbour (a blurred small tile looks larger: its
# guessed pitch ran up to 1.6 times its spacing, and with neighbours then sought that far the lattice took every second
# neighbour's offset for a step)
NEAREST_FLOOR = 0.4  # guessed pitches: a top nearer another than this is no neighbour of it (a stack's own lift)
ASSUMED_HFOV_DEG = 66.0  # without intrinsics: Raspberry Pi Camera Module 3, principal point at the centre


@dataclass(frozen=True)
class Lattice:
    """A lattice-plane-to-pixel homography; lattice plane = axial cell at unit pitch.

    ``up`` is the image of the lattice plane's normal at the same scale, so the plane lifted
    ``dz`` pitches towards the camera maps by the homography with ``dz * up`` added to its
    last column (as for a camera facing the table square on when too few tiles show its tilt).
    With a ``lens``, the homography maps to the pinhole image, which the lens then bends.
    """

    homography: np.ndarray  # 3x3: (q + r/2, r*sqrt(3)/2, 1) -> pixel
    up: np.ndarray = field(default_factory=lambda: np.zeros(3))
    lens: CameraModel | None = field(default=None, compare=False)

    def lifted(self, levels: float) -> "Lattice":
        """The lattice of tile tops ``levels`` tile thicknesses higher."""
        homography = self.homography.copy()
        homography[:, 2] += levels * TILE_THICKNESS_PITCH * self.up
        return Lattice(homography, self.up, self.lens)

    def moved_onto(self, centres: np.ndarray) -> "Lattice":
        """This lattice shifted across the image by the median offset of ``centres`` (N, 2) from
        the nearest of its cells' centres on the table (tops on stacks, the fewer, sway no median)."""
        pinhole, points = replace(self, lens=None), _pinhole(centres, self.lens)
        dx, dy = np.median(points - pinhole.pixels(hex_round(pinhole.axial(points))), axis=0)
        return replace(self, homography=np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]]) @ self.homography)

    def pixel(self, cell: tuple[float, float]) -> np.ndarray:
        """Pixel centre of a (possibly fractional) axial cell."""
        return self.pixels(np.asarray(cell, np.float64)[None])[0]

    def pixels(self, cells: np.ndarray) -> np.ndarray:
        """Pixel centres (N, 2) of axial cells (N, 2)."""
        plane = plane_points(cells)
        image = np.column_stack([plane, np.ones(len(plane))]) @ self.homography.T
        pinhole = image[:, :2] / image[:, 2:3]
        return pinhole if self.lens is None else self.lens.distort_points(pinhole)

    def axial(self, pixels: np.ndarray) -> np.ndarray:
        """Fractional axial coordinates (N, 2) of pixels (N, 2)."""
        pixels = np.asarray(pixels, np.float64).reshape(-1, 2)
        pinhole = pixels if self.lens is None else self.lens.undistort_points(pixels)
        plane = cv2.perspectiveTransform(pinhole.reshape(-1, 1, 2),
                                         np.linalg.inv(self.homography)).reshape(-1, 2)
        r = plane[:, 1] * 2 / SQRT3
        return np.column_stack([plane[:, 0] - r / 2, r])

    def basis(self, cell: tuple[float, float]) -> np.ndarray:
        """Local pixel steps (2, 2) for one step east (row 0) and south-east (row 1) at ``cell``."""
        return self.bases(np.asarray(cell, np.float64)[None])[0]

    def bases(self, cells: np.ndarray) -> np.ndarray:
        """``basis`` of every axial cell (N, 2) at once: (N, 2, 2)."""
        cells = np.asarray(cells, np.float64).reshape(-1, 2)
        east, south_east = np.array([0.5, 0.0]), np.array([0.0, 0.5])
        return np.stack([self.pixels(cells + east) - self.pixels(cells - east),
                         self.pixels(cells + south_east) - self.pixels(cells - south_east)], axis=1)

    def pitch(self, cell: tuple[float, float]) -> float:
        """Mean pixel distance between neighbouring centres around ``cell``."""
        return float(self.pitches(np.asarray(cell, np.float64)[None])[0])

    def pitches(self, cells: np.ndarray) -> np.ndarray:
        """``pitch`` of every axial cell (N, 2) at once."""
        return basis_pitch(self.bases(cells))


def basis_pitch(bases: np.ndarray) -> np.ndarray:
    """The pitch of local lattice steps (..., 2, 2): the mean length of the two steps."""
    return np.linalg.norm(bases, axis=-1).mean(axis=-1)


def plane_points(cells: np.ndarray) -> np.ndarray:
    """Lattice-plane points (N, 2) of axial cells (N, 2): unit pitch, east along x."""
    cells = np.asarray(cells, np.float64).reshape(-1, 2)
    return np.column_stack([cells[:, 0] + cells[:, 1] / 2, cells[:, 1] * SQRT3 / 2])


def hex_round(axial: np.ndarray) -> np.ndarray:
    """Nearest whole axial cells (N, 2) of fractional ones (N, 2)."""
    x, z = axial[:, 0], axial[:, 1]
    y = -x - z
    rx, ry, rz = np.round(x), np.round(y), np.round(z)
    dx, dy, dz = np.abs(rx - x), np.abs(ry - y), np.abs(rz - z)
    fix_x = (dx > dy) & (dx > dz)
    fix_z = ~fix_x & (dz >= dy)
    rx = np.where(fix_x, -ry - rz, rx)
    rz = np.where(fix_z, -rx - ry, rz)
    return np.column_stack([rx, rz]).astype(int)


def fit_lattice(centres: np.ndarray, pitch_guess: float, frame_size: tuple[int, int], angle: float = 0.0,
                lens: CameraModel | None = None) -> tuple[Lattice, list[Hex]] | None:
    """The lattice through ``centres`` (N, 2) and each centre's cell; None for no centres.

    ``frame_size`` (width, height) sets the assumed pinhole camera used to recover ``Lattice.up``;
    ``angle`` (radians, of the east step) is the lattice's turn where no two centres are neighbours;
    ``lens``: the intrinsics of the frame the centres lie in (None: an ideal lens).
    """
    centres = _pinhole(centres, lens)
    if len(centres) == 0:
        return None
    basis = _affine_basis(centres, pitch_guess, angle)
    cells = _spread_coordinates(centres, basis)
    lattice = _fit_homography(centres, cells, basis, frame_size)
    for _ in range(2):
        cells = hex_round(lattice.axial(centres))
        lattice = _fit_homography(centres, cells, basis, frame_size)
    return replace(lattice, lens=lens), [(int(q), int(r)) for q, r in cells]


def _pinhole(centres: np.ndarray, lens: CameraModel | None) -> np.ndarray:
    """Pixels (N, 2) as an ideal lens would show them (``lens``: the one that shows them; None: ideal)."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    return centres if lens is None or len(centres) == 0 else lens.undistort_points(centres)


def refit_flat(lattice: Lattice, centres: np.ndarray, cells: list[Hex], frame_size: tuple[int, int]) -> Lattice:
    """``lattice`` fitted again to the centres (N, 2) of tiles known to lie on the table, in ``cells``.

    Stack tops sit nearer the camera than their cells' table-level centres: left in, they
    pull the fit (and the recovered pose) towards them.
    """
    cells = np.asarray(cells, np.int64).reshape(-1, 2)
    basis = replace(lattice, lens=None).basis(tuple(cells.mean(axis=0)))
    refitted = _fit_homography(_pinhole(centres, lattice.lens), cells, basis, frame_size, robust=False)
    return replace(refitted, lens=lattice.lens)


def _neighbour_pairs(centres: np.ndarray, pitch: float) -> tuple[np.ndarray, np.ndarray]:
    diff = centres[None, :, :] - centres[:, None, :]
    dist = np.linalg.norm(diff, axis=2)
    i, j = np.nonzero((dist > 0.6 * pitch) & (dist < NEIGHBOUR_REACH * pitch))
    return np.column_stack([i, j]), diff[i, j]


def _spacing(centres: np.ndarray, pitch_guess: float) -> float:
    """The pitch to seek neighbours at: ``nearest_spacing`` where it is under CLOSER_SHARE of
    ``pitch_guess``; else the guess (a loose hive's tops lie farther apart than a pitch)."""
    spacing = nearest_spacing(centres, pitch_guess)
    return spacing if spacing is not None and spacing < CLOSER_SHARE * pitch_guess else pitch_guess


def nearest_spacing(centres: np.ndarray, pitch_guess: float) -> float | None:
    """The tops' (N, 2) median distance to their nearest neighbour (the nearest other top over
    NEAREST_FLOOR and under NEIGHBOUR_REACH guesses away), if SPACED_TOPS or more have one; else None."""
    distance = np.linalg.norm(centres[None, :, :] - centres[:, None, :], axis=2)
    distance[distance <= NEAREST_FLOOR * pitch_guess] = np.inf
    nearest = distance.min(axis=1)
    nearest = nearest[nearest < NEIGHBOUR_REACH * pitch_guess]
    return float(np.median(nearest)) if len(nearest) >= SPACED_TOPS else None


def _affine_basis(centres: np.ndarray, pitch_guess: float, angle: float) -> np.ndarray:
    """Pixel steps (2, 2) for east and south-east, fitted to the neighbour offsets that lie within
    STEP_FIT pitches of a step (with none, turned by ``angle``): a stack top's offset to its
    neighbours (it lies nearer the camera) is no step, and fitted in it can shear the lattice."""
    _, offsets = _neighbour_pairs(centres, _spacing(centres, pitch_guess))
    if len(offsets) == 0:
        pitch = pitch_guess
    else:
        folded = np.exp(6j * np.arctan2(offsets[:, 1], offsets[:, 0])).mean()
        angle, pitch = float(np.angle(folded) / 6), float(np.median(np.linalg.norm(offsets, axis=1)))
    basis = pitch * np.array([[np.cos(angle), np.sin(angle)],
                              [np.cos(angle + np.pi / 3), np.sin(angle + np.pi / 3)]])
    for _ in range(3):
        if len(offsets) < 3:
            break
        steps, fits = _nearest_steps(offsets, basis, STEP_FIT)
        if np.linalg.matrix_rank(steps[fits]) < 2:
            break
        basis = np.linalg.lstsq(steps[fits], offsets[fits], rcond=None)[0]
    return basis


def _nearest_steps(offsets: np.ndarray, basis: np.ndarray, within: float) -> tuple[np.ndarray, np.ndarray]:
    """Each offset's (N, 2) nearest lattice step (N, 2 axial) under ``basis``, and whether it lies
    within ``within`` pitches of that step (N,)."""
    predicted = STEPS @ basis  # (6, 2)
    index = np.argmin(np.linalg.norm(offsets[:, None, :] - predicted[None], axis=2), axis=1)
    steps = STEPS[index]
    pitch = float(np.linalg.norm(basis, axis=1).mean())
    return steps, np.linalg.norm(offsets - steps @ basis, axis=1) < within * pitch


def _spread_coordinates(centres: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Integer axial cells (N, 2) spread from the most central tile over the neighbour graph."""
    pitch = float(np.linalg.norm(basis, axis=1).mean())
    pairs, offsets = _neighbour_pairs(centres, pitch)
    cells = np.full((len(centres), 2), np.iinfo(np.int64).min, np.int64)
    links: dict[int, list[tuple[int, np.ndarray]]] = {}
    if len(pairs):
        steps, good = _nearest_steps(offsets, basis, 0.35)
        for (i, j), step in zip(pairs[good], steps[good]):
            links.setdefault(int(i), []).append((int(j), step.astype(np.int64)))
    inverse = np.linalg.inv(basis.T)
    remaining = set(range(len(centres)))
    start = int(np.argmin(np.linalg.norm(centres - centres.mean(axis=0), axis=1)))
    origin = centres[start]
    while remaining:
        if start not in remaining:
            start = min(remaining, key=lambda k: np.linalg.norm(centres[k] - origin))
            cells[start] = np.round(inverse @ (centres[start] - origin)).astype(np.int64)
        else:
            cells[start] = (0, 0)
        queue = deque([start])
        remaining.discard(start)
        while queue:
            i = queue.popleft()
            for j, step in links.get(i, []):
                if j in remaining:
                    cells[j] = cells[i] + step
                    remaining.discard(j)
                    queue.append(j)
    return cells


def _intrinsics(frame_size: tuple[int, int]) -> np.ndarray:
    """The assumed pinhole camera matrix for a frame of ``frame_size`` (width, height)."""
    width, height = frame_size
    focal = width / 2 / np.tan(np.radians(ASSUMED_HFOV_DEG / 2))
    return np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])


def _posed(homography: np.ndarray, plane: np.ndarray, centres: np.ndarray, k: np.ndarray) -> Lattice:
    """``homography`` with the plane normal's image from the camera pose that best explains the centres.

    The pose (a rotation and a shift, IPPE) is fitted with the lattice plane kept flat and
    square, which pins the normal far better than decomposing the looser homography does.
    """
    if len(plane) < 4:
        return _facing(homography, k)
    objects = np.column_stack([plane, np.zeros(len(plane))])
    count, rotations, shifts, errors = cv2.solvePnPGeneric(objects, centres.astype(np.float64), k, None,
                                                           flags=cv2.SOLVEPNP_IPPE)
    if not count:
        return _facing(homography, k)
    best = int(np.argmin(np.ravel(errors)))
    rotation, shift = cv2.Rodrigues(rotations[best])[0], shifts[best].ravel()
    pose = k @ np.column_stack([rotation[:, 0], rotation[:, 1], shift])
    scale = float((homography * pose).sum() / (pose * pose).sum())  # homography ~ scale * pose
    normal = rotation[:, 2] if rotation[:, 2] @ shift < 0 else -rotation[:, 2]  # towards the camera
    up = scale * (k @ normal)
    return Lattice(homography, up) if np.isfinite(up).all() else _facing(homography, k)


def _facing(homography: np.ndarray, k: np.ndarray) -> Lattice:
    """``homography`` with the plane taken to face the camera square on (too few tiles to tell its tilt)."""
    columns = np.linalg.inv(k) @ homography
    scale = float(np.sqrt(np.linalg.norm(columns[:, 0]) * np.linalg.norm(columns[:, 1])))
    return Lattice(homography, scale * (k @ np.array([0.0, 0.0, -1.0])))


def _spread_out(cells: np.ndarray) -> bool:
    """Whether distinct axial ``cells`` (N, 2) pin a homography: at most N - 2 of them on one line.

    A line of tiles with one tile beside it (a common early hive) has enough points but fixes
    nothing across the line; its homography and pose are arbitrary.
    """
    count = len(cells)
    if count < 4:
        return False
    step = cells[None, :, :] - cells[:, None, :]  # step[i, j] = cell j - cell i
    cross = step[:, :, None, 0] * step[:, None, :, 1] - step[:, :, None, 1] * step[:, None, :, 0]
    on_line = (cross == 0).sum(axis=2)  # on_line[i, j]: cells on the line through i and j
    np.fill_diagonal(on_line, 0)
    return int(on_line.max()) <= count - 2


def _fit_homography(centres: np.ndarray, cells: np.ndarray, basis: np.ndarray,
                    frame_size: tuple[int, int], robust: bool = True) -> Lattice:
    """The lattice through ``centres`` in ``cells``; ``robust`` (RANSAC) while some cells may be wrong."""
    plane = plane_points(cells)
    distinct = np.unique(cells, axis=0)
    k = _intrinsics(frame_size)
    if len(distinct) >= PERSPECTIVE_TILES and _spread_out(distinct):
        pitch = float(np.linalg.norm(basis, axis=1).mean())
        homography, inliers = cv2.findHomography(plane, centres, cv2.RANSAC if robust else 0, 0.3 * pitch)
        if homography is not None:
            inliers = inliers.ravel() > 0
            if _spread_out(np.unique(cells[inliers], axis=0)):
                return _posed(homography, plane[inliers], centres[inliers], k)
    # too few tiles for perspective, or nearly all in one row: an affine map with the fitted
    # basis, anchored on the mean
    to_plane = np.array([[1.0, 0.5], [0.0, SQRT3 / 2]])  # axial -> lattice plane
    linear = basis.T @ np.linalg.inv(to_plane)  # lattice plane -> pixel
    shift = (centres - plane @ linear.T).mean(axis=0)
    return _facing(np.vstack([np.column_stack([linear, shift]), [0, 0, 1]]), k)
