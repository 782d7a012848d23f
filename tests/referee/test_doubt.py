"""What the camera more likely caused is asked about, not flagged or recorded."""

from __future__ import annotations

from dataclasses import replace

from table_sim import kinds, of, table_uhps, uhps

from rules import Bug, Colour, Piece
from rules.explain import Rule
from rules.observation import TileSighting

OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0); White to move
FIRST_TWO = OPENING[:2]  # wG1(0,0) bG1(1,0); White to move


def test_a_tile_of_the_wrong_colour_placed_where_the_side_to_move_could_is_a_question(table) -> None:
    t = table(*FIRST_TWO)
    t.hand()
    t.force("bA1", (-1, 0))  # read black, but touching only White: White's wA1 there is legal
    events = t.still()
    assert kinds(events) == ["needs_confirmation"]
    asked = of(events, "needs_confirmation")[0]
    assert asked.candidates == ("wA1 -wG1",)
    assert "colour" in asked.reason
    assert t.referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 0} and not t.referee.record.attempts
    assert [e.uhp for e in of(t.referee.confirm("wA1 -wG1"), "move")] == ["wA1 -wG1"]
    assert uhps(t.referee) == [*FIRST_TWO, "wA1 -wG1"]


def test_a_tile_of_the_wrong_colour_after_a_legal_move_seen_with_it_is_a_question(table) -> None:
    """The first still view shows White's first tile and, beside it, Black's read as White's."""
    t = table()
    t.hand()
    t.play("wS1")
    t.force("wA1", (1, 0))  # really bA1: Black's first tile may touch White's
    events = t.still()
    assert kinds(events) == ["needs_confirmation"]
    asked = of(events, "needs_confirmation")[0]
    assert asked.candidates == ("wS1; bA1 wS1-",) and "colour" in asked.reason
    assert not t.referee.record.attempts and t.referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 0}
    assert [e.uhp for e in of(t.referee.confirm("wS1; bA1 wS1-"), "move")] == ["wS1", "bA1 wS1-"]


def test_a_placement_out_of_turn_that_the_side_to_move_could_not_make_is_flagged(table) -> None:
    t = table(*FIRST_TWO)
    t.hand()
    t.force("bA1", (2, 0))  # touches only bG1: a White Ant there would break the placing rule
    events = t.still()
    assert kinds(events) == ["illegal"]
    assert of(events, "illegal")[0].rule == Rule.NOT_YOUR_TURN.value


def test_an_illegal_tile_seen_with_no_hand_since_the_position_was_shown_is_a_misread(table) -> None:
    """A shadow beside a tile just moved, read surely as a black Beetle after the hand had gone."""
    t = table(*OPENING[:3])
    assert [e.uhp for e in of(t.turn("bQ bG1-"), "move")] == ["bQ bG1-"]
    t.still()
    t.force("bB1", (3, 0))  # no hand: out of turn, were it a tile
    assert kinds(t.still(4)) == []  # looked at again later, as a flicker or a hand's tile may be
    events = t.still(30)
    assert kinds(events) == ["misread"]
    assert "no hand came by the board" in of(events, "misread")[0].message
    assert not t.referee.record.attempts and t.referee.warnings[Colour.BLACK] == 0
    t.take_back()  # the shadow goes: the warning is withdrawn, and play goes on
    assert kinds(t.still()) == ["takeback"] and t.referee.pending() is None
    assert [e.uhp for e in of(t.turn("wA1 -wQ"), "move")] == ["wA1 -wQ"]


def test_the_same_illegal_tile_laid_by_a_hand_is_flagged(table) -> None:
    t = table(*OPENING[:3])
    t.turn("bQ bG1-")
    t.still()
    t.hand()
    t.force("bB1", (3, 0))
    events = t.still(30)
    assert kinds(events) == ["illegal"]
    assert of(events, "illegal")[0].rule == Rule.NOT_YOUR_TURN.value


