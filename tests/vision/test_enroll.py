"""Enrollment: matching any layout to the tops found in a photo, and the profile it gives."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.errors import CalibrationError
from calibration.layout import DEFAULT_LAYOUT, parse_layout
from rules.pieces import Bug, Colour
from vision import enroll as enrollment
from vision.enroll import Photo, enroll, place_layout
from vision.lattice import plane_points
from vision.profile import CLASSES as CLASSES_OF_SET
from vision.render import photos as render_photos
from vision.render.photos import enrolled_as_told, framed_photo, half_turned
from vision.render.scene import Conditions
from vision.tilemaps import BLACK_TOP, CLASSES, STRIDE, WHITE_TOP, Peak, TileMaps, cell_of

_ROWS = ("wQ wS1 wS2 wB1 wB2 wG1 wG2", "wG3 wA1 wA2 wA3 wM wL wP", "bQ bS1 bS2 bB1 bB2 bG1 bG2",
         "bG3 bA1 bA2 bA3 bM bL bP")
# four rows of seven touching tiles of one colour, the rows one cell apart (r = 0, 2, 4, 6)
ROWS = "\n".join(f"{k - row} {2 * row} {name}" for row, names in enumerate(_ROWS) for k, name in enumerate(names.split()))


def seen(layout: str, homography: np.ndarray, drop: int = 0) -> list[Peak]:
    """The tops a perfect tile map would report for ``layout`` seen through ``homography``."""
    cells = parse_layout(layout)
    centres = cv2.perspectiveTransform(plane_points(list(cells))[None], homography)[0]
    ends = cv2.perspectiveTransform(plane_points([(0, 0), (1, 0)])[None], homography)[0]
    pitch = float(np.linalg.norm(ends[1] - ends[0]))
    return [Peak(c, pitch, 0.9, 1.0 if piece.colour is Colour.WHITE else 0.0)
            for c, piece in list(zip(centres, cells.values()))[drop:]]


def camera(turn_deg: float, pitch: float, tilt: float) -> np.ndarray:
    """A layout-plane to pixel homography: turned, scaled, shifted, with some perspective."""
    c, s = np.cos(np.radians(turn_deg)), np.sin(np.radians(turn_deg))
    return np.array([[pitch * c, -pitch * s, 640], [pitch * s, pitch * c, 360], [tilt, 0.0, 1.0]])


@pytest.mark.parametrize("layout", [DEFAULT_LAYOUT, ROWS], ids=["block", "rows"])
@pytest.mark.parametrize("turn", [0.0, 37.0, 200.0])
def test_any_layout_at_any_turn_is_placed_exactly(layout: str, turn: float) -> None:
    homography = camera(turn, 46.0, 2e-4)
    placement = place_layout(seen(layout, homography), parse_layout(layout))
    cells = parse_layout(layout)
    assert set(placement.tops) == set(cells)
    for cell, top in placement.tops.items():
        assert np.allclose(placement.lattice.pixel(cell), top.centre, atol=0.5)


def test_a_scatter_with_gaps_is_placed() -> None:
    rng = np.random.default_rng(3)
    cells = parse_layout(DEFAULT_LAYOUT)
    spots = rng.permutation([(q, r) for q in range(-9, 9, 3) for r in range(-6, 6, 2)])[:len(cells)]
    scatter = "\n".join(f"{q} {r} {piece.name}" for (q, r), piece in zip(spots, cells.values()))
    placement = place_layout(seen(scatter, camera(75.0, 40.0, -1e-4)), parse_layout(scatter))
    assert len(placement.tops) == len(cells)


def test_a_scatter_bent_by_a_wide_lens_is_placed_to_its_far_corners() -> None:
    """A loose scatter (cells two apart) whose far corners a barrel lens bends over a pitch
    from where any homography of the rest puts them: each corner tile is found from where the tiles
    beside it lie (before, the two farthest were left out, and a creature with them)."""
    spots = [(q, r) for q in range(-8, 9, 2) for r in range(-4, 5, 2)][:28]
    cells = parse_layout(DEFAULT_LAYOUT)
    scatter = "\n".join(f"{q + (r // 2) % 2} {r} {piece.name}" for (q, r), piece in zip(spots, cells.values()))
    tops = seen(scatter, camera(20.0, 36.0, 0.0))
    middle = np.mean([top.centre for top in tops], axis=0)
    bent = [replace(top, centre=middle + (top.centre - middle) * (1 - 2.0e-6 * np.sum((top.centre - middle) ** 2)))
            for top in tops]
    shifts = [np.linalg.norm(b.centre - t.centre) / t.pitch for b, t in zip(bent, tops)]
    assert max(shifts) > 0.5  # the corners, bent well past where the placement looks (0.35 pitch)
    placement = place_layout(bent, parse_layout(scatter))
    assert len(placement.tops) == len(cells)
    assert all(placement.tops[cell] is top for cell, top in zip(parse_layout(scatter), bent))


def test_a_missing_piece_is_left_unplaced() -> None:
    placement = place_layout(seen(DEFAULT_LAYOUT, camera(10.0, 50.0, 0.0), drop=1), parse_layout(DEFAULT_LAYOUT))
    assert (0, 0) not in placement.tops and len(placement.tops) == 27
    assert np.allclose(placement.lattice.pixel((0, 0)), camera(10.0, 50.0, 0.0)[:2, 2], atol=1.0)


def test_tops_all_in_one_row_are_placed_without_perspective() -> None:
    """Only the first row of seven shows: no homography can be fitted to points on one line."""
    tops = seen(ROWS, camera(20.0, 45.0, 1e-4))[:7]
    placement = place_layout(tops, parse_layout(ROWS))
    assert len(placement.tops) == 7


def test_enrolling_needs_a_photo() -> None:
    with pytest.raises(CalibrationError, match="at least one photo"):
        enroll([])


def _maps(faces: dict[tuple[float, float], int]) -> TileMaps:
    """Maps of bare table but for a face of class ``faces[pixel]`` round each such pixel."""
    rows, cols = 720 // STRIDE, 1280 // STRIDE
    classes = np.zeros((len(CLASSES), rows, cols), np.float32)
    classes[0] = 1.0
    for pixel, face in faces.items():
        x, y = np.round(cell_of(np.array([pixel]))[0]).astype(int)
        classes[:, y - 1:y + 2, x - 1:x + 2] = 0.0
        classes[face, y - 1:y + 2, x - 1:x + 2] = 1.0
    return TileMaps(np.zeros((rows, cols)), np.zeros((2, rows, cols)), np.zeros((rows, cols)), classes)


def _enroll_seeing(monkeypatch, missing: set[str], faces: dict[str, int] | None = None, glared: set[str] = set(),
                   darker: bool = False, painted: set[str] = set()):
    """Enroll from a photo whose tile map finds the default layout's tops except the ``missing``
    pieces', and shows a face of class ``faces[name]`` where those pieces lie; each top shows a
    print (a cross; the ``painted`` ones a large flat pink disc) but the ``glared`` ones, white in the
    photo as under a lamp's glare, which with ``darker`` show theirs in the same view taken darker."""
    pieces = parse_layout(DEFAULT_LAYOUT).values()
    every = list(zip(seen(DEFAULT_LAYOUT, camera(0.0, 50.0, 0.0)), pieces))
    tops = [top for top, piece in every if piece.name not in missing]
    maps = _maps({tuple(top.centre): (faces or {})[piece.name] for top, piece in every if piece.name in (faces or {})})
    monkeypatch.setattr(enrollment, "tile_tops", lambda mapper, frame, threshold: (maps, tops))
    photo = np.full((720, 1280, 3), 128, np.uint8)
    dark = np.full((720, 1280, 3), 51, np.uint8)
    for top, piece in every:
        x, y = (int(v) for v in top.centre)
        if piece.name in glared:
            cv2.circle(photo, (x, y), 18, (255, 255, 255), -1)
            cv2.circle(dark, (x, y), 18, (200, 200, 200), -1)
        elif piece.name in painted:
            cv2.circle(photo, (x, y), 22, (180, 150, 230), -1)
        else:
            _print(photo, x, y)
        _print(dark, x, y)
    return enrollment.enroll([Photo(photo, dark) if darker else photo])


