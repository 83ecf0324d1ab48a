"""The SSH arcade played by real asyncssh clients on 127.0.0.1: the home screen, keys, resizes,
abrupt disconnects, per-player saves, and many players at once."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.postgres_server import BACKENDS, postgres_url
from tests.serve.helpers import (
    TIMEOUT,
    connect,
    open_2048,
    open_player,
    process_alive,
    running_arcade,
    wait_until,
)
from tui.store import ENV_STORE, Store

pytestmark = pytest.mark.slow


def _moves(text: str) -> int:
    """The move counter of the 2048 side panel."""
    found = re.search(r"Moves\s+(\d+)", text)
    assert found, text
    return int(found.group(1))


async def _settled_moves(player) -> int:
    """The move counter once the keys already sent have all been played (unchanged for 1 s)."""
    last, since = _moves(player.text()), asyncio.get_running_loop().time()
    while asyncio.get_running_loop().time() - since < 1.0:
        await asyncio.sleep(0.1)
        now = _moves(player.text())
        if now != last:
            last, since = now, asyncio.get_running_loop().time()
    return last


async def test_play_resize_and_vanish_without_hurting_the_neighbour() -> None:
    async with running_arcade() as (arcade, port):
        conn_a = await connect(port, "alice")
        alice = await open_player(conn_a)
        conn_b = await connect(port, "bob")
        bob = await open_player(conn_b, 100, 30)

        # The whole list, not just its title: a frame can arrive with the rows half drawn.
        home = await alice.wait_for(
            lambda text: "Pick a game" in text and "TermCraft" in text and "2048" in text
        )
        assert "TermCraft" in home and "2048" in home

        screen = await open_2048(alice)
        assert _moves(screen) == 0
        before = screen
        for key in ("left", "up", "right", "down", "left", "up"):
            alice.press(key)
        await alice.wait_for(lambda text: _moves(text) >= 2)
        assert alice.text() != before

        # A resize is followed: the footer moves to the new last line.
        alice.resize(100, 32)
        await alice.wait_for(
            lambda text: "palette" in text.splitlines()[-1] and len(text.splitlines()) == 32
        )

        # Alice vanishes without a goodbye; her process ends, Bob plays on.
        alice_pid = next(seat.pid for seat in arcade.seats.values() if seat.user == "alice")
        conn_a.abort()
        await wait_until(
            lambda: all(seat.user != "alice" for seat in arcade.seats.values()),
            TIMEOUT,
            lambda: "alice's seat to be released",
        )
        await wait_until(
            lambda: not process_alive(alice_pid), TIMEOUT, lambda: "alice's process to end"
        )
        await open_2048(bob)
        bob.press("left", "up", "right", "down")
        await bob.wait_for(lambda text: _moves(text) >= 1)
        conn_b.close()


async def test_quitting_restores_the_screen_after_resizes() -> None:
    async with running_arcade() as (_arcade, port):
        conn = await connect(port, "carol")
        player = await open_player(conn)
        await player.wait_for("Pick a game")
        for width, height in ((70, 22), (100, 30), (64, 20), (90, 28)):
            player.resize(width, height)
            await asyncio.sleep(0.1)
        await player.wait_for(lambda text: "palette" in text.splitlines()[-1])
        player.press("ctrl+q")
        await asyncio.wait_for(player.closed.wait(), TIMEOUT)
        assert player.exit_status == 0
        raw = bytes(player.raw)
        assert raw.count(b"\x1b[?1049h") == 1
        tail = raw[raw.rindex(b"\x1b[?1049l") + len(b"\x1b[?1049l") :]
        # Nothing is drawn after leaving the alternate screen: the shell gets its screen back.
        assert re.sub(rb"\x1b\[[0-9;?<>=]*[A-Za-z]", b"", tail).strip() == b""
        conn.close()


async def _play_2048_and_quit(port: int, name: str) -> int:
    """Play a few 2048 moves as ``name``, quit (the game is saved); returns the moves made."""
    conn = await connect(port, name)
    player = await open_player(conn)
    await open_2048(player)
    for key in ("left", "up", "right", "down", "left"):
        player.press(key)
    await player.wait_for(lambda text: _moves(text) >= 2)
    played = await _settled_moves(player)
    player.press("ctrl+q")
    await player.wait_for("Quit termarcade?")
    player.press("y")
    await asyncio.wait_for(player.closed.wait(), TIMEOUT)
    conn.close()
    return played


async def _moves_on_return(port: int, name: str) -> int:
    """Open 2048 as ``name`` and read the move counter of the game found there."""
    conn = await connect(port, name)
    player = await open_player(conn)
    screen = await open_2048(player)
    conn.close()
    return _moves(screen)


async def test_each_player_has_their_own_saves() -> None:
    async with running_arcade() as (_arcade, port):
        played = await _play_2048_and_quit(port, "dora")
        # Another player starts afresh ...
        assert await _moves_on_return(port, "eve") == 0
        # ... and Dora gets her game back.
        assert await _moves_on_return(port, "dora") == played


@pytest.fixture(params=BACKENDS)
def shared_store(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, tmp_path) -> str:
    """The store two arcade hosts share: one PostgreSQL database, or one SQLite file.

    The host's own ``TERMARCADE_STORE`` is cleared, so only what the arcade hands its
    sessions can make them meet.
    """
    monkeypatch.delenv(ENV_STORE, raising=False)
    if request.param == "postgresql":
        return postgres_url(request)
    return str(tmp_path / "shared.sqlite3")


async def test_two_hosts_share_players_saves(shared_store: str) -> None:
    async with (
        running_arcade(store=shared_store) as (_, port_a),
        running_arcade(store=shared_store) as (_, port_b),
    ):
        played = await _play_2048_and_quit(port_a, "dora")
        # Dora comes back through the other host and finds her game.
        assert await _moves_on_return(port_b, "dora") == played
    assert Store(shared_store, user="dora").saves("2048")
    assert not Store(shared_store, user="eve").saves("2048")


async def test_twenty_players_at_once() -> None:
    async with running_arcade(max_sessions=25, max_per_address=25) as (arcade, port):

        async def one(number: int):
            conn = await connect(port, f"player{number}")
            player = await open_player(conn)
            await player.wait_for("Pick a game")
            return conn, player

        players = await asyncio.gather(*(one(number) for number in range(20)))
        assert len(arcade.seats) == 20
        assert len({seat.pid for seat in arcade.seats.values()}) == 20
        await asyncio.gather(*(open_2048(player) for _, player in players))
        for conn, _ in players:
            conn.close()
        await wait_until(lambda: not arcade.seats, TIMEOUT, lambda: "every seat released")


async def test_the_players_terminal_decides_the_glyphs() -> None:
    from tui.terminal import _is_cp437_safe

    async with running_arcade() as (_arcade, port):
        async with await connect(port, "vera") as conn:
            console = await open_player(conn, term="linux")
            await open_2048(console)
            console.press("left", "up", "right", "down")
            await console.wait_for(lambda text: _moves(text) >= 1)
            console.press("ctrl+q")
            await console.wait_for("Quit termarcade?")  # a game is in progress
            console.press("y")
            await asyncio.wait_for(console.closed.wait(), TIMEOUT)
        text = bytes(console.raw).decode("utf-8")
        assert not {char for char in text if not _is_cp437_safe(char)}
        assert "│" in text  # box drawings survive on the console

        # OpenSSH: ssh -o SetEnv=TERMARCADE_GLYPHS=ascii ...
        async with await connect(port, "walt") as conn:
            old = await open_player(conn, env={"TERMARCADE_GLYPHS": "ascii"})
            await open_2048(old)
            old.press("ctrl+q")
            await asyncio.wait_for(old.closed.wait(), TIMEOUT)
        assert bytes(old.raw).isascii()
