"""Running a server until it is told to stop: logging, start-up, and a polite shutdown."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path
from typing import Any

from tui.serve.arcade import Arcade
from tui.serve.process import KILL_AFTER
from tui.store import DB_FILENAME, redact

__all__ = ["ServeError", "configure_logging", "run_ssh_arcade"]

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
    await loop.run_in_executor(None, start_fork_server)
    try:
        server = await start_ssh_server(arcade, host, port, key, authorized_keys=authorized_keys)
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
        f"keys from {authorized_keys}" if authorized_keys else "open to everyone",
    )
    log.info(
        "limits: %d sessions (%d per address), idle %gs, %g CPU s per session",
        arcade.limits.max_sessions,
        arcade.limits.max_per_address,
        arcade.limits.idle_timeout,
        arcade.limits.cpu_limit,
    )
    log.info(
        "store: %s", redact(arcade.store) if arcade.store else f"{DB_FILENAME} in {arcade.data_dir}"
    )
    stop = stop or asyncio.Event()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    if started is not None and not started.done():
        started.set_result(tuple(address))
    try:
        await stop.wait()
    finally:
        for number in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(number)
        log.info("shutting down: closing %d sessions", len(arcade.seats))
        server.close()
        await close_sessions(arcade)
        await server.wait_closed()


async def close_sessions(arcade: Arcade) -> None:
    """End every session (players are told why) and wait for their processes to finish."""
    for seat in list(arcade.seats.values()):
        if seat.end is not None:
            seat.end("shutdown")
    deadline = asyncio.get_running_loop().time() + KILL_AFTER + 2
    while arcade.seats and asyncio.get_running_loop().time() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.1)  # let the last goodbyes go out
