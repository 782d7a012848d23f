"""Your set's own print: how much a tile top's middle looks like each enrolled top's.

The creature network (``vision.creatures``) is made to tell creatures apart on any set, and
so errs where one set's art is far from its training (a thin-lined Mosquito, a Ladybug shaped
like a Beetle). Enrollment also sees the exact print of *your* set, so the middle of each
enrolled top (turned through the six sixths) is kept as a template. A tile the network reads
unsurely is matched (grey, normalised cross-correlation, any small shift) against the
templates of the network's likeliest classes; each class's best likeness, in standard
deviations above what other creatures' tops of the set reach against it (measured at
enrollment), is added to the network's log weights.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Mapping

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from vision.creatures import turned
from vision.features import CROP_PX

MARGIN = 14  # crop pixels cut from each side of an enrolled top: the template is the art's middle
MIDDLE = slice(MARGIN, CROP_PX - MARGIN)  # rows (and columns) of a crop's middle
SHIFT = 14  # crop pixels a template is slid each way over a top's middle ...
STEP = 2  # ... first every STEP pixels, then every pixel round the best place
PROBE = slice(MARGIN - SHIFT, CROP_PX - MARGIN + SHIFT)  # rows (and columns) of a crop it is slid over
CANDIDATES = 3  # a tile is matched against the templates of the network's likeliest classes only
SURE = 0.95  # ... and only if the network's best class weighs less than this
WEIGHT = 1.0  # log weight added per standard deviation of likeness above other creatures'
IMPOSTOR_TURNS = (0, 3)  # sixths at which each enrolled top is matched against the other classes
FLATTEN_STEPS = 20  # bisection steps finding how much a read settled by the art is flattened
MIN_SPREAD = 0.02  # floor of a class's likeness spread (a set of two near-identical tops)
CLASS_TOPS = 9  # templates of at most this many tops per class, the last (3 tiles in 2 photos, 3 named in play)
MAX_TOPS = 200  # a stored template set holds at most this many tops
PRINTLESS_SPREAD = 4.0  # grey spread of a top's middle under which no print shows (glare, a washed-out face)


@dataclass(frozen=True)
class SetArt:
    """Grey ``CROP_PX`` crops of enrolled tops (unturned), each class's index into the profile's
    classes, and per class the mean and spread of other classes' tops' likeness to it."""

    crops: np.ndarray  # (N, CROP_PX, CROP_PX) uint8
    labels: np.ndarray  # (N,) class indices
    mean: np.ndarray  # (classes,)
    spread: np.ndarray  # (classes,)
    templates: dict[int, np.ndarray] = field(init=False, repr=False, compare=False)  # per class, the middles

    def __post_init__(self) -> None:
        templates = {label: _unit_rows(np.array([turned(crop, sixths)[MIDDLE, MIDDLE].ravel()
                                                 for crop in self.crops[self.labels == label][-CLASS_TOPS:]
                                                 for sixths in range(6)], np.float32))
                     for label in set(self.labels.tolist())}
        object.__setattr__(self, "templates", templates)  # derived from the crops, once: (tops x 6 turns, pixels) per class

    @classmethod
    def learn(cls, crops: list[np.ndarray], labels: list[int], classes: int) -> "SetArt":
        """The templates of enrolled tops' rectified BGR ``crops`` of class ``labels``, with each
        class's likeness statistics against the other classes' tops."""
        grey = np.array([cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) for crop in crops], np.uint8)
        art = cls(grey, np.asarray(labels, int), np.zeros(classes), np.ones(classes))
        probes = [turned(crop, sixths) for crop in grey for sixths in IMPOSTOR_TURNS]
        owners = np.repeat(art.labels, len(IMPOSTOR_TURNS))
        likeness = art.likeness(probes, [list(range(classes))] * len(probes))
        for k in set(art.labels.tolist()):  # filled in before the art is handed out
            others = likeness[owners != k, k]
            if len(others) > 1:
                art.mean[k], art.spread[k] = others.mean(), max(float(others.std()), MIN_SPREAD)
        return art

    def with_tops(self, tops: Mapping[int, list[np.ndarray]]) -> "SetArt":
        """These templates plus those of more tops of your set (BGR crops per class), with each
        class's likeness statistics as enrolled."""
        grey = [cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) for crops in tops.values() for crop in crops]
        labels = [k for k, crops in tops.items() for _ in crops]
        if not grey:
            return self
        return SetArt(np.concatenate([self.crops, np.array(grey, np.uint8)]), np.concatenate([self.labels, labels]),
                      self.mean, self.spread)

    def likeness(self, crops: list[np.ndarray], classes: list[list[int]]) -> np.ndarray:
        """(T, classes) each crop's best normalised cross-correlation (as ``cv2.TM_CCOEFF_NORMED``;
        0 against a flat patch) with each of its ``classes``' templates, the template slid up to
        SHIFT pixels each way over the crop's middle (NaN for the classes not asked about). Two
        matrix products a class (``_Windows.best``): its up to 54 ``cv2.matchTemplate`` calls cost 3.6 times more."""
        out = np.full((len(crops), len(self.mean)), np.nan)
        for row, (crop, asked) in enumerate(zip(crops, classes)):
            image = (crop if crop.ndim == 2 else cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY))[PROBE, PROBE]
            slid = _Windows.of(image.astype(np.float32))
            for k in asked:
                if k in self.templates:
                    out[row, k] = slid.best(self.templates[k])
        return out

    def reweigh(self, weights: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
        """The network's (T, classes) class ``weights`` of the tiles seen as BGR ``crops``, with the
        likeness of each unsure tile to its CANDIDATES likeliest classes' templates added to their
        log weights (the other classes keep the least of those)."""
        unsure = np.flatnonzero(weights.max(axis=1) < SURE)
        if not len(unsure):
            return weights
        asked = np.argsort(-weights[unsure], axis=1)[:, :CANDIDATES].tolist()
        scores = (self.likeness([crops[i] for i in unsure], asked) - self.mean) / self.spread
        floor = np.nanmin(np.where(np.isnan(scores).all(axis=1, keepdims=True), 0.0, scores), axis=1, keepdims=True)
        scores = np.nan_to_num(np.where(np.isnan(scores), floor, scores))
        logs = np.log(np.maximum(weights[unsure], 1e-12)) + WEIGHT * scores
        out = weights.copy()
        out[unsure] = no_surer(logs, weights[unsure].max(axis=1))
        return out

    def to_dict(self) -> dict:
        return {"crops": [base64.b64encode(cv2.imencode(".png", crop)[1].tobytes()).decode("ascii")
                          for crop in self.crops],
                "labels": self.labels.tolist(), "mean": self.mean.round(5).tolist(),
                "spread": self.spread.round(5).tolist()}

    @classmethod
    def from_dict(cls, data: dict, classes: int) -> "SetArt":
        """The templates stored by ``to_dict``; ValueError if they are malformed."""
        try:
            crops = [cv2.imdecode(np.frombuffer(base64.b64decode(text, validate=True), np.uint8),
                                  cv2.IMREAD_GRAYSCALE) for text in data["crops"]]
            labels, mean, spread = (np.array(data[key]) for key in ("labels", "mean", "spread"))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"unreadable templates ({exc})") from exc
        well_formed = (len(crops) <= MAX_TOPS and all(crop is not None and crop.shape == (CROP_PX, CROP_PX) for crop in crops)
                       and labels.shape == (len(crops),) and mean.shape == spread.shape == (classes,)
                       and np.issubdtype(labels.dtype, np.integer) and bool(np.all((labels >= 0) & (labels < classes)))
                       and bool(np.all(np.isfinite(mean))) and bool(np.all(spread > 0)))
        if not well_formed:
            raise ValueError("malformed templates")
        return cls(np.array(crops, np.uint8).reshape(-1, CROP_PX, CROP_PX), labels.astype(int),
                   mean.astype(float), spread.astype(float))


