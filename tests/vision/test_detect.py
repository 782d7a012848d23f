"""Whole-frame recognition: creatures after one-photo enrollment, stacks, occlusion."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from rules.gametype import GameType
from rules.pieces import Bug, Colour, Piece
from vision.compare import align
from vision.creatures import EMBEDDING
from vision.detect import SECOND_LOOK, WHITE_CLASSES, Detector, doubtful, occluder_near_hive
from vision.enroll import enroll
from vision.features import CROP_PX
from vision.locate import Located, LocatedTile, locate_tiles
from vision.profile import CLASSES, CreatureProfile, demo_profile
from vision.still import MAX_VIEWS, REVIEW_EVERY
from vision.tile_size import SHARP_PITCH
from vision.render.photos import enrollment_photos
from vision.render.scene import Conditions, make_camera, random_conditions, render_position
from vision.render.world import random_world
from vision.tilemaps import CLASSES as MAP_CLASSES, HAND, OBJECT, STRIDE, TileMaps

NAMES = ["wQ", "bQ", "wA1", "bA1", "wG1", "bG1", "wS1", "bS1", "wB1", "bB1", "wM", "bM", "wL", "bL", "wP", "bP"]
# a ring-and-tail shape of all sixteen classes (vision needs no legal position)
CELLS = [(0, 0), (1, 0), (2, 0), (2, -1), (3, -1), (3, -2), (2, -2), (1, -1), (-1, 1), (-1, 2), (0, 2), (1, 1),
         (-2, 1), (-3, 2), (-3, 3), (-2, 3)]
POSITION = {cell: [Piece.parse(name)] for cell, name in zip(CELLS, NAMES)}


@pytest.fixture(scope="module")
def detector() -> Detector:
    """Style a, enrolled from one photo of the documented layout."""
    return Detector(enroll(enrollment_photos(1, seed=21, style="a")))


def read_against_truth(observation, truth) -> tuple[int, int, int]:
    """Up to a turn and shift of the lattice: how many tops are found in their cell with their
    colour, how many of those show the right creature, and how many sightings match no top."""
    true = {t.cell: t for t in truth.tiles}
    seen = {(s.q, s.r): s for s in observation.tiles}
    alignment = align({c: s.colour for c, s in seen.items()}, {c: t.colour for c, t in true.items()})
    placed = {alignment.apply(c): s for c, s in seen.items()}
    right = [c for c in true if c in placed and placed[c].colour is true[c].colour]
    return len(right), sum(placed[c].bug is true[c].bug for c in right), len(placed.keys() - true.keys())


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_all_sixteen_creature_classes_after_one_photo(detector: Detector, seed: int) -> None:
    """Every top found in its cell with its colour and creature, after enrolling from one photo."""
    assert {(s[-1].colour, s[-1].bug) for s in POSITION.values()} == {(c, b) for c in Colour for b in Bug}
    frame, truth = render_position(POSITION, random_conditions(np.random.default_rng(seed)))
    observation = detector.detect(frame, timestamp=2.5)
    located, creatures, phantoms = read_against_truth(observation, truth)
    assert not observation.occluded and observation.timestamp == 2.5
    assert (located, creatures, phantoms) == (16, 16, 0)


def test_a_detector_told_the_games_creatures_reads_no_other(detector: Detector) -> None:
    """Told a Base game's creatures, vision reads the six tops printed with a Mosquito, Ladybug or
    Pillbug as creatures the game has, and the ten others as before."""
    frame, truth = render_position(POSITION, random_conditions(np.random.default_rng(1)))
    base = Detector(detector.enrolled)
    base.expect(GameType.parse("Base").bugs)
    observation = base.detect(frame)
    assert {s.bug for s in observation.tiles} <= set(GameType.parse("Base").bugs)
    assert read_against_truth(observation, truth) == (16, 10, 0)


def test_a_lone_tile_turned_half_a_lattice_step_is_read(detector: Detector) -> None:
    """The game's first tile, turned 30 degrees: its crop is turned by its outline, not taken square."""
    frame, _ = render_position({(0, 0): [Piece.parse("bB1")]}, Conditions(height_mm=500, tilt_deg=15, yaw_deg=30, seed=33))
    detector.forget()
    tile, = detector.detect(frame).tiles
    assert (tile.colour, tile.bug) == (Colour.BLACK, Bug.BEETLE) and tile.confidence > 0.9


