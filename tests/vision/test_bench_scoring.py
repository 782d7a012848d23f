"""How the styles benchmark scores a frame: a top seen on a stack cut off by the frame's edge."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

import numpy as np

from rules import Bug, Colour
from rules.observation import Observation, TileSighting
from vision.render.canvas import Label
from vision.render.scene import FrameTruth, TileTruth


@cache
def _vision_bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "vision_bench.py"
    spec = importlib.util.spec_from_file_location("vision_bench", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _seen(x: float, y: float) -> TileSighting:
    return TileSighting(0, 0, Colour.WHITE, Bug.ANT, px=(x, y))


def test_a_top_seen_on_a_stack_whose_centre_lies_beyond_the_edge_is_no_phantom() -> None:
    labels = np.zeros((720, 1280), np.uint8)
    labels[0:25, 600:660] = Label.WHITE_TOP  # the visible part of a tile whose centre lies above the frame
    labels[280:320, 620:660] = Label.WHITE_TOP  # a tile in the frame
    inside = TileTruth((0, 0), Colour.WHITE, Bug.ANT, (640.0, 300.0), 1)
    cut_off = _seen(630, 8)
    kept = [_seen(640, 301), _seen(100, 400), _seen(1275, 400)]  # the tile in view; table; table at the edge
    observation = Observation((cut_off, *kept))
    truth = FrameTruth([inside], None, 60.0, outside=[(0, -1)], labels=labels)
    assert _vision_bench()._within_frame(observation, truth).tiles == tuple(kept)
    whole = FrameTruth([inside], None, 60.0, labels=labels)  # nothing beyond the edge: a phantom after all
    assert _vision_bench()._within_frame(observation, whole) == observation


def test_a_top_hidden_behind_a_taller_stack_is_neither_missed_nor_a_phantom() -> None:
    shows = TileTruth((0, 0), Colour.WHITE, Bug.ANT, (640.0, 300.0), 6)
    hidden = TileTruth((-1, 0), Colour.BLACK, Bug.ANT, (612.0, 296.0), 1, shown=0.2)
    on_hidden, on_both, phantom = _seen(608, 297), _seen(627, 298), _seen(400, 400)
    observation = Observation((_seen(640, 301), on_hidden, on_both, phantom))
    truth = FrameTruth([shows, hidden], None, 30.0)
    seen, scored = _vision_bench()._hidden_left_out(observation, truth)
    assert scored.tiles == [shows]
    assert seen.tiles == (_seen(640, 301), on_both, phantom)  # near a top that shows too: still scored
    unhidden = FrameTruth([shows, replace(hidden, shown=0.6)], None, 30.0)
    assert _vision_bench()._hidden_left_out(observation, unhidden) == (observation, unhidden)
