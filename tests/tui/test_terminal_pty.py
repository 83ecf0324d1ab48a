"""The real app in a pseudo-terminal: glyph sets, colours, NO_COLOR, sizes and resizes.

Each test starts ``python -m tui`` with the stock terminal driver on a pseudo-terminal, the
way a terminal emulator or sshd would, and checks the bytes it writes.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable

import pytest

from core import registry
from core.session import Session
from core.text import plural
from tests.tui.every_game import level_to_play
from tui.terminal import _is_cp437_safe

pyte = pytest.importorskip("pyte")

pytestmark = [pytest.mark.slow, pytest.mark.cli]

# -- the app on a pseudo-terminal ----------------------------------------------------------------

KEYS = {
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "enter": b"\r",
    "escape": b"\x1b",
    "ctrl+q": b"\x11",
    "tab": b"\t",
    "home": b"\x1b[H",
    "pagedown": b"\x1b[6~",
    "space": b" ",
    "backspace": b"\x7f",
}
"""Key names to the bytes an xterm sends."""

TIMEOUT = 60.0


def _make_controlling_terminal() -> None:  # runs in the child, after setsid
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class PtyApp:
    """``python -m tui ARGS`` on a pseudo-terminal of the given size and environment.

    Args:
        args: Command-line arguments after ``termarcade``.
        env: Environment changes (None values remove a variable).
        size: ``(columns, lines)``.
    """

    def __init__(
        self, args: list[str], env: dict[str, str | None], size: tuple[int, int] = (80, 24)
    ) -> None:
        self.master, slave = os.openpty()
        self._set_size(*size)
        environment = dict(os.environ)
        for key, value in env.items():
            if value is None:
                environment.pop(key, None)
            else:
                environment[key] = value
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tui", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=environment,
            start_new_session=True,
            preexec_fn=_make_controlling_terminal,  # noqa: PLW1509 - no threads here; the child needs its tty
            close_fds=True,
        )
        os.close(slave)
        self.raw = bytearray()
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)

    def _set_size(self, width: int, height: int) -> None:
        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))

    def pump(self, seconds: float = 0.05) -> None:
        """Read what the app wrote during ``seconds``."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.master], [], [], max(0.0, left))
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                if not data:
                    return
                self.raw += data
                self.stream.feed(data)
            elif left <= 0:
                return

    def text(self) -> str:
        """The screen as text."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(
        self, wanted: str | Callable[[str], bool], timeout: float = TIMEOUT, what: str = ""
    ) -> str:
        """Read until the screen shows ``wanted``; return the screen (``what`` names what
        was waited for in the failure's message)."""
        check = (lambda text: wanted in text) if isinstance(wanted, str) else wanted
        deadline = time.monotonic() + timeout
        while not check(self.text()):
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.pump(0.2)
                if check(self.text()):
                    break
                raise AssertionError(
                    f"waiting for {what or wanted!r}; the screen shows:\n{self.text()}"
                )
            self.pump(0.05)
        return self.text()

    def press(self, *keys: str, pause: float = 0.15) -> None:
        """Type keys (names from :data:`KEYS` or plain text), reading output in between."""
        for key in keys:
            os.write(self.master, KEYS.get(key, key.encode()))
            self.pump(pause)

    def resize(self, width: int, height: int) -> None:
        """Resize the terminal (the app gets SIGWINCH)."""
        self._set_size(width, height)
        self.screen.resize(height, width)

    def close(self) -> int:
        """End the app (if it still runs) and return its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(10)
        self.pump(0.1)
        os.close(self.master)
        return code

    def decoded(self) -> str:
        """Everything the app wrote, as text."""
        return self.raw.decode("utf-8", errors="strict")


def sgr_parameters(raw: bytes) -> list[str]:
    """The parameter strings of every SGR (colour/attribute) sequence in ``raw``."""
    return [match.decode() for match in re.findall(rb"\x1b\[([0-9;:]*)m", raw)]


# -- the tests -----------------------------------------------------------------------------------


TOUR_SEED = 1
"""Seed of the level each game's tour plays (:func:`tests.tui.every_game.level_to_play`)."""


def _tour(app: PtyApp) -> None:
    """Visit the screens every player sees: home, help, then every registered game (its
    level select or a new game, the level ID dialog, a level and one move), all through the
    registry: adding a game needs no edit here."""
    app.wait_for("Pick a game")
    app.press("?")
    app.wait_for("Games")
    app.press("pagedown")  # the keys table is below the games at 80x24
    app.wait_for("Keys everywhere")
    app.press("escape")
    app.wait_for("Pick a game")
    for position, info in enumerate(registry.games()):
        app.press("home")  # the list keeps its highlight between visits
        app.pump(0.2)
        app.press(*["down"] * position)
        app.pump(0.2)
        app.press("enter")
        if info.playable:
            _play_one_move(app, info)
        _back_home(app)


def _play_one_move(app: PtyApp, info: registry.GameInfo) -> None:
    """From a game just opened on the home screen: reach a level (the level select's first
    one, or the new game a game starts at once), open the tour's level by its ID in the
    ``I`` dialog, and play its first move that does not end the game with the keys the
    game's screen declares for it (:meth:`tui.screens.puzzle.PuzzleScreen.keys_for`)."""
    game = info.load("engine")
    screen_class = info.load("screen")
    header = plural(0, screen_class.MOVE_WORD)  # "0 moves": the puzzle header of a new game
    app.wait_for(lambda text: "choose a level" in text or header in text)
    if "choose a level" in app.text():
        app.press("enter")  # its first level
        app.wait_for(lambda text: "choose a level" not in text and header in text)
    level_id, level = level_to_play(info, TOUR_SEED)
    # Keys come from a screen made here, in the position the app shows: the tour's level
    # as just opened (no save: this test's data directory is new).
    state = game.initial(level)
    offline = screen_class(Session.begin(game, state), level=level, info=info)
    playable = [(move, tuple(offline.keys_for(move))) for move in game.moves(state)]
    typed = [(move, keys) for move, keys in playable if keys]
    assert typed, f"{info.title}: no move of {level_id} can be typed"
    move, keys = next(
        ((move, keys) for move, keys in typed if not game.finished(game.apply(state, move))),
        typed[0],
    )
    app.press(offline.binding_key("puzzle.id"))
    app.wait_for("Open a level by its ID")
    app.press(level_id, "enter")
    app.wait_for(lambda text: "Now playing" in text or "already" in text)
    unknown = [key for key in keys if key not in KEYS and len(key) != 1]
    assert not unknown, f"no bytes known for the keys {unknown}"
    app.press(*keys)
    moved = re.compile(rf"(?<!\d)1 {re.escape(screen_class.MOVE_WORD)}(?!s)")
    app.wait_for(
        lambda text: moved.search(text) is not None,
        what=f"{info.title}: {game.describe_move(state, move)} by {keys}",
    )


def _back_home(app: PtyApp) -> None:
    """Press q (back) until the home screen shows."""
    for _ in range(5):
        app.pump(0.3)
        if "Pick a game" in app.text():
            return
        app.press("q")
    app.wait_for("Pick a game")


def _env(**values):
    base = {"COLORTERM": None, "NO_COLOR": None, "TERMARCADE_GLYPHS": None}
    base.update(values)
    return base


@pytest.mark.parametrize(
    ("env", "allowed"),
    [
        (_env(TERM="xterm-256color", TERMARCADE_GLYPHS="ascii"), str.isascii),
        (_env(TERM="vt100"), str.isascii),
        (_env(TERM="linux"), _is_cp437_safe),
    ],
    ids=["ascii-flag", "vt100", "linux-console"],
)
def test_only_safe_glyphs_reach_the_terminal(env, allowed) -> None:
    app = PtyApp([], env)
    try:
        _tour(app)
    finally:
        app.close()
    text = app.decoded()
    unsafe = sorted({char for char in text if not allowed(char)})
    assert not unsafe, f"unsafe glyphs written: {unsafe}"
    assert "termarcade" in text


def _colour_kinds(raw: bytes) -> set[str]:
    kinds = set()
    for params in sgr_parameters(raw):
        if re.search(r"(^|;)[34]8;2;", params):
            kinds.add("24-bit")
        elif re.search(r"(^|;)[34]8;5;", params):
            kinds.add("256")
        elif re.search(r"(^|;)(3[0-7]|4[0-7]|9[0-7]|10[0-7])(;|$)", params):
            kinds.add("16")
    return kinds


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        (_env(TERM="xterm-256color", COLORTERM="truecolor"), {"24-bit"}),
        (_env(TERM="xterm-256color"), {"256"}),
        (_env(TERM="xterm"), {"16"}),
        (_env(TERM="linux"), {"16"}),
    ],
    ids=["truecolor", "256-without-colorterm", "xterm-16", "linux-16"],
)
def test_colours_fit_the_terminal(env, expected) -> None:
    app = PtyApp(["play", "2048"], env)
    try:
        app.wait_for("Moves")
        app.press("left", "up")
    finally:
        app.close()
    assert _colour_kinds(bytes(app.raw)) == expected


