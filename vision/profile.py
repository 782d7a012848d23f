"""Creature profiles: what each creature looks like on *your* set, as prototype embeddings.

A profile holds one unit vector per colour and creature (``CLASSES``) in the creature
network's embedding space (``vision.creatures``), saved as calibration kind "profile". A tile
of a known colour is the creature whose prototype lies nearest its embedding. The built-in
profile is the mean over the training art styles; enrolling (``vision.enroll``) learns the
prototypes of the user's own set from one photo.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from calibration import files
from rules.pieces import Bug, Colour
from vision.creatures import EMBEDDING

KIND = "profile"
VERSION = 2  # version 1 held glyph-feature statistics, read by no hivecam since the creature network
DEFAULT_PROFILE_PATH = Path(__file__).with_name("models") / "default_profile.json"
DEMO_PROFILE_PATH = Path(__file__).with_name("models") / "demo_profile.json"
CLASSES: tuple[tuple[Colour, Bug], ...] = tuple((c, b) for c in Colour for b in Bug)
SHARPNESS = 25.0  # softmax scale over cosine similarities, for the confidence


@dataclass(frozen=True)
class CreatureProfile:
    """Prototype embeddings of the 16 classes (rows follow ``CLASSES``)."""

    prototypes: np.ndarray  # (16, EMBEDDING) unit vectors
    note: str = ""

    @classmethod
    def from_examples(cls, examples: dict[tuple[Colour, Bug], np.ndarray], note: str = "") -> "CreatureProfile":
        """The profile whose prototypes are the normalised means of each class's example embeddings."""
        missing = [f"{c.title} {b.title}" for c, b in CLASSES if len(examples.get((c, b), ())) == 0]
        if missing:
            raise files.CalibrationFileError(f"no examples of: {', '.join(missing)}")
        means = np.array([np.asarray(examples[k]).mean(axis=0) for k in CLASSES])
        return cls(means / np.linalg.norm(means, axis=1, keepdims=True), note)

    def classify(self, embedding: np.ndarray, colour: Colour) -> tuple[Bug, float]:
        """The creature on a tile of ``colour`` whose prototype is nearest, and a softmax confidence."""
        rows = [i for i, (c, _) in enumerate(CLASSES) if c is colour]
        similarity = self.prototypes[rows] @ embedding
        weights = np.exp(SHARPNESS * (similarity - similarity.max()))
        best = int(np.argmax(similarity))
        return CLASSES[rows[best]][1], float(weights[best] / weights.sum())

    def to_dict(self) -> dict:
        return {"embedding": EMBEDDING, "classes": [c.value + b.value for c, b in CLASSES],
                "prototypes": self.prototypes.round(6).tolist(), "note": self.note}

    @classmethod
    def from_dict(cls, data: dict, source: str = "profile") -> "CreatureProfile":
        hint = files.RECALIBRATE_HINT[KIND]
        try:
            if int(data["embedding"]) != EMBEDDING:
                raise ValueError(f"made for {data['embedding']}-long embeddings, this hivecam uses {EMBEDDING}")
            prototypes = np.array(data["prototypes"], float)
            note = str(data.get("note", ""))
        except (KeyError, TypeError, ValueError) as exc:
            raise files.CalibrationFileError(f"{source}: unusable creature profile ({exc}); {hint}") from exc
        norms = np.linalg.norm(prototypes, axis=-1) if prototypes.ndim == 2 else None
        if prototypes.shape != (len(CLASSES), EMBEDDING) or norms is None or not np.all(np.abs(norms - 1) < 1e-3):
            raise files.CalibrationFileError(f"{source}: creature profile has malformed prototypes; {hint}")
        return cls(prototypes, note)

    def save(self, path: str | os.PathLike[str]) -> Path:
        return files.save(path, KIND, VERSION, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "CreatureProfile":
        return cls.from_dict(files.load(path, KIND, VERSION), str(path))


def default_profile() -> CreatureProfile:
    """The shipped profile: mean prototypes over the training art styles."""
    return CreatureProfile.load(DEFAULT_PROFILE_PATH)


def demo_profile() -> CreatureProfile:
    """The demo table's set (the renderer's style "a"), enrolled as a user would from one photo."""
    return CreatureProfile.load(DEMO_PROFILE_PATH)
