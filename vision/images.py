"""Reading photos from disk with one clear error for every way it can fail."""

from __future__ import annotations

import os

import cv2
import numpy as np


class ImageReadError(ValueError):
    """A file is missing, unreadable or not an image."""


def read_image(path: str | os.PathLike[str]) -> np.ndarray:
    """The BGR image at ``path``; ``ImageReadError`` saying why if there is none."""
    try:
        raw = np.fromfile(path, np.uint8)
    except OSError as exc:
        raise ImageReadError(f"{path}: cannot read image ({exc.strerror or exc})") from exc
    image = cv2.imdecode(raw, cv2.IMREAD_COLOR) if raw.size else None
    if image is None:
        raise ImageReadError(f"{path}: not a readable image")
    return image
