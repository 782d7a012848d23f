"""Decoding the tile map network's output: centres, pitch and colour from raw maps."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import tilemaps
from vision.tilemaps import (BLACK_TOP, MAP_CHANNELS, OBJECT, STRIDE, WHITE_TOP, Hint, Peak, TileMapper, cell_of, decode,
                             map_shape, peak_at,
                             peaks, pixel_of, tile_tops, tops_and_faint)

FRAME = (720, 1280, 3)


def raw_maps(tops: list[tuple[float, float, bool]], pitch_px: float = 48.0, cells: tuple[int, int] = (96, 160)
             ) -> np.ndarray:
    """Raw network output with a sharp heat peak at each (x, y, white) top, in frame pixels; ``cells``
    (rows, cols): padded, as the network answers for a 1280x720 frame."""
    rows, cols = cells
    raw = np.full((1, MAP_CHANNELS, rows, cols), -8.0, np.float32)
    raw[0, 3] = np.log(pitch_px / STRIDE)
    raw[0, 4] = 4.0  # table everywhere ...
    for x, y, white in tops:
        (u, v), = cell_of(np.array([[x, y]]))
        j, i = int(round(u)), int(round(v))
        raw[0, 0, i, j] = 6.0
        raw[0, 1, i, j], raw[0, 2, i, j] = u - j, v - i
        raw[0, 4 + (WHITE_TOP if white else BLACK_TOP), i - 1:i + 2, j - 1:j + 2] = 9.0  # ... but on the tops
    return raw


def test_cell_and_pixel_coordinates_are_inverse() -> None:
    points = np.array([[0.0, 0.0], [13.3, 700.2], [1279.0, 5.5]])
    assert np.allclose(pixel_of(cell_of(points)), points)


def test_peaks_give_subcell_centres_pitch_and_colour() -> None:
    tops = [(300.4, 200.7, True), (348.9, 201.2, False), (640.0, 500.0, True)]
    maps = decode(raw_maps(tops), FRAME)
    assert maps.heat.shape == (90, 160)
    found = sorted(peaks(maps), key=lambda p: p.centre[0])
    assert len(found) == 3
    for peak, (x, y, white) in zip(found, sorted(tops)):
        assert np.allclose(peak.centre, (x, y), atol=0.01)
        assert abs(peak.pitch - 48.0) < 0.01
        assert (peak.white > 0.5) == white


def test_weak_heat_gives_no_peak_and_only_the_top_is_not_table() -> None:
    raw = raw_maps([(100.0, 100.0, True)])
    raw[0, 0] = np.minimum(raw[0, 0], -1.0)  # heat 0.27 at most
    maps = decode(raw, FRAME)
    assert peaks(maps) == []
    assert maps.not_table().sum() == 9


def test_a_peak_over_what_does_not_look_like_a_tile_top_is_dropped() -> None:
    """Heat over bare table (a printed pattern, a tile's side) is no tile: the top must look like one."""
    raw = raw_maps([(300.0, 200.0, True), (600.0, 200.0, False)])
    (u, v), = cell_of(np.array([[600.0, 200.0]]))
    j, i = int(round(u)), int(round(v))
    raw[0, 4 + BLACK_TOP, i - 1:i + 2, j - 1:j + 2] = -8.0  # the second peak's patch shows table
    found = peaks(decode(raw, FRAME))
    assert [tuple(np.round(p.centre)) for p in found] == [(300.0, 200.0)]


def test_a_missing_network_file_says_how_to_train_it(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="missing.onnx: this network is missing .*train tilemap"):
        TileMapper(tmp_path / "missing.onnx")


def test_the_default_network_is_the_one_model_path_names_when_made(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(tilemaps, "MODEL_PATH", tmp_path / "candidate.onnx")  # as vision_bench --tilemap does
    with pytest.raises(FileNotFoundError, match="candidate.onnx: this network is missing"):
        TileMapper()


class _FixedMapper:
    """A TileMapper stand-in answering the same raw maps for any frame (cut to the frame's size)."""

    def __init__(self, raw: np.ndarray) -> None:
        self.raw, self.looks = raw, []

    def maps(self, frame: np.ndarray):
        self.looks.append(frame.shape[:2])
        return decode(self.raw, frame.shape)


def test_small_tops_with_faint_tile_classes_get_their_second_look() -> None:
    """Tops 20 px apart whose patches are only 40 % tile: the region to look at again comes from the
    tops themselves (no single patch passes for tile)."""
    raw = raw_maps([(600.0, 300.0, True), (620.0, 300.0, False)], pitch_px=20.0)
    raw[0, 4:] = -8.0
    raw[0, 4], raw[0, 4 + WHITE_TOP], raw[0, 4 + BLACK_TOP] = np.log(0.6), np.log(0.2), np.log(0.2)
    mapper = _FixedMapper(raw)
    maps, _ = tile_tops(mapper, np.zeros(FRAME, np.uint8))
    assert maps.heat.shape == (90, 160)
    first, second = mapper.looks
    assert first == (720, 1280) and second[0] < 720 and second[1] < 1280  # twice the size of a small region


@pytest.mark.parametrize("pitch_px, looks", [(40.0, 2), (60.0, 1)])
def test_tops_under_48_pixels_apart_come_from_a_second_look_twice_as_large(pitch_px: float, looks: int) -> None:
    """At 32-48 pixels a tile the map misses some tops on busy tables and invents others: its
    region is looked at again, twice as large; tops farther apart are read from the first look."""
    tops = [(600.0, 300.0, True), (600.0 + pitch_px, 300.0, False)]
    mapper = _FixedMapper(raw_maps(tops, pitch_px=pitch_px))
    _, found = tile_tops(mapper, np.zeros(FRAME, np.uint8))
    assert len(mapper.looks) == looks
    if looks == 2:
        height, width = mapper.looks[1]
        assert height % 2 == width % 2 == 0 and height < 720 and width < 1280  # the tops' region, doubled
    else:
        assert sorted(tuple(np.round(p.centre)) for p in found) == [(600.0, 300.0), (660.0, 300.0)]


@pytest.mark.parametrize("pitch_px, looks", [(40.0, 1), (24.0, 2)])
def test_a_lone_top_gets_a_second_look_only_under_32_pixels(pitch_px: float, looks: int) -> None:
    """A lone top's pitch is only its own guess: the first tile of a game, some 53 pixels wide but
    guessed 44, came out of a look twice as large (beyond the map's range) as three tops."""
    mapper = _FixedMapper(raw_maps([(600.0, 300.0, True)], pitch_px=pitch_px))
    _, found = tile_tops(mapper, np.zeros(FRAME, np.uint8))
    assert len(mapper.looks) == looks
    if looks == 1:
        assert [tuple(np.round(p.centre)) for p in found] == [(600.0, 300.0)]


def test_faint_heat_with_no_top_gets_a_second_look_and_an_empty_table_does_not() -> None:
    """No patch hot enough for a top, but a few faintly hot ones (a hive too small for this scale): the
    region round them is looked at again, twice as large; with nothing faint either, no second look."""
    raw = raw_maps([(600.0, 300.0, True)], pitch_px=14.0)
    raw[0, 0] = np.minimum(raw[0, 0], np.log(0.2 / 0.8))  # heat 0.2 at most: under the top threshold
    raw[0, 4:] = -8.0
    raw[0, 4] = 4.0  # table everywhere
    mapper = _FixedMapper(raw)
    _, found = tile_tops(mapper, np.zeros(FRAME, np.uint8))
    assert found == []  # the stand-in answers the same faint heat at any size
    first, second = mapper.looks
    assert first == (720, 1280) and second[0] < 720 and second[1] < 1280
    raw[0, 0] = -8.0
    mapper = _FixedMapper(raw)
    tile_tops(mapper, np.zeros(FRAME, np.uint8))
    assert mapper.looks == [(720, 1280)]


def test_faint_candidates_are_the_weak_peaks_and_those_over_table_and_not_the_tops() -> None:
    raw = raw_maps([(300.0, 200.0, True), (500.0, 200.0, False), (700.0, 200.0, True)])
    (u, v), = cell_of(np.array([[500.0, 200.0]]))
    raw[0, 0, int(round(v)), int(round(u))] = np.log(0.27 / 0.73)  # heat 0.27: under the top threshold
    (u, v), = cell_of(np.array([[700.0, 200.0]]))
    j, i = int(round(u)), int(round(v))
    raw[0, 4 + WHITE_TOP, i - 1:i + 2, j - 1:j + 2] = -8.0  # its patch shows table
    maps, found, faint = tops_and_faint(_FixedMapper(raw), np.zeros(FRAME, np.uint8), 0.35, 0.2)
    assert [tuple(np.round(p.centre)) for p in found] == [(300.0, 200.0)]
    assert sorted(tuple(np.round(p.centre)) for p in faint) == [(500.0, 200.0), (700.0, 200.0)]
    assert [round(p.score, 2) for p in sorted(faint, key=lambda p: p.centre[0])][0] == 0.27
    assert sorted(faint, key=lambda p: p.centre[0])[1].share < 0.3 < found[0].share


def test_peak_at_reads_heat_and_colour_where_a_top_is_taken_to_lie() -> None:
    maps = decode(raw_maps([(300.0, 200.0, False)]), FRAME)
    near = peak_at(maps, np.array([305.0, 203.0]), 48.0)  # the hot patch lies within a third of a pitch
    assert near.score > 0.99 and near.white < 0.5 and near.share > 0.3
    bare = peak_at(maps, np.array([600.0, 400.0]), 48.0)
    assert bare.score < 0.01 and bare.share < 0.01
    edge = peak_at(maps, np.array([-20.0, 900.0]), 48.0)  # off the frame: read at its nearest patch
    assert edge.score < 0.01


def test_tops_under_16_pixels_apart_are_looked_at_three_times_as_large() -> None:
    """Zoomed twice, tiles 12 px apart would still lie under the 32 px the network reads reliably."""
    looks = {}
    for pitch in (20.0, 12.0):
        raw = raw_maps([(600.0, 300.0, True), (600.0 + pitch, 300.0, False)], pitch_px=pitch)
        mapper = _FixedMapper(raw)
        tile_tops(mapper, np.zeros(FRAME, np.uint8))
        looks[pitch] = mapper.looks[1]
    assert looks[12.0][1] > 1.4 * looks[20.0][1]  # three times against twice a region of about the same width


def test_where_nothing_looks_like_a_tile_the_hint_says_where_to_look_again() -> None:
    """No heat anywhere (tiles a dozen pixels wide vanish at the map's quarter scale): without a hint,
    one look; with the whole frame as hint, a second look at all of it twice as large; with a box of
    tiles 12 px apart, a look at that box three times as large."""
    raw = raw_maps([])
    looks = {}
    for name, hint in (("none", None), ("everywhere", Hint()), ("box", Hint((500, 200, 600, 300), 12.0))):
        mapper = _FixedMapper(raw)
        tile_tops(mapper, np.zeros(FRAME, np.uint8), hint=hint)
        looks[name] = mapper.looks
    assert looks == {"none": [(720, 1280)], "everywhere": [(720, 1280), (1440, 2560)],
                     "box": [(720, 1280), (300, 300)]}


def test_a_faint_patch_that_shows_no_top_larger_does_not_stop_the_hint() -> None:
    """A faintly hot patch (a flower printed on the cloth) is looked at again first; where that shows
    no top either, the hint is looked at too."""
    raw = raw_maps([(600.0, 300.0, True)], pitch_px=14.0)
    raw[0, 0] = np.minimum(raw[0, 0], np.log(0.2 / 0.8))  # faint heat, never a top
    raw[0, 4:] = -8.0
    raw[0, 4] = 4.0
    mapper = _FixedMapper(raw)
    tile_tops(mapper, np.zeros(FRAME, np.uint8), hint=Hint())
    assert len(mapper.looks) == 3 and mapper.looks[1] < (720, 1280) and mapper.looks[2] == (1440, 2560)


class _TwoScaleMapper:
    """A TileMapper stand-in answering ``whole`` for the whole frame and ``larger`` for any other look."""

    def __init__(self, whole: np.ndarray, larger: np.ndarray) -> None:
        self.whole, self.larger = whole, larger

    def maps(self, frame: np.ndarray):
        return decode(self.whole if frame.shape[:2] == FRAME[:2] else self.larger, frame.shape)


def test_the_frames_maps_take_the_larger_looks_answer_over_its_region() -> None:
    """Tiles 20 px apart, which the frame's own look reads as a cup all round: the look at twice
    the size, which sees table round them, has the last word there (heat too); elsewhere the
    frame's own answer stands."""
    whole = raw_maps([(600.0, 300.0, True), (620.0, 300.0, False)], pitch_px=20.0)
    whole[0, 4 + OBJECT] = 6.0
    maps, _, _ = tops_and_faint(_TwoScaleMapper(whole, raw_maps([])), np.zeros(FRAME, np.uint8), 0.35, 0.2)
    (near_x, near_y), (top_x, top_y), (far_x, far_y) = np.round(cell_of(np.array(
        [[640.0, 300.0], [600.0, 300.0], [100.0, 100.0]]))).astype(int)
    assert maps.classes[OBJECT, near_y, near_x] < 0.01 and maps.classes[0, near_y, near_x] > 0.99
    assert maps.heat[top_y, top_x] < 0.01  # the larger look found no top there
    assert maps.classes[OBJECT, far_y, far_x] > 0.8


class _BlobMapper:
    """A TileMapper stand-in that sees the frame's red squares (a mat's print) as tops at any scale,
    and its green ones (tiles) only once they are at least TILE_SEEN_PX wide in the look."""

    TILE_SEEN_PX = 20

    def maps(self, frame: np.ndarray):
        tops = []
        for channel, least in ((2, 0), (1, self.TILE_SEEN_PX)):
            _, _, stats, centres = cv2.connectedComponentsWithStats((frame[..., channel] > 128).astype(np.uint8))
            tops += [(x, y, True) for (x, y), width in zip(centres[1:], stats[1:, cv2.CC_STAT_WIDTH]) if width >= least]
        return decode(raw_maps(tops, 16.0, map_shape(frame.shape)), frame.shape)


def test_tops_known_to_be_the_tables_print_do_not_stop_the_look_for_small_tiles_elsewhere() -> None:
    """A mat's logo the map takes for small tops, and a lone tile too small for the map's own look:
    the logo, once ``off_print`` drops it, no longer counts as the tiles found, so the hint's look at
    the whole frame twice as large is made and finds the tile; without ``off_print`` it stands for
    them and the tile stays unseen."""
    frame = np.zeros(FRAME, np.uint8)
    frame[140:160, 190:210] = (0, 0, 255)  # the logo
    frame[354:366, 634:646] = (0, 255, 0)  # a tile 12 pixels wide

    def logo(found: list[Peak]) -> list[Peak]:
        return [peak for peak in found if np.linalg.norm(peak.centre - (200, 150)) > 20]

    _, plain, _ = tops_and_faint(_BlobMapper(), frame, 0.35, 0.2, Hint())
    _, looked_past, _ = tops_and_faint(_BlobMapper(), frame, 0.35, 0.2, Hint(), logo)
    assert len(plain) == 1 and np.linalg.norm(plain[0].centre - (200, 150)) < 2
    assert len(looked_past) == 1 and np.linalg.norm(looked_past[0].centre - (640, 360)) < 2
