"""``termarcade serve --web`` in a real headless Chromium: the home screen renders, and a key
press moves the tiles in 2048.

Needs the ``web`` extra (textual-serve), selenium, and Chromium with its driver from the
distribution (``apt-get install chromium chromium-driver``); skipped without them.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("textual_serve")
webdriver = pytest.importorskip("selenium.webdriver")

pytestmark = pytest.mark.slow

CHROMIUM = next(
    filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None
)
CHROMEDRIVER = shutil.which("chromedriver")
TIMEOUT = 90.0

# xterm.js draws on a canvas: to read the screen, keep a handle on the page's terminal object
# (textual-serve's page stores it as ``this.terminal``) before the page's script runs.
CAPTURE_TERMINAL = """
Object.defineProperty(Object.prototype, 'terminal', {
  configurable: true,
  set(value) {
    window.__terminal = value;
    Object.defineProperty(this, 'terminal', {value, writable: true, configurable: true,
                                             enumerable: true});
  },
});
"""
READ_SCREEN = """
const term = window.__terminal;
if (!term) { return ''; }
const buffer = term.buffer.active, lines = [];
for (let row = 0; row < term.rows; row++) {
  const line = buffer.getLine(row);
  lines.push(line ? line.translateToString(true) : '');
}
return lines.join('\\n');
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def web_arcade():
    """``termarcade serve --web`` on a free port; yields its URL."""
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=dict(os.environ),
    )
    url = f"http://127.0.0.1:{port}/"
    deadline = time.monotonic() + TIMEOUT
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                output = server.communicate(timeout=10)[0].decode(errors="replace")
                pytest.fail(f"the web arcade did not start:\n{output}")
            time.sleep(0.2)
    yield url
    server.send_signal(signal.SIGINT)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(10)


@pytest.fixture
def browser():
    """Headless Chromium driven by the distribution's chromedriver."""
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("chromium and chromium-driver are not installed")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1280,900",
        "--no-first-run",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": CAPTURE_TERMINAL})
    yield driver
    driver.quit()


def _wait_for_screen(driver, wanted, timeout: float = TIMEOUT) -> str:
    check = (lambda text: wanted in text) if isinstance(wanted, str) else wanted
    deadline = time.monotonic() + timeout
    while not check(text := driver.execute_script(READ_SCREEN) or ""):
        if time.monotonic() > deadline:
            raise AssertionError(f"waiting for {wanted!r}; the page shows:\n{text}")
        time.sleep(0.2)
    return text


def _board(text: str) -> list[str]:
    """The 2048 board rows (the lines with tiles or empty-cell dots, left of the side panel)."""
    rows = []
    for line in text.splitlines():
        cells = line.split("▏")[0].split()
        if len(cells) == 4 and all(cell == "·" or cell.isdigit() for cell in cells):
            rows.append(" ".join(cells))
    return rows


def _press(driver, *keys: str) -> None:
    """Type ``keys`` as a player does: into whatever has the page's focus.

    The terminal's text box is hidden from view (xterm.js reads keys through it): a recent
    Chromium refuses ``send_keys`` on such an element ("element not interactable"), while
    the keyboard events a player makes go to the focused element whatever it looks like.
    """
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(*keys).perform()


def _focus_terminal(driver) -> None:
    """Click the terminal, as a player does before typing, and wait for it to take the keys."""
    from selenium.webdriver.common.by import By

    driver.find_element(By.CSS_SELECTOR, ".xterm").click()
    deadline = time.monotonic() + TIMEOUT
    while not driver.execute_script(
        "return document.activeElement && "
        "document.activeElement.classList.contains('xterm-helper-textarea');"
    ):
        if time.monotonic() > deadline:
            raise AssertionError("clicking the terminal did not give it the keyboard")
        time.sleep(0.2)


def test_home_screen_renders_and_a_key_moves_2048(web_arcade, browser) -> None:
    from selenium.webdriver.common.keys import Keys

    from tests.tui.helpers import home_row

    browser.get(web_arcade)
    home = _wait_for_screen(browser, "Pick a game")
    assert "TermCraft" in home and "2048" in home

    _focus_terminal(browser)
    _press(browser, *[Keys.ARROW_DOWN] * home_row("2048"), Keys.ENTER)
    first = _wait_for_screen(browser, "Moves")
    start = _board(first)
    assert len(start) == 4, first

    # A new game always has a legal move, so one of the four ways moves the tiles; every move
    # adds a tile to the board's sum, so the board after any move differs from the start.
    # Waiting for the count to leave 0 (not for each key in turn) keeps a slow page from
    # being mistaken for a blocked direction.
    _press(browser, Keys.ARROW_LEFT, Keys.ARROW_RIGHT, Keys.ARROW_UP, Keys.ARROW_DOWN)
    moved = _wait_for_screen(browser, lambda text: "Moves" in text and "Moves  0" not in text)
    assert _board(moved) != start
