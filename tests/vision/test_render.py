"""The synthetic camera: projection geometry, stacks, art styles, hands, whole games."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from rules.pieces import Bug, Colour, Piece
from vision.render.art import tile_texture
from vision.render.camera import SyntheticCamera
from vision.render.game import game_frames
from vision.render.scene import GAP_MM, TILE_SIZES, TOP_LABEL, Conditions, Label, render_position

W_Q, B_A = Piece.parse("wQ"), Piece.parse("bA1")
CLEAN = Conditions(height_mm=600.0, shadow=0.0, jitter=0.0)


def test_overhead_tile_centres_follow_the_pinhole_model() -> None:
    frame, truth = render_position({(0, 0): [W_Q], (1, 0): [B_A]}, CLEAN)
    by_cell = {t.cell: t for t in truth.tiles}
    focal = 640 / math.tan(math.radians(33))
    pitch = TILE_SIZES["standard"][0] + GAP_MM
    top = 600 - TILE_SIZES["standard"][1]  # camera to tile tops, mm
    # the camera looks at the hive's middle: the two centres sit symmetric about the image centre
    (x0, y0), (x1, y1) = by_cell[(0, 0)].px, by_cell[(1, 0)].px
    assert math.hypot(x1 - x0, y1 - y0) == pytest.approx(focal * pitch / top, rel=0.01)
    assert ((x0 + x1) / 2, (y0 + y1) / 2) == pytest.approx((640, 360), abs=0.5)
    # around the glyph, the white queen's face is bright and the black ant's dark
    angles = np.linspace(0, 2 * np.pi, 36, endpoint=False)

    def ring(x: float, y: float) -> float:
        return float(np.median([frame[int(y + 24 * np.sin(a)), int(x + 24 * np.cos(a))].mean() for a in angles]))

    assert ring(x0, y0) > 200 and ring(x1, y1) < 60


def test_lens_distortion_moves_points_radially() -> None:
    straight = SyntheticCamera.looking_at(np.zeros(2), 600, 0, 0, 0)
    barrel = SyntheticCamera.looking_at(np.zeros(2), 600, 0, 0, 0, k1=-0.1)
    point = np.array([[200.0, 100.0, 0.0]])
    ideal, seen = straight.project(point)[0], barrel.project(point)[0]
    centre = np.array([640, 360])
    assert np.linalg.norm(seen - centre) < np.linalg.norm(ideal - centre)
    offset_ideal, offset_seen = ideal - centre, seen - centre
    assert offset_ideal[0] * offset_seen[1] == pytest.approx(offset_ideal[1] * offset_seen[0], rel=1e-6)


def test_stacked_tile_reports_its_height_and_top_piece() -> None:
    beetle = Piece.parse("bB1")
    _, truth = render_position({(0, 0): [W_Q, beetle], (1, 0): [B_A]}, Conditions(tilt_deg=25, jitter=0.0))
    top = {t.cell: t for t in truth.tiles}[(0, 0)]
    assert (top.colour, top.bug, top.height) == (Colour.BLACK, Bug.BEETLE, 2)
    assert len(truth.tiles) == 2  # the covered queen is not a visible top


def test_styles_draw_different_glyphs() -> None:
    size = tile_texture("a", Colour.WHITE, Bug.QUEEN, 0)[0].shape[0]
    ys, xs = np.mgrid[0:size, 0:size] - (size - 1) / 2
    inside_rim = np.hypot(xs, ys) < size * 0.36
    for bug in Bug:
        a = tile_texture("a", Colour.WHITE, bug, 0)[0].astype(int)
        b = tile_texture("b", Colour.WHITE, bug, 0)[0].astype(int)
        inked_a = (np.abs(a - 230).sum(axis=2) > 120) & inside_rim
        inked_b = (np.abs(b - 230).sum(axis=2) > 120) & inside_rim
        overlap = (inked_a & inked_b).sum() / max((inked_a | inked_b).sum(), 1)
        assert overlap < 0.6, bug


def test_unknown_style_is_rejected() -> None:
    with pytest.raises(ValueError, match="art style"):
        render_position({(0, 0): [W_Q]}, Conditions(style="z"))


def test_hand_over_a_tile_is_in_the_ground_truth() -> None:
    position = {(0, 0): [W_Q], (1, 0): [B_A]}
    frame, truth = render_position(position, Conditions(hand=True, seed=4), hand_at=(0.0, 0.0))
    assert truth.hand_occludes and {t.cell for t in truth.tiles if t.hidden_by_hand} >= {(0, 0)}
    hidden = {t.cell: t for t in truth.tiles}[(0, 0)]
    skin = frame[int(hidden.px[1]), int(hidden.px[0])].astype(int)
    assert skin[2] > skin[0] + 40  # skin is red-dominant, unlike the white face it hides


def test_game_frames_carry_each_move_then_rest() -> None:
    game = "Base;InProgress;White[3];wS1;bG1 -wS1;wQ wS1/;bA1 -bG1"
    frames = list(game_frames(game, seed=2, hand_frames=2, rest_frames=1))
    moves = [info.move for _, info in frames]
    hands = [info.hand for _, info in frames]
    assert len(frames) == 1 + 4 * 3  # start, then per move 2 hand frames and 1 resting frame
    assert hands[-1] is False and moves[-1] == 4 and len(frames[-1][1].truth.tiles) == 4
    assert hands[1:3] == [True, True] and moves[1:3] == [0, 0]


def test_labels_mark_tops_by_colour_and_the_hand() -> None:
    position = {(0, 0): [W_Q], (1, 0): [B_A], (3, 0): [Piece.parse("wS1")]}
    frame, truth = render_position(position, Conditions(hand=True, tilt_deg=20, k1=-0.1, seed=4), hand_at=(0.0, 0.0))
    for tile in truth.tiles:
        seen = truth.labels[round(tile.px[1]), round(tile.px[0])]
        assert seen in ({TOP_LABEL[tile.colour], Label.HAND} if tile.hidden_by_hand else {TOP_LABEL[tile.colour]})
    assert truth.hand_occludes and {int(v) for v in np.unique(truth.labels)} >= {0, 1, 2, 5}
    skin = frame[truth.labels == Label.HAND].astype(int)
    assert np.median(skin[:, 2] - skin[:, 0]) > 40  # hand pixels are skin-coloured


def test_basis_matches_the_spacing_of_neighbouring_centres() -> None:
    names = ["wA1", "bA1", "wA2", "bA2", "wA3", "bA3", "wQ"]
    row = {(q, 0): [Piece.parse(name)] for q, name in zip(range(-3, 4), names)}
    _, truth = render_position(row, Conditions(tilt_deg=30, azimuth_deg=50, yaw_deg=20, k1=-0.1, jitter=0.0))
    by_cell = {t.cell: t for t in truth.tiles}
    for q in range(-2, 3):
        spacing = (np.subtract(by_cell[(q + 1, 0)].px, by_cell[(q - 1, 0)].px)) / 2
        assert np.linalg.norm(by_cell[(q, 0)].basis[0] - spacing) < 0.02 * np.linalg.norm(spacing)
    assert truth.pitch_px == pytest.approx(np.median([np.linalg.norm(t.basis, axis=1).mean() for t in truth.tiles]))


def test_a_tall_stack_before_a_tile_hides_its_top_from_a_tilted_camera() -> None:
    stack = [Piece.parse(name) for name in ("wQ", "bB1", "wB1", "bB2", "wB2", "bM")]
    ring = {(1, 0): "wA1", (-1, 0): "wA2", (0, 1): "bA1", (0, -1): "bA2", (1, -1): "wS1", (-1, 1): "bS1"}
    position = {(0, 0): stack, **{cell: [Piece.parse(name)] for cell, name in ring.items()}}
    looks = Conditions(height_mm=450.0, thickness_mm=12.0, jitter=0.0, shadow=0.0)
    overhead = {t.cell: t.shown for t in render_position(position, looks)[1].tiles}
    assert min(overhead.values()) > 0.9  # from straight above, the stack's sides hide little
    tilted = {t.cell: t.shown for t in render_position(position, replace(looks, tilt_deg=35))[1].tiles}
    assert tilted[(0, 0)] == pytest.approx(1.0) and tilted[(-1, 0)] < 0.1  # the tile behind the stack
    assert sorted(tilted.values())[1] > 0.5  # ... and only that one is mostly hidden
