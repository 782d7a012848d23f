"""Enrolling the set in front of the camera from the calibration page.

The user lays the pieces out as the enrollment layout shows and presses a button; each press
adds the camera's newest frame to this session's photos (up to ``MAX_PHOTOS``, turning the
block between presses helps), learns a profile from all of them, saves it as the data
folder's ``profile.json`` (atomically) and hands it to the running detector at once.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

import numpy as np

from vision.enroll import enroll
from vision.profile import CreatureProfile

PROFILE_NAME = "profile.json"
MAX_PHOTOS = 4


class Enrollment:
    """Photos taken for enrollment so far, and the profile they give."""

    def __init__(self, data: Path, latest_frame: Callable[[], np.ndarray | None],
                 use_profile: Callable[[CreatureProfile], None]) -> None:
        self.path = data / PROFILE_NAME
        self.latest_frame, self.use_profile = latest_frame, use_profile
        self.photos: list[np.ndarray] = []
        self._lock = threading.Lock()

    def add_photo(self) -> tuple[int, str]:
        """Enroll with the newest frame added; return the photo count and the profile's note
        (the pieces no photo showed, left out).

        ``CalibrationError`` (layout not found, a piece missing, ...) leaves the photos and
        the profile in use as they were; ``LookupError`` if the camera has no frame yet.
        """
        frame = self.latest_frame()
        if frame is None:
            raise LookupError("the camera has not delivered a frame yet")
        with self._lock:
            photos = [*self.photos[-(MAX_PHOTOS - 1):], frame.copy()]
            profile = enroll(photos)
            profile.save(self.path)
            self.photos = photos
            self.use_profile(profile)
            return len(photos), profile.note

    def reset(self) -> None:
        """Forget this session's photos (the saved profile stays in use)."""
        with self._lock:
            self.photos = []
