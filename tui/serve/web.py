"""``termarcade serve --web``: the same arcade in web browsers, through textual-serve.

textual-serve starts one app process per browser tab (:mod:`tui.serve.webchild`) and relays
the terminal over a websocket to xterm.js in the page. Each process gets the same CPU limit and
priority as an SSH session, closes itself after the idle time-out, and runs in served mode.
Web players are anonymous guests: their progress lives in memory until the tab closes (there is
no account to keep it under). The number of sessions at once is capped here; a browser over the
cap reads "the arcade is full" in the page.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

from aiohttp import web
from textual_serve.server import Server

from tui.serve.limits import ServeLimits
from tui.serve.running import ServeError

__all__ = ["WebArcade"]


class _CappedServer(Server):
    """textual-serve's server with a cap on sessions at once."""

    def __init__(self, command: str, *, max_sessions: int, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.max_sessions = max_sessions
        self.active = 0

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if self.active >= self.max_sessions:
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            await websocket.send_bytes(
                f"The arcade is full ({self.max_sessions} players). "
                "Please try again in a little while.\r\n".encode()
            )
            await websocket.close()
            return websocket
        self.active += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.active -= 1


class WebArcade:
    """The web arcade.

    Args:
        limits: The limits (sessions at once, idle time-out, CPU limit, priority).
        data_dir: Unused by guests (kept for symmetry with SSH).
        glyphs: Ignored: browsers draw Unicode.
        host: Address to listen on.
        port: Port.
        public_url: The URL players use when a proxy is in front (None: ``http://host:port``).
    """

    def __init__(
        self,
        limits: ServeLimits,
        *,
        data_dir: str,
        glyphs: str | None,
        host: str,
        port: int,
        public_url: str | None = None,
    ) -> None:
        self.limits = limits
        self.host = host
        self.port = port
        self.public_url = public_url

    def command(self) -> str:
        """The shell command textual-serve runs for each browser tab."""
        limits = self.limits
        return shlex.join(
            [
                sys.executable,
                "-m",
                "tui.serve.webchild",
                "--cpu-limit",
                f"{limits.cpu_limit:g}",
                "--idle-timeout",
                f"{limits.idle_timeout:g}",
                "--nice",
                str(limits.nice),
            ]
        )

    def server(self) -> Server:
        """The textual-serve server (not started)."""
        return _CappedServer(
            self.command(),
            max_sessions=self.limits.max_sessions,
            host=self.host,
            port=self.port,
            title="termarcade",
            public_url=self.public_url,
        )

    def run(self) -> None:
        """Serve until interrupted.

        Raises:
            ServeError: When the address cannot be listened on.
        """
        try:
            self.server().serve()
        except OSError as error:
            raise ServeError(
                f"cannot listen on {self.host}:{self.port} ({error.strerror or error})"
            ) from None
