"""Test helpers: a real SSH arcade on 127.0.0.1 and real asyncssh players with a VT emulator.

:func:`running_arcade` runs :func:`tui.serve.running.run_ssh_arcade` on a free port in the
test's event loop; :class:`Player` is an asyncssh client session whose output is fed to a
``pyte`` screen, so tests assert what a person would see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

asyncssh = pytest.importorskip("asyncssh")
pyte = pytest.importorskip("pyte")

from tests.tui.helpers import home_row  # noqa: E402
from tui.serve.arcade import Arcade  # noqa: E402
from tui.serve.limits import ServeLimits  # noqa: E402
from tui.serve.running import run_ssh_arcade  # noqa: E402
from tui.store import data_dir  # noqa: E402

__all__ = ["Player", "connect", "open_2048", "open_player", "running_arcade", "wait_until"]

TIMEOUT = 60.0
"""Seconds to wait for a screen (the 2-core CI machine may be busy)."""


@contextlib.asynccontextmanager
async def running_arcade(
    authorized_keys: Any = None,
    glyphs: str | None = None,
    store: str = "",
    names: Any = None,
    **limits: Any,
) -> AsyncIterator[tuple[Arcade, int]]:
    """An SSH arcade on 127.0.0.1 and a free port, stopped (sessions closed) on exit.

    Args:
        authorized_keys: Path of an authorized_keys file, or None for an open arcade.
        glyphs: A glyph set forced on every session.
        store: The store handed to sessions (``--store``), or empty for the data dir's file.
        names: A :class:`tui.serve.owners.NameBook` (owned names), or None for open names.
        **limits: :class:`ServeLimits` fields.

    Yields:
        ``(arcade, port)``.
    """
    arcade = Arcade(
        ServeLimits(**limits), data_dir=str(data_dir()), glyphs=glyphs, store=store, names=names
    )
    started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    stop = asyncio.Event()
    task = asyncio.create_task(
        run_ssh_arcade(
            arcade,
            "127.0.0.1",
            0,
            host_key_file=None,
            authorized_keys=authorized_keys,
            started=started,
            stop=stop,
        )
    )
    done, _ = await asyncio.wait(
        {task, started}, timeout=TIMEOUT, return_when=asyncio.FIRST_COMPLETED
    )
    if task in done:
        task.result()  # raises the start-up error
    _, port = await started
    try:
        yield arcade, port
    finally:
        stop.set()
        await asyncio.wait_for(task, TIMEOUT)


async def connect(port: int, user: str = "player", **options: Any) -> Any:
    """An SSH connection to the test arcade (no host key check, no keys unless given)."""
    options.setdefault("client_keys", None)
    return await asyncssh.connect(
        "127.0.0.1", port, username=user, known_hosts=None, agent_path=None, config=None, **options
    )


class Player(asyncssh.SSHClientSession):  # type: ignore[misc]
    """One player's terminal: everything received is drawn on a pyte screen.

    Args:
        width: Columns.
        height: Lines.
    """

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.screen = pyte.Screen(width, height)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        """Every byte received."""
        self.closed = asyncio.Event()
        self.exit_status: int | None = None
        self.stderr = bytearray()
        self.chan: Any = None
        self.received_at: list[tuple[float, int]] = []
        """``(time.perf_counter(), len(raw))`` after each chunk (latency measurements)."""

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: Any) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
        self.raw += data
        self.stream.feed(data)
        self.received_at.append((time.perf_counter(), len(self.raw)))

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    # -- what the player sees and does -------------------------------------------------------

    def text(self) -> str:
        """The screen as text, one line per row."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, wanted: str | Callable[[str], bool], timeout: float = TIMEOUT) -> str:
        """Wait until the screen shows ``wanted`` (or the predicate holds); return the screen.

        Raises:
            AssertionError: With the screen, when it does not happen in time.
        """
        check = (lambda text: wanted in text) if isinstance(wanted, str) else wanted
        await wait_until(
            lambda: check(self.text()),
            timeout,
            lambda: f"waiting for {wanted!r}; the screen shows:\n{self.text()}",
        )
        return self.text()

    def press(self, *keys: str) -> None:
        """Type keys (text, or escape sequences such as ``KEYS['down']``)."""
        for key in keys:
            self.chan.write(KEYS.get(key, key).encode("utf-8"))

    def resize(self, width: int, height: int) -> None:
        """Resize the window (the emulator and the server's idea of it)."""
        self.screen.resize(height, width)
        self.chan.change_terminal_size(width, height)


KEYS = {
    "up": "\x1b[A",
    "down": "\x1b[B",
    "right": "\x1b[C",
    "left": "\x1b[D",
    "enter": "\r",
    "escape": "\x1b",
    "ctrl+q": "\x11",
}
"""Key names to the bytes an xterm sends."""


async def open_player(
    conn: Any,
    width: int = 80,
    height: int = 24,
    term: str = "xterm-256color",
    env: dict[str, str] | None = None,
) -> Player:
    """Open a PTY session on a connection and return its player."""
    _, player = await conn.create_session(
        lambda: Player(width, height),
        term_type=term,
        term_size=(width, height),
        encoding=None,
        env=env or {},
    )
    return player


async def open_2048(player: Player) -> str:
    """From the home screen into 2048 (a key typed while the first frame is still being
    mounted can miss the list on a busy machine: then go back and try again)."""
    for _ in range(3):
        # The whole list (its last row is 2048), not just the title of a half-drawn frame.
        await player.wait_for(lambda text: "Pick a game" in text and "2048" in text)
        await asyncio.sleep(0.2)
        # The sessions read the same installed registry, so the same home rows.
        player.press(*["down"] * home_row("2048"), "enter")
        await player.wait_for(lambda text: "Moves" in text or "TermCraft:" in text)
        if "Moves" in player.text():
            return player.text()
        player.press("q")
    raise AssertionError(f"could not open 2048:\n{player.text()}")


async def wait_until(
    condition: Callable[[], bool],
    timeout: float = TIMEOUT,
    describe: Callable[[], str] = lambda: "condition",
) -> None:
    """Poll ``condition`` every 20 ms until it holds.

    Raises:
        AssertionError: When it does not hold within ``timeout`` seconds.
    """
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out {describe()}")
        await asyncio.sleep(0.02)


def process_alive(pid: int) -> bool:
    """Whether a process exists (and is not a zombie)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ")[-1][:1] != "Z"
    except OSError:
        return True
