"""Creature profiles: nearest prototype of the tile's colour, files and their errors."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.files import CalibrationFileError, save
from rules.pieces import Bug, Colour
from vision.creatures import EMBEDDING
from vision.profile import CLASSES, CreatureProfile, default_profile


def unit(rng: np.random.Generator, count: int) -> np.ndarray:
    vectors = rng.normal(size=(count, EMBEDDING))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_a_tile_is_the_creature_of_its_colour_whose_prototype_is_nearest() -> None:
    rng = np.random.default_rng(1)
    profile = CreatureProfile(unit(rng, len(CLASSES)))
    black_ant = CLASSES.index((Colour.BLACK, Bug.ANT))
    near = profile.prototypes[black_ant] + 0.1 * unit(rng, 1)[0]
    assert profile.classify(near / np.linalg.norm(near), Colour.BLACK)[0] is Bug.ANT
    bug, confidence = profile.classify(profile.prototypes[black_ant], Colour.BLACK)
    assert bug is Bug.ANT and confidence > 0.9
    # the same vector on a white tile can only be one of the white creatures
    white_bug, _ = profile.classify(profile.prototypes[black_ant], Colour.WHITE)
    assert white_bug in Bug


def test_prototypes_are_the_normalised_means_of_the_examples() -> None:
    rng = np.random.default_rng(2)
    examples = {key: unit(rng, 3) for key in CLASSES}
    profile = CreatureProfile.from_examples(examples, "test")
    mean = examples[CLASSES[5]].mean(axis=0)
    assert np.allclose(profile.prototypes[5], mean / np.linalg.norm(mean))
    del examples[CLASSES[0]]
    with pytest.raises(CalibrationFileError, match="no examples of: White Queen"):
        CreatureProfile.from_examples(examples)


def test_profile_round_trip_and_file_errors(tmp_path) -> None:
    profile = default_profile()
    path = profile.save(tmp_path / "profile.json")
    loaded = CreatureProfile.load(path)
    assert np.allclose(loaded.prototypes, profile.prototypes, atol=1e-5) and loaded.note == profile.note
    save(tmp_path / "camera.json", "camera", 1, {"matrix": []})
    with pytest.raises(CalibrationFileError, match="expected a 'profile' file"):
        CreatureProfile.load(tmp_path / "camera.json")
    save(tmp_path / "old.json", "profile", 1, {"features": 56, "means": []})
    with pytest.raises(CalibrationFileError, match="version 1, this hivecam reads version 2.*calibrate enroll"):
        CreatureProfile.load(tmp_path / "old.json")
    save(tmp_path / "short.json", "profile", 2, {"embedding": EMBEDDING, "prototypes": [[1.0] * EMBEDDING]})
    with pytest.raises(CalibrationFileError, match="malformed prototypes"):
        CreatureProfile.load(tmp_path / "short.json")
