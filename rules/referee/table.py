"""The position on the table as the camera sees it, to start refereeing a game in progress.

The camera sees the top of each stack (its colour and creature, and a guess of the height),
not which of two White Ants is ``wA1``, nor what lies under a Beetle, nor whose turn it is.
``table_position`` numbers the pieces of each kind in reading order (by cell) and lists the
questions a person must answer; ``TablePosition.answered`` applies the answers and gives the
``Setup`` that ``Referee.from_position`` starts from.

>>> from rules.observation import Observation, TileSighting
>>> from rules.pieces import Bug, Colour
>>> seen = Observation((TileSighting(0, 0, Colour.WHITE, Bug.QUEEN), TileSighting(1, 0, Colour.BLACK, Bug.ANT),
...                     TileSighting(-1, 0, Colour.WHITE, Bug.ANT), TileSighting(2, 0, Colour.BLACK, Bug.ANT)))
>>> position = table_position(seen, "Base")
>>> [q.kind for q in position.questions]
['to_move', 'numbers']
>>> str(position.answered("b", {(1, 0): "bA2", (2, 0): "bA1"}))
'b -1,0:wA1 0,0:wQ 1,0:bA2 2,0:bA1'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from ..gametype import GameType
from ..hexgrid import Hex
from ..observation import Observation, TileSighting
from ..pieces import Bug, Colour, Piece
from ..setup import Setup

@dataclass(frozen=True)
class Question:
    """Something the view cannot tell. ``kind``: ``to_move`` (whose turn), ``numbers`` (which
    number each piece of one kind is), ``under`` (what lies under a stack's top), ``unsure``
    (a piece read without confidence), ``unreadable`` (the view cannot be a position: say what
    is really there); ``cells`` it is about; ``choices`` (piece names or colours) and the
    ``default`` taken when it is not answered."""

    kind: str
    text: str
    cells: tuple[Hex, ...] = ()
    choices: tuple[str, ...] = ()
    default: str = ""


@dataclass(frozen=True)
class TablePosition:
    """The pieces seen, by cell (the top of each stack, numbered in reading order), and the questions."""

    game_type: GameType
    stacks: dict[Hex, tuple[Piece, ...]]
    heights: dict[Hex, int]
    questions: tuple[Question, ...]

    def answered(self, to_move: Colour | str, numbers: Mapping[Hex, str] | None = None,
                 under: Mapping[Hex, Sequence[str]] | None = None) -> Setup:
        """The position with the answers: whose turn, the piece name on top of any cell
        (``numbers``), and the pieces under a top, bottom first (``under``). ``ValueError``
        when the result is no position (a piece twice, a piece on the wrong kind, ...)."""
        stacks = dict(self.stacks)
        for cell, name in (numbers or {}).items():
            if cell not in stacks:
                raise ValueError(f"there is no piece at {cell} to number")
            piece, top = Piece.parse(name), stacks[cell][-1]
            if (piece.colour, piece.bug) != (top.colour, top.bug):
                raise ValueError(f"the piece at {cell} is a {top.colour.title} {top.bug.title}, not {piece}")
            stacks[cell] = stacks[cell][:-1] + (piece,)
        for cell, names in (under or {}).items():
            if cell not in stacks:
                raise ValueError(f"there is no stack at {cell}")
            stacks[cell] = tuple(Piece.parse(n) for n in names) + stacks[cell][-1:]
        colour = Colour(to_move) if isinstance(to_move, str) else to_move
        setup = Setup(stacks, colour)
        setup.check_game_type(self.game_type)
        return setup


def table_position(observation: Observation, game_type: GameType | str, min_confidence: float = 0.6
                   ) -> TablePosition:
    """What ``observation`` shows as a position of ``game_type``, with the questions to answer
    (a read below ``min_confidence`` is put to the person)."""
    kind = GameType.parse(game_type) if isinstance(game_type, str) else game_type
    tiles = sorted(observation.tiles, key=lambda t: t.cell)
    questions: list[Question] = [_whose_turn(tiles)]
    stacks: dict[Hex, tuple[Piece, ...]] = {}
    by_kind: dict[tuple[Colour, Bug], list[Hex]] = {}
    for tile in tiles:
        by_kind.setdefault((tile.colour, tile.bug), []).append(tile.cell)
    for (colour, bug), cells in by_kind.items():
        name = f"{colour.title} {bug.title}"
        if bug not in kind.bugs:
            questions.append(Question("unreadable", f"A {name} is seen, but there is none in {kind}: "
                                      "what is there?", tuple(cells)))
            continue
        if len(cells) > bug.count:
            questions.append(Question("unreadable", f"{len(cells)} pieces are seen as a {name}; a player has "
                                      f"{bug.count}: which are something else?", tuple(cells)))
            continue
        pieces = Piece.of_kind(colour, bug)
        for cell, piece in zip(cells, pieces):
            stacks[cell] = (piece,)
        if len(cells) > 1:
            names = tuple(p.name for p in pieces)
            questions.append(Question("numbers", f"Which {name} is which? (numbered in reading order unless "
                                      "you say)", tuple(cells), names))
    heights = {t.cell: t.height_hint for t in tiles if t.cell in stacks}
    for tile in tiles:
        if tile.cell in stacks and tile.confidence < min_confidence:
            questions.append(Question("unsure", f"Is the piece at {tile.cell} a {tile.colour.title} "
                                      f"{tile.bug.title}? The camera is not sure.", (tile.cell,)))
        if tile.cell in stacks and tile.height_hint > 1:
            questions.append(Question("under", f"The stack at {tile.cell} looks {tile.height_hint} high: "
                                      f"what lies under the {tile.colour.title} {tile.bug.title}?", (tile.cell,)))
    return TablePosition(kind, stacks, heights, tuple(questions))


def _whose_turn(tiles: Sequence[TileSighting]) -> Question:
    """Whose turn it is cannot be seen; White has moved once more than Black when it has more pieces."""
    white = sum(1 for t in tiles if t.colour is Colour.WHITE)
    guess = "b" if white > len(tiles) - white else "w"
    return Question("to_move", "Whose turn is it?", (), ("w", "b"), guess)
