"""The session process: one remote player's arcade, drawn on its own pseudo-terminal.

The server forks this process (from a pre-loaded fork server, see :mod:`tui.serve.process`)
for every player. Here it

1. becomes a session leader whose controlling terminal is the pseudo-terminal the server made
   for the player, so the stock Textual terminal driver runs unchanged: the kernel delivers
   ``SIGWINCH`` when the player resizes, and the terminal modes are the player's own;
2. takes the player's ``TERM`` and a short list of their environment variables, and nothing
   of the host's terminal settings;
3. lowers its priority and sets its CPU-time limit (``RLIMIT_CPU``): at the soft limit the
   kernel sends ``SIGXCPU`` and the app closes itself cleanly; ten CPU seconds later the hard
   limit kills it, should it not manage; and caps its address space (``RLIMIT_AS``);
4. confines itself (:mod:`tui.serve.confine`, Landlock where the kernel has it): from here on
   it can write only in the data folder (and the store's, for a SQLite file elsewhere), its
   terminal and ``/dev/null``;
5. runs :class:`ServedApp` with the player's own store (``Store(user=...)``).

Standard error stays the server's log: Textual prints a crash report to ``sys.stderr`` after it
has left the screen, so no traceback ever reaches the player, who gets a one-line message from
the server instead (see :func:`tui.serve.spec.exit_reason`).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import math
import os
import resource
import signal
import sys
import termios
import time
from pathlib import Path

from textual import events

import tui.app
from tui.app import ArcadeApp
from tui.serve.confine import confine_writes, keep_sqlite_temp_files_in, limit_memory
from tui.serve.spec import CLIENT_ENV, EXIT_CPU, EXIT_ERROR, EXIT_OK, EXIT_START, SessionSpec
from tui.store import ENV_DATA_DIR, ENV_STORE, Store, data_dir, parse_store_url
from tui.workers import run_workers_at_low_priority

__all__ = ["CPU_GRACE", "ServedApp", "apply_limits", "run_session"]

CPU_GRACE = 10
"""CPU seconds between the soft limit (clean exit) and the hard limit (killed)."""

log = logging.getLogger("termarcade.serve.session")


class ServedApp(ArcadeApp):
    """The arcade for one remote player.

    Served mode (no host files by path), the player's own saves, and a clean exit on
    ``SIGTERM``/``SIGHUP`` (idle time-out, server shutdown) and at the CPU limit (``SIGXCPU``).

    Args:
        user: The player (their saves); ignored when ``store`` is given.
        glyphs: A forced glyph set, or None to choose from ``TERM``.
        store: The store (the web's guests get an in-memory one).
        idle_timeout: Seconds without input before the app closes itself (0: never; the SSH
            server keeps its own watch instead).
        greeting: A notification shown at start ("" for none).
    """

    # Textual reads a relative CSS_PATH from the subclass's own folder: point at the app's.
    CSS_PATH = str(Path(tui.app.__file__).parent / str(ArcadeApp.CSS_PATH))

    def __init__(
        self,
        user: str,
        *,
        glyphs: str | None = None,
        store: Store | None = None,
        idle_timeout: float = 0.0,
        greeting: str = "",
    ) -> None:
        super().__init__(served=True, user=user, glyphs=glyphs, store=store)
        self.idle_timeout = idle_timeout
        self.greeting = greeting
        self.idle_closed = False
        """True when the app closed itself for lack of input."""
        self._last_input = time.monotonic()

    def on_mount(self) -> None:
        loop = asyncio.get_running_loop()
        # Solvers, autoplay and generators give way to every player's interactive loop.
        run_workers_at_low_priority(loop)
        for number in (signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(number, self.exit)
        loop.add_signal_handler(signal.SIGXCPU, self.exit, None, EXIT_CPU)
        if self.idle_timeout > 0:
            self.set_interval(min(30.0, self.idle_timeout / 4), self._check_idle)
        if self.greeting:
            self.notify(self.greeting, timeout=8)

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown, events.Paste)):
            self._last_input = time.monotonic()
        await super().on_event(event)

    def _check_idle(self) -> None:
        if time.monotonic() - self._last_input >= self.idle_timeout:
            self.idle_closed = True
            self.exit()


def run_session(spec: SessionSpec) -> None:
    """Run the arcade for one player and exit with a status from :mod:`tui.serve.spec`.

    Args:
        spec: The session.
    """
    _configure_logging(spec)
    try:
        _attach_terminal(spec.tty_path)
    except OSError as error:
        log.error(
            "session %d: cannot open its terminal %s: %s", spec.session_id, spec.tty_path, error
        )
        sys.exit(EXIT_START)
    _prepare_environment(spec)
    apply_limits(spec.cpu_limit, spec.nice, spec.memory_limit)
    try:
        _confine(spec)
    except OSError as error:  # never play unconfined where confinement was possible
        log.error("session %d: cannot confine its writes: %s", spec.session_id, error)
        sys.exit(EXIT_START)
    code = EXIT_ERROR
    try:
        store, greeting = _guest_store(spec)
        app = ServedApp(spec.user, glyphs=spec.glyphs, store=store, greeting=greeting)
        app.run()
        code = {0: EXIT_OK, EXIT_CPU: EXIT_CPU}.get(app.return_code or 0, EXIT_ERROR)
    except BaseException:  # Logged for the host; the player gets one line from the server.
        log.exception("session %d: the app failed", spec.session_id)
    sys.exit(code)


def _guest_store(spec: SessionSpec) -> tuple[Store | None, str]:
    """A guest's store lives in memory (as a web player's does) and ends with the session;
    the greeting says so. Others get the arcade's store (None) and no greeting."""
    if not spec.guest:
        return None, ""
    from tui.serve.owners import guest_greeting

    return Store(":memory:", user=spec.user), guest_greeting(spec.user)


