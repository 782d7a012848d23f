"""The calibration page's files and its enrollment: learning the set from the camera's view."""

from __future__ import annotations

import functools

from flask import Blueprint, Response, jsonify

from calibration.layout import SECOND_PHOTO
from webui.context import services
from webui.guard import controller
from webui.validate import ApiError, bool_field, json_body

blueprint = Blueprint("calibration_api", __name__)
BOARD_DPI = 300


@blueprint.get("/calibrate/board.pdf")
def calibration_board() -> Response:
    """The printable ChArUco board."""
    from calibration.charuco import page_image
    from calibration.printable import pdf_bytes

    return Response(pdf_bytes(page_image(BOARD_DPI), BOARD_DPI), mimetype="application/pdf",
                    headers={"Content-Disposition": 'attachment; filename="hivecam-board.pdf"'})


@blueprint.get("/calibrate/layout.png")
def enrollment_layout() -> Response:
    return Response(_layout_png(), mimetype="image/png", headers={"Cache-Control": "max-age=86400"})


@blueprint.post("/api/calibrate/enroll")
@controller
def enroll_from_camera() -> Response:
    """Add the camera's view to the enrollment photos (``reset``: start over) and use the new profile."""
    from calibration.errors import CalibrationError

    enrollment = services().enrollment
    if enrollment is None:
        raise ApiError(404, "this server has no camera to enroll from")
    if bool_field(json_body(), "reset"):
        enrollment.reset()
    try:
        photos, note = enrollment.add_photo()
    except LookupError as exc:
        raise ApiError(409, str(exc)) from None
    except CalibrationError as exc:
        raise ApiError(422, f"{str(exc).rstrip('.')}. Lay the pieces out as the picture shows, all in view, "
                            "and try again.") from None
    advice = f" Now {SECOND_PHOTO}." if photos == 1 else ""
    return jsonify(photos=photos, profile=str(enrollment.path),
                   message=f"Learned your set from {photos} photo{'s' if photos > 1 else ''}; "
                           f"it is in use now{f' ({note})' if note else ''}.{advice}")


@functools.cache
def _layout_png() -> bytes:
    """The enrollment layout as the camera should see it (PNG)."""
    import cv2

    from vision.enroll import layout_picture

    return cv2.imencode(".png", layout_picture())[1].tobytes()
