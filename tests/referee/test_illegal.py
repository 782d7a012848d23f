"""Illegal moves are flagged with the rule they break, not recorded, and play goes on."""

from __future__ import annotations

from dataclasses import replace

import pytest
from table_sim import kinds, of, table_uhps, uhps

from rules import Bug, Colour, Piece
from rules.explain import Rule
from rules.observation import TileSighting
from rules.record import Mark
from rules.rulebook import citation
from rules.referee import RefereeConfig
from rules.referee.registration import Transform

OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0)
THROW = ("wP", "bG1 wP-", "wQ -wP", "bQ bG1/", "wA1 -wQ", "bQ \\bG1")  # bQ just moved next to wP
# wA2 could reach the pocket at (-1,1) only between wQ and bQ
POCKET = ("wS1", "bG1 wS1\\", "wP -wS1", "bP bG1\\", "wA1 \\wP", "bA1 bP/", "wQ /wP", "bQ -bP", "wA2 -wQ",
          "bA1 bG1/")
NO_QUEEN = ("wG1", "bG1 wG1-", "wA1 -wG1", "bA1 bG1-", "wS1 -wA1", "bS1 bA1-")

CASES = [
    # (name, history, piece, destination, rule, who, a legal move to play afterwards)
    ("hive split", OPENING, "wG1", (3, 0), Rule.ONE_HIVE, "w", "wA1 -wQ"),
    ("gate", POCKET, "wA2", (-1, 1), Rule.FREEDOM_TO_MOVE, "w", "wA2 bQ\\"),
    ("placement touching the opponent", OPENING[:2], "wA1", (2, 0), Rule.PLACE_TOUCHING_OPPONENT, "w",
     "wA1 -wG1"),
    ("queen too late", NO_QUEEN, "wG2", (-3, 0), Rule.QUEEN_BY_FOURTH_TURN, "w", "wQ -wS1"),
    ("moving before the queen", NO_QUEEN[:4], "wA1", (0, -1), Rule.MOVE_BEFORE_QUEEN, "w", "wQ -wA1"),
    ("pillbug on the piece just moved", THROW, "bQ", (0, -1), Rule.PILLBUG_JUST_MOVED, "w", "bG1 wP\\"),
    ("wrong bug movement", OPENING, "wQ", (1, -1), Rule.BUG_MOVEMENT, "w", "wQ /wG1"),
    ("out of turn", OPENING, "bQ", (2, -1), Rule.NOT_YOUR_TURN, "b", "wQ /wG1"),
]


@pytest.mark.parametrize("name, history, piece, dest, rule, who, then", CASES, ids=[c[0] for c in CASES])
def test_illegal_move_is_flagged_then_taken_back(table, name, history, piece, dest, rule, who, then) -> None:
    t = table(*history)
    t.hand()
    attempted = t.force(piece, dest)
    events = t.still()
    assert kinds(events) == ["illegal"]
    illegal = of(events, "illegal")[0]
    assert illegal.rule == rule.value
    assert illegal.player == who and illegal.warnings == 1 and illegal.action == "take it back"
    assert piece in illegal.attempted and str(dest) in illegal.attempted
    assert illegal.uhp is not None and illegal.uhp.startswith(piece)
    assert illegal.message
    assert illegal.book == citation(rule, Piece.parse(piece).bug).summary and "rulebook" in illegal.reference
    assert len(t.referee.record.moves) == len(history)  # not recorded
    assert t.referee.pending().event.rule == rule.value
    assert t.referee.warnings[Colour(who)] == 1
    assert kinds(t.still()) == []  # still there: said once
    t.hand()
    t.take_back()
    events = t.still()
    assert kinds(events) == ["takeback"]
    assert t.referee.pending() is None
    assert attempted.piece is not None
    assert [e.uhp for e in of(t.turn(then), "move")] == [then]
    assert uhps(t.referee) == list(history) + [then]