def test_beetle_on_a_stack_is_the_top_with_a_height_hint(detector: Detector) -> None:
    stack = [Piece.parse("wQ"), Piece.parse("bB1")]
    position = {(0, 0): stack, (1, 0): [Piece.parse("bA1")], (-1, 0): [Piece.parse("wG1")],
                (0, 1): [Piece.parse("wS1")], (1, -1): [Piece.parse("bQ")], (2, -1): [Piece.parse("wA1")],
                (-1, 1): [Piece.parse("bG1")], (2, 0): [Piece.parse("wL")]}
    frame, truth = render_position(position, Conditions(height_mm=550, tilt_deg=25, azimuth_deg=40, seed=5))
    observation = detector.detect(frame)
    true_px = {t.cell: t.px for t in truth.tiles}[(0, 0)]
    top = min(observation.tiles, key=lambda s: np.hypot(s.px[0] - true_px[0], s.px[1] - true_px[1]))
    assert top.colour is Colour.BLACK and top.height_hint >= 2
    assert all(s.height_hint == 1 for s in observation.tiles if s is not top)
    assert len(observation.tiles) == 8


def test_hand_over_the_hive_flags_the_frame(detector: Detector) -> None:
    position = POSITION
    flagged = 0
    for seed in range(3):
        conditions = random_conditions(np.random.default_rng(seed + 10), hand=True)
        frame, truth = render_position(position, conditions, hand_at=(0.0, 0.0))
        assert truth.hand_occludes
        flagged += detector.detect(frame).occluded
    assert flagged == 3


def test_clean_frames_are_not_flagged(detector: Detector) -> None:
    position = POSITION
    for seed in range(3):
        frame, _ = render_position(position, random_conditions(np.random.default_rng(seed + 20)))
        assert not detector.detect(frame).occluded


def _row_with_blob(cells: float, kind: int, faces: float, row: int, column: int) -> Located:
    """A row of four tops ``cells`` map cells apart (map row 24.5), and the tile map seeing a square
    blob of ``kind`` (a map class) ``faces`` tile faces big from map cell (``row``, ``column``)."""
    pitch = cells * STRIDE
    basis = pitch * np.array([[1.0, 0.0], [0.5, 0.866]])
    tiles = [LocatedTile((q, 0), np.array([200.0 + q * pitch, 200.0]), Colour.BLACK, 0.0, basis, 1, 0.0, 0.9)
             for q in range(4)]
    classes = np.zeros((len(MAP_CLASSES), 50, 60), np.float32)
    side = int(round(np.sqrt(faces * 0.87) * cells))
    classes[kind, row:row + side, column:column + side] = 1.0
    return Located(tiles, None, TileMaps(np.zeros((50, 60)), np.zeros((2, 50, 60)), np.zeros((50, 60)), classes))


@pytest.mark.parametrize("faces, cells, row, flagged", [(1.0, 2.5, 24, False), (3.0, 2.5, 24, True),
                                                       (4.0, 6.0, 24, True), (4.0, 6.0, 29, False)])
def test_a_still_object_over_the_hive_flags_the_frame_only_if_it_is_as_big_as_a_cup(faces: float, cells: float,
                                                                                      row: int, flagged: bool) -> None:
    """A cup is about four tile faces big; a dark top a dozen pixels wide (tiles ``cells`` map cells
    apart) that the map takes for a sliver of one is not an object over the hive, nor is a cup
    standing beside it: from map row 29, 0.74 pitches below the row of tiles 48 pixels apart, just
    clear of their corners (0.58), it hides no tile."""
    still = np.zeros((50, 60), bool)
    blob = _row_with_blob(cells, OBJECT, faces, row, 27)  # over the row's middle tiles, or below them
    assert occluder_near_hive(blob, still) is flagged


