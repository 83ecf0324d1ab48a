"""Connections that have not opened a session yet are bounded (per address and in total),
refused before the SSH handshake past the bound, timed out quickly, and logged per burst."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.serve.helpers import TIMEOUT, connect, open_player, running_arcade
from tui.serve.limits import (
    Bursts,
    ConnectionGate,
    ServeLimits,
    address_group,
    connection_bounds,
)
from tui.serve.running import QuietLog

BANNER = b"SSH-2.0-termarcade"


async def _idle_socket(port: int) -> tuple[bytes, float]:
    """Connect, send nothing, read until the server closes: what it sent, and when it closed
    (seconds after connecting)."""
    start = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    received = b""
    try:
        while chunk := await reader.read(4096):
            received += chunk
    except ConnectionResetError:  # a refused socket may be reset: it closed all the same
        pass
    finally:
        writer.close()
    return received, time.monotonic() - start


def _second_loopback() -> bool:
    """Whether 127.0.0.2 is a local address (Linux: all of 127/8; macOS: only 127.0.0.1)."""
    try:
        with socket.socket() as probe:
            probe.bind(("127.0.0.2", 0))
    except OSError:
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not _second_loopback(), reason="127.0.0.2 is not a local address here")
async def test_an_idle_flood_from_one_address_keeps_nobody_else_out(caplog) -> None:
    """50 idle sockets from 127.0.0.1 with a per-address bound of 5: 5 get the SSH banner and
    are closed at the login timeout, the others are closed at once without a byte; a player from
    127.0.0.2 meanwhile plays; the log has one or two lines for the refusals, not 45."""
    caplog.set_level(logging.INFO, logger="termarcade")
    logging.getLogger("termarcade").propagate = True
    async with running_arcade(max_connections_per_address=5, login_timeout=6) as (_, port):
        flood = [asyncio.create_task(_idle_socket(port)) for _ in range(50)]
        refused = lambda: [t.result() for t in flood if t.done() and not t.result()[0]]  # noqa: E731
        deadline = time.monotonic() + TIMEOUT
        while len(refused()) < 45 and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        # Another address is not held back by the flood's pending connections.
        async with await connect(port, "bob", local_addr=("127.0.0.2", 0)) as conn:
            player = await open_player(conn)
            await player.wait_for("Pick a game")
        results = await asyncio.wait_for(asyncio.gather(*flood), TIMEOUT)
        admitted = [seconds for data, seconds in results if data.startswith(BANNER)]
        # Every socket was closed by the server: the refused at once, the others idle.
        assert len(admitted) + len(refused()) == 50
        assert 5 <= len(admitted) <= 10, admitted  # another may enter as a slot frees up
        assert all(seconds >= 5 for seconds in admitted), admitted  # the 6 s login timeout
        summary = re.compile(r"refused (\d+) connections from 127\.0\.0\.1 .*per-address bound 5")
        await _wait_for_log(caplog, summary)
    records = [r.getMessage() for r in caplog.records if r.name == "termarcade.serve"]
    counts = [int(m.group(1)) for m in map(summary.search, records) if m]
    assert sum(counts) == len(refused()) >= 40
    refusal_lines = [line for line in records if "refus" in line]
    assert len(refusal_lines) <= 3, refusal_lines  # not one per socket
    assert len(records) < 50, records  # the whole log of 51 connections


async def _wait_for_log(caplog: pytest.LogCaptureFixture, pattern: re.Pattern[str]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not pattern.search(caplog.text):
        assert time.monotonic() < deadline, f"no {pattern.pattern!r} in:\n{caplog.text}"
        await asyncio.sleep(0.05)


@pytest.mark.slow
async def test_a_connection_with_a_session_no_longer_counts() -> None:
    """With a bound of one waiting connection per address, two players from one address both
    play: a connection leaves the count when it opens its session."""
    async with (
        running_arcade(max_connections_per_address=1) as (_, port),
        await connect(port, "ann") as first,
    ):
        player = await open_player(first)
        await player.wait_for("Pick a game")
        async with await connect(port, "ben") as second:
            other = await open_player(second)
            await other.wait_for("Pick a game")


@pytest.mark.slow
async def test_a_connection_whose_session_ended_must_open_another_or_go() -> None:
    """A connection that stays open after its session ended counts as waiting again: it is
    closed after the login timeout (it used to stay for good once its first check had passed)."""
    async with running_arcade(login_timeout=2) as (_, port):
        conn = await connect(port, "fay")
        opened = time.monotonic()
        player = await open_player(conn)
        await player.wait_for("Pick a game")
        while time.monotonic() - opened < 6:  # past the check 2 × 2 + 1 s after connecting
            await asyncio.sleep(0.1)
        player.press("ctrl+q")
        await asyncio.wait_for(player.closed.wait(), TIMEOUT)
        await asyncio.wait_for(conn.wait_closed(), TIMEOUT)


_WITH_64_FILES = (
    "import resource, runpy; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)); "
    "runpy.run_module('tui', run_name='__main__', alter_sys=True)"
)
"""``python -m tui`` with an open-file limit of 64, soft and hard (so it cannot raise it)."""


@pytest.mark.slow
async def test_out_of_file_descriptors_the_server_logs_a_line_and_goes_on(tmp_path: Path) -> None:
    """A real ``serve --ssh`` with 64 open files and no connection bound to save it: a flood
    of idle sockets exhausts its descriptors. It logs that once (no traceback per accept),
    and once the flood is gone a player gets in."""
    server = subprocess.Popen(
        [sys.executable, "-c", _WITH_64_FILES, "--data-dir", str(tmp_path), "serve", "--ssh"]
        + ["--port", "0", "--names", "open", "--login-timeout", "20"]
        + ["--max-connections", "1000", "--max-connections-per-address", "1000"],
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=dict(os.environ),
    )
    lines: list[str] = []
    loop = asyncio.get_running_loop()
    reading = loop.run_in_executor(None, _read_lines, server, lines)
    flood: list[asyncio.StreamWriter] = []
    try:
        port = int(await _wait_for_line(lines, r"SSH arcade on 127\.0\.0\.1:(\d+)", server))
        # The options reach the server (it logs them) and the limit could not be raised.
        await _wait_for_line(
            lines, r"1000 connections \(1000 per address\), login within 20s", server
        )
        await _wait_for_line(lines, r"; 64 open files", server)
        for _ in range(90):  # more than 64 files, fewer than the listening backlog (100)
            flood.append((await asyncio.open_connection("127.0.0.1", port))[1])
        await _wait_for_line(lines, r"cannot accept connections: Too many open files", server)
        for writer in flood:
            writer.close()
        flood.clear()
        async with await connect(port, "carol", login_timeout=TIMEOUT) as conn:
            player = await open_player(conn)
            await player.wait_for("Pick a game")
    finally:
        for writer in flood:
            writer.close()
        server.send_signal(signal.SIGINT)
        await asyncio.wait_for(reading, TIMEOUT)
        server.wait(TIMEOUT)
    text = "\n".join(lines)
    assert "Traceback" not in text and "out of system resource" not in text, text
    reported = [line for line in lines if "Too many open files" in line]
    assert reported, text  # the flood is reported ...
    assert len(reported) <= 4, text  # ... in a line at a burst's start and one with its count


def _read_lines(server: subprocess.Popen[bytes], lines: list[str]) -> None:
    assert server.stderr is not None
    for raw in server.stderr:
        lines.append(raw.decode("utf-8", "replace").rstrip("\n"))


async def _wait_for_line(lines: list[str], pattern: str, server: subprocess.Popen[bytes]) -> str:
    """Wait until the server logs a line matching ``pattern``; its first group (or the line)."""
    deadline = time.monotonic() + TIMEOUT
    while True:
        for line in list(lines):
            if match := re.search(pattern, line):
                return match.group(1) if match.groups() else line
        assert server.poll() is None, "the server stopped:\n" + "\n".join(lines)
        assert time.monotonic() < deadline, f"no {pattern!r} in:\n" + "\n".join(lines)
        await asyncio.sleep(0.05)


# -- the book-keeping, with a clock of our own --------------------------------------------------


def test_the_gate_bounds_each_address_and_the_total() -> None:
    refusals: list[tuple[str, str]] = []
    gate = ConnectionGate(2, 3, lambda address, why: refusals.append((address, why)))
    assert gate.enter("a") and gate.enter("a")
    assert not gate.enter("a")
    assert gate.enter("b")
    assert not gate.enter("c")  # 3 in all
    assert refusals == [("a", "per-address bound 2"), ("c", "total bound 3")]
    gate.leave("a")
    assert gate.waiting == 2 and gate.enter("c") and not gate.enter("d")


def test_an_ipv6_network_counts_as_one_address() -> None:
    assert address_group("192.0.2.7") == "192.0.2.7"
    assert address_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_group("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert address_group("fe80::1%eth0") == "fe80::/64"
    refusals: list[str] = []
    gate = ConnectionGate(2, 100, lambda address, why: refusals.append(address))
    assert gate.enter("2001:db8:1:2::1") and gate.enter("2001:db8:1:2::2")
    assert not gate.enter("2001:db8:1:2:ffff::3")
    assert gate.enter("2001:db8:1:3::1")  # another /64
    assert refusals == ["2001:db8:1:2::/64"]
    gate.leave("2001:db8:1:2::1")
    assert gate.enter("2001:db8:1:2::9")


def test_the_bounds_follow_the_open_file_limit_and_the_sessions_per_address() -> None:
    assert connection_bounds(ServeLimits(), 1024) == (10, 256)
    assert connection_bounds(ServeLimits(), 400) == (10, 100)
    assert connection_bounds(ServeLimits(), 1_000_000) == (10, 256)
    assert connection_bounds(ServeLimits(max_per_address=25), 1024) == (25, 256)
    limits = ServeLimits(max_per_address=25, max_connections_per_address=3, max_connections=7)
    assert connection_bounds(limits, 1024) == (3, 7)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[tuple[float, object, tuple[object, ...]]] = []

    def call_later(self, delay: float, callback: object, *args: object) -> None:
        self.timers.append((self.now + delay, callback, args))

    def advance(self, seconds: float) -> None:
        """Move time on, running the timers that fall due (in order)."""
        end = self.now + seconds
        while due := sorted((t for t in self.timers if t[0] <= end), key=lambda t: t[0]):
            self.timers.remove(due[0])
            self.now = due[0][0]
            due[0][1](*due[0][2])  # type: ignore[operator]
        self.now = end


def test_a_flood_is_one_line_at_its_start_and_one_with_its_count(caplog) -> None:
    caplog.set_level(logging.INFO, logger="termarcade")
    logging.getLogger("termarcade").propagate = True
    clock = _Clock()
    quiet = QuietLog(clock.call_later, Bursts(quiet=2, longest=30, clock=lambda: clock.now))
    for _ in range(1093):  # 1,093 sockets in 17 s, one every 1/64 s
        quiet.refused("192.0.2.7", "per-address bound 10")
        clock.advance(1 / 64)
    quiet.refused("198.51.100.1", "total bound 256")  # alone: its first line says it all
    clock.advance(10)
    lines = [r.getMessage() for r in caplog.records]
    assert lines == [
        "refusing connections from 192.0.2.7 (per-address bound 10)",
        "refusing connections from 198.51.100.1 (total bound 256)",
        "refused 1093 connections from 192.0.2.7 over 17 s (per-address bound 10)",
    ]


def test_a_flood_that_never_stops_is_reported_every_30_seconds(caplog) -> None:
    caplog.set_level(logging.INFO, logger="termarcade")
    logging.getLogger("termarcade").propagate = True
    clock = _Clock()
    quiet = QuietLog(clock.call_later, Bursts(quiet=2, longest=30, clock=lambda: clock.now))
    for _ in range(1200):  # 10 a second for two minutes
        quiet.accept_failed("Too many open files")
        clock.advance(0.1)
    clock.advance(10)
    lines = [r.getMessage() for r in caplog.records]
    counts = [int(line.split()[2]) for line in lines if line.startswith("accepting failed")]
    assert 4 <= len(counts) <= 5 and len(lines) == 2 * len(counts), lines
    assert sum(counts) == 1200


def test_a_burst_ends_after_a_quiet_spell() -> None:
    clock = [0.0]
    bursts = Bursts(quiet=2, longest=30, clock=lambda: clock[0])
    assert bursts.add("a", "x")
    clock[0] = 1.5
    assert not bursts.add("a", "x")
    assert bursts.due("a", "x") == pytest.approx(2.0)  # two seconds after the last
    clock[0] = 3.5
    assert bursts.due("a", "x") == 0
    assert bursts.take("a", "x") == (2, 1.5)
    assert bursts.add("a", "x")  # a new burst


def test_the_documented_systemd_unit_fences_the_server() -> None:
    """docs/remote.md's unit: descriptors, memory, a read-only system but for the data folder
    given to --data-dir, a private /tmp, no new privileges."""
    page = (Path(__file__).parents[2] / "docs" / "remote.md").read_text(encoding="utf-8")
    unit = re.search(r"```ini\n(.*?)```", page, re.S)
    assert unit is not None
    settings: dict[str, str] = {}
    for line in unit.group(1).splitlines():
        key, equals, value = line.strip().partition("=")
        if equals and not key.startswith("#"):
            settings[key] = value
    assert int(settings["LimitNOFILE"]) >= 4096
    assert settings["MemoryMax"]
    assert settings["ProtectSystem"] == "strict"
    assert settings["PrivateTmp"] == settings["NoNewPrivileges"] == "yes"
    data = re.search(r"--data-dir (\S+)", settings["ExecStart"])
    assert data is not None and settings["ReadWritePaths"] == data.group(1)
