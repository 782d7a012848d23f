"""Vision benchmark: recognition accuracy and speed on synthetic frames of real game positions.

    python benchmarks/fetch_art.py   # once: the icon-set art styles
    python benchmarks/vision_bench.py [--frames 500] [--seed 1] [--sections styles,a,pocket,b,carbon,lamp]
        [--styles a,b,...] [--photos 1|2] [--tilemap CANDIDATE.onnx] [--log OUT.jsonl] [--whole-view]

Positions are the championship GameStrings of the shared corpus (Mzinga's valid-moves test).
``styles``: every art style in the wide physical world (``vision.render.world``: solid
bevelled tiles of any size and thickness, touching rows, any table, 1-3 lamps, glare, normal
and wide lenses, hands, sleeves, cups, phones): one set of each style (one look of it) enrolled
from one photo in a layout picked at random (the documented block, rows of one colour, a loose
scatter; ``--photos 2``: and a second photo of the block turned half round, as the calibration
page asks) and then filmed on any table, and the style's sets of every look with the built-in
profile; each frame is read through the view a Pi camera turns to (``vision.zoom``: a crop of
its sensor, when the hive looks small in the whole view; its lens blur, motion streak and noise
grow with the zoom), or the whole view with ``--whole-view`` (the enrollment photos are whole views), its tops under
glare read again from a darker frame of the same view as a camera whose exposure can be set takes one
(``vision.glare``; ``darker``: the share of frames that took one); training styles first, the blind styles (never
trained or tuned on) last, and the worst enrolled style. ``exact_20px``: whole position on the frames whose tiles lie at least 20
pixels apart (``vision.tile_size.READABLE_PITCH``: the live page tells the user to bring the camera
nearer below that); ``readable``: the share of the frames without a hand whose tiles lie that far apart and whose every
top shows its print (``vision.set_art.printless``: not washed out by glare), and ``exact_readable`` whole position on those;
``colour_clear`` and ``creature_clear``: colour and creature of the found tops that lie that far apart and show their print. A
second table gives, per style, why frames were not exact (the share of frames with a missed
tile, a phantom, a wrong colour, a wrong creature, a false occlusion, or wrong cells). The classic sections: every frame gets a random camera pose (40-80 cm, tilt up to 30 degrees, any turn), lens,
light, table and noise; one frame in five has a hand reaching over the hive (those frames
score only as 'hand': flagged occluded or exactly right; the others score everything else). A top that
shows under half its face (a taller stack or a cup nearer the camera before it) is left out of the truth,
as is a stack beyond the frame's edge: whether it is seen or not counts for nothing. Sections:
``a`` style-A art with the shipped profile; ``pocket`` the same with pocket-size tiles;
``b`` style-B art after enrolling on 1, 2 and 4 style-B photos of the default layout;
``carbon`` style-A shapes all in one colour, enrolled on 4 photos; ``lamp`` style A with a lamp
of random colour and brightness switched on after a first view of the table, with and without
the session light normalisation. ``--tilemap`` reads with a candidate tile map (a fine-tune's
export) in enrollment and play; ``--log`` writes each styles-section frame's outcome, which
``benchmarks/compare_runs.py`` compares frame by frame with another run's. Not part of pytest.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from calibration.errors import CalibrationError  # noqa: E402
from calibration.layout import DEFAULT_LAYOUT  # noqa: E402
from rules import Board  # noqa: E402
from rules.observation import Observation, TileSighting  # noqa: E402
from rules.pieces import Piece  # noqa: E402
from vision import tilemaps  # noqa: E402
from vision.compare import align  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.features import rectified_crop  # noqa: E402
from vision.glare import DARKER  # noqa: E402
from vision.session_light import SessionLight  # noqa: E402
from vision.set_art import printless  # noqa: E402
from vision.tile_size import READABLE_PITCH  # noqa: E402
from vision.enroll import enroll  # noqa: E402
from vision.profile import CreatureProfile, default_profile  # noqa: E402
from vision.render.photos import enrolled_as_told, enrollment_photos  # noqa: E402
from vision.render.canvas import Label  # noqa: E402
from vision.render.scene import (Conditions, FrameTruth, Position, make_camera, random_conditions,  # noqa: E402
                                 random_lamp, render_position)
from vision.training.styles import BLIND_STYLES, TRAINING_STYLES  # noqa: E402
from vision.render.world import random_world  # noqa: E402
from vision.zoom import LOST_SHARE, WHOLE, Zoom  # noqa: E402

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "valid-moves" / \
    "Board_ValidMovesFromRealGamesTest.csv"
HAND_SHARE = 0.2
TUCKED = 0.5  # a top showing less of its face than this (a taller stack or a cup before it) is left out of the truth
CAUSES = ("missed", "phantom", "colour", "creature", "occluded", "cells")  # 'cells': all tiles right, not their places
NEAR_EXACT = f"exact_{READABLE_PITCH:.0f}px"  # whole position on the frames whose tiles lie that far apart
TARGETS = {"recall": 99.9, "phantoms": 0.1, "colour": 99.95, "creature": 99.8, "exact": 98.0, "hand": 99.0,
           "ms": 40.0}


def real_positions() -> list[Position]:
    """Every non-empty position of the corpus GameStrings."""
    positions = []
    for line in CORPUS.read_text(encoding="utf-8-sig").splitlines():
        if line.strip() and not line.startswith("#"):
            stacks = Board.from_game_string(line.split("\t")[0]).stacks()
            if stacks:
                positions.append(stacks)
    return positions


@dataclass
class Tally:
    truth_tiles: int = 0
    found: int = 0
    phantoms: int = 0
    colour_right: int = 0
    bug_right: int = 0
    height_right: int = 0
    frames: int = 0
    exact: int = 0
    near_frames: int = 0  # frames whose tiles lie at least READABLE_PITCH apart (the page warns of the others)
    near_exact: int = 0
    false_occluded: int = 0
    darker: int = 0  # frames whose tops showing no print (glare) were read again from a darker frame
    readable: int = 0  # frames whose every top shows its print at a readable size (no glare wash-out)
    readable_exact: int = 0
    clear_found: int = 0  # found tops of frames with tiles READABLE_PITCH apart, showing their print
    clear_colour: int = 0
    clear_bug: int = 0
    causes: Counter = field(default_factory=Counter)  # frames not exact, by what went wrong
    hand_frames: int = 0
    hand_ok: int = 0
    times: list[float] = field(default_factory=list)
    outcomes: list[dict] = field(default_factory=list)  # per frame: its index, hand, right, causes (for ``--log``)

    def row(self) -> dict[str, float]:
        pct = lambda a, b: 100.0 * a / b if b else float("nan")  # noqa: E731
        return {"recall": pct(self.found, self.truth_tiles), "phantoms": pct(self.phantoms, self.truth_tiles),
                "colour": pct(self.colour_right, self.found), "creature": pct(self.bug_right, self.found),
                "height": pct(self.height_right, self.found), "exact": pct(self.exact, self.frames),
                NEAR_EXACT: pct(self.near_exact, self.near_frames),
                "false_occl": pct(self.false_occluded, self.frames), "hand": pct(self.hand_ok, self.hand_frames),
                "darker": pct(self.darker, self.frames),
                "ms": statistics.median(self.times) * 1000 if self.times else float("nan"),
                "readable": pct(self.readable, self.frames), "exact_readable": pct(self.readable_exact, self.readable),
                "colour_clear": pct(self.clear_colour, self.clear_found), "creature_clear": pct(self.clear_bug, self.clear_found),
                **{f"why_{cause}": pct(self.causes[cause], self.frames) for cause in CAUSES}}


def _within_frame(observation: Observation, truth: FrameTruth) -> Observation:
    """``observation`` without the tops seen on the visible part of a stack whose centre lies
    beyond the frame's edge: the truth leaves such stacks out, so such a top is no phantom (nor
    is one not seen missed). A top so dropped lies within half a tile of the edge, on a pixel of
    a tile top, and near no top of the truth."""
    if not truth.outside:
        return observation
    height, width = truth.labels.shape
    def beyond(sighting: TileSighting) -> bool:
        x, y = sighting.px
        top = truth.labels[int(np.clip(y, 0, height - 1)), int(np.clip(x, 0, width - 1))]
        return (min(x, y, width - 1 - x, height - 1 - y) < truth.tile_px / 2
                and top in (Label.WHITE_TOP, Label.BLACK_TOP)
                and all(np.hypot(x - t.px[0], y - t.px[1]) >= 0.4 * truth.tile_px for t in truth.tiles))
    return replace(observation, tiles=tuple(s for s in observation.tiles if s.px is None or not beyond(s)))


def _hidden_left_out(observation: Observation, truth: FrameTruth) -> tuple[Observation, FrameTruth]:
    """``observation`` and ``truth`` without the tops that show under ``TUCKED`` of their face (a
    taller stack or a cup nearer the camera stands before them: no camera could read them) and
    without the tops seen on them (within 0.4 tiles of one, and of no top that shows): such a
    top is neither missed nor a phantom, as a stack beyond the frame's edge is not."""
    tucked = [t for t in truth.tiles if t.shown < TUCKED]
    if not tucked:
        return observation, truth
    shows = [t for t in truth.tiles if t.shown >= TUCKED]
    reach = 0.4 * truth.tile_px
    def on_hidden(sighting: TileSighting) -> bool:
        near = [t for t in truth.tiles if np.hypot(sighting.px[0] - t.px[0], sighting.px[1] - t.px[1]) < reach]
        return bool(near) and all(t.shown < TUCKED for t in near)
    seen = tuple(s for s in observation.tiles if s.px is None or not on_hidden(s))
    return replace(observation, tiles=seen), replace(truth, tiles=shows)


