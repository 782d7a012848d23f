"""Tile map and lattice fitting on rendered hives: touching rows of one colour, rotation, tilt, borders."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.camera import CameraModel
from rules.hexgrid import Hex, distance, neighbours
from rules.pieces import Piece
from vision.compare import align
from vision.lattice import Lattice, fit_lattice, hex_round
from vision.locate import Located, locate_tiles, outline_angle, place_tops
from vision.tilemaps import Peak, TileMapper, peaks
from vision.render.camera import SyntheticCamera
from vision.render.scene import GAP_MM, TILE_SIZES, Conditions, cell_centre_mm, random_conditions, render_position

NAMES = ["wQ", "bQ", "wA1", "bA1", "wG1", "bG1", "wS1", "bS1", "wB1", "bB1", "wM", "bM", "wL", "bL", "wP", "bP"]


def dense_block(count: int = 16) -> dict:
    """Tiles in a compact, touching block (every tile has neighbours on several sides)."""
    cells = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2][:count]
    return {cell: [Piece.parse(name)] for cell, name in zip(cells, NAMES)}


MAPPER = TileMapper()
SOLID = dict(solid=True, bevel_mm=0.8, gap_mm=0.3, flats_mm=38.0, thickness_mm=10.0)  # sides of the face's material


def test_touching_rows_of_one_colour_are_split_one_top_each() -> None:
    """Solid tiles with no rim, two long rows of one colour each: no face is isolated."""
    names = [f"w{b}" for b in ("Q", "S1", "S2", "B1", "B2", "G1", "G2")] + \
            [f"b{b}" for b in ("Q", "S1", "S2", "B1", "B2", "G1", "G2")]
    cells = [(q, 0) for q in range(7)] + [(q - 1, 2) for q in range(7)]
    position = {cell: [Piece.parse(name)] for cell, name in zip(cells, names)}
    for seed, yaw in ((3, 20.0), (4, 75.0)):
        frame, truth = render_position(position, Conditions(height_mm=650, tilt_deg=15, yaw_deg=yaw, seed=seed,
                                                            style="a-var", **SOLID))
        tops = locate_tiles(frame, MAPPER).tiles
        assert len(tops) == len(position)
        for tile in truth.tiles:
            top = min(tops, key=lambda t: np.linalg.norm(t.centre - tile.px))
            # one top per tile: a top between two tiles, or two tiles' tops merged, lies half a pitch off
            assert np.linalg.norm(top.centre - tile.px) < 0.15 * truth.tile_px
            assert top.colour is tile.colour


@pytest.mark.parametrize("yaw, tilt", [(0, 0), (37, 10), (133, 28), (251, 22)])
def test_lattice_cells_match_the_truth_up_to_rotation(yaw: float, tilt: float) -> None:
    position = dense_block(14)
    frame, truth = render_position(position, Conditions(yaw_deg=yaw, tilt_deg=tilt, azimuth_deg=yaw * 2,
                                                        k1=-0.08, seed=int(yaw)))
    located = locate_tiles(frame, MAPPER)
    seen = {t.cell: t.colour for t in located.tiles}
    true = {t.cell: t.colour for t in truth.tiles}
    alignment = align(seen, true)
    assert alignment.matched == len(true) == len(seen)
    assert all(true[alignment.apply(c)] is colour for c, colour in seen.items())


def test_fit_lattice_on_exact_points_with_anisotropy() -> None:
    cells = [(0, 0), (1, 0), (0, 1), (-1, 1), (2, -1), (3, -1), (1, 1), (-2, 2)]
    angle = np.radians(23)
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    squash = np.diag([1.0, 0.85])  # a tilted camera foreshortens one direction
    plane = np.array([[q + r / 2, r * np.sqrt(3) / 2] for q, r in cells]) * 50
    pixels = plane @ (squash @ turn).T + [400, 300]
    lattice, found = fit_lattice(pixels, 50.0, (1280, 720))
    for i, a in enumerate(cells):
        for j, b in enumerate(cells):
            assert distance(found[i], found[j]) == distance(a, b)
    assert set(neighbours(found[0])) >= {found[1], found[2]}
    assert np.allclose(lattice.pixel(found[5]), pixels[5], atol=0.5)


def test_a_hive_seen_through_a_wide_lens_is_fitted_through_that_lens() -> None:
    """With the camera's intrinsics the lattice is a pinhole's, bent through the lens where it
    meets the frame's own pixels: a wide hive's outer tops lie where no plain homography puts them."""
    lens = CameraModel(np.array([[520.0, 0.0, 640.0], [0.0, 520.0, 360.0], [0.0, 0.0, 1.0]]),
                       np.array([-0.3, 0.09, 0.0, 0.0, 0.0]), (1280, 720))
    cells = [(q, r) for r in range(-3, 4) for q in range(-6, 7) if abs(q + r / 2) <= 5.5]
    plane = np.array([[q + r / 2, r * np.sqrt(3) / 2] for q, r in cells]) * 80
    tops = lens.distort_points(plane + [640, 360])
    plain, _ = fit_lattice(tops, 70.0, (1280, 720))
    bent, found = fit_lattice(tops, 70.0, (1280, 720), lens=lens)
    assert np.abs(bent.pixels(np.array(found)) - tops).max() < 0.5
    assert np.array_equal(hex_round(bent.axial(tops)), np.array(found))
    assert np.linalg.norm(plain.pixels(hex_round(plain.axial(tops))) - tops, axis=1).max() > 5
    assert all(distance(found[i], found[j]) == distance(a, b) for i, a in enumerate(cells) for j, b in enumerate(cells))


# Tops a rendered frame showed (fluent-flat, the camera tilted, tiles 34 pixels apart), three of
# them stack tops lying nearer the camera; the truth's steps there: 36.6, 38.5 and 32.0 pixels.
TILTED_TOPS = np.array([[732.2, 528.2], [695.6, 541.4], [753.4, 549.8], [805.0, 553.2], [657.4, 560.0],
                        [776.7, 568.1], [760.6, 596.8], [708.8, 600.6], [776.5, 612.1], [732.8, 616.1],
                        [659.9, 633.5], [684.2, 649.9], [696.7, 692.9]])


@pytest.mark.parametrize("pitch_guess", [30.0, 35.5, 40.0])
def test_stack_tops_do_not_shear_the_lattice_fitted_to_a_tilted_hive(pitch_guess: float) -> None:
    """A stack top's offsets to its neighbours are no lattice steps: fitted in, they sheared this
    hive's lattice (steps 33.7, 40.4 and 44.8 pixels) when the tops' own pitch was the guess."""
    lattice, _ = fit_lattice(TILTED_TOPS, pitch_guess, (1280, 720))
    east, south_east = lattice.basis(tuple(lattice.axial(TILTED_TOPS[:1])[0]))
    steps = sorted(float(np.linalg.norm(step)) for step in (east, south_east, south_east - east))
    assert np.allclose(steps, [32.0, 36.6, 38.5], rtol=0.12)


@pytest.mark.parametrize("guess", [15.0, 20.5, 24.0])
def test_tops_placed_at_their_own_spacing_when_their_pitch_is_guessed_too_large(guess: float) -> None:
    """Small blurred tiles, 15 pixels apart, whose pitch the tile map guessed up to 1.6 times too
    large: sought that far, every second neighbour (26 pixels off) counted as a step too."""
    cells = [(q, r) for r in range(-2, 3) for q in range(-2, 3) if abs(q + r) <= 2]
    angle = np.radians(12)
    plane = np.array([[q + r / 2, r * np.sqrt(3) / 2] for q, r in cells]) * 15.0
    pixels = plane @ np.array([[np.cos(angle), np.sin(angle)], [-np.sin(angle), np.cos(angle)]]) + [640, 360]
    lattice, found = fit_lattice(pixels, guess, (1280, 720))
    assert len(set(found)) == len(cells)
    for i, a in enumerate(cells):
        for j, b in enumerate(cells):
            assert distance(found[i], found[j]) == distance(a, b)
    assert lattice.pitch(found[0]) == pytest.approx(15.0, rel=0.02)


def test_a_loose_hive_keeps_its_guessed_pitch() -> None:
    """Tops two pitches apart each (a scatter): their spacing is no pitch."""
    cells = [(2 * q, 2 * r) for q in range(3) for r in range(2)]
    pixels = np.array([[q + r / 2, r * np.sqrt(3) / 2] for q, r in cells]) * 30.0 + [400, 300]
    lattice, found = fit_lattice(pixels, 30.0, (1280, 720))
    assert all(distance(a, b) == distance(found[i], found[j]) for i, a in enumerate(cells) for j, b in enumerate(cells))
    assert lattice.pitch(found[0]) == pytest.approx(30.0, rel=0.02)


def test_hex_round_picks_the_nearest_cell() -> None:
    # (-0.6, 0.3) lies 0.52 pitch from (0, 0) and 0.61 from (-1, 0) and (-1, 1)
    fractional = np.array([[0.4, 0.4], [0.1, -0.45], [1.49, 0.02], [-0.6, 0.3], [-0.7, 0.6]])
    assert hex_round(fractional).tolist() == [[0, 1], [0, 0], [1, 0], [0, 0], [-1, 1]]


def test_tile_cut_by_the_border_gets_its_cell() -> None:
    position = {(q, 0): [Piece.parse(n)] for q, n in zip(range(6), ["wQ", "bQ", "wA1", "bA1", "wG1", "bG1"])}
    # aimed so the frame's left edge crosses the first tile (the frame is ~520 mm wide at 400 mm)
    camera = SyntheticCamera.looking_at(np.array([250.0, 0.0]), 400, 0, 0, 0)
    frame, truth = render_position(position, Conditions(height_mm=400, seed=1), camera=camera)
    cut = [t for t in truth.tiles if t.cut]
    assert cut, "the row should run off the frame"
    seen = {t.cell for t in locate_tiles(frame, MAPPER).tiles}
    alignment = align({c: 0 for c in seen}, {t.cell: 0 for t in truth.tiles})
    assert alignment.matched == len(truth.tiles) == len(seen)


def test_empty_table_has_no_tiles() -> None:
    frame, _ = render_position({}, Conditions(table="cloth", noise=3.0, seed=2))
    located = locate_tiles(frame, MAPPER)
    assert located.tiles == [] and located.lattice is None


def test_stack_lift_is_recovered_from_a_small_tilted_hive() -> None:
    """Where a tile one level up appears, from eight pocket tiles seen at 27 degrees (was off by up to 0.2
    pitch; within 0.04 with face outlines, 0.06 with the tile map's centres)."""
    names = ["wQ", "bQ", "wA1", "bA1", "wG1", "bG1", "wS1", "bS1"]
    cells = [(0, 0), (1, 0), (1, 1), (2, 1), (-1, 1), (-1, 2), (0, -1), (-2, 3)]
    position = {cell: [Piece.parse(name)] for cell, name in zip(cells, names)}
    flats, thickness = TILE_SIZES["pocket"]
    rng = np.random.default_rng(3)
    for _ in range(12):
        conditions = random_conditions(rng, tile_size="pocket", tilt_deg=27)
        frame, truth = render_position(position, conditions)
        lattice = locate_tiles(frame, MAPPER).lattice
        middle = np.mean([cell_centre_mm(c, flats + GAP_MM) for c in cells], axis=0) + conditions.bump_mm
        top, lifted = truth.camera.project(np.array([[*middle, -thickness], [*middle, -2 * thickness]]))
        cell = tuple(lattice.axial(top[None])[0])
        seen = lattice.lifted(1).pixel(cell) - lattice.pixel(cell)
        assert np.linalg.norm(seen - (lifted - top)) < 0.06 * lattice.pitch(cell)


def test_a_row_of_tiles_with_one_beside_it_keeps_its_cells() -> None:
    """Six tiles in a row and one beside it pin no homography across the row: the lattice
    must not take an arbitrary perspective from them (cells and stack lift went wild)."""
    names = ["wQ", "bQ", "wA1", "bA1", "wG1", "bG1", "wS1"]
    cells = [(q, -q) for q in range(-2, 4)] + [(-1, 2)]
    position = {cell: [Piece.parse(name)] for cell, name in zip(cells, names)}
    rng = np.random.default_rng(5)
    for _ in range(12):
        frame, truth = render_position(position, random_conditions(rng, tilt_deg=30))
        located = locate_tiles(frame, MAPPER)
        seen = {t.cell: t.colour for t in located.tiles}
        true = {t.cell: t.colour for t in truth.tiles}
        alignment = align(seen, true)
        assert alignment.matched == len(true) == len(seen)
        lift = [np.linalg.norm(located.lattice.lifted(1).pixel(c) - located.lattice.pixel(c)) / located.lattice.pitch(c)
                for c in seen]
        assert max(lift) < 0.5


def test_small_far_tiles_are_found_by_a_closer_look() -> None:
    """A wide lens 90 cm above 30 mm tiles: about 17 pixels a tile, below what one look at the frame resolves."""
    position = dense_block(16)
    frame, truth = render_position(position, Conditions(height_mm=900, hfov_deg=102, tilt_deg=12, yaw_deg=40,
                                                        seed=5, style="b", **{**SOLID, "flats_mm": 30.0}))
    assert truth.tile_px < 20
    located = locate_tiles(frame, MAPPER)
    seen = {t.cell: t.colour for t in located.tiles}
    true = {t.cell: t.colour for t in truth.tiles}
    alignment = align(seen, true)
    assert alignment.matched == len(true) == len(seen)


def test_a_hive_too_small_for_one_look_to_find_any_top_is_found_by_a_closer_look() -> None:
    """A wide lens 95 cm above 26 mm tiles on a dark printed mat: 14 pixels a tile, and the look at the
    whole frame finds no top (only faint heat), so before the faint heat was looked at again the frame
    showed an empty table (and the page could not say to bring the camera nearer)."""
    position = dense_block(12)
    frame, truth = render_position(position, Conditions(height_mm=950, hfov_deg=102, tilt_deg=10, yaw_deg=50, seed=1,
                                                        style="a", table="mat", **{**SOLID, "flats_mm": 26.0}))
    assert truth.tile_px < 15 and peaks(MAPPER.maps(frame)) == []
    tops = locate_tiles(frame, MAPPER).tiles
    found = [t for t in truth.tiles if any(np.linalg.norm(top.centre - t.px) < 0.4 * truth.tile_px for top in tops)]
    assert len(found) >= 10 and len(tops) <= len(truth.tiles)


@pytest.mark.parametrize("yaw", [10, 25, 45])
def test_a_lone_tops_outline_turns_the_lattice_as_a_neighbour_would(yaw: float) -> None:
    """With no neighbour to say how the lattice lies, a lone top's edges do (modulo 60 degrees)."""
    view = Conditions(height_mm=500, tilt_deg=15, yaw_deg=yaw, seed=3)
    _, pair = render_position({(0, 0): [Piece.parse("wS1")], (1, 0): [Piece.parse("bQ")]}, view)
    east = np.subtract(*[t.px for t in sorted(pair.tiles, key=lambda t: -t.cell[0])])
    frame, alone = render_position({(0, 0): [Piece.parse("wS1")]}, view)
    top = Peak(np.array(alone.tiles[0].px), alone.pitch_px, 1.0, 1.0)
    turn = np.degrees(outline_angle(frame, top) - np.arctan2(east[1], east[0]))
    assert abs((turn + 30) % 60 - 30) < 5


def test_the_last_frames_lattice_holds_while_it_fits_and_gives_way_when_the_camera_moves() -> None:
    """A held lattice keeps the cells of the frames before: as it is while no more tops show than
    it was fitted to (a top that comes and goes moves no other), refitted as the hive grows, and
    not pulled by a top lying between cells; tops that all moved by half a pitch (the camera
    bumped), or that a fresh fit places far nearer their cells or at another pitch, are fitted afresh."""
    truth = Lattice(np.array([[40.0, 8, 600], [-5, 30, 350], [2e-4, 4e-4, 1]]))  # a tilted camera
    cells = [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (-1, 1), (-1, 2), (0, 2), (2, -1)]
    frame = np.zeros((720, 1280, 3), np.uint8)
    noise = np.random.default_rng(2).normal(0, 0.5, (len(cells) + 2, 2))

    def placed(pixels: np.ndarray, held: Located | None = None) -> tuple[list[Hex], Located]:
        located = place_tops([Peak(p, 38.0, 0.9, 0.5) for p in pixels], None, frame, held)  # type: ignore[arg-type]
        where = {tuple(t.centre): t.cell for t in located.tiles}
        return [where[tuple(p)] for p in pixels], located

    first, held = placed(truth.pixels(np.array(cells, float)) + noise[:len(cells)])
    fewer, kept = placed(truth.pixels(np.array(cells[1:], float)) + noise[1:len(cells)], held)
    assert fewer == first[1:] and kept.lattice is held.lattice
    grown = [*cells, (4, -1)]
    between = truth.pixel((0.5, -0.5))  # a phantom on the edge of two cells
    pixels = np.vstack([truth.pixels(np.array(grown, float)) + noise[:len(grown)], between])
    seen, refitted = placed(pixels, held)
    assert seen[:len(cells)] == first and refitted.fitted_to == len(pixels)
    assert max(np.linalg.norm(refitted.lattice.pixel(c) - p) for c, p in zip(seen, pixels[:len(grown)])) < 0.05 * 38
    fresh, _ = placed(pixels)
    assert fresh[:len(cells)] != first  # a fresh fit anchors its cells afresh
    bumped = pixels[:len(grown)] + truth.basis((0, 0))[0] / 2
    seen, moved = placed(bumped, refitted)
    assert max(np.linalg.norm(moved.lattice.pixel(c) - p) for c, p in zip(seen, bumped)) < 0.05 * 38
    askew = truth.homography.copy()
    askew[:2, 2] += 0.1 * 38  # fits every top within 0.2 pitches, but a fresh fit fits them far better
    turn = np.radians(30)
    finer = np.array([[np.cos(turn), -np.sin(turn), 0], [np.sin(turn), np.cos(turn), 0], [0, 0, np.sqrt(3)]])
    for wrong in (askew, truth.homography @ finer):  # the second holds every top at a third of the tile's size
        seen, mended = placed(pixels[:len(cells)], Located([], Lattice(wrong), None, 99))  # type: ignore[arg-type]
        assert mended.lattice.pitch(seen[0]) > 30
        assert max(np.linalg.norm(mended.lattice.pixel(c) - p) for c, p in zip(seen, pixels)) < 0.05 * 38


def test_a_held_lattice_follows_a_knocked_hive_and_keeps_a_split_hive_together() -> None:
    """Tops from a world-referee film: seven tiles, then the Beetle joining them climbs onto its
    neighbour (an illegal hive split) as the hand knocks the table a quarter pitch. A fresh fit
    places the two parts a cell apart (a gap of two pitches, the tiles a little off the lattice);
    the last frame's lattice, moved with the hive, keeps every cell and sees the new stack."""
    frame = np.zeros((720, 1280, 3), np.uint8)
    before = np.array([[621, 300], [619, 329], [640, 353], [632, 385], [662, 377], [693, 372], [626, 412]], float)
    after = np.array([[617, 293], [616, 322], [625, 380], [658, 370], [689, 365], [621, 406]], float)

    def placed(pixels: np.ndarray, held: Located | None = None) -> tuple[list[tuple[Hex, int]], Located]:
        located = place_tops([Peak(p, 32.0, 0.9, 0.5) for p in pixels], None, frame, held)  # type: ignore[arg-type]
        where = {tuple(t.centre): (t.cell, t.level) for t in located.tiles}
        return [where[tuple(p)] for p in pixels], located

    first, held = placed(before)
    cells = [cell for cell, _ in first]
    knocked, _ = placed(after, held)
    assert knocked == [(cells[0], 1), (cells[1], 1), (cells[3], 2), (cells[4], 1), (cells[5], 1), (cells[6], 1)]
    fresh, _ = placed(after)
    offsets = {tuple(np.subtract(cell, cells[k])) for (cell, _), k in zip(fresh, (0, 1, 3, 4, 5, 6))}
    assert len(offsets) == 2  # afresh, the parts lie a cell apart from how they lay


def test_a_held_lattice_off_by_whole_tile_thicknesses_gives_way_to_a_fresh_fit() -> None:
    """A camera aimed afresh (a resumed game filmed from elsewhere) can show the hive where the last
    frame's lattice, lifted three tile thicknesses, fits every top: held, it would place each flat
    tile four high (and a referee take a stack for a tile hidden beside it); a fresh fit sees no stack."""
    truth = Lattice(np.array([[40.0, 8, 600], [-5, 30, 350], [2e-4, 4e-4, 1]]))
    cells = np.array([(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (-1, 1), (-1, 2), (0, 2), (2, -1)], float)
    frame = np.zeros((720, 1280, 3), np.uint8)

    def placed(pixels: np.ndarray, held: Located | None = None) -> Located:
        return place_tops([Peak(p, 38.0, 0.9, 0.5) for p in pixels], None, frame, held)  # type: ignore[arg-type]

    held = placed(truth.pixels(cells))
    assert held.lattice is not None and [t.level for t in held.tiles] == [1] * len(cells)
    elsewhere = held.lattice.lifted(3).pixels(cells)
    assert np.linalg.norm(elsewhere - truth.pixels(cells), axis=1).min() > 10  # the hive lies elsewhere now
    assert [t.level for t in placed(elsewhere, held).tiles] == [1] * len(cells)
