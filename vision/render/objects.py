"""Still things left on the table: a cup, a phone. Extruded outlines, shaded and casting shadows."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.render.camera import SyntheticCamera
from vision.render.canvas import Canvas, Label, draw_walls
from vision.render.lighting import Footprint, Lighting

OBJECT_KINDS = ("cup", "phone")
_SIZES = {"cup": (42.0, 95.0), "phone": (80.0, 8.0)}  # reach from the centre, height (mm)


@dataclass(frozen=True)
class TableObject:
    """A ``kind`` of object standing ``(x_mm, y_mm)`` from the hive's middle (pushed clear of the tiles)."""

    kind: str
    x_mm: float
    y_mm: float
    angle_deg: float = 0.0
    colour: tuple[float, float, float] = (200.0, 200.0, 200.0)  # BGR of its body
    inner: tuple[float, float, float] = (25.0, 40.0, 60.0)  # BGR of the coffee, or of the phone's screen

    @property
    def reach_mm(self) -> float:
        return _SIZES[self.kind][0]

    @property
    def height_mm(self) -> float:
        return _SIZES[self.kind][1]

    def outline(self, centre: np.ndarray, inset: float = 0.0) -> np.ndarray:
        """Its outline (N, 2) on the table when standing at ``centre``, shrunk by ``inset`` mm."""
        if self.kind == "cup":
            angles = np.linspace(0, 2 * np.pi, 28, endpoint=False)
            shape = (self.reach_mm - inset) * np.column_stack([np.cos(angles), np.sin(angles)])
        else:
            shape = _rounded_rectangle(75.0 - inset, 36.0 - inset, 8.0)
        turn = np.radians(self.angle_deg)
        rotation = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        return shape @ rotation.T + centre

    def footprint(self, centre: np.ndarray) -> Footprint:
        return Footprint(self.outline(centre), self.height_mm)

    def draw(self, canvas: Canvas, centre: np.ndarray, camera: SyntheticCamera, lighting: Lighting,
             mm_px: float) -> None:
        """Body walls, then its top: a cup's rim round the coffee, a phone's bezel round the screen."""
        ring = self.outline(centre)
        top = np.column_stack([ring, np.full(len(ring), -self.height_mm)])
        bottom = np.column_stack([ring, np.zeros(len(ring))])
        body = np.asarray(self.colour, float)
        draw_walls(canvas, camera, top, bottom, centre, body, Label.OBJECT, lighting)
        if self.kind == "cup":
            self._draw_handle(canvas, centre, camera, body * 0.9, mm_px)
        canvas.fill(camera.project_ideal(top), body * lighting.shade(np.array([0.0, 0.0, -1.0])), Label.OBJECT)
        inner = self.outline(centre, 5.0 if self.kind == "cup" else 3.0)
        inner_top = np.column_stack([inner, np.full(len(inner), -self.height_mm)])
        canvas.fill(camera.project_ideal(inner_top), np.asarray(self.inner, float), Label.OBJECT)

    def _draw_handle(self, canvas: Canvas, centre: np.ndarray, camera: SyntheticCamera, colour: np.ndarray,
                     mm_px: float) -> None:
        turn = np.radians(self.angle_deg)
        out = np.array([np.cos(turn), np.sin(turn)])
        arc = np.linspace(-np.pi / 2, np.pi / 2, 9)
        points = [np.array([*(centre + out * (self.reach_mm + 22 * np.cos(a))),
                            -self.height_mm * 0.55 + 28 * np.sin(a)]) for a in arc]
        px = camera.project_ideal(np.array(points))
        width = max(1, int(round(9 * mm_px)))
        for image, value in ((canvas.image, tuple(colour.tolist())), (canvas.labels, int(Label.OBJECT))):
            cv2.polylines(image, [np.round(px).astype(np.int32)], False, value, width, cv2.LINE_AA)


def _rounded_rectangle(half_long: float, half_short: float, radius: float) -> np.ndarray:
    """Outline (N, 2) of a rectangle with rounded corners, centred at the origin."""
    points = []
    for k, (sx, sy) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        corner = np.array([sx * (half_long - radius), sy * (half_short - radius)])
        for a in np.linspace(0, np.pi / 2, 5) + k * np.pi / 2:
            points.append(corner + radius * np.array([np.cos(a), np.sin(a)]))
    return np.array(points)


def clear_of_tiles(obj: TableObject, hive: np.ndarray, tiles: np.ndarray, flats: float) -> np.ndarray:
    """Where ``obj`` stands: its offset from the hive's middle, pushed outward until it touches no tile."""
    direction = np.array([obj.x_mm, obj.y_mm])
    distance = float(np.linalg.norm(direction))
    direction = direction / distance if distance > 1e-6 else np.array([1.0, 0.0])
    while len(tiles) and np.min(np.linalg.norm(tiles - (hive + direction * distance), axis=1)) < obj.reach_mm + flats:
        distance += 10.0
    return hive + direction * distance
