"""What the blueprints share: the game, the PIN control, the camera and enrollment of one app."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from flask import Flask, current_app

from webui.auth import Control
from webui.game import GameService

if TYPE_CHECKING:  # the camera side loads OpenCV: only the server builds it
    from webui.enrollment import Enrollment
    from webui.live import LiveLoop

MAX_MJPEG_STREAMS = 4  # each holds a thread and encodes frames
MAX_RULINGS_AT_ONCE = 2  # a ruling replays up to rulings.MAX_PLIES moves: about half a second of CPU
_KEY = "hivecam"


@dataclass
class Services:
    """The objects behind one app's routes."""

    service: GameService
    control: Control
    live: LiveLoop | None = None
    enrollment: Enrollment | None = None
    mjpeg_streams: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(MAX_MJPEG_STREAMS))
    rulings_at_once: threading.Semaphore = field(default_factory=lambda: threading.Semaphore(MAX_RULINGS_AT_ONCE))


def install(app: Flask, services: Services) -> None:
    app.extensions[_KEY] = services


def services() -> Services:
    """The services of the app handling the current request."""
    found: Services = current_app.extensions[_KEY]
    return found
