"""Loading hivecam's ONNX networks into OpenCV's ``cv2.dnn`` (no other runtime on the Pi).

Each caller gets a network of its own: one ``cv2.dnn.Net`` must not run in two threads at once
(the live loop's detector and an enrollment from the web page).
"""

from __future__ import annotations

from pathlib import Path

import cv2


def load_network(path: Path, train_command: str) -> cv2.dnn.Net:
    """The network in the ONNX file ``path``; ``FileNotFoundError`` saying how to train it if missing."""
    if not path.is_file():
        raise FileNotFoundError(f"{path}: this network is missing (train it: {train_command})")
    return cv2.dnn.readNetFromONNX(str(path))
