"""Your set's art: enrolled tops' middles settle the network's unsure reads."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.files import CalibrationFileError, load, save
from vision.creatures import turned
from vision.features import CROP_PX
from vision.profile import CLASSES, CreatureProfile, default_profile
from vision.set_art import MARGIN, PROBE, SHIFT, SetArt

MIDDLE = (CROP_PX // 2, CROP_PX // 2)


def drawn(shape: str) -> np.ndarray:
    """A BGR ivory crop with one dark figure in its middle."""
    crop = np.full((CROP_PX, CROP_PX, 3), (200, 215, 225), np.uint8)
    ink = (40, 60, 90)
    if shape == "bar":
        cv2.rectangle(crop, (14, 21), (34, 27), ink, -1)
    elif shape == "ring":
        cv2.circle(crop, MIDDLE, 8, ink, 3)
    elif shape == "wedge":
        cv2.fillPoly(crop, [np.array([[16, 32], [24, 15], [32, 32]])], ink)
    elif shape == "cross":
        cv2.line(crop, (16, 16), (32, 32), ink, 3)
        cv2.line(crop, (16, 32), (32, 16), ink, 3)
    elif shape == "dots":
        for x, y in ((18, 18), (30, 18), (24, 30)):
            cv2.circle(crop, (x, y), 3, ink, -1)
    return crop


SHAPES = ("bar", "ring", "wedge", "dots")


@pytest.fixture(scope="module")
def art() -> SetArt:
    """Four classes (indices 0-3), each enrolled from one drawn top."""
    return SetArt.learn([drawn(shape) for shape in SHAPES], list(range(len(SHAPES))), len(CLASSES))


def seen_in_play(shape: str, sixths: int, rng: np.random.Generator) -> np.ndarray:
    """The drawn top laid turned, a little off centre, dimmer and noisy, as a frame shows it."""
    crop = np.roll(turned(drawn(shape), sixths), (2, -1), axis=(0, 1)).astype(np.float32) * 0.7
    return np.clip(crop + rng.normal(0, 6, crop.shape), 0, 255).astype(np.uint8)


def torn_between(wrong: int, right: int) -> np.ndarray:
    """Network weights torn between two classes, leaning a little to the ``wrong`` one."""
    weights = np.full(len(CLASSES), 0.02 / (len(CLASSES) - 2))
    weights[[wrong, right]] = 0.5, 0.48
    return weights


def test_an_unsure_read_goes_to_the_class_whose_art_the_tile_shows(art: SetArt) -> None:
    rng = np.random.default_rng(0)
    for index, shape in enumerate(SHAPES):
        other = (index + 1) % len(SHAPES)
        crops = [seen_in_play(shape, sixths, rng) for sixths in range(6)]
        weights = np.array([torn_between(other, index)] * len(crops))
        settled = art.reweigh(weights, crops)
        assert np.all(np.argmax(settled, axis=1) == index), shape
        assert np.allclose(settled.sum(axis=1), 1.0)
        assert np.all(settled.max(axis=1) <= 0.5 + 1e-9)  # no surer than the network: the referee still asks


def test_a_sure_read_is_left_alone(art: SetArt) -> None:
    rng = np.random.default_rng(1)
    sure = np.full(len(CLASSES), 0.005 / (len(CLASSES) - 1))
    sure[2] = 0.995
    crop = seen_in_play("bar", 0, rng)
    assert np.array_equal(art.reweigh(sure[None], [crop]), sure[None])  # the network is sure: a wedge
    assert np.argmax(art.reweigh(torn_between(2, 0)[None], [crop])) == 0  # unsure: the bar it shows


def test_likeness_is_opencvs_normalised_correlation_over_small_shifts_and_nothing_on_a_flat_top(art: SetArt) -> None:
    """Each class's likeness is the best of cv2.TM_CCOEFF_NORMED over its templates, slid up to
    SHIFT pixels each way over the crop's middle; a washed-out (flat) crop is like nothing."""
    rng = np.random.default_rng(4)
    crop = cv2.cvtColor(seen_in_play("wedge", 2, rng), cv2.COLOR_BGR2GRAY)
    probe = crop[PROBE, PROBE].astype(np.float32)
    for k, shape in enumerate(SHAPES):
        middles = [turned(cv2.cvtColor(drawn(shape), cv2.COLOR_BGR2GRAY), sixths)[MARGIN:-MARGIN, MARGIN:-MARGIN]
                   for sixths in range(6)]
        expected = max(float(cv2.matchTemplate(probe, m.astype(np.float32), cv2.TM_CCOEFF_NORMED).max())
                       for m in middles)
        assert art.likeness([crop], [[k]])[0, k] == pytest.approx(expected, abs=1e-4)
    assert probe.shape == (CROP_PX - 2 * MARGIN + 2 * SHIFT,) * 2
    flat = np.full((CROP_PX, CROP_PX), 250, np.uint8)
    assert np.all(art.likeness([flat], [list(range(len(SHAPES)))])[0, :len(SHAPES)] == 0.0)


def test_tops_a_game_record_names_join_the_art(art: SetArt) -> None:
    """Play with another set than the enrolled one, whose class 3 shows a cross (not dots): a
    tile of it is settled by the art once a top of it the record named has joined."""
    rng = np.random.default_rng(3)
    crop = seen_in_play("cross", 4, rng)
    torn = torn_between(1, 3)[None]
    assert np.argmax(art.reweigh(torn, [crop])) == 1
    learnt = art.with_tops({3: [drawn("cross")]})
    assert np.argmax(learnt.reweigh(torn, [crop])) == 3 and len(learnt.crops) == len(art.crops) + 1


def test_a_profile_keeps_its_art_through_its_file_and_refuses_malformed_art(art: SetArt, tmp_path) -> None:
    profile = CreatureProfile(default_profile().vectors, default_profile().labels, "test", art)
    loaded = CreatureProfile.load(profile.save(tmp_path / "profile.json"))
    assert loaded.art is not None and np.array_equal(loaded.art.crops, art.crops)
    assert np.allclose(loaded.art.mean, art.mean, atol=1e-4) and list(loaded.art.labels) == list(art.labels)
    rng = np.random.default_rng(2)
    crops = [seen_in_play("ring", 3, rng)]
    torn = torn_between(0, 1)[None]
    assert np.argmax(loaded.reweigh(torn, crops)) == 1
    assert np.array_equal(CreatureProfile(profile.vectors, profile.labels).reweigh(torn, crops), torn)  # no art
    data = load(tmp_path / "profile.json", "profile", 2)
    crowd = {"crops": data["art"]["crops"] * 60, "labels": data["art"]["labels"] * 60}  # 240 tops: a hostile file
    for broken in ({"crops": ["not base64!"]}, {"labels": [0, 1, 2, 99]}, {"spread": [0.0] * len(CLASSES)}, crowd):
        save(tmp_path / "broken.json", "profile", 2, data | {"art": data["art"] | broken})
        with pytest.raises(CalibrationFileError, match="unusable creature profile"):
            CreatureProfile.load(tmp_path / "broken.json")
