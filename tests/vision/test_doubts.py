"""Tops the tile map missed: faint candidates confirmed by the set's look, gaps that split the hive."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from rules.hexgrid import neighbours
from rules.pieces import Piece
from vision.creatures import CreatureEmbedder
from vision.doubts import arrivals, bridges, confirmed, crowded, first_top, holes
from vision.lattice import hex_round
from vision.locate import Located, locate_tiles, place_tops
from vision.profile import demo_profile
from vision.render.scene import Conditions, render_position
from vision.tilemaps import Peak, TileMapper, tile_tops

MAPPER = TileMapper()
ROW = {(q, 0): [Piece.parse(name)] for q, name in enumerate(["wQ", "bA1", "wG1", "bS1", "wB1", "bQ"])}
VIEW = Conditions(height_mm=600, tilt_deg=12, yaw_deg=25, seed=5)


def _located(view: Conditions = VIEW) -> tuple[np.ndarray, Located, list]:
    frame, truth = render_position(ROW, view)
    located = locate_tiles(frame, MAPPER)
    assert len(located.tiles) == len(ROW)
    return frame, located, truth.tiles


def _without(located: Located, centre) -> Located:
    """``located`` as if the tile map had missed the top nearest ``centre``."""
    gone = min(located.tiles, key=lambda t: np.linalg.norm(t.centre - np.asarray(centre)))
    return replace(located, tiles=[t for t in located.tiles if t is not gone])


def test_a_gap_that_splits_the_hive_is_filled_where_the_missed_top_lies() -> None:
    frame, located, truth = _located()
    missed = truth[2].px  # the row's middle: without it the hive falls in two
    added = bridges(frame, _without(located, missed), CreatureEmbedder(), demo_profile())
    assert len(added) == 1
    assert np.linalg.norm(added[0].centre - np.asarray(missed)) < 0.2 * np.linalg.norm(
        np.subtract(truth[1].px, truth[2].px))


def test_a_hive_really_split_keeps_its_gap() -> None:
    """A gap showing table is a hive split (an illegal move the referee must see), not a missed top."""
    split = {cell: stack for cell, stack in ROW.items() if cell != (2, 0)}
    frame, _ = render_position(split, VIEW)
    located = locate_tiles(frame, MAPPER)
    assert len(located.tiles) == len(split)
    assert bridges(frame, located, CreatureEmbedder(), demo_profile()) == []


def test_a_whole_hive_and_a_hive_missing_an_end_get_no_bridge() -> None:
    frame, located, truth = _located()
    assert bridges(frame, located, CreatureEmbedder(), demo_profile()) == []
    assert bridges(frame, _without(located, truth[-1].px), CreatureEmbedder(), demo_profile()) == []  # the hive is still one: nothing says a top is missing


def test_a_top_the_map_missed_where_something_arrived_is_found_and_bare_table_there_is_not() -> None:
    """Every free cell by the hive looks changed from the bare table: only the one whose crop
    looks like the set's tops (the missed one, not the table round the row) is a top."""
    frame, located, truth = _located()
    missed = np.asarray(truth[3].px, float)
    gone = _without(located, missed)
    rows, cols = located.maps.heat.shape
    found = arrivals(frame, gone, np.ones((rows, cols), bool), CreatureEmbedder(), demo_profile())
    assert len(found) == 1 and np.linalg.norm(found[0].centre - missed) < 0.15 * located.lattice.pitch((0, 0))
    assert arrivals(frame, gone, np.zeros((rows, cols), bool), CreatureEmbedder(), demo_profile()) == []


def test_no_top_is_taken_for_arrived_in_a_bay_of_the_hive() -> None:
    """A free cell with four or more tops round it is a bay, whose table changes look with the
    shade and sides of the tiles round it: what arrived there is not taken for a top, even a
    real one missed; a missed top at the hive's rim is."""
    names = ["wQ", "bA1", "wG1", "bS1", "wB1", "bQ", "wA1"]
    flower = {cell: [Piece.parse(name)] for cell, name in zip([(0, 0), *neighbours((0, 0))], names)}
    frame, truth = render_position(flower, VIEW)
    located = locate_tiles(frame, MAPPER)
    assert len(located.tiles) == len(flower)
    everywhere = np.ones(located.maps.heat.shape, bool)
    middle, rim = (np.asarray(tile.px, float) for tile in truth.tiles[:2])
    assert arrivals(frame, _without(located, middle), everywhere, CreatureEmbedder(), demo_profile()) == []
    found = arrivals(frame, _without(located, rim), everywhere, CreatureEmbedder(), demo_profile())
    assert len(found) == 1 and np.linalg.norm(found[0].centre - rim) < 0.15 * located.lattice.pitch((0, 0))