def _print(image: np.ndarray, x: int, y: int, ink: int = 20) -> None:
    """A creature's print (a cross of grey ``ink``) on the top at pixel (``x``, ``y``)."""
    cv2.line(image, (x - 12, y - 12), (x + 12, y + 12), (ink, ink, ink), 3)
    cv2.line(image, (x - 12, y + 12), (x + 12, y - 12), (ink, ink, ink), 3)


def test_a_piece_not_found_is_left_out_and_named(monkeypatch) -> None:
    profile = _enroll_seeing(monkeypatch, {"wA2"})
    assert "wA2 at" in profile.note and "left out" in profile.note
    assert len(profile.vectors) > 0


WHITE_ANT, WHITE_QUEEN = CLASSES_OF_SET.index((Colour.WHITE, Bug.ANT)), CLASSES_OF_SET.index((Colour.WHITE, Bug.QUEEN))


def test_a_top_under_glare_is_not_learnt_where_another_of_its_creature_shows(monkeypatch) -> None:
    plain = _enroll_seeing(monkeypatch, set())
    profile = _enroll_seeing(monkeypatch, set(), glared={"wA2"})
    assert "no print showing (glare?), left out: wA2 in photo 1 - move the lamp" in profile.note
    ants = lambda p: int((p.labels == WHITE_ANT).sum())  # noqa: E731
    assert ants(profile) == ants(plain) * 2 // 3  # two Ants of three learnt


