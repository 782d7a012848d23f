"""Enrolling the set from the calibration page: the camera's view in, a profile in use out."""

from __future__ import annotations

import numpy as np
import pytest
from webhelpers import PIN, csrf

from calibration.layout import DEFAULT_LAYOUT
from vision.profile import CreatureProfile, demo_profile
from vision.render.photos import enrollment_photos
from webui.app import create_app
from webui.auth import Control
from webui import enrollment as enrollment_module
from webui.enrollment import Enrollment

URL = "/api/calibrate/enroll"


class Camera:
    """The frames the live loop would hold, and the profiles handed to the detector."""

    def __init__(self) -> None:
        self.frame: np.ndarray | None = None
        self.darker: np.ndarray | None = None  # the view taken darker, where the camera gives one
        self.used: list[CreatureProfile] = []


@pytest.fixture
def camera() -> Camera:
    return Camera()


@pytest.fixture
def enrolling(service, data_dir, camera):
    enrollment = Enrollment(data_dir, lambda: camera.frame, camera.used.append, lambda: camera.darker)
    client = create_app(service, Control(data_dir), None, enrollment).test_client()
    token = csrf(client)
    token = client.post("/api/login", json={"pin": PIN}, headers={"X-CSRF-Token": token}).get_json()["csrf"]
    client.enroll = lambda body=None: client.post(URL, json=body or {}, headers={"X-CSRF-Token": token})
    return client


@pytest.fixture(scope="module")
def layout_photos() -> list[np.ndarray]:
    return enrollment_photos(2, seed=7, style="b")


def test_enroll_needs_the_pin(client):
    response = client.post(URL, json={}, headers={"X-CSRF-Token": csrf(client)})
    assert response.status_code == 401


def test_a_server_without_a_camera_cannot_enroll(controller):
    response = controller.post_json(URL)
    assert response.status_code == 404 and "no camera" in response.get_json()["error"]


def test_no_frame_yet_is_a_conflict(enrolling, data_dir):
    response = enrolling.enroll()
    assert response.status_code == 409 and "not delivered a frame" in response.get_json()["error"]
    assert not (data_dir / "profile.json").exists()


def test_each_photo_is_added_and_the_profile_saved_and_used(enrolling, camera, data_dir, layout_photos):
    for count, photo in enumerate(layout_photos, start=1):
        camera.frame = photo
        response = enrolling.enroll()
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["photos"] == count
        # after the first photo only, the page asks for a second with the block turned half round
        assert ("turn the block half round and add a second photo" in response.get_json()["message"]) == (count == 1)
    saved = CreatureProfile.load(data_dir / "profile.json")
    assert len(camera.used) == 2 and np.allclose(saved.vectors, camera.used[-1].vectors, atol=1e-4)
    camera.frame = layout_photos[0]
    assert enrolling.enroll({"reset": True}).get_json()["photos"] == 1


def test_each_photo_is_learnt_with_the_view_taken_darker_where_the_camera_gives_one(enrolling, camera, monkeypatch,
                                                                                   layout_photos):
    """Tops a lamp's glare washes out in the photo are learnt from the darker view (``vision.enroll``)."""
    given: list = []
    monkeypatch.setattr(enrollment_module, "enroll", lambda photos: given.append(photos) or demo_profile())
    camera.frame, camera.darker = layout_photos[0], layout_photos[0] // 2
    assert enrolling.enroll().status_code == 200
    camera.frame, camera.darker = layout_photos[1], None  # a camera whose exposure cannot be set
    assert enrolling.enroll().status_code == 200
    first, second = given[-1]
    assert np.array_equal(first.image, layout_photos[0]) and np.array_equal(first.darker, layout_photos[0] // 2)
    assert np.array_equal(second.image, layout_photos[1]) and second.darker is None
    camera.darker = layout_photos[1][:100]  # not the photo's view: not used
    assert enrolling.enroll().status_code == 200 and given[-1][-1].darker is None


def test_a_view_without_the_layout_is_refused_and_changes_nothing(enrolling, camera, data_dir, layout_photos):
    camera.frame = layout_photos[0]
    assert enrolling.enroll().status_code == 200
    before = (data_dir / "profile.json").read_bytes()
    camera.frame = np.full_like(layout_photos[0], 90)  # an empty grey table
    response = enrolling.enroll()
    assert response.status_code == 422
    assert "Lay the pieces out as the picture shows" in response.get_json()["error"]
    assert (data_dir / "profile.json").read_bytes() == before and len(camera.used) == 1


def test_a_piece_no_photo_shows_is_named_in_the_message(enrolling, camera):
    layout = "\n".join(line for line in DEFAULT_LAYOUT.splitlines() if not line.endswith(" wA2"))
    camera.frame = enrollment_photos(1, seed=7, style="b", layout=layout)[0]
    response = enrolling.enroll()
    assert response.status_code == 200, response.get_json()
    assert "pieces not found, left out" in response.get_json()["message"] and "wA2 at" in response.get_json()["message"]


def test_bad_reset_flag_is_400(enrolling, camera, layout_photos):
    camera.frame = layout_photos[0]
    assert enrolling.enroll({"reset": "yes"}).status_code == 400


def test_layout_picture_is_served(client):
    response = client.get("/calibrate/layout.png")
    assert response.status_code == 200 and response.data.startswith(b"\x89PNG")