def test_sixteen_colours_use_the_terminals_own_palette() -> None:
    app = PtyApp(["play", "2048"], _env(TERM="xterm"))
    try:
        app.wait_for("Moves")
    finally:
        app.close()
    # The ANSI theme: default foreground/background (39/49), not approximations of 24-bit.
    assert any(re.search(r"(^|;)(39|49)(;|$)", params) for params in sgr_parameters(bytes(app.raw)))


def test_no_color_means_no_hue() -> None:
    app = PtyApp(["play", "2048"], _env(TERM="xterm-256color", COLORTERM="truecolor", NO_COLOR="1"))
    try:
        app.wait_for("Moves")
        app.press("left", "up")
    finally:
        app.close()
    for params in sgr_parameters(bytes(app.raw)):
        for red, green, blue in re.findall(r"[34]8;2;(\d+);(\d+);(\d+)", params):
            assert red == green == blue, params


def test_too_small_then_big_enough() -> None:
    app = PtyApp([], _env(TERM="xterm-256color"), size=(50, 16))
    try:
        app.wait_for("Terminal too small: 50×16")
        app.resize(80, 24)
        app.wait_for("Pick a game")
        app.resize(40, 12)
        app.wait_for("Terminal too small: 40×12")
        app.press("ctrl+q")
        assert app.process.wait(30) == 0
    finally:
        app.close()
