"""Enrollment layout text: the documented block and every way a layout can be wrong."""

from __future__ import annotations

import pytest

from calibration.errors import CalibrationError
from calibration.layout import DEFAULT_LAYOUT, parse_layout
from rules.pieces import Piece


def test_default_layout_holds_all_28_pieces_once() -> None:
    layout = parse_layout(DEFAULT_LAYOUT)
    assert sorted(p.name for p in layout.values()) == sorted(p.name for p in Piece.ALL)
    assert layout[(0, 0)].name == "wQ" and layout[(3, 3)].name == "bP"


@pytest.mark.parametrize("text, message", [
    ("0 0 wQ\n1 0 xZ", "line 2"),
    ("0 0", "expected 'q r piece'"),
    ("0 0 wQ\n0 0 bQ", "cell used twice"),
    ("0 0 wQ\n1 0 wQ", "piece used twice"),
    ("0 0 wQ\n1 0 bQ", "lacks White Spider"),
])
def test_layout_errors_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(CalibrationError, match=message):
        parse_layout(text)
