"""Render training shards: frames of random worlds with their tile-map targets and tile crops.

    python -m vision.training.generate --out var/train --frames 2000 --seed 1 [--workers 2]

Positions come from the boardspace games of the shared corpus (never from the championship
positions the benchmark scores) and from rows and blobs of touching tiles; worlds and art
styles are drawn at random from the training styles only (``TRAINING_STYLES``): the blind
styles stay unseen. Half the frames (``--made-up``) film made-up sets instead: eight random
icons of a training icon style or a pool set as the creatures, so the creature network learns
to tell apart the creatures of sets it never met rather than the few sets the styles draw.
``--hard`` keeps only the frames where the shipped tile map errs (a top missed or a phantom
found) and that share of the others, for fine-tuning the map where it is weak; ``--table NAME``
films that share (``--table-share``) of the frames on one table, one the map finds hard.
``--zoomed`` takes that share of the frames through the crop of the sensor that a camera turns to
where the hive looks small (``vision.zoom.view_for``, from the rendered tops), as the detector
then reads them: the lens blur, motion streak and noise grown with the zoom.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from vision.render.icons import ICON_SETS, POOL_SETS, made_up_set
from vision.render.positions import load_games, random_position
from vision.render.scene import Conditions, FrameTruth, Position, render_position
from vision.render.surfaces import PLANE_TABLES
from vision.render.world import random_world
from vision.tilemaps import TileMapper
from vision.training.styles import TRAINING_STYLES
from vision.training.targets import map_reading, map_targets, tile_crops
from vision.zoom import WHOLE, view_for

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "boardspace-sgf"

SHARD_FRAMES = 50
CROPS_PER_TOP = 2
MADE_UP_FRAMES = 5  # frames in a row that film one made-up set, enough crops of each class for its episodes
MADE_UP_SHARE = 0.5
MADE_UP = "made-up-"  # how the crop keys of made-up sets begin
MADE_UP_SOURCES = (*(s for s in TRAINING_STYLES if s in ICON_SETS), *POOL_SETS)  # never a blind style's art
MAX_TRIES = 40  # frames rendered at most for one kept frame when keeping hard ones


@lru_cache(maxsize=1)
def _games() -> list:
    """The corpus games' positions, loaded once per worker."""
    games = load_games(CORPUS)
    if not games:
        raise SystemExit(f"{CORPUS}: no SGF games (training needs the shared corpus beside the checkout)")
    return games


def _sets(rng: np.random.Generator, styles: tuple[str, ...], made_up: float, name: str
          ) -> Iterator[tuple[str, dict[str, Any]]]:
    """SHARD_FRAMES (set label, the world's pinned art): each frame in one of ``styles``, or, with
    chance ``made_up`` per MADE_UP_FRAMES frames, those frames all filming one made-up set."""
    for start in range(0, SHARD_FRAMES, MADE_UP_FRAMES):
        if made_up > 0 and rng.random() < made_up:
            look, icons = made_up_set(rng, MADE_UP_SOURCES)
            art = {"style": look, "icons": icons, "art_variant": int(rng.integers(8)), "mono": bool(rng.random() < 0.15)}
            for _ in range(MADE_UP_FRAMES):
                yield f"{MADE_UP}{name}-{start}", art
            continue
        for _ in range(MADE_UP_FRAMES):
            style = styles[int(rng.integers(len(styles)))]
            yield style, {"style": style}


@lru_cache(maxsize=1)
def _mapper() -> TileMapper:
    """The shipped tile map, loaded once per worker."""
    return TileMapper()


def map_errs(mapper: TileMapper, frame: np.ndarray, truth: FrameTruth) -> bool:
    """Whether the tile map's tops of ``frame`` (read as a new scene's: ``map_reading``) miss a
    rendered top (one no hand hides) or include one where none is."""
    reading = map_reading(mapper, frame, truth)
    return bool(reading.missed or reading.phantoms)


def _frame(rng: np.random.Generator, art: dict[str, Any], hard: float | None, table: tuple[str, float] | None,
           zoomed: float = 0.0) -> tuple[np.ndarray, FrameTruth, Conditions]:
    """A rendered frame of a random position in a random world of ``art`` (its truth and
    conditions); with ``hard``, one where the shipped tile map errs, or one of the others with
    that chance (or the last tried); with ``table`` (name, share), on that table with that chance;
    with chance ``zoomed``, through the view a camera zooms to on that frame (``_zoomed``)."""
    for _ in range(MAX_TRIES):
        position = random_position(rng, _games())
        pinned = {"table": table[0]} if table and rng.random() < table[1] else {}
        conditions = random_world(rng, **art, **pinned)
        frame, truth = render_position(position, conditions)
        if zoomed and rng.random() < zoomed:
            frame, truth = _zoomed(position, conditions, frame, truth)
        if hard is None or rng.random() < hard or map_errs(_mapper(), frame, truth):
            break
    return frame, truth, conditions


