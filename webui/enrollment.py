"""Enrolling the set in front of the camera from the calibration page.

The user lays the pieces out as the enrollment layout shows and presses a button; each press
adds the camera's newest frame to this session's photos (up to ``MAX_PHOTOS``, turning the
block between presses helps), with the same view taken darker where the camera's exposure can
be set (tops a lamp's glare washes out are learnt from it: ``vision.enroll.Photo``), learns a
profile from all of them, saves it as the data folder's ``profile.json`` (atomically) and hands
it to the running detector at once.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

import numpy as np

from vision.enroll import Photo, enroll
from vision.profile import CreatureProfile

PROFILE_NAME = "profile.json"
MAX_PHOTOS = 4


class Enrollment:
    """Photos taken for enrollment so far, and the profile they give."""

    def __init__(self, data: Path, latest_frame: Callable[[], np.ndarray | None],
                 use_profile: Callable[[CreatureProfile], None],
                 darker_frame: Callable[[], np.ndarray | None] = lambda: None) -> None:
        """``darker_frame`` gives the camera's view taken darker (``LiveLoop.darker_frame``), or None."""
        self.path = data / PROFILE_NAME
        self.latest_frame, self.use_profile, self.darker_frame = latest_frame, use_profile, darker_frame
        self.photos: list[Photo] = []
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
        darker = self.darker_frame()
        photo = Photo(frame.copy(), darker.copy() if darker is not None and darker.shape == frame.shape else None)
        with self._lock:
            photos = [*self.photos[-(MAX_PHOTOS - 1):], photo]
            profile = enroll(photos)
            profile.save(self.path)
            self.photos = photos
            self.use_profile(profile)
            return len(photos), profile.note

    def reset(self) -> None:
        """Forget this session's photos (the saved profile stays in use)."""
        with self._lock:
            self.photos = []
