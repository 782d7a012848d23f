"""Tops washed out by glare: found where a lamp's reflection whites out the print, nowhere else."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour, Piece
from vision.detect import Detector
from vision.glare import DARKER, clipped, glared
from vision.profile import demo_profile
from vision.render.lighting import Lamp
from vision.render.scene import Conditions, render_position

POSITION = {cell: [Piece.parse(name)] for cell, name in (((0, 0), "wQ"), ((1, 0), "bQ"), ((0, 1), "wA1"),
                                                          ((-1, 1), "bS1"), ((1, -1), "wG1"))}


def test_a_lamp_mirrored_in_glossy_tops_whites_out_their_print_and_is_found() -> None:
    overhead = (Lamp(0.0, 0.0, 900.0, size_mm=20.0),)
    for gloss, least, most in ((1.0, 2, 5), (0.0, 0, 0)):
        frame, _ = render_position(POSITION, Conditions(height_mm=600, seed=4, solid=True, gloss=gloss,
                                                        lamps=overhead))
        detector = Detector(demo_profile())
        observation = detector.detect(frame)
        assert len(observation.tiles) == 5
        under_glare = detector.glare()
        assert least <= len(under_glare) <= most, (gloss, under_glare)
        under = [t for t in observation.tiles if t.px in under_glare]
        assert all(t.confidence < 0.6 for t in under)  # read as the guesses they are


def test_white_but_printed_or_merely_pale_tops_are_not_glare() -> None:
    frame = np.full((100, 300, 3), 90, np.uint8)
    frame[30:70, 20:60] = 255  # clipped and flat: glare
    frame[30:70, 80:120] = 255
    frame[45:55, 80:120] = 40  # clipped, but the print shows through
    frame[30:70, 140:180] = 225  # an ivory face, not at the sensor's white
    tops = tuple(TileSighting(q, 0, Colour.WHITE, Bug.ANT, px=(40.0 + 60 * q, 50.0)) for q in range(3))
    assert glared(frame, Observation(tops)) == [(40.0, 50.0)]


def test_a_top_whose_print_glare_clips_in_part_is_found_but_not_a_pale_or_dark_one() -> None:
    frame = np.full((100, 400, 3), 90, np.uint8)
    frame[30:70, 20:60] = 200
    frame[40:50, 30:50] = 255  # a fifth of the middle clipped, the print showing round it
    frame[30:70, 80:120] = 225  # an ivory face, not at the sensor's white
    frame[30:70, 140:180] = 40  # a black face
    frame[49:51, 140:180] = 255  # a thin streak at white: too little of the middle
    frame[30:70, 200:240] = 255  # a face all at white
    centres = np.array([[40.0, 50.0], [100.0, 50.0], [160.0, 50.0], [220.0, 50.0]])
    assert clipped(frame, centres, np.full(4, 40.0)).tolist() == [True, False, False, True]


def test_tops_at_the_sensors_white_in_part_are_read_again_from_a_darker_frame() -> None:
    """Under a broad lamp the white tops' middles reach the sensor's white but their print shows:
    no guess, yet the darker frame is asked for, and those tops are read from it, once."""
    lit = Conditions(height_mm=600, seed=1, solid=True, gloss=0.8, lamps=(Lamp(0.0, 30.0, 900.0, size_mm=150.0),))
    frame, truth = render_position(POSITION, lit)
    detector = Detector(demo_profile())
    observation = detector.detect(frame)
    assert detector.glare() == [] and all(t.confidence >= 0.6 for t in observation.tiles)
    assert detector.wants_darker()
    read = detector.read_darker(render_position(POSITION, replace(lit, exposure=DARKER))[0])
    assert read is not None and all((t.colour, t.bug) == _truth_near(truth, t.px) for t in read.tiles)
    detector.detect(frame, 0.1)
    assert not detector.wants_darker()


OVERHEAD = Conditions(height_mm=600, seed=4, solid=True, gloss=1.0, lamps=(Lamp(0.0, 0.0, 900.0, size_mm=20.0),))


def _truth_near(truth, px: tuple[float, float]) -> tuple[Colour, Bug]:
    tile = min(truth.tiles, key=lambda t: np.hypot(t.px[0] - px[0], t.px[1] - px[1]))
    return tile.colour, tile.bug


@pytest.fixture
def under_glare():
    """A frame of POSITION under OVERHEAD's glare, its truth, a detector that read it, and where
    its tops lie under glare (that detector wants a darker frame for them)."""
    frame, truth = render_position(POSITION, OVERHEAD)
    detector = Detector(demo_profile())
    detector.detect(frame)
    under = detector.glare()
    assert under and detector.wants_darker()
    return frame, truth, detector, under


def test_tops_washed_out_by_glare_are_read_from_a_darker_frame_and_stay_read(under_glare) -> None:
    frame, truth, detector, under = under_glare
    darker, _ = render_position(POSITION, replace(OVERHEAD, exposure=DARKER))
    read = detector.read_darker(darker)
    assert read is not None and detector.glare() == []
    for later in (read, detector.detect(frame, 0.1), detector.detect(frame, 0.2)):  # the still view keeps them
        assert not detector.wants_darker()
        tops = {t.px: t for t in later.tiles}
        for px in under:
            assert (tops[px].colour, tops[px].bug) == _truth_near(truth, px) and tops[px].confidence >= 0.6


def test_a_darker_frame_that_still_clips_reads_nothing_again(under_glare) -> None:
    frame, _, detector, under = under_glare
    assert detector.read_darker(frame) is None and detector.glare() == under
    assert not detector.detect(frame, 0.1).occluded and detector.glare() == under
    assert not detector.wants_darker()  # tried once for these tops: the lamp is for the person to move
    handed = Detector(demo_profile())
    assert handed.detect(render_position(POSITION, replace(OVERHEAD, hand=True))[0]).occluded
    darker, _ = render_position(POSITION, replace(OVERHEAD, exposure=DARKER))
    assert not handed.wants_darker() and handed.read_darker(darker) is None  # a hand may lie over the tops there
    plain = Detector(demo_profile())
    plain.detect(render_position(POSITION, replace(OVERHEAD, gloss=0.0))[0])
    assert not plain.wants_darker() and plain.read_darker(frame) is None  # no top of its last frame was washed out
