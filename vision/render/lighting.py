"""Lamps over the table: face shading, cast shadows, the light falling across the table, glare.

Two kinds of lighting share one interface: the classic single far light (``Lighting.classic``,
today's look) and physical lamps hung above the table (``Lighting.from_lamps``), each with a
colour cast, a size (soft or hard shadows, wide or tight glare) and a fall-off with distance.
Directions are unit vectors from the scene toward a light, in table axes (z < 0 is up).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import HEIGHT, WIDTH, SyntheticCamera

UP = np.array([0.0, 0.0, -1.0])
SHADOW_SCALE = 4  # shadows are drawn at 1/4 resolution, then blurred
GLARE_SIZE_MM = 100.0  # lamps larger than this mirror less brightly


@dataclass(frozen=True)
class Lamp:
    """A lamp above the table, placed relative to the middle of the hive (mm)."""

    x_mm: float
    y_mm: float
    height_mm: float
    power: float = 1.0
    cast: tuple[float, float, float] = (1.0, 1.0, 1.0)  # BGR gains of its colour
    size_mm: float = 60.0  # glowing diameter: larger lamps give softer shadows and wider glare


@dataclass(frozen=True)
class Footprint:
    """Something standing on the table that casts a shadow: its outline (N, 2) mm and height (mm)."""

    outline: np.ndarray
    lift_mm: float


@dataclass(frozen=True)
class Lighting:
    """Where the light comes from and how strong each part is."""

    directions: np.ndarray  # (k, 3) toward each light
    weights: np.ndarray  # (k,) strength of each light
    softness: np.ndarray  # (k,) penumbra width per mm of height
    ambient: float
    classic: bool = False

    @classmethod
    def single(cls, rng: np.random.Generator) -> "Lighting":
        """Today's look: one far light, almost overhead, drawn from ``rng``."""
        direction = np.array([*rng.normal(0, 0.35, 2), -1.0])
        return cls(direction[None] / np.linalg.norm(direction), np.ones(1), np.zeros(1), 0.0, classic=True)

    @classmethod
    def from_lamps(cls, lamps: tuple[Lamp, ...], ambient: float) -> "Lighting":
        """Physical lamps as seen from the middle of the hive."""
        vectors = np.array([[lamp.x_mm, lamp.y_mm, -lamp.height_mm] for lamp in lamps]).reshape(-1, 3)
        distance = np.linalg.norm(vectors, axis=1)
        sizes = np.array([lamp.size_mm for lamp in lamps])
        return cls(vectors / distance[:, None], np.array([lamp.power for lamp in lamps]), sizes / distance, ambient)

    def shade(self, normal: np.ndarray) -> float:
        """Brightness of a surface with unit ``normal``, relative to a flat top."""
        if self.classic:
            return 0.72 + 0.28 * max(0.0, float(-self.directions[0] @ normal) * 2.0)
        facing = np.maximum(self.directions @ normal, 0.0)
        flat = self.ambient + float(self.weights @ -self.directions[:, 2])
        return (self.ambient + float(self.weights @ facing)) / flat

    def shadow_darkness(self, strength: float) -> np.ndarray:
        """(k,) fraction of a flat point's light lost in each light's shadow, times ``strength``."""
        if self.classic:
            return np.full(1, strength)
        reach = self.weights * -self.directions[:, 2]
        return strength * reach / (self.ambient + reach.sum())

    def shadow_field(self, footprints: list[Footprint], camera: SyntheticCamera, strength: float,
                     mm_px: float) -> np.ndarray | None:
        """Multiplicative (H, W, 1) float32 field darkening the table where things shade it; None if nothing does."""
        if not footprints or strength <= 0:
            return None
        small = (HEIGHT // SHADOW_SCALE, WIDTH // SHADOW_SCALE)
        field = np.ones(small, np.float32)
        mean_lift = float(np.mean([f.lift_mm for f in footprints]))
        for direction, darkness, softness in zip(self.directions, self.shadow_darkness(strength), self.softness):
            mask = np.zeros(small, np.uint8)
            along = direction[:2] / -direction[2]
            for footprint in footprints:
                moved = footprint.outline - along * footprint.lift_mm
                px = camera.project_ideal(np.column_stack([moved, np.zeros(len(moved))])) / SHADOW_SCALE
                cv2.fillPoly(mask, [np.round(px * 16).astype(np.int32)], 255, cv2.LINE_AA, shift=4)
            sigma = max(2.0 if self.classic else 0.7, softness * mean_lift * mm_px / SHADOW_SCALE)
            field -= darkness * cv2.GaussianBlur(mask, (0, 0), sigma).astype(np.float32) / 255
        return cv2.resize(field, (WIDTH, HEIGHT))[..., None]


def lamp_field(lamps: tuple[Lamp, ...], ambient: float, centre: np.ndarray, camera: SyntheticCamera,
               vignette: float) -> np.ndarray:
    """Multiplicative (H, W, 3) float32 BGR light on the table: lamps fall off with distance, the lens vignettes.

    Normalised so the middle of the hive (``centre``, mm) gets about 1 (the camera's exposure).
    """
    h, w = 18, 32
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    pixels = np.column_stack([(xs.ravel() + 0.5) * WIDTH / w, (ys.ravel() + 0.5) * HEIGHT / h])
    points = np.vstack([table_points(camera, pixels, 0.0), [[*centre, 0.0]]])
    light = np.full((len(points), 3), ambient)
    for lamp in lamps:
        source = np.array([centre[0] + lamp.x_mm, centre[1] + lamp.y_mm, -lamp.height_mm])
        distance = np.linalg.norm(points - source, axis=1)
        light += np.outer(lamp.power * (lamp.height_mm / distance) ** 3, lamp.cast)
    light /= light[-1].mean()
    x, y, zoom = camera.view  # the lens vignettes the whole view, of which a crop shows part
    whole = pixels / zoom + [x, y]
    radius = np.hypot(whole[:, 0] / WIDTH - 0.5, whole[:, 1] / HEIGHT - 0.5) / np.hypot(0.5, 0.5)
    light = light[:-1] * (1 - vignette * radius ** 2)[:, None]
    return cv2.resize(light.reshape(h, w, 3).astype(np.float32), (WIDTH, HEIGHT))


def table_points(camera: SyntheticCamera, pixels: np.ndarray, z: float) -> np.ndarray:
    """Table points (N, 3) at height ``z`` (mm, negative is up; scalar or (N,)) seen at canvas ``pixels`` (N, 2)."""
    rays = np.column_stack([pixels, np.ones(len(pixels))]) @ np.linalg.inv(camera.canvas_matrix).T @ camera.rotation
    origin = camera.position
    t = (z - origin[2]) / rays[:, 2]
    return origin + rays * t[:, None]


def glare(points: np.ndarray, normals: np.ndarray, gloss: np.ndarray, lamps: tuple[Lamp, ...],
          centre: np.ndarray, camera: SyntheticCamera, roughness: np.ndarray) -> np.ndarray:
    """(N, 3) BGR specular light (0..1+) at surface ``points`` (N, 3) with ``normals`` (N, 3).

    A Gaussian lobe about the mirror direction whose width is the surface's ``roughness`` (rad)
    plus the lamp's angular size: glossy tiles show a bright patch where they mirror a lamp.
    """
    view = camera.position - points
    view /= np.linalg.norm(view, axis=1, keepdims=True)
    total = np.zeros((len(points), 3))
    for lamp in lamps:
        source = np.array([centre[0] + lamp.x_mm, centre[1] + lamp.y_mm, -lamp.height_mm])
        towards = source - points
        distance = np.linalg.norm(towards, axis=1, keepdims=True)
        half = view + towards / distance
        half /= np.linalg.norm(half, axis=1, keepdims=True)
        angle = np.arccos(np.clip((half * normals).sum(axis=1), -1, 1))
        spread = roughness + lamp.size_mm / distance[:, 0] / 2
        peak = gloss * lamp.power * min(1.0, GLARE_SIZE_MM / lamp.size_mm)  # a broad lamp is less bright per area
        total += np.outer(peak * np.exp(-0.5 * (angle / spread) ** 2), lamp.cast)
    return total
