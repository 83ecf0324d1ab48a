"""Fair sharing of the host: CPU budgets that follow a player's name and address, and
background work that runs below the interactive loop's priority."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tui.serve.arcade import Arcade, clock_time
from tui.serve.ledger import CpuLedger, process_cpu_seconds, set_soft_cpu_limit
from tui.serve.limits import ServeLimits
from tui.workers import ENV_BACKGROUND_NICE, lower_this_thread

LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux only")

START = 1_700_000_000.0
"""2023-11-14 22:13:20 UTC: the injected clock's start."""


class Clock:
    """A wall clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def play(ledger: CpuLedger, session_id: int, user: str, address: str, seconds: float) -> None:
    """A whole session that used ``seconds`` of CPU."""
    ledger.start(session_id, user, address)
    ledger.seen(session_id, seconds)
    ledger.finish(session_id)


# -- the ledger ------------------------------------------------------------------------------


def test_a_name_keeps_its_budget_across_reconnects_from_anywhere() -> None:
    ledger = CpuLedger(100, 400, clock=Clock())
    assert ledger.grant("alice", "10.0.0.1") == 100
    play(ledger, 1, "alice", "10.0.0.1", 70)
    # A new connection, even from another address, gets what the name has left.
    assert ledger.grant("alice", "10.0.0.2") == 30
    play(ledger, 2, "alice", "10.0.0.2", 25)
    assert ledger.grant("alice", "192.168.1.9") == 0  # 5 s left: below the 10 s worth a start
    assert ledger.grant("bob", "10.0.0.2") == 100  # other players keep theirs


def test_an_address_keeps_its_budget_whatever_the_names() -> None:
    ledger = CpuLedger(100, 150, clock=Clock())
    play(ledger, 1, "a1", "10.0.0.7", 90)
    play(ledger, 2, "a2", "10.0.0.7", 40)
    assert ledger.grant("a3", "10.0.0.7") == 20  # the address's 150 less 130
    assert ledger.grant("a2", "10.0.0.8") == 60  # the name's own remainder elsewhere
    play(ledger, 3, "a3", "10.0.0.7", 20)
    assert ledger.grant("fresh", "10.0.0.7") == 0


def test_a_spent_budget_comes_back_as_the_window_passes() -> None:
    clock = Clock()
    ledger = CpuLedger(100, 400, window=3600, clock=clock)
    play(ledger, 1, "alice", "10.0.0.1", 60)
    clock.now += 1200
    play(ledger, 2, "alice", "10.0.0.1", 35)
    assert ledger.grant("alice", "10.0.0.1") == 0
    # Back once the first session's 60 s leave the window, an hour after it ended.
    assert ledger.retry_at("alice", "10.0.0.1") == START + 3600
    clock.now = START + 3599
    assert ledger.grant("alice", "10.0.0.1") == 0
    clock.now = START + 3600
    assert ledger.grant("alice", "10.0.0.1") == 65
    clock.now = START + 1200 + 3600
    assert ledger.grant("alice", "10.0.0.1") == 100


def test_running_sessions_count_and_share_what_is_left() -> None:
    ledger = CpuLedger(100, 400, clock=Clock())
    ledger.start(1, "alice", "10.0.0.1")
    ledger.seen(1, 30)
    assert ledger.grant("alice", "10.0.0.2") == 70  # a running session's use counts
    assert ledger.limits() == {1: 100}  # alone: all of the name's budget
    ledger.start(2, "alice", "10.0.0.2")
    ledger.seen(2, 10)
    # 60 left to the name, shared: each may use what it used plus 30.
    assert ledger.limits() == {1: 60, 2: 40}
    ledger.finish(2)
    assert ledger.limits() == {1: 90}  # the second one's part comes back (less its use)


def test_cpu_time_only_grows_and_unreadable_readings_are_ignored() -> None:
    ledger = CpuLedger(100, 400, clock=Clock())
    ledger.start(1, "alice", "10.0.0.1")
    ledger.seen(1, 40)
    ledger.seen(1, None)
    ledger.seen(1, 12)
    assert ledger.finish(1) == 40


# -- the arcade ------------------------------------------------------------------------------


def ledger_arcade(clock: Clock, cpu_limit: float = 100) -> Arcade:
    arcade = Arcade(ServeLimits(cpu_limit=cpu_limit), data_dir="")
    assert arcade.ledger is not None
    arcade.ledger.clock = clock
    return arcade


def test_a_reconnect_starts_with_what_is_left_and_a_spent_name_is_refused() -> None:
    clock = Clock()
    arcade = ledger_arcade(clock)
    seat, _ = arcade.admit(1, "alice", "10.0.0.1")
    assert seat is not None
    assert arcade.spec(seat, "/dev/pts/9", "xterm", {}).cpu_limit == 100
    assert arcade.ledger is not None
    arcade.ledger.seen(1, 80)
    arcade.release(seat)
    again, _ = arcade.admit(2, "alice", "10.0.0.1")
    assert again is not None
    assert arcade.spec(again, "/dev/pts/9", "xterm", {}).cpu_limit == 20
    arcade.ledger.seen(2, 15)
    arcade.release(again)
    refused, why = arcade.admit(3, "alice", "10.0.0.3")
    assert refused is None
    # 95 s used: 85 must leave the window, which the first session's 80 alone cannot.
    back = clock_time(START + 3600)
    assert why == f"Your CPU time for this hour is used up; try again at {back}."
    assert back == "23:13 UTC"
    assert not arcade.seats


def test_a_session_ended_at_its_limit_is_charged_all_of_it() -> None:
    clock = Clock()
    arcade = ledger_arcade(clock, cpu_limit=50)
    seat, _ = arcade.admit(1, "greedy", "10.0.0.1")
    assert seat is not None
    arcade.spec(seat, "/dev/pts/9", "xterm", {})
    arcade.release(seat)  # never read: it ended between two readings
    message, status = arcade.ended(seat, 3, 12.0)  # exit status 3: at its CPU limit
    assert status == 1
    assert "your CPU time for this hour is used up; try again at 23:13 UTC" in message
    refused, _ = arcade.admit(2, "greedy", "10.0.0.2")
    assert refused is None


def test_no_cpu_limit_means_no_ledger() -> None:
    arcade = Arcade(ServeLimits(cpu_limit=0), data_dir="")
    assert arcade.ledger is None
    seat, _ = arcade.admit(1, "alice", "10.0.0.1")
    assert seat is not None
    assert arcade.spec(seat, "/dev/pts/9", "xterm", {}).cpu_limit == 0


# -- reading and limiting real processes -------------------------------------------------------

BUSY = "import time\nwhile True:\n    pass\n"


@LINUX
def test_a_lowered_soft_limit_stops_a_running_process() -> None:
    """What the server does to a session whose fair part shrank: the kernel's SIGXCPU."""
    child = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        deadline = time.monotonic() + 60
        used = process_cpu_seconds(child.pid)
        while (used or 0) < 0.3 and time.monotonic() < deadline:
            time.sleep(0.05)
            used = process_cpu_seconds(child.pid)
        assert used is not None and used >= 0.3
        assert set_soft_cpu_limit(child.pid, 1) == 1
        assert child.wait(timeout=120) == -24  # SIGXCPU: its default action ends it
    finally:
        child.kill()
        child.wait()
    assert process_cpu_seconds(child.pid) is None
    assert set_soft_cpu_limit(child.pid, 5) is None


