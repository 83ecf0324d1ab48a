"""Benchmark: the SSH arcade under load, on the loopback interface only.

Starts the real server (``termarcade serve --ssh`` in its own process, a throw-away data
directory, limits raised so the bench is not turned away), then holds 10, 50 and 100 player
sessions opened by asyncssh clients in this process, and at each level reports:

* sessions held (every one has seen the home screen) and how long they took to start;
* memory per session: the PSS of each session process (its private pages plus its share of the
  pages it shares copy-on-write with the fork server), the fork server's own PSS (paid once),
  and the server process's growth per session;
* keypress-to-screen latency: every player presses a key once a second at a random moment for
  ``--rounds`` seconds; the time from sending the key to the first byte of the redrawn screen
  coming back. The baseline is one player alone (the first line), so the ratio says what the
  crowd costs.

Bounded: at most ``--max-sessions`` (100, hard cap 200) sessions, opened ``--parallel`` at a
time, and the whole run stops after ``--max-seconds`` (default 900) with what it has. Linux
only (memory comes from /proc).

``--fair`` measures fair sharing instead: ``--heavy`` sessions (4) open 2048 and start its
autoplay (the expectimax AI thinks without a break) while ``--players`` others (3) press keys
on the home screen. It reports those players' p95 key-to-screen time unloaded (the heavy
sessions open but idle) and loaded, and the ratio, twice in the same run: with the session's
background threads at the loop's priority (``TERMARCADE_BACKGROUND_NICE=0``: the baseline)
and at the default +10 (``tui.workers``). The goal is a loaded/unloaded ratio of 1.5 or less.
``--cpus N`` pins the server and its sessions to N CPUs, so that the load contends for them
whatever the machine's size.

Usage: python bench/ssh_load.py [--levels 10,50,100] [--rounds 5] [--quick] [--json]
       python bench/ssh_load.py --fair [--heavy 4] [--players 3] [--rounds 15] [--cpus N]
                                     [--repeat 2] [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import re
import signal
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import asyncssh

HARD_CAP = 200
KEYS = (b"\x1b[B", b"\x1b[A")  # down, up: moves the highlight on the home screen


class Client(asyncssh.SSHClientSession):
    """A player that only watches for bytes (no terminal emulation: it would cost more CPU
    than the server it measures)."""

    def __init__(self) -> None:
        self.seen = bytearray()
        self.home = asyncio.Event()
        self.response = asyncio.Event()
        self.chan: Any = None
        self.watching = False
        """Keep the output after the home screen (to wait for a later screen)."""

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.response.set()
        if not self.home.is_set():
            self.seen += data
            if b"Pick a game" in self.seen:
                self.home.set()
                self.seen.clear()
        elif self.watching:
            self.seen += data

    async def wait_for(self, wanted: bytes, timeout: float) -> None:
        """Wait until ``wanted`` was drawn since the last call."""
        deadline = time.monotonic() + timeout
        while wanted not in self.seen:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{wanted!r} never came")
            self.response.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.response.wait(), 0.5)
        self.seen.clear()


async def open_session(port: int, number: int, timeout: float) -> tuple[Any, Client, float]:
    started = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"load{number}",
        known_hosts=None,
        client_keys=None,
        agent_path=None,
        config=None,
    )
    _, session = await conn.create_session(
        Client, term_type="xterm-256color", term_size=(80, 24), encoding=None
    )
    client = cast(Client, session)  # create_session made it from Client
    await asyncio.wait_for(client.home.wait(), timeout)
    await asyncio.sleep(0.3)  # let the first frame finish before measuring anything
    return conn, client, time.perf_counter() - started


async def press_and_time(client: Client, key: bytes, timeout: float) -> float | None:
    """Seconds from sending a key to the first byte of the answer (None: no answer)."""
    client.response.clear()
    sent = time.perf_counter()
    client.chan.write(key)
    try:
        await asyncio.wait_for(client.response.wait(), timeout)
    except TimeoutError:
        return None
    answered = time.perf_counter() - sent
    await asyncio.sleep(0.05)  # the rest of the frame
    return answered


async def latency_rounds(clients: list[Client], rounds: int) -> tuple[list[float], int]:
    """Every client presses a key once per second at a random moment, ``rounds`` times."""
    samples: list[float] = []
    lost = 0

    async def player(client: Client, offset: int) -> None:
        nonlocal lost
        for round_ in range(rounds):
            await asyncio.sleep(random.random() * 0.9)
            took = await press_and_time(client, KEYS[(round_ + offset) % 2], 10.0)
            if took is None:
                lost += 1
            else:
                samples.append(took)
            await asyncio.sleep(max(0.0, 1.0 - took if took else 0.0))

    await asyncio.gather(*(player(client, number) for number, client in enumerate(clients)))
    return samples, lost


def pss_kib(pid: int) -> int | None:
    """A process's proportional set size (KiB), from /proc."""
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    found = re.search(r"^Pss:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else None


def rss_kib(pid: int) -> int | None:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    found = re.search(r"^VmRSS:\s+(\d+) kB", text, re.M)
    return int(found.group(1)) if found else None


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))]