def _first_look(detector: Detector, position: Position, conditions: Conditions,
                zoom: bool) -> tuple[np.ndarray | None, FrameTruth | None, tuple[float, float, float] | None]:
    """With ``zoom``, the part of the whole view (x, y, zoom) a camera that crops its sensor reads
    this frame through (``vision.zoom``: picked from the whole view without the hand, as the frames
    before the hand came showed it; None for the whole view, also where the crop shows under
    ``LOST_SHARE`` of the whole view's tops: the camera gives such a zoom up after a few frames),
    and the frame and truth of that view without the hand if they are the frame to score (no
    hand). The detector is then told of the view."""
    if not zoom:
        return None, None, None
    bare = replace(conditions, hand=False)
    frame, truth = render_position(position, bare)
    seen = detector.detect(frame)
    view = Zoom((frame.shape[1], frame.shape[0])).after(seen)
    if view is not None:
        detector.look_through(view)
        cropped, cropped_truth = render_position(position, bare, view=(view.x, view.y, view.zoom))
        if len(detector.detect(cropped).tiles) < LOST_SHARE * len(seen.tiles):
            view = None
        else:
            frame, truth = cropped, cropped_truth
    detector.look_through(view or WHOLE)
    shown = None if view is None else (view.x, view.y, view.zoom)
    return (None, None, shown) if conditions.hand else (frame, truth, shown)


