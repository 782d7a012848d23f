"""Tile map benchmark: the tile map network alone, tops missed and phantoms found, in the wide world.

    python benchmarks/fetch_art.py   # once: the icon-set art styles
    python benchmarks/tilemap_bench.py [--frames 150] [--seed 8] [--model vision/models/tilemap.onnx]
        [--styles a,b,...]

Each art style (training styles first, the blind ones last) films ``--frames`` championship
positions of the shared corpus, each in a fresh random world (``vision.render.world``: any
table, light, lens, hands, cups). A frame's tops are ``vision.tilemaps.tile_tops`` of the frame
alone at the heat a new scene's top needs (``vision.still.NEW_TOP``; cooler ones the detector
takes only on a second opinion, which this does not score), matched one to one to the rendered tops no hand hides (``vision.training.targets.map_reading``).
Per style: tops missed, phantoms, and the share of frames with any such error, with and
without a hand over the board; of the tops found, how many the map gave the wrong colour
(it weighs every creature read) and how far their centres lie off (median and 95th
percentile, % of the pitch: the creature crops are cut there); then the same over all styles by table and by tile pitch in the
frame. ``--model`` scores a candidate map (say, a fine-tune's export) against the same frames.
Not part of pytest.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.vision_bench import real_positions  # noqa: E402
from vision.render.scene import render_position  # noqa: E402
from vision.render.world import random_world  # noqa: E402
from vision.tilemaps import MODEL_PATH, TileMapper  # noqa: E402
from vision.tile_size import READABLE_PITCH  # noqa: E402
from vision.training.styles import BLIND_STYLES, TRAINING_STYLES  # noqa: E402
from vision.training.targets import MapReading, map_reading  # noqa: E402

PITCH_BANDS = (int(READABLE_PITCH), 30, 40)  # pixels: the bands' lower edges after the first
STYLES = (*TRAINING_STYLES, *BLIND_STYLES)  # the order of the report: blind styles last


@dataclass
class Count:
    """Tile map errors over some frames."""

    frames: int = 0
    tops: int = 0
    missed: int = 0
    phantoms: int = 0
    wrong: int = 0  # frames with a top missed or a phantom
    colour: int = 0  # found tops whose colour the map read wrong
    offsets: list[float] = field(default_factory=list)  # found tops' centre errors, in pitches

    def add(self, tops: int, reading: MapReading) -> None:
        self.frames += 1
        self.tops += tops
        self.missed += reading.missed
        self.phantoms += reading.phantoms
        self.wrong += bool(reading.missed or reading.phantoms)
        self.colour += reading.wrong_colour
        self.offsets += reading.offsets

    def line(self, name: str) -> str:
        share = 100 * self.wrong / max(self.frames, 1)
        off = np.array(self.offsets or [np.nan]) * 100
        return (f"{name:24s} {self.frames:6d} {self.tops:6d} {self.missed:6d} {self.phantoms:8d} "
                f"{self.wrong:6d} {share:7.1f} {self.colour:6d} {np.median(off):6.1f} {np.percentile(off, 95):6.1f}")


HEADER = (f"{'':24s} {'frames':>6s} {'tops':>6s} {'missed':>6s} {'phantoms':>8s} {'wrong':>6s} {'wrong %':>7s} "
          f"{'colour':>6s} {'off50':>6s} {'off95':>6s}")


def style_name(style: str) -> str:
    """The style as the report names it (blind ones say so)."""
    return f"blind {style}" if style in BLIND_STYLES else style


def pitch_band(pitch: float) -> str:
    """The frame's tile pitch band, as a label."""
    edges = (0, *PITCH_BANDS)
    low = max(edge for edge in edges if edge <= pitch)
    above = [edge for edge in PITCH_BANDS if edge > low]
    return f"pitch {low}-{above[0]} px" if above else f"pitch {low}+ px"


def score(mapper: TileMapper, styles: tuple[str, ...], frames: int, seed: int) -> dict[str, Count]:
    """Counts per style (with and without a hand), per table and per pitch band."""
    positions = real_positions()
    counts: dict[str, Count] = defaultdict(Count)
    for index, style in enumerate(STYLES):
        if style not in styles:
            continue
        rng = np.random.default_rng([seed, index])
        for _ in range(frames):
            conditions = random_world(rng, style=style)
            frame, truth = render_position(positions[int(rng.integers(len(positions)))], conditions)
            reading = map_reading(mapper, frame, truth)
            tops = sum(not tile.hidden_by_hand for tile in truth.tiles)
            name = style_name(style)
            for key in (name, f"{name}, " + ("hand" if conditions.hand else "no hand"),
                        "all", f"table {conditions.table}", pitch_band(truth.tile_px)):
                counts[key].add(tops, reading)
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=150, help="frames per style (default 150)")
    parser.add_argument("--seed", type=int, default=8)
    parser.add_argument("--model", type=Path, default=MODEL_PATH, help="the tile map ONNX file to score")
    parser.add_argument("--styles", default="", help="only these styles (comma-separated)")
    args = parser.parse_args(argv)
    styles = tuple(filter(None, args.styles.split(","))) or STYLES
    if unknown := set(styles) - set(STYLES):
        parser.error(f"--styles: unknown style {', '.join(sorted(unknown))}; choose from {', '.join(STYLES)}")
    cv2.setNumThreads(1)
    counts = score(TileMapper(args.model), styles, args.frames, args.seed)
    print(f"{args.model}: {args.frames} frames per style, seed {args.seed}")
    print(HEADER)
    per_style = [f"{style_name(style)}{part}" for style in STYLES if style in styles
                 for part in ("", ", no hand", ", hand")]
    overall = sorted(key for key in counts if key.startswith(("table ", "pitch ")))
    for key in (*per_style, "all", *overall):
        if key in counts:
            print(counts[key].line(key))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
