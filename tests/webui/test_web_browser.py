"""The pages in headless Chromium against one ``hivecam serve`` playing the demo game.

One server (and one browser) serves every test of this module, in file order: the first tests
watch the demo play (its illegal attempt, the clocks), the later ones take control (new game,
start from the table), the last one stops the server. Desktop is 1366x850, phone 390x844 (and 360 for the sideways-scroll check).
"""

from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import urllib.error
import urllib.request
from dataclasses import dataclass

import pytest
from webhelpers import PIN, get_json, start_server, wait_for

from rules.board import Board
from rules.pgn import parse_pgn

CHROMIUM = os.environ.get("HIVECAM_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
DESKTOP, PHONE = {"width": 1366, "height": 850}, {"width": 390, "height": 844}
PAGES = ["/", "/rulings", "/games", "/games/1", "/games/999", "/calibrate"]

playwright = pytest.importorskip("playwright.sync_api")
if not shutil.which(CHROMIUM):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)


@dataclass
class Server:
    base: str
    process: subprocess.Popen


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    process, base = start_server(tmp_path_factory.mktemp("serve"), "--source", "demo", "--demo-speed", "3")
    yield Server(base, process)
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_page(server, browser):
    """open_page(path, viewport): a fresh browser context (no session) showing ``path``."""
    contexts = []

    def open_(path: str = "/", viewport: dict = PHONE):
        context = browser.new_context(accept_downloads=True, viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(server.base + path)
        return page

    yield open_
    for context in contexts:
        context.close()


def unlock(page) -> None:
    page.fill("#pin", PIN)
    page.click("#login button")
    page.wait_for_selector("#controls", state="visible")


def download_pgn(page) -> str:
    with page.expect_download() as download:
        page.click("#pgn-link")
    return open(download.value.path(), encoding="utf-8").read()


def assert_no_sideways_scroll(page, what: str) -> None:
    wide, seen = page.evaluate("[document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert wide <= seen, f"{what}: {wide} px wide in a {seen} px window"


def clock_seconds(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


def test_live_page_records_the_taken_back_attempt_and_the_clocks(open_page):
    page = open_page("/", PHONE)
    page.wait_for_selector("#moves li")  # moves arrive over SSE
    assert page.locator("#board .piece").count() >= 1
    illegal = page.wait_for_selector("#banner.illegal", state="visible")
    text = illegal.inner_text()
    assert "No moving before the Queen" in text and "wG1 bS1\\" in text
    assert re.search(r"What to do: take (it|the move) back", text, re.I)
    assert page.locator("#board .ghost[data-piece=wG1]").count() == 1  # the illegal move, drawn on the hive
    assert_no_sideways_scroll(page, "the live page with the illegal-move banner")
    page.wait_for_selector("#banner.illegal", state="hidden")  # taken back
    attempt = page.wait_for_selector("#moves li.illegal")  # ... and still in the record
    assert "wG1 bS1\\" in attempt.inner_text() and "taken back by White" in attempt.inner_text()
    assert "White 1" in page.inner_text("#warnings")  # the warnings count stays after the banner

    # the clocks: visible, and the side to move counts on between updates
    side = page.wait_for_selector("#clocks .clock.running").get_attribute("data-colour")
    before = clock_seconds(page.inner_text(f"#clocks .clock[data-colour={side}] .time"))
    page.wait_for_timeout(2200)
    still = page.locator(f"#clocks .clock.running[data-colour={side}] .time")  # none if a move came meanwhile
    assert still.count() == 0 or clock_seconds(still.inner_text()) != before

    page.wait_for_function("document.querySelectorAll('#moves li.move').length >= 6")
    assert re.search(r"Move \d+ · (White|Black)'s turn \d+", page.inner_text("#turn"))
    pgn = download_pgn(page)
    assert "[%illegal wG1 bS1\\]" in pgn and "taken back by White" in pgn
    assert re.search(r"\[%emt \d:\d\d:\d\d\]", pgn)  # thinking times, as clocks
    record = parse_pgn(pgn)
    board = Board(record.game_type)
    for move in record.moves:
        board.push_uhp(move.uhp)  # every recorded move replays legally in the engine
    assert len(record.moves) >= 6 and record.tags["White"] == "rameshbga"

    latencies = page.evaluate("window.hivecamLatencies")
    assert latencies and statistics.median(latencies) < 0.2, latencies
    print(f"SSE event->page latency: median {statistics.median(latencies) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms over {len(latencies)} updates")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_unlock_hides_the_pin_row(open_page, viewport):
    page = open_page("/", viewport)
    page.wait_for_selector("#login", state="visible")
    assert page.locator("#controls").is_hidden()
    page.click("#pin-help summary")  # how to get a forgotten PIN back, from the server
    page.wait_for_function("document.getElementById('pin-recovery').textContent.includes('HIVECAM_PIN')")  # set by the test
    page.fill("#pin", "0000")
    page.click("#login button")
    page.wait_for_selector("#login-message.bad")
    assert "wrong PIN" in page.inner_text("#login-message")  # the answer right under the PIN
    unlock(page)
    assert page.locator("#login").is_hidden() and page.locator("#pin").is_hidden()
    assert page.locator("#login").bounding_box() is None  # not drawn at all
    assert page.locator("#pin-help").is_hidden()
    assert re.match(r"\((\d+\. \S+( \S+)?|none yet)\)", page.inner_text("#replace-current"))  # names the move it replaces
    page.fill("#replace-move", "wZ9")  # no such piece: the refusal shows beside the control
    page.click("#replace-last button")
    answer = page.wait_for_selector("#replace-last .message.bad")
    assert answer.inner_text() and answer.is_visible() and page.locator("#add-missed .message").inner_text() == ""
    page.fill("#rename-text", "wG1")  # no '=' and the piece it is: refused beside the rename control
    page.click("#rename-tile button")
    assert "wG1=wA1" in page.wait_for_selector("#rename-tile .message.bad").inner_text()
    page.click("#logout")  # locked again: the PIN row is back
    page.wait_for_selector("#login", state="visible")
    assert page.locator("#controls").is_hidden()


def test_unlocking_while_the_page_still_asks_for_its_session_stays_unlocked(server, browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    held = []  # the page's first question for its session: answered (locked) now, delivered after the PIN is sent
    page.route("**/api/session", lambda route: route.continue_() if held else held.append((route, route.fetch())))
    page.goto(server.base + "/")
    page.fill("#pin", PIN)
    page.click("#login button")
    page.wait_for_timeout(500)  # the PIN on its way while that first answer ("locked") is still out
    with page.expect_response("**/api/session"):
        route, answer = held[0]
        route.fulfill(response=answer)
    page.wait_for_function("document.getElementById('login-message').textContent.includes('unlocked')")
    page.wait_for_timeout(300)
    assert page.locator("#controls").is_visible() and page.locator("#login").is_hidden()
    context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_no_page_scrolls_sideways_on_a_phone(open_page, width):
    for path in PAGES:
        page = open_page(path, {"width": width, "height": 800})
        page.wait_for_load_state("load")
        page.wait_for_timeout(500)  # the scripts have drawn the page
        assert_no_sideways_scroll(page, f"{path} at {width} px")
        header = page.locator("header.top").bounding_box()
        assert header["height"] < 50, f"{path}: the header takes more than one line"


def test_replay_shows_the_game_and_a_missing_game_is_not_found(open_page, server):
    def finished():  # the demo game ends after 23 moves: White surrounds the black Queen
        games = get_json(server.base + "/api/games")["games"]  # one whose illegal attempt was seen (a run on
        # a busy machine can miss it: the demo leaves the attempt a few seconds, as a player would)
        return next((g for g in games if g.get("result") == "WhiteWins" and any(
            e["kind"] == "illegal" for e in get_json(f"{server.base}/api/games/{g['id']}")["entries"])), None)

    game = wait_for(finished, 180, "the demo game to end with its illegal attempt seen")
    page = open_page(f"/games/{game['id']}", DESKTOP)
    page.wait_for_selector("#moves li.current")  # the final position, its move marked and in view
    assert page.inner_text("#summary .result").startswith("White wins")  # words, not WhiteWins
    assert page.locator("#board .tile.surrounded").count() == 1  # the surrounded Queen
    assert page.locator("#moves li.current").is_visible()
    page.click("#first")
    assert page.inner_text("#where") == "start" and page.locator("#board .piece").count() == 0
    assert "Q" in page.inner_text("#hand-w")
    page.click("#next")
    assert page.locator("#board .tile.last").count() == 1  # the last move's cell
    assert page.locator("#moves li.current").inner_text().startswith("1.")
    page.click("#moves li.illegal")  # the taken-back attempt is in the replay's list too: the position it was tried in
    assert page.inner_text("#where").startswith("after move 4:")

    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(server.base + "/games/999", timeout=5)
    assert missing.value.code == 404
    page = open_page("/games/999", PHONE)
    assert "There is no game 999" in page.inner_text("main")
    assert page.locator("main a[href='/games']").count() == 1


def demo_page(open_page, server, viewport):
    """The live page, unlocked, early in a demo run: a run lasts about 25 s at the test's speed, and
    at its start the demo begins a new game of its own on an empty table."""
    def early():
        state = get_json(server.base + "/api/state")
        return state["state"] == "InProgress" and 2 <= state["ply"] <= 6

    wait_for(early, 90, "a demo run under way")
    page = open_page("/", viewport)
    page.wait_for_selector("#board .piece")  # the demo's pieces are on the table
    unlock(page)
    return page


def new_game_over_the_demo(open_page, server):
    """The phone's live page after a new empty game made while the demo's pieces lie on the table,
    and its "Check the board" banner; made again in the next run if that run began first."""
    for _ in range(3):
        page = demo_page(open_page, server, PHONE)
        page.click("#new-game-box summary")
        page.click("#new-game button[type=submit]")
        try:
            return page, page.wait_for_selector("#banner.warn:has-text('Check the board')", timeout=15_000)
        except playwright.TimeoutError:
            continue
    raise AssertionError("no run of the demo showed its pieces over the new game")


def read_the_table(page):
    """Read the table again until the reading shows pieces (the demo may be between two runs, as the
    page then says)."""
    for _ in range(30):
        if page.locator("#ft-board .piece").count():
            break
        page.click("#ft-reload")
        page.wait_for_timeout(1000)
    assert page.locator("#ft-board .piece").count() >= 1, page.inner_text("#ft-message")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_start_from_the_table(open_page, server, viewport):
    if viewport is PHONE:  # a new empty game with pieces on the table: check the board, then its way out
        page, banner = new_game_over_the_demo(open_page, server)
        assert "What to do:" in banner.inner_text()
        assert page.locator("#board .seen").count() >= 1  # the camera's reading over the (empty) game
        assert_no_sideways_scroll(page, "the live page checking the board")
        page.click("#banner-actions button:has-text('Start from the table')")
    else:
        page = demo_page(open_page, server, DESKTOP)
        page.click("#new-game-box summary")
        page.click("#new-game .open-from-table")
    read_the_table(page)
    assert page.locator("#ft-questions input[name=to_move]:checked").count() == 1  # whose turn: a guess, to confirm
    white, black = ("Ada", "Bo") if viewport is DESKTOP else ("Cy", "Di")
    page.fill("#ft-white", white)
    page.fill("#ft-black", black)
    page.fill("#ft-time", "15+10")
    page.fill("#ft-event", "Club night")
    assert_no_sideways_scroll(page, "start from the table")
    for _ in range(10):  # the demo plays on: answers to a reading the table has since left are refused, so is
        # a reading that missed a tile (a busy machine reads fewer frames), and so is any answer while the demo,
        # between two runs, has begun a new game and not yet seen the table steady: a person reads again
        page.click("#ft-form button[type=submit]")
        page.wait_for_selector("#from-table[hidden], #ft-message.bad", state="attached")
        refusals = ("table changed", "not one hive", "steady view")
        if not any(refusal in page.inner_text("#ft-message") for refusal in refusals):
            break
        page.click("#ft-reload")  # as the message says: read it again, then answer that reading
        page.wait_for_function("document.getElementById('ft-message').textContent !== 'Reading the table...'")
        read_the_table(page)
    assert page.locator("#from-table").is_hidden(), page.inner_text("#ft-message")
    page.wait_for_function(f"document.getElementById('players').textContent.includes('{white}')")
    assert "15+10" in page.inner_text("#players") and "set-up" in page.inner_text("#players")
    assert page.locator("#board .piece").count() >= 1  # refereeing from the position, not an empty board
    assert page.locator("#clocks .used").first.inner_text().startswith("used")  # time left, and used
    assert clock_seconds(page.locator("#clocks .time").first.inner_text()) > 14 * 60
    pgn = download_pgn(page)
    assert '[SetUp "1"]' in pgn and '[TimeControl "15+10"]' in pgn and '[Event "Club night"]' in pgn


def test_a_stopped_server_is_not_blamed_on_the_camera(open_page, server):
    """Last: it stops the module's server."""
    page = open_page("/", PHONE)
    page.wait_for_selector("#camera-status:not([hidden])")
    server.process.terminate()
    server.process.wait(10)
    page.wait_for_selector("#connection:not([hidden])")
    assert "hivecam server" in page.inner_text("#connection")
    assert page.get_attribute("#camera-status", "class") == "pill bad"
    assert page.text_content("#camera-status").startswith("server ")  # not "camera: ..."
