"""What the rulebooks say about each rule, in our own words, with where to read it.

The rulings page shows ``citation(violation.rule, violation.bug)`` under the engine's
explanation, so players can check the ruling against the book on the table. Sections
and pages refer to the 2024 Hive Ultimate Pocket rulebook unless another book is named.
"""

from __future__ import annotations

from dataclasses import dataclass

from .explain import Rule
from .pieces import Bug

BOOK = "Hive Ultimate Pocket rulebook (Gen42, 2024)"
PILLBUG_LEAFLET = "Pillbug expansion leaflet (Gen42)"
UHP = "Universal Hive Protocol (Mzinga project), used by hivecam for notation"


@dataclass(frozen=True)
class Citation:
    """A paraphrase of the rule and where the official text is."""

    summary: str
    source: str
    section: str

    @property
    def reference(self) -> str:
        """``source, section`` as one line, e.g. for a footnote."""
        return f"{self.source}, {self.section}"


RULES: dict[Rule, Citation] = {
    Rule.GAME_OVER: Citation(
        "The game ends the moment a Queen Bee has all six sides covered, by pieces of either "
        "colour; if the last move covers both Queens at once the game is a draw.",
        BOOK, "'The End of the Game', p. 11"),
    Rule.PASS_NOT_ALLOWED: Citation(
        "Only a player who can neither place nor move a piece passes; the opponent then plays "
        "again until the stuck player has a move.", BOOK, "'Unable to Move or Place', p. 11"),
    Rule.NOT_YOUR_TURN: Citation(
        "Players alternate turns, White first; on your turn you place or move one of your own "
        "pieces.", BOOK, "'Playing the Game'"),
    Rule.NOT_YOUR_PIECE: Citation(
        "You move only your own pieces. The one exception is the Pillbug's special ability, which "
        "may move an adjacent piece of either colour.", BOOK, "'Moving' and 'Pillbug', p. 8"),
    Rule.NOT_IN_GAME: Citation(
        "Each player uses only the pieces of the chosen set: the base game has Queen Bee, Spiders, "
        "Beetles, Grasshoppers and Soldier Ants; Mosquito, Ladybug and Pillbug are added only when "
        "the game includes them.", BOOK, "'Preparation'"),
    Rule.WRONG_PIECE_NUMBER: Citation(
        "Pieces of one kind are identical on the table; the notation numbers them in the order "
        "they enter (wA1 before wA2), so the next one placed always takes the lowest free number.",
        UHP, "MoveString piece names"),
    Rule.FIRST_PLACEMENT: Citation(
        "White opens by placing a piece in the centre of the table; Black then places a piece "
        "edge to edge with it. These two first pieces are the only ones that may touch the "
        "other colour when placed.", BOOK, "'Playing the Game' and 'Placing Restriction'"),
    Rule.QUEEN_NOT_ON_FIRST_TURN: Citation(
        "The Queen Bee may be placed from your second turn to your fourth, not on your first. "
        "(Older books allowed it on the first turn; hivecam offers that as an option.)",
        BOOK, "'Playing the Game' and 'Placing your Queen Bee'"),
    Rule.QUEEN_BY_FOURTH_TURN: Citation(
        "If your Queen Bee is still in hand at your fourth turn, you must place it on that turn.",
        BOOK, "'Placing your Queen Bee'"),
    Rule.PLACE_ON_EMPTY: Citation(
        "A new piece enters on the lower level, in an empty space; even a Beetle cannot be placed "
        "directly on top of the hive, though it may climb there later.", BOOK, "'Beetle'"),
    Rule.PLACE_TOUCHING_OPPONENT: Citation(
        "Apart from each player's first piece, a newly placed piece may not touch any piece of "
        "the other colour. A stack counts as the colour of its top piece.",
        BOOK, "'Placing Restriction' and 'Beetle'"),
    Rule.PLACE_NOT_TOUCHING_OWN: Citation(
        "A new piece joins the hive: it is placed edge to edge with your own pieces (and, after "
        "the opening, with none of your opponent's).", BOOK, "'Placing Restriction'"),
    Rule.MOVE_BEFORE_QUEEN: Citation(
        "None of your pieces may move until your Queen Bee is placed; until then each turn is a "
        "placement.", BOOK, "'Moving'"),
    Rule.PIECE_COVERED: Citation(
        "A piece with a Beetle (or a Mosquito acting as one) on top of it cannot move, and a "
        "Pillbug cannot move any piece of a stack.", BOOK, "'Beetle' and 'Pillbug', p. 8"),
    Rule.JUST_MOVED: Citation(
        "A piece moved by a Pillbug cannot move at all on its owner's next turn, neither by "
        "itself nor by a Pillbug; a Pillbug just moved that way cannot use its ability either.",
        PILLBUG_LEAFLET, "'Special Ability' (the Dutch text adds the Pillbug itself)"),
    Rule.ONE_HIVE: Citation(
        "The pieces must stay linked at all times: you may not move a piece that is the only link "
        "between two parts of the hive, nor leave a piece on its own, and the hive must not come "
        "apart even while a piece is on its way.", BOOK, "'One Hive Rule', p. 9"),
    Rule.FREEDOM_TO_MOVE: Citation(
        "Pieces slide: one that cannot physically slide out of or into a space through a narrow "
        "gap may not go there. Beetles, Ladybugs and Mosquitoes moving on top of the hive are "
        "also stopped by a gap between two higher stacks. Grasshoppers jump and are exempt.",
        BOOK, "'Freedom To Move', p. 10"),
    Rule.DESTINATION_OCCUPIED: Citation(
        "Only Beetles (and Mosquitoes copying one) end a move on top of another piece; every "
        "other creature, and a piece moved by a Pillbug, must finish in an empty space.",
        BOOK, "'The Creatures and how they move'"),
    Rule.BUG_MOVEMENT: Citation(
        "Each creature has its own way of moving; a move the creature cannot make is not allowed.",
        BOOK, "'The Creatures and how they move'"),
    Rule.PILLBUG_JUST_MOVED: Citation(
        "A Pillbug may not move the piece your opponent moved on their last turn.",
        BOOK, "'Pillbug', p. 8, first exception"),
    Rule.PILLBUG_STACKED: Citation(
        "A Pillbug may not move a piece that is part of a stack.", BOOK, "'Pillbug', p. 8"),
    Rule.PILLBUG_SPLIT: Citation(
        "A Pillbug may not move a piece if lifting it would split the hive.",
        BOOK, "'Pillbug', p. 8, and 'One Hive Rule', p. 9"),
    Rule.PILLBUG_GATE: Citation(
        "A Pillbug may not lift a piece onto itself, or put it down, through a narrow gap between "
        "two stacked pieces.", BOOK, "'Pillbug', p. 8 (Fig. 3), and 'Freedom To Move', p. 10"),
    Rule.PILLBUG_NOT_ADJACENT: Citation(
        "The Pillbug lifts an adjacent piece onto itself and sets it down in another empty space "
        "adjacent to itself.", BOOK, "'Pillbug', p. 8"),
    Rule.UNEXPLAINED: Citation(
        "hivecam's move generator rejects this move but could not name the rule; please report "
        "the position.", "hivecam", "issue tracker"),
}

