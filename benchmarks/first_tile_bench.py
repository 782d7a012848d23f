"""The game's first tile: one piece alone on the table, read by a set enrolled from one photo.

    python benchmarks/first_tile_bench.py [--frames 64] [--seed 1] [--styles a,b,...]

A lone top has no neighbour to show how the hive's lattice lies (its turn, its size), so it is
read differently from a tile in a hive, and every game starts with one. Per art style (training
styles first, the blind ones last), the set enrolled as in ``vision_bench.py --sections styles``,
then ``--frames`` frames of the wide world, each of one piece (every piece in turn) alone, no
hand. Columns, share of frames: ``found`` exactly one top; ``right`` its colour and creature;
``sure_right`` right and at least the referee's ``min_confidence`` (recorded with no question);
``sure_wrong`` wrong yet that sure (recorded wrongly); ``phantoms`` frames with a second top.
Not part of pytest.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rules.pieces import Piece  # noqa: E402
from rules.referee import RefereeConfig  # noqa: E402
from vision.detect import Detector  # noqa: E402
from vision.render.scene import render_position  # noqa: E402
from vision.render.world import random_world  # noqa: E402
from vision.training.styles import BLIND_STYLES, TRAINING_STYLES  # noqa: E402
from vision_bench import style_enrollment  # noqa: E402

SURE = RefereeConfig().min_confidence
COLUMNS = ("found", "right", "sure_right", "sure_wrong", "phantoms")


def style_row(style: str, index: int, frames: int, seed: int) -> dict[str, float] | str:
    """The columns for one style (percent of frames), or why its enrollment failed."""
    enrolled = style_enrollment(style, np.random.default_rng([seed, index]), 1)
    if isinstance(enrolled.profile, str):
        return enrolled.profile
    detector = Detector(enrolled.profile)
    rng = np.random.default_rng([seed, index, 1])
    counts = dict.fromkeys(COLUMNS, 0)
    for k in range(frames):
        piece = Piece.ALL[k % len(Piece.ALL)]
        frame, truth = render_position({(0, 0): [piece]}, replace(random_world(rng, style, **enrolled.look), hand=False))
        detector.forget()
        tops = detector.detect(frame).tiles
        counts["phantoms"] += len(tops) > 1
        if len(tops) != 1:
            continue
        top = tops[0]
        right = (top.colour, top.bug) == (piece.colour, piece.bug)
        counts["found"] += 1
        counts["right"] += right
        counts["sure_right"] += right and top.confidence >= SURE
        counts["sure_wrong"] += not right and top.confidence >= SURE
    return {column: 100 * count / frames for column, count in counts.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=64, help="frames per style (default 64)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--styles", default="", help="only these styles (comma-separated)")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    only = set(filter(None, args.styles.split(",")))
    print(f"{'style':<22}" + "".join(f"{c:>12}" for c in COLUMNS))
    for index, style in enumerate((*TRAINING_STYLES, *BLIND_STYLES)):
        if only and style not in only:
            continue
        row = style_row(style, index, args.frames, args.seed)
        name = f"{'blind ' if style in BLIND_STYLES else ''}{style}"
        if isinstance(row, str):
            print(f"{name:<22}enrollment failed: {row}")
        else:
            print(f"{name:<22}" + "".join(f"{row[c]:>12.1f}" for c in COLUMNS), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
