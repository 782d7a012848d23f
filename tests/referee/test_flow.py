"""Doubt, a person's decisions, deadlines, the end of the game, resuming, and what the page reads."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from table_sim import Table, kinds, of, record_of, uhps

from rules import Bug, Colour, Piece, RuleOptions
from rules.explain import Rule
from rules.observation import Observation, TileSighting
from rules.pgn import format_pgn
from rules.record import IllegalAttempt
from rules.referee import NOTHING, Referee, RefereeConfig
from rules.referee.registration import Transform

OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0)
FORCED = ("wG1", "bB1 wG1-", "wQ -wG1", "bQ bB1/", "wQ /wG1", "bQ \\bB1", "wQ -wG1", "bB1 wG1",
          "wQ /bB1")


def unsure(t: Table, cell: tuple[int, int], bug: Bug | None = None) -> tuple:
    """The view with the tile on game ``cell`` read at low confidence (as ``bug`` if given)."""
    where = t.transform.apply(cell)
    return tuple(replace(s, bug=bug or s.bug, confidence=0.4) if s.cell == where else s for s in t.seen())


def test_unsure_read_of_a_new_piece_asks_a_person(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    assert kinds(t.still(tiles=unsure(t, (-2, 0)))) == []  # looked at again first: the read may firm up
    events = t.still(10, tiles=unsure(t, (-2, 0)))  # unsure_wait_seconds (1) after the view settled
    assert kinds(events) == ["needs_confirmation"]
    question = of(events, "needs_confirmation")[0]
    assert question.candidates[0] == "wA1 -wQ"  # the read itself comes first
    assert set(question.candidates) == {f"{p} -wQ" for p in ("wA1", "wB1", "wG2", "wS1", "wM", "wL", "wP")}
    assert "confidence" in question.reason
    assert t.referee.pending().candidates == question.candidates
    with pytest.raises(ValueError, match="not one of the candidates"):
        t.referee.confirm("wA2 -wQ")
    events = t.referee.confirm("wS1  -wQ")  # a person knows better than the camera
    move = of(events, "move")[0]
    assert (move.uhp, move.confirmed, move.mark) == ("wS1 -wQ", True, None)
    assert t.referee.record.moves[-1].comment == "confirmed by hand"
    assert kinds(t.still(tiles=unsure(t, (-2, 0)))) == []


def test_an_unsure_read_whose_guess_wavers_from_frame_to_frame_still_asks(table) -> None:
    """The camera guesses the unsure new tile as another creature in every frame: the board is
    still, so the view settles all the same, and a person is asked which piece it is."""
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    guesses = [Bug.ANT, Bug.SPIDER, Bug.BEETLE, Bug.GRASSHOPPER] * 4
    events = [e for bug in guesses for e in t.frame(unsure(t, (-2, 0), bug))]
    assert kinds(events) == ["needs_confirmation"]
    assert "wA1 -wQ" in of(events, "needs_confirmation")[0].candidates


def test_an_unsure_read_that_firms_up_just_before_the_second_look_needs_no_person(table) -> None:
    """The new tile is read surely from 0.8 s on; its sure view settles only at 1.1 s, after the
    second look was due: the look waits for it rather than ask about the unsure frames before."""
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    events = t.still(8, tiles=unsure(t, (-2, 0))) + t.still(10)
    assert kinds(events) == ["move"] and uhps(t.referee)[-1] == "wA1 -wQ"


def test_an_unsure_read_that_firms_up_while_the_board_is_still_needs_no_person(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.play("wA1 -wQ")
    assert kinds(t.still(tiles=unsure(t, (-2, 0)))) == []
    events = t.still(10)  # the same read, now sure
    assert kinds(events) == ["move"] and uhps(t.referee)[-1] == "wA1 -wQ"


def held_back_past_a_change(t: Table) -> None:
    """White places an Ant West of the Queen, read unsure; Black reaches in before it firms up."""
    t.hand()
    t.play("wA1 -wQ")
    assert kinds(t.still(tiles=unsure(t, (-2, 0)))) == []  # a white piece West of the Queen, but which?
    assert kinds(t.hand(1)) == []  # no question yet: the next view may show it better


def test_an_unsure_read_held_back_past_the_next_move_is_judged_with_it(table) -> None:
    t = table(*OPENING)
    held_back_past_a_change(t)
    t.play("bA1 bQ-")
    events = t.still(10)  # the Ant placed first is now read surely, beside Black's new Ant
    assert kinds(events) == ["move", "move"]
    assert uhps(t.referee)[-2:] == ["wA1 -wQ", "bA1 bQ-"]


def test_a_piece_placed_unsure_that_moved_on_before_the_next_view_is_known_by_its_move(table) -> None:
    t = table(*OPENING)
    held_back_past_a_change(t)
    t.play("bA1 bQ-", "wA1 bA1-")  # only an Ant could go from there to the far end
    events = t.still(10)
    assert kinds(events) == ["move", "move", "move"]
    assert uhps(t.referee)[-3:] == ["wA1 -wQ", "bA1 bQ-", "wA1 bA1-"]


def test_a_second_look_sure_of_another_creature_is_put_to_a_person(table) -> None:
    t = table(*OPENING)
    held_back_past_a_change(t)
    t.play("bA1 bQ-")
    where = t.transform.apply((-2, 0))
    misread = tuple(replace(s, bug=Bug.GRASSHOPPER) if s.cell == where else s for s in t.seen())
    events = t.still(tiles=misread)  # now surely a Grasshopper: which look was right?
    assert kinds(events) == ["needs_confirmation"]
    question = of(events, "needs_confirmation")[0]
    assert question.candidates[0] == "wA1 -wQ" and "two looks" in question.reason  # the question held back
    events = t.referee.confirm("wA1 -wQ") + t.still(tiles=misread)
    assert kinds(events) == ["move", "move"]  # the move made since is judged at once
    assert uhps(t.referee)[-2:] == ["wA1 -wQ", "bA1 bQ-"]


def test_an_unsure_read_held_back_twice_is_asked_about_at_the_next_change(table) -> None:
    t = table(*OPENING)
    held_back_past_a_change(t)
    t.play("bA1 bQ-")
    assert kinds(t.still(tiles=unsure(t, (-2, 0)))) == []  # still unsure, with Black's move beside it
    assert kinds(t.hand()) == []  # held back once: wait for one more still view
    t.play("wB1 -wA1")
    assert kinds(t.still(tiles=unsure(t, (-2, 0)))) == []
    events = t.hand(1)  # held back twice already: ask now, about the three moves
    assert kinds(events) == ["needs_confirmation"]
    assert of(events, "needs_confirmation")[0].candidates[0] == "wA1 -wQ; bA1 bQ-; wB1 -wA1"
    assert len(t.referee.record.moves) == 4


def test_the_legal_moves_settle_an_unsure_read(table) -> None:
    t = table(*OPENING, "wA1 -wQ", "bA1 bQ-")
    t.hand()
    t.play("wA1 bA1-")  # only wA1 can reach the cell east of bA1
    events = t.still(tiles=unsure(t, (4, 0), Bug.GRASSHOPPER))
    assert [e.uhp for e in of(events, "move")] == ["wA1 bA1-"]
    assert kinds(events) == ["move"]


def test_bump_and_move_at_once_with_one_piece_down_keeps_the_frame(table) -> None:
    """A lone piece turned on the spot looks the same: the turn of the bump cannot be
    seen, and does not matter (the game is the same turned), so the referee keeps its
    frame rather than ask which of six equivalent directions the piece went."""
    t = table("wS1")
    t.bump(Transform(1, False, (3, 3)))
    assert kinds(t.turn("bS1 wS1-")) == ["move"]
    assert kinds(t.turn("wQ -wS1")) == ["move"]
    assert uhps(t.referee) == ["wS1", "bS1 wS1\\", "wQ \\wS1"]  # the game turned by a sixth


def test_confirm_without_a_question_is_an_error(table) -> None:
    with pytest.raises(ValueError, match="nothing to confirm"):
        table(*OPENING).referee.confirm("wA1 -wQ")


def test_undo_waits_for_the_board_to_be_put_back(table) -> None:
    t = table(*OPENING)
    t.turn("wA1 -wQ")
    events = t.referee.undo()
    assert [(e.kind, e.undone, e.ply) for e in events] == [("undo", ("wA1 -wQ",), 4)]
    assert t.referee.pending().kind == "restore"
    assert kinds(t.still()) == []  # the Ant is still there: not recorded again
    t.hand()
    t.take_back()
    assert kinds(t.still()) == ["takeback"]
    assert [e.uhp for e in of(t.turn("wA1 /wQ"), "move")] == ["wA1 /wQ"]


def test_undo_takes_a_forced_pass_back_with_the_move_before_it(table) -> None:
    t = table(*FORCED, game_type="Base")
    t.turn("bB1 wQ")
    assert uhps(t.referee)[-2:] == ["bB1 wQ", "pass"]
    events = t.referee.undo()
    assert events[0].undone == ("bB1 wQ", "pass")
    assert uhps(t.referee) == list(FORCED)


def test_undo_with_nothing_to_undo(table) -> None:
    with pytest.raises(ValueError, match="no move"):
        table().referee.undo()


def test_resign_and_undo_the_resignation(table) -> None:
    t = table(*OPENING)
    events = t.referee.resign("w")
    assert [(e.kind, e.state, e.winner, e.reason) for e in events] == [
        ("game_over", "BlackWins", "b", "resignation")]
    assert t.referee.record.result.value == "BlackWins"
    assert kinds(t.turn("wA1 -wQ")) == []  # the game is over
    with pytest.raises(ValueError, match="already over"):
        t.referee.agree_draw()
    assert t.referee.undo()[0].undone == ("resignation",)
    t.hand()
    t.take_back()
    t.still()
    assert kinds(t.turn("wA1 -wQ")) == ["move"]


def test_agreed_draw(table) -> None:
    events = table(*OPENING).referee.agree_draw()
    assert [(e.state, e.winner, e.reason) for e in events] == [("Draw", None, "agreement")]


def test_threefold_repetition_draws_when_the_option_is_on(table) -> None:
    t = table("wA1", "bA1 wA1-", "wQ -wA1", "bQ bA1-", options=RuleOptions(repetition_draw=True))
    events = []
    for _ in range(2):
        for move in ("wQ /wA1", "bQ bA1\\", "wQ -wA1", "bQ bA1-"):
            events += t.turn(move)
    over = of(events, "game_over")
    assert [(e.state, e.reason) for e in over] == [("Draw", "threefold repetition")]
    assert kinds(events)[-2:] == ["move", "game_over"]


def test_queen_deadline_warnings(table) -> None:
    t = table("wG1", "bG1 wG1-", "wA1 -wG1")
    events = t.turn("bA1 bG1-")
    assert [(e.colour, e.when) for e in of(events, "queen_due")] == [("w", "next_turn")]
    events = t.turn("wS1 -wA1")
    assert [(e.colour, e.when) for e in of(events, "queen_due")] == [("b", "next_turn")]
    events = t.turn("bS1 bA1-")
    assert [(e.colour, e.when) for e in of(events, "queen_due")] == [("w", "now")]
    assert t.referee.board.queen_due() is True
    assert of(t.turn("wQ -wS1"), "queen_due")[0].colour == "b"


def test_resume_from_a_record_after_a_crash(table) -> None:
    record = record_of("Base+MLP", *OPENING)
    referee = Referee.resume(record, RefereeConfig(), warnings={Colour.BLACK: 2})
    t = Table(referee, Transform(3, False, (-6, 1)))  # and the hive was turned meanwhile
    assert kinds(t.still()) == []
    events = t.turn("wA1 -wQ")
    assert [(e.uhp, e.ply) for e in of(events, "move")] == [("wA1 -wQ", 5)]
    assert referee.record is record
    assert referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 2}


def test_a_resumed_game_is_not_ruled_on_before_the_camera_has_seen_its_recorded_position() -> None:
    record = record_of("Base+MLP", *OPENING)  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0)
    t = Table(Referee.resume(record, RefereeConfig(stable_seconds=0.3)))
    t.force("wA1", (2, -1))  # the first view shows a white Ant touching Black: an illegal placement, or a misread
    assert kinds(t.still()) == []
    events = t.still(frames=25)
    assert kinds(events) == ["misread"] and "not yet seen the recorded position" in of(events, "misread")[0].message
    assert t.referee.warnings[Colour.WHITE] == 0 and len(record.moves) == len(OPENING)
    t.hand()
    t.take_back()
    assert kinds(t.still()) == ["takeback"]  # the recorded position, seen at last: the question is settled
    t.hand()
    t.force("wA1", (2, -1))
    assert of(t.still(), "illegal")[0].rule == Rule.PLACE_TOUCHING_OPPONENT.value


def _with_phantom(t: Table, piece: str, cell: tuple[int, int]) -> tuple:
    """The table's sightings plus one of ``piece`` on ``cell`` that is not on the table (its print)."""
    t.force(piece, cell)
    seen = t.seen()
    t.take_back()
    return tuple(seen)


