"""The live loop: newest frame first, no backlog, recovery from an unplugged camera."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest
from webhelpers import wait_for

from rules import RuleOptions
from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour, Piece
from rules.referee import RefereeConfig
from rules.setup import Setup
from vision.sources import FrameSource, SourceError
from vision.zoom import WANTED_PITCH, WHOLE, View
from webui import live as live_module
from webui.game import GameService
from webui.hub import Hub
from webui.live import LiveLoop
from webui.store import GameStore


class Service:
    """Stands in for GameService: keeps observations and camera states."""

    def __init__(self) -> None:
        self.observed: list[Observation] = []
        self.camera: list[str] = []
        self.messages: list[str] = []
        self.hub = Hub()
        self.config = RefereeConfig()

    def stamp(self) -> tuple[int, float]:
        return 1, time.monotonic()

    def observe(self, observation: Observation, game_id: int | None = None) -> list:
        assert game_id == 1
        self.observed.append(observation)
        return []

    def set_camera(self, status: str, message: str) -> None:
        self.camera.append(status)
        self.messages.append(message)


class Camera(FrameSource):
    """Numbered 8x8 frames as fast as asked; ``unplug`` makes reads fail and ``fail_opens`` opens fail."""

    name = "fake"

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.unplugged = threading.Event()
        self.fail_opens = 0

    def _open(self) -> None:
        if self.fail_opens:
            self.fail_opens -= 1
            raise SourceError("fake: not there")

    def _read(self) -> np.ndarray:
        if self.unplugged.is_set():
            raise SourceError("fake: unplugged")
        time.sleep(0.002)
        self.count += 1
        return np.full((8, 8, 3), self.count % 256, np.uint8)


def slow_recognise(frame: np.ndarray, timestamp: float) -> Observation:
    time.sleep(0.03)
    return Observation((), False, timestamp, {"frame": int(frame[0, 0, 0])})


@pytest.fixture(autouse=True)
def quick_backoff(monkeypatch):
    monkeypatch.setattr(live_module, "BACKOFF_SECONDS", (0.05, 0.1))


def test_slow_vision_drops_stale_frames():
    service, camera = Service(), Camera().open()
    loop = LiveLoop(camera, slow_recognise, service).start()
    time.sleep(0.6)
    loop.stop()
    assert loop.frames_processed >= 5
    assert loop.frames_read > 3 * loop.frames_processed  # most frames were skipped, none queued
    stamps = [o.timestamp for o in service.observed]
    assert stamps == sorted(stamps)


def test_unplugged_camera_is_reopened_and_the_page_told():
    service, camera = Service(), Camera().open()
    loop = LiveLoop(camera, slow_recognise, service).start()
    wait_for(lambda: loop.frames_processed >= 2, 5, "first frames")
    camera.fail_opens = 2
    camera.unplugged.set()
    wait_for(lambda: "reconnecting" in service.camera, 5, "a reconnecting status")
    camera.unplugged.clear()
    wait_for(lambda: service.camera[-1] == "ok", 5, "the camera back")
    before = loop.frames_processed
    wait_for(lambda: loop.frames_processed > before + 2, 5, "frames after the reconnect")
    loop.stop()
    assert service.camera[0] == "ok" and service.camera.count("reconnecting") >= 2


def test_a_frame_that_fails_does_not_stop_the_loop():
    service, camera = Service(), Camera().open()
    calls = []

    def flaky(frame: np.ndarray, timestamp: float) -> Observation:
        calls.append(1)
        if len(calls) == 2:
            raise ValueError("garbled frame")
        return slow_recognise(frame, timestamp)

    loop = LiveLoop(camera, flaky, service).start()
    wait_for(lambda: loop.frames_processed >= 4, 5, "frames after the failure")
    loop.stop()
    assert loop.errors == 1
    assert service.camera[-2:] == ["error", "ok"]  # the page was told, then told it is over


def test_a_frame_failure_that_repeats_is_logged_and_shown_once(caplog):
    service, camera = Service(), Camera().open()

    def wrong_size(frame: np.ndarray, timestamp: float) -> Observation:
        raise ValueError("frame is 8x8 but the camera was calibrated at 640x480")

    loop = LiveLoop(camera, wrong_size, service).start()
    wait_for(lambda: loop.errors >= 5, 5, "several failed frames")
    loop.stop()
    assert service.camera.count("error") == 1
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "\n" not in errors[0] and "calibrated at 640x480" in errors[0]


def test_tiles_too_small_to_read_are_warned_of_with_how_near_to_come():
    service, camera = Service(), Camera().open()
    spacing = [15.0]

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        time.sleep(0.01)
        tops = tuple(TileSighting(q, 0, Colour.WHITE, Bug.ANT, px=(100 + spacing[0] * q, 100.0)) for q in range(3))
        return Observation(tops, False, timestamp)

    loop = LiveLoop(camera, recognise, service).start()
    wait_for(lambda: "warn" in service.camera, 5, "a warning")
    assert "only 15 pixels apart" in service.messages[-1] and "about 68 % of its distance" in service.messages[-1]
    spacing[0] = 40.0  # the camera brought nearer
    wait_for(lambda: service.camera[-1] == "ok", 5, "the warning cleared")
    loop.stop()
    assert service.camera.count("warn") == 1  # said once, not every frame


def test_glare_on_the_tops_is_warned_of_while_it_lasts():
    service, camera = Service(), Camera().open()
    under_glare = [[(100.0, 100.0), (140.0, 100.0)]]

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        time.sleep(0.01)
        tops = tuple(TileSighting(q, 0, Colour.WHITE, Bug.ANT, px=(100 + 40.0 * q, 100.0)) for q in range(3))
        return Observation(tops, False, timestamp)

    loop = LiveLoop(camera, recognise, service, glare=lambda: under_glare[0]).start()
    wait_for(lambda: "warn" in service.camera, 5, "a warning")
    assert "glare washes out 2 tops" in service.messages[-1] and "move the lamp" in service.messages[-1]
    under_glare[0] = []  # the lamp moved
    wait_for(lambda: service.camera[-1] == "ok", 5, "the warning cleared")
    loop.stop()
    assert service.camera.count("warn") == 1  # said once, not every frame


def test_skipped_images_of_a_folder_are_shown_and_the_folder_ends(tmp_path):
    import cv2

    from vision.sources import FolderSource

    for name in ("a.png", "c.png"):
        cv2.imwrite(str(tmp_path / name), np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "b.png").write_bytes(b"damaged")
    service = Service()
    messages = []
    service.set_camera = lambda status, message: messages.append((status, message))
    loop = LiveLoop(FolderSource(tmp_path, fps=20).open(), slow_recognise, service).start()
    wait_for(lambda: messages and messages[-1][0] == "ended", 5, "the end of the folder")
    loop.stop()
    assert loop.frames_read == 2
    assert any(status == "warn" and "1 unreadable image(s) skipped, the last b.png" in message
               for status, message in messages)


def test_preview_is_a_jpeg_of_the_processed_frame():
    service, camera = Service(), Camera().open()
    loop = LiveLoop(camera, slow_recognise, service)
    assert loop.preview_jpeg() is None
    loop.start()
    wait_for(lambda: loop.frames_processed >= 1, 5, "a frame")
    loop.stop()
    assert loop.preview_jpeg()[:2] == b"\xff\xd8"


def test_a_camera_missing_at_start_is_waited_for():
    service, camera = Service(), Camera()  # not open: as if unplugged at boot
    camera.fail_opens = 2
    loop = LiveLoop(camera, slow_recognise, service).start()
    wait_for(lambda: loop.frames_processed >= 2, 5, "frames once the camera is there")
    loop.stop()
    assert service.camera[:3] == ["reconnecting", "reconnecting", "ok"]


def test_a_frame_taken_before_a_new_game_is_not_fed_to_the_new_referee(service):
    old_game, late = service.stamp()
    service.new_game("Base", RuleOptions(), "Cy", "Di")
    assert service.observe(Observation((), False, late + 50.0), old_game) == []
    game, now = service.stamp()
    events = [e for t in (0.1, 0.2, 0.3, 0.4) for e in service.observe(Observation((), False, now + t), game)]
    # the stale frame never reached the new referee, whose clock would then "go back"
    assert game != old_game and events and all(e["time"] > now for e in events)
    assert service.referee.record.moves == []


class RecordingService(Service):
    """A Service whose record names tops: ``moves`` recorded so far and ``tops`` of the last view."""

    def __init__(self) -> None:
        super().__init__()
        self.moves, self.tops, self.away = 0, [], []

    def record_key(self) -> tuple:
        return 1, self.moves

    def identified(self) -> list:
        return list(self.tops)

    def explained_away(self) -> list:
        return list(self.away)


def test_vision_learns_from_the_record_once_per_move_and_never_in_doubt():
    service, camera, learnt = RecordingService(), Camera().open(), []
    loop = LiveLoop(camera, slow_recognise, service, learnt.append).start()
    wait_for(lambda: loop.frames_processed >= 2, 5, "first frames")
    queen = [((10.0, 20.0), Piece.parse("wQ"))]
    service.moves, service.tops = 1, queen
    wait_for(lambda: len(learnt) == 1, 5, "the first move learnt")
    service.moves, service.tops = 2, []  # a move recorded, but the view does not show it yet
    seen = loop.frames_processed
    wait_for(lambda: loop.frames_processed > seen + 3, 5, "frames in doubt")
    service.tops = queen + [((30.0, 20.0), Piece.parse("bQ"))]
    wait_for(lambda: len(learnt) == 2, 5, "the second move learnt")
    seen = loop.frames_processed
    wait_for(lambda: loop.frames_processed > seen + 3, 5, "more frames of the same position")
    loop.stop()
    assert learnt == [queen, service.tops]


def test_vision_is_told_once_per_move_where_the_record_took_a_tile_for_the_table():
    """A move recorded with the table seen through a hole of the hive left out: vision is told
    where (``look_past``) once, and the tops of that view are not learnt (they are not all pieces)."""
    service, camera, learnt, told = RecordingService(), Camera().open(), [], []
    loop = LiveLoop(camera, slow_recognise, service, learnt.append, look_past=told.append).start()
    wait_for(lambda: loop.frames_processed >= 2, 5, "first frames")
    service.away = [(50.0, 60.0)]
    service.moves = 1  # after the hole: the move and what it took for the table come together
    wait_for(lambda: len(told) == 1, 5, "the hole told")
    seen = loop.frames_processed
    wait_for(lambda: loop.frames_processed > seen + 3, 5, "more frames of the same position")
    service.moves, service.away = 2, []
    seen = loop.frames_processed
    wait_for(lambda: loop.frames_processed > seen + 3, 5, "the next move's frames")
    loop.stop()
    assert told == [[(50.0, 60.0)]] and learnt == []


def test_the_service_names_the_tops_of_the_recorded_position(service):
    game, now = service.stamp()
    grasshopper = TileSighting(0, 0, Colour.WHITE, Bug.GRASSHOPPER, 0.95, 1, (320.0, 240.0))
    for step in range(8):
        service.observe(Observation((grasshopper,), False, now + 0.1 * step), game)
    assert [m.uhp for m in service.referee.record.moves] == ["wG1"]
    assert service.record_key() == (game, 1)
    assert service.identified() == [((320.0, 240.0), Piece.parse("wG1"))]


def test_vision_hears_each_games_creatures_before_reading_its_frames(service):
    """Vision is told the game's creatures before its first frame is read (a Base game has no
    Mosquito, Ladybug or Pillbug), and again when a game of another type begins."""
    told: list[tuple[Bug, ...]] = []
    heard: list[int] = []  # how many times vision had been told, as each frame was read

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        heard.append(len(told))
        return slow_recognise(frame, timestamp)

    loop = LiveLoop(Camera().open(), recognise, service, expect=lambda bugs: told.append(tuple(bugs))).start()
    wait_for(lambda: loop.frames_processed >= 2, 5, "first frames")
    service.new_game("Base+MLP", RuleOptions())
    wait_for(lambda: len(told) == 2, 5, "the new game's creatures")
    seen = loop.frames_processed
    wait_for(lambda: loop.frames_processed > seen + 2, 5, "frames of the new game")
    loop.stop()
    base = (Bug.QUEEN, Bug.SPIDER, Bug.BEETLE, Bug.GRASSHOPPER, Bug.ANT)
    assert [set(bugs) for bugs in told] == [set(base), {*base, Bug.MOSQUITO, Bug.LADYBUG, Bug.PILLBUG}]
    assert heard[0] == 1


def test_a_new_game_on_the_empty_board_tells_vision_where_the_last_games_tiles_lay(data_dir):
    """Vision hears that the table is bare when a new game begins on the empty board, but for the
    tops the last game's record names (they may not be cleared away yet); a game begun from the
    position on the table tells it nothing (its tiles are on the table)."""
    told: list = []
    service = GameService(GameStore(data_dir / "games.sqlite3"), Hub(), RefereeConfig(stable_seconds=0.2),
                          table_bare=told.append)
    game, now = service.stamp()
    grasshopper = TileSighting(0, 0, Colour.WHITE, Bug.GRASSHOPPER, 0.95, 1, (320.0, 240.0))
    for step in range(8):
        service.observe(Observation((grasshopper,), False, now + 0.1 * step), game)
    service.new_game("Base", RuleOptions())
    service.new_game("Base", RuleOptions())
    service.new_game("Base", RuleOptions(), setup=Setup.parse("b 0,0:wQ 1,0:bQ"))
    assert told == [[(320.0, 240.0)], []]


class CroppingCamera(Camera):
    """A camera that can crop its sensor: a view asked for shows from the eleventh frame on (a
    little off, rounded to its sensor's pixels), and each frame's corner pixel says whether it
    is zoomed; ``asked`` holds each view asked for and how many frames had been recognised then."""

    def __init__(self, recognised: list) -> None:
        super().__init__()
        self.recognised = recognised
        self.asked: list[tuple[View, int]] = []
        self.due: list[View] = []

    def set_view(self, view: View) -> bool:
        self.asked.append((view, len(self.recognised)))
        self.due = [self.view] * 10 + [View(round(view.x), round(view.y), view.zoom * 1.001)]  # as set on the sensor
        return True

    def _read(self) -> np.ndarray:
        time.sleep(0.002)
        self.view = self.due.pop(0) if self.due else self.view
        frame = np.zeros((720, 1280, 3), np.uint8)
        frame[0, 0] = 0 if self.view == WHOLE else 1
        return frame


def test_a_hive_that_looks_small_is_zoomed_on_and_the_recogniser_starts_afresh():
    service, told, seen = Service(), [], []
    camera = CroppingCamera(seen).open()

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        time.sleep(0.005)
        zoomed = bool(frame[0, 0, 0])
        seen.append(zoomed)
        spacing = 40.0 if zoomed else 15.0
        tops = tuple(TileSighting(q, 0, Colour.WHITE, Bug.ANT, px=(600 + spacing * q, 360.0)) for q in range(3))
        return Observation(tops, False, timestamp)

    loop = LiveLoop(camera, recognise, service, look_through=lambda view: told.append((view, len(seen)))).start()
    wait_for(lambda: seen.count(True) >= 5, 5, "zoomed frames")
    loop.stop()
    (view, asked), = camera.asked
    assert view.zoom == pytest.approx(WANTED_PITCH / 15.0)
    first = seen.index(True)
    assert first == asked and all(seen[first:])  # the frames taken before the turn were passed over
    (shown, at), = told
    assert shown.near(view) and at == first  # the recogniser was told of the new view before its first frame
    assert any(f"zoomed {WANTED_PITCH / 15.0:.1f}x on the hive" in message for message in service.messages)


class UnpluggedWhenAsked(CroppingCamera):
    """A cropping camera found unplugged at the very moment the first view is asked for."""

    def set_view(self, view: View) -> bool:
        if not self.asked and self.view == WHOLE:
            self.asked.append((view, -1))
            self.close()  # as the camera thread does when a read fails
            return False
        return super().set_view(view)


def test_a_camera_unplugged_as_a_view_is_asked_for_is_zoomed_once_back():
    service, seen = Service(), []
    camera = UnpluggedWhenAsked(seen).open()

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        time.sleep(0.005)
        seen.append(bool(frame[0, 0, 0]))
        tops = tuple(TileSighting(q, 0, Colour.WHITE, Bug.ANT, px=(600 + 15.0 * q, 360.0)) for q in range(3))
        return Observation(tops, False, timestamp)

    loop = LiveLoop(camera, recognise, service).start()
    wait_for(lambda: True in seen, 5, "zoomed frames after the camera came back")
    loop.stop()
    assert camera.asked[0][1] == -1 and len(camera.asked) == 2  # refused while unplugged, asked again once back


class ExposingCamera(Camera):
    """A camera whose exposure can be set: a share asked for shows from the fourth frame on (and
    for three frames after the next ask), each frame's value saying its exposure in percent;
    ``asked`` holds each share asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[float] = []
        self.due: list[float] = []

    def set_exposure(self, share: float) -> bool:
        self.asked.append(share)
        self.due = [self.exposure] * 3 + [share]
        return True

    def _read(self) -> np.ndarray:
        time.sleep(0.002)
        self.exposure = self.due.pop(0) if self.due else self.exposure
        return np.full((8, 8, 3), round(100 * self.exposure), np.uint8)


class Darker:
    """Stands in for the detector's darker-frame reading: wants one while a top shows no print."""

    def __init__(self) -> None:
        self.printless, self.read = True, []

    def wants_darker(self) -> bool:
        return self.printless

    def read_darker(self, frame: np.ndarray) -> Observation:
        self.read.append(int(frame[0, 0, 0]))
        self.printless = False  # read now: no top is a guess any more
        return Observation((), False, 0.0)


def test_tops_without_print_are_read_from_one_darker_frame_the_camera_is_asked_for():
    service, camera, darker, recognised = Service(), ExposingCamera().open(), Darker(), []

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        time.sleep(0.005)
        recognised.append(int(frame[0, 0, 0]))
        return Observation((), False, timestamp)

    loop = LiveLoop(camera, recognise, service, darker=darker).start()
    wait_for(lambda: len(camera.asked) == 2 and recognised.count(100) >= 10, 5, "the darker frame taken")
    loop.stop()
    assert camera.asked == [live_module.DARKER, 1.0]  # darker once, then as settled again
    assert darker.read == [round(100 * live_module.DARKER)]  # one darker frame read
    assert set(recognised) == {100}  # the darker frames are never read as the board


class DeafToExposure(ExposingCamera):
    """A camera that takes each exposure asked for and keeps delivering frames as before (as one
    unplugged and back at its settled exposure would); ``at`` holds how many frames had come then."""

    def __init__(self) -> None:
        super().__init__()
        self.at: list[int] = []

    def set_exposure(self, share: float) -> bool:
        self.asked.append(share)
        self.at.append(self.count)
        return True

    def _read(self) -> np.ndarray:
        self.count += 1
        return super()._read()


def test_a_darker_frame_that_never_comes_is_asked_for_again():
    service, camera, darker = Service(), DeafToExposure().open(), Darker()
    loop = LiveLoop(camera, slow_recognise, service, darker=darker).start()
    wait_for(lambda: len(camera.asked) >= 2, 10, "a second ask")
    loop.stop()
    assert camera.asked[:2] == [live_module.DARKER] * 2 and darker.read == []
    assert camera.at[1] - camera.at[0] > live_module.STALE_FRAMES  # not before the first had time to come


def test_enrollment_gets_a_darker_frame_of_the_view_and_the_camera_is_exposed_as_before():
    service, camera, recognised = Service(), ExposingCamera().open(), []

    def recognise(frame: np.ndarray, timestamp: float) -> Observation:
        recognised.append(int(frame[0, 0, 0]))
        return Observation((), False, timestamp)

    loop = LiveLoop(camera, recognise, service).start()
    wait_for(lambda: loop.latest_frame() is not None, 5, "a first frame")
    darker = loop.darker_frame()
    # the camera goes on delivering darker frames for a few more: a photo taken now is still not one
    assert int(loop.latest_frame()[0, 0, 0]) == 100
    wait_for(lambda: recognised.count(100) >= 10, 5, "frames exposed as settled again")
    loop.stop()
    assert darker is not None and int(darker[0, 0, 0]) == round(100 * live_module.DARKER)
    assert camera.asked == [live_module.DARKER, 1.0]
    assert set(recognised) == {100}  # a darker frame taken for enrollment is not read as the board


def test_no_darker_frame_for_enrollment_from_a_camera_whose_exposure_cannot_be_set_or_that_ignores_it():
    service = Service()
    plain = LiveLoop(Camera().open(), slow_recognise, service).start()
    deaf_camera = DeafToExposure().open()
    deaf = LiveLoop(deaf_camera, slow_recognise, service).start()
    try:
        assert plain.darker_frame() is None
        assert deaf.darker_frame(timeout=0.3) is None
        assert deaf_camera.asked == [live_module.DARKER, 1.0]  # set back even so
    finally:
        plain.stop()
        deaf.stop()
