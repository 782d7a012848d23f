"""The wider synthetic world: physical tiles, lamps, lenses, clutter, people's layouts, and their truth."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from rules.pieces import Colour, Piece
from vision.render.camera import WIDE_HFOV_DEG, SyntheticCamera
from vision.render.lighting import Lamp
from vision.render.objects import TableObject
from vision.render.positions import (DIRECTIONS, MAX_STACK, blob, enrollment, game_positions, opening, random_position,
                                     row, stacked)
from vision.render.scene import SIDE_LABEL, TOP_LABEL, Conditions, Label, make_camera, render_position
from vision.render.surfaces import PLANE_TABLES
from vision.render.world import random_world

ROW = {(q, 0): [piece] for q, piece in enumerate(Piece.parse(n) for n in ("wQ", "bA1", "wS1", "bG1", "wA1", "bS1"))}
LAMP = Lamp(300.0, -200.0, 900.0, size_mm=80.0)
SOLID = Conditions(solid=True, bevel_mm=1.0, lamps=(LAMP,), ambient=0.8, shadow=0.8, tilt_deg=25, azimuth_deg=30,
                   seed=2)


def _world(seed: int, **fixed) -> Conditions:
    return random_world(np.random.default_rng(seed), style="a", hand=False, **fixed)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_visible_top_is_labelled_with_its_colour(seed: int) -> None:
    _, truth = render_position(ROW, _world(seed, aim_mm=(0.0, 0.0)))
    assert len(truth.tiles) == len(ROW)
    for tile in truth.tiles:
        assert truth.labels[round(tile.px[1]), round(tile.px[0])] == TOP_LABEL[tile.colour], tile.cell


def test_clutter_and_sleeved_hands_are_labelled() -> None:
    cup = TableObject("cup", 0.0, 90.0, colour=(40.0, 40.0, 200.0))
    frame, truth = render_position(ROW, replace(SOLID, objects=(cup,), hand=True, sleeve=(200.0, 60.0, 20.0)),
                                   hand_at=(80.0, 0.0))
    on_cup = frame[truth.labels == Label.OBJECT].astype(int)
    assert len(on_cup) > 500 and np.median(on_cup[:, 2] - on_cup[:, 0]) > 20  # the red cup
    sleeve = frame[truth.labels == Label.HAND].astype(int)
    assert len(sleeve) > 2000 and (sleeve[:, 0] - sleeve[:, 2] > 60).mean() > 0.3  # much of the arm is blue sleeve


def test_basis_matches_neighbour_spacing_under_a_wide_lens() -> None:
    conditions = replace(_world(4), turn_deg=0.0, shift_mm=0.0, jitter=0.0, aim_mm=(0.0, 0.0), tilt_deg=30.0)
    assert conditions.hfov_deg == WIDE_HFOV_DEG or conditions.k1 <= 0.02
    wide = replace(conditions, hfov_deg=WIDE_HFOV_DEG, k1=-0.3, k2=0.09, height_mm=450.0)
    names = ["wA1", "bA1", "wA2", "bA2", "wA3", "bA3", "wQ"]
    line = {(q, 0): [Piece.parse(name)] for q, name in zip(range(-3, 4), names)}
    _, truth = render_position(line, wide)
    by_cell = {t.cell: t for t in truth.tiles}
    for q in range(-2, 3):
        spacing = np.subtract(by_cell[(q + 1, 0)].px, by_cell[(q - 1, 0)].px) / 2
        assert np.linalg.norm(by_cell[(q, 0)].basis[0] - spacing) < 0.03 * np.linalg.norm(spacing)


def test_solid_tiles_have_sides_of_their_faces_colour() -> None:
    frame, truth = render_position(ROW, SOLID)
    luma = frame.astype(float) @ [0.114, 0.587, 0.299]
    white_top, white_side = luma[truth.labels == Label.WHITE_TOP], luma[truth.labels == Label.WHITE_SIDE]
    black_side = luma[truth.labels == SIDE_LABEL[Colour.BLACK]]
    assert len(white_side) > 200 and len(black_side) > 200
    assert np.median(white_side) > 0.55 * np.median(white_top)  # ivory in shade, not a grey band
    assert np.median(black_side) < 60 and np.median(white_side) > 3 * np.median(black_side)
    lit_side = np.percentile(white_side, 90)
    assert lit_side > 0.8 * np.median(white_top)  # the side facing the lamp is nearly as bright as the top


def test_renders_are_reproducible_from_the_seed() -> None:
    conditions = _world(5)
    position = random_position(np.random.default_rng(5))
    first, truth = render_position(position, conditions)
    again, truth_again = render_position(position, conditions)
    other, _ = render_position(position, replace(conditions, seed=conditions.seed + 1))
    assert np.array_equal(first, again) and np.array_equal(truth.labels, truth_again.labels)
    assert not np.array_equal(first, other)


def test_a_tile_not_moved_lies_where_it_lay_while_the_sensor_noise_changes() -> None:
    conditions = replace(_world(6, aim_mm=(0.0, 0.0), turn_deg=8.0, shift_mm=1.5), layout_seed=11)
    camera = make_camera(ROW, conditions)
    first, truth = render_position(ROW, conditions, camera=camera)
    moved = {cell: stack for cell, stack in ROW.items() if cell != (5, 0)} | {(5, 1): ROW[5, 0]}
    later, truth_later = render_position(moved, replace(conditions, seed=conditions.seed + 1), camera=camera)
    relaid, truth_relaid = render_position(ROW, replace(conditions, layout_seed=12), camera=camera)
    centres = {t.cell: t.px for t in truth.tiles}
    still = {t.cell: t.px for t in truth_later.tiles if t.cell in centres}
    assert len(still) == 5 and all(centres[cell] == px for cell, px in still.items())
    assert not np.array_equal(first, later)  # a new frame: new noise
    assert max(np.hypot(*np.subtract(centres[t.cell], t.px)) for t in truth_relaid.tiles) > 0.5  # laid anew


def test_fitted_canvas_keeps_the_wide_lens_corners_sharp() -> None:
    canvas = np.pad(np.full((718, 1278), 255, np.uint8), 1)  # a black one-pixel frame round the canvas
    for fit, most_black in ((True, 0.001), (False, 1.0)):
        camera = SyntheticCamera.looking_at(np.zeros(2), 600, 0, 0, 0, k1=-0.3, k2=0.09, hfov_deg=WIDE_HFOV_DEG,
                                            fit_canvas=fit)
        black = (camera.apply_distortion(canvas) == 0).mean()
        assert (black < most_black) if fit else black > 0.01


def test_random_world_covers_its_ranges() -> None:
    rng = np.random.default_rng(0)
    worlds = [random_world(rng) for _ in range(400)]

    def spread(name: str) -> tuple[float, float]:
        values = [getattr(w, name) for w in worlds]
        return min(values), max(values)

    for name, low, high in (("height_mm", 350, 1000), ("tilt_deg", 0, 35), ("flats_mm", 24, 44),
                            ("thickness_mm", 5, 13), ("gap_mm", 0, 3), ("turn_deg", 0, 10), ("shift_mm", 0, 1.5),
                            ("gloss", 0, 1)):
        lo, hi = spread(name)
        assert low <= lo < low + (high - low) * 0.15 and high - (high - low) * 0.15 < hi <= high, name
    assert {w.hfov_deg for w in worlds} == {66.0, WIDE_HFOV_DEG}
    assert {len(w.lamps) for w in worlds} == {1, 2, 3} and {w.table for w in worlds} == set(PLANE_TABLES)
    assert {o.kind for w in worlds for o in w.objects} == {"cup", "phone"}
    assert {w.hand for w in worlds} == {True, False} and any(w.aim_mm != (0.0, 0.0) for w in worlds)
    assert all(w.solid and w.fit_canvas for w in worlds)


def test_positions_are_laid_as_people_lay_them() -> None:
    rng = np.random.default_rng(3)
    for _ in range(20):
        line = row(rng)
        for colour in Colour:
            cells = sorted(c for c, s in line.items() if s[0].colour is colour)
            if len(cells) > 1:
                step = np.subtract(cells[1], cells[0])
                assert tuple(step) in DIRECTIONS or tuple(-step) in DIRECTIONS
        cluster = blob(rng)
        assert all(any((q + dq, r + dr) in cluster for dq, dr in DIRECTIONS) for q, r in cluster)
        assert all(len(stack) <= MAX_STACK for stack in stacked(rng).values())
        laid = enrollment(rng)
        assert sorted(p.name for s in laid.values() for p in s) == sorted(p.name for p in Piece.ALL)
    openings = [opening(rng) for _ in range(40)]
    assert {len(first) for first in openings} == {1, 2, 3}
    for first in openings:  # single tiles, touching, no piece twice
        assert all(len(s) == 1 for s in first.values()) and len({s[0] for s in first.values()}) == len(first)
        assert len(first) == 1 or all(any((q + dq, r + dr) in first for dq, dr in DIRECTIONS) for q, r in first)
    game = game_positions("Base;InProgress;White[3];wS1;bG1 -wS1;wQ wS1/;bA1 -bG1")
    assert len(game) == 4 and len(game[-1]) == 4


def test_a_second_cluster_seeded_in_a_hole_of_the_first_fills_it_and_stops() -> None:
    cluster = blob(np.random.default_rng(7260))  # its black cluster starts in a one-cell hole of the white one
    colours = [stack[0].colour for stack in cluster.values()]
    assert colours.count(Colour.BLACK) == 1 and colours.count(Colour.WHITE) >= 5
    assert all(any((q + dq, r + dr) in cluster for dq, dr in DIRECTIONS) for q, r in cluster)


def test_a_crop_of_the_sensor_shows_its_part_of_the_whole_view_larger() -> None:
    wide = replace(SOLID, hfov_deg=WIDE_HFOV_DEG, k1=-0.3, k2=0.09, fit_canvas=True, height_mm=900.0,
                   aim_mm=(250.0, 120.0), noise=0.0, blur=0.0, jpeg=100)  # the hive off-centre: barrel-bent
    whole, truth = render_position(ROW, wide)
    x, y, zoom = 430.0, 250.0, 2.5
    crop, cropped = render_position(ROW, wide, view=(x, y, zoom))
    centres = {t.cell: np.asarray(t.px) for t in truth.tiles}
    assert len(cropped.tiles) == len(ROW)
    for tile in cropped.tiles:
        assert np.allclose(tile.px, (centres[tile.cell] - [x, y]) * zoom, atol=1e-6)
    assert cropped.pitch_px == pytest.approx(zoom * truth.pitch_px)
    shrunk = cv2.warpAffine(crop, np.float32([[1 / zoom, 0, x], [0, 1 / zoom, y]]), (1280, 720), flags=cv2.INTER_AREA)
    part = np.s_[round(y) + 2:round(y + 720 / zoom) - 2, round(x) + 2:round(x + 1280 / zoom) - 2]
    seen, again = (cv2.GaussianBlur(image[part], (0, 0), 2).astype(int) for image in (whole, shrunk))
    assert np.abs(seen - again).mean() < 10  # the same table and tiles, only sharper


def test_a_crop_in_a_wide_lens_corner_fills_its_frame() -> None:
    canvas = np.pad(np.full((718, 1278), 255, np.uint8), 1)  # a black one-pixel frame round the canvas
    camera = SyntheticCamera.looking_at(np.zeros(2), 600, 0, 0, 0, k1=-0.3, k2=0.09, hfov_deg=WIDE_HFOV_DEG,
                                        fit_canvas=True).cropped(0.0, 0.0, 2.0)
    assert (camera.apply_distortion(canvas) == 0).mean() < 0.001


def test_a_shorter_exposure_keeps_a_lamps_glare_in_the_tops_under_the_sensors_white() -> None:
    glossy = Conditions(height_mm=600, seed=4, solid=True, gloss=1.0, noise=0.0,
                        lamps=(Lamp(0.0, 0.0, 900.0, size_mm=20.0),))
    tops = {(0, 0): [Piece.parse("wQ")], (1, 0): [Piece.parse("bQ")]}
    metered, truth = render_position(tops, glossy)
    darker, _ = render_position(tops, replace(glossy, exposure=0.4))
    faces = (truth.labels == Label.WHITE_TOP) | (truth.labels == Label.BLACK_TOP)
    clipped = faces & (metered.min(axis=2) == 255)
    assert clipped.sum() > 50 and (darker[clipped].max(axis=1) < 255).all()  # the glare: white, then under it
    matte = replace(glossy, gloss=0.0)  # with no glare, the picture scales with the exposure
    metered, darker = (render_position(tops, replace(matte, exposure=share))[0][faces].astype(float)
                       for share in (1.0, 0.4))
    assert metered.max() < 255 and darker.sum() / metered.sum() == pytest.approx(0.4, abs=0.01)
