"""``random_world``: conditions drawn from the physical world hivecam meets, for training and honest benchmarks.

Thick black and ivory tiles whose sides match their faces, matte to glossy, laid a little
crooked with small gaps; wood, cloth, printed mats and glass under one to three lamps; a
Raspberry Pi Camera Module 3 (standard or wide lens) 35-100 cm up and up to 35 degrees off
vertical; hands in sleeves, cups and phones. ``random_conditions`` keeps the classic world.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.render.art import STYLES
from vision.render.camera import HFOV_DEG, WIDE_HFOV_DEG
from vision.render.lighting import Lamp
from vision.render.objects import OBJECT_KINDS, TableObject
from vision.render.scene import Conditions, random_lamp
from vision.render.surfaces import PLANE_TABLES

DISTORTION_STEP = 0.02  # lens coefficients are drawn on a grid so the distortion maps stay cached
LIGHT_SKIN, DARK_SKIN = np.array([170, 190, 235]), np.array([45, 65, 105])


def random_world(rng: np.random.Generator, style: str | None = None, **fixed) -> Conditions:
    """A frame's conditions drawn from every range of the wider world; keyword arguments pin fields."""
    wide = bool(rng.random() < 0.35)
    height = float(rng.uniform(350, 1000))
    hfov = WIDE_HFOV_DEG if wide else HFOV_DEG
    drawn = Conditions(
        height_mm=height, tilt_deg=float(rng.uniform(0, 35)), azimuth_deg=float(rng.uniform(0, 360)),
        yaw_deg=float(rng.uniform(0, 360)), hfov_deg=hfov, fit_canvas=True, **_lens(rng, wide),
        aim_mm=_aim(rng, height, hfov),
        table=str(rng.choice(PLANE_TABLES)), table_variant=int(rng.integers(6)),
        style=style or str(rng.choice(STYLES)), mono=bool(rng.random() < 0.15), art_variant=int(rng.integers(8)),
        **_tiles(rng), **_light(rng), **_camera_faults(rng), **_people(rng),
        objects=_objects(rng), bump_mm=tuple(rng.uniform(-5, 5, 2)), seed=int(rng.integers(1 << 30)))
    return replace(drawn, **fixed)


def _lens(rng: np.random.Generator, wide: bool) -> dict:
    """Radial distortion: mild on the standard lens, strong barrel on the wide one."""
    k1 = float(rng.uniform(-0.34, -0.2) if wide else rng.uniform(-0.12, 0.02))
    k1 = round(round(k1 / DISTORTION_STEP) * DISTORTION_STEP, 3)
    return {"k1": k1, "k2": round(-0.3 * k1, 3) if wide else 0.0}


def _aim(rng: np.random.Generator, height: float, hfov: float) -> tuple[float, float]:
    """Mostly at the hive; a third of the time off to one side so tiles lie near the frame's edge."""
    if rng.random() < 0.65:
        return (0.0, 0.0)
    reach = height * np.tan(np.radians(hfov / 2)) * rng.uniform(0.2, 0.6)
    angle = rng.uniform(0, 2 * np.pi)
    return (float(reach * np.cos(angle)), float(reach * np.sin(angle)))


def _tiles(rng: np.random.Generator) -> dict:
    flats = float(rng.uniform(24, 44))
    return {"flats_mm": flats, "thickness_mm": float(np.clip(flats * rng.uniform(0.2, 0.33), 5, 13)),
            "gap_mm": float(rng.uniform(0, 3) * rng.random()), "turn_deg": float(rng.uniform(0, 10)),
            "shift_mm": float(rng.uniform(0, 1.5)), "solid": True, "bevel_mm": float(rng.uniform(0.3, 1.5)),
            "gloss": float(rng.beta(1.2, 1.5)), "wear": float(rng.uniform(0, 1)), "jitter": 0.5}


def _light(rng: np.random.Generator) -> dict:
    lamps = tuple(_lamp(rng) for _ in range(int(rng.integers(1, 4))))
    balance = 1 + rng.normal(0, 0.05, 3)  # the camera's white balance misses a little
    return {"lamps": lamps, "ambient": float(rng.uniform(0.3, 1.2)), "shadow": float(rng.uniform(0.6, 1.0)),
            "vignette": float(rng.uniform(0, 0.4)), "cast": tuple(float(g) for g in balance)}


def _lamp(rng: np.random.Generator) -> Lamp:
    """A ceiling light, desk lamp or window: up to 1.2 m aside, 0.5-2.2 m up, small and hard to broad and soft."""
    angle, aside = rng.uniform(0, 2 * np.pi), rng.uniform(0, 1200)
    return Lamp(float(aside * np.cos(angle)), float(aside * np.sin(angle)), float(rng.uniform(500, 2200)),
                float(rng.uniform(0.5, 1.5)), random_lamp(rng), float(np.exp(rng.uniform(np.log(20), np.log(600)))))


def _camera_faults(rng: np.random.Generator) -> dict:
    moving = rng.random() < 0.25
    return {"blur": float(rng.uniform(0, 1.5)), "noise": float(rng.uniform(1, 6)), "jpeg": int(rng.integers(55, 96)),
            "motion_px": float(rng.uniform(1, 7)) if moving else 0.0, "motion_deg": float(rng.uniform(0, 180))}


def _people(rng: np.random.Generator) -> dict:
    skin = LIGHT_SKIN + (DARK_SKIN - LIGHT_SKIN) * rng.uniform(0, 1) + rng.normal(0, 6, 3)
    sleeve = tuple(float(c) for c in rng.uniform(10, 240, 3)) if rng.random() < 0.5 else None
    return {"hand": bool(rng.random() < 0.3), "skin": tuple(float(c) for c in skin), "sleeve": sleeve}


def _objects(rng: np.random.Generator) -> tuple[TableObject, ...]:
    """None to two cups and phones, some beside the hive, some farther off."""
    count = int(rng.choice([0, 0, 1, 1, 2]))
    return tuple(_object(rng) for _ in range(count))


def _object(rng: np.random.Generator) -> TableObject:
    angle, distance = rng.uniform(0, 2 * np.pi), rng.uniform(60, 450)
    kind = str(rng.choice(OBJECT_KINDS))
    inner = (25.0, 40.0, 60.0) if kind == "cup" else tuple(float(c) for c in rng.uniform(10, 60, 3))
    return TableObject(kind, float(distance * np.cos(angle)), float(distance * np.sin(angle)),
                       float(rng.uniform(0, 360)), tuple(float(c) for c in rng.uniform(20, 240, 3)), inner)