def test_a_creature_whose_every_top_shows_no_print_is_an_error_naming_it(monkeypatch) -> None:
    """The set's only White Queen, washed out: learnt as a blank face, it would read the washed-out
    tops of a game as Queens, and the real Queen as something else."""
    with pytest.raises(CalibrationError, match=r"no print shows on any White Queen Bee \(wQ in photo 1: a lamp's glare"):
        _enroll_seeing(monkeypatch, set(), glared={"wQ", "wA2"})


def test_a_large_flat_print_is_learnt_not_taken_for_glare(monkeypatch) -> None:
    """twemoji's pink Ladybug fills a black top's middle: flat, but no washed-out face."""
    profile = _enroll_seeing(monkeypatch, set(), painted={"wQ"})
    assert "no print" not in profile.note and (profile.labels == WHITE_QUEEN).any()


def test_tops_under_glare_are_learnt_from_the_same_view_taken_darker(monkeypatch) -> None:
    plain = _enroll_seeing(monkeypatch, set())
    profile = _enroll_seeing(monkeypatch, set(), glared={"wQ", "wA2"}, darker=True)
    assert "glare" not in profile.note
    assert (profile.labels == WHITE_ANT).sum() == (plain.labels == WHITE_ANT).sum()
    queen = profile.art.crops[profile.art.labels == WHITE_QUEEN][0]
    assert queen.min() < 60 < 150 < queen.max()  # the darker view's print, not the photo's white or grey
    assert not np.allclose(profile.vectors[profile.labels == WHITE_QUEEN], plain.vectors[plain.labels == WHITE_QUEEN])


def test_a_darker_view_of_another_size_than_its_photo_is_an_error(monkeypatch) -> None:
    monkeypatch.setattr(enrollment, "tile_tops", lambda mapper, frame, threshold: (_maps({}), seen(DEFAULT_LAYOUT, camera(0.0, 50.0, 0.0))))
    photo = np.full((720, 1280, 3), 128, np.uint8)
    with pytest.raises(CalibrationError, match="photo 1: its darker view is not a colour image of the photo's size"):
        enroll([Photo(photo, photo[:360])])


def test_a_creature_no_photo_shows_is_an_error_naming_it(monkeypatch) -> None:
    with pytest.raises(CalibrationError, match=r"no photo shows a White Queen.*wQ at \(0, 0\)"):
        _enroll_seeing(monkeypatch, {"wQ"})


def test_too_many_pieces_missing_is_an_error(monkeypatch) -> None:
    with pytest.raises(CalibrationError, match="5 of 28 layout pieces not found") as raised:
        _enroll_seeing(monkeypatch, {"wA1", "wA2", "wA3", "bA1", "bA2"})
    assert "closer" not in str(raised.value)  # tiles big enough: no hint to move the camera


