"""One player's app in its own process, on its own pseudo-terminal, bridged to the server's loop.

Why a process per session (and not an app per asyncio task in the server):

* **Isolation.** A crash, a runaway search or a memory blow-up in one game cannot touch the
  other players; an abrupt disconnect just ends one process. Textual also has process-wide
  state (it redirects ``sys.stdout``, installs signal handlers, runs its own threads) that two
  apps in one process would fight over.
* **CPU caps.** The kernel enforces ``RLIMIT_CPU`` per process, covering the app and every
  hint/solver thread it starts; nothing in the games has to cooperate.
* **Cores.** Sessions run in parallel instead of sharing one interpreter lock.
* **The real driver.** The app sees a real terminal (a pseudo-terminal whose other end the
  server holds), so resizes, key parsing and screen restoring are exactly those of local play.

The cost is memory, kept low with a fork server (:mod:`multiprocessing`'s ``forkserver``) that
imports Textual and the app once: each session is a fork of it, sharing those pages
copy-on-write, and starts in milliseconds instead of re-importing everything.

As with any ``multiprocessing`` start method but ``fork``, a session process first re-imports
the server's main module under another name: the ``termarcade`` command and ``python -m tui``
are safe; a script that starts a server itself needs the ``if __name__ == "__main__":`` guard.

The server keeps its copy of the terminal's slave side open for the whole session, so the
master never reports a hang-up early; the process's exit (its sentinel) ends the session, after
the last bytes it wrote (the "leave the alternate screen" sequence) have been forwarded.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import multiprocessing
import os
import signal
import struct
import termios
from collections.abc import Callable
from multiprocessing import forkserver
from typing import Any

from tui.serve.spec import SessionSpec, run

__all__ = ["KILL_AFTER", "AppProcess", "start_fork_server"]

KILL_AFTER = 5.0
"""Seconds a session process gets to close cleanly after SIGTERM before SIGKILL."""

READ_SIZE = 65536
"""Bytes read from the terminal per wake-up."""

log = logging.getLogger("termarcade.serve")

_PRELOAD = ["tui.serve.child"]


def _context() -> Any:
    return multiprocessing.get_context("forkserver")


def start_fork_server() -> None:
    """Start the fork server now (importing the app once), so the first player waits no longer
    than the others. Call before accepting connections."""
    context = _context()
    context.set_forkserver_preload(_PRELOAD)
    forkserver.ensure_running()


def set_window_size(fd: int, width: int, height: int) -> None:
    """Set a terminal's size (the kernel then sends SIGWINCH to its foreground processes)."""
    width = max(1, min(int(width), 1000))
    height = max(1, min(int(height), 1000))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", height, width, 0, 0))


