"""Tile-top art: procedural styles and their variations, icon sets fetched to var/art, set looks."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import cv2
import numpy as np
import pytest

from rules.pieces import Bug, Colour, Piece
from vision.render.art import FACE_RADIUS, STYLES, TEXTURE_PX, hex_corners, texture_for_icon, tile_texture
from vision.render.canvas import Label
from vision.render.icons import ART_DIR, ICON_SETS, POOL_SETS, icon_pool, made_up_set

PROCEDURAL_VARIANTS = [("a", 0), ("b", 0), ("a-var", 0), ("b-var", 0)] + [
    (style, v) for style in ("a-var", "b-var") for v in (1, 2, 3, 4)]
VARIANTS = (0, 1, 2, 3, 4, 5)


def _needs_art(style: str) -> None:
    """Skip unless benchmarks/fetch_art.py has drawn this icon set."""
    if not (ART_DIR / style).is_dir():
        pytest.skip(f"{style} art not fetched (run benchmarks/fetch_art.py)")


def _face_pixels(image: np.ndarray) -> np.ndarray:
    """Luma of the pixels well inside the face (bevel and any painted rim left out)."""
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(hex_corners(FACE_RADIUS * 0.82) + TEXTURE_PX / 2).astype(np.int32)], 255)
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[mask > 0].astype(int)


def _art_fraction(image: np.ndarray) -> float:
    """Share of the face that differs clearly (luma) from the face colour, taken as its median."""
    luma = _face_pixels(image)
    return float(np.mean(np.abs(luma - np.median(luma)) > 40))


def _distinct(textures: list[np.ndarray]) -> bool:
    return all(np.abs(a.astype(int) - b).mean() > 2 for a, b in combinations(textures, 2))


@pytest.mark.parametrize("style,variant", PROCEDURAL_VARIANTS)
def test_procedural_styles_draw_each_creature_differently(style: str, variant: int) -> None:
    for colour in Colour:
        assert _distinct([tile_texture(style, colour, bug, 0, variant=variant)[0] for bug in Bug])


def test_styles_a_and_b_never_vary_but_their_variations_do() -> None:
    for style in ("a", "b"):
        assert np.array_equal(tile_texture(style, Colour.WHITE, Bug.ANT, 2)[0],
                              tile_texture(style, Colour.WHITE, Bug.ANT, 2, variant=7)[0])
    looks = [tile_texture("a-var", Colour.WHITE, Bug.ANT, 2, variant=v)[0] for v in VARIANTS]
    assert _distinct(looks)


@pytest.mark.parametrize("style", STYLES)
def test_a_set_looks_the_same_on_every_tile_and_again_when_redrawn(style: str) -> None:
    if style in ICON_SETS:
        _needs_art(style)
    for variant in VARIANTS:
        faces = [tile_texture(style, Colour.WHITE, bug, 0, variant=variant)[0][TEXTURE_PX // 2, 12] for bug in Bug]
        assert all(np.array_equal(face, faces[0]) for face in faces)  # one face colour beside the art
    tile_texture.cache_clear()
    again = tile_texture(style, Colour.BLACK, Bug.SPIDER, 3, variant=4)[0]
    tile_texture.cache_clear()
    assert np.array_equal(again, tile_texture(style, Colour.BLACK, Bug.SPIDER, 3, variant=4)[0])


@pytest.mark.parametrize("style", [s for s in STYLES if s not in ("a", "b")])
def test_art_shows_on_black_and_white_faces(style: str) -> None:
    """Plain a and b keep their customary (sometimes dark) colours; every other style contrasts."""
    if style in ICON_SETS:
        _needs_art(style)
    for variant in VARIANTS:
        for colour in Colour:
            for bug in Bug:
                image = tile_texture(style, colour, bug, 1, variant=variant)[0]
                assert _art_fraction(image) > 0.04, (style, variant, colour, bug)


@pytest.mark.parametrize("name", ICON_SETS)
def test_every_icon_set_maps_all_eight_creatures_to_different_icons(name: str) -> None:
    creatures = ICON_SETS[name].creatures
    assert set(creatures) == set(Bug)
    assert len(set(creatures.values())) == len(Bug)
    assert not set(creatures.values()) & set(ICON_SETS[name].icon_names()[len(Bug) * len(ICON_SETS[name].weights):])


@pytest.mark.parametrize("style", ICON_SETS)
def test_icon_styles_draw_each_creature_differently_and_turn_it(style: str) -> None:
    _needs_art(style)
    for variant in (0, 1):
        textures = [tile_texture(style, Colour.WHITE, bug, 0, variant=variant)[0] for bug in Bug]
        assert _distinct(textures)
    upright, turned = (tile_texture(style, Colour.BLACK, Bug.GRASSHOPPER, t)[0] for t in (0, 1))
    assert np.abs(upright.astype(int) - turned).mean() > 2


@pytest.mark.parametrize("style", ICON_SETS)
def test_pool_icons_are_other_icons_drawn_as_tile_faces(style: str) -> None:
    _needs_art(style)
    pool = icon_pool(style)
    assert 40 <= len(pool) <= 80
    creature_files = {f"{icon}.png" for icon in ICON_SETS[style].creatures.values()}
    assert not {p.rsplit("/", 1)[-1] for p in pool} & creature_files
    image, mask = texture_for_icon(pool[0], Colour.BLACK, 2, style, 3)
    assert image.shape == (TEXTURE_PX, TEXTURE_PX, 3) and mask.shape == (TEXTURE_PX, TEXTURE_PX)
    assert _art_fraction(image) > 0.04


def test_missing_art_and_unknown_styles_are_clear_errors(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr("vision.render.icons.ART_DIR", tmp_path)
    tile_texture.cache_clear()
    with pytest.raises(ValueError, match="benchmarks/fetch_art.py"):
        tile_texture("twemoji", Colour.WHITE, Bug.QUEEN, 0)
    with pytest.raises(ValueError, match="unknown art style"):
        tile_texture("noto", Colour.WHITE, Bug.QUEEN, 0)
    with pytest.raises(ValueError, match="not an icon style"):
        texture_for_icon(str(tmp_path / "x.png"), Colour.WHITE, style="a")
    tile_texture.cache_clear()


def test_made_up_sets_are_eight_distinct_icons_and_never_a_blind_styles_art() -> None:
    from vision.training.generate import MADE_UP_SOURCES
    from vision.training.styles import BLIND_STYLES

    for name in MADE_UP_SOURCES:
        _needs_art(name)
    rng = np.random.default_rng(3)
    sources_seen = set()
    for _ in range(60):
        look, icons = made_up_set(rng, MADE_UP_SOURCES)
        assert look in ICON_SETS and look not in BLIND_STYLES
        assert len(set(icons)) == len(Bug) == len(icons)
        folders = {icon.rsplit("/", 2)[-2] for icon in icons}
        assert len(folders) == 1 and not folders & set(BLIND_STYLES)
        sources_seen |= folders
    assert set(POOL_SETS) <= sources_seen  # the pool sets are drawn from, not just the styles


def test_made_up_set_without_art_names_the_script(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setattr("vision.render.icons.ART_DIR", tmp_path)
    with pytest.raises(ValueError, match="benchmarks/fetch_art.py"):
        made_up_set(np.random.default_rng(0), ("tabler", "twemoji"))


def test_a_made_up_set_is_drawn_with_its_icons_one_per_creature() -> None:
    from vision.render.positions import Position
    from vision.render.scene import Conditions, render_position

    _needs_art("tabler")
    icons = tuple(icon_pool("tabler")[:len(Bug)])
    position: Position = {(q, 0): [Piece.get(Colour.WHITE, bug)] for q, bug in enumerate(Bug)}
    plain = Conditions(style="ph", height_mm=450.0)
    own, _ = render_position(position, plain)
    made_up, truth = render_position(position, replace(plain, icons=icons))
    again, _ = render_position(position, replace(plain, icons=icons[1:] + icons[:1]))
    tops = truth.labels == Label.WHITE_TOP
    assert np.abs(made_up.astype(int) - own)[tops].mean() > 5  # not the style's own creatures
    assert np.abs(made_up.astype(int) - again)[tops].mean() > 5  # each creature its own icon
