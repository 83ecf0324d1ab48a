"""``termarcade serve --web``: the same arcade in web browsers, through textual-serve.

textual-serve starts one app process per browser tab (:mod:`tui.serve.webchild`) and relays
the terminal over a websocket to xterm.js in the page. Each process gets the same CPU limit and
priority as an SSH session, closes itself after the idle time-out, and runs in served mode.
Web players are anonymous guests: their progress lives in memory until the tab closes (there is
no account to keep it under). The limits of ``serve`` apply as over SSH: sessions at once, in
all and per address (a browser over a cap reads why in the page), and the input rate (each
message from the page costs its size; a long paste is passed on in pieces of at most the burst,
at the rate, while the page's further messages wait). Malformed messages are dropped, and
``/static/`` lists no folder.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
import sys
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import WSMessage, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from tui.serve.limits import ServeLimits, TokenBucket
from tui.serve.running import ServeError

__all__ = ["WebArcade"]

log = logging.getLogger("termarcade.serve")

_MESSAGE_TYPES = frozenset({"stdin", "resize", "ping", "blur", "focus"})
"""What textual-serve's page sends; anything else is dropped before textual-serve reads it."""

_LONGEST_KEY = 32
"""Characters in the longest escape sequence a key or mouse event sends (with room to spare)."""


class _CappedServer(Server):
    """textual-serve's server with the arcade's limits.

    Args:
        command: The shell command run for each browser tab.
        limits: Sessions at once (in all and per address) and the input rate.
        **kwargs: textual-serve's own arguments (host, port, title, public_url).
    """

    def __init__(self, command: str, *, limits: ServeLimits, **kwargs: Any) -> None:
        super().__init__(command, **kwargs)
        self.limits = limits
        self.active = 0
        self.per_address: Counter[str] = Counter()

    async def _make_app(self) -> web.Application:
        """textual-serve's routes, with ``/static/`` serving files only (no folder listings)."""
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        app.on_startup.append(self.on_startup)
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        address = request.remote or "?"
        refusal = self._refusal(address)
        if refusal:
            log.info("web session from %s refused: %s", address, refusal)
            websocket = web.WebSocketResponse()
            await websocket.prepare(request)
            await websocket.send_bytes(f"{refusal}\r\n".encode())
            await websocket.close()
            return websocket
        self.active += 1
        self.per_address[address] += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.active -= 1
            self.per_address[address] -= 1
            if self.per_address[address] <= 0:
                del self.per_address[address]

    def _refusal(self, address: str) -> str:
        """Why a new session from ``address`` may not start ("" when it may)."""
        limits = self.limits
        if self.active >= limits.max_sessions:
            return (
                f"The arcade is full ({limits.max_sessions} players). "
                "Please try again in a little while."
            )
        if self.per_address[address] >= limits.max_per_address:
            return f"Too many sessions from {address} ({limits.max_per_address} at most)."
        return ""

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        bucket = TokenBucket(self.limits.input_rate, self.limits.input_burst)
        await super()._process_messages(_Throttled(websocket, bucket), app_service)  # type: ignore[arg-type]


class _Throttled:
    """A page's websocket as textual-serve reads it, at the arcade's input rate.

    Each message costs its size in tokens; a ``stdin`` message bigger than the burst is passed
    on in pieces of at most the burst. While a message waits for its tokens nothing more is
    read from the page (TCP then holds the browser back), so a flood costs no memory. Messages
    textual-serve could not read (not JSON, an unknown type) are dropped, not left to raise.

    Args:
        websocket: The page's websocket.
        bucket: The session's rate limiter.
    """

    def __init__(self, websocket: web.WebSocketResponse, bucket: TokenBucket) -> None:
        self._websocket = websocket
        self._bucket = bucket

    def __getattr__(self, name: str) -> Any:
        return getattr(self._websocket, name)  # send_json (the page's pings) and the rest

    async def __aiter__(self) -> AsyncIterator[WSMessage]:
        async for message in self._websocket:
            if message.type != WSMsgType.TEXT:
                continue
            for piece in _pieces(message.data, int(self._bucket.burst)):
                cost = len(piece.data.encode())
                wait = self._bucket.wait_time(cost)
                if wait > 0:
                    await asyncio.sleep(wait)
                self._bucket.take(cost)
                yield piece


def _pieces(text: str, most: int) -> Iterator[WSMessage]:
    """A page's message as textual-serve may read it: well-formed, and keys in short pieces.

    Args:
        text: The message as sent.
        most: The most characters of keys in one piece (the burst).

    Yields:
        Messages (none for a malformed one).
    """
    try:
        envelope = json.loads(text)
    except ValueError:
        return
    if not (isinstance(envelope, list) and envelope and envelope[0] in _MESSAGE_TYPES):
        return
    if envelope[0] != "stdin":
        if envelope[0] != "resize" or _valid_size(envelope):
            yield WSMessage(WSMsgType.TEXT, text, None)
        return
    keys = envelope[1] if len(envelope) > 1 else None
    if not isinstance(keys, str):
        return
    for piece in _cut(keys, max(_LONGEST_KEY + 1, most)):
        yield WSMessage(WSMsgType.TEXT, json.dumps(["stdin", piece]), None)


def _cut(keys: str, most: int) -> Iterator[str]:
    """``keys`` in pieces of at most ``most`` characters, none ending inside a key's escape
    sequence (cut in two, an arrow key would read as Escape and two letters)."""
    start = 0
    while start < len(keys):
        end = min(len(keys), start + most)
        if end < len(keys):
            escape = keys.rfind("\x1b", max(start + 1, end - _LONGEST_KEY), end)
            end = escape if escape > start else end
        yield keys[start:end]
        start = end


def _valid_size(envelope: list[Any]) -> bool:
    """A ``resize`` message with whole-number width and height (textual-serve indexes them)."""
    size = envelope[1] if len(envelope) > 1 else None
    return isinstance(size, dict) and all(
        isinstance(size.get(key), int) and 0 < size[key] <= 1000 for key in ("width", "height")
    )


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
                "--memory-limit",
                str(limits.memory_limit),
            ]
        )

    def server(self) -> Server:
        """The textual-serve server (not started)."""
        return _CappedServer(
            self.command(),
            limits=self.limits,
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
