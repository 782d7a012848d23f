"""One tile top as the creature network reads it: a rectified crop.

The crop undoes the local perspective using the lattice's steps at the tile, so every tile
top becomes the same regular hexagon (``CROP_PX`` square, lattice pitch ``CANON_PITCH``).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.lattice import basis_pitch

CROP_PX = 48
CANON_PITCH = 44.0
CANON_BASIS = np.array([[CANON_PITCH, 0.0], [CANON_PITCH / 2, CANON_PITCH * np.sqrt(3) / 2]])


def _crop_matrix(centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The 2x3 affine map from canonical crop pixels to frame pixels."""
    linear = np.asarray(basis, np.float64).T @ np.linalg.inv(CANON_BASIS.T)
    middle = np.full(2, (CROP_PX - 1) / 2)
    return np.column_stack([linear, np.asarray(centre, np.float64) - linear @ middle])


def jittered_crop(frame: np.ndarray, centre: np.ndarray, basis: np.ndarray, rng: np.random.Generator,
                  shift: float, angle: float, scale: float) -> np.ndarray:
    """``rectified_crop`` with the small errors locating a tile makes: the centre off by ``shift``
    pitches, the steps turned by ``angle`` radians and scaled by ``scale`` (standard deviations)."""
    pitch = float(basis_pitch(basis))
    turn = rng.normal(0, angle)
    rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    return rectified_crop(frame, np.asarray(centre) + rng.normal(0, shift * pitch, 2),
                          basis @ rotation.T * rng.normal(1, scale))


def rectified_crop(frame: np.ndarray, centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The tile top around ``centre`` warped so the lattice steps ``basis`` (2, 2) become regular."""
    return cv2.warpAffine(frame, _crop_matrix(centre, basis), (CROP_PX, CROP_PX),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
