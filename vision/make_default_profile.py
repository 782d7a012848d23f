"""Regenerate ``calibration/default_profile.json`` from synthetic style-"a" photos of the default layout.

    python -m vision.make_default_profile [--photos 24]

A third of the photos show pocket-size tiles, the rest standard ones.
"""

from __future__ import annotations

import argparse

import numpy as np

from calibration.appearance import DEFAULT_LAYOUT, DEFAULT_PROFILE_PATH, enroll, layout_position
from vision.render.scene import random_conditions, render_position


def enrollment_photos(count: int, seed: int, **conditions) -> list[np.ndarray]:
    """``count`` synthetic photos of the default layout under random conditions (tiles re-laid each time)."""
    rng = np.random.default_rng(seed)
    position = layout_position(DEFAULT_LAYOUT)
    return [render_position(position, random_conditions(rng, **conditions))[0] for _ in range(count)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=24)
    args = parser.parse_args(argv)
    pocket = args.photos // 3
    photos = (enrollment_photos(args.photos - pocket, seed=2024, style="a")
              + enrollment_photos(pocket, seed=2025, style="a", tile_size="pocket"))
    profile = enroll(photos, DEFAULT_LAYOUT, note=f"synthetic style a, {args.photos} photos of the default layout")
    profile.save(DEFAULT_PROFILE_PATH)
    print(f"{DEFAULT_PROFILE_PATH}: written")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
