"""Colour and brightness normalisation, and the picamera2 controls that freeze exposure.

Light changes act (to a good approximation) as one gain per colour channel, which stays a
per-channel gain after the camera's gamma curve. So a frame is normalised by measuring a
robust colour level of a region that does not change colour (the bare table) in several
parts of the frame and scaling each channel to bring those levels back to the ones recorded
under the reference light (``LightingReference``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

CLIPPED = 250  # a channel at or above this is saturated and says nothing about the light
DARK = 10  # pixels darker than this are mostly noise
TRIM_PERCENTILES = (20.0, 80.0)  # keep mid-bright pixels: no shadows, no highlights or glare
MIN_PIXELS = 50


def _robust_level(pixels: np.ndarray) -> np.ndarray | None:
    """Mean BGR of mid-bright, unclipped ``pixels`` (N, 3); None if too few are usable."""
    pixels = pixels.astype(np.float32)
    usable = pixels[(pixels.max(axis=1) < CLIPPED) & (pixels.mean(axis=1) >= DARK)]
    if len(usable) < MIN_PIXELS:
        return None
    brightness = usable.mean(axis=1)
    low, high = np.percentile(brightness, TRIM_PERCENTILES)
    return usable[(brightness >= low) & (brightness <= high)].mean(axis=0)


def region_level(frame: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """Robust mean BGR (3,) of ``frame`` within ``mask``: clipped and dark pixels dropped, brightness-trimmed."""
    level = _robust_level(frame.reshape(-1, 3) if mask is None else frame[np.asarray(mask, bool)])
    if level is None:
        raise ValueError(f"fewer than {MIN_PIXELS} usable pixels to measure the light: "
                         "the region is too small, too dark or overexposed")
    return level


def cell_levels(frame: np.ndarray, mask: np.ndarray | None, grid: tuple[int, int]) -> np.ndarray:
    """Robust levels (rows, cols, 3) of a ``grid`` of equal cells; NaN where a cell has too few pixels."""
    rows, cols = grid
    height, width = frame.shape[:2]
    full = np.ones((height, width), bool) if mask is None else np.asarray(mask, bool)
    levels = np.full((rows, cols, 3), np.nan, np.float32)
    for row in range(rows):
        ys = slice(row * height // rows, (row + 1) * height // rows)
        for col in range(cols):
            xs = slice(col * width // cols, (col + 1) * width // cols)
            level = _robust_level(frame[ys, xs][full[ys, xs]])
            if level is not None:
                levels[row, col] = level
    return levels


@dataclass(frozen=True)
class LightingReference:
    """Colour levels of a stable region (the bare table) under the reference light: of the
    whole region, and of each cell of a ``grid`` (rows, cols) laid over the frame."""

    level: np.ndarray  # (3,) BGR of the whole region
    cells: np.ndarray  # (rows, cols, 3) BGR per cell, NaN where the region is too small

    @classmethod
    def from_frame(cls, frame: np.ndarray, mask: np.ndarray | None = None,
                   grid: tuple[int, int] = (1, 1)) -> "LightingReference":
        return cls(region_level(frame, mask), cell_levels(frame, mask, grid))

    def uniform_gains(self, frame: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """One gain per channel (3,): the median over the cells of their gains, so that
        something covering a few cells (a hand, an arm) does not move it."""
        local = (self.cells / cell_levels(frame, mask, self.cells.shape[:2])).reshape(-1, 3)
        local = local[~np.isnan(local).any(axis=1)]
        return np.median(local, axis=0) if len(local) else self.level / region_level(frame, mask)


def locked_camera_controls(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """picamera2 controls that freeze exposure and white balance at the values in ``metadata``.

    Pass ``picam2.capture_metadata()`` taken once auto exposure and white balance have
    settled on the lit table; give the result to ``picam2.set_controls``.
    """
    missing = [key for key in ("ExposureTime", "AnalogueGain", "ColourGains") if key not in metadata]
    if missing:
        raise ValueError(f"camera metadata lacks {', '.join(missing)}; capture metadata from a running camera")
    red, blue = metadata["ColourGains"]
    return {
        "AeEnable": False,
        "AwbEnable": False,
        "ExposureTime": int(metadata["ExposureTime"]),
        "AnalogueGain": float(metadata["AnalogueGain"]),
        "ColourGains": (float(red), float(blue)),
    }