class Server:
    """``termarcade serve --ssh`` in its own process; reads its log for session pids."""

    def __init__(self, data_dir: str, env: dict[str, str] | None = None, cpus: int = 0) -> None:
        self.data_dir = data_dir
        self.env = env or {}
        self.cpus = cpus
        """Run the server and its sessions on the first this many CPUs (0: on any)."""
        self.process: Any = None
        self.port = 0
        self.session_pids: dict[str, int] = {}
        self._reader: asyncio.Task[None] | None = None

    async def start(self, max_sessions: int) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        env = {**os.environ, "TERMARCADE_DATA_DIR": self.data_dir, **self.env}
        self.process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tui",
            "serve",
            "--ssh",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--max-sessions",
            str(max_sessions + 5),
            "--max-per-address",
            str(max_sessions + 5),
            "--idle-timeout",
            "0",
            "--cpu-limit",
            "0",
            "--names",  # the bench's players log in without keys, under names of their own
            "open",
            stderr=asyncio.subprocess.PIPE,
            env=env,
            preexec_fn=self._pin if self.cpus else None,
        )
        ready = asyncio.Event()

        async def read_log() -> None:
            assert self.process.stderr is not None
            async for raw in self.process.stderr:
                line = raw.decode(errors="replace")
                if "SSH arcade on" in line:
                    ready.set()
                found = re.search(r"session \d+ user '([^']+)' from .* pid (\d+)", line)
                if found:
                    self.session_pids[found.group(1)] = int(found.group(2))

        self._reader = asyncio.create_task(read_log())
        await asyncio.wait_for(ready.wait(), 120)

    def _pin(self) -> None:
        os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[: self.cpus]))

    def fork_server_pids(self) -> list[int]:
        """The fork server: the server's child running multiprocessing's forkserver."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == self.process.pid and b"forkserver" in cmdline:
                found.append(int(entry.name))
        return found

    async def stop(self) -> None:
        if self.process and self.process.returncode is None:
            self.process.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(self.process.wait(), 30)
            except TimeoutError:
                self.process.kill()
                await self.process.wait()
        if self._reader is not None:
            self._reader.cancel()


async def run(
    levels: list[int], rounds: int, parallel: int, max_seconds: float, as_json: bool
) -> None:
    deadline = time.monotonic() + max_seconds
    with tempfile.TemporaryDirectory(prefix="termarcade-bench-") as data_dir:
        server = Server(data_dir)
        await server.start(max(levels))
        held: list[tuple[Any, Client, float]] = []
        baseline: float | None = None
        try:
            for level in [1] + levels:
                gate = asyncio.Semaphore(parallel)

                async def one(
                    number: int, gate: asyncio.Semaphore = gate
                ) -> tuple[Any, Client, float]:
                    async with gate:
                        return await open_session(server.port, number, 120.0)

                wanted = range(len(held), level)
                if time.monotonic() > deadline:
                    print(f"stopped: --max-seconds reached before {level} sessions")
                    break
                results = await asyncio.gather(*(one(n) for n in wanted), return_exceptions=True)
                failed = [r for r in results if isinstance(r, BaseException)]
                held += [r for r in results if not isinstance(r, BaseException)]
                await asyncio.sleep(1.0)
                report = measure(server, held, level, failed)
                samples, lost = await latency_rounds([client for _, client, _ in held], rounds)
                report.update(latency(samples, lost, baseline))
                if level == 1:
                    baseline = report["p95_ms"]
                emit(report, as_json)
        finally:
            for conn, _, _ in held:
                conn.close()
            await server.stop()


async def open_2048(client: Client, timeout: float) -> None:
    """From the home screen into 2048 (its row in the registry's order)."""
    from core import registry

    row = [info.id for info in registry.games()].index("2048")
    client.watching = True
    client.seen.clear()
    client.chan.write(KEYS[0] * row + b"\r")
    await client.wait_for(b"Moves", timeout)


async def fair(
    heavy: int, players: int, rounds: int, as_json: bool, cpus: int = 0, repeat: int = 1
) -> list[dict[str, Any]]:
    """The fair-sharing comparison: the same load with the background threads at the loop's
    priority (``off``) and lowered (``on``), each on a fresh server, alternating ``repeat``
    times (a shared machine's load drifts); then each mode's samples pooled."""
    pooled: dict[str, dict[str, list[float]]] = {}
    reports = []
    for _ in range(repeat):
        for mode, nice in (("off", "0"), ("on", "10")):
            env = {"TERMARCADE_BACKGROUND_NICE": nice}  # 10: tui.workers.BACKGROUND_NICE
            with tempfile.TemporaryDirectory(prefix="termarcade-bench-") as data_dir:
                server = Server(data_dir, env, cpus)
                await server.start(heavy + players)
                try:
                    samples = await fair_round(server, heavy, players, rounds)
                finally:
                    await server.stop()
            into = pooled.setdefault(mode, {})
            for name, values in samples.items():
                into.setdefault(name, []).extend(values)
            report = fair_report(mode, samples, heavy, players, cpus)
            emit_fair(report, as_json)
            reports.append(report)
    if repeat > 1:
        for mode, samples in pooled.items():
            report = fair_report(mode, samples, heavy, players, cpus, pooled=True)
            emit_fair(report, as_json)
            reports.append(report)
    return reports


async def fair_round(
    server: Server, heavy: int, players: int, rounds: int
) -> dict[str, list[float]]:
    """One server: the players' key times without and with the autoplay load (seconds), the
    keys lost, and the CPUs the autoplaying sessions used meanwhile."""
    held = [await open_session(server.port, number, 120.0) for number in range(heavy + players)]
    try:
        workers = [client for _, client, _ in held[:heavy]]
        watched = [client for _, client, _ in held[heavy:]]
        for client in workers:
            await open_2048(client, 60.0)
        await asyncio.sleep(1.0)
        quiet, quiet_lost = await latency_rounds(watched, rounds)
        for client in workers:
            client.chan.write(b"p")  # autoplay on
        await asyncio.sleep(2.0)  # let it reach full speed
        pids = [server.session_pids.get(f"load{number}") for number in range(heavy)]
        before, started = cpu_seconds(pids), time.perf_counter()
        loaded, loaded_lost = await latency_rounds(watched, rounds)
        busy = (cpu_seconds(pids) - before) / (time.perf_counter() - started)
        for client in workers:
            client.chan.write(b"p")  # and off
    finally:
        for conn, _, _ in held:
            conn.close()
    return {
        "quiet": quiet,
        "loaded": loaded,
        "lost": [float(quiet_lost + loaded_lost)],
        "busy": [busy],
    }


def fair_report(
    mode: str,
    samples: dict[str, list[float]],
    heavy: int,
    players: int,
    cpus: int,
    pooled: bool = False,
) -> dict[str, Any]:
    quiet, loaded = samples["quiet"], samples["loaded"]
    quiet_p95 = percentile(quiet, 0.95) * 1000 if quiet else float("nan")
    loaded_p95 = percentile(loaded, 0.95) * 1000 if loaded else float("nan")
    return {
        "background_nice": mode,
        "pooled": pooled,
        "server_cpus": cpus or os.cpu_count(),
        "heavy": heavy,
        "players": players,
        "keys": len(quiet) + len(loaded),
        "lost": int(sum(samples["lost"])),
        "unloaded_p95_ms": round(quiet_p95, 1),
        "loaded_p95_ms": round(loaded_p95, 1),
        "unloaded_p50_ms": round(percentile(quiet, 0.5) * 1000, 1) if quiet else None,
        "loaded_p50_ms": round(percentile(loaded, 0.5) * 1000, 1) if loaded else None,
        "ratio_p95": round(loaded_p95 / quiet_p95, 2) if quiet_p95 else None,
        "autoplay_cpus": round(statistics.mean(samples["busy"]), 2),
    }


def cpu_seconds(pids: list[int | None]) -> float:
    """CPU seconds the processes used so far (the autoplaying sessions: proof of load)."""
    from tui.serve.ledger import process_cpu_seconds

    return sum(process_cpu_seconds(pid) or 0.0 for pid in pids if pid)


def emit_fair(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report), flush=True)
        return
    print(
        f"{'pooled ' if report['pooled'] else ''}"
        f"background nice {report['background_nice']:>3} on {report['server_cpus']} CPUs: "
        f"{report['heavy']} autoplaying, "
        f"{report['players']} players, keys={report['keys']} lost={report['lost']}  "
        f"p95 unloaded={report['unloaded_p95_ms']}ms loaded={report['loaded_p95_ms']}ms  "
        f"(p50 {report['unloaded_p50_ms']}/{report['loaded_p50_ms']}ms)  "
        f"ratio={report['ratio_p95']}x  autoplay used {report['autoplay_cpus']} CPUs",
        flush=True,
    )


