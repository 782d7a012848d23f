"""A camera for the referee benchmark that renders every shot and recognises the frame.

``RenderedCamera`` turns ``rules.referee.synthetic`` shots into observations as the real
pipeline would: each shot is drawn at 1280x720 by ``vision.render`` under one random pose
and set of conditions per game (every frame with its own sensor noise; a tile keeps how it
lies and looks until it is moved) and read by
``vision.detect.Detector``. While a shot is occluded a hand carries the moved piece from
where it was (or from beside the hive) to where it goes. A shot's registration
``transform`` (an arbitrary lattice map) is not drawn; a change of it is a knock instead:
the whole hive slides a few millimetres. With a ``style``, the game is filmed in the wide
physical world (``vision.render.world``: any tile size and thickness, table, lamps, lens) in
that art style, and the set is enrolled first from one photo of the documented layout on the
same table, as a user would (taken again nearer if hivecam finds its tiles too small, the game
then filmed from there; the built-in profile if that enrollment fails). As a Pi camera does,
it turns to a larger view of a hive that looks small (``vision.zoom``: a crop of its sensor,
whose lens blur, motion streak and noise grow with the zoom), the detector starting afresh on
each new view, unless made with ``zoom`` off; and where tops show no print (glare) it takes one
darker frame of the still view when the detector wants one (``Detector.wants_darker``), which
the detector reads them from (the frames a real camera passes over while its exposure changes
are not drawn).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Collection, Iterable, Iterator, Mapping, Sequence

import numpy as np

from rules.hexgrid import Hex
from rules.observation import Observation
from rules.pieces import Bug, Piece
from calibration.errors import CalibrationError
from calibration.layout import DEFAULT_LAYOUT
from rules.referee.synthetic import Shot
from vision.profile import CreatureProfile, default_profile, demo_profile
from vision.detect import Detector
from vision.glare import DARKER
from vision.render.camera import HEIGHT, WIDTH, SyntheticCamera
from vision.render.game import start_point
from vision.render.photos import enrolled_as_told
from vision.render.scene import (GAP_MM, TILE_SIZES, Conditions, cell_centre_mm, random_conditions, random_lamp,
                                 render_position)
from vision.render.world import random_world
from vision.session_light import SessionLight
from vision.training.styles import BLIND_STYLES, TRAINING_STYLES
from vision.zoom import WHOLE, View, Zoom

Stacks = Mapping[Hex, Sequence[Piece]]
MAX_HEIGHT_MM = 800.0  # top of the camera heights hivecam must cope with
KNOCK_MM = 5.0  # standard deviation of the hive's slide when it is knocked
WORLD_STYLES = (*TRAINING_STYLES, *BLIND_STYLES)  # the wide world's games take these in turn


@lru_cache(maxsize=1)
def _profile() -> CreatureProfile:
    """The profile of the rendered set (style a, as the demo), loaded once per process."""
    return demo_profile()


@dataclass
class FrameStats:
    """What the camera cost: frames drawn, seconds spent drawing and recognising them."""

    frames: int = 0
    render_seconds: float = 0.0
    detect_seconds: float = 0.0
    raised: int = 0  # films whose camera was raised above its drawn height to see the whole hive
    cut: int = 0  # films whose hive did not fit in the view even at MAX_HEIGHT_MM
    enrollment_failed: str = ""  # wide world: why the set's enrollment failed (the built-in profile was used)
    nearer: bool = False  # wide world: the camera was brought nearer, as enrollment asked, and filmed from there
    views: int = 0  # times the camera turned to another view (``vision.zoom``)
    darker: int = 0  # darker frames taken to read tops under glare (``vision.glare``)


@dataclass(frozen=True)
class _Path:
    """A piece carried by hand over the rest of the position, from ``start`` to ``end`` (table mm)."""

    piece: Piece
    lifted: dict[Hex, list[Piece]]
    start: np.ndarray
    end: np.ndarray


class RenderedCamera:
    """Shots in, observations out (``Observation.extra["detect_seconds"]`` is the recognition time)."""

    def __init__(self, seed: int, lamp: bool = False, style: str | None = None, photos: int = 1,
                 zoom: bool = True) -> None:
        """With ``lamp``, a lamp of random colour is switched on halfway through the first film;
        with ``style``, the films are drawn in the wide world in that art style, the set enrolled
        first from ``photos`` photos; without ``zoom``, every frame shows the whole view."""
        self.rng = np.random.default_rng(seed)
        self.zoom = zoom
        self.lamp = random_lamp(np.random.default_rng(seed + 1)) if lamp else None
        self.stats = FrameStats()
        if style is None:
            self.base = random_conditions(self.rng, tile_size="standard", bump_mm=(0.0, 0.0))
            flats, self.thickness = TILE_SIZES[self.base.tile_size]
            self.pitch, profile = flats + GAP_MM, _profile()
        else:  # no cups or phones: they would stand where the hive grows
            self.base = replace(random_world(self.rng, style), hand=False, objects=(), aim_mm=(0.0, 0.0),
                                bump_mm=(0.0, 0.0))
            self.thickness, self.pitch = self.base.thickness_mm, self.base.flats_mm + self.base.gap_mm
            profile, told = self._enrolled(self.base, photos)
            self.stats.nearer, self.base = told.height_mm < self.base.height_mm, told
        self.detector = Detector(profile, light=SessionLight())  # one session: one table, one camera

    def _enrolled(self, conditions: Conditions, photos: int) -> tuple[CreatureProfile, Conditions]:
        """The set enrolled from ``photos`` photos of the documented layout on this table (taken again
        nearer if hivecam asks, where the camera then stays for the game; the built-in profile if
        that fails), and the conditions the game is filmed in."""
        try:
            return enrolled_as_told(DEFAULT_LAYOUT, conditions, photos)
        except CalibrationError as exc:
            self.stats.enrollment_failed = str(exc)
            return default_profile(), conditions

    def __call__(self, shots: Iterable[Shot]) -> Iterator[Observation]:
        shots = list(shots)
        camera = self._aim(shots)
        if shots and not shots[0].stacks:
            self.detector.table_bare()  # a game begun on the empty board, as ``hivecam referee`` tells vision
        layout_seed = int(self.rng.integers(1 << 30))  # the set's tiles: each lies as laid until it is moved
        bump = np.zeros(2)
        before: Stacks = {}  # the position the hand is changing
        path: _Path | None = None
        previous: Shot | None = None
        zoom, view = Zoom((WIDTH, HEIGHT)), WHOLE
        switch_at = len(shots) // 2 if self.lamp is not None and self.base.cast != self.lamp else -1
        for index, (shot, (step, steps)) in enumerate(zip(shots, _hand_steps(shots))):
            if index == switch_at:
                self.base = replace(self.base, cast=self.lamp)
            if previous is not None and shot.transform != previous.transform:
                bump = bump + self.rng.normal(0, KNOCK_MM, 2)
            if previous is not None and shot.stacks is not previous.stacks:
                before = previous.stacks
            if shot.occluded and step == 0:
                path = self._path(before, shot.stacks)
            previous = shot
            started = time.perf_counter()
            conditions = replace(self.base, hand=shot.occluded, bump_mm=(float(bump[0]), float(bump[1])),
                                 seed=int(self.rng.integers(1 << 30)), layout_seed=layout_seed)
            crop = None if view == WHOLE else (view.x, view.y, view.zoom)
            if shot.occluded and path is not None:
                at = path.start + (path.end - path.start) * (step + 1) / steps + bump
                frame, _ = render_position(path.lifted, conditions, carried=path.piece, camera=camera,
                                           hand_at=(float(at[0]), float(at[1])), view=crop)
            else:
                frame, _ = render_position(_copy(shot.stacks), conditions, camera=camera, view=crop)
            detect_start = time.perf_counter()
            observation = self.detector.detect(frame, shot.timestamp)
            done = time.perf_counter()
            if not shot.occluded and self.detector.wants_darker():
                dark = render_position(_copy(shot.stacks), replace(conditions, exposure=DARKER), camera=camera,
                                       view=crop)[0]
                self.detector.read_darker(dark)
                self.stats.darker += 1
            view = self._turned(zoom, observation, view)
            observation.extra["detect_seconds"] = done - detect_start
            self.stats.frames += 1
            self.stats.render_seconds += detect_start - started
            self.stats.detect_seconds += done - detect_start
            yield observation

    def _turned(self, zoom: Zoom, observation: Observation, view: View) -> View:
        """The view of the next frame: the one ``zoom`` turns to after ``observation`` (the detector
        told of it), else ``view``."""
        turned = zoom.after(observation) if self.zoom else None
        if turned is None:
            return view
        self.stats.views += 1
        self.detector.look_through(turned)
        return turned

    def expect(self, creatures: Collection[Bug]) -> None:
        """Read only the game's ``creatures`` from now on (``Detector.expect``)."""
        self.detector.expect(creatures)

    def learn(self, tops: Sequence[tuple[tuple[float, float], Piece]]) -> None:
        """Let the detector learn the set from the tops a game record names (``Referee.identified``)."""
        self.detector.learn(tops)

    def look_past(self, points: Sequence[tuple[float, float]]) -> None:
        """Let the detector take tops the record has no piece for as the table (``Referee.explained_away``)."""
        self.detector.look_past(points)

    def _path(self, before: Stacks, after: Stacks) -> _Path | None:
        """How the hand goes from ``before`` to ``after``: None if no piece moved."""
        moved = _moved(before, after)
        if moved is None:
            return None
        piece, goal = moved
        lifted = {c: [p for p in s if p is not piece] for c, s in before.items()}
        start = start_point(_copy(before), piece, self.pitch, self.rng)
        return _Path(piece, {c: s for c, s in lifted.items() if s}, start, cell_centre_mm(goal, self.pitch))

    def _aim(self, shots: Sequence[Shot]) -> SyntheticCamera:
        """The camera at the drawn pose aimed at the middle of every cell the film uses,
        raised (up to MAX_HEIGHT_MM) until all of them are in view."""
        cells = {cell for shot in shots for cell in shot.stacks}
        centres = np.array([cell_centre_mm(c, self.pitch) for c in cells]) if cells else np.zeros((1, 2))
        target = (centres.min(axis=0) + centres.max(axis=0)) / 2
        angles = np.radians(np.arange(0, 360, 30))
        ring = self.pitch * 0.6 * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        rim = (centres[:, None, :] + ring).reshape(-1, 2)
        points = np.column_stack([rim, np.full(len(rim), -2 * self.thickness)])
        height = self.base.height_mm
        while True:
            camera = SyntheticCamera.looking_at(target, height, self.base.tilt_deg, self.base.azimuth_deg,
                                                self.base.yaw_deg, self.base.k1, self.base.k2, self.base.hfov_deg,
                                                self.base.fit_canvas)
            px = camera.project(points)
            inside = bool(((px >= 0) & (px < [WIDTH, HEIGHT])).all())
            if inside or height >= MAX_HEIGHT_MM:
                self.stats.raised += height > self.base.height_mm
                self.stats.cut += not inside
                return camera
            height = min(MAX_HEIGHT_MM, height + 25.0)


def _hand_steps(shots: Sequence[Shot]) -> Iterator[tuple[int, int]]:
    """For each shot: its index in its run of occluded shots of one position, and the run's length."""
    index = 0
    while index < len(shots):
        end = index + 1
        if shots[index].occluded:
            while end < len(shots) and shots[end].occluded and shots[end].stacks is shots[index].stacks:
                end += 1
        for step in range(end - index):
            yield step, end - index
        index = end


def _moved(before: Stacks, after: Stacks) -> tuple[Piece, Hex] | None:
    """The piece that is somewhere else in ``after`` (on top of its stack there) and where."""
    where = {p: c for c, s in before.items() for p in s}
    for cell, stack in after.items():
        if where.get(stack[-1]) != cell:
            return stack[-1], cell
    return None


def _copy(stacks: Stacks) -> dict[Hex, list[Piece]]:
    return {cell: list(stack) for cell, stack in stacks.items()}