@pytest.mark.parametrize("faces, first_frame, flagged", [(1.0, True, False), (2.5, True, True),
                                                       (1.0, False, True), (0.3, False, False)])
def test_skin_by_the_hive_on_a_scenes_first_frame_is_a_hand_only_if_hand_sized(faces: float, first_frame: bool,
                                                                               flagged: bool) -> None:
    """On a scene's first frame every cell counts as moved, so a skin-coloured cup or wood grain by
    the hive cannot be told from a hand by its stillness: skin then counts only if it is at least
    FIRST_LOOK_HAND tile faces big (a hand reaching over tops is about two or more); once frames
    have shown what lies still, half a face of moving skin is a hand."""
    moved = np.ones((50, 60), bool)
    if not first_frame:
        moved[:20] = False  # the tiles' rows have been seen still; the skin moved
    assert occluder_near_hive(_row_with_blob(5.0, HAND, faces, 28, 30), moved) is flagged  # just below the row


def test_empty_table_and_table_with_only_a_hand(detector: Detector) -> None:
    empty, _ = render_position({}, Conditions(seed=1))
    observation = detector.detect(empty)
    assert observation.tiles == () and not observation.occluded
    hand, _ = render_position({}, Conditions(hand=True, seed=1), hand_at=(0.0, 0.0))
    assert detector.detect(hand).occluded


@pytest.mark.parametrize("style, mono", [("a-var", False), ("b-var", True)])  # no art to fetch: runs anywhere
def test_solid_tiles_in_touching_rows_after_one_photo(style: str, mono: bool) -> None:
    """Sides of the face's own material, no rim, glossy, coloured or one-colour (Carbon-like) art, enrolled
    from one photo: every top found with its colour, at most one phantom, at most one creature wrong."""
    solid = dict(style=style, mono=mono, art_variant=3, solid=True, bevel_mm=0.8, gap_mm=0.5, gloss=0.5,
                 flats_mm=40.0, thickness_mm=11.0)
    rng = np.random.default_rng(7)
    profile = enroll(enrollment_photos(1, seed=8, **solid))
    detector = Detector(profile)
    for _ in range(2):
        frame, truth = render_position(POSITION, random_conditions(rng, **solid))
        observation = detector.detect(frame)
        located, creatures, phantoms = read_against_truth(observation, truth)
        assert not observation.occluded
        assert located == 16 and phantoms <= 1 and creatures >= 15


def test_the_tile_maps_colour_weighs_in_on_each_read(detector: Detector) -> None:
    frame, _ = render_position(POSITION, Conditions(seed=3))
    located = locate_tiles(frame, detector.mapper)
    white = np.array([colour is Colour.WHITE for colour, _ in CLASSES])
    shares = []
    for map_white in (0.9, 0.1):
        located.tiles[:] = [replace(t, white=map_white) for t in located.tiles]
        detector.forget()
        shares.append(detector._class_weights(frame, located)[0][:, white].sum(axis=1))
    assert len(located.tiles) == len(POSITION) and bool(np.all(shares[0] > shares[1]))


def test_a_top_washed_out_by_glare_is_read_as_a_doubtful_guess(detector: Detector) -> None:
    frame, _ = render_position(POSITION, Conditions(seed=3))
    located = locate_tiles(frame, detector.mapper)
    detector.forget()
    before, guessed_before, _ = detector._class_weights(frame, located)
    washed = _washed(frame, located.tiles[0])
    detector.forget()
    after, guessed, tiles = detector._class_weights(washed, located)
    assert before[0].max() > 0.9 and after[0].max() <= 0.5 + 1e-6  # the referee will ask, not record
    assert np.array_equal(before[1:].argmax(axis=1), after[1:].argmax(axis=1))
    assert guessed.tolist() == [True] + [False] * (len(located.tiles) - 1) and not guessed_before.any()
    assert tiles == list(range(len(located.tiles)))  # a washed-out top is no less a tile


