"""``hivecam render``: synthetic camera frames of a position, or of a whole game.

    hivecam render --game-string "Base;InProgress;White[2];wS1;bG1 -wS1" --out frame.png [--style b] [--seed N]
    hivecam render --game-string "..." --video --out frames/      # every frame of the game, hand included
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from rules.board import Board
from vision.render.art import STYLES
from vision.render.game import game_frames
from vision.render.scene import TILE_SIZES, Conditions, FrameTruth, random_conditions, render_position
from vision.render.surfaces import TABLES


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game-string", required=True, help="a UHP GameString; its final position is drawn")
    parser.add_argument("--out", required=True, help="image file (or, with --video, a folder)")
    parser.add_argument("--style", choices=STYLES, default="a", help="art style of the creatures")
    parser.add_argument("--tiles", choices=sorted(TILE_SIZES), default="standard", help="tile size")
    parser.add_argument("--table", choices=TABLES, help="table surface (default: random)")
    parser.add_argument("--seed", type=int, default=0, help="random camera, light and placement")
    parser.add_argument("--clean", action="store_true", help="straight overhead camera, no noise or blur")
    parser.add_argument("--hand", action="store_true", help="a hand reaches over the hive")
    parser.add_argument("--video", action="store_true", help="write every frame of the game into the folder --out")
    parser.add_argument("--truth", help="also write the ground truth as JSON to this file")


def _conditions(args: argparse.Namespace) -> Conditions:
    if args.clean:
        base = Conditions(seed=args.seed)
    else:
        base = random_conditions(np.random.default_rng(args.seed))
    chosen = {"style": args.style, "tile_size": args.tiles, "hand": args.hand}
    if args.table:
        chosen["table"] = args.table
    return replace(base, **chosen)


def _truth_json(truth: FrameTruth) -> dict:
    return {"tiles": [{"q": t.cell[0], "r": t.cell[1], "colour": t.colour.value, "bug": t.bug.value,
                       "height": t.height, "px": [round(t.px[0], 1), round(t.px[1], 1)], "cut": t.cut,
                       "hidden_by_hand": t.hidden_by_hand} for t in truth.tiles],
            "hand_occludes": truth.hand_occludes, "tile_px": round(truth.tile_px, 1)}


def run(args: argparse.Namespace) -> int:
    try:
        board = Board.from_game_string(args.game_string)
    except ValueError as exc:
        print(f"hivecam render: {exc}", file=sys.stderr)
        return 2
    conditions = _conditions(args)
    out = Path(args.out)
    truths = []
    if args.video:
        out.mkdir(parents=True, exist_ok=True)
        for index, (frame, info) in enumerate(game_frames(args.game_string, seed=args.seed,
                                                          conditions=replace(conditions, hand=False))):
            cv2.imwrite(str(out / f"frame{index:05d}.png"), frame)
            truths.append({"move": info.move, "hand": info.hand, **_truth_json(info.truth)})
        print(f"{out}: {len(truths)} frames")
    else:
        frame, truth = render_position(board.stacks(), conditions)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(out), frame):
            print(f"hivecam render: cannot write {out} (unknown image type?)", file=sys.stderr)
            return 2
        truths.append(_truth_json(truth))
        print(f"{out}: {len(truth.tiles)} tiles")
    if args.truth:
        Path(args.truth).write_text(json.dumps(truths if args.video else truths[0], indent=1), encoding="utf-8")
    return 0
