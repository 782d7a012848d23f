"""The printable board: detectable, true to size as PNG and as PDF."""

from __future__ import annotations

import re
import struct

import cv2
import numpy as np
import pytest

from calibration.charuco import PAGE_MM, detect_board, write_board
from calibration.errors import CalibrationError

MM_PER_POINT = 25.4 / 72


def test_png_page_is_detectable_and_squares_have_the_stated_size(tmp_path):
    path = write_board(tmp_path / "board.png", dpi=300)
    page = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)
    assert abs(page.shape[1] / 300 * 25.4 - PAGE_MM[0]) < 0.2
    view = detect_board(page)
    assert len(view.image_points) == 24
    # Neighbouring corners along a row are one square apart: 36 mm at 300 dpi = 425.2 px.
    step = np.linalg.norm(view.image_points[1] - view.image_points[0])
    assert step == pytest.approx(36.0 / 25.4 * 300, abs=0.6)


def test_png_records_its_dpi(tmp_path):
    raw = write_board(tmp_path / "board.png", dpi=300).read_bytes()
    at = raw.index(b"pHYs")
    x_per_metre, y_per_metre, unit = struct.unpack(">IIB", raw[at + 4:at + 13])
    assert unit == 1 and x_per_metre == y_per_metre == round(300 / 0.0254)


def test_pdf_page_has_the_physical_size_of_a4(tmp_path):
    raw = write_board(tmp_path / "board.pdf").read_bytes()
    assert raw.startswith(b"%PDF-")
    box = [float(v) for v in re.search(rb"/MediaBox \[([\d. ]+)\]", raw).group(1).split()]
    assert box[:2] == [0.0, 0.0]
    assert box[2] * MM_PER_POINT == pytest.approx(PAGE_MM[0], abs=0.2)
    assert box[3] * MM_PER_POINT == pytest.approx(PAGE_MM[1], abs=0.2)
    # The 300 dpi page image is drawn over exactly the whole page, so squares print at 36 mm.
    drawn = [float(v) for v in re.search(rb"q ([\d. ]+) cm /Board Do Q", raw).group(1).split()]
    assert drawn == [box[2], 0.0, 0.0, box[3], 0.0, 0.0]
    width_px = int(re.search(rb"/Width (\d+)", raw).group(1))
    assert width_px / (box[2] / 72) == pytest.approx(300, rel=1e-3)


def test_pdf_cross_reference_table_points_at_its_objects(tmp_path):
    raw = write_board(tmp_path / "board.pdf").read_bytes()
    start = int(re.search(rb"startxref\n(\d+)", raw).group(1))
    assert raw[start:start + 4] == b"xref"
    offsets = [int(m.group(1)) for m in re.finditer(rb"(\d{10}) 00000 n", raw)]
    assert len(offsets) == 5
    for number, offset in enumerate(offsets, start=1):
        assert raw[offset:].startswith(f"{number} 0 obj".encode())


def test_other_formats_are_refused(tmp_path):
    with pytest.raises(CalibrationError, match=r"\.png or \.pdf"):
        write_board(tmp_path / "board.jpg")


def test_blank_image_names_the_image():
    with pytest.raises(CalibrationError, match="kitchen.jpg: ChArUco board not found"):
        detect_board(np.full((480, 640, 3), 128, np.uint8), "kitchen.jpg")