@LINUX
def test_sessions_sharing_a_name_get_equal_parts_and_one_ending_gives_its_part_back() -> None:
    """The server's side of sharing, on two real processes standing in for sessions."""
    import resource

    arcade = ledger_arcade(Clock(), cpu_limit=100)
    first, _ = arcade.admit(1, "alice", "10.0.0.1")
    second, _ = arcade.admit(2, "alice", "10.0.0.2")
    assert first is not None and second is not None
    sleepers = [subprocess.Popen(["sleep", "60"]) for _ in range(2)]
    try:
        first.pid, second.pid = (sleeper.pid for sleeper in sleepers)
        arcade.share_cpu()
        for sleeper in sleepers:  # asleep, they used nothing: 50 s each
            assert resource.prlimit(sleeper.pid, resource.RLIMIT_CPU)[0] == 50
        arcade.release(second)
        assert resource.prlimit(sleepers[0].pid, resource.RLIMIT_CPU)[0] == 100
    finally:
        for sleeper in sleepers:
            sleeper.kill()
            sleeper.wait()


# -- background work below the interactive loop -------------------------------------------------


def nice_of(tid: int) -> int:
    """A thread's nice value, from /proc (field 19 of its stat)."""
    stat = Path(f"/proc/self/task/{tid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[16])


@LINUX
def test_lower_this_thread_lowers_only_the_calling_thread() -> None:
    seen: list[int] = []

    def work() -> None:
        lower_this_thread(3)
        seen.append(nice_of(threading.get_native_id()))

    main = nice_of(threading.get_native_id())
    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == [min(19, main + 3)]
    assert nice_of(threading.get_native_id()) == main


async def worker_and_loop_nice() -> tuple[int, int]:
    """Run a thread worker in a served app; return ``(its nice, the app loop's nice)``."""
    from tui.serve.child import ServedApp

    app = ServedApp("tester")
    async with app.run_test() as pilot:
        worker = app.run_worker(lambda: nice_of(threading.get_native_id()), thread=True)
        await worker.wait()
        await pilot.pause()
        assert isinstance(worker.result, int)
        return worker.result, nice_of(threading.get_native_id())


@LINUX
@pytest.mark.pilot
async def test_a_served_apps_thread_workers_run_ten_nice_levels_lower(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_BACKGROUND_NICE, raising=False)
    worker, loop = await worker_and_loop_nice()
    assert worker == min(19, loop + 10)


@LINUX
@pytest.mark.pilot
async def test_the_host_can_keep_background_work_at_the_loops_priority(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV_BACKGROUND_NICE, "0")
    worker, loop = await worker_and_loop_nice()
    assert worker == loop


# -- a real SSH arcade ---------------------------------------------------------------------------


def task_nices(pid: int) -> dict[int, int]:
    """Every thread of a process and its nice value."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            stat = (task / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        found[int(task.name)] = int(stat.rsplit(")", 1)[1].split()[16])
    return found


@LINUX
@pytest.mark.slow
async def test_autoplay_thinks_below_the_loop_and_a_spent_player_cannot_reconnect() -> None:
    """2048's autoplay (a hint worker per move) runs at the session's nice + 10; at the CPU
    limit the session ends, and the same name, from the same address, is refused."""
    from tests.serve.helpers import TIMEOUT, connect, open_2048, open_player, running_arcade

    async with (
        running_arcade(cpu_limit=2.0) as (arcade, port),
        await connect(port, "greedy") as conn,
    ):
        player = await open_player(conn)
        await open_2048(player)
        (seat,) = arcade.seats.values()
        assert seat.pid is not None
        player.press("p")
        loop_nice = task_nices(seat.pid)[seat.pid]
        nices: set[int] = set()
        deadline = time.monotonic() + TIMEOUT
        while not player.closed.is_set() and time.monotonic() < deadline:
            nices |= (
                set(task_nices(seat.pid).values()) if os.path.isdir(f"/proc/{seat.pid}") else set()
            )
            if min(19, loop_nice + 10) in nices:
                break
            await asyncio.sleep(0.02)
        assert min(19, loop_nice + 10) in nices, (loop_nice, nices)
        await asyncio.wait_for(player.closed.wait(), TIMEOUT)
        said = bytes(player.raw).decode("utf-8", "replace")
        assert "your CPU time for this hour is used up; try again at" in said
        async with await connect(port, "greedy") as again:
            late = await open_player(again)
            await asyncio.wait_for(late.closed.wait(), TIMEOUT)
            refusal = bytes(late.raw).decode("utf-8", "replace")
            assert "Your CPU time for this hour is used up; try again at" in refusal
            assert late.exit_status == 1
