"""The camera's view with the recognised tiles drawn on it: one JPEG, or a stream (MJPEG)."""

from __future__ import annotations

import time
from typing import Iterator

from flask import Blueprint, Response

from webui.context import MAX_MJPEG_STREAMS, services
from webui.validate import ApiError

blueprint = Blueprint("camera_api", __name__)
MJPEG_INTERVAL = 0.2


@blueprint.get("/api/camera.jpg")
def camera_jpeg() -> Response:
    live = services().live
    data = live.preview_jpeg() if live is not None else None
    if data is None:
        raise ApiError(404, "no camera frame yet")
    return Response(data, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@blueprint.get("/api/camera.mjpg")
def camera_mjpeg() -> Response:
    """At most ``MAX_MJPEG_STREAMS`` at once (each holds a thread and encodes frames)."""
    found = services()
    live, hub, streams = found.live, found.service.hub, found.mjpeg_streams
    if live is None:
        raise ApiError(404, "no camera in this server")
    if not streams.acquire(blocking=False):
        raise ApiError(503, f"{MAX_MJPEG_STREAMS} camera streams are open already: "
                            "use /api/camera.jpg or close one", {"Retry-After": "30"})

    def frames() -> Iterator[bytes]:
        try:
            while not hub.closed:
                data = live.preview_jpeg()
                if data is not None:
                    yield b"--frame\r\nContent-Type: image/jpeg\r\n\r\n" + data + b"\r\n"
                time.sleep(MJPEG_INTERVAL)
        finally:
            streams.release()

    return Response(frames(), mimetype="multipart/x-mixed-replace; boundary=frame")
