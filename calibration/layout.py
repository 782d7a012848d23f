"""Enrollment layouts: where the user lays each piece for the enrollment photo.

The text form is one tile per line, ``q r piece`` in axial coordinates (pointy-topped hexes;
``q`` runs east, ``r`` south-east), ``#`` starts a comment. Any arrangement works: touching
rows, a block, a loose scatter with gaps, at any turn on the table. ``DEFAULT_LAYOUT`` is a
compact block of all 28 Base+MLP pieces in four rows (8, 8, 8, 4 tiles), touching::

    row r=0:  wQ  wS1 wS2 wB1 wB2 wG1 wG2 wG3      (q = 0..7)
    row r=1:  wA1 wA2 wA3 wM  wL  wP  bQ  bS1
    row r=2:  bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2
    row r=3:  bA3 bM  bL  bP                        (q = 0..3)

Its short last row means the block has no rotational symmetry, so the photo may show it
turned any way.
"""

from __future__ import annotations

from calibration.errors import CalibrationError
from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece

_ROWS = ("wQ wS1 wS2 wB1 wB2 wG1 wG2 wG3", "wA1 wA2 wA3 wM wL wP bQ bS1",
         "bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2", "bA3 bM bL bP")
DEFAULT_LAYOUT = "\n".join(f"{q} {r} {name}" for r, row in enumerate(_ROWS) for q, name in enumerate(row.split()))
# what to do after the first enrollment photo: one photo's glare or blur on a top is learnt as
# that creature's look, and a second photo puts them on other tops
SECOND_PHOTO = ("turn the block half round and add a second photo: glare and blur then fall on other tiles, "
                "and the creatures are read surer")

Layout = dict[Hex, Piece]

def parse_layout(text: str) -> Layout:
    """Parse ``q r piece`` lines; ``CalibrationError`` names the first bad line."""
    layout: Layout = {}
    seen: set[Piece] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if len(words) != 3:
                raise ValueError("expected 'q r piece', e.g. '0 0 wQ'")
            cell, piece = (int(words[0]), int(words[1])), Piece.parse(words[2])
        except ValueError as exc:
            raise CalibrationError(f"layout line {number} ({line.strip()!r}): {exc}") from None
        if cell in layout or piece in seen:
            raise CalibrationError(f"layout line {number}: {'cell' if cell in layout else 'piece'} used twice")
        layout[cell] = piece
        seen.add(piece)
    absent = [f"{c.title} {b.title}" for c in Colour for b in Bug
              if not any(p.colour is c and p.bug is b for p in seen)]
    if absent:
        raise CalibrationError(f"the layout lacks {', '.join(absent)}: every creature of both colours must be "
                               "enrolled (lay out at least one of each)")
    return layout


def layout_position(layout: str = DEFAULT_LAYOUT) -> dict[Hex, list[Piece]]:
    """A layout as a position (one piece per cell), e.g. to render it."""
    return {cell: [piece] for cell, piece in parse_layout(layout).items()}
