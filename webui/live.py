"""The live loop: camera -> vision -> referee, on its own threads, never behind.

A reader thread pulls frames from the source as fast as it delivers them and keeps only
the newest; the worker recognises whatever is newest when it is free, so a slow frame
drops the stale ones instead of building a backlog. A source that fails (camera
unplugged) is reopened with growing pauses and the page is told at each step. While the
tiles look too small to read reliably (a camera too far off, a wide lens), the page says
how near to bring it; while a lamp's glare washes out tops, it says to move the lamp. A
camera that can crop its sensor is turned to a larger view of a hive that looks small
(``vision.zoom``); the recogniser is told of each new view and starts afresh on it. A camera
whose exposure can be set takes one darker frame where tops show no print or show it clipped
at the sensor's white (``vision.glare``): the recogniser reads them from it, and darker frames are
never read as the board. Enrollment takes one along with each photo (``darker_frame``).
"""

from __future__ import annotations

import logging
import statistics
import threading
import time
from collections import deque
from typing import Any, Callable, Collection, Protocol

import cv2
import numpy as np

from rules.observation import Observation
from rules.pieces import Bug, Piece
from vision.glare import DARKER
from vision.sources import FrameSource, open_source
from vision.tile_size import READABLE_PITCH, closer_advice, observed_pitch
from vision.zoom import WHOLE, View, Zoom
from webui.game import GameService

log = logging.getLogger("hivecam.live")

Recognise = Callable[[np.ndarray, float], Observation]
Learn = Callable[[list[tuple[tuple[float, float], Piece]]], None]
Glare = Callable[[], list[tuple[float, float]]]
LookPast = Callable[[list[tuple[float, float]]], None]
Expect = Callable[[Collection[Bug]], None]
BACKOFF_SECONDS = (0.5, 1.0, 2.0, 4.0, 8.0)
PREVIEW_WIDTH = 640
SIZE_FRAMES = 15  # recent frames whose tiles' size (and glare) decide the warnings about them
STALE_FRAMES = 30  # frames of another view to pass over after asking for a view, before going on with theirs
DARK_FRAME = (1 + DARKER) / 2  # a frame exposed for less than this share of the settled exposure is a darker one
DARKER_WAIT = 2.0  # seconds that enrollment waits for a darker frame (a camera delivers one within a few frames)


class DarkerReader(Protocol):
    """Reads tops whose print a frame did not show from a darker frame (``vision.detect.Detector``)."""

    def wants_darker(self) -> bool: ...

    def read_darker(self, frame: np.ndarray) -> Observation | None: ...


class CameraSpec(FrameSource):
    """A camera opened from its one-string form (``picamera``, ``usb:N``) each time it is
    (re)opened, so a camera missing when the server starts is waited for like an unplugged one."""

    def __init__(self, spec: str) -> None:
        super().__init__()
        self.name = spec
        self.inner: FrameSource | None = None

    def _open(self) -> None:
        self.inner = open_source(self.name)

    def _read(self) -> np.ndarray | None:
        assert self.inner is not None
        frame = self.inner.read()
        self.view, self.exposure = self.inner.view, self.inner.exposure
        return frame

    def set_view(self, view: View) -> bool:
        return self.inner is not None and self.inner.set_view(view)

    def set_exposure(self, share: float) -> bool:
        return self.inner is not None and self.inner.set_exposure(share)

    def _close(self) -> None:
        if self.inner is not None:
            self.inner.close()
            self.inner = None


def is_camera(spec: str) -> bool:
    """Whether ``spec`` names a camera (which may come and go) rather than a file or folder."""
    return spec == "picamera" or spec.startswith("usb:") or "://" in spec