def run_section(detector: Detector, positions: list[Position], frames: int, seed: int,
                lamp: str = "", world: str = "", zoom: bool = True, intrinsics: bool = False, **fixed) -> Tally:
    """Score ``frames`` random frames. ``lamp`` switches a lamp of random colour on after a first
    view: "steady" lets the detector learn the table's light from that view (``SessionLight``),
    "raw" does not. ``world`` (a style) draws every frame from the wide physical world in that
    art style instead of the classic conditions, read through the part of the sensor that
    ``vision.zoom`` picks unless ``zoom`` is off; ``intrinsics`` tells the detector each frame's
    lens, as a calibrated camera's file does; ``fixed`` pins fields of either."""
    rng = np.random.default_rng(seed)
    tally = Tally()
    for index in range(frames):
        position = positions[int(rng.integers(len(positions)))]
        hand = bool(rng.random() < HAND_SHARE)
        carried = Piece.ALL[int(rng.integers(len(Piece.ALL)))] if hand else None
        conditions = (replace(random_world(rng, world, **fixed), hand=hand) if world
                      else random_conditions(rng, hand=hand, **fixed))
        detector.look_through(WHOLE)  # every frame a new scene: score what it shows (after the lamp's first view)
        if intrinsics:
            detector.use_camera(make_camera(position, conditions).intrinsics())
        if lamp:
            detector.light = SessionLight() if lamp == "steady" else None
            detector.detect(render_position(position, replace(conditions, hand=False))[0])
            conditions = replace(conditions, cast=random_lamp(rng), seed=conditions.seed + 1)
        frame, truth, view = _first_look(detector, position, conditions, zoom and bool(world))
        if frame is None:
            frame, truth = render_position(position, conditions, carried=carried, view=view)
        start = time.perf_counter()
        observation = detector.detect(frame)
        tally.times.append(time.perf_counter() - start)
        took_darker = bool(world and not hand and detector.wants_darker())
        if took_darker:  # the camera takes a darker frame of the still view
            darker = render_position(position, replace(conditions, exposure=DARKER), view=view)[0]
            observation = detector.read_darker(darker) or observation
            tally.darker += 1
        observation, truth = _hidden_left_out(_within_frame(observation, truth), truth)
        true_board = {t.cell: (t.colour, t.bug) for t in truth.tiles}
        seen_board = {s.cell: (s.colour, s.bug) for s in observation.tiles}
        alignment = align(seen_board, true_board)
        exact = (not observation.occluded and len(seen_board) == len(true_board) == alignment.matched
                 and all(true_board[alignment.apply(c)] == v for c, v in seen_board.items()))
        if hand:  # a hand over or beside the hive: it must be flagged, or the board fully right
            flagged_or_right = bool(observation.occluded or exact)
            tally.hand_frames += 1
            tally.hand_ok += flagged_or_right
            tally.outcomes.append({"frame": index, "hand": True, "right": flagged_or_right})
            continue
        tally.frames += 1
        tally.exact += exact
        near = truth.pitch_px >= READABLE_PITCH
        tally.near_frames += near
        tally.near_exact += near and exact
        tally.false_occluded += observation.occluded
        washed = printless([rectified_crop(frame, np.asarray(t.px), t.basis) for t in truth.tiles])
        readable = near and not washed.any()
        tally.readable += readable
        tally.readable_exact += readable and exact
        tally.truth_tiles += len(truth.tiles)
        causes = {"occluded"} if observation.occluded else set()
        unmatched = list(observation.tiles)
        for tile, blank in zip(truth.tiles, washed):
            close = [s for s in unmatched if np.hypot(s.px[0] - tile.px[0], s.px[1] - tile.px[1]) < 0.4 * truth.tile_px]
            if not close:
                causes.add("missed")
                continue
            sighting = min(close, key=lambda s: np.hypot(s.px[0] - tile.px[0], s.px[1] - tile.px[1]))
            unmatched.remove(sighting)
            tally.found += 1
            tally.colour_right += sighting.colour is tile.colour
            tally.bug_right += sighting.bug is tile.bug
            tally.height_right += (sighting.height_hint > 1) == (tile.height > 1)
            if near and not blank:
                tally.clear_found += 1
                tally.clear_colour += sighting.colour is tile.colour
                tally.clear_bug += sighting.bug is tile.bug
            causes |= {"colour"} if sighting.colour is not tile.colour else {"creature"} if sighting.bug is not tile.bug else set()
        tally.phantoms += len(unmatched)
        causes |= {"phantom"} if unmatched else set()
        tally.causes.update(() if exact else causes or {"cells"})
        tally.outcomes.append({"frame": index, "hand": False, "right": bool(exact),
                               "causes": [] if exact else sorted(causes or {"cells"}), "pitch": round(truth.pitch_px, 1),
                               "darker": took_darker})
    return tally


