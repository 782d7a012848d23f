"""Train hivecam's networks on rendered shards and export them as ONNX for ``cv2.dnn``.

    pip install -e '.[train,art]' && python benchmarks/fetch_art.py     # torch, onnx; the icon-set art
    python -m vision.training.generate --out var/train --frames 1300 --made-up 0   # the styles (~8 min, 2 cores)
    python -m vision.training.generate --out var/train --frames 2000 --seed 2 --made-up 0.7   # and made-up sets
    python -m vision.training.generate --out var/train --frames 2000 --seed 3 --made-up 0.7
    python -m vision.training.train tilemap --data var/train --minutes 25
    python -m vision.training.train creatures --data var/train --minutes 20   # also writes the profiles
    python -m vision.training.train profiles --data var/train   # only the shipped profiles, from the ONNX
    python -m vision.training.generate --out var/tune --frames 2500 --seed 11   # fresh shards
    python -m vision.training.generate --out var/tune --frames 5000 --seed 12
    python -m vision.training.train tilemap --data var/tune --minutes 45 --fine-tune   # from the shipped one
    python -m vision.training.generate --out var/tune2 --frames 4000 --seed 13   # with a game's first moves
    python -m vision.training.generate --out var/tune2 --frames 3000 --seed 14
    python -m vision.training.train tilemap --data var/tune2 --minutes 30 --fine-tune   # from the one above

The shipped networks were first trained on shards of the styles only. The creature network then
went on (``--resume``, from the weights the last run left in DATA) for 35 minutes over all three
seeds' shards; the tile map did too but lost recall on the benchmark (a restart at the full
learning rate, its batch norms learning anew). ``--fine-tune`` goes on from the shipped ONNX
weights instead, batch norms frozen as exported, at a tenth of the learning rate. The shipped
tile map was then so tuned: 45 minutes, and 30 more over shards with a game's first moves (the
last six commands). Before shipping a tile map, score it against the shipped one on the same
frames: ``python benchmarks/tilemap_bench.py --model PATH`` (a fine-tune writes over
``vision/models/tilemap.onnx``: train in a copy of the tree), then the styles benchmark
(``benchmarks/vision_bench.py --tilemap PATH --log FILE`` against a run without, frame by frame with
``benchmarks/compare_runs.py``) and the world referee (docs/benchmarks.md: a fine-tune over only the frames the map erred on,
``generate --hard``, was not shipped).

The shipped creature network then went on for three rounds of ``--fine-tune`` on one GPU (an
H100, 16 cores), each from the one before, over fresh shards of two seeds of its own: the first
4000-4500 frames written beforehand, the second seed's still being written while it trained
(``train`` picks up new shards as they come):

    python -m vision.training.generate --out var/gpu1 --frames 4200 --seed 31 --workers 15
    python -m vision.training.generate --out var/gpu1 --frames 30000 --seed 32 --workers 3 &
    python -m vision.training.train creatures --data var/gpu1 --minutes 5 --fine-tune --workers 3 --batch 32
    # round 2: var/gpu2, seeds 33 and 34, --minutes 7 --batch 64 --workers 4 (4150 steps)
    # round 3: var/gpu3, seeds 35 and 36, --minutes 6.3 --batch 64 --workers 6 (4100 steps)

Round 1 made 4350 steps. On a CPU, write the shards first and give each round its steps
(``--steps``) rather than minutes: a step of batch 64 took 2.7 s on one core of a busy two-core
machine, about three hours a round. Each round gained on the styles benchmark (whole position,
150 frames of six training styles: worst 52.8 % -> 59.8 % after two rounds); the third held
level. The same fine-tuning of the tile map on the GPU (7 minutes, twice) and a tile map trained
afresh there (6 minutes) were no better than the shipped one and were not kept. Nor were, later, a
fourth round of the same episodes for the creature network (7 minutes, 1200 steps: whole position
-1.6 to +1.6 points by style) and wider networks trained afresh for 7 minutes (``--width 20``; the
tile map then made two to four times the phantoms; the width-20 creature network's training loss
stayed above the shipped one's, so it was not benchmarked, and it costs 1.7 times the time a frame's
tops take).

The shipped network then had one more round that changed what an episode asks (``_picks``): each
creature's prototype comes from one frame's crops (as enrollment sees a set in one photo), and the
crops told apart by it from other frames (as a game shows the set later); before, both came from any
frames of the set. On one H200 (16 cores), 5.5 minutes and 3850 steps over fresh shards, 8100 frames
written beforehand and 4900 more while it trained, at three times the usual fine-tuning rate:

    python -m vision.training.generate --out var/gpu5 --frames 8100 --seed 51 --workers 15
    python -m vision.training.generate --out var/gpu5 --frames 30000 --seed 52 --workers 4 &
    python -m vision.training.train creatures --data var/gpu5 --minutes 5.5 --fine-tune --rate 3 --seed 2 --batch 64 --workers 5
    python -m vision.training.generate --out var/prof --frames 1300 --made-up 0 --seed 1   # for the built-in profile
    python -m vision.training.train profiles --data var/prof

Whole position on 200 frames of six training styles went from 61.6-75.9 % to 61.6-77.6 %, no
style lower. Not kept: the same at the usual rate (ph -4.9 points), and a further 3 minutes from
it at three or ten times the rate (style a -3.7 and -6.1 points, ph +3.1 for both; the six
training styles' sum lower).

A fourth tile-map round (``--zoomed``: frames taken through the view a camera zooms to where the
hive looks small, as the detector reads them) read more tops alone but lost an enrollment in the
styles benchmark, and was not shipped (docs/benchmarks.md):

    python -m vision.training.generate --out var/tune3 --frames 8000 --seed 62 --zoomed 0.8 &
    python -m vision.training.train tilemap --data var/tune3 --minutes 50 --fine-tune

Runs on a CPU (one thread each: ``OMP_NUM_THREADS=1`` lets both train side by side on two
cores) or a GPU (``--device``, ``cuda`` where torch sees one), with ``--workers`` processes
building batches; the minutes are wall-clock budgets, the learning rate following a cosine over
them (or over ``--steps``).
Writes ``vision/models/tilemap.onnx``, ``vision/models/creatures.onnx``, the built-in
creature prototypes ``vision/models/default_profile.json`` and the demo table's enrolled set
``vision/models/demo_profile.json``.
"""

