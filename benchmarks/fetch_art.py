"""Fetch the third-party icon sets used as tile-top art and rasterise the icons we use.

    .venv/bin/pip install -e '.[art]'     # cairosvg
    .venv/bin/python benchmarks/fetch_art.py [--size 192] [--sets twemoji mdi ...]

Installs the Iconify JSON packages from npm into ``var/art-npm`` and writes RGBA PNGs to
``var/art/<set>/<icon>.png`` (see ``vision/render/icons.py`` for which icons). Both folders are
git-ignored; files already there are kept, so running it again is cheap. Each package's licence is
checked against the permissive ones we allow before anything is drawn from it.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.render.icons import ART_DIR, ICON_SETS, POOL_SETS, POOL_SIZE, IconSet, PoolSet, icon_png  # noqa: E402

NPM_DIR = ROOT / "var" / "art-npm"
ALLOWED_LICENCES = {"MIT", "Apache-2.0", "CC-BY-4.0", "CC-BY-SA-4.0"}
SKIPPED_WORDS = ("flag", "letter", "arrow", "keycap", "regional", "symbol", "sign", "button", "brand", "logo")


def npm_install(packages: list[str]) -> None:
    """Install the packages not yet in ``var/art-npm``; exits with a clear message if npm cannot."""
    missing = [p for p in packages if not (NPM_DIR / "node_modules" / p / "icons.json").exists()]
    if not missing:
        return
    if shutil.which("npm") is None:
        sys.exit("fetch_art: npm is not installed (apt-get install npm); it fetches the icon sets")
    done = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NPM_DIR), *missing],
                          capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"fetch_art: npm install failed (is the npm registry reachable?):\n{done.stderr.strip()}")


def load_package(package: str) -> dict:
    """The package's Iconify JSON, after checking its licence is one we allow."""
    folder = NPM_DIR / "node_modules" / package
    licence = json.loads((folder / "package.json").read_text()).get("license")
    if licence not in ALLOWED_LICENCES:
        sys.exit(f"fetch_art: {package} is licensed {licence!r}, not one of {sorted(ALLOWED_LICENCES)}")
    return json.loads((folder / "icons.json").read_text())


def icon_svg(data: dict, name: str) -> str:
    """A standalone SVG document for one icon (aliases without transforms resolved to their parent)."""
    alias = data.get("aliases", {}).get(name)
    if alias is not None:
        if set(alias) - {"parent"}:
            raise KeyError(f"{name} is a transformed alias")
        return icon_svg(data, alias["parent"])
    icon = data["icons"][name]
    box = [icon.get(k, data.get(k, d)) for k, d in (("left", 0), ("top", 0), ("width", 16), ("height", 16))]
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'viewBox="{" ".join(map(str, box))}">{icon["body"]}</svg>')


def sampled_names(data: dict, count: int) -> list[str]:
    """``count`` of a pool set's icons, the same ones every run: none with digits (keycaps, clocks,
    numbered variants) nor flags, letters or arrows, which are not what a tile's art looks like."""
    names = sorted(n for n in data["icons"]
                   if not any(c.isdigit() for c in n) and not any(w in n for w in SKIPPED_WORDS))
    return sorted(random.Random(0).sample(names, min(count, len(names))))


def png_has_alpha(png: bytes) -> bool:
    """Whether a PNG's colour type (IHDR byte 25) carries an alpha channel: 4 grey+alpha, 6 RGBA."""
    return len(png) > 25 and png[25] in (4, 6)


def rasterise_set(name: str, package: str, icon_names: list[str] | None, size: int) -> tuple[int, int, list[str]]:
    """Write the set's missing PNGs (``None``: a pool set's sample); returns (written, already
    there, names lacking or cairo cannot draw)."""
    import cairosvg

    data = load_package(package)
    folder = ART_DIR / name
    folder.mkdir(parents=True, exist_ok=True)
    written = kept = 0
    absent = []
    for icon in sampled_names(data, POOL_SIZE) if icon_names is None else icon_names:
        target = icon_png(name, icon)
        if target.exists():
            kept += 1
            continue
        try:
            png = cairosvg.svg2png(bytestring=icon_svg(data, icon).encode(), output_width=size, output_height=size)
        except (KeyError, MemoryError):  # not in the package; cairo's answer to some gradients it cannot draw
            absent.append(icon)
            continue
        if not png_has_alpha(png):  # a picture filling its square: no shape to print on a tile
            absent.append(icon)
            continue
        target.write_bytes(png)
        written += 1
    return written, kept, absent


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=192, help="PNG side in pixels")
    every = sorted(ICON_SETS) + sorted(POOL_SETS)
    parser.add_argument("--sets", nargs="+", choices=every, default=every, help="styles and training-only pool sets")
    args = parser.parse_args(argv)
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        sys.exit("fetch_art: cairosvg is missing; install the art extra: .venv/bin/pip install -e '.[art]'")
    sets: list[IconSet | PoolSet] = [ICON_SETS.get(name) or POOL_SETS[name] for name in args.sets]
    npm_install(sorted({s.package for s in sets}))
    for chosen in sets:
        names = chosen.icon_names() if isinstance(chosen, IconSet) else None
        written, kept, absent = rasterise_set(chosen.name, chosen.package, names, args.size)
        note = f"; skipped (absent or undrawable): {', '.join(absent)}" if absent else ""
        print(f"{chosen.name:18s} {chosen.package:42s} {chosen.licence:13s} {written} drawn, {kept} kept{note}")


if __name__ == "__main__":
    main()