def test_a_piece_with_no_top_found_is_taken_where_the_map_shows_its_face(monkeypatch) -> None:
    """Dark tiles on a dark mat: no centre found, but a face of their colour where the layout puts them."""
    missing = {"wA1", "wA2", "wA3", "bA1", "bA2"}
    faces = {name: WHITE_TOP if name[0] == "w" else BLACK_TOP for name in missing}
    profile = _enroll_seeing(monkeypatch, missing, faces)
    assert "left out" not in profile.note
    faces["bA2"] = WHITE_TOP  # a face of the other colour is not that piece
    faces["wA3"] = 0  # nor is bare table
    profile = _enroll_seeing(monkeypatch, missing, faces)
    assert "bA2 at" in profile.note and "wA3 at" in profile.note and "wA1 at" not in profile.note


def test_a_piece_the_map_calls_table_is_taken_where_its_face_has_its_colour(monkeypatch) -> None:
    """Black tiles beside a cloth's flowers that the map calls table: no centre and no face class,
    but where the layout puts them the photo shows the colour of the other black tops, not the
    table's. A spot showing the table's colour is still left out (the piece is not there)."""
    pieces = parse_layout(DEFAULT_LAYOUT).values()
    every = list(zip(seen(DEFAULT_LAYOUT, camera(0.0, 50.0, 0.0)), pieces))
    photo = np.full((720, 1280, 3), (60, 120, 90), np.uint8)  # a green table
    for top, piece in every:
        shade = 225 if piece.colour is Colour.WHITE else 40
        cv2.circle(photo, tuple(int(v) for v in top.centre), 20, (shade, shade, shade), -1)
        _print(photo, *(int(v) for v in top.centre), ink=255 - shade)
    hidden = {"bA1", "bM", "wA2"}
    table = next(top for top, piece in every if piece.name == "wA2")
    cv2.circle(photo, tuple(int(v) for v in table.centre), 20, (60, 120, 90), -1)  # wA2 is not laid out
    tops = [top for top, piece in every if piece.name not in hidden]
    monkeypatch.setattr(enrollment, "tile_tops", lambda mapper, frame, threshold: (_maps({}), tops))
    profile = enrollment.enroll([photo])
    assert "wA2 at" in profile.note and "bA1" not in profile.note and "bM" not in profile.note


def test_a_photo_whose_tiles_are_too_small_to_learn_from_says_how_much_closer_to_come() -> None:
    """Pocket tiles under a wide lens from 1.8 m lie 7 pixels apart: found (at twice the size),
    but too small to learn their creatures from. Coming as close as the error says works."""
    far = Conditions(height_mm=1800, tile_size="pocket", hfov_deg=102, seed=3)
    with pytest.raises(enrollment.TooFar, match=r"only [5-9] pixels apart.*bring the camera to about") as raised:
        enroll([framed_photo(DEFAULT_LAYOUT, far)])
    assert 0.15 < raised.value.nearer < 0.3
    profile, moved = enrolled_as_told(DEFAULT_LAYOUT, far)
    assert "not found" not in profile.note  # the photo taken again that near, where the camera stays
    assert moved.height_mm == pytest.approx(far.height_mm * raised.value.nearer)


def test_tiles_just_too_small_are_refused_even_when_every_piece_is_found(monkeypatch) -> None:
    """Tiles 26 pixels apart are read in play, but the print learnt from them is a blur: the
    photo is refused, asking for tiles 28 pixels apart."""
    pieces = parse_layout(DEFAULT_LAYOUT).values()
    tops = seen(DEFAULT_LAYOUT, camera(30.0, 26.0, 0.0))
    monkeypatch.setattr(enrollment, "tile_tops", lambda mapper, frame, threshold: (_maps({}), tops))
    with pytest.raises(enrollment.TooFar, match="only 26 pixels apart, and tiles 28 or more pixels apart are needed: "
                                                "bring the camera to about 84 %") as raised:
        enrollment.enroll([np.full((720, 1280, 3), 128, np.uint8)])
    assert raised.value.nearer == pytest.approx(0.9 * 26 / 28, abs=0.01) and len(tops) == len(pieces)