def test_a_faint_candidate_is_a_top_if_it_looks_like_the_sets_tops_and_table_is_not() -> None:
    frame, located, truth = _located()
    end = np.asarray(truth[-1].px, float)
    step = end - np.asarray(truth[-2].px, float)
    beyond = end + step  # the free cell past the row's end: bare table
    doubted = [Peak(end, 40.0, 0.25, 0.0, 0.1), Peak(beyond, 40.0, 0.3, 0.5, 0.1)]
    found = confirmed(frame, _without(located, end), doubted, CreatureEmbedder(), demo_profile())
    assert len(found) == 1 and np.linalg.norm(found[0].centre - end) < 0.1 * located.lattice.pitch((0, 0))


def test_a_faint_top_whose_heat_split_in_two_is_confirmed_at_its_cells_centre() -> None:
    frame, located, truth = _located()
    end = np.asarray(truth[-1].px, float)
    across = 0.29 * located.lattice.basis((0, 0))[1]  # each peak most of a third of a pitch off the centre
    doubted = [Peak(end + across, 40.0, 0.34, 0.0, 0.9), Peak(end - across, 40.0, 0.2, 0.0, 0.9)]
    found = confirmed(frame, _without(located, end), doubted, CreatureEmbedder(), demo_profile())
    assert len(found) == 1 and np.linalg.norm(found[0].centre - end) < 0.1 * located.lattice.pitch((0, 0))


def test_candidates_in_a_row_from_the_hive_are_confirmed_one_from_the_other() -> None:
    """The map missing the last two tiles of a row (black tiles on a dark cloth): the one next to
    the hive is confirmed, and then the one next to it."""
    frame, located, truth = _located()
    last, before = (np.asarray(truth[k].px, float) for k in (-1, -2))
    doubted = [Peak(last, 40.0, 0.25, 0.0, 0.1), Peak(before, 40.0, 0.25, 1.0, 0.1)]
    found = confirmed(frame, _without(_without(located, last), before), doubted, CreatureEmbedder(), demo_profile())
    assert len(found) == 2 and all(min(np.linalg.norm(p.centre - top) for p in found) < 0.1 * located.lattice.pitch((0, 0))
                                   for top in (last, before))


class _AlikeAt:
    """A profile every crop resembles at ``likeness``."""

    def __init__(self, likeness: float) -> None:
        self.likeness = likeness

    def resemblance(self, vectors: np.ndarray) -> np.ndarray:
        return np.full(len(vectors), self.likeness)


def _found(frame: np.ndarray, located: Located, centre: np.ndarray, heat: float, likeness: float) -> int:
    """How many tops ``confirmed`` finds from one candidate at ``centre`` whose crop looks ``likeness`` like the set's."""
    return len(confirmed(frame, located, [Peak(centre, 40.0, heat, 0.0, 0.9)], CreatureEmbedder(),
                         _AlikeAt(likeness)))  # type: ignore[arg-type]


def test_a_candidate_on_the_rim_of_a_hive_of_small_tiles_needs_less_likeness() -> None:
    """At a row's end, tiles about 30 pixels apart, a candidate as alike as a blurred top is one;
    tiles 62 pixels apart, it must look as alike as anywhere (less so if the map nearly took it)."""
    for view, small in ((replace(VIEW, height_mm=1200), True), (VIEW, False)):
        frame, located, truth = _located(view)
        end = np.asarray(truth[-1].px, float)
        rim = _without(located, end)
        assert _found(frame, rim, end, 0.20, 0.81) == small and _found(frame, rim, end, 0.20, 0.78) == 0
        assert _found(frame, rim, end, 0.40, 0.86) == 1 and _found(frame, rim, end, 0.20, 0.86) == small


def test_a_candidate_in_a_bay_of_the_hive_needs_more_likeness_less_if_the_map_nearly_took_it() -> None:
    frame, flower, middle = _flower(centre_filled=False, view=replace(VIEW, height_mm=1200))
    bay = replace(flower, tiles=flower.tiles[:-1])  # the six round the middle, not the middle's phantom
    assert _found(frame, bay, middle, 0.20, 0.81) == 0 and _found(frame, bay, middle, 0.20, 0.86) == 0
    assert _found(frame, bay, middle, 0.40, 0.86) == 1 and _found(frame, bay, middle, 0.40, 0.82) == 0
    assert _found(frame, bay, middle, 0.20, 0.90) == 1


def test_a_candidate_on_a_taken_cell_or_away_from_the_hive_is_not_asked_about() -> None:
    frame, located, truth = _located()
    end = np.asarray(truth[-1].px, float)
    step = end - np.asarray(truth[-2].px, float)
    far = end + 3 * step  # a tile-like spot three cells from the hive: not next to any top
    doubted = [Peak(end, 40.0, 0.25, 0.0, 0.1), Peak(far, 40.0, 0.3, 0.5, 0.1)]
    assert confirmed(frame, located, doubted, CreatureEmbedder(), demo_profile()) == []