def test_a_move_no_hand_made_before_the_recorded_position_was_seen_is_asked_about() -> None:
    record = record_of("Base+MLP", *OPENING)  # White to move
    t = Table(Referee.resume(record, RefereeConfig(stable_seconds=0.3)))
    printed = _with_phantom(t, "wA1", (-2, 0))  # a mat's print read as a white Ant where one may be placed
    events = t.still(tiles=printed)
    assert kinds(events) == ["needs_confirmation"]
    assert of(events, "needs_confirmation")[0].candidates == ("wA1 -wQ", NOTHING)
    assert len(record.moves) == len(OPENING)
    assert kinds(t.referee.confirm(NOTHING)) == [] and len(record.moves) == len(OPENING)
    assert kinds(t.still(tiles=printed)) == []  # the print stays, as it was seen then
    print_only = [s for s in printed if s not in t.seen()]
    t.hand()
    t.play("wS1 /wQ")
    events = t.still(tiles=(*t.seen(), *print_only))
    assert [e.uhp for e in of(events, "move")] == ["wS1 /wQ"]


def test_a_tile_no_move_could_lay_before_the_recorded_position_was_seen_may_be_vouched_for() -> None:
    record = record_of("Base+MLP", *OPENING)
    config = RefereeConfig(stable_seconds=0.3, misread_after_seconds=0.5)
    t = Table(Referee.resume(record, config))
    printed = (*t.seen(), TileSighting(*t.transform.apply((0, 1)), Colour.WHITE, Bug.QUEEN, 0.99))  # a second Queen
    events = t.still(10, tiles=printed)
    assert kinds(events) == ["misread"] and NOTHING in t.referee.pending().candidates
    assert t.referee.confirm(NOTHING) == [] and t.referee.pending() is None
    assert kinds(t.still(10, tiles=printed)) == [] and len(record.moves) == len(OPENING)
    t.hand()
    t.play("wA1 -wQ")
    assert [e.uhp for e in of(t.still(tiles=(*t.seen(), printed[-1])), "move")] == ["wA1 -wQ"]