from __future__ import annotations

import argparse
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import nn

from rules.pieces import Bug, Colour
from vision import creatures, tilemaps
from vision.features import CROP_PX
from vision.profile import DEFAULT_PROFILE_PATH, DEMO_PROFILE_PATH, MAX_EXAMPLES, CreatureProfile
from vision.training.generate import MADE_UP, SHARD_FRAMES
from vision.training.nets import CreatureNet, TileMapNet
from vision.training.targets import IGNORE, MIN_SIGMA

SCALE = 16.0  # cosine-softmax scale of the creature episodes
SUPPORT, QUERY, MIN_CLASSES = 2, 2, 8  # crops per class for its prototype and to be told apart; classes a set needs
HAND_WEIGHT = 3.0  # pixel-class loss weight of hands and objects (rare, and they decide 'occluded')
EMPTY_WEIGHT = 4.0  # centre-heat loss weight of the empty cells beside tiles (holes, the hive's edge: where phantoms were)
EMPTY_REACH = 0.3  # pitches round such a cell's centre that get the weight
FINE_TUNE_LR = 0.1  # share of the learning rate when fine-tuning: the shipped network moves, it does not start over
RELOAD_EVERY = 200  # steps between looks for shards written since training began
CROP_FIELDS = ("crops", "keys", "frames")  # what the creature network learns from (not the frames' images)
WINDOW = (48, 80)  # map cells of one training window (a quarter of a 1280x720 frame's map)


@dataclass(frozen=True)
class Run:
    """How one training run goes: its length (wall-clock minutes, or ``steps`` where given; the
    learning rate falls on a cosine over it), batch size, seed, batch-building processes, torch
    device, network width and learning-rate factor."""

    minutes: float = 15.0
    steps: int | None = None
    batch: int = 12
    seed: int = 1
    workers: int = 0
    device: str = "cpu"
    width: int = 16  # the network's base channel count (the shipped ones: 16)
    rate: float = 1.0  # multiplies the network's base learning rate (before a fine-tune's FINE_TUNE_LR)

    def progress(self, elapsed_minutes: float, done: int) -> float:
        """The share of the run gone after ``elapsed_minutes`` and ``done`` steps."""
        return done / self.steps if self.steps else elapsed_minutes / self.minutes