def measure(
    server: Server, held: list[tuple[Any, Client, float]], level: int, failed: list[BaseException]
) -> dict[str, Any]:
    pids = [server.session_pids.get(f"load{n}") for n in range(len(held))]
    pss = [value for value in (pss_kib(pid) for pid in pids if pid) if value]
    fork_pss = sum(pss_kib(pid) or 0 for pid in server.fork_server_pids())
    starts = [took for _, _, took in held]
    return {
        "sessions": level,
        "held": len(held),
        "failed": len(failed),
        "start_p50_s": round(statistics.median(starts), 2),
        "start_p95_s": round(percentile(starts, 0.95), 2),
        "pss_per_session_mib": round(statistics.mean(pss) / 1024, 1) if pss else None,
        "fork_server_pss_mib": round(fork_pss / 1024, 1),
        "server_rss_mib": round((rss_kib(server.process.pid) or 0) / 1024, 1),
    }


def latency(samples: list[float], lost: int, baseline: float | None) -> dict[str, Any]:
    if not samples:
        return {"keys": 0, "lost": lost}
    p95 = percentile(samples, 0.95) * 1000
    return {
        "keys": len(samples),
        "lost": lost,
        "p50_ms": round(percentile(samples, 0.5) * 1000, 1),
        "p95_ms": round(p95, 1),
        "max_ms": round(max(samples) * 1000, 1),
        "ratio_p95_vs_alone": round(p95 / baseline, 2) if baseline else 1.0,
    }


