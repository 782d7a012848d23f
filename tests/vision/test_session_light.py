"""A lamp switched on mid-game: the session light brings frames back to the table's first look."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.detect import Detector
from vision.profile import demo_profile
from vision.render.scene import Conditions, random_conditions, render_position
from vision.session_light import SessionLight

from test_detect import POSITION, read_against_truth

WARM, COOL, GREEN = (0.75, 1.0, 1.3), (1.3, 1.0, 0.8), (0.9, 1.2, 0.9)


def flat_scene() -> tuple[np.ndarray, np.ndarray]:
    """A two-tone 'table' (left half warmer) with a white square 'tile', and its non-table mask."""
    frame = np.zeros((240, 320, 3), np.uint8)
    frame[:, :160] = (70, 110, 150)
    frame[:, 160:] = (90, 120, 130)
    frame[100:140, 140:180] = 240
    foreground = np.zeros((60, 80), np.uint8)
    foreground[25:35, 35:45] = 255
    return frame, foreground


def lit(frame: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(frame.astype(np.float32) * np.asarray(gains, np.float32), 0, 255).astype(np.uint8)


def test_frames_pass_unchanged_until_a_clear_view_is_learnt() -> None:
    frame, foreground = flat_scene()
    light = SessionLight()
    assert np.array_equal(light.normalise(lit(frame, WARM)), lit(frame, WARM))
    light.learn(frame, foreground, occluded=True)  # a hand in the first view: not a reference
    assert light.reference is None
    light.learn(frame, foreground, occluded=False)
    assert light.reference is not None
    assert light.normalise(frame) is frame  # same light: nothing to do


@pytest.mark.parametrize("gains", [WARM, COOL, GREEN, (0.6, 0.6, 0.6)])
def test_a_lamp_colour_is_undone_on_table_and_tiles(gains: tuple[float, float, float]) -> None:
    frame, foreground = flat_scene()
    light = SessionLight()
    light.learn(frame, foreground, occluded=False)
    restored = light.normalise(lit(frame, gains)).astype(int)
    table = np.ones(frame.shape[:2], bool)
    table[90:150, 130:190] = False
    assert np.abs(restored[table] - frame[table]).max() <= 3
    # the white tile clips in the lit channel; it comes back white, not tinted
    tile = restored[110:130, 150:170].reshape(-1, 3)
    assert np.ptp(tile, axis=1).max() <= 3 and tile.min() >= 180


def test_a_hand_in_the_frame_does_not_move_the_table_gains() -> None:
    frame, foreground = flat_scene()
    light = SessionLight()
    light.learn(frame, foreground, occluded=False)
    warm = lit(frame, WARM)
    warm[:60, :100] = (120, 150, 215)  # skin over a corner of the table
    restored = light.normalise(warm).astype(int)
    assert np.abs(restored[200:, 200:] - frame[200:, 200:]).max() <= 4


@pytest.mark.parametrize("gains", [WARM, COOL, GREEN])
def test_detector_reads_the_same_board_after_a_lamp_comes_on(gains: tuple[float, float, float]) -> None:
    conditions = random_conditions(np.random.default_rng(11), hand=False)
    first, truth = render_position(POSITION, conditions)
    later, _ = render_position(POSITION, replace(conditions, cast=gains, seed=conditions.seed + 1))
    steady = Detector(demo_profile(), light=SessionLight())  # the rendered style-a set
    steady.detect(first)
    observation = steady.detect(later)
    located, creatures, phantoms = read_against_truth(observation, truth)
    assert not observation.occluded
    assert (located, creatures, phantoms) == (16, 16, 0)


def test_cast_is_part_of_the_rendered_conditions() -> None:
    plain, _ = render_position(POSITION, Conditions(seed=3))
    warm, _ = render_position(POSITION, Conditions(seed=3, cast=WARM))
    assert warm[..., 2].mean() > plain[..., 2].mean() > 0 and warm[..., 0].mean() < plain[..., 0].mean()
