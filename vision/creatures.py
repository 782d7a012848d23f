"""The creature network: one rectified tile top in, an embedding out.

``vision/models/creatures.onnx`` (trained on many art styles by ``python -m
vision.training.train creatures``) maps a ``features.rectified_crop`` to a unit vector; tops
printed with the same creature of the same set lie close together whatever the light, turn
or set. A profile (``vision.profile``) holds one prototype vector per colour and
creature, learnt from an enrollment photo of the user's own set.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.dnn import load_network, missing
from vision.features import CROP_PX

EMBEDDING = 32
MODEL_PATH = Path(__file__).with_name("models") / "creatures.onnx"
TRAIN_COMMAND = "python -m vision.training.train creatures"


@lru_cache(maxsize=4)
def network_id(path: Path = MODEL_PATH) -> str:
    """A short fingerprint of the creature network's weights: embeddings (and so profiles)
    made by one network mean nothing to another. ``FileNotFoundError`` if the network is missing."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except FileNotFoundError:
        raise missing(path, TRAIN_COMMAND) from None


def network_input(crops: list[np.ndarray]) -> np.ndarray:
    """The NCHW float32 blob of ``CROP_PX`` square BGR crops."""
    return (np.stack(crops).astype(np.float32) / 255.0 - 0.5).transpose(0, 3, 1, 2).copy()


def turned(crop: np.ndarray, sixths: int) -> np.ndarray:
    """A rectified crop turned by ``sixths`` of a circle about its centre (a tile laid turned)."""
    if sixths % 6 == 0:
        return crop
    middle = (CROP_PX - 1) / 2
    matrix = cv2.getRotationMatrix2D((middle, middle), 60.0 * sixths, 1.0)
    return cv2.warpAffine(crop, matrix, (CROP_PX, CROP_PX), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class CreatureEmbedder:
    """Embeds rectified tile-top crops (a ``cv2.dnn`` net of its own)."""

    def __init__(self, path: Path = MODEL_PATH) -> None:
        self.net = load_network(path, TRAIN_COMMAND)

    def embed(self, crops: list[np.ndarray]) -> np.ndarray:
        """(N, EMBEDDING) unit vectors of N crops."""
        if not crops:
            return np.zeros((0, EMBEDDING), np.float32)
        self.net.setInput(network_input(crops))
        out = self.net.forward().reshape(len(crops), -1)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
