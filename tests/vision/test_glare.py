"""Tops washed out by glare: found where a lamp's reflection whites out the print, nowhere else."""

from __future__ import annotations

import numpy as np

from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour, Piece
from vision.detect import Detector
from vision.glare import glared
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
