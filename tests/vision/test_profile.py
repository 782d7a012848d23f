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


def test_a_tile_whose_creature_is_used_up_claims_its_next_only_after_likelier_tiles() -> None:
    """A world-referee frame: a hole in the hive read 98 % black Pillbug, 1.1 % Beetle and 0.7 %
    Ladybug beside the real Pillbug, Ladybug (97.4 %; Queen 2.6 %) and Queen (93.3 %). The hole's
    98 % must not let it take the Ladybug (it has no Pillbug left, and both Beetles are used):
    the Ladybug and the Queen keep their own classes."""
    def black(bug: Bug) -> int:
        return CLASSES.index((Colour.BLACK, bug))
    weights = np.full((6, len(CLASSES)), 1e-4)
    reads = [{Bug.PILLBUG: 1.0}, {Bug.BEETLE: 1.0}, {Bug.BEETLE: 1.0},
             {Bug.PILLBUG: 0.98, Bug.BEETLE: 0.011, Bug.LADYBUG: 0.007},
             {Bug.LADYBUG: 0.974, Bug.QUEEN: 0.026}, {Bug.QUEEN: 0.933, Bug.LADYBUG: 0.028, Bug.SPIDER: 0.026}]
    for row, read in enumerate(reads):
        for bug, weight in read.items():
            weights[row, black(bug)] = weight
    found = [(colour, bug) for colour, bug, _ in assign(weights / weights.sum(axis=1, keepdims=True))]
    assert [CLASSES.index(read) for read in found] == [black(Bug.PILLBUG), black(Bug.BEETLE), black(Bug.BEETLE),
                                                       CLASSES.index(found[3]), black(Bug.LADYBUG), black(Bug.QUEEN)]
    assert CLASSES.index(found[3]) not in (black(Bug.LADYBUG), black(Bug.QUEEN))


def test_a_creature_the_game_lacks_is_never_read() -> None:
    """A top read 50 % black Mosquito, 30 % black Beetle and 20 % spread over the rest is a Beetle
    in a Base game (no Mosquito, Ladybug or Pillbug), as sure as the Beetle is among the game's
    creatures; but a guess (its print unseen: the 50 % is a flattened read) no surer than the
    Beetle was among all, 30 %: a guess must not turn sure for the creatures a game lacks. In a
    game with the Mosquito, a Mosquito."""
    mosquito, beetle = CLASSES.index((Colour.BLACK, Bug.MOSQUITO)), CLASSES.index((Colour.BLACK, Bug.BEETLE))
    weights = np.full((1, len(CLASSES)), 0.2 / (len(CLASSES) - 2))
    weights[0, mosquito], weights[0, beetle] = 0.5, 0.3
    base = (Bug.QUEEN, Bug.SPIDER, Bug.BEETLE, Bug.GRASSHOPPER, Bug.ANT)
    in_base = sum(weights[0, CLASSES.index(k)] for k in CLASSES if k[1] in base)
    for guessed, sure in ((None, 0.3 / in_base), (np.array([True]), 0.3)):
        colour, bug, confidence = assign(weights, guessed, base)[0]
        assert (colour, bug) == (Colour.BLACK, Bug.BEETLE)
        assert confidence == pytest.approx(sure)
    assert assign(weights, None, (*base, Bug.MOSQUITO))[0][:2] == (Colour.BLACK, Bug.MOSQUITO)
    assert assign(weights)[0][:2] == (Colour.BLACK, Bug.MOSQUITO)


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
