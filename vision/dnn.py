"""Loading hivecam's ONNX networks into OpenCV's ``cv2.dnn`` (no other runtime on the Pi).

Each caller gets a network of its own: one ``cv2.dnn.Net`` must not run in two threads at once
(the live loop's detector and an enrollment from the web page).
"""

from __future__ import annotations

from pathlib import Path

import cv2

# OpenCV 5 has two engines and picks the new one by default; on our two small networks the
# classic one is faster on one core (tile map 9.6 against 11.2 ms, 14 creature crops 7.3
# against 12.0 ms) with the same outputs. OpenCV 4 has the classic one only (no such name).
CLASSIC_ENGINE = getattr(cv2.dnn, "ENGINE_CLASSIC", None)


def missing(path: Path, train_command: str) -> FileNotFoundError:
    """The error for a network file that is not there, saying how to train it."""
    return FileNotFoundError(f"{path}: this network is missing (train it: {train_command})")


def load_network(path: Path, train_command: str) -> cv2.dnn.Net:
    """The network in the ONNX file ``path``; ``FileNotFoundError`` saying how to train it if missing."""
    if not path.is_file():
        raise missing(path, train_command)
    if CLASSIC_ENGINE is None:
        return cv2.dnn.readNetFromONNX(str(path))
    return cv2.dnn.readNetFromONNX(str(path), CLASSIC_ENGINE)