def _washed(frame: np.ndarray, tile: LocatedTile) -> np.ndarray:
    """``frame`` with ``tile``'s face washed out to the sensor's white, as by a lamp's glare."""
    washed = frame.copy()
    radius = int(0.45 * np.linalg.norm(tile.basis[0]))  # the whole face, all but its rim
    cv2.circle(washed, (int(tile.centre[0]), int(tile.centre[1])), radius, (252, 252, 252), -1)
    return washed


def test_a_top_whose_print_looks_nothing_like_the_sets_is_no_tile(detector: Detector) -> None:
    """A mat's printed logo letter taken for a top (the tile map found one hot beside a hive in a
    filmed game) is dropped, unless part of it lies beyond the frame's edge or the tiles look
    small (a top cut by the edge, or a blur, looks like nothing either); the real tops stay."""
    frame, _ = render_position(POSITION, Conditions(seed=3))
    located = locate_tiles(frame, detector.mapper)
    pitch = float(np.linalg.norm(located.tiles[0].basis[0]))
    inside, at_edge = np.array([frame.shape[1] - 70.0, frame.shape[0] - 70.0]), np.array([frame.shape[1] - 70.0, 8.0])
    centres = np.array([t.centre for t in located.tiles])
    for centre in (inside, at_edge):
        assert np.linalg.norm(centres - centre, axis=1).min() > 3 * pitch
        _print_logo(frame, centre, pitch)
    tile = located.tiles[0]
    small = replace(tile, centre=inside, basis=tile.basis * (SHARP_PITCH - 1) / pitch)
    logos = [replace(tile, centre=inside), replace(tile, centre=at_edge), small]
    detector.forget()
    weights, _, tiles = detector._class_weights(frame, replace(located, tiles=[*located.tiles, *logos]))
    count = len(located.tiles)
    assert tiles == [*range(count), count + 1, count + 2] and len(weights) == len(tiles)


def _print_logo(frame: np.ndarray, centre: np.ndarray, pitch: float) -> None:
    """A green letter O on a square of green rubber mat two pitches wide, round ``centre``."""
    corner = np.round(centre - pitch).astype(int)
    cv2.rectangle(frame, tuple(corner), tuple(corner + int(2 * pitch)), (30, 60, 30), -1)
    (width, height), _ = cv2.getTextSize("O", cv2.FONT_HERSHEY_DUPLEX, pitch / 40, 2)
    cv2.putText(frame, "O", (int(centre[0] - width / 2), int(centre[1] + height / 2)), cv2.FONT_HERSHEY_DUPLEX,
                pitch / 40, (60, 200, 120), 2, cv2.LINE_AA)


def test_doubtful_reads_stay_doubtful_whatever_the_colour_says() -> None:
    rng = np.random.default_rng(5)
    weights = rng.dirichlet(np.full(len(CLASSES), 0.1), 50)
    out = doubtful(weights)
    assert np.allclose(out.sum(axis=1), 1) and np.allclose(out[:, WHITE_CLASSES].sum(axis=1),
                                                           weights[:, WHITE_CLASSES].sum(axis=1))
    for colour in (WHITE_CLASSES, ~WHITE_CLASSES):
        assert np.array_equal(out[:, colour].argmax(axis=1), weights[:, colour].argmax(axis=1))
    for white in (0.0, 0.3, 1.0):  # the tile map's colour, weighed in afterwards
        seen = out * np.where(WHITE_CLASSES, white, 1 - white)
        assert np.all(seen.max(axis=1) / seen.sum(axis=1) <= 0.5 + 1e-6)