CREATURES: dict[Bug, Citation] = {
    Bug.QUEEN: Citation("The Queen Bee moves one space per turn, sliding.",
                        BOOK, "'Queen Bee'"),
    Bug.BEETLE: Citation(
        "The Beetle moves one space per turn, but may also climb onto the hive and move across its "
        "top, and drop into spaces others cannot reach; the piece under it cannot move.",
        BOOK, "'Beetle'"),
    Bug.GRASSHOPPER: Citation(
        "The Grasshopper jumps in a straight line over one or more pieces to the first empty space; "
        "it cannot jump over a gap.", BOOK, "'Grasshopper'"),
    Bug.SPIDER: Citation(
        "The Spider slides exactly three spaces, no more, no less, staying in contact with the hive "
        "and never going back over a space.", BOOK, "'Spider'"),
    Bug.ANT: Citation(
        "The Soldier Ant slides any number of spaces around the hive, but not into a space it "
        "cannot slide into.", BOOK, "'Soldier Ant'"),
    Bug.LADYBUG: Citation(
        "The Ladybug moves exactly three spaces: two across the top of the hive, then one down into "
        "an empty space. It may not finish on top of the hive.", BOOK, "'Ladybug', p. 6"),
    Bug.MOSQUITO: Citation(
        "The Mosquito moves like any creature it touches. On top of the hive it moves as a Beetle "
        "until it climbs down; touching only Mosquitoes it cannot move.", BOOK, "'Mosquito', p. 7"),
    Bug.PILLBUG: Citation(
        "The Pillbug moves one space like the Queen Bee, or instead uses its special ability to "
        "move an adjacent piece up onto itself and down to an empty space next to itself.",
        BOOK, "'Pillbug', p. 8"),
}


def citation(rule: Rule, bug: Bug | None = None) -> Citation:
    """What the book says about ``rule``; for a creature's movement, that creature's section."""
    if rule in (Rule.BUG_MOVEMENT, Rule.DESTINATION_OCCUPIED) and bug is not None:
        return CREATURES[bug]
    return RULES[rule]
