"""Frame in, ``rules.observation.Observation`` out: tiles, cells, colours, creatures, occlusion.

Pipeline: ``tops_and_faint`` (tile map network; tiles too small for it looked for again where
``TinyTiles`` says) -> ``StillSpots`` (tops kept or held back where nothing moved) ->
``place_tops`` (lattice, cells, levels; the last frame's lattice where it still fits), settled
by a second opinion where the map is unsure (``vision.doubts``: faint tops, gaps, holes, and
tops a hand put where the table was seen bare: ``vision.bare_table``) -> per
tile a rectified crop -> the creature network's embeddings (with those of the still frames
before; a second, turned view of the unsure ones) -> the profile's nearest examples (a top that
looks like none of them is the table's print: ``vision.doubts.unlike``). A frame
is flagged ``occluded`` instead of being reported as a (wrong) board when a hand or an object
lies on or next to the hive. ``learn`` adds the tops a game record names to the profile's
examples as play goes on; ``read_darker`` reads the tops whose print glare washed out from a
darker frame of the same view (``vision.glare``). A still view whose reads have agreed is not read
again until something in it changes (``vision.quiet``). A top first seen after a hand's visit
at a spot that looks as it did before says so (``vision.hand_visit``: no hand put it there).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Collection, Iterable, Sequence

import cv2
import numpy as np

from calibration.camera import CameraModel
from rules.observation import Observation, TileSighting
from rules.pieces import Bug, Colour, Piece
from vision.bare_table import BareTable
from vision.creatures import CreatureEmbedder, turned
from vision.doubts import FAINT_TOP, arrivals, bridges, confirmed, crowded, first_top, holes, unlike
from vision.features import rectified_crop
from vision.glare import clipped, glared
from vision.hand_visit import HandVisits
from vision.lattice import basis_pitch
from vision.locate import Located, LocatedTile, place_tops
from vision.motion import MotionMap, touching
from vision.profile import CLASSES, CreatureProfile, assign, default_profile
from vision.quiet import QuietView
from vision.session_light import SessionLight
from vision.set_art import no_surer, printless
from vision.still import KEEP_THRESHOLD, NEW_TOP, StillSpots
from vision.tilemaps import (HAND, OBJECT, SMALL_PITCH, STRIDE, Peak, TileMapper, TileMaps, cell_of,
                             disc_kernel, map_shape, tops_and_faint)
from vision.tiny_tiles import TinyTiles
from vision.zoom import WHOLE, View

OCCLUDER_TILE_FRACTION = 0.5  # a hand this big (in tile faces) near the hive hides tiles
FIRST_LOOK_HAND = 1.5  # ... but on a scene's first frame, with no still frame yet to tell skin from a skin-coloured
# cup or wood, a hand this big (nine training styles, seed 1: hands hiding a top 1.9 faces or more, false ones 0.55-3.2)
EMPTY_VIEW_SHARE = 0.01  # with no tile in view, this share of hand or object means something blocks it
HAND_REACH = 2.5  # pitches from a tile within which a hand counts
HAND_WIDTH = 0.6  # pitches: narrower streaks of 'hand' (a frame's border, a table's seam) are not a hand
OBJECT_REACH = 0.6  # pitches: a still object counts only over the hive itself (a top's corners lie 0.58 from
# its centre: a cup standing against the hive hides none of it) ...
OBJECT_TILES = 2.0  # ... and only if at least this many tile faces big (a cup is about four; a dark top
# a dozen pixels wide can look like a sliver of one)
SECOND_LOOK = 0.9  # a top read less surely than this from one view is also embedded turned ...
OTHER_TURNS = (2, 4)  # ... a third of a turn each way (sixths): three views 120 degrees apart
LEARNT_TOPS = 3  # tiles of each class whose crops (and views) are kept once a game record names them
LEARNT_VIEWS = 6 * LEARNT_TOPS  # views of your own tiles kept per class
DOUBTFUL = 0.5  # the most a guessed creature (a top showing no print) weighs among its colour's
WHITE_CLASSES = np.array([colour is Colour.WHITE for colour, _ in CLASSES])


@dataclass(frozen=True)
class _Reading:
    """How one frame's located tops were read: (T, classes) weights, (T,) which are guesses (no
    print showed), whether a hand hid the hive then, (T,) which tops a darker frame may show
    better (the guesses, and tops whose print glare clips in part), and (T,) which were first seen
    after the last hand's visit at spots it left as they were (``vision.hand_visit``)."""

    tiles: list[LocatedTile]
    weights: np.ndarray
    guessed: np.ndarray
    occluded: bool
    timestamp: float
    for_darker: np.ndarray
    unplaced: np.ndarray

    def guesses(self) -> list[tuple[float, float]]:
        """Where (frame pixels) the tops read as guesses lie."""
        return [(float(tile.centre[0]), float(tile.centre[1])) for tile, guess in zip(self.tiles, self.guessed) if guess]

    def observation(self, creatures: Collection[Bug] | None) -> Observation:
        """The observation of these reads (``assign``: only ``creatures``, none on more tops than a
        set has)."""
        reads = assign(self.weights, self.guessed, creatures)
        sightings = [TileSighting(tile.cell[0], tile.cell[1], colour, bug, confidence, tile.level,
                                  (float(tile.centre[0]), float(tile.centre[1])), bool(unplaced))
                     for tile, (colour, bug, confidence), unplaced in zip(self.tiles, reads, self.unplaced)]
        return Observation(tuple(sorted(sightings, key=lambda s: (s.r, s.q))), self.occluded, self.timestamp)


