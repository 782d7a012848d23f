"""No dead ends: when the view does not match the game, the referee shows what the camera reads,
where it differs, and the ways out (restore, confirm a candidate, start from the table)."""

from __future__ import annotations

from dataclasses import replace

from table_sim import Table, kinds, of, uhps

from rules import Board, Bug, Colour, Piece
from rules.hexgrid import neighbours
from rules.observation import TileSighting
from rules.pgn import parse_pgn
from rules.referee import Referee, RefereeConfig
from rules.referee.registration import Transform

OPENING = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0)
# then wA1(-2,0) bA1(3,0) wS1(-3,0) bS1(4,0) wB1(-2,1): White 5 pieces, Black 4, Black to move
MIDGAME = OPENING + ("wA1 -wQ", "bA1 bQ-", "wS1 -wA1", "bS1 bA1-", "wB1 /wQ")
QUICK = RefereeConfig(misread_after_seconds=0.5)


def table_showing(*moves: str, transform: Transform = Transform()) -> Table:
    """A fresh referee (empty board) over a table on which ``moves`` were played."""
    table = Table(Referee("Base+MLP", config=QUICK), transform)
    for move in moves:
        table.board.push_uhp(move)
    return table


def test_pieces_already_on_the_table_at_a_new_game_are_a_check_with_ways_out() -> None:
    t = table_showing(*MIDGAME)
    assert kinds(t.still(12)) == ["misread"]
    pending = t.referee.pending()
    assert pending is not None and pending.kind == "check"
    assert "9 pieces appeared" in pending.message and "start a new game from the position" in pending.what_to_do
    assert pending.ways_out == ("restore", "start_from_table")
    assert len(pending.reading) == 9 and len(pending.differences) == 9
    assert all(d.expected == () and d.seen is not None for d in pending.differences)
    assert sorted((s.top.colour.value + s.top.creature.value) for s in pending.reading) == \
        sorted(p.colour.value + p.bug.value for s in t.board.stacks().values() for p in s)
    assert {s.top.name for s in pending.reading if s.top.creature is Bug.QUEEN} == {"wQ", "bQ"}
    assert {s.top.name for s in pending.reading if s.top.creature is Bug.ANT} == {None}  # which Ant: unknown
    t.board = Board("Base+MLP")  # the way back: clear the table
    assert kinds(t.still()) == ["takeback"] and t.referee.pending() is None


def test_start_from_the_table_then_referee_on() -> None:
    t = table_showing(*MIDGAME, transform=Transform(0, False, (3, 1)))  # shifted: MoveStrings as on the table
    t.still(12)
    position = t.referee.table_position()
    asked = [q.kind for q in position.questions]
    assert asked == ["to_move"] and position.questions[0].default == "b"  # White has one piece more
    setup = position.answered("b")
    referee = Referee.from_position("Base+MLP", None, setup.stacks, setup.to_move, QUICK, White="Ann")
    assert referee.board.turn is Colour.BLACK and referee.record.setup == setup
    assert referee.record.tags["White"] == "Ann"
    t.referee = referee
    assert kinds(t.still()) == []  # the view shows the position: nothing to say
    assert [e.uhp for e in of(t.turn("bA2 bS1/"), "move")] == ["bA2 bS1/"]
    entry = referee.entries()[0]
    assert (entry.ply, entry.turn, entry.colour) == (1, 5, Colour.BLACK)  # Black's 5th turn
    # the GameString reaches the position, then plays Black's move: 11 pieces, White to move
    replayed = Board.from_game_string(referee.record.to_game_string())
    assert replayed.turn is Colour.WHITE and sum(len(s) for s in replayed.stacks().values()) == 10


def test_numbers_are_asked_where_two_pieces_of_a_kind_are_down() -> None:
    t = table_showing(*MIDGAME, "bA2 bS1/", "wA2 -wS1")
    t.still(12)
    asked = [q for q in t.referee.table_position().questions if q.kind == "numbers"]
    assert sorted(q.choices for q in asked) == [("bA1", "bA2", "bA3"), ("wA1", "wA2", "wA3")]
    assert all(len(q.cells) == 2 for q in asked)


