"""Describe one tile top by its glyph: rectified crop, then rotation-invariant features.

The crop undoes the local perspective using the lattice's steps at the tile, so every tile
top becomes the same regular hexagon (``CROP_PX`` square, lattice pitch ``CANON_PITCH``).
A player may lay a tile turned any sixth of a circle, so every feature is invariant to
rotation: ring profile and angular Fourier magnitudes of the "ink" (difference from the
face colour), Hu moments of the ink shape, and the ink's colour. Shape features let sets
whose creatures share one colour (Carbon) be told apart.
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
CANON_BASIS = np.array([[CANON_PITCH, 0.0], [CANON_PITCH / 2, CANON_PITCH * np.sqrt(3) / 2]])

_ys, _xs = np.mgrid[0:CROP_PX, 0:CROP_PX] - (CROP_PX - 1) / 2
_RADIUS = np.hypot(_xs, _ys)
_RING = (_RADIUS >= RING_INNER) & (_RADIUS <= RING_OUTER)
_DISK = _RADIUS < FACE_RADIUS
_BANDS = np.minimum((_RADIUS / FACE_RADIUS * 8).astype(int), 8)
FEATURE_COUNT = 8 + 4 * HARMONICS + 3 + 7 + 2


def rectified_crop(frame: np.ndarray, centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The tile top around ``centre`` warped so the lattice steps ``basis`` (2, 2) become regular."""
    linear = np.asarray(basis, np.float64).T @ np.linalg.inv(CANON_BASIS.T)  # canonical -> image
    middle = np.full(2, (CROP_PX - 1) / 2)
    shift = np.asarray(centre, np.float64) - linear @ middle
    matrix = np.column_stack([linear, shift])
    return cv2.warpAffine(frame, matrix, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def glyph_features(crop: np.ndarray) -> np.ndarray:
    """The feature vector (``FEATURE_COUNT``,) of one rectified tile-top crop."""
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    face = np.median(lab[_RING], axis=0)
    diff = lab - face
    ink = np.sqrt((diff ** 2).sum(axis=2)) * _DISK
    contrast = max(float(np.percentile(ink[_DISK], 97)), 12.0)
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