@dataclass(frozen=True)
class _Windows:
    """Every template-sized window of a crop, and each one's length about its mean (infinite
    where it is flat, so that it is like nothing): a zero-mean template's product with a window
    is its product with the centred one. Worked out once a crop, for all its classes."""

    windows: np.ndarray  # (rows, columns, side, side): a view of the crop
    lengths: np.ndarray  # (rows, columns)
    coarse: np.ndarray  # (coarse windows, pixels): every STEP-th window, flattened
    coarse_lengths: np.ndarray  # (coarse windows,)

    @staticmethod
    def of(image: np.ndarray) -> "_Windows":
        """The windows of a float32 grey ``image``."""
        side = CROP_PX - 2 * MARGIN
        sums, squares = cv2.integral2(image)
        def boxed(table: np.ndarray) -> np.ndarray:
            return table[side:, side:] - table[:-side, side:] - table[side:, :-side] + table[:-side, :-side]
        spread = boxed(squares) - boxed(sums) ** 2 / side ** 2
        lengths = np.where(spread > 1e-6 * side ** 2, np.sqrt(np.maximum(spread, 0.0)), np.inf)
        windows = sliding_window_view(image, (side, side))
        return _Windows(windows, lengths, windows[::STEP, ::STEP].reshape(-1, side * side),
                        lengths[::STEP, ::STEP].ravel())

    def best(self, templates: np.ndarray) -> float:
        """The best correlation of unit ``templates`` (N, pixels) with these windows: looked for
        among the coarse ones, then at every window round the best of them (on rendered tops,
        within 0.01 of the best of all windows 95 % of the time)."""
        scores = (self.coarse @ templates.T).max(axis=1) / self.coarse_lengths
        row, column = np.unravel_index(int(np.argmax(scores)), self.lengths[::STEP, ::STEP].shape)
        rows = slice(max(STEP * row - STEP + 1, 0), STEP * row + STEP)
        columns = slice(max(STEP * column - STEP + 1, 0), STEP * column + STEP)
        near = self.windows[rows, columns].reshape(-1, templates.shape[1])
        return float(max(scores.max(), ((near @ templates.T).max(axis=1) / self.lengths[rows, columns].ravel()).max()))