def test_a_move_out_of_turn_after_a_hand_left_the_board_unchanged_is_a_question(table) -> None:
    t = table(*OPENING)
    t.hand()
    assert kinds(t.still()) == []  # White's hand came and went; nothing seems to have changed
    t.hand()
    t.force("bQ", (2, -1))  # Black moves: out of turn, unless White's move went unseen
    events = t.still(30)
    assert kinds(events) == ["misread"]
    message = of(events, "misread")[0].message
    assert "bQ on White's turn" in message and "not seen" in message
    assert t.referee.pending().kind == "check"
    assert not t.referee.record.attempts and t.referee.warnings[Colour.BLACK] == 0


def test_a_move_recorded_after_the_quiet_visit_ends_the_doubt(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.still()
    assert [e.uhp for e in of(t.turn("wQ /wG1"), "move")] == ["wQ /wG1"]
    t.hand()
    t.force("wQ", (-1, 0))  # White again, with no quiet visit since its last move
    events = t.still()
    assert kinds(events) == ["illegal"]
    assert of(events, "illegal")[0].rule == Rule.NOT_YOUR_TURN.value


def test_several_moves_at_once_after_a_quiet_visit_are_a_question(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    unseen = t.transform.apply(t.board.position_of(Piece.parse("wA1")))
    assert kinds(t.still(tiles=tuple(s for s in t.seen() if s.cell != unseen))) == []  # the camera misses wA1
    t.hand()
    t.play("bA1 bQ-", "wS1 wQ\\")  # Black, then White at once: it looks like White, then Black
    events = t.still(tiles=tuple(s for s in t.seen() if s.cell != unseen))
    assert kinds(events) == ["needs_confirmation"]
    asked = of(events, "needs_confirmation")[0]
    assert "not seen" in asked.reason and len(uhps(t.referee)) == len(OPENING)
    moves = [e.uhp for e in of(t.referee.correct("wA1 -wQ; bA1 bQ-; wS1 wQ\\"), "move")]
    assert moves == ["wA1 -wQ", "bA1 bQ-", "wS1 wQ\\"]


def test_a_moved_tile_missed_at_a_quiet_visit_and_seen_after_the_next_is_recorded(table) -> None:
    """The camera loses White's Queen as it moves (the view lacks it) and finds it after Black's
    move: one move for each hand, the two recorded unasked."""
    t = table(*OPENING)
    t.hand()
    t.play("wQ /wG1")
    lost = t.transform.apply(t.board.position_of(Piece.parse("wQ")))
    assert kinds(t.still(tiles=tuple(s for s in t.seen() if s.cell != lost))) == []  # a quiet visit
    t.hand()
    t.play("bA1 bQ-")
    assert [e.uhp for e in of(t.still(), "move")] == ["wQ /wG1", "bA1 bQ-"]


def test_two_moves_after_a_quiet_visit_missing_a_tile_are_a_question_if_more_hands_came(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.play("wQ /wG1")
    lost = t.transform.apply(t.board.position_of(Piece.parse("wQ")))
    t.still(tiles=tuple(s for s in t.seen() if s.cell != lost))
    t.hand()
    t.still(tiles=tuple(s for s in t.seen() if s.cell != lost))
    t.hand()
    t.play("bA1 bQ-")
    events = t.still()
    assert kinds(events) == ["needs_confirmation"] and "not seen" in of(events, "needs_confirmation")[0].reason


def test_moves_taken_back_while_the_board_still_shows_them_are_no_question(table) -> None:
    t = table(*OPENING)
    t.hand()
    assert kinds(t.still()) == []  # a quiet visit
    t.referee.undo()
    t.referee.undo()
    assert kinds(t.still()) == [] and t.referee.pending().kind == "restore"


def test_three_moves_at_once_are_a_question_and_two_are_recorded(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.play("wL \\wG1", "bL bG1\\", "wQ -wL")  # likelier a misread tile than three moves between two still views
    events = t.still()
    assert kinds(events) == ["needs_confirmation"]
    asked = of(events, "needs_confirmation")[0]
    assert "3 moves at once" in asked.reason and asked.candidates == ("wL \\wG1; bL bG1\\; wQ -wL",)
    assert len(uhps(t.referee)) == len(OPENING)
    moves = [e.uhp for e in of(t.referee.confirm(asked.candidates[0]), "move")]
    assert moves == ["wL \\wG1", "bL bG1\\", "wQ -wL"]
    t.hand()
    t.play("bA1 \\bQ", "wA1 -wQ")  # two at once: both players were quick
    assert [e.uhp for e in of(t.still(), "move")] == ["bA1 \\bQ", "wA1 -wQ"]


def test_a_view_between_tells_which_of_two_look_alikes_came_first(table) -> None:
    """White's two Ants placed around Black's move: the final view fits either order. A view
    between, which missed a Grasshopper and so explained nothing, showed the first Ant: it is
    recorded so, with no question (the rendered benchmark: which Grasshopper was placed first)."""
    t = table(*OPENING)
    missed = t.transform.apply((1, 0))  # bG1

    def without_bg1() -> tuple:
        return tuple(s for s in t.seen() if s.cell != missed)

    t.hand()
    t.play("wA1 -wQ")
    assert kinds(t.still(tiles=without_bg1())) == []
    t.hand()
    t.play("bA1 bQ-")
    assert kinds(t.still(tiles=without_bg1())) == []
    t.hand()
    t.play("wA2 wQ\\")
    assert [e.uhp for e in of(t.still(), "move")] == ["wA1 -wQ", "bA1 bQ-", "wA2 wQ\\"]
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ", "bA1 bQ-", "wA2 wQ\\")  # no view between: either order
    asked = of(t.still(), "needs_confirmation")
    assert len(asked) == 1 and len(asked[0].candidates) == 2


def test_an_illegal_move_in_a_view_that_lost_most_of_the_hive_is_not_ruled_on(table) -> None:
    """Dark tiles on a dark mat: Black's tiles go unseen, and a person vouched for such a view."""
    t = table("wS1", "bG1 /wS1", "wG1 wS1/", "bQ bG1\\", "wB1 wG1-", "bB1 -bQ", "wQ wS1-", "bS1 bB1\\", "wS2 wQ-",
              "bS1 bQ/")
    t.hand()
    t.play("wS1 -bB1")

    def white_only() -> tuple:
        return tuple(s for s in t.seen() if s.colour is Colour.WHITE)

    assert kinds(t.still(30, tiles=white_only())) == ["misread"]  # Black's tiles went unseen
    assert [e.uhp for e in of(t.referee.correct("wS1 -bB1"), "move")] == ["wS1 -bB1"]
    t.hand()
    t.force("wB1", (3, -1))  # White again: out of turn, if the camera placed it right
    events = t.still(30, tiles=white_only())
    assert kinds(events) == ["misread"]
    assert "sees only 4 of the 8 other stacks" in of(events, "misread")[0].message
    assert not t.referee.record.attempts and t.referee.warnings[Colour.WHITE] == 0


def test_a_placement_out_of_turn_where_the_side_to_move_could_place_another_creature_is_a_misread(table) -> None:
    """Black's first tile, a Grasshopper, read as a White Queen: Black may not open with its Queen,
    so there is no colour twin, but Black could have placed any other creature there."""
    t = table()
    t.hand()
    t.play("wS1")
    t.force("wQ", (1, 0))
    events = t.still(30)
    assert kinds(events) == ["misread"]
    message = of(events, "misread")[0].message
    assert "out of turn" in message and "read as wQ one of Black's" in message
    assert not t.referee.record.attempts and t.referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 0}
    assert [e.uhp for e in of(t.referee.correct("wS1; bG1 wS1-"), "move")] == ["wS1", "bG1 wS1-"]


def test_an_illegal_move_seen_with_a_legal_one_is_a_misread_to_check(table) -> None:
    """One hand, two changes: White's Ant placed, and a black tile in the gap between White's
    tiles (the table seen between them, taken for a tile): a misread, not Black's illegal placement."""
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    t.force("bA1", (-1, 1))  # touches wQ and wG1: a Black placement there breaks the placing rule
    events = t.still(30)
    assert kinds(events) == ["misread"]
    message = of(events, "misread")[0].message
    assert "two changes at once" in message and "wA1 moved by the rules" in message and "bA1 would break" in message
    assert not t.referee.record.attempts and t.referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 0}
    assert uhps(t.referee) == list(OPENING)


LOOK_ALIKES = (*OPENING, "wA1 -wQ", "bA1 bQ-")  # wA1(-2,0) ... bA1(3,0); White to move


def _with_height(t, piece: str, height: int) -> tuple:
    """The camera's view of the table, reading the stack topped by ``piece`` ``height`` high."""
    p = Piece.parse(piece)
    return tuple(replace(s, height_hint=height) if (s.colour, s.bug) == (p.colour, p.bug) and s.height_hint > 1
                 else s for s in t.seen())


def test_a_move_onto_a_look_alike_the_camera_sees_no_taller_is_a_misread(table) -> None:
    """White's Ant missed where it lies and Black's Ant read as White's: to the camera, wA1 "climbed"
    onto bA1. With no taller stack seen there, that is a misread to check, not an illegal Ant move."""
    t = table(*LOOK_ALIKES)
    t.hand()
    t.force("wA1", (3, 0))
    events = t.still(30, tiles=_with_height(t, "wA1", 1))
    assert kinds(events) == ["misread"]
    message = of(events, "misread")[0].message
    assert "would put wA1 on bA1" in message and "no taller stack" in message and "colour misread" in message
    assert not t.referee.record.attempts and t.referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 0}


def test_a_move_onto_a_look_alike_seen_as_a_taller_stack_is_flagged(table) -> None:
    t = table(*LOOK_ALIKES)
    t.hand()
    t.force("wA1", (3, 0))
    events = t.still(30, tiles=_with_height(t, "wA1", 2))
    assert kinds(events) == ["illegal"]
    assert of(events, "illegal")[0].rule != Rule.NOT_YOUR_TURN.value and t.referee.warnings[Colour.WHITE] == 1


def test_a_tile_apart_from_the_first_tile_is_a_misread_and_one_a_cell_away_is_flagged(table) -> None:
    """A flower on a cloth taken for a tile, or a piece set down beside the game: with one tile
    played, a tile three or more cells from it is no move, whoever's it is; one with a single cell
    between is."""
    t = table("wG1")  # wG1 at (0, 0); Black to move
    t.hand()
    t.force("wA1", (3, 0))  # out of turn, touching nothing
    events = t.still(30)
    assert kinds(events) == ["misread"]
    assert "apart from the hive" in of(events, "misread")[0].message
    assert not t.referee.record.attempts and t.referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 0}
    t = table(*OPENING)
    t.hand()
    t.force("bA1", (4, 0))  # one empty cell from bQ
    events = t.still(30)
    assert kinds(events) == ["illegal"] and t.referee.warnings[Colour.BLACK] == 1


