"""Observations as JSON (``hivecam detect`` prints them): every field back as it was, bad ones refused."""

from __future__ import annotations

import json

import pytest

from rules import Bug, Colour
from rules.observation import Observation, TileSighting


def test_an_observation_comes_back_from_json_as_it_was() -> None:
    seen = Observation((TileSighting(0, 0, Colour.WHITE, Bug.QUEEN, 0.97, 2, (320.5, 240.0)),
                        TileSighting(1, 0, Colour.BLACK, Bug.ANT, 0.66, 1, (352.0, 240.0), True)), False, 7.5)
    data = json.loads(json.dumps(seen.to_dict()))
    assert "unplaced" not in data["tiles"][0] and data["tiles"][1]["unplaced"] is True
    assert Observation.from_dict(data) == seen


@pytest.mark.parametrize("flag", ["false", 1, None])
def test_an_unplaced_flag_that_is_no_boolean_is_refused(flag) -> None:
    tile = {"q": 0, "r": 0, "colour": "w", "bug": "Q", "unplaced": flag}
    with pytest.raises(ValueError, match="malformed tile sighting"):
        TileSighting.from_dict(tile)