def test_a_stack_is_asked_what_lies_under_it() -> None:
    t = table_showing(*MIDGAME, "bA2 bS1/", "wB1 wQ")
    t.still(12)
    position = t.referee.table_position()
    under = [q for q in position.questions if q.kind == "under"]
    assert len(under) == 1 and "2 high" in under[0].text
    cell = under[0].cells[0]
    setup = position.answered("b", under={cell: ["wQ"]})
    assert [p.name for p in setup.stacks[cell]] == ["wQ", "wB1"]


def test_answers_that_make_no_position_are_refused() -> None:
    t = table_showing(*MIDGAME, "bA2 bS1/", "wA2 -wS1")
    t.still(12)
    position = t.referee.table_position()
    ants = [q for q in position.questions if q.kind == "numbers"][0]
    cells, names = ants.cells, ants.choices
    for bad, message in [({cells[0]: "wQ"}, "not wQ"), ({cells[0]: names[1], cells[1]: names[1]}, "twice"),
                         ({(40, 40): "wA1"}, "no piece at")]:
        try:
            position.answered("w", bad)
        except ValueError as exc:
            assert message in str(exc)
        else:
            raise AssertionError(f"{bad} accepted")


def test_a_view_no_move_explains_offers_the_nearest_move_to_confirm(table) -> None:
    t = table(*OPENING, config=QUICK)
    t.hand()
    t.play("wA1 -wQ")
    queen, grasshopper = t.transform.apply((-1, 0)), t.transform.apply((0, 0))
    # the Queen and the Grasshopper beside the new Ant are both read, surely, as Beetles
    shown = tuple(replace(s, bug=Bug.BEETLE) if s.cell in (queen, grasshopper) else s for s in t.seen())
    assert kinds(t.still(12, tiles=shown)) == ["misread"]
    pending = t.referee.pending()
    assert pending is not None and pending.ways_out == ("restore", "confirm", "start_from_table")
    assert pending.candidates == ("wA1 -wQ",)
    assert [(d.cell, d.expected) for d in pending.differences] == [
        ((-2, 0), ()), ((-1, 0), (Piece.parse("wQ"),)), ((0, 0), (Piece.parse("wG1"),))]
    events = t.referee.confirm("wA1 -wQ")
    assert [(e.uhp, e.mark) for e in of(events, "move")] == [("wA1 -wQ", "correction")]
    assert t.referee.pending() is None and kinds(t.still(tiles=shown)) == []


def test_replace_last_corrects_the_recorded_move(table) -> None:
    t = table(*OPENING)
    t.turn("wA1 -wQ")
    at = t.referee.record.moves[-1].timestamp
    t.take_back()
    t.play("wS1 -wQ")  # what was really played (the camera misread it, say)
    events = t.referee.replace_last("wS1 -wQ")
    assert [e.kind for e in events] == ["undo", "move"] and events[0].undone == ("wA1 -wQ",)
    assert uhps(t.referee)[-1] == "wS1 -wQ" and t.referee.record.moves[-1].timestamp == at
    assert t.referee.record.moves[-1].mark.value == "correction"
    assert kinds(t.still()) == []


def test_replace_last_refuses_an_illegal_move_and_keeps_the_game(table) -> None:
    t = table(*OPENING)
    try:
        t.referee.replace_last("bQ -wQ")
    except ValueError as exc:
        assert "'bQ -wQ' is not legal here" in str(exc)
    assert uhps(t.referee) == list(OPENING)


def test_accessors_show_the_game_as_values(table) -> None:
    t = table(*OPENING)
    t.turn("wA1 -wQ")
    ref = t.referee
    assert ref.stacks()[(-2, 0)] == (Piece.parse("wA1"),) and len(ref.stacks()) == 5
    assert Piece.parse("wA1") not in ref.hands()[Colour.WHITE] and Piece.parse("wA2") in ref.hands()[Colour.WHITE]
    assert [e.uhp for e in ref.entries()] == [*OPENING, "wA1 -wQ"]
    assert [(e.turn, e.colour.value) for e in ref.entries()][-2:] == [(2, "b"), (3, "w")]
    assert ref.board.surrounded_queens() == ()
    clocks = ref.clock_state(t.time + 5)
    assert clocks.running is Colour.BLACK and clocks.left is None