def test_tiles_apart_from_the_hive_are_looked_past(table) -> None:
    """Pieces not yet played lying beside the game, or the table's print taken for tiles, three or
    more cells from the hive, showing in some frames and shifting between cells: the moves made in
    the hive are recorded as if they were not there, and no one is asked."""
    t = table(*OPENING)  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0); White to move

    def with_print(frame: int) -> tuple:
        cells = [(7, -3), (7, -2)] if frame % 3 else [(8, -3)]  # the print jitters, or is half missed
        extra = [TileSighting(*t.transform.apply(c), Colour.WHITE, Bug.GRASSHOPPER, 0.8) for c in cells]
        return tuple(t.seen()) + tuple(extra)

    events = t.hand()
    t.play("wA1 wQ\\")
    for frame in range(10):
        events += t.frame(with_print(frame))
    t.hand()
    t.play("bA1 bQ-")
    for frame in range(10):
        events += t.frame(with_print(frame))
    assert kinds(events) == ["move", "move"]
    assert uhps(t.referee) == table_uhps(t)
def _in_sight(t) -> tuple:
    """The camera's view of the table with every game cell left of q = 0 out of sight."""
    return tuple(s for s in t.seen() if t.transform.inverse().apply((s.q, s.r))[0] >= 0)


def test_a_move_out_of_turn_with_part_of_the_hive_out_of_sight_is_a_misread(table) -> None:
    """White plays where the camera cannot see, then Black where it can: to the camera, Black moved
    out of turn; it asks instead of ruling."""
    t = table(*OPENING, "wA1 -wQ", "bA1 bQ-", "wS1 \\wG1", "bS1 \\bQ", "wS2 wS1/", "bS2 bQ\\")  # White to move
    t.hand()
    t.play("wA1 -wS1")
    assert kinds(t.still(30, tiles=_in_sight(t))) == ["misread"]  # wQ and wA1 went out of sight
    t.referee.correct("wA1 -wS1")  # a person says what was played: the view stands as it is
    t.hand()
    t.play("bA1 bS2-")
    assert [e.uhp for e in of(t.still(tiles=_in_sight(t)), "move")] == ["bA1 bS2-"]
    t.hand()
    t.play("wA1 -wQ", "bA1 bS2\\")  # White's move out of sight, Black's in it
    events = t.still(30, tiles=_in_sight(t))
    assert kinds(events) == ["misread"]
    message = of(events, "misread")[0].message
    assert "bA1 on White's turn" in message and "out of the camera's sight" in message
    assert not t.referee.record.attempts and t.referee.warnings[Colour.BLACK] == 0