def _shards(data: Path, loaded: dict[Path, dict[str, np.ndarray]] | None = None,
            fields: tuple[str, ...] | None = None) -> list[dict[str, np.ndarray]]:
    """Every shard under ``data`` (only its arrays named in ``fields``, where given, and that it
    has); with ``loaded``, shards written since are added to it (training may start while
    ``generate`` still writes)."""
    loaded = {} if loaded is None else loaded
    for path in sorted(data.glob("shard-*.npz")):
        if path not in loaded:
            try:
                with np.load(path) as shard:
                    loaded[path] = {k: shard[k] for k in shard.files if fields is None or k in fields}
            except (OSError, ValueError, EOFError, zipfile.BadZipFile):  # cut short (an older generate wrote in place)
                continue
    if not loaded:
        raise SystemExit(f"{data}: no shard-*.npz (run python -m vision.training.generate first)")
    return list(loaded.values())


def _jitter(images: np.ndarray, rng: np.random.Generator) -> torch.Tensor:
    """Normalised NCHW tensor of uint8 NHWC images with random gain, offset, colour cast and noise."""
    x = images.astype(np.float32) / 255.0
    n = len(x)
    x = x * rng.uniform(0.7, 1.3, (n, 1, 1, 1)) * rng.uniform(0.9, 1.1, (n, 1, 1, 3)) + rng.uniform(-0.08, 0.08,
                                                                                                   (n, 1, 1, 1))
    x = x + rng.normal(0, 1, (n, 1, 1, 1)) * 0.015 * rng.standard_normal(x.shape).astype(np.float32)
    return torch.from_numpy(np.clip(x, 0, 1).astype(np.float32) - 0.5).permute(0, 3, 1, 2).contiguous()