def test_a_move_made_while_hivecam_was_off_is_recorded_once_a_person_says_so() -> None:
    record = record_of("Base+MLP", *OPENING)
    t = Table(Referee.resume(record, RefereeConfig(stable_seconds=0.3)))
    t.play("wA1 -wQ")  # played while the camera was off: no hand is seen
    assert of(t.still(), "needs_confirmation")[0].candidates == ("wA1 -wQ", NOTHING)
    events = t.referee.confirm("wA1 -wQ")
    assert [(e.uhp, e.confirmed) for e in of(events, "move")] == [("wA1 -wQ", True)]


def test_a_move_a_hand_made_in_a_resumed_game_is_recorded_unasked() -> None:
    record = record_of("Base+MLP", *OPENING)
    t = Table(Referee.resume(record, RefereeConfig(stable_seconds=0.3)))
    assert [e.uhp for e in of(t.turn("wA1 -wQ"), "move")] == ["wA1 -wQ"]


def test_a_resumed_game_that_is_already_over_stays_over() -> None:
    record = record_of("Base", *OPENING)
    record.resign(Colour.BLACK)
    referee = Referee.resume(record)
    assert referee.record.outcome.termination.value == "resignation"
    with pytest.raises(ValueError):
        referee.resign(Colour.WHITE)