def _unit_rows(patches: np.ndarray) -> np.ndarray:
    """(N, P) flattened patches made zero-mean and of unit length (a flat one all zeros)."""
    centred = patches - patches.mean(axis=1, keepdims=True)
    length = np.linalg.norm(centred, axis=1, keepdims=True)
    return np.divide(centred, length, out=np.zeros_like(centred), where=length > 1e-3)


def printless(crops: list[np.ndarray]) -> np.ndarray:
    """Which BGR ``crops`` of tile tops show no print in their middle (glare, a washed-out face).
    A read of such a top is a guess: in the styles benchmark's crops, 13-62 % of them were right,
    against 95-98 % of the printed ones."""
    middles = [cv2.cvtColor(c, cv2.COLOR_BGR2GRAY)[MIDDLE, MIDDLE] for c in crops]
    return np.array([float(m.std()) < PRINTLESS_SPREAD for m in middles], bool)


def no_surer(logs: np.ndarray, most: np.ndarray) -> np.ndarray:
    """Softmax weights of (T, classes) log weights, flattened where needed (a power under 1, which
    keeps their order) so that no row's best weighs more than its ``most``: the art may change
    which class a tile is read as, but not make the read surer than the network was, so that a
    read the referee would have asked about is still asked about."""
    def weights(power: np.ndarray) -> np.ndarray:
        scaled = logs * power[:, None]
        raw = np.exp(scaled - scaled.max(axis=1, keepdims=True))
        return raw / raw.sum(axis=1, keepdims=True)

    high = np.ones(len(logs))
    low = np.where(weights(high).max(axis=1) <= most, 1.0, 0.0)  # rows already no surer stay as they are
    for _ in range(FLATTEN_STEPS):  # bisection on the power: the best weight grows with it
        middle = (low + high) / 2
        over = weights(middle).max(axis=1) > most
        high, low = np.where(over, middle, high), np.where(over, low, middle)
    return weights(low)
