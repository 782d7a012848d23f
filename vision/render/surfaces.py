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
                  jpeg_quality: int, motion_px: float = 0.0, motion_deg: float = 0.0) -> np.ndarray:
    """Lens blur, motion blur (``motion_px`` long, at ``motion_deg``), sensor noise and JPEG, in that order."""
    if blur_sigma > 0.05:
        image = cv2.GaussianBlur(image, (0, 0), blur_sigma)
    if motion_px >= 1.0:
        image = cv2.filter2D(image, -1, _streak(motion_px, motion_deg))
    if noise_sigma > 0:
        image = cv2.add(image, _grain(rng, image.shape[:2]) * noise_sigma, dtype=cv2.CV_8U)
    if jpeg_quality < 100:
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image


@lru_cache(maxsize=1)
def _grain_field() -> np.ndarray:
    """Unit grey sensor noise (3 equal channels), twice a frame's size each way, to be cropped at random."""
    noise = np.random.default_rng(77).standard_normal((HEIGHT * 2, WIDTH * 2), dtype=np.float32)
    return cv2.merge([noise] * 3)


def _grain(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A random crop of the sensor noise field, flipped at random."""
    y, x = int(rng.integers(HEIGHT)), int(rng.integers(WIDTH))
    crop = _grain_field()[y:y + shape[0], x:x + shape[1]]
    return crop[::-1] if rng.random() < 0.5 else crop


def _streak(length: float, angle_deg: float) -> np.ndarray:
    """A normalised line kernel ``length`` px long at ``angle_deg``."""
    size = int(np.ceil(length)) | 1
    kernel = np.zeros((size, size), np.float32)
    half = (length - 1) / 2 * np.array([np.cos(np.radians(angle_deg)), np.sin(np.radians(angle_deg))])
    centre = np.array([size // 2, size // 2])
    start, end = (tuple(np.round(point * 16).astype(int)) for point in (centre - half, centre + half))
    cv2.line(kernel, start, end, 1.0, 1, cv2.LINE_AA, shift=4)
    return kernel / kernel.sum()


# ------------------------------------------------------------------ tables seen in perspective
PLANE_PX = 512  # side of a periodic table pattern
PLANE_MM_PER_PX = 1.5
WOODS = {"oak": (95, 150, 200), "walnut": (45, 70, 100), "maple": (150, 195, 225), "cherry": (60, 100, 165),
         "pine": (120, 180, 220), "ebony": (32, 38, 48), "whitewash": (200, 205, 208), "greywash": (135, 140, 145)}
CLOTHS = ("felt", "linen", "gingham", "stripes", "floral")
PLANE_TABLES = (*WOODS, *CLOTHS, "mat", "glass_dark", "glass_light")
TABLE_GLOSS = {"mat": 0.08, "glass_dark": 0.6, "glass_light": 0.35, **{wood: 0.15 for wood in WOODS}}


def _noise(rng: np.random.Generator, sigma_x: float, sigma_y: float) -> np.ndarray:
    """Periodic smooth noise (PLANE_PX square, unit deviation), blurred by (sigma_x, sigma_y) px."""
    freq = np.fft.fftfreq(PLANE_PX)
    gauss = np.exp(-2 * np.pi ** 2 * ((freq[None, :] * sigma_x) ** 2 + (freq[:, None] * sigma_y) ** 2))
    field = np.fft.ifft2(np.fft.fft2(rng.normal(0, 1, (PLANE_PX, PLANE_PX))) * gauss).real
    return (field / (field.std() + 1e-9)).astype(np.float32)


def _relief(height: np.ndarray, strength: float) -> np.ndarray:
    """Shading of a bumpy surface lit from one side: 1 + strength * slope."""
    return 1 + strength * (np.roll(height, -1, axis=1) - np.roll(height, 1, axis=1))


def _wood(rng: np.random.Generator, tone: tuple[int, int, int]) -> np.ndarray:
    boards = int(rng.integers(3, 8))
    ys = np.arange(PLANE_PX, dtype=np.float32)[:, None]
    board = (ys * boards // PLANE_PX).astype(int)
    tint = (1 + rng.normal(0, 0.07, (boards, 1)) + rng.normal(0, 0.015, (boards, 3)))[board[:, 0]][:, None, :]
    warp = _noise(rng, 60, 12) * rng.uniform(2, 8)
    rings = np.sin(2 * np.pi * (ys * rng.uniform(0.04, 0.12) + warp)) * rng.uniform(0.04, 0.1)
    streaks = _noise(rng, 40, 0.8) * 0.07
    seam = 1 - 0.35 * ((ys * boards / PLANE_PX) % 1 * PLANE_PX / boards < 1.0)
    shade = (1 + rings + streaks) * seam
    return shade[..., None] * np.asarray(tone, np.float32) * tint


def _weave(rng: np.random.Generator) -> np.ndarray:
    """Threads and wrinkles of cloth as a (PLANE_PX, PLANE_PX) brightness factor."""
    period = int(rng.integers(2, 4))
    ys, xs = np.mgrid[0:PLANE_PX, 0:PLANE_PX]
    threads = 1 + 0.06 * np.sin(np.pi * xs / period) * np.sin(np.pi * ys / period)
    wrinkles = _relief(_noise(rng, rng.uniform(15, 40), rng.uniform(4, 25)) * 3, rng.uniform(0.08, 0.25))
    return (threads * wrinkles * (1 + 0.04 * _noise(rng, 1, 1))).astype(np.float32)


def _bright_colour(rng: np.random.Generator) -> np.ndarray:
    return rng.uniform(30, 230, 3).astype(np.float32)


def _cloth(rng: np.random.Generator, kind: str) -> np.ndarray:
    base, accent = _bright_colour(rng), _bright_colour(rng)
    ys, xs = np.mgrid[0:PLANE_PX, 0:PLANE_PX]
    stripes = int(rng.choice([8, 16, 32]))
    band_x = ((xs * stripes // PLANE_PX) % 2).astype(np.float32)[..., None]
    band_y = ((ys * stripes // PLANE_PX) % 2).astype(np.float32)[..., None]
    if kind == "felt":
        colour = np.broadcast_to(base * 0.7, (PLANE_PX, PLANE_PX, 3))
    elif kind == "gingham":
        colour = base + (accent - base) * (band_x + band_y) / 2
    elif kind == "stripes":
        colour = base + (accent - base) * band_x
    elif kind == "floral":
        colour = _flowers(rng, base, accent)
    else:
        colour = np.broadcast_to(np.array([170, 185, 195], np.float32) * rng.uniform(0.6, 1.1), (PLANE_PX, PLANE_PX, 3))
    return colour * _weave(rng)[..., None]


def _flowers(rng: np.random.Generator, base: np.ndarray, accent: np.ndarray) -> np.ndarray:
    image = np.empty((PLANE_PX, PLANE_PX, 3), np.float32)
    image[:] = base
    leaf = base * 0.5 + np.array([20, 70, 10], np.float32)
    for _ in range(int(rng.integers(15, 40))):
        centre = rng.uniform(0, PLANE_PX, 2)
        size = rng.uniform(8, 25)
        petals = int(rng.integers(4, 8))
        for dx in (-PLANE_PX, 0, PLANE_PX):  # drawn three times across the seam so the pattern repeats
            for dy in (-PLANE_PX, 0, PLANE_PX):
                c = centre + (dx, dy)
                for k in range(petals):
                    a = 2 * np.pi * k / petals
                    tip = c + size * np.array([np.cos(a), np.sin(a)])
                    cv2.ellipse(image, tuple(np.round(tip).astype(int)), (int(size * 0.6), int(size * 0.3)),
                                np.degrees(a), 0, 360, tuple(accent.tolist()), -1, cv2.LINE_AA)
                stem = c + size * 1.8 * np.array([np.cos(a + 1), np.sin(a + 1)])
                cv2.ellipse(image, tuple(np.round(stem).astype(int)), (int(size * 0.7), int(size * 0.25)),
                            np.degrees(a + 1), 0, 360, tuple(leaf.tolist()), -1, cv2.LINE_AA)
                cv2.circle(image, tuple(np.round(c).astype(int)), int(size * 0.3), (40, 200, 230), -1, cv2.LINE_AA)
    return image


def _mat(rng: np.random.Generator) -> np.ndarray:
    """A neoprene play mat: dark rubber, a printed hex grid of its own pitch, a printed logo."""
    base = np.array(rng.choice([[25, 25, 25], [70, 40, 20], [30, 60, 30], [60, 30, 55], [50, 50, 55]]), np.float32)
    image = np.clip(base * (1 + 0.05 * _noise(rng, 2, 2))[..., None], 0, 255).astype(np.uint8)
    ink = tuple((base + rng.uniform(40, 140, 3)).tolist())
    across = int(rng.integers(6, 20))  # hexes across the pattern: the grid's pitch has nothing to do with the tiles
    step = PLANE_PX / across
    rows = max(2, int(round(PLANE_PX / (step * np.sqrt(3) / 2) / 2)) * 2)
    row_step = PLANE_PX / rows
    radius = step / np.sqrt(3)
    width = max(1, int(rng.integers(1, 3)))
    for r in range(-1, rows + 1):
        for q in range(-1, across + 1):
            centre = np.array([(q + 0.5 * (r % 2)) * step, r * row_step])
            corners = centre + radius * np.column_stack([np.sin(np.arange(6) * np.pi / 3),
                                                          np.cos(np.arange(6) * np.pi / 3)])
            cv2.polylines(image, [np.round(corners * 4).astype(np.int32)], True, ink, width, cv2.LINE_AA, shift=2)
    _logo(image, rng)
    return image


def _logo(image: np.ndarray, rng: np.random.Generator) -> None:
    """A printed emblem: a ring and a star-like badge, with a word under it."""
    centre = rng.uniform(0.25, 0.75, 2) * PLANE_PX
    colour = tuple(rng.uniform(60, 255, 3).tolist())
    size = rng.uniform(40, 110)
    cv2.circle(image, tuple(np.round(centre).astype(int)), int(size), colour, int(rng.integers(3, 10)), cv2.LINE_AA)
    points = int(rng.integers(5, 9))
    angles = np.linspace(0, 2 * np.pi, points * 2, endpoint=False)
    radii = np.where(np.arange(points * 2) % 2, size * 0.35, size * 0.75)
    star = centre + np.column_stack([radii * np.cos(angles), radii * np.sin(angles)])
    cv2.fillPoly(image, [np.round(star).astype(np.int32)], colour, cv2.LINE_AA)
    word = "".join(rng.choice(list("HIVEGAMRSTOPLAY"), int(rng.integers(3, 7))))
    cv2.putText(image, word, tuple(np.round(centre + [-size, size * 1.6]).astype(int)), cv2.FONT_HERSHEY_DUPLEX,
                size / 40, colour, 2, cv2.LINE_AA)


def _glass(rng: np.random.Generator, dark: bool) -> np.ndarray:
    """Glass: near black or pale, with smears and the soft reflections of a room."""
    base = np.array([30, 32, 28] if dark else [200, 215, 205], np.float32) * rng.uniform(0.8, 1.1, 3)
    room = np.maximum(_noise(rng, 50, 50), 0) * (0.35 if dark else 0.08)
    smears = _noise(rng, 6, 3) * 0.03
    return base * (1 + room + smears)[..., None]


@lru_cache(maxsize=128)
def table_plane(kind: str, variant: int) -> np.ndarray:
    """The periodic BGR uint8 pattern of a table ``kind`` (PLANE_TABLES), ``PLANE_MM_PER_PX`` mm per pixel."""
    rng = np.random.default_rng([2000, variant, PLANE_TABLES.index(kind)])
    if kind in WOODS:
        image = _wood(rng, WOODS[kind])
    elif kind in CLOTHS:
        image = _cloth(rng, kind)
    elif kind == "mat":
        image = _mat(rng)
    else:
        image = _glass(rng, kind == "glass_dark")
    return np.clip(image, 0, 255).astype(np.uint8)


def table_view(kind: str, variant: int, plane_to_image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The table pattern as the camera sees it: ``plane_to_image`` maps table (x, y, 1) mm to pinhole pixels.

    The pattern is laid at a random turn and offset, and its brightness varies a little.
    """
    turn, offset = rng.uniform(0, 2 * np.pi), rng.uniform(0, PLANE_PX, 2)
    scale = 1 / PLANE_MM_PER_PX
    to_plane = np.array([[scale * np.cos(turn), -scale * np.sin(turn), offset[0]],
                         [scale * np.sin(turn), scale * np.cos(turn), offset[1]], [0, 0, 1]])
    grid = np.mgrid[0:HEIGHT + 8:8, 0:WIDTH + 8:8][::-1].reshape(2, -1).T.astype(np.float64)
    coarse = cv2.perspectiveTransform(grid[None], to_plane @ np.linalg.inv(plane_to_image))[0]
    coarse = coarse.reshape(HEIGHT // 8 + 1, WIDTH // 8 + 1, 2).astype(np.float32)
    fine = cv2.resize(coarse, (WIDTH + 8, HEIGHT + 8), interpolation=cv2.INTER_LINEAR)[:HEIGHT, :WIDTH]
    view = cv2.remap(table_plane(kind, variant), fine, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
    return cv2.multiply(view, np.full(3, 1.0) * rng.uniform(0.85, 1.15, 3), dtype=cv2.CV_8U)
