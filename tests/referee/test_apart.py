"""Groups of tiles lying apart from the hive: which the referee looks past, and which it keeps."""

from __future__ import annotations

from table_sim import kinds, table_uhps, uhps

from rules import Bug, Colour
from rules.observation import Observation, TileSighting
from rules.referee.apart import groups, set_aside

HIVE = [(0, 0), (1, 0), (2, 0), (3, -1)]  # four stacks in a row
RESERVE = [(q, 4) for q in range(-2, 6)]  # eight pieces not yet played, in a row three cells below


def seen(cells: list[tuple[int, int]]) -> Observation:
    return Observation(tuple(TileSighting(q, r, Colour.BLACK, Bug.ANT) for q, r in cells))


def cells(observation: Observation) -> set[tuple[int, int]]:
    return {t.cell for t in observation.tiles}


def test_groups_join_tiles_under_three_cells_apart() -> None:
    found = groups([(0, 0), (2, 0), (5, 0), (7, -1), (0, 3)])
    assert sorted(map(sorted, found)) == [[(0, 0), (2, 0)], [(0, 3)], [(5, 0), (7, -1)]]


def test_the_group_the_size_of_the_hive_is_kept_however_large_the_others() -> None:
    stacks = dict.fromkeys(HIVE)
    assert cells(set_aside(seen(HIVE + RESERVE), stacks)) == set(HIVE)
    placed = HIVE + [(4, -1)]  # a placement since: five tiles for four stacks
    assert cells(set_aside(seen(placed + RESERVE + [(-5, 0)]), stacks)) == set(placed)


def test_nothing_is_set_aside_when_it_is_unclear_which_group_is_the_hive() -> None:
    tied = [(0, 4), (1, 4), (2, 4), (3, 4), (4, 4)]  # five tiles, as far from four stacks as three
    lost = HIVE[:2] + [(6, -1)]  # the camera lost two stacks: no group can be the whole hive
    for observation, stacks in [(seen(HIVE[:3] + tied), HIVE), (seen(lost), HIVE),
                                (seen([(0, 0), (5, 0), (6, 0)]), HIVE[:1])]:  # one stack: a first tile
        assert set_aside(observation, dict.fromkeys(stacks)) == observation


def test_pieces_beside_the_game_outnumbering_the_hive_are_looked_past(table) -> None:
    t = table("wG1", "bG1 wG1-", "wQ -wG1", "bQ bG1-")  # wQ(-1,0) wG1(0,0) bG1(1,0) bQ(2,0)
    reserve = tuple(TileSighting(*t.transform.apply((q, 4)), Colour.WHITE, bug)
                    for q, bug in zip(range(-3, 5), [Bug.ANT, Bug.ANT, Bug.ANT, Bug.SPIDER, Bug.SPIDER,
                                                     Bug.BEETLE, Bug.BEETLE, Bug.GRASSHOPPER]))
    events = t.hand()
    t.play("wA1 wQ\\")
    events += t.still(10, tiles=tuple(t.seen()) + reserve[1:])  # the Ant taken from the reserve
    assert kinds(events) == ["move"] and uhps(t.referee) == table_uhps(t)
