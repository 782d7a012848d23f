"""The error raised when a calibration cannot be computed from the given input."""

from __future__ import annotations


class CalibrationError(ValueError):
    """Calibration input is unusable (board not found, too few views, size mismatch...)."""
