"""Lighting normalisation: the same scene under two lamps gives the same colours."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.lighting import LightingReference, locked_camera_controls, region_level

GAMMA = 2.2
WARM_LAMP = np.array([0.55, 0.85, 1.0]) * 0.9  # BGR light, linear
COOL_DAYLIGHT = np.array([1.0, 0.95, 0.8]) * 0.55


def scene(tile_offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Linear BGR reflectances: a wooden table with white, black and coloured tiles; the table mask."""
    rng = np.random.default_rng(1)
    image = np.empty((240, 320, 3))
    image[:] = (0.28, 0.42, 0.55)
    image *= rng.uniform(0.9, 1.1, (240, 320, 1))
    table = np.ones((240, 320), bool)
    for index, colour in enumerate([(0.85, 0.88, 0.9), (0.06, 0.06, 0.07), (0.1, 0.3, 0.8), (0.2, 0.6, 0.2)]):
        top, left = 40 + 90 * (index // 2), 40 + 120 * (index % 2) + tile_offset
        image[top:top + 60, left:left + 70] = colour
        table[top:top + 60, left:left + 70] = False
    return image, table


def photograph(reflectance: np.ndarray, light: np.ndarray, seed: int) -> np.ndarray:
    """What an sRGB-like camera records: light times reflectance, gamma-encoded, noisy, 8-bit."""
    encoded = 255 * np.clip(reflectance * light, 0, 1) ** (1 / GAMMA)
    noisy = encoded + np.random.default_rng(seed).normal(0, 1.5, encoded.shape)
    return np.clip(np.rint(noisy), 0, 255).astype(np.uint8)


TILES = (slice(45, 95), slice(55, 105))  # inside the white tile in both scenes


def test_reference_normalisation_undoes_a_lamp_switched_on_mid_game():
    reflectance, table = scene(0)
    before = photograph(reflectance, WARM_LAMP, seed=1)
    moved_reflectance, moved_table = scene(12)  # play went on: tiles moved, table mask changed
    after = photograph(moved_reflectance, COOL_DAYLIGHT, seed=2)
    reference = LightingReference.from_frame(before, table, (3, 4))
    normalised = np.clip(np.rint(after * reference.uniform_gains(after, moved_table)), 0, 255)
    for rows, cols in [TILES, (slice(140, 185), slice(180, 225))]:
        raw_gap = np.abs(after[rows, cols].mean((0, 1)) - before[rows, cols].mean((0, 1))).max()
        gap = np.abs(normalised[rows, cols].mean((0, 1)) - before[rows, cols].mean((0, 1))).max()
        assert raw_gap > 25 and gap < 4


def test_reference_tolerates_tiles_inside_the_mask():
    reflectance, _ = scene(0)
    reference = LightingReference.from_frame(photograph(reflectance, WARM_LAMP, 1))
    moved, _ = scene(30)
    gains = reference.uniform_gains(photograph(moved, WARM_LAMP, 2))
    np.testing.assert_allclose(gains, 1.0, atol=0.03)


def test_a_dark_or_tiny_region_is_refused():
    with pytest.raises(ValueError, match="usable pixels"):
        region_level(np.zeros((20, 20, 3), np.uint8))


def test_locked_controls_freeze_the_settled_exposure():
    metadata = {"ExposureTime": 16667.0, "AnalogueGain": 2.5, "ColourGains": [1.9, 1.6], "Lux": 300.0}
    assert locked_camera_controls(metadata) == {"AeEnable": False, "AwbEnable": False, "ExposureTime": 16667,
                                                "AnalogueGain": 2.5, "ColourGains": (1.9, 1.6)}
    with pytest.raises(ValueError, match="ColourGains"):
        locked_camera_controls({"ExposureTime": 1000, "AnalogueGain": 1.0})


def test_a_hand_over_a_few_cells_does_not_move_the_gains():
    """The median over the cells ignores what covers a few of them and is not yet masked out."""
    reflectance, table = scene(0)
    reference = LightingReference.from_frame(photograph(reflectance, WARM_LAMP, 1), table, (3, 4))
    hand = reflectance.copy()
    hand[:, :100] = (0.25, 0.45, 0.9)  # an arm over the left third of the frame, table mask unchanged
    after = photograph(hand, WARM_LAMP, 2)
    np.testing.assert_allclose(reference.uniform_gains(after, table), 1.0, atol=0.03)
    one_region = LightingReference.from_frame(photograph(reflectance, WARM_LAMP, 1), table)
    assert np.abs(one_region.uniform_gains(after, table) - 1.0).max() > 0.03  # one level over the frame is swayed
