"""A hand and forearm reaching into the view: a skin-coloured arm polygon, palm and fingers."""

from __future__ import annotations

import cv2
import numpy as np

from vision.render.camera import HEIGHT, WIDTH


def border_entry(rng: np.random.Generator) -> np.ndarray:
    """A random point on the image border where an arm comes in."""
    side = rng.integers(4)
    t = rng.uniform(0.15, 0.85)
    return np.array([(t * WIDTH, 0), (WIDTH, t * HEIGHT), (t * WIDTH, HEIGHT), (0, t * HEIGHT)][side], float)


def draw_hand(image: np.ndarray, entry: np.ndarray, fingertip: np.ndarray, mm_px: float,
              rng: np.random.Generator, skin: tuple[float, float, float] | None = None,
              sleeve: tuple[float, float, float] | None = None) -> np.ndarray:
    """Draw an arm from ``entry`` whose fingertips reach ``fingertip``; return its 0/255 mask.

    ``mm_px`` is the image size of one millimetre near the hand, so the arm is ~75 mm wide.
    ``skin`` (BGR) is drawn from ``rng`` when not given; a ``sleeve`` (BGR) covers the forearm.
    """
    drawn = np.array([125, 155, 215]) * rng.uniform(0.85, 1.1) + rng.uniform(-12, 12, 3)
    skin = drawn if skin is None else np.asarray(skin, float)
    axis = fingertip - entry
    length = np.linalg.norm(axis)
    if length < 1:
        axis, length = np.array([0.0, 1.0]), 1.0
    along = axis / length
    across = np.array([-along[1], along[0]])
    half = 37 * mm_px
    wrist = fingertip - along * 85 * mm_px
    mask = np.zeros(image.shape[:2], np.uint8)
    arm = np.array([entry + across * half * 1.2, wrist + across * half, wrist - across * half,
                    entry - across * half * 1.2])
    cv2.fillPoly(mask, [np.round(arm * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    palm_centre = wrist + along * 25 * mm_px
    angle = float(np.degrees(np.arctan2(along[1], along[0])))
    cv2.ellipse(mask, (np.round(palm_centre).astype(int)), (int(45 * mm_px), int(42 * mm_px)), angle, 0, 360, 255, -1)
    finger_width = max(2, int(17 * mm_px))
    for k, spread in enumerate(np.linspace(-0.8, 0.8, 4)):
        base = palm_centre + across * spread * 34 * mm_px + along * 20 * mm_px
        tip = fingertip + across * spread * 30 * mm_px - along * abs(spread) * 12 * mm_px
        cv2.line(mask, tuple(np.round(base).astype(int)), tuple(np.round(tip).astype(int)), 255, finger_width,
                 cv2.LINE_AA)
    thumb_tip = palm_centre + across * 70 * mm_px * rng.choice([-1, 1]) + along * 10 * mm_px
    cv2.line(mask, tuple(np.round(palm_centre).astype(int)), tuple(np.round(thumb_tip).astype(int)), 255,
             int(finger_width * 1.2), cv2.LINE_AA)
    ys = np.linspace(0.8, 1.1, image.shape[1], dtype=np.float32)[None, :, None]
    colour = np.broadcast_to(np.clip(skin * ys, 0, 255), image.shape).astype(np.float32)
    if sleeve is not None:
        cuff = wrist - along * rng.uniform(20, 120) * mm_px
        colour = _sleeve(colour, mask, entry, cuff, along, across, half * 1.5, np.asarray(sleeve, float), rng)
    alpha = (mask.astype(np.float32) / 255)[..., None]
    image[:] = (image * (1 - alpha) + colour * alpha).astype(np.uint8)
    return mask


def _sleeve(colour: np.ndarray, mask: np.ndarray, entry: np.ndarray, cuff: np.ndarray, along: np.ndarray,
            across: np.ndarray, half: float, cloth: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Cover the forearm from ``entry`` to ``cuff`` with a wider, folded sleeve; widen ``mask`` to match."""
    sleeve = np.zeros(mask.shape, np.uint8)
    start = entry - along * half
    outline = np.array([start + across * half, cuff + across * half, cuff - across * half, start - across * half])
    cv2.fillPoly(sleeve, [np.round(outline * 4).astype(np.int32)], 255, cv2.LINE_AA, shift=2)
    mask[:] = np.maximum(mask, sleeve)
    x, y, w, h = cv2.boundingRect(sleeve)
    ys, xs = np.mgrid[y:y + h, x:x + w].astype(np.float32)
    folds = 1 + 0.12 * np.sin((xs * along[0] + ys * along[1]) / max(half * 0.25, 1) + rng.uniform(0, 6))
    covered = (sleeve[y:y + h, x:x + w].astype(np.float32) / 255)[..., None]
    colour = colour.copy()
    cloth_px = np.clip(cloth * folds[..., None], 0, 255)
    colour[y:y + h, x:x + w] = colour[y:y + h, x:x + w] * (1 - covered) + cloth_px * covered
    return colour
