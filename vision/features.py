"""One tile top as the creature network reads it: a rectified crop.

The crop undoes the local perspective using the lattice's steps at the tile, so every tile
top becomes the same regular hexagon (``CROP_PX`` square, lattice pitch ``CANON_PITCH``).
"""

from __future__ import annotations

import cv2
import numpy as np

CROP_PX = 48
CANON_PITCH = 44.0
CANON_BASIS = np.array([[CANON_PITCH, 0.0], [CANON_PITCH / 2, CANON_PITCH * np.sqrt(3) / 2]])


def _crop_matrix(centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The 2x3 affine map from canonical crop pixels to frame pixels."""
    linear = np.asarray(basis, np.float64).T @ np.linalg.inv(CANON_BASIS.T)
    middle = np.full(2, (CROP_PX - 1) / 2)
    return np.column_stack([linear, np.asarray(centre, np.float64) - linear @ middle])


def rectified_crop(frame: np.ndarray, centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """The tile top around ``centre`` warped so the lattice steps ``basis`` (2, 2) become regular."""
    return cv2.warpAffine(frame, _crop_matrix(centre, basis), (CROP_PX, CROP_PX),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