def test_the_accessors_have_what_the_page_shows(table) -> None:
    t = table(*OPENING)
    t.turn("wA1 -wQ")
    t.hand()
    t.force("bQ", (3, -1))  # bQ slides round the end of the line: fine; then ...
    t.take_back()
    t.force("bQ", (1, -1))  # ... two spaces: illegal
    t.still()
    referee = t.referee
    assert str(referee.record.game_type) == "Base+MLP" and referee.record.result.value == "InProgress"
    assert (referee.board.turn.value, referee.board.turn_number, referee.board.ply) == ("b", 3, 5)
    hands = {colour.value: [p.name for p in pieces] for colour, pieces in referee.hands().items()}
    assert "wA1" not in hands["w"] and "wA2" in hands["w"] and "bQ" not in hands["b"]
    stacks = referee.stacks()
    assert [p.name for p in stacks[(-2, 0)]] == ["wA1"] and [p.name for p in stacks[(2, 0)]] == ["bQ"]
    moves = [e for e in referee.entries() if not isinstance(e, IllegalAttempt)]
    assert moves[-1].uhp == "wA1 -wQ" and moves[-1].emt is not None
    pending = referee.pending()
    assert pending.kind == "illegal" and pending.event.player == "b"
    assert referee.warnings == {Colour.WHITE: 0, Colour.BLACK: 1}
    assert referee.view == "steady"
    assert referee.record.to_game_string().startswith("Base+MLP;InProgress;Black[3];wG1;")