class Detector:
    """Recognise Hive positions in frames with one creature profile (and optional intrinsics)."""

    def __init__(self, profile: CreatureProfile | None = None, camera: CameraModel | None = None,
                 light: SessionLight | None = None) -> None:
        """``light`` keeps colours steady across the frames of one session (one table, one camera)."""
        self.camera = camera
        self.light = light
        self.view = WHOLE  # the part of the camera's whole view that frames show (``look_through``)
        self._lens_of: tuple[tuple[View, int, int], CameraModel] | None = None  # the present view's, worked out once
        self.mapper = TileMapper()
        self.embedder = CreatureEmbedder()
        self.creatures: frozenset[Bug] | None = None  # the game's (``expect``); None: any
        self.forget()
        self.use_profile(profile or default_profile())

    def use_profile(self, profile: CreatureProfile) -> None:
        """Read tiles with ``profile`` from now on (forgetting the tiles learnt with the last one)."""
        self.enrolled, self.profile = profile, profile
        self._learnt: dict[int, np.ndarray] = {}
        self._learnt_tops: dict[int, list[np.ndarray]] = {}
        self.still.forget_reads(darker=True)
        self.quiet.forget()

    def expect(self, creatures: Iterable[Bug]) -> None:
        """Read only ``creatures`` from now on: the game's (a Base game has no Mosquito, so a top
        most like a Mosquito is read as the likeliest creature in play)."""
        wanted = frozenset(creatures)
        if wanted != self.creatures:
            self.creatures = wanted
            self.quiet.forget()

    def learn(self, tops: Iterable[tuple[tuple[float, float], Piece]]) -> None:
        """Take the tops that a game record names (``Referee.identified``: where the last steady
        view saw them, in frame pixels, and which piece each is) as examples of your set: a top
        misread so far is then read as what it is, and a second Ant more like the first (a top
        showing no print is left out: glare washes every top alike). Per
        class, the views of the tops named last (up to LEARNT_VIEWS) stand beside the enrolled
        profile's examples, and their crops (up to LEARNT_TOPS) beside its art."""
        enrolled = self.enrolled
        views: dict[int, list[np.ndarray]] = {}
        crops: dict[int, list[np.ndarray]] = {}
        for centre, piece in tops:
            seen = self.still.seen_near(np.asarray(centre, float))
            if seen is None or (seen[1] is not None and printless([seen[1]])[0]):
                continue  # not seen still, or washed out by glare (like every other top under it)
            index = CLASSES.index((piece.colour, piece.bug))
            views.setdefault(index, []).append(seen[0])
            if seen[1] is not None:
                crops.setdefault(index, []).append(seen[1])
        if not views:
            return
        for index, kept in views.items():
            self._learnt[index] = np.vstack(kept)[-LEARNT_VIEWS:]
        for index, named in crops.items():
            self._learnt_tops[index] = named[-LEARNT_TOPS:]
        if enrolled is self.enrolled:  # not replaced meanwhile (enrollment runs on another thread)
            self.profile = enrolled.with_examples(self._learnt, self._learnt_tops)
        self.still.forget_reads()
        self.quiet.forget()

    def forget(self) -> None:
        """Start afresh: the next frame is a new scene, not compared with the ones before (its
        light included)."""
        if self.light is not None:
            self.light = SessionLight(self.light.grid)
        self.motion = MotionMap()
        self._last: tuple[np.ndarray, Observation] | None = None  # the last frame (as captured) and what it showed
        self._reading: _Reading | None = None  # how the last frame's tops were read
        self.still = StillSpots()
        self.bare = BareTable()
        self.visits = HandVisits()
        self.tiny = TinyTiles()
        self._bare_next: tuple[tuple[float, float], ...] | None = None  # told by ``table_bare``, not yet seen
        self._pitch = SMALL_PITCH  # the tiles' spacing (frame pixels) in the last frame that located any
        self._held: Located | None = None  # the last frame nothing hid: its lattice (its tiles left out)
        self.quiet = QuietView()

    def look_through(self, view: View) -> None:
        """Read frames of ``view``, a part of the camera's whole view (``vision.zoom``), from now
        on: a new scene, its lens that crop's."""
        self.view = view
        self.forget()

    def use_camera(self, camera: CameraModel | None) -> None:
        """Read frames of a camera of these intrinsics (None: not known) from now on."""
        self.camera, self._lens_of = camera, None
        self.quiet.forget()

    def _lens(self, shape: tuple[int, ...]) -> CameraModel | None:
        """The intrinsics of a frame of ``shape`` taken through the present view (None: not known)."""
        if self.camera is None:
            return None
        key = (self.view, shape[1], shape[0])
        if self._lens_of is None or self._lens_of[0] != key:
            lens, view = self.camera.at_size(shape[1], shape[0]), self.view
            self._lens_of = key, lens if view == WHOLE else lens.cropped(view.x, view.y, view.zoom)
        return self._lens_of[1]

    def table_bare(self, tiles: Sequence[tuple[float, float]] = ()) -> None:
        """Say that the table holds no tile now but at ``tiles`` (frame pixels: the last game's, not
        cleared away yet) as a new game begins on it: whatever the next frame shows where nothing
        moves, away from ``tiles``, is the table itself, its print included (a mat's logo, a cloth's
        flower), and tops found there are looked past while their spots look as they do then."""
        self._bare_next = tuple(tiles)
        self.quiet.forget()

    def look_past(self, points: Sequence[tuple[float, float]]) -> None:
        """Take the tops last seen at ``points`` (frame pixels) for the table: the game record has
        no piece there (``Referee.explained_away``: the table seen through a hole of the hive, a
        cloth's flower beside a move). Tops found there are looked past while their spots look as
        they do now, and are not remembered as still tops through the next hand; a tile put there
        changes the look."""
        if points and self.motion.colour is not None:
            self.bare.print_at(self.motion.colour, points, self._pitch)
            self.still.forget_at(points)
            self.quiet.forget()

    def detect(self, frame: np.ndarray, timestamp: float = 0.0) -> Observation:
        """The observation of one BGR frame, read as the lens shows it: with intrinsics, the hive's
        lattice is bent through the lens (a frame resampled to a pinhole view loses a wide lens's
        corners, and its tiles look stretched from those the networks learnt)."""
        captured = frame
        if self.light is not None:
            frame = self.light.normalise(frame)
        moved = self.motion.moved(captured, map_shape(frame.shape))
        self.bare.take_in(moved)
        cells = self.motion.colour
        if cells is not None and self.quiet.unchanged(cells) and not self.wants_darker():
            return self._again(timestamp)
        if self._bare_next is not None and cells is not None and not moved.all():
            tiles, self._bare_next = self._bare_next, None
            self.bare.seen_bare(cells, ~moved, tiles, self._pitch)
        def on_table(peaks: list[Peak]) -> list[Peak]:
            return [peak for peak in peaks if cells is None or not self.bare.shows_bare(peak, cells)]
        maps, found, faint = tops_and_faint(self.mapper, frame, KEEP_THRESHOLD, FAINT_TOP, self.tiny.hint, on_table)
        bare_known = self.tiny.shows_all(found)
        self.tiny.saw(found, moved, frame.shape)
        settled = self.still.settle(found, moved, frame)
        held = [peak for peak in found if peak.score < NEW_TOP and all(peak is not top for top in settled)]
        doubted = [*on_table(faint), *held]  # faint peaks only: a strong new top the still frames hold back stays held
        located = self._located(frame, maps, settled, doubted, None if cells is None else (cells, moved))
        self.still.vouch(_second_opinions(located, settled), moved, frame)
        weights, guessed, tiles = self._class_weights(frame, located)
        located = replace(located, tiles=[located.tiles[i] for i in tiles])
        occluded = occluder_near_hive(located, moved & ~self.motion.left())
        if occluded and not moved.all():  # a hand by the hive (not a scene's first frame)
            self.bare.handled(moved)
        pitch = pitch_px(located)
        unplaced = np.zeros(len(located.tiles), bool)
        if cells is not None:
            centres = [tile.centre for tile in located.tiles]
            mapped = {peak.centre.tobytes() for peak in found}  # tops the tile map found itself
            self.visits.see(cells, occluded, not moved.any(), centres, [c for c in centres if c.tobytes() in mapped])
            unplaced = self.visits.unplaced(cells, centres, pitch)
        if located.tiles:
            self._pitch = pitch
            self._held = self._held if occluded else replace(located, tiles=[])
        if cells is not None and not occluded and bare_known:
            self.bare.learn(cells, maps, moved, [*(t.centre for t in located.tiles), *(p.centre for p in found)],
                            pitch)
        if self.light is not None:
            self.light.learn(captured, located.maps.not_table().astype(np.uint8), occluded)
        for_darker = guessed | _clipped(captured, located.tiles)
        self._reading = _Reading(located.tiles, weights, guessed, occluded, timestamp, for_darker, unplaced)
        observation = self._reading.observation(self.creatures)
        self._last = captured, observation
        if cells is not None:
            self.quiet.read(cells, observation, bool(moved.any()))
        return observation

    def _again(self, timestamp: float) -> Observation:
        """The last read again, for a frame that shows nothing new since reads that agreed (``vision.quiet``)."""
        assert self._last is not None
        observation = replace(self._last[1], timestamp=timestamp, extra={})
        self._last = self._last[0], observation
        return observation

    def glare(self) -> list[tuple[float, float]]:
        """Where (frame pixels) the last frame's tops lie under a lamp's glare (``vision.glare``)
        and are read as guesses (no darker frame has shown their print: ``read_darker``): looked
        for only when asked, so frames nobody warns about cost nothing more."""
        if self._last is None or self._reading is None:
            return []
        guesses = set(self._reading.guesses())
        return [px for px in glared(*self._last) if px in guesses]

    def wants_darker(self) -> bool:
        """Whether a darker frame of the last frame's view may show the print of tops better: with
        no hand in it, a top showed no print, or part of its middle lay at the sensor's white, and
        no darker frame was looked at for it since it last moved (one a darker frame could not read
        either is left to the person at the table: a lamp too bright, a face washed out by something
        else than glare). Hand such a frame to ``read_darker``."""
        reading = self._reading
        return reading is not None and not reading.occluded and any(
            wanted and not self.still.tried_darker(tile.centre) for tile, wanted in zip(reading.tiles, reading.for_darker))

    def read_darker(self, frame: np.ndarray) -> Observation | None:
        """The last frame's observation with the tops whose print it did not show, or showed
        clipped in part at the sensor's white (a lamp's glare), read again from ``frame``: the same
        still view, taken at a shorter exposure (``vision.glare.DARKER``), where the glare stays under
        white and the print shows through it. Those reads stand while the tops lie still. None if no
        such top shows its print in ``frame`` (unclipped, for a top whose print showed before), or
        the last frame had a hand in it or was another view's (``look_through`` since)."""
        reading, last = self._reading, self._last
        if reading is None or last is None or reading.occluded or not reading.for_darker.any():
            return None
        washed = np.flatnonzero(reading.for_darker)
        tiles = [reading.tiles[i] for i in washed]
        crops = [rectified_crop(frame, tile.centre, tile.basis) for tile in tiles]
        shown = ~printless(crops) & (reading.guessed[washed] | ~_clipped(frame, tiles))
        for index in washed[~shown]:
            self.still.keep_darker(reading.tiles[index].centre, None)
        if not shown.any():
            return None
        crops = [crop for crop, show in zip(crops, shown) if show]
        reads = self._weighed(crops, [view[None] for view in self.embedder.embed(crops)])
        weights, guessed = reading.weights.copy(), reading.guessed.copy()
        for index, read in zip(washed[shown], reads):
            self.still.keep_darker(reading.tiles[index].centre, read)
            weights[index], guessed[index] = read, False
        self._reading = replace(reading, weights=weights, guessed=guessed)
        observation = self._reading.observation(self.creatures)
        self._last = last[0], observation
        self.quiet.forget()  # the reads changed: the next frames are read afresh until they agree again
        return observation

    def _located(self, frame: np.ndarray, maps: TileMaps, tops: list[Peak], doubted: list[Peak],
                 motion: tuple[np.ndarray, np.ndarray] | None = None) -> Located:
        """The ``tops`` placed on the hive's lattice, settled by a second opinion (``vision.doubts``):
        with the ``doubted`` candidates that look like your set's tops (next to the hive, or as
        its first tile), with tops where something arrived on the table seen bare (``motion``: the
        motion map's colours and moved cells; None: not known), but where the last hand took a top
        away (``HandVisits.vacated``), with tops where the hive fell
        apart, and without the holes in the hive and the tops crowded beside others taken for tops."""
        lens = self._lens(frame.shape)
        located = place_tops(tops, maps, frame, self._held, lens)
        if located.tiles:
            extra = confirmed(frame, located, doubted, self.embedder, self.profile)
            if motion is not None:
                pitch = pitch_px(located)
                arrived = [peak for peak in _apart(arrivals(frame, located, self.bare.arrived(*motion, pitch),
                                                            self.embedder, self.profile), extra)
                           if not self.visits.vacated(peak.centre, pitch)]
                self.bare.kept([peak.centre for peak in arrived], pitch, motion[1].shape)
                extra += arrived
        else:
            extra = first_top(frame, maps, doubted, self.embedder, self.profile)
        if extra:
            tops = [*tops, *extra]
            located = place_tops(tops, maps, frame, self._held, lens)
        joining = bridges(frame, located, self.embedder, self.profile)
        if joining:
            located = place_tops([*tops, *joining], maps, frame, self._held, lens)
        dropped = [*holes(frame, located, self.embedder, self.profile), *crowded(located)]
        return replace(located, tiles=[t for t in located.tiles if all(t is not d for d in dropped)])

    def _class_weights(self, frame: np.ndarray, located: Located) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """(T, classes) weights of the profile's classes for each tile that is one: weighed by the
        tile map's colour of the top (a second opinion on colour that errs on other tops), the read
        of each top's crop (``_reads``) or, for a still top that needs no fresh view, its kept read;
        a still top read from a darker frame (``read_darker``) keeps that read as it is (the tile
        map's colour is as washed out as its print); (T,) which reads are guesses (the crop showed
        no print); and the indices of the T tiles among ``located``'s (a top read afresh that looks
        nothing like your set's is none: ``vision.doubts.unlike``)."""
        weights = np.zeros((len(located.tiles), len(CLASSES)))
        guessed = np.zeros(len(located.tiles), bool)
        darker = np.zeros(len(located.tiles), bool)
        tiles = np.ones(len(located.tiles), bool)
        fresh = []
        for index, tile in enumerate(located.tiles):
            kept, lit = self.still.kept_read(tile.centre), self.still.darker_read(tile.centre)
            if lit is not None:
                weights[index], darker[index] = lit, True
            elif kept is None:
                fresh.append(index)
            else:
                weights[index], guessed[index] = kept
        if fresh:
            reading = [located.tiles[i] for i in fresh]
            weights[fresh], guessed[fresh], prints = self._reads(frame, reading)
            tiles[fresh] = ~prints
            for tile, read, guess, table in zip(reading, weights[fresh], guessed[fresh], prints):
                self.still.keep_read(tile.centre, None if table else read, bool(guess))
        white = np.array([tile.white for tile in located.tiles]).reshape(-1, 1)
        weights = np.where(darker[:, None], weights, weights * np.where(WHITE_CLASSES, white, 1 - white))
        weights = weights / np.maximum(weights.sum(axis=1, keepdims=True), 1e-12)
        return weights[tiles], guessed[tiles], np.flatnonzero(tiles).tolist()

    def _reads(self, frame: np.ndarray, tiles: list[LocatedTile]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(T, classes) weights of the profile's classes for each tile's crop (``_weighed``: from
        its embedding as seen, with those of the still frames before); a top whose middle shows no
        print (glare) is read as a doubtful guess, and (T,) which are; and (T,) which are the
        table's print, looking nothing like your set's tops as now seen (``vision.doubts.unlike``)."""
        crops = [rectified_crop(frame, tile.centre, tile.basis) for tile in tiles]
        embedded = self.embedder.embed(crops)
        views = [self.still.views(tile.centre, view, crop) for tile, view, crop in zip(tiles, embedded, crops)]
        weights = self._weighed(crops, views)
        blank = printless(crops)
        weights[blank] = doubtful(weights[blank])
        return weights, blank, unlike(frame.shape, tiles, embedded, blank, self.profile)

    def _weighed(self, crops: list[np.ndarray], views: list[np.ndarray]) -> np.ndarray:
        """(T, classes) weights of the profile's classes for tops seen as ``crops`` and embedded as
        ``views`` (each (V, embedding)); where that leaves a read unsure, also from the crop turned
        a third of a turn each way (the network is not fully turn-blind, and views a half turn
        apart err alike on the many prints that look much the same turned half round; more views
        of every top would cost more than the frame's time allows); then settled by your set's art."""
        weights = self.profile.class_weights(views)
        unsure = np.flatnonzero(weights.max(axis=1) < SECOND_LOOK)
        if len(unsure):
            again = self.embedder.embed([turned(crops[i], sixths) for i in unsure for sixths in OTHER_TURNS])
            more = again.reshape(len(unsure), len(OTHER_TURNS), -1)
            weights[unsure] = self.profile.class_weights([np.vstack([views[i], seen]) for i, seen in zip(unsure, more)])
        return self.profile.reweigh(weights, crops)


def _clipped(frame: np.ndarray, tiles: list[LocatedTile]) -> np.ndarray:
    """(T,) which ``tiles`` have part of their middle at the sensor's white (``vision.glare.clipped``)."""
    if not tiles:
        return np.zeros(0, bool)
    return clipped(frame, np.array([t.centre for t in tiles]), basis_pitch(np.array([t.basis for t in tiles])))


def _apart(peaks: list[Peak], others: list[Peak]) -> list[Peak]:
    """The ``peaks`` lying at least half a pitch from every one of ``others`` (not the same top)."""
    return [peak for peak in peaks
            if all(np.linalg.norm(peak.centre - other.centre) >= peak.pitch / 2 for other in others)]


def _second_opinions(located: Located, settled: list[Peak]) -> list[Peak]:
    """The located tops that the still frames did not report (the second opinion's), as peaks."""
    kept = {peak.centre.tobytes() for peak in settled}
    return [Peak(t.centre, float(basis_pitch(t.basis)), t.score, t.white) for t in located.tiles
            if t.centre.tobytes() not in kept]


def doubtful(weights: np.ndarray) -> np.ndarray:
    """(T, classes) ``weights`` flattened within each colour, order and colour mass kept, until no
    class weighs over DOUBTFUL of its colour's: however sure the colour, the read stays a guess
    that the referee asks about."""
    out = weights.copy()
    if len(weights):
        for colour in (WHITE_CLASSES, ~WHITE_CLASSES):
            mass = weights[:, colour].sum(axis=1, keepdims=True)
            share = np.log(np.maximum(weights[:, colour] / np.maximum(mass, 1e-12), 1e-12))
            out[:, colour] = no_surer(share, np.full(len(weights), DOUBTFUL)) * mass
    return out


def occluder_near_hive(located: Located, moved: np.ndarray) -> bool:
    """True if a hand at least half a tile big lies within reach of the hive, or an object at least
    two tiles big over it (or, with no tile seen, if either is in view at all). A hand must have
    moved since the last frame (``moved``: map cells, less those that only look again as they did
    before a hand passed) over a part of it as wide as a hand: what looks like skin but lies still
    is the table, and so is a skin-coloured print a hand has just left, or one that a tile laid or
    lifted on it changed along the tile's rim. On a scene's first frame, where everything counts
    as moved, skin counts only if at least FIRST_LOOK_HAND tile faces big."""
    classes = located.maps.classes
    pitch = pitch_px(located) / STRIDE if located.tiles else 0.0
    skin = _at_least(classes[HAND] > 0.5, HAND_WIDTH * pitch)
    hand = touching(skin, _at_least(skin & moved, HAND_WIDTH * pitch))
    thing = classes[OBJECT] > 0.5
    if not located.tiles:
        return bool((hand | thing).mean() > EMPTY_VIEW_SHARE)
    face = 0.87 * pitch ** 2  # map cells of a tile's face
    thing = _at_least_cells(thing, OBJECT_TILES * face)
    distance = _distance_to_tiles(located, hand.shape)
    near_hand = int((hand & (distance < HAND_REACH * pitch)).sum())
    if moved.all() and near_hand < FIRST_LOOK_HAND * face:
        near_hand = 0
    over_thing = int((thing & (distance < OBJECT_REACH * pitch)).sum())
    return near_hand + over_thing >= OCCLUDER_TILE_FRACTION * face


def pitch_px(located: Located) -> float:
    """The median lattice pitch of the located tops in frame pixels (SMALL_PITCH with none)."""
    if not located.tiles:
        return SMALL_PITCH
    return float(np.median(basis_pitch(np.array([t.basis for t in located.tiles]))))


def _at_least(mask: np.ndarray, width: float) -> np.ndarray:
    """``mask`` without the parts narrower than ``width`` map cells (a morphological opening)."""
    return cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, disc_kernel(width)).astype(bool)


def _at_least_cells(mask: np.ndarray, cells: float) -> np.ndarray:
    """``mask`` without its connected parts of fewer than ``cells`` map cells."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8))
    keep = stats[:, cv2.CC_STAT_AREA] >= cells
    keep[0] = False
    return keep[labels]


def _distance_to_tiles(located: Located, shape: tuple[int, ...]) -> np.ndarray:
    """Each map cell's distance (in cells) to the nearest located tile centre."""
    seeds = np.full(shape, 255, np.uint8)
    for tile in located.tiles:
        x, y = np.clip(np.round(cell_of(tile.centre[None])[0]).astype(int), 0, [shape[1] - 1, shape[0] - 1])
        seeds[y, x] = 0
    return cv2.distanceTransform(seeds, cv2.DIST_L2, 3)
