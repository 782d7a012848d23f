"""A real camera's lattice is anchored afresh in every frame (vision picks its origin tile
per frame), so the same board comes with shifted coordinates. Sequences as the rendered
referee benchmark saw them (boardspace game HV-BerndBrot-guest-2020-03-29-1436)."""

from __future__ import annotations

from rules import Bug, Colour
from rules.observation import Observation, TileSighting
from rules.referee import Referee, RefereeConfig
from rules.referee.stability import STEADY, UNSTABLE, Steadiness

W, B = Colour.WHITE, Colour.BLACK


def framed(origin: tuple[int, int], *tiles: tuple[int, int, Colour, Bug]) -> tuple[TileSighting, ...]:
    """``tiles`` (cell, colour, bug) as seen by a lattice whose origin is at ``origin``."""
    return tuple(TileSighting(q - origin[0], r - origin[1], colour, bug) for q, r, colour, bug in tiles)


TWO = ((0, 0, W, Bug.SPIDER), (1, 0, B, Bug.BEETLE))
ON_WHITE, ON_BLACK = framed((0, 0), *TWO), framed((1, 0), *TWO)


def test_a_view_reanchored_from_frame_to_frame_settles() -> None:
    steadiness = Steadiness(stable_seconds=0.3, flicker_seconds=0.45)
    frames = [steadiness.feed(Observation(view, False, round(0.1 * i, 6)))
              for i, view in enumerate([ON_BLACK, ON_WHITE, ON_BLACK, ON_WHITE, ON_BLACK])]
    assert [f.status for f in frames] == [UNSTABLE] * 3 + [STEADY] * 2
    assert frames[3].since == 0.0


def test_the_second_piece_seen_on_a_reanchored_lattice_needs_no_question() -> None:
    """A lone first piece fixes no orientation; the referee keeps the frame's own turn
    instead of asking which of six equivalent directions the second piece went."""
    referee = Referee(config=RefereeConfig(stable_seconds=0.3))
    views = ([()] * 6 + [None] + [framed((0, 0), TWO[0])] * 4 + [None] * 2
             + [ON_BLACK, ON_WHITE, ON_WHITE, ON_BLACK, ON_BLACK])
    events = []
    for i, view in enumerate(views):
        events += referee.observe(Observation(view or (), view is None, round(0.1 * (i + 1), 6)))
    assert not [e for e in events if e.kind in ("needs_confirmation", "illegal", "misread")]
    assert [m.uhp for m in referee.record.moves] == ["wS1", "bB1 wS1-"]


LINE = ((-1, 0, W, Bug.ANT), (0, 0, W, Bug.GRASSHOPPER), (1, 0, B, Bug.ANT))
TURNED = tuple(TileSighting(-r, q + r, colour, bug) for q, r, colour, bug in LINE)  # a sixth turn


def test_a_straight_line_whose_axes_turn_from_frame_to_frame_settles() -> None:
    """Three tiles in a row give the lattice no second direction: frame by frame, vision
    may take either neighbouring axis for the row (seen in HV-TheYeti-WeakBot1-2020-03-30-0515)."""
    assert TURNED != framed((0, 0), *LINE)
    steadiness = Steadiness(stable_seconds=0.3, flicker_seconds=0.45)
    views = [framed((0, 0), *LINE), framed((0, 0), *LINE), TURNED, TURNED]
    frames = [steadiness.feed(Observation(view, False, round(0.1 * i, 6))) for i, view in enumerate(views)]
    assert [f.status for f in frames] == [UNSTABLE] * 3 + [STEADY]