def test_illegal_move_replaced_by_a_legal_one_without_a_pause(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.force("wQ", (1, -1))
    t.still()
    t.hand()
    t.take_back()
    events = t.turn("wQ /wG1")
    assert kinds(events) == ["move"]
    assert t.referee.pending() is None


def test_fast_legal_move_then_illegal_reply_is_asked_about_and_the_legal_move_kept(table) -> None:
    """Two changes in one view may be one move and a misread tile: the referee asks (see
    ``doubt``) rather than flag Black; once the reply is taken back, White's move is recorded."""
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    t.force("bA1", (-3, 0))  # Black places next to a white piece
    assert kinds(t.still(30)) == ["misread"]
    assert not t.referee.record.attempts
    t.take_back()
    events = t.still()
    assert [e.uhp for e in of(events, "move")] == ["wA1 -wQ"] and "illegal" not in kinds(events)


def test_a_clear_read_against_every_legal_move_is_illegal_not_a_misread(table) -> None:
    t = table()
    t.hand()
    t.force("wQ", (0, 0))
    events = t.still()
    assert kinds(events) == ["illegal"]
    assert of(events, "illegal")[0].rule == Rule.QUEEN_NOT_ON_FIRST_TURN.value


def test_illegal_move_limit_loses_the_game(table) -> None:
    t = table(*OPENING, config=RefereeConfig(illegal_move_limit=3))
    events = []
    for dest in [(1, -1), (2, -1), (1, 1)]:
        t.hand()
        t.force("wQ", dest)
        events += t.still()
        t.take_back()
    assert [e.warnings for e in of(events, "illegal")] == [1, 2, 3]
    over = of(events, "game_over")
    assert len(over) == 1
    assert (over[0].state, over[0].winner, over[0].reason) == ("BlackWins", "b", "illegal-move limit")
    assert t.referee.record.result.value == "BlackWins"
    assert kinds(t.turn()) == []  # nothing more is judged


def test_override_records_the_illegal_move_marked(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.force("wQ", (1, -1))
    t.still()
    events = t.referee.override()
    move = of(events, "move")[0]
    assert (move.uhp, move.mark) == (table_uhps(t)[-1], "override")
    assert t.referee.board.position_of(Piece.parse("wQ")) == (1, -1)
    assert t.referee.record.moves[-1].mark.value == "override"
    record = t.referee.record
    assert record.moves[-1].mark is Mark.OVERRIDE
    # UHP cannot hold the override: the page's GameString stops before it and says why
    assert record.to_game_string().count(";") == 2 + len(record.moves) - 1
    assert f"move {len(record.moves)} ({move.uhp})" in record.game_string_note()
    assert kinds(t.still()) == []  # the board shows what was recorded
    assert [e.uhp for e in of(t.turn("bA1 bQ-"), "move")] == ["bA1 bQ-"]


def misread_ant(t, cell: tuple[int, int]) -> tuple[TileSighting, ...]:
    """What the camera sees with the white Ant on game ``cell`` read, surely, as a Queen."""
    where = t.transform.apply(cell)
    return tuple(replace(s, bug=Bug.QUEEN, confidence=0.95) if s.cell == where else s for s in t.seen())


def test_correction_of_a_misread_and_the_misread_piece_afterwards(table) -> None:
    t = table(*OPENING, config=RefereeConfig(misread_after_seconds=1.0))
    t.hand()
    t.play("wA1 -wQ")
    still_from = t.time + 0.1
    events = t.still(8, tiles=misread_ant(t, (-2, 0)))  # a second white Queen?
    assert kinds(events) == []  # flicker, or a view still changing: not reported yet
    events = t.still(5, tiles=misread_ant(t, (-2, 0)))
    assert kinds(events) == ["misread"]
    assert of(events, "misread")[0].time == pytest.approx(still_from + 1.0)
    events = t.referee.correct("wA1 -wQ")
    move = of(events, "move")[0]
    assert (move.uhp, move.mark) == ("wA1 -wQ", "correction")
    assert kinds(t.still(tiles=misread_ant(t, (-2, 0)))) == []
    # the Ant is still misread as a Queen, yet Black's next move is followed
    t.hand()
    t.play("bA1 bQ-")
    assert [e.uhp for e in of(t.still(tiles=misread_ant(t, (-2, 0))), "move")] == ["bA1 bQ-"]


BEHIND = ("wA1 -wQ", "bA1 bQ-", "wS1 -wA1", "bS1 bA1-")  # four moves the camera never saw still


def fall_behind(t) -> list:
    """The four ``BEHIND`` moves made under a hand, then the board still until it is reported."""
    t.hand()
    t.play(*BEHIND)
    return t.still(15)


def test_a_correction_lets_the_referee_catch_up_when_it_fell_behind(table) -> None:
    t = table(*OPENING, config=RefereeConfig(misread_after_seconds=1.0))
    assert kinds(fall_behind(t)) == ["misread"]  # more changes than three moves make
    events = t.referee.correct("wA1 -wQ")  # a person names the first; the rest follow from the view
    asked = of(events, "needs_confirmation")
    assert [e.uhp for e in of(events, "move")] == ["wA1 -wQ"] and len(asked) == 1
    assert asked[0].reason == "the view shows more moves than were corrected"
    assert len(asked[0].candidates) == 1  # each later piece touches only the one before: one order
    t.referee.confirm(asked[0].candidates[0])
    assert uhps(t.referee) == table_uhps(t)
    assert kinds(t.still()) == []
    assert [e.uhp for e in of(t.turn("wB1 -wS1"), "move")] == ["wB1 -wS1"]


def test_several_moves_can_be_corrected_at_once(table) -> None:
    t = table(*OPENING, config=RefereeConfig(misread_after_seconds=1.0))
    fall_behind(t)
    events = t.referee.correct(" ; ".join(BEHIND))
    assert [e.mark for e in of(events, "move")] == ["correction"] * 4
    assert uhps(t.referee) == table_uhps(t) and kinds(t.still()) == []


def test_a_correction_names_the_move_that_is_not_legal(table) -> None:
    t = table(*OPENING)
    with pytest.raises(ValueError, match="'wQ wG1/' is not legal after wA1 -wQ; bA1 bQ-"):
        t.referee.correct("wA1 -wQ; bA1 bQ-; wQ wG1/")
    with pytest.raises(ValueError, match="no move given"):
        t.referee.correct(" ; ")
    assert uhps(t.referee) == list(OPENING)  # nothing recorded


def test_correction_must_be_legal(table) -> None:
    t = table(*OPENING)
    with pytest.raises(ValueError, match="not legal"):
        t.referee.correct("wQ wG1/")
    with pytest.raises(ValueError):
        t.referee.correct("nonsense here now")


def test_override_needs_a_pending_illegal_move(table) -> None:
    t = table(*OPENING)
    with pytest.raises(ValueError, match="no illegal move"):
        t.referee.override()


def test_a_piece_nobody_has_left_is_a_misread(table) -> None:
    t = table(*OPENING, game_type="Base", config=RefereeConfig(misread_after_seconds=0.5))
    t.hand()
    q, r = t.transform.apply((-2, 0))
    events = t.still(10, tiles=tuple(t.seen()) + (TileSighting(q, r, Colour.WHITE, Bug.PILLBUG, 0.9),))
    assert kinds(events) == ["misread"]
    assert "Pillbug" in of(events, "misread")[0].message


def test_illegal_move_seen_after_a_bump(table) -> None:
    t = table(*OPENING)
    t.bump(Transform(4, False, (-5, 2)))
    t.hand()
    t.force("wQ", (1, -1))
    events = t.still()
    assert [e.rule for e in of(events, "illegal")] == [Rule.BUG_MOVEMENT.value]


MID = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-", "wA1 -wQ", "bA1 bQ-", "wS1 /wQ", "bS1 bQ/")  # 8 pieces


def read_as(t, cell: tuple[int, int], bug: Bug) -> tuple[TileSighting, ...]:
    """The view of the table with the piece on game ``cell`` read, surely, as ``bug``."""
    where = t.transform.apply(cell)
    return tuple(replace(s, bug=bug, confidence=0.95) if s.cell == where else s for s in t.seen())


def test_a_piece_that_stayed_misread_as_another_creature_does_not_stop_play(table) -> None:
    t = table(*MID, config=RefereeConfig(misread_after_seconds=1.0))
    t.hand()
    t.play("wA1 bA1\\")  # the Ant runs round the hive ...
    events = t.still(tiles=read_as(t, (0, 0), Bug.SPIDER))  # ... as the Grasshopper it passed turns Spider
    assert kinds(events) == ["move"] and uhps(t.referee)[-1] == "wA1 bA1\\"
    t.hand()
    t.play("bS1 \\wG1")
    assert [e.uhp for e in of(t.still(tiles=read_as(t, (0, 0), Bug.SPIDER)), "move")] == ["bS1 \\wG1"]


def test_a_moved_piece_read_as_another_creature_is_known_by_where_it_came_from(table) -> None:
    t = table(*MID)
    t.hand()
    t.play("wA1 bA1\\")
    dest = t.board.position_of(Piece.parse("wA1"))
    events = t.still(tiles=read_as(t, dest, Bug.MOSQUITO))
    assert kinds(events) == ["move"] and uhps(t.referee)[-1] == "wA1 bA1\\"


def test_a_moved_piece_read_in_the_other_colour_is_known_by_where_it_came_from(table) -> None:
    """Glare can wash a black face white: the origin still says which piece moved."""
    t = table(*MID)
    t.hand()
    t.play("wA1 bA1\\")
    where = t.transform.apply(t.board.position_of(Piece.parse("wA1")))
    tiles = tuple(replace(s, colour=Colour.BLACK, confidence=0.95) if s.cell == where else s for s in t.seen())
    events = t.still(tiles=tiles)
    assert kinds(events) == ["move"] and uhps(t.referee)[-1] == "wA1 bA1\\"


def test_a_piece_seen_changing_colour_is_not_explained_away(table) -> None:
    t = table(*MID, config=RefereeConfig(misread_after_seconds=0.5))
    t.hand()
    t.play("wA1 bA1\\")
    where = t.transform.apply((0, 0))
    tiles = tuple(replace(s, colour=Colour.BLACK, confidence=0.95) if s.cell == where else s for s in t.seen())
    events = kinds(t.still(10, tiles=tiles))
    assert events[-1] in ("illegal", "misread")  # a black piece there needs a person, not a guess


def test_two_misread_pieces_at_once_are_reported_not_guessed(table) -> None:
    t = table(*MID, config=RefereeConfig(misread_after_seconds=0.5))
    t.hand()
    t.play("wA1 bA1\\")
    tiles = read_as(t, (0, 0), Bug.SPIDER)
    where = t.transform.apply((2, 0))
    tiles = tuple(replace(s, bug=Bug.BEETLE, confidence=0.95) if s.cell == where else s for s in tiles)
    assert kinds(t.still(10, tiles=tiles)) == ["misread"]


def test_a_queen_placed_late_read_as_what_it_is_stays_illegal(table) -> None:
    """The fourth white piece must be the Queen; a Spider placed there is illegal even
    though placing the Queen on that cell, read as a Spider, would be legal."""
    t = table("wG1", "bG1 wG1-", "wA1 -wG1", "bA1 bG1-", "wS1 /wG1", "bS1 bG1/")
    t.hand()
    t.force("wS2", (-2, 0))
    events = t.still()
    assert kinds(events) == ["illegal"]
    assert of(events, "illegal")[0].rule == Rule.QUEEN_BY_FOURTH_TURN.value


@pytest.mark.parametrize("name, history, piece, dest, rule, who, then", CASES[:-1], ids=[c[0] for c in CASES[:-1]])
def test_a_wrong_height_hint_elsewhere_does_not_change_the_rule(table, name, history, piece, dest, rule, who,
                                                                then) -> None:
    """A lone tile read as a stack (heights are only hints) must not turn the illegal move
    into some other story, such as a legal move first and then a move out of turn."""
    t = table(*history)
    t.hand()
    t.force(piece, dest)
    mover = t.transform.apply(dest)
    tiles = t.seen()
    other = next(i for i, s in enumerate(tiles) if s.cell != mover and s.height_hint == 1)
    tiles[other] = replace(tiles[other], height_hint=2)
    events = t.still(tiles=tuple(tiles))
    assert [e.rule for e in of(events, "illegal")] == [rule.value]
    assert len(t.referee.record.moves) == len(history)
