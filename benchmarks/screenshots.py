"""Screenshots of every page at desktop (1366x850) and phone (390x844) widths, into docs/screenshots/.

    python benchmarks/screenshots.py [--out docs/screenshots] [--chromium /usr/bin/chromium] [--only live]

Starts ``hivecam serve`` with the demo game in a temporary data folder, drives headless Chromium
with Playwright through the pages and their states (the demo's illegal move, "check the board"
after a new game with pieces on the table, start from the table, a ruling, a replay, the
not-found page), and saves one PNG per page and width (the first screen, as a person sees it).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"
WIDTHS = {"desktop": {"width": 1366, "height": 850}, "phone": {"width": 390, "height": 844}}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def start_server(data: Path) -> tuple[subprocess.Popen, str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "HIVECAM_PIN": PIN, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen([sys.executable, "-m", "webui.cli", "serve", "--port", str(port), "--data", str(data),
                                "--source", "demo", "--demo-speed", "3"], cwd=ROOT, env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            urllib.request.urlopen(base + "/api/state", timeout=2).close()
            return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError("hivecam serve did not answer")


def unlock(page) -> None:
    page.fill("#pin", PIN)
    page.click("#login button")
    page.wait_for_selector("#controls", state="visible")


def shots(page, base: str, out: Path, width: str, only: set[str]) -> list[Path]:
    """Each page in turn (those in ``only`` if given), on a fresh server: the live states follow the demo."""
    saved = []

    def save(name: str) -> None:
        page.wait_for_timeout(300)  # the last redraw
        path = out / f"{name}-{width}.png"
        page.screenshot(path=str(path))
        saved.append(path)

    def live() -> None:
        page.goto(base + "/")
        page.wait_for_selector("#moves li")

    def live_illegal() -> None:
        if page.url != base + "/":
            live()
        page.wait_for_selector("#banner.illegal", state="visible")
        page.evaluate("window.scrollTo(0, 0)")

    def rulings() -> None:
        page.goto(base + "/rulings")
        page.wait_for_selector("#board .piece")
        side = "w" if "white" in page.get_attribute("#turn", "class") else "b"
        page.click(f"#hand-{side} .chip >> nth=0")  # a piece of the side to move, still in hand: it has places to go
        page.wait_for_selector("#board .dest")
        page.click("#board .cell.empty:not(:has(.dest))")
        page.wait_for_selector("#ruling:not([hidden])")

    def new_game() -> None:  # the demo's pieces stay on the table: the referee asks to check the board
        live()
        unlock(page)
        page.click("#new-game-box summary")
        page.fill("#ng-white", "Ada")
        page.fill("#ng-black", "Bo")
        page.fill("#ng-time", "15+10")
        page.click("#new-game button[type=submit]")
        page.wait_for_selector("#banner.warn", state="visible")
        page.evaluate("window.scrollTo(0, 0)")

    def games() -> None:
        page.goto(base + "/games")
        page.wait_for_selector("#games tr")

    def replay() -> None:
        live()
        page.wait_for_function("document.querySelectorAll('#moves li.move').length >= 6")  # a game with moves
        listed = json.load(urllib.request.urlopen(base + "/api/games", timeout=5))["games"]
        page.goto(base + "/games/%d" % max(listed, key=lambda g: g.get("moves", 0))["id"])
        page.wait_for_selector("#moves li")
        page.click("#moves li.move >> nth=2")

    def not_found() -> None:
        page.goto(base + "/games/999")

    def calibrate() -> None:
        page.goto(base + "/calibrate")
        page.wait_for_selector("#layout .piece")
        page.evaluate("document.querySelector('ol.steps > li:nth-child(3)').scrollIntoView()")  # enrolment, its figure

    def from_table() -> None:
        page.goto(base + "/")
        page.wait_for_selector("#board .piece")
        if page.locator("#login").is_visible():
            unlock(page)
        page.click("#new-game-box summary")
        page.click("#new-game .open-from-table")
        page.wait_for_selector("#ft-questions fieldset")

    steps = {"live": live, "live-illegal": live_illegal, "rulings": rulings, "live-check": new_game, "games": games,
             "replay": replay, "not-found": not_found, "calibrate": calibrate, "start-from-table": from_table}
    for name, step in steps.items():
        if not only or name in only:
            step()
            save(name)
    return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots")
    parser.add_argument("--chromium", default=os.environ.get("HIVECAM_CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--only", action="append", default=[], help="a page name (live, rulings, ...); repeatable")
    parser.add_argument("--width", choices=sorted(WIDTHS), action="append", help="default: both")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
        for width in args.width or sorted(WIDTHS):
            with tempfile.TemporaryDirectory() as data:
                process, base = start_server(Path(data))
                try:
                    page = browser.new_context(viewport=WIDTHS[width]).new_page()
                    page.set_default_timeout(90_000)
                    for path in shots(page, base, args.out, width, set(args.only)):
                        print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB")
                finally:
                    process.terminate()
                    process.wait(10)
        browser.close()


if __name__ == "__main__":
    main()