def test_an_unsure_read_is_settled_by_views_a_third_of_a_turn_away() -> None:
    """A print the network reads alike (and wrongly, unsurely) the right way up and turned half
    round is read from the crop turned a third of a turn each way too, where it reads surely."""
    axes = np.eye(EMBEDDING)
    profile = CreatureProfile.from_examples({kind: axes[[k]] for k, kind in enumerate(CLASSES)})
    right, wrong = CLASSES.index((Colour.WHITE, Bug.ANT)), CLASSES.index((Colour.WHITE, Bug.SPIDER))
    crop = np.zeros((CROP_PX, CROP_PX, 3), np.uint8)
    cv2.circle(crop, (CROP_PX - 8, CROP_PX // 2), 3, (255, 255, 255), -1)  # a mark showing the crop's turn

    def embed(crops: list[np.ndarray]) -> np.ndarray:
        """The mark along the first axis or half round from it: unsure of the wrong creature; else the right one."""
        out = []
        for seen in crops:
            y, x = np.unravel_index(int(np.argmax(seen[..., 0])), seen.shape[:2])
            sixths = round(np.degrees(np.arctan2(y - (CROP_PX - 1) / 2, x - (CROP_PX - 1) / 2)) / 60) % 3
            out.append(axes[right] if sixths else 0.52 * axes[wrong] + 0.5 * axes[right])
        return np.array(out) / np.linalg.norm(out, axis=1, keepdims=True)

    detector = Detector(profile)
    detector.embedder.embed = embed  # type: ignore[method-assign]
    alone = profile.class_weights([embed([crop])])[0]
    assert int(np.argmax(alone)) == wrong and alone.max() < SECOND_LOOK
    weights = detector._weighed([crop], [embed([crop])])
    assert int(np.argmax(weights[0])) == right


def test_a_still_board_is_read_alike_at_a_fraction_of_the_crops(detector: Detector) -> None:
    frame, _ = render_position(POSITION, Conditions(seed=4))
    embedded = []
    embed = detector.embedder.embed
    detector.embedder.embed = lambda crops: embedded.append(len(crops)) or embed(crops)  # type: ignore[method-assign]
    try:
        detector.forget()
        seen = [detector.detect(frame, 0.1 * i).tiles for i in range(MAX_VIEWS + 2 * REVIEW_EVERY)]
    finally:
        detector.embedder.embed = embed  # type: ignore[method-assign]
    labels = [[(s.q, s.r, s.colour, s.bug) for s in tiles] for tiles in seen]
    assert len(labels[0]) == len(POSITION) and all(frame_labels == labels[-1] for frame_labels in labels[MAX_VIEWS:])
    assert sum(embedded) < len(POSITION) * (MAX_VIEWS + 2 * REVIEW_EVERY / 2)


def test_tiles_the_record_names_teach_the_others_of_their_creature(detector: Detector) -> None:
    """Style b read with style a's profile: once the game record names the first tile of each
    creature, the second and third are read right too; a new profile forgets what was learnt."""
    names = ["wA1", "wA2", "wA3", "bA1", "bA2", "bA3", "wG1", "wG2", "wG3", "bG1", "bG2", "bG3",
             "wS1", "wS2", "bS1", "bS2", "wB1", "wB2", "bB1", "bB2"]
    cells = [(q, r) for r in range(-2, 2) for q in range(-2, 3)]
    position = {cell: [Piece.parse(name)] for cell, name in zip(cells, names)}
    frame, truth = render_position(position, Conditions(seed=1, style="b"))
    learner = Detector(detector.enrolled)
    centres = np.array([t.px for t in truth.tiles])

    def misread_others(frames: int) -> int:
        """Tiles numbered 2 or 3 read as another creature, after ``frames`` still frames."""
        for i in range(frames):
            seen = learner.detect(frame, 0.1 * i)
        misread = 0
        for sighting in seen.tiles:
            true = truth.tiles[int(np.argmin(np.linalg.norm(centres - sighting.px, axis=1)))]
            misread += position[true.cell][0].number > 1 and (sighting.colour, sighting.bug) != (true.colour, true.bug)
        return misread

    before = misread_others(MAX_VIEWS + 1)  # still long enough that reads are kept
    learner.learn([(t.px, position[t.cell][0]) for t in truth.tiles if position[t.cell][0].number == 1])
    after = misread_others(1)
    learner.use_profile(detector.enrolled)
    assert before >= 2 and after == 0 and misread_others(1) == before


def test_a_top_the_record_names_under_glare_teaches_nothing(detector: Detector) -> None:
    """A washed-out top looks like every other top under the glare: named by the record, it is
    not learnt as its creature (a printed one beside it is)."""
    frame, truth = render_position(POSITION, Conditions(seed=3))
    washed, printed = truth.tiles[0], truth.tiles[1]
    radius = int(0.45 * truth.pitch_px)  # the whole face, all but its rim
    cv2.circle(frame, (int(washed.px[0]), int(washed.px[1])), radius, (252, 252, 252), -1)
    learner = Detector(detector.enrolled)
    for i in range(3):
        learner.detect(frame, 0.1 * i)
    enrolled = len(learner.profile.vectors)
    learner.learn([(washed.px, POSITION[washed.cell][0])])
    assert len(learner.profile.vectors) == enrolled
    learner.learn([(washed.px, POSITION[washed.cell][0]), (printed.px, POSITION[printed.cell][0])])
    assert len(learner.profile.vectors) > enrolled


PRINTED_MAT = replace(random_world(np.random.default_rng(31), "a"), hand=False, objects=(), aim_mm=(0.0, 0.0),
                      bump_mm=(0.0, 0.0), layout_seed=7)  # a mat whose print the tile map takes for seven tiles
QUEEN_AT_CENTRE = {(0, 0): [Piece.parse("wQ")]}


def _film(detector: Detector, position: dict, frames: range) -> list:
    """The tiles ``detector`` reports on each of ``frames`` of ``position`` on PRINTED_MAT."""
    return [detector.detect(render_position(position, replace(PRINTED_MAT, seed=k))[0], 0.1 * k).tiles
            for k in frames]


def test_the_tables_print_is_looked_past_once_vision_hears_the_table_is_bare() -> None:
    """A mat's print the tile map takes for tiles (seven of them here) is not taken for the game's
    first tiles once vision hears that the table is bare (a new game begins on it); the first tile
    put down on the print is found all the same."""
    told, untold = Detector(demo_profile()), Detector(demo_profile())
    told.table_bare()
    assert all(_film(untold, {}, range(4))[2:])  # the print, taken for tiles
    assert not any(_film(told, {}, range(4))[2:])
    queen = _film(told, QUEEN_AT_CENTRE, range(4, 6))[-1]
    assert [(t.colour, t.bug) for t in queen] == [(Colour.WHITE, Bug.QUEEN)]


def test_a_tile_left_on_the_table_when_a_new_game_begins_is_not_taken_for_its_print() -> None:
    """A new game may begin before the last game's tiles are cleared away: told where they lie,
    vision does not take their spots for the table's print, so a tile of the new game put down
    there again (as its first tile often is) is found."""
    detector = Detector(demo_profile())
    _film(detector, QUEEN_AT_CENTRE, range(4))  # the last game's Queen
    detector.table_bare([render_position(QUEEN_AT_CENTRE, PRINTED_MAT)[1].tiles[0].px])
    _film(detector, QUEEN_AT_CENTRE, range(4, 6))  # the new game's first frames, the Queen not cleared away yet
    assert not any(_film(detector, {}, range(6, 10))[2:])  # cleared away: the print is looked past
    again = _film(detector, QUEEN_AT_CENTRE, range(10, 14))[-1]
    assert [(t.colour, t.bug) for t in again] == [(Colour.WHITE, Bug.QUEEN)]


def test_with_intrinsics_a_wide_lens_frame_is_read_as_it_was_taken() -> None:
    """A calibrated camera's frame is not resampled to a pinhole view (which reads worse: a wide
    lens's corners fall outside it and its tiles look stretched): the tops lie where the frame
    shows them, in the cells an unknown lens gives too."""
    conditions = Conditions(height_mm=420, tilt_deg=5, hfov_deg=102, k1=-0.3, k2=0.09, fit_canvas=True,
                            aim_mm=(220.0, -90.0), seed=3, style="b", solid=True, bevel_mm=0.8, gap_mm=0.3,
                            flats_mm=38.0, thickness_mm=10.0)
    frame, truth = render_position(POSITION, conditions)
    lens = make_camera(POSITION, conditions).intrinsics()
    shown = np.array([t.px for t in truth.tiles])
    assert np.linalg.norm(lens.undistort_points(shown) - shown, axis=1).max() > truth.pitch_px / 2
    calibrated, plain = (Detector(camera=camera).detect(frame) for camera in (lens, None))
    for tile in truth.tiles:
        assert min(np.hypot(s.px[0] - tile.px[0], s.px[1] - tile.px[1]) for s in calibrated.tiles) < 0.15 * truth.pitch_px
    seen = {s.cell: (s.colour, s.bug) for s in calibrated.tiles}
    assert align(seen, {s.cell: (s.colour, s.bug) for s in plain.tiles}).matched == len(seen) == len(truth.tiles)


class _Blind:
    """A tile map that misses the top at ``spot`` (frame pixels): no heat there, table all round
    (as the map did a black Ant on a mat's bright logo)."""

    def __init__(self, spot: tuple[float, float]) -> None:
        self.mapper, self.spot = Detector(demo_profile()).mapper, spot

    def maps(self, frame: np.ndarray) -> TileMaps:
        maps = self.mapper.maps(frame)
        x, y = (int(v // STRIDE) for v in self.spot)
        heat, classes = maps.heat.copy(), maps.classes.copy()
        heat[y - 5:y + 6, x - 5:x + 6] = 0.0
        classes[:, y - 5:y + 6, x - 5:x + 6] = 0.0
        classes[0, y - 5:y + 6, x - 5:x + 6] = 1.0
        return replace(maps, heat=heat, classes=classes)


def test_a_top_the_map_misses_on_a_table_seen_bare_is_found_by_what_changed_there() -> None:
    """Seen bare as a new game begins, the table shows where a hand put a tile down: the spot by
    the hive looks otherwise though the tile map sees only table, and its crop looks like the
    set's tops. A camera that never saw the table bare cannot tell."""
    view = Conditions(height_mm=450, tilt_deg=12, yaw_deg=25, seed=5, flats_mm=40.0)
    queen, pair = {(0, 0): [Piece.parse("wQ")]}, {(0, 0): [Piece.parse("wQ")], (1, 0): [Piece.parse("bA1")]}
    ant = render_position(pair, view)[1].tiles[1].px
    frames = [render_position(position, view)[0] for position in ({}, {}, queen, queen, queen)]
    frames.append(render_position(pair, replace(view, hand=True), hand_at=(40.0, 0.0))[0])  # the hand laying the Ant
    frames += [render_position(pair, view)[0]] * 3
    seen = {}
    for told in (True, False):
        detector = Detector(demo_profile())
        if told:
            detector.table_bare()
        detector.mapper = _Blind(ant)
        seen[told] = [detector.detect(frame, 0.1 * k) for k, frame in enumerate(frames)]
    assert seen[True][5].occluded
    assert {(t.colour, t.bug) for t in seen[True][-1].tiles} == {(Colour.WHITE, Bug.QUEEN), (Colour.BLACK, Bug.ANT)}
    assert [(t.colour, t.bug) for t in seen[False][-1].tiles] == [(Colour.WHITE, Bug.QUEEN)]


def test_a_spot_that_changed_with_no_hand_by_holds_nothing() -> None:
    """A tile can only be put down by hand: a spot by the hive that looks otherwise than when the
    table lay bare, with no hand since (a lamp switched on, a shadow come), is not taken for one."""
    view = Conditions(height_mm=450, tilt_deg=12, yaw_deg=25, seed=5, flats_mm=40.0)
    queen, pair = {(0, 0): [Piece.parse("wQ")]}, {(0, 0): [Piece.parse("wQ")], (1, 0): [Piece.parse("bA1")]}
    detector = Detector(demo_profile())
    detector.table_bare()
    detector.mapper = _Blind(render_position(pair, view)[1].tiles[1].px)
    for k, position in enumerate([{}, {}, queen, queen, queen, pair, pair, pair]):
        tiles = detector.detect(render_position(position, view)[0], 0.1 * k).tiles
    assert [(t.colour, t.bug) for t in tiles] == [(Colour.WHITE, Bug.QUEEN)]