def test_the_surrounded_queen_is_named() -> None:
    from tests.rules.test_pgn import MZINGA_STYLE  # ends with White's Queen surrounded
    referee = Referee.resume(parse_pgn(MZINGA_STYLE))
    [cell] = referee.board.surrounded_queens()
    assert referee.board.stack(cell)[0] == Piece.parse("wQ")
    assert all(referee.board.stack(n) for n in neighbours(cell))


def test_the_reading_follows_the_table_while_the_check_is_pending() -> None:
    t = table_showing(*MIDGAME)
    assert kinds(t.still(12)) == ["misread"]
    t.hand()
    t.board.push_uhp("bA2 bS1/")
    assert kinds(t.still(12)) == ["misread"]  # a new message: 10 pieces appeared
    t.hand()
    t.board.push(t.board.legal_moves_of(Piece.parse("wS1"))[0])  # the same number of pieces, one moved
    assert kinds(t.still(12)) == []  # the same message: not said again
    pending = t.referee.pending()
    assert pending is not None and len(pending.reading) == 10
    assert sorted(s.cell for s in pending.reading) == sorted(_shifted(t, pending))


def _shifted(t: Table, pending) -> list:
    """The table's cells moved as the referee placed the reading (by the offset of the lowest cell)."""
    table_cells = sorted(t.board.stacks())
    read = sorted(s.cell for s in pending.reading)
    dq, dr = read[0][0] - table_cells[0][0], read[0][1] - table_cells[0][1]
    return [(q + dq, r + dr) for q, r in table_cells]


def _read_as_east_neighbour(table: Table) -> tuple[TileSighting, ...]:
    """The table's tiles, each read (surely) as the piece east of it, or a black Ant: by their
    labels alone, the view seems to lie a cell away from where the tiles are."""
    stacks = table.board.stacks()
    shown = []
    for sighting in table.seen():
        cell = table.transform.inverse().apply(sighting.cell)
        east = stacks.get((cell[0] + 1, cell[1]))
        colour, bug = (east[-1].colour, east[-1].bug) if east else (Colour.BLACK, Bug.ANT)
        shown.append(replace(sighting, colour=colour, bug=bug))
    return tuple(shown)


def test_a_view_the_person_vouches_for_is_registered_by_where_its_tiles_lie() -> None:
    moves = ("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1/")
    t = table_showing(*moves, transform=Transform(2, False, (3, -1)))
    misread = _read_as_east_neighbour(t)
    assert kinds(t.still(12, tiles=misread)) == ["misread"]
    t.referee.correct("; ".join(moves))  # the view still makes no sense: the person vouches for it
    t.hand()
    t.play("wA1 -wQ")
    placed = t.transform.apply(t.board.position_of(Piece.parse("wA1")))
    shown = misread + tuple(s for s in t.seen() if s.cell == placed)
    events = t.still(12, tiles=shown)
    assert kinds(events) == ["move"] and uhps(t.referee)[-1] == "wA1 -wQ"


def test_a_confirmed_misread_view_does_not_hide_where_the_position_lies() -> None:
    t = Table(Referee("Base", config=QUICK), Transform(1, False, (2, -3)))
    t.play("wG1", "bG1 wG1-")
    unsure = tuple(replace(s, colour=Colour.BLACK, bug=bug, confidence=0.3)
                   for s, bug in zip(t.seen(), (Bug.ANT, Bug.MOSQUITO)))
    assert kinds(t.still(15, tiles=unsure)) == ["needs_confirmation"]
    # two tiles fit any turn of the view: the person confirms the game, not the camera's turn
    t.referee.confirm(next(c for c in t.referee.pending().candidates if c.startswith("wG1; bG1")))
    t.bump(Transform(1, False, (0, 1)))
    t.hand()
    t.play("wQ -wG1")  # read surely and right now, but for the new tile
    placed = t.transform.apply(t.board.position_of(Piece.parse("wQ")))
    shown = tuple(replace(s, bug=Bug.BEETLE, confidence=0.3) if s.cell == placed else s for s in t.seen())
    events = t.still(15, tiles=shown)
    assert kinds(events) == ["needs_confirmation"]
    assert any(c.startswith("wQ ") for c in of(events, "needs_confirmation")[0].candidates)
