"""Creature profiles: the colour and creature of the nearest examples, files and their errors."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.files import CalibrationFileError, save
from rules.pieces import Bug, Colour
from vision.creatures import EMBEDDING, network_id
from vision.profile import CLASSES, CreatureProfile, assign, default_profile


def unit(rng: np.random.Generator, count: int) -> np.ndarray:
    vectors = rng.normal(size=(count, EMBEDDING))
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def profile_of(rng: np.random.Generator, per_class: int = 3) -> tuple[CreatureProfile, dict]:
    examples = {key: unit(rng, per_class) for key in CLASSES}
    return CreatureProfile.from_examples(examples, "test"), examples


def test_a_tile_is_the_colour_and_creature_with_the_nearest_example() -> None:
    rng = np.random.default_rng(1)
    profile, examples = profile_of(rng)
    second_black_ant = examples[(Colour.BLACK, Bug.ANT)][1]
    near = second_black_ant + 0.1 * unit(rng, 1)[0]
    assert profile.classify(near[None] / np.linalg.norm(near))[:2] == (Colour.BLACK, Bug.ANT)
    colour, bug, confidence = profile.classify(second_black_ant[None])
    assert (colour, bug) == (Colour.BLACK, Bug.ANT) and confidence > 0.9
    white_ant = examples[(Colour.WHITE, Bug.ANT)][0]
    halfway = (white_ant + second_black_ant) / np.linalg.norm(white_ant + second_black_ant)
    assert profile.classify(halfway[None])[2] < 0.6  # between two classes: not confident


def test_views_are_averaged_per_class() -> None:
    """One view like a spider's example and one like a queen's, the second clearer: a queen."""
    rng = np.random.default_rng(2)
    profile, examples = profile_of(rng)
    spider, queen = examples[(Colour.WHITE, Bug.SPIDER)][0], examples[(Colour.WHITE, Bug.QUEEN)][0]
    blurred = (spider + 0.5 * queen) / np.linalg.norm(spider + 0.5 * queen)
    views = np.array([blurred, queen])
    assert profile.classify(views)[:2] == (Colour.WHITE, Bug.QUEEN)
    assert profile.classify(views[:1])[:2] == (Colour.WHITE, Bug.SPIDER)


def _mix(a: np.ndarray, b: np.ndarray, share_b: float) -> np.ndarray:
    mixed = (1 - share_b) * a + share_b * b
    return (mixed / np.linalg.norm(mixed))[None]


def test_no_creature_is_read_on_more_tiles_than_a_set_has() -> None:
    """Two tiles read as the white Queen: the surer keeps it, the other becomes its next best
    class (a Spider), less confidently; three tiles like Ants all stay Ants (a set has three)."""
    rng = np.random.default_rng(4)
    profile, examples = profile_of(rng)
    queen, spider = examples[(Colour.WHITE, Bug.QUEEN)][0], examples[(Colour.WHITE, Bug.SPIDER)][0]
    clear, doubtful = _mix(queen, spider, 0.1), _mix(queen, spider, 0.4)
    alone = profile.classify(doubtful)
    assert alone[:2] == (Colour.WHITE, Bug.QUEEN)
    reads = profile.classify_tiles([doubtful, clear])
    assert reads[1][:2] == (Colour.WHITE, Bug.QUEEN)
    assert reads[0][:2] == (Colour.WHITE, Bug.SPIDER) and reads[0][2] < reads[1][2]
    ants = [examples[(Colour.BLACK, Bug.ANT)][k % 3][None] for k in range(3)]
    assert [r[:2] for r in profile.classify_tiles(ants)] == [(Colour.BLACK, Bug.ANT)] * 3
    fourth = profile.classify_tiles([*ants, _mix(examples[(Colour.BLACK, Bug.ANT)][0], queen, 0.3)])[3]
    assert fourth[:2] != (Colour.BLACK, Bug.ANT)


def test_a_guess_is_made_no_surer_by_the_creatures_other_tiles_claim() -> None:
    """A top showing no print (glare) read 45 % black Queen, 40 % black Spider beside a clear
    black Queen: it takes the Spider, but no surer than the 40 % its own crop gave it; a printed
    top so read is a Spider by elimination."""
    queen, spider = CLASSES.index((Colour.BLACK, Bug.QUEEN)), CLASSES.index((Colour.BLACK, Bug.SPIDER))
    weights = np.full((2, len(CLASSES)), 0.01)
    weights[0, queen], weights[1, queen], weights[1, spider] = 0.95, 0.45, 0.40
    weights /= weights.sum(axis=1, keepdims=True)
    printed = assign(weights)[1]
    guess = assign(weights, np.array([False, True]))[1]
    assert printed[:2] == guess[:2] == (Colour.BLACK, Bug.SPIDER)
    assert printed[2] > 0.6 and guess[2] == pytest.approx(weights[1, spider])


def test_every_class_needs_an_example() -> None:
    rng = np.random.default_rng(3)
    examples = {key: unit(rng, 2) for key in CLASSES[1:]}
    with pytest.raises(CalibrationFileError, match="no examples of: White Queen"):
        CreatureProfile.from_examples(examples)


def test_profile_round_trip_and_file_errors(tmp_path) -> None:
    profile = default_profile()
    path = profile.save(tmp_path / "profile.json")
    loaded = CreatureProfile.load(path)
    assert np.allclose(loaded.vectors, profile.vectors, atol=1e-4) and loaded.note == profile.note
    assert (loaded.labels == profile.labels).all()
    save(tmp_path / "camera.json", "camera", 1, {"matrix": []})
    with pytest.raises(CalibrationFileError, match="expected a 'profile' file"):
        CreatureProfile.load(tmp_path / "camera.json")
    save(tmp_path / "old.json", "profile", 1, {"features": 56, "means": []})
    with pytest.raises(CalibrationFileError, match="version 1, this hivecam reads version 2.*calibrate enroll"):
        CreatureProfile.load(tmp_path / "old.json")
    save(tmp_path / "short.json", "profile", 2, {"embedding": EMBEDDING, "network": network_id(), "labels": [0],
                                                  "vectors": [[1.0] + [0.0] * (EMBEDDING - 1)]})
    with pytest.raises(CalibrationFileError, match="malformed examples"):
        CreatureProfile.load(tmp_path / "short.json")


def test_a_profile_made_by_another_creature_network_is_refused(tmp_path) -> None:
    data = default_profile().to_dict()
    assert data["network"] == network_id() and len(network_id()) == 16
    for made_by in ("0123456789abcdef", None):  # retrained since, or saved before profiles named their network
        save(tmp_path / "other.json", "profile", 2, data | {"network": made_by})
        with pytest.raises(CalibrationFileError, match="another creature network.*calibrate enroll"):
            CreatureProfile.load(tmp_path / "other.json")


def test_a_missing_creature_network_is_named_not_blamed_on_the_profile(tmp_path) -> None:
    absent = tmp_path / "creatures.onnx"
    with pytest.raises(FileNotFoundError, match="creatures.onnx: this network is missing.*train creatures"):
        network_id(absent)
    absent.write_bytes(b"weights")
    assert network_id(absent) != network_id()  # once there, it has a fingerprint of its own
