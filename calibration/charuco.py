"""The hivecam ChArUco board: its fixed definition, printable page and detection.

The board is 5 x 7 squares of 36 mm with 27 mm ArUco markers from ``DICT_4X4_50``,
centred on an A4 portrait page (180 x 252 mm printed area). Print the PDF at 100 %
("actual size", no "fit to page") and measure a square: it must be 36.0 mm. Board
coordinates are millimetres from the board's top-left corner, x to the right, y down
and z into the table (so a point h mm above the table has z = -h).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.errors import CalibrationError
from calibration.files import write_atomic
from calibration.printable import pdf_bytes, png_bytes

SQUARES_X = 5
SQUARES_Y = 7
SQUARE_MM = 36.0
MARKER_MM = 27.0
DICTIONARY = cv2.aruco.DICT_4X4_50
PAGE_MM = (210.0, 297.0)
MM_PER_INCH = 25.4
MIN_CORNERS = 6


@dataclass(frozen=True)
class BoardView:
    """ChArUco corners found in one image: board millimetres and their pixels."""

    object_points: np.ndarray  # (N, 3) float32, board mm
    image_points: np.ndarray  # (N, 2) float32, pixels


def make_board() -> cv2.aruco.CharucoBoard:
    """The OpenCV board object matching the printed board."""
    dictionary = cv2.aruco.getPredefinedDictionary(DICTIONARY)
    return cv2.aruco.CharucoBoard((SQUARES_X, SQUARES_Y), SQUARE_MM, MARKER_MM, dictionary)


def board_size_mm() -> tuple[float, float]:
    """Width and height of the chequered area in millimetres."""
    return SQUARES_X * SQUARE_MM, SQUARES_Y * SQUARE_MM


def board_image(pixels_per_mm: float) -> np.ndarray:
    """The chequered area alone, white outside squares, at ``pixels_per_mm``."""
    width, height = board_size_mm()
    size = (round(width * pixels_per_mm), round(height * pixels_per_mm))
    return make_board().generateImage(size, marginSize=0, borderBits=1)


def page_image(dpi: float = 300.0) -> np.ndarray:
    """The whole A4 page (board centred on white) as a grey image at ``dpi``."""
    pixels_per_mm = dpi / MM_PER_INCH
    page = np.full((round(PAGE_MM[1] * pixels_per_mm), round(PAGE_MM[0] * pixels_per_mm)), 255, np.uint8)
    board = board_image(pixels_per_mm)
    top = (page.shape[0] - board.shape[0]) // 2
    left = (page.shape[1] - board.shape[1]) // 2
    page[top:top + board.shape[0], left:left + board.shape[1]] = board
    label = f"hivecam ChArUco {SQUARES_X}x{SQUARES_Y}, square {SQUARE_MM:g} mm - print at 100% and measure a square"
    cv2.putText(page, label, (left, top + board.shape[0] + round(8 * pixels_per_mm)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.09 * pixels_per_mm, 0, max(1, round(0.25 * pixels_per_mm)), cv2.LINE_AA)
    return page


def write_board(path: str | Path, dpi: float = 300.0) -> Path:
    """Write the printable page as ``.png`` (with its dpi recorded) or ``.pdf`` (exact A4)."""
    target = Path(path)
    suffix = target.suffix.lower()
    if suffix not in (".png", ".pdf"):
        raise CalibrationError(f"{target}: the board can be written as .png or .pdf, not {suffix or 'no extension'}")
    if not 50 <= dpi <= 2400:
        raise CalibrationError(f"{dpi:g} dpi is not a printing resolution; use 300 or 600")
    page = page_image(dpi)
    data = png_bytes(page, dpi) if suffix == ".png" else pdf_bytes(page, dpi)
    return write_atomic(target, data)


def detect_board(image: np.ndarray, name: str = "image") -> BoardView:
    """Find the board's inner corners in ``image``; raise ``CalibrationError`` naming ``name``."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    board = make_board()
    corners, ids, _, _ = cv2.aruco.CharucoDetector(board).detectBoard(grey)
    found = 0 if ids is None else len(ids)
    if found < MIN_CORNERS:
        raise CalibrationError(
            f"{name}: ChArUco board not found ({found} corners, need {MIN_CORNERS}); make sure the whole "
            "board is in view, sharp and not glared")
    object_points, image_points = board.matchImagePoints(corners, ids)
    return BoardView(object_points.reshape(-1, 3).astype(np.float32), image_points.reshape(-1, 2).astype(np.float32))