def emit(report: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(report))
        return
    print(
        f"{report['sessions']:>4} sessions  held={report['held']} failed={report['failed']}  "
        f"start p50={report['start_p50_s']}s p95={report['start_p95_s']}s  "
        f"PSS/session={report['pss_per_session_mib']} MiB  "
        f"fork server={report['fork_server_pss_mib']} MiB  server RSS={report['server_rss_mib']} MiB  "
        f"keys={report.get('keys')} lost={report.get('lost')}  "
        f"p50={report.get('p50_ms')}ms p95={report.get('p95_ms')}ms max={report.get('max_ms')}ms  "
        f"ratio={report.get('ratio_p95_vs_alone')}x",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="10,50,100", help="session counts (default 10,50,100)")
    parser.add_argument(
        "--rounds", type=int, help="key presses per player per level (5; --fair: 15 per phase)"
    )
    parser.add_argument("--parallel", type=int, default=8, help="sessions opened at once")
    parser.add_argument("--max-seconds", type=float, default=900.0, help="stop after this long")
    parser.add_argument("--quick", action="store_true", help="10 sessions, 3 rounds")
    parser.add_argument("--json", action="store_true", help="JSON lines")
    parser.add_argument("--fair", action="store_true", help="autoplay load vs other players")
    parser.add_argument("--heavy", type=int, default=4, help="--fair: autoplaying sessions")
    parser.add_argument("--players", type=int, default=3, help="--fair: measured players")
    parser.add_argument(
        "--cpus", type=int, default=0, help="--fair: pin the server to this many CPUs (0: all)"
    )
    parser.add_argument("--repeat", type=int, default=2, help="--fair: off/on runs (2)")
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        parser.error("this benchmark reads /proc: Linux only")
    if args.fair:
        if not (0 <= args.heavy <= 16 and 1 <= args.players <= 16):
            parser.error("--heavy 0-16, --players 1-16")
        rounds = 8 if args.quick else (args.rounds or 15)
        if not args.json:
            print(
                f"# {platform.python_implementation()} {platform.python_version()}, "
                f"{os.cpu_count()} CPUs; loopback SSH; key-to-screen of the players"
            )
        repeat = 1 if args.quick else max(1, min(args.repeat, 10))
        asyncio.run(fair(args.heavy, args.players, rounds, args.json, max(0, args.cpus), repeat))
        return
    levels = [10] if args.quick else sorted({int(part) for part in args.levels.split(",")})
    rounds = 3 if args.quick else (args.rounds or 5)
    if not levels or min(levels) < 1 or max(levels) > HARD_CAP:
        parser.error(f"levels must be between 1 and {HARD_CAP}")
    if not args.json:
        print(
            f"# {platform.python_implementation()} {platform.python_version()}, "
            f"{os.cpu_count()} CPUs, {platform.machine()}; loopback SSH, server in its own process"
        )
    asyncio.run(run(levels, rounds, args.parallel, args.max_seconds, args.json))


if __name__ == "__main__":
    main()
