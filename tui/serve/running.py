"""Running a server until it is told to stop: logging, start-up, and a polite shutdown."""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tui.serve.arcade import Arcade
from tui.serve.limits import Bursts, ConnectionGate, connection_bounds
from tui.serve.process import KILL_AFTER
from tui.store import DB_FILENAME, redact

__all__ = [
    "QuietLog",
    "ServeError",
    "configure_logging",
    "quiet_accept_errors",
    "raise_open_file_limit",
    "run_ssh_arcade",
]

log = logging.getLogger("termarcade.serve")


class ServeError(Exception):
    """The server cannot start (the message is for the host, one line)."""


def configure_logging(verbose: bool = False) -> None:
    """Log to standard error, one line per event; asyncssh only for warnings (its debug output
    would include protocol details nobody needs in an arcade's log)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    root = logging.getLogger("termarcade")
    root.handlers[:] = [handler]
    root.setLevel(logging.DEBUG if verbose else logging.INFO)
    root.propagate = False
    logging.getLogger("asyncssh").setLevel(logging.WARNING)


class QuietLog:
    """Logs a flood of alike events (refused connections, failed accepts) as bursts: one line
    when a burst starts and one with its count when it ends, never one line per event.

    Args:
        call_later: ``loop.call_later`` (ends bursts on time).
        bursts: The burst book-keeping (tests pass one with their own clock).
    """

    def __init__(self, call_later: Callable[..., object], bursts: Bursts | None = None) -> None:
        self._call_later = call_later
        self.bursts = bursts or Bursts()

    def refused(self, address: str, why: str) -> None:
        """A connection from ``address`` was refused because of the bound ``why``."""
        if self.bursts.add(address, why):
            log.warning("refusing connections from %s (%s)", address, why)
            self._call_later(self.bursts.quiet, self._end, address, why)

    def accept_failed(self, why: str) -> None:
        """Accepting a connection failed (e.g. "Too many open files"); asyncio retries."""
        if self.bursts.add("", why):
            log.warning("cannot accept connections: %s (open-file limit %d)", why, _open_files())
            self._call_later(self.bursts.quiet, self._end, "", why)

    def _end(self, key: str, why: str) -> None:
        wait = self.bursts.due(key, why)
        if wait > 0:  # the burst goes on: look again when it may have ended
            self._call_later(wait, self._end, key, why)
            return
        count, span = self.bursts.take(key, why)
        if count < 2:  # the line at its start said it all
            return
        if key:
            log.warning("refused %d connections from %s over %.0f s (%s)", count, key, span, why)
        else:
            log.warning("accepting failed %d times over %.0f s: %s", count, span, why)


_ACCEPT_ERRORS = frozenset(
    {
        "socket.accept() out of system resource",
        "Error on transport creation for incoming connection",
    }
)
"""The messages of asyncio's listening sockets when an accept fails (it logs each one with a
traceback, and retries a second later)."""


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, quiet: QuietLog) -> Callable[[], None]:
    """Send the loop's failed accepts (out of file descriptors) to ``quiet`` instead of a
    traceback each; every other error goes to the handler that was there before.

    Args:
        loop: The server's event loop.
        quiet: Where failed accepts are counted.

    Returns:
        A function that puts the previous handler back.
    """
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") in _ACCEPT_ERRORS:
            error = context.get("exception")
            code = getattr(error, "errno", None)
            why = errno.errorcode.get(code, "") if code else ""
            quiet.accept_failed(getattr(error, "strerror", None) or why or str(error))
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
    return lambda: loop.set_exception_handler(previous)


def _open_files() -> int:
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def raise_open_file_limit() -> int:
    """Raise the soft open-file limit to the hard one (every connection and session holds
    descriptors, and the default soft limit is often 1024).

    Returns:
        The soft limit now in force.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 65536)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (OSError, ValueError):  # e.g. above the kernel's nr_open: keep what we have
            return soft
        return target
    return soft


async def run_ssh_arcade(
    arcade: Arcade,
    host: str,
    port: int,
    *,
    host_key_file: Path | None,
    authorized_keys: Path | None,
    started: asyncio.Future[Any] | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve the arcade over SSH until SIGINT/SIGTERM (or ``stop``), then close every session.

    Args:
        arcade: Sessions and limits.
        host: Address to listen on.
        port: Port (0: any free port).
        host_key_file: ``--host-key``, or None for the generated one in the data directory.
        authorized_keys: ``--authorized-keys``, or None for an open arcade.
        started: Set to the listening ``(host, port)`` once players can connect (tests).
        stop: Set to stop the server (tests; signals do the same).

    Raises:
        ServeError: When the host key, the keys file or the address is unusable.
    """
    from tui.serve.hostkey import HostKeyError, load_or_create_host_key
    from tui.serve.process import start_fork_server
    from tui.serve.ssh import start_ssh_server

    try:
        key, key_path, created = load_or_create_host_key(host_key_file)
    except HostKeyError as error:
        raise ServeError(str(error)) from None
    loop = asyncio.get_running_loop()
    open_files = raise_open_file_limit()  # before the fork server, so sessions inherit it
    await loop.run_in_executor(None, start_fork_server)
    quiet = QuietLog(loop.call_later)
    gate = ConnectionGate(*connection_bounds(arcade.limits, open_files), quiet.refused)
    try:
        server = await start_ssh_server(
            arcade, host, port, key, authorized_keys=authorized_keys, gate=gate
        )
    except OSError as error:
        raise ServeError(f"cannot listen on {host}:{port} ({error.strerror or error})") from None
    except ValueError as error:
        raise ServeError(str(error)) from None
    address = server.sockets[0].getsockname()[:2] if server.sockets else (host, port)
    fingerprint = key.get_fingerprint()
    log.info(
        "termarcade SSH arcade on %s:%s; host key %s (%s%s); %s",
        address[0],
        address[1],
        fingerprint,
        key_path,
        ", new" if created else "",
        f"keys from {authorized_keys}" if authorized_keys else "any key or none may log in",
    )
    log.info(
        "limits: %d sessions (%d per address), idle %gs, %g CPU s per player an hour",
        arcade.limits.max_sessions,
        arcade.limits.max_per_address,
        arcade.limits.idle_timeout,
        arcade.limits.cpu_limit,
    )
    log.info(
        "before a session: %d connections (%d per address), login within %gs; %d open files",
        gate.total,
        gate.per_address,
        arcade.limits.login_timeout,
        open_files,
    )
    log.info(
        "store: %s", redact(arcade.store) if arcade.store else f"{DB_FILENAME} in {arcade.data_dir}"
    )
    stop = stop or asyncio.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    if started is not None and not started.done():
        started.set_result(tuple(address))
    restore_handler = quiet_accept_errors(loop, quiet)
    try:
        await stop.wait()
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)
        log.info("shutting down: closing %d sessions", len(arcade.seats))
        server.close()
        await close_sessions(arcade)
        await server.wait_closed()
        restore_handler()


async def close_sessions(arcade: Arcade) -> None:
    """End every session (players are told why) and wait for their processes to finish."""
    for seat in list(arcade.seats.values()):
        if seat.end is not None:
            seat.end("shutdown")
    deadline = asyncio.get_running_loop().time() + KILL_AFTER + 2
    while arcade.seats and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.1)  # let the last goodbyes go out