def test_with_no_hive_yet_a_faint_candidate_that_looks_like_a_top_is_the_first_tile() -> None:
    frame, truth = render_position({(0, 0): [Piece.parse("wB1")]}, VIEW)
    maps = MAPPER.maps(frame)
    tile = np.asarray(truth.tiles[0].px, float)
    table = tile + [2.5 * truth.pitch_px, 0.0]  # bare table two cells away
    on_table = Peak(table, truth.pitch_px, 0.4, 0.5, 0.1)
    found = first_top(frame, maps, [on_table, Peak(tile, truth.pitch_px, 0.3, 1.0, 0.1)],
                      CreatureEmbedder(), demo_profile())
    assert [tuple(p.centre) for p in found] == [tuple(tile)]  # the hotter table candidate is not taken
    assert first_top(frame, maps, [on_table], CreatureEmbedder(), demo_profile()) == []


RING = [(1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]
FLOWER_NAMES = ["wQ", "bQ", "wA1", "bA1", "wG1", "bG1", "wS1"]


def _flower(centre_filled: bool, view: Conditions = VIEW) -> tuple[np.ndarray, Located, np.ndarray]:
    """Six tiles round the cell (0, 0), and a seventh on it or not: the located tops (the middle's
    taken as a faint one) and the middle's centre in the frame."""
    cells = RING + ([(0, 0)] if centre_filled else [])
    position = {cell: [Piece.parse(name)] for cell, name in zip(cells, FLOWER_NAMES)}
    frame, truth = render_position(position, view)
    located = locate_tiles(frame, MAPPER)
    ring = np.array([t.px for t in truth.tiles if t.cell in RING])
    middle = ring.mean(axis=0)
    nearest = min(located.tiles, key=lambda t: np.linalg.norm(t.centre - middle))
    if centre_filled:
        assert np.linalg.norm(nearest.centre - middle) < 0.2 * truth.pitch_px
        faint = replace(nearest, score=0.4)
        return frame, replace(located, tiles=[faint if t is nearest else t for t in located.tiles]), middle
    lattice = located.lattice
    assert lattice is not None and len(located.tiles) == len(RING)
    cell = tuple(int(v) for v in hex_round(lattice.axial(middle[None]))[0])
    assert all(n in {t.cell for t in located.tiles} for n in neighbours(cell))
    phantom = replace(located.tiles[0], cell=cell, centre=lattice.pixel(cell), basis=lattice.basis(cell), score=0.4)
    return frame, replace(located, tiles=[*located.tiles, phantom]), middle


def test_a_faint_top_in_a_hole_of_the_hive_that_shows_table_is_a_hole() -> None:
    frame, located, middle = _flower(centre_filled=False)
    found = holes(frame, located, CreatureEmbedder(), demo_profile())
    assert len(found) == 1 and np.linalg.norm(found[0].centre - middle) < 10


def test_a_faint_enclosed_top_that_looks_like_a_tile_stays() -> None:
    frame, located, _ = _flower(centre_filled=True)
    assert holes(frame, located, CreatureEmbedder(), demo_profile()) == []


def _crowded_row() -> tuple[Located, np.ndarray]:
    """The row located with a print spot 0.66 steps off its end, between two free cells, on the
    lattice held from the frames before the print showed; and the spot."""
    frame, _ = render_position(ROW, VIEW)
    maps, tops = tile_tops(MAPPER, frame)
    before = locate_tiles(frame, MAPPER)
    end = max(before.tiles, key=lambda tile: tile.centre[0])
    print_spot = end.centre + 0.381 * end.basis.sum(axis=0)
    located = place_tops([*tops, replace(tops[0], centre=print_spot)], maps, frame, replace(before, tiles=[]))
    assert len(located.tiles) == len(ROW) + 1
    return located, print_spot


def test_a_top_nearer_a_tile_than_tiles_can_lie_off_its_cell_is_no_tile() -> None:
    located, print_spot = _crowded_row()
    dropped = crowded(located)
    assert len(dropped) == 1 and np.linalg.norm(dropped[0].centre - print_spot) < 1


def test_a_crowded_top_beside_a_taller_stack_is_left_be() -> None:
    """A stack's side can hide part of a neighbour's face, so what shows of it lies off its cell."""
    located, print_spot = _crowded_row()
    end = max((tile for tile in located.tiles if tile.level == 1 and tile.offset < 0.15), key=lambda t: t.centre[0])
    stack = replace(end, cell=(end.cell[0], end.cell[1] + 1), centre=end.centre + end.basis[1], level=3)
    assert crowded(replace(located, tiles=[*located.tiles, stack])) == []


def test_neighbours_a_steep_camera_brings_near_in_pixels_are_not_crowded() -> None:
    hive = {**ROW, **{(q, 1): [Piece.parse(name)] for q, name in enumerate(["wA1", "bG1", "wS1"])}}
    frame, _ = render_position(hive, Conditions(height_mm=450, tilt_deg=35, yaw_deg=0, seed=7))
    located = locate_tiles(frame, MAPPER)
    steps = [np.linalg.norm(a.centre - b.centre) / np.linalg.norm(a.basis, axis=1).mean()
             for a in located.tiles for b in located.tiles if a is not b]
    assert len(located.tiles) == len(hive) and min(steps) < 0.9  # nearer in pixels than the mean step
    assert crowded(located) == []
