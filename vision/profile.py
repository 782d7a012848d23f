"""Creature profiles: what each creature looks like on *your* set, as example embeddings.

A profile holds, per colour and creature (``CLASSES``), example vectors in the creature
network's embedding space (``vision.creatures``): the enrolled tops of your set, each turned
through the six sixths. A tile of a known colour is the creature whose examples lie nearest
its embedding (the best match per class, averaged over the views of the tile that were
embedded). The built-in profile holds the training art styles' examples; enrolling
(``vision.enroll``) learns your own set's from one photo, and the middles of its tops as
templates (``vision.set_art``) that settle the network's unsure reads. Saved as calibration kind
"profile" (the templates are optional: a profile saved before them reads without). A profile
names the creature network that made it (``creatures.network_id``): one made by another network
is refused, with the hint to enroll again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Mapping

import numpy as np

from calibration import files
from rules.pieces import Bug, Colour
from vision.creatures import EMBEDDING, network_id
from vision.set_art import SetArt

KIND = "profile"
VERSION = 2  # version 1 held glyph-feature statistics, read by no hivecam since the creature network
DEFAULT_PROFILE_PATH = Path(__file__).with_name("models") / "default_profile.json"
DEMO_PROFILE_PATH = Path(__file__).with_name("models") / "demo_profile.json"
CLASSES: tuple[tuple[Colour, Bug], ...] = tuple((c, b) for c in Colour for b in Bug)
SHARPNESS = 25.0  # softmax scale over the classes' similarities, for the confidence
MAX_EXAMPLES = 2000  # a profile file keeps at most this many example vectors


class OtherNetworkError(files.CalibrationFileError):
    """A profile enrolled with another creature network (an earlier hivecam's): sound, but its
    examples mean nothing to this one."""


@dataclass(frozen=True)
class CreatureProfile:
    """Example embeddings (N, EMBEDDING) and the index into ``CLASSES`` of each (and, enrolled
    from your set, its art)."""

    vectors: np.ndarray
    labels: np.ndarray
    note: str = ""
    art: SetArt | None = None

    @classmethod
    def from_examples(cls, examples: dict[tuple[Colour, Bug], np.ndarray], note: str = "",
                      art: SetArt | None = None) -> "CreatureProfile":
        """The profile of these example embeddings; every class needs at least one."""
        missing = [f"{c.title} {b.title}" for c, b in CLASSES if len(examples.get((c, b), ())) == 0]
        if missing:
            raise files.CalibrationFileError(f"no examples of: {', '.join(missing)}")
        vectors = np.vstack([np.asarray(examples[k], np.float64) for k in CLASSES])
        labels = np.concatenate([np.full(len(examples[k]), i) for i, k in enumerate(CLASSES)])
        return cls(vectors / np.linalg.norm(vectors, axis=1, keepdims=True), labels, note, art)

    def with_examples(self, extra: Mapping[int, np.ndarray],
                      tops: Mapping[int, list[np.ndarray]] | None = None) -> "CreatureProfile":
        """This profile plus ``extra`` unit example vectors (V, EMBEDDING) per index into ``CLASSES``
        (and, if it has art, the BGR crops of ``tops`` of each class as templates)."""
        if not extra:
            return self
        vectors = np.vstack([self.vectors, *extra.values()])
        labels = np.concatenate([self.labels, *(np.full(len(v), k) for k, v in extra.items())])
        art = self.art.with_tops(tops) if self.art is not None and tops else self.art
        return CreatureProfile(vectors, labels, self.note, art)

    def classify(self, views: np.ndarray) -> tuple[Colour, Bug, float]:
        """The colour and creature of a tile seen as ``views`` (R, EMBEDDING) unit vectors, and a
        softmax confidence: each class scores its best example's similarity, averaged over the
        views. The face's colour comes with the creature: the embeddings tell a white tile from a
        black one more surely than the tile map's colour classes do (glare, shade, ivory faces)."""
        return self.classify_tiles([views])[0]

    def classify_tiles(self, tiles: list[np.ndarray]) -> list[tuple[Colour, Bug, float]]:
        """``classify`` for every tile of one frame (``assign`` of their ``class_weights``)."""
        return assign(self.class_weights(tiles))

    def class_weights(self, tiles: list[np.ndarray]) -> np.ndarray:
        """(T, len(CLASSES)) softmax weights of the classes for each tile's views: each class
        scores its best example's similarity, averaged over the views (one product for all)."""
        if not tiles:
            return np.zeros((0, len(CLASSES)))
        rows = [np.asarray(views).reshape(-1, EMBEDDING) for views in tiles]
        order = np.argsort(self.labels, kind="stable")
        starts = np.searchsorted(self.labels[order], np.arange(len(CLASSES)))  # every class has examples
        best = np.maximum.reduceat(np.vstack(rows) @ self.vectors[order].T, starts, axis=1)  # (all views, classes)
        bounds = np.cumsum([0] + [len(r) for r in rows])
        scores = np.array([best[a:b].mean(axis=0) for a, b in zip(bounds[:-1], bounds[1:])])
        weights = np.exp(SHARPNESS * (scores - scores.max(axis=1, keepdims=True)))
        return weights / weights.sum(axis=1, keepdims=True)

    def resemblance(self, views: np.ndarray) -> np.ndarray:
        """(N,) each of ``views`` (N, EMBEDDING) unit vectors' cosine similarity to its nearest example."""
        return (np.asarray(views).reshape(-1, EMBEDDING) @ self.vectors.T).max(axis=1, initial=-1.0)

    def reweigh(self, weights: np.ndarray, crops: list[np.ndarray]) -> np.ndarray:
        """``class_weights`` of tiles seen as ``crops``, settled by your set's art where it is known."""
        return weights if self.art is None else self.art.reweigh(weights, crops)

    def to_dict(self) -> dict:
        data = {"embedding": EMBEDDING, "network": network_id(), "classes": [c.value + b.value for c, b in CLASSES],
                "labels": self.labels.tolist(), "vectors": self.vectors.round(5).tolist(), "note": self.note}
        return data if self.art is None else data | {"art": self.art.to_dict()}

    @classmethod
    def from_dict(cls, data: dict, source: str = "profile") -> "CreatureProfile":
        hint = files.RECALIBRATE_HINT[KIND]
        try:
            if int(data["embedding"]) != EMBEDDING:
                raise ValueError(f"made for {data['embedding']}-long embeddings, this hivecam uses {EMBEDDING}")
            vectors, labels = np.array(data["vectors"], float), np.array(data["labels"], int)
            note = str(data.get("note", ""))
            art = None if data.get("art") is None else SetArt.from_dict(data["art"], len(CLASSES))
        except (KeyError, TypeError, ValueError) as exc:
            raise files.CalibrationFileError(f"{source}: unusable creature profile ({exc}); {hint}") from exc
        if data.get("network") != network_id():
            raise OtherNetworkError(f"{source}: enrolled with another creature network than this hivecam's; {hint}")
        well_formed = (vectors.ndim == 2 and vectors.shape[1] == EMBEDDING and labels.shape == (len(vectors),)
                       and len(vectors) <= MAX_EXAMPLES and set(labels.tolist()) == set(range(len(CLASSES)))
                       and bool(np.all(np.abs(np.linalg.norm(vectors, axis=1) - 1) < 1e-3)))
        if not well_formed:
            raise files.CalibrationFileError(f"{source}: creature profile has malformed examples; {hint}")
        return cls(vectors, labels, note, art)

    def save(self, path: str | os.PathLike[str]) -> Path:
        return files.save(path, KIND, VERSION, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "CreatureProfile":
        return cls.from_dict(files.load(path, KIND, VERSION), str(path))


def assign(weights: np.ndarray, guessed: np.ndarray | None = None,
           creatures: Collection[Bug] | None = None) -> list[tuple[Colour, Bug, float]]:
    """The colour, creature and confidence of each tile of one frame from its class weights (T,
    len(CLASSES)), never reading a creature the game lacks (``creatures``: the game's, all if None;
    a Base game has no Mosquito) nor on more tiles than a set has of it (one Queen, two Spiders,
    three Ants... of each colour). The surest claim of any tile on any class still open is granted
    first, so a tile whose own class is used up claims its next class only after the tiles likelier
    to be that one (a phantom most like the Pillbug, read where the real Pillbug is, must not take
    the Ladybug from the real one); its confidence is that of the class among those still open. A
    ``guessed`` tile's read (T,: its crop showed no print) is never surer than that class was among
    all (neither the others' claims nor the game's creatures tell anything of its print)."""
    in_game = np.array([creatures is None or bug in creatures for _, bug in CLASSES])
    weights, among_all = np.where(in_game, weights, 0.0), weights
    left = np.array([bug.count for _, bug in CLASSES]) * in_game
    reads: list[tuple[Colour, Bug, float]] = [(Colour.WHITE, Bug.QUEEN, 0.0)] * len(weights)
    waiting = list(range(len(weights)))
    while waiting:
        open_weights = weights[waiting] * (left > 0) if left.any() else weights[waiting]
        row, best = divmod(int(np.argmax(open_weights)), len(CLASSES))
        index = waiting.pop(row)
        left[best] = max(left[best] - 1, 0)
        colour, bug = CLASSES[best]
        confidence = _share(open_weights[row], best)
        if guessed is not None and guessed[index]:
            confidence = min(confidence, _share(among_all[index], best))
        reads[index] = (colour, bug, confidence)
    return reads


def _share(weights: np.ndarray, index: int) -> float:
    """The share of ``weights`` (a tile's, over the classes) that class ``index`` holds (0 of none)."""
    total = float(weights.sum())
    return float(weights[index]) / total if total > 0 else 0.0


def default_profile() -> CreatureProfile:
    """The shipped profile: mean prototypes over the training art styles."""
    return CreatureProfile.load(DEFAULT_PROFILE_PATH)


def demo_profile() -> CreatureProfile:
    """The demo table's set (the renderer's style "a"), enrolled as a user would from one photo."""
    return CreatureProfile.load(DEMO_PROFILE_PATH)
