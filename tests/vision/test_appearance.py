"""Appearance profiles: layout text, enrollment and its errors, shape-only sets, save/load."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.appearance import (DEFAULT_LAYOUT, AppearanceProfile, default_profile, enroll, layout_picture,
                                    layout_position, parse_layout)
from calibration.errors import CalibrationError
from calibration.files import CalibrationFileError, save
from rules.pieces import Piece
from vision.detect import Detector
from vision.make_default_profile import enrollment_photos
from vision.render.scene import random_conditions, render_position


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


def test_enroll_rejects_unreadable_images(tmp_path) -> None:
    (tmp_path / "bad.jpg").write_bytes(b"garbage")
    with pytest.raises(CalibrationError, match="bad.jpg: not a readable image"):
        enroll([str(tmp_path / "bad.jpg")])
    with pytest.raises(CalibrationError, match="missing.jpg: cannot read"):
        enroll([tmp_path / "missing.jpg"])
    with pytest.raises(CalibrationError, match="photo 1: not a readable colour image"):
        enroll([None])
    with pytest.raises(CalibrationError, match="at least one photo"):
        enroll([])


def test_enroll_reports_a_layout_piece_that_is_not_there() -> None:
    position = layout_position()
    del position[(7, 0)]  # wG3 missing from the table
    frame, _ = render_position(position, random_conditions(np.random.default_rng(5), tilt_deg=5.0))
    with pytest.raises(CalibrationError, match="not found: wG3"):
        enroll([frame])


def test_enroll_on_an_empty_table_says_no_tiles() -> None:
    frame, _ = render_position({}, random_conditions(np.random.default_rng(1)))
    with pytest.raises(CalibrationError, match="no tiles found"):
        enroll([frame])


def _creature_accuracy(profile: AppearanceProfile, style: str, mono: bool, frames: int = 3) -> float:
    detector = Detector(profile)
    position = {cell: stack for cell, stack in layout_position().items()}
    right = total = 0
    rng = np.random.default_rng(99)
    for _ in range(frames):
        frame, truth = render_position(position, random_conditions(rng, style=style, mono=mono))
        seen = detector.detect(frame).tiles
        for tile in truth.tiles:
            sighting = min(seen, key=lambda s: np.hypot(s.px[0] - tile.px[0], s.px[1] - tile.px[1]))
            right += sighting.bug is tile.bug
            total += 1
    return right / total


def test_shape_only_set_is_learned_from_two_photos_and_styles_do_not_transfer() -> None:
    # every glyph one colour (like the Carbon edition): only the shapes tell the creatures apart
    style_b = enroll(enrollment_photos(2, seed=7, style="b", mono=True))
    style_a = enroll(enrollment_photos(2, seed=8, style="a", mono=True))
    assert _creature_accuracy(style_b, "b", mono=True) > 0.97
    assert _creature_accuracy(style_a, "b", mono=True) < 0.7


def test_profile_round_trip_and_file_errors(tmp_path) -> None:
    profile = default_profile()
    path = profile.save(tmp_path / "profile.json")
    loaded = AppearanceProfile.load(path)
    assert np.allclose(loaded.means, profile.means, atol=1e-5) and loaded.note == profile.note
    save(tmp_path / "camera.json", "camera", 1, {"matrix": []})
    with pytest.raises(CalibrationFileError, match="expected a 'profile' file"):
        AppearanceProfile.load(tmp_path / "camera.json")
    save(tmp_path / "old.json", "profile", 1, {"features": 3, "means": []})
    with pytest.raises(CalibrationFileError, match="unusable appearance profile"):
        AppearanceProfile.load(tmp_path / "old.json")


def test_layout_picture_shows_the_layout() -> None:
    picture = layout_picture()
    assert picture.shape == (720, 1280, 3)
    red_text = (picture[..., 2] > 200) & (picture[..., 1] < 60) & (picture[..., 0] < 60)
    assert red_text.sum() > 28 * 20  # a label per tile
