"""The live page in headless Chromium against ``hivecam serve`` playing the demo game."""

from __future__ import annotations

import os
import shutil
import statistics

import pytest
from webhelpers import PIN, start_server

from rules.board import Board
from rules.pgn import parse_pgn

CHROMIUM = os.environ.get("HIVECAM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

playwright = pytest.importorskip("playwright.sync_api")
if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)


@pytest.fixture
def page(tmp_path):
    process, base = start_server(tmp_path, "--source", "demo", "--demo-speed", "3")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(accept_downloads=True, viewport={"width": 420, "height": 900})
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(base + "/")
        try:
            yield page
        finally:
            browser.close()
            process.terminate()
            process.wait(10)


def test_live_page_follows_the_demo_game(page, tmp_path):
    page.wait_for_selector("#moves li")  # moves arrive over SSE
    assert page.locator("#board .piece").count() >= 1
    illegal = page.wait_for_selector("#banner.illegal", state="visible")
    text = illegal.inner_text()
    assert "No moving before the Queen" in text and "take it back" in text and "wG1 bS1\\" in text
    assert page.locator("#board .ghost[data-piece=wG1]").count() == 1  # the illegal move, drawn on the hive
    page.wait_for_selector("#banner.illegal", state="hidden")  # taken back
    page.wait_for_function("document.querySelectorAll('#moves li').length >= 6")
    assert "wB1" in page.locator("#moves").inner_text()

    with page.expect_download() as download:
        page.click("#pgn-link")
    pgn = open(download.value.path(), encoding="utf-8").read()
    record = parse_pgn(pgn)
    board = Board(record.game_type)
    for move in record.moves:
        board.push_uhp(move.uhp)  # every recorded move replays legally in the engine
    assert len(record.moves) >= 6 and record.tags["White"] == "rameshbga"

    latencies = page.evaluate("window.hivecamLatencies")
    assert latencies and statistics.median(latencies) < 0.2, latencies
    print(f"SSE event->page latency: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms over {len(latencies)} updates")


def test_control_needs_the_pin_then_works(page):
    page.wait_for_selector("#moves li")
    assert page.locator("#controls").is_hidden()
    page.fill("#pin", "0000")
    page.click("#login button")
    page.wait_for_selector("#control-message.bad")
    assert "wrong PIN" in page.inner_text("#control-message")
    page.fill("#pin", PIN)
    page.click("#login button")
    page.wait_for_selector("#controls", state="visible")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button[data-action=resign][data-colour=b]")
    page.wait_for_selector("#banner.over", state="visible")
    assert "White wins" in page.inner_text("#banner")
    page.click("#logout")  # locked again, then unlocked with the new session's token
    page.wait_for_selector("#login", state="visible")
    page.fill("#pin", PIN)
    page.click("#login button")
    page.wait_for_selector("#controls", state="visible")
