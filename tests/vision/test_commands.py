"""``hivecam detect`` and ``hivecam render`` through the CLI dispatcher."""

from __future__ import annotations

import json

import cv2
import numpy as np

from vision.compare import align
from webui.cli import main

GAME = "Base;InProgress;White[4];wS1;bG1 -wS1;wQ wS1/;bA1 -bG1;wG1 wQ\\;bQ bA1\\"


def test_render_then_detect_prints_the_position(tmp_path, capsys) -> None:
    image, truth_file = tmp_path / "frame.png", tmp_path / "truth.json"
    assert main(["render", "--game-string", GAME, "--out", str(image), "--seed", "4",
                 "--truth", str(truth_file)]) == 0
    truth = json.loads(truth_file.read_text())
    capsys.readouterr()
    assert main(["detect", str(image)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["occluded"] is False
    seen = {(t["q"], t["r"]): t["colour"] for t in printed["tiles"]}
    true = {(t["q"], t["r"]): t["colour"] for t in truth["tiles"]}
    alignment = align(seen, true)
    assert len(seen) == 6 and {alignment.apply(c): v for c, v in seen.items()} == true
    assert {t["bug"] for t in printed["tiles"]} <= {"Q", "S", "B", "G", "A", "M", "L", "P"}
    assert all(0 <= t["confidence"] <= 1 and t["height_hint"] == 1 and len(t["px"]) == 2 for t in printed["tiles"])


def test_detect_unreadable_image_exits_2(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"no image here")
    assert main(["detect", str(bad)]) == 2
    assert "not a readable image" in capsys.readouterr().err
    assert main(["detect", str(tmp_path / "missing.png")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_detect_with_a_bad_profile_exits_2(tmp_path, capsys) -> None:
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.zeros((72, 128, 3), np.uint8))
    (tmp_path / "profile.json").write_text("{")
    assert main(["detect", str(image), "--profile", str(tmp_path / "profile.json")]) == 2
    assert "corrupt profile" in capsys.readouterr().err


def test_detect_camera_file_option_and_its_old_name(tmp_path, capsys) -> None:
    image = tmp_path / "blank.png"
    cv2.imwrite(str(image), np.zeros((72, 128, 3), np.uint8))
    (tmp_path / "camera.json").write_text("{")
    assert main(["detect", str(image), "--camera-file", str(tmp_path / "camera.json")]) == 2
    new = capsys.readouterr().err
    assert "camera.json" in new and "--calibration" not in new
    assert main(["detect", str(image), "--calibration", str(tmp_path / "camera.json")]) == 2
    old = capsys.readouterr().err
    assert "--calibration is now called --camera-file" in old and "camera.json" in old


def test_render_style_b_and_bad_game_string(tmp_path, capsys) -> None:
    a, b = tmp_path / "a.png", tmp_path / "b.png"
    assert main(["render", "--game-string", GAME, "--out", str(a), "--seed", "1", "--clean"]) == 0
    assert main(["render", "--game-string", GAME, "--out", str(b), "--seed", "1", "--clean", "--style", "b"]) == 0
    frame_a, frame_b = cv2.imread(str(a)), cv2.imread(str(b))
    assert frame_a.shape == (720, 1280, 3)
    assert np.abs(frame_a.astype(int) - frame_b.astype(int)).sum(axis=2).astype(bool).sum() > 2000
    assert main(["render", "--game-string", "Base;InProgress;White[2];wS1;bG1 wS9", "--out", str(a)]) == 2
    assert "hivecam render" in capsys.readouterr().err


def test_render_video_writes_every_frame(tmp_path, capsys) -> None:
    out = tmp_path / "video"
    assert main(["render", "--game-string", "Base;InProgress;Black[1];wS1", "--out", str(out), "--video"]) == 0
    assert len(list(out.glob("frame*.png"))) == 5 + 3 + 5  # empty table, 3 hand frames, 5 resting frames


def test_detect_reads_only_the_creatures_of_the_game_type_it_is_told(tmp_path, capsys) -> None:
    """A position of a Mosquito game photographed, read as a Base game: its Mosquito is read as one
    of the base creatures; a game type that does not exist is refused by name."""
    image = tmp_path / "frame.png"
    assert main(["render", "--game-string", "Base+M;InProgress;White[2];wM;bA1 -wM", "--out", str(image),
                 "--seed", "4"]) == 0
    capsys.readouterr()
    assert main(["detect", str(image), "--game-type", "Base"]) == 0
    tiles = json.loads(capsys.readouterr().out)["tiles"]
    assert len(tiles) == 2 and {t["bug"] for t in tiles} <= {"Q", "S", "B", "G", "A"}
    assert main(["detect", str(image), "--game-type", "Base+M"]) == 0
    assert {t["bug"] for t in json.loads(capsys.readouterr().out)["tiles"]} == {"M", "A"}
    try:
        main(["detect", str(image), "--game-type", "Base+X"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "'Base+X' is not a game type" in capsys.readouterr().err
