"""Table surfaces, lighting fields and camera noise for synthetic frames (all cheap, cached where possible)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.render.camera import HEIGHT, WIDTH

TABLES = ("wood", "cloth", "plain")


@lru_cache(maxsize=12)
def table_texture(kind: str, variant: int) -> np.ndarray:
    """A full-frame BGR table surface of ``kind`` (wood, cloth, plain); ``variant`` picks its tint and grain."""
    rng = np.random.default_rng(1000 + variant * 7 + TABLES.index(kind))
    h, w = HEIGHT // 2, WIDTH // 2
    if kind == "wood":
        base = np.array([55, 95, 140]) * rng.uniform(0.8, 1.0)
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        warp = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), 25) * 60
        grain = np.sin((ys + warp) * rng.uniform(0.15, 0.3) + np.sin(xs / 40.0)) * 0.08
        streaks = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), sigmaX=12, sigmaY=0.8) * 0.6
        shade = 1 + grain + streaks
    elif kind == "cloth":
        base = [np.array([70, 120, 40]), np.array([120, 70, 40]), np.array([105, 100, 95])][variant % 3].astype(float)
        shade = 1 + rng.normal(0, 0.06, (h, w)) + cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 6) * 0.3
    elif kind == "plain":
        base = np.array([130, 138, 142]) * rng.uniform(0.85, 1.05)
        shade = 1 + cv2.GaussianBlur(rng.normal(0, 1, (h, w)), (0, 0), 30) * 1.5
    else:
        raise ValueError(f"unknown table {kind!r}; choose one of {', '.join(TABLES)}")
    image = np.clip(shade[..., None] * base, 0, 255).astype(np.uint8)
    return cv2.resize(image, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)


def light_field(rng: np.random.Generator, strength: float) -> np.ndarray:
    """A smooth multiplicative light field (H, W, 1) float32: a linear gradient plus a soft spot."""
    h, w = 18, 32
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = ((xs / w - 0.5) * np.cos(angle) + (ys / h - 0.5) * np.sin(angle)) * strength
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    spot = np.exp(-((xs - cx) ** 2 + (ys - cy) ** 2) / (2 * (w * 0.3) ** 2)) * strength * 0.6
    field = (1.0 - strength * 0.3 + ramp + spot).astype(np.float32)
    return cv2.resize(field, (WIDTH, HEIGHT), interpolation=cv2.INTER_LINEAR)[..., None]


def camera_finish(image: np.ndarray, rng: np.random.Generator, blur_sigma: float, noise_sigma: float,
                  jpeg_quality: int) -> np.ndarray:
    """Lens blur, sensor noise and JPEG compression, in that order."""
    if blur_sigma > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), blur_sigma)
    if noise_sigma > 0:
        noise = rng.normal(0, noise_sigma, image.shape[:2] + (1,)).astype(np.float32)
        image = np.clip(image.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if jpeg_quality < 100:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image