class AppProcess:
    """A session process and the pseudo-terminal it draws on.

    Args:
        spec_for: Builds the session spec from the terminal's path (``/dev/pts/N``).
        on_output: Called with every chunk of bytes the app writes (for the player).
        on_exit: Called once with the process's exit status (negative: killed by a signal)
            after the last output was passed on.
    """

    def __init__(
        self,
        spec_for: Callable[[str], SessionSpec],
        *,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int | None], None],
    ) -> None:
        self._spec_for = spec_for
        self._on_output = on_output
        self._on_exit = on_exit
        self._loop: asyncio.AbstractEventLoop | None = None
        self._master = -1
        self._slave = -1
        self._process: Any = None
        self._pending = bytearray()
        self._reading = False
        self._output_paused = False
        self._finished = False
        self._kill_timer: asyncio.TimerHandle | None = None
        self.pid: int | None = None
        """The session process's id (None until started)."""

    async def start(self, width: int, height: int) -> None:
        """Make the terminal at the player's size and start the session process.

        Raises:
            OSError: When no pseudo-terminal or process can be had (the caller tells the
                player the arcade is busy).
        """
        self._loop = asyncio.get_running_loop()
        self._master, self._slave = os.openpty()
        try:
            os.set_blocking(self._master, False)
            set_window_size(self._master, width, height)
            spec = self._spec_for(os.ttyname(self._slave))
            process = _context().Process(
                target=run, args=(spec,), name=f"termarcade-session-{spec.session_id}"
            )
            # Starting talks to the fork server (a few milliseconds): not on the loop.
            await self._loop.run_in_executor(None, process.start)
        except BaseException:
            self._close_fds()
            raise
        self._process = process
        self.pid = process.pid
        self._loop.add_reader(process.sentinel, self._exited)
        self._resume_reading()

    # -- player to app -------------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        """Pass the player's input to the app (in order; buffered while the terminal is full)."""
        if self._finished or self._master < 0:
            return
        if self._pending:
            self._pending += data
            return
        try:
            written = os.write(self._master, data)
        except BlockingIOError:
            written = 0
        except OSError:
            return
        if written < len(data):
            self._pending += data[written:]
            assert self._loop is not None
            self._loop.add_writer(self._master, self._flush_pending)

    def _flush_pending(self) -> None:
        try:
            written = os.write(self._master, self._pending)
        except BlockingIOError:
            return
        except OSError:
            written = len(self._pending)
        del self._pending[:written]
        if not self._pending and self._loop is not None:
            self._loop.remove_writer(self._master)

    def resize(self, width: int, height: int) -> None:
        """Tell the app the player's window changed size."""
        if not self._finished and self._master >= 0:
            with contextlib.suppress(OSError):
                set_window_size(self._master, width, height)

    # -- app to player -------------------------------------------------------------------------

    def pause_output(self) -> None:
        """Stop reading the app's output (the player's connection is backed up); the app then
        blocks on its next write, so nothing piles up in memory."""
        self._output_paused = True
        self._pause_reading()

    def resume_output(self) -> None:
        """Read the app's output again."""
        self._output_paused = False
        self._resume_reading()

    def _pause_reading(self) -> None:
        if self._reading and self._loop is not None:
            self._loop.remove_reader(self._master)
            self._reading = False

    def _resume_reading(self) -> None:
        if not self._reading and not self._finished and self._loop is not None:
            self._loop.add_reader(self._master, self._readable)
            self._reading = True

    def _readable(self) -> None:
        try:
            data = os.read(self._master, READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            self._pause_reading()
            return
        if data:
            self._on_output(data)

    def _drain(self) -> bytes:
        """Everything still in the terminal (read after the process ended)."""
        chunks = []
        while True:
            try:
                data = os.read(self._master, READ_SIZE)
            except OSError:
                break
            if not data:
                break
            chunks.append(data)
        return b"".join(chunks)

    # -- ending --------------------------------------------------------------------------------

    def terminate(self) -> None:
        """Ask the app to close (it saves and restores the screen), and kill it if it has not
        within :data:`KILL_AFTER` seconds."""
        if self._finished or self._process is None:
            return
        self._signal(signal.SIGTERM)
        if self._kill_timer is None and self._loop is not None:
            self._kill_timer = self._loop.call_later(KILL_AFTER, self._signal, signal.SIGKILL)

    def discard_output(self) -> None:
        """The player is gone: read and drop whatever the app still writes until it ends."""
        self._on_output = lambda data: None
        self.resume_output()

    def _signal(self, number: int) -> None:
        if self.pid is not None and not self._finished:
            with contextlib.suppress(OSError):
                os.kill(self.pid, number)

    def _exited(self) -> None:
        assert self._loop is not None and self._process is not None
        self._loop.remove_reader(self._process.sentinel)
        self._pause_reading()
        rest = self._drain()
        if rest:  # even when paused: the session is ending, and these bytes restore the screen
            self._on_output(rest)
        self._finished = True
        if self._kill_timer is not None:
            self._kill_timer.cancel()
        self._process.join(0)
        code = self._process.exitcode
        self._process.close()
        self._loop.remove_writer(self._master)
        self._close_fds()
        self._on_exit(code)

    def _close_fds(self) -> None:
        for fd in (self._master, self._slave):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = -1
