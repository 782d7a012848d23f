"""Describe one tile top by its glyph: rectified crop, then rotation-invariant features.

The crop undoes the local perspective using the lattice's steps at the tile, so every tile
top becomes the same regular hexagon (``CROP_PX`` square, lattice pitch ``CANON_PITCH``).
A player may lay a tile turned any sixth of a circle, so every feature is invariant to
rotation: ring profile and angular Fourier magnitudes of the "ink" (difference from the
face colour), Hu moments of the ink shape, and the ink's colour. Shape features let sets
whose creatures share one colour (Carbon) be told apart. Parts of the crop hidden by a taller
stack in front (``crop_mask``) count as plain face, so the occluder is not taken for ink.
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_PX = 48
CANON_PITCH = 44.0
FACE_RADIUS = 15.5  # glyph lives inside this radius (canonical pixels)
RING_INNER, RING_OUTER = 15.5, 18.0  # clean face between glyph and rim
POLAR_ANGLES, POLAR_RADII = 64, 16
HARMONICS = 8
MIN_RING_PX = 20  # visible ring pixels needed to measure the face colour around an occluder
CANON_BASIS = np.array([[CANON_PITCH, 0.0], [CANON_PITCH / 2, CANON_PITCH * np.sqrt(3) / 2]])

_ys, _xs = np.mgrid[0:CROP_PX, 0:CROP_PX] - (CROP_PX - 1) / 2
_RADIUS = np.hypot(_xs, _ys)
_RING = (_RADIUS >= RING_INNER) & (_RADIUS <= RING_OUTER)
_DISK = _RADIUS < FACE_RADIUS
_TOP = _RADIUS <= RING_OUTER
_BANDS = np.minimum((_RADIUS / FACE_RADIUS * 8).astype(int), 8)
FEATURE_COUNT = 8 + 4 * HARMONICS + 3 + 7 + 2
COLOUR_FEATURES = np.arange(8 + 4 * HARMONICS, 11 + 4 * HARMONICS)  # ink colour: still right on a partial view


def _crop_matrix(centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The 2x3 affine map from canonical crop pixels to frame pixels."""
    linear = np.asarray(basis, np.float64).T @ np.linalg.inv(CANON_BASIS.T)
    middle = np.full(2, (CROP_PX - 1) / 2)
    return np.column_stack([linear, np.asarray(centre, np.float64) - linear @ middle])


def rectified_crop(frame: np.ndarray, centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The tile top around ``centre`` warped so the lattice steps ``basis`` (2, 2) become regular."""
    return cv2.warpAffine(frame, _crop_matrix(centre, basis), (CROP_PX, CROP_PX),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def crop_mask(polygons: list[np.ndarray], centre: np.ndarray, basis: np.ndarray) -> np.ndarray | None:
    """Which pixels of ``rectified_crop(_, centre, basis)`` lie inside any frame polygon (K, 2).

    None if the polygons hide nothing of the tile top (its face out to ``RING_OUTER``).
    """
    if not polygons:
        return None
    matrix = _crop_matrix(centre, basis)
    to_crop = np.linalg.inv(matrix[:, :2])
    mask = np.zeros((CROP_PX, CROP_PX), np.uint8)
    for polygon in polygons:
        inside = (np.asarray(polygon, np.float64) - matrix[:, 2]) @ to_crop.T
        cv2.fillPoly(mask, [np.round(inside * 4).astype(np.int32)], 1, shift=2)
    return mask.astype(bool) if (mask.astype(bool) & _TOP).any() else None


def hidden_share(hidden: np.ndarray | None) -> float:
    """The share of the glyph area that ``hidden`` (a ``crop_mask``) covers."""
    return 0.0 if hidden is None else float((hidden & _DISK).sum() / _DISK.sum())


def glyph_features(crop: np.ndarray, hidden: np.ndarray | None = None) -> np.ndarray:
    """The feature vector (``FEATURE_COUNT``,) of one rectified tile-top crop.

    ``hidden`` (crop-sized bool) marks pixels covered by something else: they count as face.
    """
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    visible = np.ones_like(_DISK) if hidden is None else ~hidden
    ring = _RING & visible if (_RING & visible).sum() >= MIN_RING_PX else _RING
    disk = _DISK & visible if (_DISK & visible).any() else _DISK
    face = np.median(lab[ring], axis=0)
    diff = lab - face
    if hidden is not None:
        diff[hidden] = 0.0
    ink = np.sqrt((diff ** 2).sum(axis=2)) * _DISK
    contrast = max(float(np.percentile(ink[disk], 97)), 12.0)
    ink = np.clip(ink / contrast, 0, 1)
    rings = np.bincount(_BANDS.ravel(), ink.ravel(), minlength=9)[:8] / np.maximum(
        np.bincount(_BANDS.ravel(), minlength=9)[:8], 1)
    polar = cv2.warpPolar(ink, (POLAR_RADII, POLAR_ANGLES), ((CROP_PX - 1) / 2, (CROP_PX - 1) / 2), FACE_RADIUS,
                          cv2.WARP_POLAR_LINEAR)
    spectrum = np.abs(np.fft.rfft(polar.reshape(POLAR_ANGLES, 4, -1).mean(axis=2), axis=0))
    harmonics = (spectrum[1:HARMONICS + 1] / (spectrum[0:1] + 1.0)).T.ravel()
    strong = ink > 0.5
    weights = ink[..., None] * strong[..., None]
    total = float(weights.sum()) + 1e-6
    colour = (lab * weights).sum(axis=(0, 1)) / total - np.array([0.0, 128.0, 128.0])
    colour[0] = ((diff[..., 0:1] * weights).sum() / total)  # ink brightness relative to the face
    hu = cv2.HuMoments(cv2.moments(strong.astype(np.uint8), binaryImage=True)).ravel()
    hu = -np.sign(hu) * np.log10(np.abs(hu) + 1e-12)
    area = strong.sum() / _DISK.sum()
    gradient = np.hypot(*np.gradient(ink))
    thinness = float((gradient * _DISK).sum() / (ink.sum() + 1.0))
    return np.concatenate([rings, harmonics, colour / 40.0, np.clip(hu, -12, 12) / 4, [area, thinness]]
                          ).astype(np.float64)