def _configure_logging(spec: SessionSpec) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter(f"%(asctime)s %(levelname)s session {spec.session_id}: %(message)s")
    )
    # termarcade.tui and .store: the app's own lines (a refused action, changes kept in the
    # journal while the store is down) reach the server's log too.
    for logger in (log, logging.getLogger("termarcade.tui"), logging.getLogger("termarcade.store")):
        logger.handlers[:] = [handler]
        logger.propagate = False


def writable_folders(spec: SessionSpec) -> list[str]:
    """The folders a session may write in: the data folder (the store, its journals), and the
    SQLite store's own folder when ``--store`` names a file elsewhere.

    Args:
        spec: The session.

    Returns:
        Absolute paths.
    """
    folders = [os.path.abspath(spec.data_dir or data_dir())]
    if spec.store:
        with contextlib.suppress(ValueError):
            target = parse_store_url(spec.store)
            if target.path is not None:
                folders.append(os.path.abspath(target.path.expanduser().parent))
    return folders


def _confine(spec: SessionSpec) -> None:
    """Write only where :func:`writable_folders` says, the terminal and ``/dev/null``."""
    folders = writable_folders(spec)
    confinement = confine_writes(folders, [spec.tty_path, "/dev/tty", os.devnull])
    if confinement.applied:
        keep_sqlite_temp_files_in(folders[0])


def _attach_terminal(tty_path: str) -> None:
    """Make ``tty_path`` this process's controlling terminal, standard input and output."""
    os.setsid()
    fd = os.open(tty_path, os.O_RDWR)  # Linux makes it the controlling terminal here ...
    with contextlib.suppress(OSError):
        fcntl.ioctl(fd, termios.TIOCSCTTY, 0)  # ... BSD and macOS need to be asked.
    os.dup2(fd, 0)
    os.dup2(fd, 1)
    if fd > 1:
        os.close(fd)
    # multiprocessing closed the inherited sys.stdin; Textual reads sys.__stdin__ and draws on
    # sys.__stderr__, and shutil.get_terminal_size() asks sys.__stdout__.
    # These streams live as long as the process: no context manager can own them.
    # Textual reads the dunder streams themselves, so they are replaced too.
    sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", errors="replace", closefd=False)  # type: ignore[misc]  # noqa: SIM115
    out = open(1, "w", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
    sys.stdout = sys.__stdout__ = sys.__stderr__ = out  # type: ignore[misc]


def _prepare_environment(spec: SessionSpec) -> None:
    """The player's terminal settings, not the host's."""
    for key in list(os.environ):
        if key in CLIENT_ENV or key in ("COLUMNS", "LINES") or key.startswith("TEXTUAL"):
            del os.environ[key]
    os.environ["TERM"] = spec.term
    os.environ.update({key: value for key, value in spec.env.items() if key in CLIENT_ENV})
    if spec.data_dir:
        os.environ[ENV_DATA_DIR] = spec.data_dir
    # The server's store, said explicitly: every session of every host writes where the
    # arcade's operator pointed it, never where some inherited variable happens to point.
    os.environ.pop(ENV_STORE, None)
    if spec.store:
        os.environ[ENV_STORE] = spec.store


def apply_limits(cpu_limit: float, nice: int, memory_limit: int = 0) -> None:
    """Lower this process's priority, set its CPU-time and memory limits, and never write
    core files.

    Args:
        cpu_limit: CPU seconds before ``SIGXCPU`` (0: no limit); the hard limit, which kills,
            comes :data:`CPU_GRACE` seconds later.
        nice: Niceness to add.
        memory_limit: Bytes of address space (``RLIMIT_AS``; 0: no limit): beyond it an
            allocation raises ``MemoryError`` in this session only.
    """
    try:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if nice:
            os.nice(nice)
        if cpu_limit > 0:
            _, hard_now = resource.getrlimit(resource.RLIMIT_CPU)
            soft = max(1, math.ceil(cpu_limit))
            hard = soft + CPU_GRACE
            if hard_now != resource.RLIM_INFINITY:
                hard = min(hard, hard_now)
                soft = min(soft, hard)
            resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
        limit_memory(memory_limit)
    except (OSError, ValueError) as error:
        log.warning("cannot set the session's limits: %s", error)
