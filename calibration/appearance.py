"""Appearance profiles: what each creature looks like on *your* set, learned from photos.

A profile holds per-class statistics of ``vision.features.glyph_features`` (classes are
colour x creature): the class means and one shared, shrunk, within-class precision matrix
(linear discriminant analysis), saved as calibration kind "profile". It classifies a
tile's features by Mahalanobis distance among the eight creatures of the tile's colour.

Enrollment: lay your pieces out as the layout says, photograph them from the camera (one
photo works; more, e.g. after turning the tiles, work better) and call ``enroll``. The
layout's text form is one tile per line, ``q r piece`` in axial coordinates (pointy-topped
hexes; ``q`` runs east, ``r`` south-east), ``#`` starts a comment. ``DEFAULT_LAYOUT`` is a
compact block of all 28 Base+MLP pieces in four rows (8, 8, 8, 4 tiles), touching::

    row r=0:  wQ  wS1 wS2 wB1 wB2 wG1 wG2 wG3      (q = 0..7)
    row r=1:  wA1 wA2 wA3 wM  wL  wP  bQ  bS1
    row r=2:  bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2
    row r=3:  bA3 bM  bL  bP                        (q = 0..3)

Its short last row means the block has no rotational symmetry, so the photo may show it
turned any way. ``layout_picture`` draws any layout as the camera should see it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

import cv2
import numpy as np

from calibration import files
from calibration.errors import CalibrationError
from rules.hexgrid import Hex
from rules.pieces import Bug, Colour, Piece
from vision.compare import align
from vision.features import FEATURE_COUNT, glyph_features, rectified_crop
from vision.images import ImageReadError, read_image
from vision.locate import LocatedTile, locate_tiles

KIND = "profile"
VERSION = 1
DEFAULT_PROFILE_PATH = Path(__file__).with_name("default_profile.json")
CLASSES: tuple[tuple[Colour, Bug], ...] = tuple((c, b) for c in Colour for b in Bug)
SHRINKAGE = 0.25  # pull of the pooled covariance towards its diagonal
AUGMENT = 8  # jittered crops per enrolled tile and photo

_ROWS = ("wQ wS1 wS2 wB1 wB2 wG1 wG2 wG3", "wA1 wA2 wA3 wM wL wP bQ bS1",
         "bS2 bB1 bB2 bG1 bG2 bG3 bA1 bA2", "bA3 bM bL bP")
DEFAULT_LAYOUT = "\n".join(f"{q} {r} {name}" for r, row in enumerate(_ROWS) for q, name in enumerate(row.split()))

Layout = dict[Hex, Piece]


@dataclass(frozen=True)
class AppearanceProfile:
    """Class means and a shared precision matrix over standardised glyph features."""

    means: np.ndarray  # (16, D) in standardised units; rows follow CLASSES
    centre: np.ndarray  # (D,) feature mean used for standardising
    scale: np.ndarray  # (D,) feature spread used for standardising
    precision: np.ndarray  # (D, D)
    note: str = ""

    @classmethod
    def fit(cls, samples: dict[tuple[Colour, Bug], Sequence[np.ndarray]], note: str = "") -> "AppearanceProfile":
        """Learn a profile from feature vectors of every class."""
        missing = [f"{c.title} {b.title}" for c, b in CLASSES if len(samples.get((c, b), ())) == 0]
        if missing:
            raise CalibrationError(f"no examples of: {', '.join(missing)}")
        stacked = np.vstack([np.asarray(samples[k]) for k in CLASSES])
        centre, scale = stacked.mean(axis=0), stacked.std(axis=0) + 1e-6
        groups = [(np.asarray(samples[k]) - centre) / scale for k in CLASSES]
        means = np.array([g.mean(axis=0) for g in groups])
        within = np.vstack([g - g.mean(axis=0) for g in groups])
        covariance = within.T @ within / max(len(within) - len(groups), 1)
        shrunk = (1 - SHRINKAGE) * covariance + SHRINKAGE * np.diag(np.diag(covariance) + 1e-3)
        return cls(means, centre, scale, np.linalg.inv(shrunk), note)

    def classify(self, features: np.ndarray, colour: Colour, only: np.ndarray | None = None) -> tuple[Bug, float]:
        """The most likely creature on a tile of ``colour`` and its posterior probability.

        ``only`` (feature indices) restricts the decision to those features, e.g. the ones a
        partly hidden tile top still shows right.
        """
        x = (np.asarray(features) - self.centre) / self.scale
        rows = [i for i, (c, _) in enumerate(CLASSES) if c is colour]
        diff, precision = self.means[rows] - x, self.precision
        if only is not None:  # the marginal of the class Gaussians over those features
            diff, precision = diff[:, only], np.linalg.inv(np.linalg.inv(precision)[np.ix_(only, only)])
        distance = np.einsum("ij,jk,ik->i", diff, precision, diff)
        logits = -0.5 * (distance - distance.min())
        posterior = np.exp(logits) / np.exp(logits).sum()
        best = int(np.argmax(posterior))
        return CLASSES[rows[best]][1], float(posterior[best])

    def to_dict(self) -> dict:
        return {"features": FEATURE_COUNT, "classes": [c.value + b.value for c, b in CLASSES],
                "means": self.means.round(6).tolist(), "centre": self.centre.tolist(),
                "scale": self.scale.tolist(), "precision": self.precision.round(6).tolist(), "note": self.note}

    @classmethod
    def from_dict(cls, data: dict, source: str = "profile") -> "AppearanceProfile":
        hint = files.RECALIBRATE_HINT[KIND]
        try:
            if int(data["features"]) != FEATURE_COUNT:
                raise ValueError(f"made for {data['features']} features, this hivecam uses {FEATURE_COUNT}")
            profile = cls(np.array(data["means"], float), np.array(data["centre"], float),
                          np.array(data["scale"], float), np.array(data["precision"], float), str(data.get("note", "")))
        except (KeyError, TypeError, ValueError) as exc:
            raise files.CalibrationFileError(f"{source}: unusable appearance profile ({exc}); {hint}") from exc
        if profile.means.shape != (len(CLASSES), FEATURE_COUNT) or profile.precision.shape != (FEATURE_COUNT,) * 2:
            raise files.CalibrationFileError(f"{source}: appearance profile has malformed arrays; {hint}")
        return profile

    def save(self, path: str | os.PathLike[str]) -> Path:
        return files.save(path, KIND, VERSION, self.to_dict())

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "AppearanceProfile":
        return cls.from_dict(files.load(path, KIND, VERSION), str(path))


def default_profile() -> AppearanceProfile:
    """The shipped profile, learned from synthetic style-"a" renders (``python -m vision.make_default_profile``)."""
    return AppearanceProfile.load(DEFAULT_PROFILE_PATH)


def parse_layout(text: str) -> Layout:
    """Parse ``q r piece`` lines; ``CalibrationError`` names the first bad line."""
    layout: Layout = {}
    seen: set[Piece] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            if len(words) != 3:
                raise ValueError("expected 'q r piece', e.g. '0 0 wQ'")
            cell, piece = (int(words[0]), int(words[1])), Piece.parse(words[2])
        except ValueError as exc:
            raise CalibrationError(f"layout line {number} ({line.strip()!r}): {exc}") from None
        if cell in layout or piece in seen:
            raise CalibrationError(f"layout line {number}: {'cell' if cell in layout else 'piece'} used twice")
        layout[cell] = piece
        seen.add(piece)
    absent = [f"{c.title} {b.title}" for c, b in CLASSES if not any(p.colour is c and p.bug is b for p in seen)]
    if absent:
        raise CalibrationError(f"the layout lacks {', '.join(absent)}: every creature of both colours must be "
                               "enrolled (lay out at least one of each)")
    return layout


def _image(item: np.ndarray | str | os.PathLike[str] | None, index: int) -> np.ndarray:
    if isinstance(item, (str, os.PathLike)):
        try:
            return read_image(item)
        except ImageReadError as exc:
            raise CalibrationError(str(exc)) from None
    if not isinstance(item, np.ndarray) or item.ndim != 3 or item.shape[2] != 3 or item.size == 0:
        raise CalibrationError(f"photo {index + 1}: not a readable colour image")
    return item


def _placed(tiles: list[LocatedTile], layout: Layout, label: str) -> dict[Hex, LocatedTile]:
    """Map the tiles seen in one photo onto layout cells (any rotation and shift of the block)."""
    seen = {t.cell: t.colour for t in tiles}
    wanted = {cell: piece.colour for cell, piece in layout.items()}
    alignment = align(seen, wanted)
    placed = {alignment.apply(t.cell): t for t in tiles}
    absent = [f"{layout[c].name} at {c}" for c in layout if c not in placed]
    if absent:
        raise CalibrationError(f"{label}: layout piece{'s' if len(absent) > 1 else ''} not found: "
                               f"{', '.join(absent[:6])}{' ...' if len(absent) > 6 else ''} (is every tile in view, "
                               "laid out as the layout says, and not covered?)")
    wrong = [layout[c].name for c, t in placed.items() if c in layout and t.colour is not layout[c].colour]
    if wrong:
        raise CalibrationError(f"{label}: tiles of the wrong colour where the layout has {', '.join(wrong)}")
    return placed


def augmented_features(frame: np.ndarray, tile: LocatedTile, count: int, rng: np.random.Generator
                       ) -> list[np.ndarray]:
    """Features of ``tile`` plus ``count - 1`` crops with small errors in centre, scale and angle."""
    result = [glyph_features(rectified_crop(frame, tile.centre, tile.basis))]
    pitch = float(np.linalg.norm(tile.basis, axis=1).mean())
    for _ in range(count - 1):
        angle = rng.normal(0, 0.06)
        turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        basis = tile.basis @ turn.T * rng.normal(1, 0.04)
        centre = tile.centre + rng.normal(0, 0.035 * pitch, 2)
        result.append(glyph_features(rectified_crop(frame, centre, basis)))
    return result


def enroll(images: Iterable[np.ndarray | str | os.PathLike[str] | None], layout: str | None = None,
           note: str = "") -> AppearanceProfile:
    """Learn a profile from photos of a set laid out as ``layout`` (text; default ``DEFAULT_LAYOUT``)."""
    cells = parse_layout(DEFAULT_LAYOUT if layout is None else layout)
    samples: dict[tuple[Colour, Bug], list[np.ndarray]] = {k: [] for k in CLASSES}
    rng = np.random.default_rng(0)
    photos = list(images)
    if not photos:
        raise CalibrationError("enrollment needs at least one photo of the laid-out pieces")
    for index, item in enumerate(photos):
        frame = _image(item, index)
        label = item if isinstance(item, (str, os.PathLike)) else f"photo {index + 1}"
        located = locate_tiles(frame)
        if not located.tiles:
            raise CalibrationError(f"{label}: no tiles found (is the camera looking at the laid-out pieces?)")
        for cell, tile in _placed(located.tiles, cells, str(label)).items():
            piece = cells.get(cell)
            if piece is not None and not tile.cut:
                samples[(piece.colour, piece.bug)].extend(augmented_features(frame, tile, AUGMENT, rng))
    return AppearanceProfile.fit(samples, note)


def layout_position(layout: str = DEFAULT_LAYOUT) -> dict[Hex, list[Piece]]:
    """A layout as a position (one piece per cell), e.g. to render it."""
    return {cell: [piece] for cell, piece in parse_layout(layout).items()}


def layout_picture(layout: str = DEFAULT_LAYOUT, style: str = "a") -> np.ndarray:
    """A top-down picture of ``layout`` with each tile's name written under it (BGR, 1280x720)."""
    from vision.render.scene import Conditions, render_position

    position = layout_position(layout)
    frame, truth = render_position(position, Conditions(height_mm=330, style=style, shadow=0.15, jitter=0.0))
    scale = truth.tile_px / 120
    for tile in truth.tiles:
        name = position[tile.cell][0].name
        (w, _), _ = cv2.getTextSize(name, cv2.FONT_HERSHEY_SIMPLEX, scale, 2)
        at = (int(tile.px[0] - w / 2), int(tile.px[1] + truth.tile_px * 0.40))
        for colour, thickness in (((255, 255, 255), 5), ((0, 0, 200), 2)):
            cv2.putText(frame, name, at, cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)
    return frame