def _read_as(t, cell: tuple[int, int], bug: Bug) -> tuple:
    """The camera's view of the table, the top on game ``cell`` read surely as ``bug``."""
    at = t.transform.apply(cell)
    return tuple(replace(s, bug=bug) if (s.q, s.r) == at else s for s in t.seen())


def test_two_moves_that_fit_only_with_a_misread_are_a_question(table) -> None:
    """The camera fell behind by two moves, and the second fits only if the Ant that moved was
    misread as a Grasshopper: as likely a misread with other moves, so it is asked about."""
    t = table(*LOOK_ALIKES)
    t.hand()
    t.play("wS1 -wA1", "bA1 bQ\\")  # bA1 to (2, 1)
    events = t.still(tiles=_read_as(t, (2, 1), Bug.GRASSHOPPER))
    assert kinds(events) == ["needs_confirmation"]
    asked = of(events, "needs_confirmation")[0]
    assert asked.candidates == ("wS1 -wA1; bA1 bQ\\",) and "only if a tile was misread" in asked.reason
    assert uhps(t.referee) == list(LOOK_ALIKES)


def test_a_view_between_does_not_vouch_for_moves_that_fit_only_with_a_misread(table) -> None:
    """As above, with a still view between that showed the Spider placed (and a tile where there
    is none): the misread the last view needs may have been in that view too, so it is still asked."""
    t = table(*LOOK_ALIKES)
    t.hand()
    t.play("wS1 -wA1")
    phantom = replace(t.seen()[0], q=t.transform.apply((0, -1))[0], r=t.transform.apply((0, -1))[1],
                      colour=Colour.WHITE, bug=Bug.BEETLE)
    assert kinds(t.still(tiles=(*t.seen(), phantom))) == []  # explains nothing
    t.hand()
    t.play("bA1 bQ\\")
    events = t.still(tiles=_read_as(t, (2, 1), Bug.GRASSHOPPER))
    asked = of(events, "needs_confirmation")
    assert len(asked) == 1 and "only if a tile was misread" in asked[0].reason
    assert uhps(t.referee) == list(LOOK_ALIKES)


def test_one_move_that_fits_only_with_a_misread_is_recorded(table) -> None:
    t = table(*LOOK_ALIKES, "wS1 -wA1")
    t.hand()
    t.play("bA1 bQ\\")
    assert [e.uhp for e in of(t.still(tiles=_read_as(t, (2, 1), Bug.GRASSHOPPER)), "move")] == ["bA1 bQ\\"]