def _zoomed(position: Position, conditions: Conditions, frame: np.ndarray, truth: FrameTruth
            ) -> tuple[np.ndarray, FrameTruth]:
    """The frame (and truth) of the view that ``vision.zoom`` turns to for a hive whose tops and
    pitch are ``truth``'s (``frame`` and ``truth`` themselves where it keeps the whole view)."""
    tops = np.array([tile.px for tile in truth.tiles if not tile.hidden_by_hand]).reshape(-1, 2)
    if not len(tops) or truth.pitch_px <= 0:
        return frame, truth
    view = view_for(tops, truth.pitch_px, (frame.shape[1], frame.shape[0]))
    if view == WHOLE:
        return frame, truth
    return render_position(position, conditions, view=(view.x, view.y, view.zoom))


def _shard(out: Path, index: int, seed: int, styles: tuple[str, ...], made_up: float, hard: float | None = None,
           table: tuple[str, float] | None = None, zoomed: float = 0.0) -> str:
    """Render one shard of SHARD_FRAMES frames to ``out/shard-{seed}-{index}.npz`` (only hard
    ones, and that share of the others, with ``hard``; that share on one table, with ``table``;
    that share through the view a camera zooms to, with ``zoomed``)."""
    rng = np.random.default_rng([seed, index])
    images, classes, centres, counts, crops, keys, frames = [], [], [], [], [], [], []
    for frame_index, (label, art) in enumerate(_sets(rng, styles, made_up, f"{seed}-{index}")):
        frame, truth, conditions = _frame(rng, art, hard, table, zoomed)
        targets = map_targets(frame, truth)
        images.append(targets.image)
        classes.append(targets.classes)
        centres.append(targets.centres)
        counts.append(len(targets.centres))
        for tile_index, crop in tile_crops(frame, truth, rng, CROPS_PER_TOP):
            tile = truth.tiles[tile_index]
            crops.append(crop)
            frames.append(frame_index)
            keys.append(f"{label}/{conditions.art_variant}/{int(conditions.mono)}/{tile.colour.value}{tile.bug.value}")
    path, part = out / f"shard-{seed}-{index:04d}.npz", out / f"writing-{seed}-{index:04d}.npz"
    np.savez(part, images=np.stack(images), classes=np.stack(classes),
             centres=np.concatenate(centres), counts=np.array(counts), crops=np.stack(crops), keys=np.array(keys),
             frames=np.array(frames, np.int32))
    part.replace(path)  # whole shards only: training may be reading the folder as it fills
    return str(path)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("var/train"))
    parser.add_argument("--frames", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--made-up", type=float, default=MADE_UP_SHARE,
                        help="share of frames filming made-up sets of training icons (0: the styles only)")
    parser.add_argument("--hard", type=float, help="keep only frames where the shipped tile map errs, and this "
                        "share of the others (for fine-tuning it)")
    parser.add_argument("--table", choices=PLANE_TABLES, help="film a share of the frames on this table")
    parser.add_argument("--table-share", type=float, default=0.5, help="that share (default 0.5)")
    parser.add_argument("--zoomed", type=float, default=0.0, help="share of the frames taken through the view a "
                        "camera zooms to where the hive looks small (default 0)")
    args = parser.parse_args(argv)
    for name, share in (("--made-up", args.made_up), ("--hard", args.hard), ("--table-share", args.table_share),
                        ("--zoomed", args.zoomed)):
        if share is not None and not 0 <= share <= 1:
            parser.error(f"{name} is a share of the frames, from 0 to 1 (got {share})")
    args.out.mkdir(parents=True, exist_ok=True)
    shards = -(-args.frames // SHARD_FRAMES)
    with ProcessPoolExecutor(args.workers) as pool:
        for path in pool.map(_shard, [args.out] * shards, range(shards), [args.seed] * shards,
                             [TRAINING_STYLES] * shards, [args.made_up] * shards,
                             [args.hard] * shards, [args.table and (args.table, args.table_share)] * shards,
                             [args.zoomed] * shards):
            print(path, flush=True)


if __name__ == "__main__":
    main()