def _heat(centres: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Gaussian heat with exact 1 at each centre's cell, and the (y, x) peak cells."""
    rows, cols = shape
    ys, xs = np.mgrid[0:rows, 0:cols]
    heat = np.zeros(shape, np.float32)
    peaks = []
    for x, y, log_pitch in centres:
        known = bool(np.isfinite(log_pitch))  # a top whose lattice steps the renderer could not say
        sigma = max(MIN_SIGMA, float(np.exp(log_pitch)) / 7 if known else MIN_SIGMA)
        heat = np.maximum(heat, np.exp(-((xs - x) ** 2 + (ys - y) ** 2) / (2 * sigma ** 2)))
        cx, cy = int(round(x)), int(round(y))
        if 0 <= cx < cols and 0 <= cy < rows:
            heat[cy, cx] = 1.0
            if known:
                peaks.append((cy, cx, x - cx, y - cy, log_pitch))
    return heat, np.array(peaks, np.float32).reshape(-1, 5)


def _empty_cells(centres: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """Heat-loss weights: EMPTY_WEIGHT near each empty cell beside two touching tops, else 1.
    Such a cell lies where an equilateral triangle on the two tops' centres closes."""
    weight = np.ones(shape, np.float32)
    if len(centres) < 2:
        return weight
    xy, pitch = centres[:, :2].astype(np.float64), np.exp(centres[:, 2].astype(np.float64))
    steps = xy[None, :, :] - xy[:, None, :]
    length = np.linalg.norm(steps, axis=2) / pitch[:, None]
    i, j = np.nonzero((length > 0.8) & (length < 1.25))
    turns = [np.array([[0.5, -s], [s, 0.5]]) for s in (np.sqrt(0.75), -np.sqrt(0.75))]
    corners = np.concatenate([xy[i] + steps[i, j] @ turn.T for turn in turns])
    reach = np.concatenate([pitch[i], pitch[i]])
    nearest = np.linalg.norm(corners[:, None, :] - xy[None, :, :], axis=2).min(axis=1)
    ys, xs = np.mgrid[0:shape[0], 0:shape[1]]
    for (x, y), r in zip(corners[nearest > 0.5 * reach], reach[nearest > 0.5 * reach]):
        weight[(xs - x) ** 2 + (ys - y) ** 2 <= (EMPTY_REACH * r) ** 2] = EMPTY_WEIGHT
    return weight


def _window(image: np.ndarray, classes: np.ndarray, centres: np.ndarray, rng: np.random.Generator
            ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A WINDOW-sized part of one sample (map cells), mostly around a random tile top."""
    rows, cols = WINDOW
    if len(centres) and rng.random() < 0.8:
        x, y = centres[int(rng.integers(len(centres))), :2] + rng.normal(0, 8, 2)
    else:
        x, y = rng.uniform(0, classes.shape[1]), rng.uniform(0, classes.shape[0])
    top = int(np.clip(y - rows / 2, 0, classes.shape[0] - rows))
    left = int(np.clip(x - cols / 2, 0, classes.shape[1] - cols))
    moved = centres - [left, top, 0]
    return (image[2 * top:2 * (top + rows), 2 * left:2 * (left + cols)], classes[top:top + rows, left:left + cols],
            moved)


class _Batches(torch.utils.data.IterableDataset):
    """Endless training batches, built in loader workers when there are any: each worker loads the
    shards under ``data`` itself (their ``fields``, all where None; again every RELOAD_EVERY
    batches, for shards written since), turns them into ``prepare(shards)`` and yields
    ``make(prepared, rng)`` from its own seed."""

    def __init__(self, data: Path, prepare, make, seed: int, fields: tuple[str, ...] | None) -> None:
        super().__init__()
        self.data, self.prepare, self.make, self.seed, self.fields = data, prepare, make, seed, fields

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        rng = np.random.default_rng([self.seed, 0 if info is None else info.id])
        loaded: dict[Path, dict[str, np.ndarray]] = {}
        made = 0
        while True:
            if made % RELOAD_EVERY == 0:
                prepared = self.prepare(_shards(self.data, loaded, self.fields))
            made += 1
            yield self.make(prepared, rng)


def _batches(data: Path, prepare, make, run: Run, fields: tuple[str, ...] | None = None):
    """``_Batches`` through a DataLoader with the run's workers, each batch moved to its device."""
    loader = torch.utils.data.DataLoader(_Batches(data, prepare, make, run.seed, fields), batch_size=None,
                                         num_workers=run.workers, pin_memory=run.device.startswith("cuda"),
                                         persistent_workers=run.workers > 0)
    for batch in loader:
        yield [part.to(run.device, non_blocking=True) for part in batch]


def _map_batch(shards: list[dict[str, np.ndarray]], size: int, rng: np.random.Generator):
    images, heats, weights, classes, peaks = [], [], [], [], []
    for b in range(size):
        shard = shards[int(rng.integers(len(shards)))]
        k = int(rng.integers(len(shard["counts"])))
        start = int(shard["counts"][:k].sum())
        centres = shard["centres"][start:start + int(shard["counts"][k])].copy()
        image, cls, centres = _window(shard["images"][k], shard["classes"][k], centres, rng)
        if rng.random() < 0.5:  # mirror left-right
            image, cls = image[:, ::-1], cls[:, ::-1]
            centres[:, 0] = cls.shape[1] - 1 - centres[:, 0]
        heat, found = _heat(centres, cls.shape)
        images.append(image)
        heats.append(heat)
        weights.append(_empty_cells(centres, cls.shape))
        classes.append(cls)
        peaks.append(np.column_stack([np.full(len(found), b), found]))
    return (_jitter(np.stack(images), rng), torch.from_numpy(np.stack(heats)), torch.from_numpy(np.stack(weights)),
            torch.from_numpy(np.stack(classes).astype(np.int64)), torch.from_numpy(np.concatenate(peaks)))


def _focal(logits: torch.Tensor, target: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, per tile, the negatives weighted by ``weight``."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = target >= 1.0
    pos = -(torch.log(p) * (1 - p) ** 2)[positive].sum()
    neg = -(torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * weight)[~positive].sum()
    return (pos + neg) / max(int(positive.sum()), 1)


def _map_loss(out: torch.Tensor, heat: torch.Tensor, weight: torch.Tensor, classes: torch.Tensor, peaks: torch.Tensor
              ) -> torch.Tensor:
    weights = torch.ones(len(tilemaps.CLASSES), device=out.device)
    weights[tilemaps.HAND] = weights[tilemaps.OBJECT] = HAND_WEIGHT
    loss = _focal(out[:, 0], heat, weight) + nn.functional.cross_entropy(out[:, 4:], classes, weights, ignore_index=IGNORE)
    if len(peaks):
        b, y, x = peaks[:, 0].long(), peaks[:, 1].long(), peaks[:, 2].long()
        predicted = out[b, 1:4, y, x]
        loss = loss + nn.functional.l1_loss(predicted, peaks[:, 3:6])
    return loss


def train_tilemap(data: Path, run: Run, resume: bool = False, fine_tune: bool = False) -> None:
    torch.manual_seed(run.seed)
    model = _start(TileMapNet(run.width), data / "tilemap.pt", tilemaps.MODEL_PATH, resume, fine_tune).to(run.device)
    optimiser = _optimiser(model, 3e-3 * run.rate, fine_tune)
    batches = _batches(data, lambda shards: shards, lambda shards, rng: _map_batch(shards, run.batch, rng), run)

    def step() -> torch.Tensor:
        images, heat, weight, classes, peaks = next(batches)
        return _map_loss(model(images), heat, weight, classes, peaks)

    _loop(model, optimiser, run, step, frozen_norms=fine_tune)
    print(f"trained on {len(list(data.glob('shard-*.npz')))} shards")
    model.eval().cpu()
    torch.save(model.state_dict(), data / "tilemap.pt")
    dummy = torch.zeros(1, 3, 192, 320)
    _export(model, dummy, tilemaps.MODEL_PATH, {"input": {2: "height", 3: "width"}})


def _start(model: nn.Module, weights: Path, shipped: Path, resume: bool, fine_tune: bool) -> nn.Module:
    """``model`` as training starts: fresh, with the weights a previous run left in ``weights``
    (``resume``), or with the shipped network's (``fine_tune``: its batch norms then stay frozen)."""
    if fine_tune:
        return shipped_weights(model, shipped)
    if resume:
        if not weights.is_file():
            raise SystemExit(f"{weights}: nothing to resume (train once without --resume)")
        model.load_state_dict(torch.load(weights))
    return model


def _optimiser(model: nn.Module, rate: float, fine_tune: bool) -> torch.optim.Optimizer:
    """AdamW over ``model`` at ``rate``, or FINE_TUNE_LR of it when fine-tuning."""
    return torch.optim.AdamW(model.parameters(), rate * (FINE_TUNE_LR if fine_tune else 1), weight_decay=1e-4)


def shipped_weights(model: nn.Module, path: Path) -> nn.Module:
    """``model`` with the weights of the exported ONNX file at ``path``. Export folds each batch
    norm into the convolution before it, so the norms get identity statistics and the folded
    shift as their bias (exact as long as they stay frozen)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i).copy() for i in graph.initializer}
    exported = [node for node in graph.node if node.op_type == "Conv"]
    convs = [m for m in model.modules() if isinstance(m, nn.Conv2d)]
    norms = iter(m for m in model.modules() if isinstance(m, nn.BatchNorm2d))
    if len(exported) != len(convs):
        raise SystemExit(f"{path}: {len(exported)} convolutions, the network has {len(convs)}")
    with torch.no_grad():
        for node, conv in zip(exported, convs):
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]]))
            shift = torch.from_numpy(weights[node.input[2]])
            if conv.bias is not None:
                conv.bias.copy_(shift)
                continue
            norm = next(norms)
            norm.running_mean.zero_()
            norm.running_var.fill_(1 - norm.eps)
            norm.weight.fill_(1)
            norm.bias.copy_(shift)
        for name, tensor in model.state_dict().items():  # layers exported under their own names (linear)
            if name in weights:
                tensor.copy_(torch.from_numpy(weights[name]))
    return model


def _loop(model: nn.Module, optimiser: torch.optim.Optimizer, run: Run, step, frozen_norms: bool = False
          ) -> None:
    """Optimise ``step()``'s loss for the run's length, the learning rate falling on a cosine
    (batch norms keep their statistics if ``frozen_norms``)."""
    start, base, done, smooth = time.monotonic(), optimiser.param_groups[0]["lr"], 0, None
    model.train()
    if frozen_norms:
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.eval()
    while (progress := run.progress(elapsed := (time.monotonic() - start) / 60, done)) < 1:
        for group in optimiser.param_groups:
            group["lr"] = base * 0.5 * (1 + np.cos(np.pi * progress))
        loss = step()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        done += 1
        value = float(loss.detach())
        smooth = value if smooth is None else 0.98 * smooth + 0.02 * value
        if done % 50 == 0:
            print(f"step {done}  {elapsed:5.1f} min  loss {smooth:.4f}", flush=True)


def _export(model: nn.Module, dummy: torch.Tensor, path: Path, axes: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, dummy, str(path), input_names=["input"], output_names=["output"],
                      dynamic_axes=axes, opset_version=13, dynamo=False)
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def _sets(keys: np.ndarray) -> list[list[np.ndarray]]:
    """Crop indices grouped by set (style, look) and then by colour and creature, where a set shows
    at least MIN_CLASSES classes with SUPPORT + QUERY crops each."""
    groups: dict[str, dict[str, list[int]]] = {}
    for index, key in enumerate(keys):
        look, name = str(key).rsplit("/", 1)
        groups.setdefault(look, {}).setdefault(name, []).append(index)
    sets = []
    for classes in groups.values():
        usable = [np.array(v) for v in classes.values() if len(v) >= SUPPORT + QUERY]
        if len(usable) >= MIN_CLASSES:
            sets.append(usable)
    return sets


def _crop_sets(shards: list[dict[str, np.ndarray]]) -> tuple[np.ndarray, list[list[np.ndarray]], np.ndarray | None]:
    """All shards' crops, their indices grouped into sets (``_sets``) and each crop's frame
    (numbered across the shards; None where older shards do not say)."""
    frames = None
    if all("frames" in s for s in shards):
        frames = np.concatenate([s["frames"] + k * SHARD_FRAMES for k, s in enumerate(shards)])
    return np.concatenate([s["crops"] for s in shards]), _sets(np.concatenate([s["keys"] for s in shards])), frames


def _picks(crops: np.ndarray, frames: np.ndarray | None, rng: np.random.Generator) -> np.ndarray:
    """SUPPORT + QUERY of one class's ``crops``: the support all from one frame, as enrollment
    sees a set in one photo, and the queries from other frames, as a game shows it later."""
    if frames is not None:
        anchor = frames[crops[int(rng.integers(len(crops)))]]
        same, other = crops[frames[crops] == anchor], crops[frames[crops] != anchor]
        if len(other) >= QUERY:
            return np.concatenate([rng.choice(same, SUPPORT, replace=len(same) < SUPPORT),
                                   rng.choice(other, QUERY, replace=False)])
    return rng.choice(crops, SUPPORT + QUERY, replace=False)


def _episodes(prepared: tuple[np.ndarray, list[list[np.ndarray]], np.ndarray | None], count: int,
              rng: np.random.Generator) -> tuple[torch.Tensor, torch.Tensor]:
    """Crops of ``count`` random sets' episodes, each class's SUPPORT + QUERY crops in a row
    (``_picks``), and each episode's class count."""
    crops, sets, frames = prepared
    chosen = [sets[k] for k in rng.choice(len(sets), min(count, len(sets)), replace=False)]
    picks = np.concatenate([_picks(c, frames, rng) for classes in chosen for c in classes])
    turned = np.stack([creatures.turned(crops[i], int(rng.integers(6))) for i in picks])
    return _jitter(turned, rng), torch.tensor([len(classes) for classes in chosen])


def _episode_loss(embedded: torch.Tensor, classes: int) -> torch.Tensor:
    """Prototypical-network loss of one set's episode: each class's prototype from SUPPORT crops,
    then QUERY crops of every class told apart by their nearest prototype, as enrollment does."""
    embedded = embedded.reshape(classes, SUPPORT + QUERY, -1)
    prototypes = nn.functional.normalize(embedded[:, :SUPPORT].mean(dim=1), dim=1)
    queries = embedded[:, SUPPORT:].reshape(-1, embedded.shape[-1])
    truth = torch.arange(classes, device=embedded.device).repeat_interleave(QUERY)
    return nn.functional.cross_entropy(SCALE * queries @ prototypes.T, truth)


def train_creatures(data: Path, run: Run, resume: bool = False, fine_tune: bool = False) -> None:
    """Episodes of enrollment: within one set, tell its creatures apart by prototypes of other crops."""
    crops, sets, _ = _crop_sets(_shards(data, fields=CROP_FIELDS))
    print(f"{len(crops)} crops of {len(sets)} sets")  # the batches load their own
    torch.manual_seed(run.seed)
    model = _start(CreatureNet(run.width), data / "creatures.pt", creatures.MODEL_PATH, resume, fine_tune).to(run.device)
    optimiser = _optimiser(model, 2e-3 * run.rate, fine_tune)
    batches = _batches(data, _crop_sets, lambda prepared, rng: _episodes(prepared, max(1, run.batch // 4), rng), run,
                       CROP_FIELDS)

    def step() -> torch.Tensor:
        images, counts = next(batches)
        parts = torch.split(model(images), [int(n) * (SUPPORT + QUERY) for n in counts])
        return torch.stack([_episode_loss(part, int(n)) for part, n in zip(parts, counts)]).mean()

    _loop(model, optimiser, run, step, frozen_norms=fine_tune)
    model.eval().cpu()
    torch.save(model.state_dict(), data / "creatures.pt")
    _export(model, torch.zeros(1, 3, CROP_PX, CROP_PX), creatures.MODEL_PATH, {"input": {0: "batch"}})
    save_profiles(data)


def save_builtin(data: Path) -> None:
    """The built-in profile, from the exported creature network: per colour and creature, the mean
    embedding of each training style's set (style and look) that shows it, as that class's examples."""
    shards = _shards(data, fields=CROP_FIELDS)
    crops = np.concatenate([s["crops"] for s in shards])
    keys = np.concatenate([s["keys"] for s in shards])
    embedder = creatures.CreatureEmbedder()
    embedded = np.vstack([embedder.embed(list(crops[i:i + 256])) for i in range(0, len(crops), 256)])
    examples: dict[tuple[Colour, Bug], list[np.ndarray]] = {}
    for key in np.unique(keys):
        if str(key).startswith(MADE_UP):  # its classes are whatever icons stood for them
            continue
        name = str(key).rsplit("/", 1)[1]
        examples.setdefault((Colour(name[0]), Bug(name[1])), []).append(embedded[keys == key].mean(axis=0))
    per_class = MAX_EXAMPLES // len(examples)
    rng = np.random.default_rng(0)
    chosen = {k: np.array(v)[rng.permutation(len(v))[:per_class]] for k, v in examples.items()}
    CreatureProfile.from_examples(chosen, "built in: the training styles").save(DEFAULT_PROFILE_PATH)
    print(f"wrote {DEFAULT_PROFILE_PATH}")


def save_profiles(data: Path) -> None:
    """The shipped profiles of the exported creature network: built-in and the demo table's."""
    save_builtin(data)
    save_demo()


def save_demo() -> None:
    """The demo table's profile: its set (style "a") enrolled from one rendered photo, as a user would."""
    from vision.enroll import enroll
    from vision.render.photos import enrollment_photos

    enroll(enrollment_photos(1, seed=2024, style="a"), note="the demo table's set (style a), one photo").save(
        DEMO_PROFILE_PATH)
    print(f"wrote {DEMO_PROFILE_PATH}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("network", choices=("tilemap", "creatures", "profiles"),
                        help="profiles: only rebuild the shipped profiles from the exported creature network")
    parser.add_argument("--data", type=Path, default=Path("var/train"))
    parser.add_argument("--minutes", type=float, default=15.0, help="wall-clock length of the run")
    parser.add_argument("--steps", type=int, help="length of the run in steps instead (the same run on any machine)")
    parser.add_argument("--batch", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=0, help="processes building batches (0: the training one)")
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    parser.add_argument("--width", type=int, default=16, help="base channel count (a fine-tune's must be the shipped one's)")
    parser.add_argument("--rate", type=float, default=1.0, help="factor on the base learning rate")
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--resume", action="store_true", help="go on from the weights the last run saved in DATA")
    start.add_argument("--fine-tune", action="store_true",
                       help="go on from the shipped network (vision/models), at a tenth of the learning rate")
    args = parser.parse_args(argv)
    if args.rate <= 0:
        parser.error(f"--rate is a factor on the learning rate, above 0 (got {args.rate})")
    run = Run(args.minutes, args.steps, args.batch, args.seed, args.workers, args.device, args.width, args.rate)
    if args.network == "tilemap":
        train_tilemap(args.data, run, args.resume, args.fine_tune)
    elif args.network == "creatures":
        train_creatures(args.data, run, args.resume, args.fine_tune)
    else:
        save_profiles(args.data)


if __name__ == "__main__":
    main()
