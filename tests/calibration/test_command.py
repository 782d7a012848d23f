"""``hivecam calibrate`` through the real command-line entry point."""

from __future__ import annotations

import sys
import types

import cv2
import numpy as np
import pytest

from calibration.camera import CameraModel
from vision.enroll import Photo
from webui.cli import main


def calibrate(*args: str) -> int:
    return main(["calibrate", *map(str, args)])


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    return err


@pytest.fixture(scope="module")
def photos(tmp_path_factory, survey_views, overhead_view) -> dict[str, list]:
    folder = tmp_path_factory.mktemp("photos")
    paths = []
    for index, view in enumerate(survey_views[:6]):
        paths.append(folder / f"survey{index}.png")
        cv2.imwrite(str(paths[-1]), view)
    cv2.imwrite(str(folder / "overhead.png"), overhead_view)
    (folder / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 truncated")
    return {"survey": paths, "overhead": [folder / "overhead.png"], "broken": [folder / "broken.jpg"]}


def test_board_pdf(tmp_path, capsys):
    assert calibrate("board", "--out", tmp_path / "board.pdf") == 0
    assert (tmp_path / "board.pdf").read_bytes().startswith(b"%PDF")
    assert "100%" in capsys.readouterr().out


def test_camera(tmp_path, photos, true_camera):
    assert calibrate("camera", *photos["survey"], "--out", tmp_path / "camera.json") == 0
    camera = CameraModel.load(tmp_path / "camera.json")
    assert abs(camera.focal_px / true_camera.focal_px - 1) < 0.02


def test_the_table_calibration_is_gone(capsys):
    with pytest.raises(SystemExit):
        calibrate("table", "photo.png", "--out", "table.json")
    assert "invalid choice: 'table'" in capsys.readouterr().err


@pytest.mark.parametrize("case, expected", [
    ("broken image", "broken.jpg: not a readable image"),
    ("missing image", "nothing.png: cannot read image"),
    ("too few views", "need at least 5"),
    ("wrong board format", "board.json: the board can be written as .png or .pdf"),
])
def test_errors_are_one_line_and_exit_2(tmp_path, photos, capsys, case, expected):
    argv = {
        "broken image": ["camera", *photos["survey"], *photos["broken"], "--out", tmp_path / "c.json"],
        "missing image": ["enroll", tmp_path / "nothing.png", "--out", tmp_path / "t.json"],
        "too few views": ["camera", *photos["survey"][:2], "--out", tmp_path / "c.json"],
        "wrong board format": ["board", "--out", tmp_path / "board.json"],
    }[case]
    assert calibrate(*argv) == 2
    assert expected in one_line_error(capsys)
    assert not (tmp_path / "c.json").exists() and not (tmp_path / "t.json").exists()


def test_enroll_hands_images_and_layout_to_the_appearance_module(tmp_path, photos, monkeypatch):
    calls = []

    class Profile:
        note = ""

        def save(self, path) -> None:
            calls.append(("save", str(path)))

    def enroll(images, layout_text):
        calls.append(("enroll", [(p.image.shape, p.darker) for p in images], layout_text))
        return Profile()

    monkeypatch.setitem(sys.modules, "vision.enroll", types.SimpleNamespace(enroll=enroll, Photo=Photo))
    layout = tmp_path / "layout.txt"
    layout.write_text("wQ wA1\n")
    assert calibrate("enroll", *photos["overhead"], "--layout", layout, "--out", tmp_path / "set.json") == 0
    assert calls == [("enroll", [((480, 640, 3), None)], "wQ wA1\n"), ("save", str(tmp_path / "set.json"))]


def test_enroll_hands_each_photo_its_darker_view(tmp_path, photos, monkeypatch, capsys):
    given = []

    class Profile:
        note = ""

        def save(self, path) -> None:
            pass

    monkeypatch.setitem(sys.modules, "vision.enroll",
                        types.SimpleNamespace(enroll=lambda images, layout: given.extend(images) or Profile(), Photo=Photo))
    two = [*photos["overhead"], *photos["survey"][:1]]
    dark = cv2.imread(str(photos["overhead"][0])) // 2
    cv2.imwrite(str(tmp_path / "dark.png"), dark)
    assert calibrate("enroll", *two, "--darker", tmp_path / "dark.png", *photos["survey"][:1], "--out", tmp_path / "s.json") == 0
    assert np.array_equal(given[0].darker, dark) and given[1].darker.shape == given[1].image.shape
    assert calibrate("enroll", *two, "--darker", tmp_path / "dark.png", "--out", tmp_path / "t.json") == 2
    assert "--darker gives 1 photos for 2: give one per photo" in one_line_error(capsys)
    assert not (tmp_path / "t.json").exists()


@pytest.mark.parametrize("count", [1, 2])
def test_enroll_from_one_photo_asks_for_a_second_of_the_block_turned(tmp_path, photos, monkeypatch, capsys, count):
    class Profile:
        note = ""

        def save(self, path):
            pass

    monkeypatch.setitem(sys.modules, "vision.enroll", types.SimpleNamespace(enroll=lambda images, layout: Profile(), Photo=Photo))
    assert calibrate("enroll", *photos["overhead"] * count, "--out", tmp_path / "set.json") == 0
    asked = "turn the block half round and add a second photo" in capsys.readouterr().err
    assert asked == (count == 1)


def test_enroll_reports_a_bad_image_before_enrolling(tmp_path, photos, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "vision.enroll",
                        types.SimpleNamespace(enroll=lambda images, layout: pytest.fail("enroll called"), Photo=Photo))
    assert calibrate("enroll", *photos["broken"], "--out", tmp_path / "set.json") == 2
    assert "broken.jpg" in one_line_error(capsys)


def test_layout_prints_the_default_arrangement_and_draws_it(tmp_path, capsys):
    assert calibrate("layout", "--out", tmp_path / "layout.png") == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if not line.startswith("#")]
    assert len(lines) == 28 and lines[0] == "0 0 wQ" and "3 3 bP" in lines
    assert cv2.imread(str(tmp_path / "layout.png")).shape == (720, 1280, 3)


def test_layout_rejects_a_layout_missing_a_creature(tmp_path, capsys):
    layout = tmp_path / "layout.txt"
    layout.write_text("0 0 wQ\n1 0 bQ\n")
    assert calibrate("layout", "--layout", layout) == 2
    assert "lacks" in one_line_error(capsys)