def test_record_keeps_times_and_marks_in_pgn(table) -> None:
    t = table(*OPENING)
    t.hand()
    t.force("wQ", (1, -1))
    t.still()
    t.referee.override()
    t.turn("bA1 bQ-")
    pgn = format_pgn(t.referee.record)
    assert "override" in pgn.lower()
    times = [m.timestamp for m in t.referee.record.moves[-2:]]
    assert all(isinstance(x, float) for x in times) and times[0] < times[1]


def test_observations_must_not_go_back_in_time() -> None:
    referee = Referee()
    referee.observe(Observation((), False, 5.0))
    with pytest.raises(ValueError, match="go back"):
        referee.observe(Observation((), False, 4.0))


def test_two_tiles_on_one_cell_is_bad_input(table) -> None:
    t = table(*OPENING)
    tiles = tuple(t.seen())
    with pytest.raises(ValueError, match="two tiles"):
        t.still(tiles=tiles + (tiles[0],))


@pytest.mark.parametrize("bad", [dict(stable_seconds=-1), dict(illegal_move_limit=0),
                                 dict(min_confidence=1.5), dict(misread_after_seconds=-0.1)])
def test_config_rejects_nonsense(bad) -> None:
    with pytest.raises(ValueError):
        RefereeConfig(**bad)


def test_every_event_is_json(table) -> None:
    t = table(*FORCED, game_type="Base")
    events = t.turn("bB1 wQ")  # move, pass
    events += t.referee.undo()
    t.hand()
    t.force("bQ", (-2, 2))  # two spaces: illegal
    events += t.still()
    events += t.referee.correct("bB1 wQ")
    events += t.referee.resign(Colour.BLACK)
    for event in events:
        data = json.loads(json.dumps(event.to_dict()))
        assert data == event.to_dict()  # plain JSON types all the way down
        assert data["kind"] == event.kind and data["time"] == event.time
    assert {"move", "pass", "undo", "illegal", "game_over", "occluded", "unstable", "steady"} <= {
        e.kind for e in events}


def test_the_tops_of_a_recorded_view_are_named_for_the_camera_to_learn(table) -> None:
    t = table(*OPENING)

    def placed(tiles: tuple) -> tuple:  # where a camera saw each tile: 10 pixels a cell
        return tuple(replace(s, px=(10.0 * s.q, 10.0 * s.r)) for s in tiles)

    def expected() -> dict:
        return {(10.0 * q, 10.0 * r): stack[-1] for (q, r), stack in
                ((t.transform.apply(cell), stack) for cell, stack in t.board.stacks().items())}

    t.hand()
    t.play("wA1 -wQ")
    t.still(12, tiles=placed(unsure(t, (-2, 0), Bug.SPIDER)))
    assert t.referee.pending() is not None and t.referee.identified() == []  # nothing is named while in doubt
    t.referee.confirm("wA1 -wQ")
    named = dict(t.referee.identified())
    assert named == expected() and Piece.parse("wA1") in named.values()  # the record, not the misread
    t.hand()
    t.play("bA1 bQ-")
    t.still(tiles=placed(tuple(t.seen())))
    assert uhps(t.referee)[-1] == "bA1 bQ-" and dict(t.referee.identified()) == expected()
    t.hand()
    white_grasshopper = (Colour.WHITE, Bug.GRASSHOPPER)
    swapped = tuple(replace(s, colour=Colour.BLACK, bug=Bug.ANT) if (s.colour, s.bug) == white_grasshopper else s
                    for s in t.seen())
    t.still(12, tiles=placed(swapped))  # wG1 read surely as a black Ant: the same cells, but in doubt
    assert t.referee.pending() is not None and t.referee.identified() == []
    t.hand()
    t.still(tiles=placed(tuple(t.seen()[1:])))  # a tile missing from the view: it shows another position
    assert t.referee.identified() == []


def test_moves_after_a_held_back_read_keep_the_order_its_view_showed(table) -> None:
    """The view held back showed White's Ant placed; the next one shows Black's move and White's
    Spider besides. Placing the Spider first and the Ant last explains that view too, but not the
    one between: the record takes the order seen, unasked."""
    t = table(*OPENING)
    held_back_past_a_change(t)
    t.play("bA1 bQ-", "wS1 \\wQ")
    events = t.still(10)
    assert kinds(events) == ["move", "move", "move"]
    assert uhps(t.referee)[-3:] == ["wA1 -wQ", "bA1 bQ-", "wS1 \\wQ"]