ROW_NAMES = ("wQ wS1 wS2 wB1 wB2 wG1 wG2", "wG3 wA1 wA2 wA3 wM wL wP", "bQ bS1 bS2 bB1 bB2 bG1 bG2",
             "bG3 bA1 bA2 bA3 bM bL bP")
# four rows of seven touching tiles of one colour, one cell apart
ROWS_LAYOUT = "\n".join(f"{k - row} {2 * row} {name}" for row, names in enumerate(ROW_NAMES)
                         for k, name in enumerate(names.split()))


def scatter_layout(rng: np.random.Generator) -> str:
    """All 28 pieces at random cells of a sparse grid: none touching."""
    spots = [(q, r) for q in range(-8, 9, 2) for r in range(-4, 5, 2)]
    chosen = rng.permutation(len(spots))[:28]
    names = " ".join(ROW_NAMES).split()
    return "\n".join(f"{spots[k][0] + (spots[k][1] // 2) % 2} {spots[k][1]} {name}" for k, name in zip(chosen, names))


@dataclass(frozen=True)
class Enrolled:
    """One style's set enrolled from its photos: the profile (or why enrollment failed), the layout
    it was laid out in, and the set's look (every frame of the set shows the same tiles)."""

    profile: CreatureProfile | str
    layout: str
    look: dict[str, object]