class LiveLoop:
    """Runs ``source`` frames through ``recognise`` into ``service`` until ``stop``."""

    def __init__(self, source: Any, recognise: Recognise, service: GameService, learn: Learn | None = None,
                 glare: Glare | None = None, look_through: Callable[[View], None] | None = None,
                 darker: DarkerReader | None = None, expect: Expect | None = None,
                 look_past: LookPast | None = None) -> None:
        """``learn`` (e.g. ``Detector.learn``) is handed the tops the record names after each
        move recorded, whether the camera saw it or a person confirmed it; ``glare`` says where
        the last frame recognised had tops under glare (``Detector.glare``); ``look_through``
        tells the recogniser the view the camera turned to (``Detector.look_through``);
        ``darker`` (the ``Detector``) says when a darker frame would show the print of tops the last
        frame did not, and reads them from it: a camera whose exposure can be set is asked for one;
        ``expect`` (``Detector.expect``) is told the creatures of each game before its first frame;
        ``look_past`` (``Detector.look_past``) is told, after a move recorded, where the record
        took a tile seen for the table (``Referee.explained_away``)."""
        self.source, self.recognise, self.service, self.learn, self.glare = source, recognise, service, learn, glare
        self.look_through, self.darker, self.expect, self.look_past = look_through, darker, expect, look_past
        self._expected: int | None = None  # the game whose creatures ``expect`` was told last
        self._darker_asked = 0  # frames recognised since a darker frame was asked for that has not come (0: none asked)
        self._zoom: Zoom | None = None  # made at the first frame; dropped if the source cannot crop
        self._zoomable = True
        self._view = WHOLE  # the view of the frame recognised last
        self._passed = 0  # frames of another view passed over since a view was asked for
        self._learnt: tuple[int, int] | None = None  # the game and move count learnt from last
        self._looked_past: tuple[int, int] | None = None  # ... and told ``look_past`` of last
        self._stop = threading.Event()
        self._ready = threading.Condition()
        self._latest: tuple[int, np.ndarray, int, float, View, float] | None = None  # (number, frame, game,
        # timestamp, view, exposure)
        self._exposed: np.ndarray | None = None  # the newest frame at the settled exposure
        self._shown: tuple[int, np.ndarray, Observation] | None = None
        self._jpeg: tuple[int, bytes] | None = None
        self.frames_read = 0
        self.frames_processed = 0
        self.errors = 0
        self._failure: str | None = None  # what the last frames failed of, until one succeeds
        self._pitches: deque[float] = deque(maxlen=SIZE_FRAMES)  # tiles' spacing in the recent frames
        self._size_warning = ""
        self._glared: deque[int] = deque(maxlen=SIZE_FRAMES)  # tops under glare in the recent frames
        self._glare_warning = ""
        self._threads = [threading.Thread(target=self._read_loop, name="hivecam-camera", daemon=True),
                         threading.Thread(target=self._work_loop, name="hivecam-vision", daemon=True)]

    def start(self) -> "LiveLoop":
        for thread in self._threads:
            thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        with self._ready:
            self._ready.notify_all()
        for thread in self._threads:
            thread.join(timeout)
        self.source.close()

    # ---------------------------------------------------------------- reader
    def _read_loop(self) -> None:
        if self.source.is_open:
            self._live()
        elif not self._reconnect(f"{self.source.name}: not found"):
            return
        while not self._stop.is_set():
            try:
                frame = self.source.read()
            except Exception as exc:  # a dead device; the source's own error says which
                if not self._reconnect(str(exc)):
                    return
                continue
            if frame is None:
                self.service.set_camera("ended", f"{self.source.name}: no more frames")
                return
            if self.source.warning:
                self._live()
            game_id, timestamp = self.service.stamp()
            with self._ready:
                self.frames_read += 1
                self._latest = (self.frames_read, frame, game_id, timestamp, self.source.view,
                                self.source.exposure)
                if self.source.exposure >= DARK_FRAME:
                    self._exposed = frame
                self._ready.notify_all()

    def _reconnect(self, reason: str) -> bool:
        """(Re)open the source, with growing pauses between tries, until it works or the loop stops."""
        attempt = 0
        while True:
            try:
                self.source.reopen()
            except Exception as exc:
                reason = str(exc)
            else:
                self._live()
                return True
            pause = BACKOFF_SECONDS[min(attempt, len(BACKOFF_SECONDS) - 1)]
            attempt += 1
            self.service.set_camera("reconnecting", f"{reason}; retrying in {pause:g} s")
            if self._stop.wait(pause):
                return False

    # ---------------------------------------------------------------- worker
    def _work_loop(self) -> None:
        done = 0
        while not self._stop.is_set():
            with self._ready:
                while not self._stop.is_set() and (self._latest is None or self._latest[0] == done):
                    self._ready.wait(0.5)
                if self._stop.is_set():
                    return
                number, frame, game_id, timestamp, view, exposure = self._latest  # type: ignore[misc]
            done = number
            if exposure < DARK_FRAME:
                self._take_darker(number, frame)
                continue
            if not self._in_view(view):
                continue
            try:
                self._expect(game_id)
                observation = self.recognise(frame, timestamp)
                self._shown = (number, frame, observation)
                self.service.observe(observation, game_id)
                self.frames_processed += 1
                self._learn()
                self._watch_size(observation)
                self._watch_glare()
                self._watch_darker()
                self._watch_view(observation, frame.shape)
            except Exception as exc:  # one bad frame must never stop the referee
                self._frame_failed(number, exc)
            else:
                if self._failure is not None:
                    self._failure = None
                    self._live()

    def _live(self) -> None:
        """Tell the page the camera is live, with whatever its source and the tiles' size warn of."""
        warnings = [w for w in (self.source.warning, self._size_warning, self._glare_warning) if w]
        zoomed = f", zoomed {self._view.zoom:.1f}x on the hive" if not self._view.near(WHOLE) else ""
        live = f"{self.source.name}: live{zoomed}"
        self.service.set_camera("warn" if warnings else "ok", "; ".join([live, *warnings]))

    def _in_view(self, view: View) -> bool:
        """Whether to recognise a frame of ``view``: not while frames taken before the view asked
        for come (a camera delivers a few); the recogniser starts afresh on a view new to it."""
        if self._zoom is not None and not view.near(self._zoom.view):
            self._passed += 1
            if self._passed <= STALE_FRAMES:
                return False
            self._zoom.view = view  # the camera kept (or went back to) this view: go on from it
        self._passed = 0
        if not view.near(self._view):
            self._view = view
            if self.look_through is not None:
                self.look_through(view)
            self._live()
        return True

    def _watch_view(self, observation: Observation, shape: tuple[int, ...]) -> None:
        """Ask the source for a larger view of a hive that looks small, or for the whole view
        again (``vision.zoom.Zoom``). An open source that refuses cannot crop and is not asked
        again; a camera unplugged just then is asked afresh once it is back (at its whole view)."""
        if not self._zoomable:
            return
        if self._zoom is None:
            self._zoom = Zoom((shape[1], shape[0]))
        view = self._zoom.after(observation)
        if view is not None and not self.source.set_view(view):
            self._zoom, self._zoomable = None, not self.source.is_open

    def _watch_size(self, observation: Observation) -> None:
        """Warn while the tiles look too small to read reliably (the median spacing over the
        recent frames that show two neighbouring tops), and say how near to bring the camera."""
        pitch = observed_pitch(observation)
        if pitch is None:
            return
        self._pitches.append(pitch)
        spacing = round(statistics.median(self._pitches))
        warning = (f"the tiles are only {spacing} pixels apart and are misread more often under "
                   f"{READABLE_PITCH:.0f}: {closer_advice(spacing, READABLE_PITCH)}") if spacing < READABLE_PITCH else ""
        if warning != self._size_warning:
            self._size_warning = warning
            self._live()

    def _watch_glare(self) -> None:
        """Warn while tops lie under glare in most of the recent frames (their print washed out, so
        their reads are guesses), and say what to do about it."""
        if self.glare is None:
            return
        self._glared.append(len(self.glare()))
        tops = statistics.median_low(self._glared)
        warning = (f"glare washes out {tops} top{'s' if tops > 1 else ''} (no print shows, so "
                   f"{'they are' if tops > 1 else 'it is'} read as a guess): move the lamp to the side "
                   "or tilt the camera so its reflection falls off the tiles") if tops else ""
        if warning != self._glare_warning:
            self._glare_warning = warning
            self._live()

    def _watch_darker(self) -> None:
        """Ask the camera for a darker frame where the recogniser wants one (``_take_darker``); one
        that has not come after STALE_FRAMES frames (a camera unplugged and back at its settled
        exposure) is asked for afresh."""
        if self.darker is None:
            return
        if self._darker_asked:
            self._darker_asked = 0 if self._darker_asked >= STALE_FRAMES else self._darker_asked + 1
        elif self.darker.wants_darker():
            self._darker_asked = int(self.source.set_exposure(DARKER))

    def _take_darker(self, number: int, frame: np.ndarray) -> None:
        """Read the tops that showed no print again from the darker frame asked for, and expose as
        before; the darker frames that come after it (a camera delivers a few) are passed over."""
        if not self._darker_asked or self.darker is None:
            return
        self._darker_asked = 0
        self.source.set_exposure(1.0)
        try:
            self.darker.read_darker(frame)
        except Exception as exc:  # one bad frame must never stop the referee
            self._frame_failed(number, exc)

    def _expect(self, game_id: int) -> None:
        """Tell ``expect`` the game's creatures once the frames are of a new game (``game_id``, the
        one the frame was stamped with)."""
        if self.expect is not None and game_id != self._expected:
            self.expect(self.service.creatures())
            self._expected = game_id

    def _learn(self) -> None:
        """Hand ``learn`` the tops the record names, and ``look_past`` the tiles it took for the
        table, once per move recorded (on this thread, the recogniser's own); the tops are looked up
        only while the last move is not learnt yet (the view may not show a confirmed move yet)."""
        if self.learn is None and self.look_past is None:
            return
        key = self.service.record_key()
        if self.learn is not None and key != self._learnt:
            tops = self.service.identified()
            if tops:
                self.learn(tops)
                self._learnt = key
        if self.look_past is not None and key != self._looked_past:
            away = self.service.explained_away()  # settled with the move: told once, whether or not any
            if away:
                self.look_past(away)
            self._looked_past = key

    def _frame_failed(self, number: int, error: Exception) -> None:
        """Count a frame that could not be processed; log each new kind of failure once (with
        its traceback) and show it on the page, instead of a traceback per frame."""
        self.errors += 1
        message = f"frames cannot be recognised: {error}"
        if self._failure != message:
            self._failure = message
            log.error("frame %d could not be processed: %s: %s", number, type(error).__name__, error)
            log.debug("the traceback", exc_info=error)
            self.service.set_camera("error", message)

    def latest_frame(self) -> np.ndarray | None:
        """The newest frame the camera delivered (unprocessed) at its settled exposure, if any."""
        return self._exposed

    def darker_frame(self, timeout: float = DARKER_WAIT) -> np.ndarray | None:
        """A frame of the camera's present view taken darker (``vision.glare.DARKER``), where a lamp's
        glare in the tops stays under the sensor's white; None where the source cannot set its
        exposure or none came within ``timeout`` seconds. The exposure is set back after."""
        asked = self.frames_read
        if not self.source.set_exposure(DARKER):
            return None
        deadline = time.monotonic() + timeout
        try:
            with self._ready:
                while (latest := self._latest) is None or latest[0] <= asked or latest[5] >= DARK_FRAME:
                    left = deadline - time.monotonic()
                    if left <= 0 or self._stop.is_set():
                        return None
                    self._ready.wait(left)
                return latest[1]
        finally:
            self.source.set_exposure(1.0)

    # --------------------------------------------------------------- preview
    def preview_jpeg(self) -> bytes | None:
        """The latest processed frame with the recognised tiles drawn on it, as JPEG."""
        shown = self._shown
        if shown is None:
            return None
        number, frame, observation = shown
        cached = self._jpeg
        if cached is not None and cached[0] == number:
            return cached[1]
        image = draw_overlay(frame, observation, self.service.config.min_confidence)
        ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 70])
        data = encoded.tobytes() if ok else None
        if data is not None:
            self._jpeg = (number, data)
        return data


def draw_overlay(frame: np.ndarray, observation: Observation, min_confidence: float) -> np.ndarray:
    """A preview-sized copy of ``frame`` with each sighting marked and labelled: green when
    read with at least ``min_confidence`` (the referee's ``RefereeConfig``), else orange."""
    scale = PREVIEW_WIDTH / frame.shape[1]
    image = cv2.resize(frame, (PREVIEW_WIDTH, round(frame.shape[0] * scale)), interpolation=cv2.INTER_AREA)
    for tile in observation.tiles:
        if tile.px is None:
            continue
        x, y = round(tile.px[0] * scale), round(tile.px[1] * scale)
        sure = tile.confidence >= min_confidence
        colour = (60, 200, 60) if sure else (0, 160, 255)
        label = f"{tile.colour.value}{tile.bug.value}" + (f"x{tile.height_hint}" if tile.height_hint > 1 else "")
        cv2.circle(image, (x, y), 14, colour, 2, cv2.LINE_AA)
        cv2.putText(image, label, (x - 14, y - 18), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(image, label, (x - 14, y - 18), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1, cv2.LINE_AA)
    if observation.occluded:
        cv2.putText(image, "hand over the board", (12, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2,
                    cv2.LINE_AA)
    return image