def test_tiles_too_small_in_a_layout_that_fills_the_view_ask_for_a_tighter_one(monkeypatch) -> None:
    """A loose scatter through the wide lens, tiles 26 pixels apart across the whole photo: coming
    near enough for 28 would cut it off, so the advice is a tighter layout or the normal lens."""
    loose = "\n".join(f"{6 * q} {6 * r} {piece.name}" for (q, r), piece in parse_layout(DEFAULT_LAYOUT).items())
    tops = [replace(top, centre=top.centre - [620, 200]) for top in seen(loose, camera(0.0, 26.0, 0.0))]
    assert 0 < min(top.centre[0] for top in tops) and max(top.centre[0] for top in tops) < 1280
    monkeypatch.setattr(enrollment, "tile_tops", lambda mapper, frame, threshold: (_maps({}), tops))
    with pytest.raises(enrollment.TooFar, match="the layout no longer fits in view: lay the pieces closer together"):
        enrollment.enroll([np.full((720, 1280, 3), 128, np.uint8)], loose)


def test_a_piece_missed_at_the_photos_size_is_looked_for_twice_as_large(monkeypatch) -> None:
    """A small tile the first look misses (here the only White Queen): the closer look that
    shows every piece is the one enrolled."""
    pieces = parse_layout(DEFAULT_LAYOUT).values()
    every = list(zip(seen(DEFAULT_LAYOUT, camera(0.0, 50.0, 0.0)), pieces))
    near = [replace(top, centre=top.centre * enrollment.CLOSER, pitch=top.pitch * enrollment.CLOSER)
            for top, _ in every]
    far = [top for top, piece in every if piece.name != "wQ"]
    maps = _maps({})
    monkeypatch.setattr(enrollment, "tile_tops",
                        lambda mapper, frame, threshold: (maps, near if frame.shape[1] > 1280 else far))
    photo = np.full((720, 1280, 3), 128, np.uint8)
    for top, _ in every:
        _print(photo, *(int(v) for v in top.centre))
    assert "not found" not in enrollment.enroll([photo]).note


def test_pieces_missed_at_both_sizes_of_small_tiles_say_how_near_to_come(monkeypatch) -> None:
    """Nothing found at the photo's size, and at twice the size tiles 21 pixels apart (in the
    photo) with five pieces missing: the error names them and how near to come."""
    pieces = parse_layout(DEFAULT_LAYOUT).values()
    every = list(zip(seen(DEFAULT_LAYOUT, camera(0.0, 42.0, 0.0)), pieces))
    near = [top for top, piece in every if piece.name not in {"wG2", "bS1", "bG3", "bA1", "bA2"}]
    monkeypatch.setattr(enrollment, "tile_tops",
                        lambda mapper, frame, threshold: (_maps({}), near if frame.shape[1] > 1280 else []))
    with pytest.raises(enrollment.TooFar, match=r"5 of 28 layout pieces not found: wG2 at.*only 21 pixels apart"
                       r".*32 or more pixels apart are found reliably.*about 59 %") as raised:
        enrollment.enroll([np.full((720, 1280, 3), 128, np.uint8)])
    assert raised.value.nearer == pytest.approx(0.9 * 21 / 32, abs=0.01)


def test_the_block_turned_half_round_is_the_same_layout() -> None:
    turned = parse_layout(half_turned(ROWS))
    assert turned[(0, 0)].name == "wQ" and turned[(-6, 0)].name == "wG2" and turned[(-3, -6)].name == "bP"
    assert parse_layout(half_turned(half_turned(ROWS))) == parse_layout(ROWS)


def test_a_user_told_to_add_a_photo_of_the_block_turned_half_round_enrolls_both(monkeypatch) -> None:
    """The simulated user's second photo shows the block turned half round, and the same layout
    text finds every piece in it: twice the examples of one photo."""
    conditions = Conditions(seed=11)
    one, two = (enrolled_as_told(DEFAULT_LAYOUT, conditions, photos)[0] for photos in (1, 2))
    assert "not found" not in two.note
    assert len(two.vectors) == 2 * len(one.vectors)
    photos: list[Photo] = []
    monkeypatch.setattr(render_photos, "enroll", lambda images, layout: photos.extend(images) or one)
    enrolled_as_told(DEFAULT_LAYOUT, conditions, 2)
    assert np.array_equal(photos[1].image, framed_photo(half_turned(DEFAULT_LAYOUT), conditions).image)
    assert not np.array_equal(photos[0].image, photos[1].image)