def style_enrollment(style: str, rng: np.random.Generator, photos: int = 1) -> Enrolled:
    """The set of ``style`` enrolled from ``photos`` photos (the block turned half round between
    them) in a layout picked at random (taken again nearer if hivecam finds its tiles too small to
    learn from, as a user would)."""
    name, layout = [("documented", DEFAULT_LAYOUT), ("rows", ROWS_LAYOUT),
                    ("scatter", scatter_layout(rng))][int(rng.integers(3))]
    world = replace(random_world(rng, style), hand=False, objects=(), aim_mm=(0.0, 0.0))  # the user frames the layout
    look = {"art_variant": world.art_variant, "mono": world.mono}
    try:
        return Enrolled(enrolled_as_told(layout, world, photos)[0], name, look)
    except CalibrationError as exc:
        return Enrolled(str(exc), name, look)


def style_rows(positions: list[Position], frames: int, seed: int, only: tuple[str, ...] = (), photos: int = 1,
               outcomes: list[dict] | None = None, zoom: bool = True, intrinsics: bool = False
               ) -> list[tuple[str, dict[str, float]]]:
    """Every art style (or those in ``only``) in the wide world: one set enrolled from ``photos``
    photos and filmed on any table, and the style's sets (any look) with the built-in profile. Training styles
    first, the blind ones (never trained or tuned on) last. A style draws the same frames whether
    or not the others run. Each frame's outcome, named by its section, is added to ``outcomes``."""
    rows = []
    for index, style in enumerate((*TRAINING_STYLES, *BLIND_STYLES)):
        if only and style not in only:
            continue
        tag = "blind " if style in BLIND_STYLES else ""
        enrolled = style_enrollment(style, np.random.default_rng([seed, index]), photos)
        sections = []
        if isinstance(enrolled.profile, str):
            print(f"{style}: enrollment from {photos} {enrolled.layout} photo(s) failed: {enrolled.profile}")
        else:
            sections.append((f"{tag}{style}, enrolled ({enrolled.layout})",
                             run_section(Detector(enrolled.profile), positions, frames, seed + index, world=style,
                                         zoom=zoom, intrinsics=intrinsics, **enrolled.look)))
        sections.append((f"{tag}{style}, built-in",
                         run_section(Detector(default_profile()), positions, max(frames // 5, 20), seed + 100 + index,
                                     world=style, zoom=zoom, intrinsics=intrinsics)))
        rows += [(name, tally.row()) for name, tally in sections]
        if outcomes is not None:
            outcomes += [{"section": name, **outcome} for name, tally in sections for outcome in tally.outcomes]
    enrolled_rows = [row for name, row in rows if "enrolled" in name]
    if enrolled_rows:
        worst = {c: (max if c in ("phantoms", "ms", "false_occl", "darker") or c.startswith("why_") else min)(r[c] for r in enrolled_rows)
                 for c in enrolled_rows[0]}
        rows.append(("worst style, enrolled", worst))
    return rows


def print_causes(rows: list[tuple[str, dict[str, float]]]) -> None:
    """Why frames were not exact (% of frames, a frame may have several causes), and the whole
    position on the readable frames: tiles at least READABLE_PITCH apart, every top showing its print."""
    columns = ["readable", "exact_readable", "colour_clear", "creature_clear", "darker",
               *(f"why_{cause}" for cause in CAUSES)]
    print(f"{'section':<34}" + "".join(f"{c:>15}" for c in columns))
    for name, row in rows:
        print(f"{name:<34}" + "".join(f"{row[c]:>15.2f}" for c in columns))


def print_table(rows: list[tuple[str, dict[str, float]]]) -> None:
    columns = ["recall", "phantoms", "colour", "creature", "exact", NEAR_EXACT, "hand", "false_occl", "height", "ms"]
    print(f"{'section':<34}" + "".join(f"{c:>11}" for c in columns))
    target = {c: (f"{'>=' if c not in ('phantoms', 'ms') else '<='}{TARGETS[c]:g}" if c in TARGETS else "")
              for c in columns}
    print(f"{'target':<34}" + "".join(f"{target[c]:>11}" for c in columns))
    for name, row in rows:
        print(f"{name:<34}" + "".join(f"{row[c]:>11.2f}" for c in columns))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=500, help="frames per section (default 500)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sections", default="styles,a,pocket,b,carbon,lamp")
    parser.add_argument("--styles", default="", help="styles section: only these styles (comma-separated)")
    parser.add_argument("--photos", type=int, default=1, choices=(1, 2),
                        help="styles section: enrollment photos (2: the block turned half round between them, "
                             "as the calibration page asks)")
    parser.add_argument("--tilemap", type=Path, help="read with this tile map ONNX file instead of the shipped one "
                        "(a fine-tune's export), in enrollment and play")
    parser.add_argument("--log", type=Path, help="styles section: write each frame's outcome here (JSON lines), "
                        "for benchmarks/compare_runs.py")
    parser.add_argument("--whole-view", action="store_true",
                        help="styles section: read every frame of the whole view, as a camera that cannot crop "
                             "its sensor does (no zoom on a small-looking hive)")
    parser.add_argument("--intrinsics", action="store_true",
                        help="styles section: tell the detector each frame's lens, as a camera calibrated with "
                             "hivecam calibrate camera is (default: an unknown lens)")
    args = parser.parse_args(argv)
    if args.tilemap is not None and not args.tilemap.is_file():
        parser.error(f"--tilemap: {args.tilemap} is not a file")
    if args.log is not None and "styles" not in args.sections.split(","):
        parser.error("--log writes the styles section's frames: add styles to --sections")
    if args.tilemap is not None:
        tilemaps.MODEL_PATH = args.tilemap  # every TileMapper made from now on loads it
    unknown = set(filter(None, args.styles.split(","))) - {*TRAINING_STYLES, *BLIND_STYLES}
    if unknown:
        parser.error(f"--styles: unknown style {', '.join(sorted(unknown))}; "
                     f"choose from {', '.join((*TRAINING_STYLES, *BLIND_STYLES))}")
    cv2.setNumThreads(1)
    positions = real_positions()
    sections = args.sections.split(",")
    rows: list[tuple[str, dict[str, float]]] = []
    print(f"{len(positions)} corpus positions, {args.frames} frames per section, seed {args.seed}")
    if "styles" in sections:
        outcomes: list[dict] = []
        rows.extend(style_rows(positions, args.frames, args.seed, tuple(filter(None, args.styles.split(","))),
                               args.photos, outcomes, not args.whole_view, args.intrinsics))
        if args.log is not None:
            args.log.write_text("".join(json.dumps(outcome) + "\n" for outcome in outcomes))
    if "a" in sections:
        rows.append(("style a, standard", run_section(Detector(default_profile()), positions, args.frames,
                                                      args.seed, style="a").row()))
    if "pocket" in sections:
        rows.append(("style a, pocket", run_section(Detector(default_profile()), positions, args.frames,
                                                    args.seed + 1, style="a", tile_size="pocket").row()))
    if "b" in sections:
        rows.append(("style b, default profile", run_section(Detector(default_profile()), positions,
                                                             max(args.frames // 5, 20), args.seed + 2,
                                                             style="b").row()))
        for photos in (1, 2, 4):
            profile = enroll(enrollment_photos(photos, seed=77, style="b"), DEFAULT_LAYOUT)
            frames = args.frames if photos == 4 else max(args.frames // 5, 20)
            rows.append((f"style b, enrolled {photos} photo{'s' if photos > 1 else ''}",
                         run_section(Detector(profile), positions, frames, args.seed + 3, style="b").row()))
    if "lamp" in sections:
        for mode, name in (("raw", "lamp on, uncompensated"), ("steady", "lamp on, session light")):
            rows.append((name, run_section(Detector(default_profile()), positions, args.frames // 2,
                                           args.seed + 5, lamp=mode, style="a").row()))
    if "carbon" in sections:
        profile = enroll(enrollment_photos(4, seed=78, style="a", mono=True), DEFAULT_LAYOUT)
        rows.append(("carbon (mono), 4 photos", run_section(Detector(profile), positions, args.frames // 2,
                                                            args.seed + 4, style="a", mono=True).row()))
    print_table(rows)
    print_causes(rows)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (max RSS, whole benchmark incl. renderer): {peak_mb:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
