"""The store under real concurrency: many processes, locked files, damaged and read-only files.

Every test here runs real processes against a real file and then counts rows and files;
nothing is mocked. Each multi-process test has a hard deadline, so a hang fails the test
instead of blocking the suite.
"""

from __future__ import annotations

import json
import os
import select
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import tui
from tui.store import DB_FILENAME, Store

pytestmark = pytest.mark.skipif(os.name != "posix", reason="uses POSIX processes and select")

ROOT = Path(tui.__file__).resolve().parent.parent
"""The tree whose ``tui`` this test imported: child processes import the same code."""

ROUNDS = 16
"""Stores opened at once per test: each round is a fresh race."""

ROUND_GAP_S = 0.2
"""Seconds between rounds (each round's opening and writes take well under that)."""

DEADLINE_S = 60.0
"""Upper bound for one multi-process run (normally a few seconds): a hang fails, not blocks."""

GARBAGE = b"These bytes are not an SQLite database; they must never be lost.\n" * 100

SESSION = r"""
import json, sys, time
worker, writes, gap, dbs = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
from tui.store import Store
print("ready", flush=True)
start = float(sys.stdin.readline())  # The start time, the same for every session.
reports = []
for index, db in enumerate(dbs):
    # Round `index`: every session opens this round's store at the same wall-clock moment.
    time.sleep(max(0.0, start + index * gap - time.time()))
    store = Store(db)
    for step in range(writes):
        store.mark_solved("g", "p", f"w{worker}-{step}", moves=step)
    report = {"path": store.path and str(store.path), "warnings": store.warnings[:]}
    store.close()
    report["warnings_at_close"] = store.warnings[len(report["warnings"]):]
    reports.append(report)
print(json.dumps(reports), flush=True)
"""

HOLDER = r"""
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("PRAGMA locking_mode = EXCLUSIVE")  # Readers are locked out too, not only writers.
conn.execute("BEGIN EXCLUSIVE")
conn.execute("UPDATE solved SET moves = moves")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("COMMIT")
conn.close()
"""


def _env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def _readline(process: subprocess.Popen[str], deadline: float) -> str:
    """Read one line from a child, failing (not hanging) if none comes before ``deadline``."""
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], max(0.0, deadline - time.monotonic()))
    assert ready, "a child process did not answer in time"
    return process.stdout.readline().strip()


@contextmanager
def _children(argvs: list[list[str]]) -> Iterator[list[subprocess.Popen[str]]]:
    """Start Python children; kill any still running when the block ends."""
    processes = [
        subprocess.Popen(
            [sys.executable, *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
        )
        for argv in argvs
    ]
    try:
        yield processes
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
            process.communicate()


def run_sessions(dbs: list[Path], sessions: int, writes: int) -> list[list[dict]]:
    """Run ``sessions`` processes that, round after round, all open the same store at the same
    moment (round ``i`` uses ``dbs[i]``) and each write ``writes`` solved levels.

    One process start serves many rounds: a race that strikes one round in three is then caught
    almost surely, in a few seconds.

    Returns:
        For each round, the reports of the sessions (database path, warnings). Fails on any
        crash, error output or hang.
    """
    deadline = time.monotonic() + DEADLINE_S
    argvs = [
        ["-c", SESSION, str(worker), str(writes), str(ROUND_GAP_S), *map(str, dbs)]
        for worker in range(sessions)
    ]
    with _children(argvs) as processes:
        for process in processes:
            assert _readline(process, deadline) == "ready"
        start = time.time() + 0.05
        for process in processes:  # Every child is waiting on stdin: release them together.
            assert process.stdin is not None
            process.stdin.write(f"{start}\n")
            process.stdin.flush()
        per_session = []
        for process in processes:
            out, err = process.communicate(timeout=max(0.1, deadline - time.monotonic()))
            assert process.returncode == 0 and not err, err
            per_session.append(json.loads(out))
    return [list(round_reports) for round_reports in zip(*per_session)]


def solved_rows(db: Path) -> set[str]:
    """Every solved level in the file, read with plain sqlite3."""
    conn = sqlite3.connect(db)
    try:
        return {row[0] for row in conn.execute("SELECT level FROM solved")}
    finally:
        conn.close()


def aside_files(directory: Path) -> list[Path]:
    """The set-aside database files (not their -wal/-shm companions)."""
    return sorted(
        path
        for path in directory.iterdir()
        if path.name.startswith(DB_FILENAME + ".corrupt-")
        and not path.name.endswith(("-wal", "-shm", "-journal"))
    )


def expected_levels(sessions: int, writes: int) -> set[str]:
    return {f"w{worker}-{step}" for worker in range(sessions) for step in range(writes)}


# -- many sessions at once ------------------------------------------------------------------


def round_dirs(parent: Path) -> list[Path]:
    """A fresh directory per round."""
    dirs = [parent / f"round{index}" for index in range(ROUNDS)]
    for directory in dirs:
        directory.mkdir()
    return dirs


@pytest.mark.slow
def test_eight_sessions_create_a_fresh_store_and_lose_nothing(tmp_path: Path) -> None:
    """Regression: one process judged the half-created database corrupt and moved it aside."""
    dirs = round_dirs(tmp_path)
    rounds = run_sessions([directory / DB_FILENAME for directory in dirs], sessions=8, writes=5)
    for directory, reports in zip(dirs, rounds):
        db = directory / DB_FILENAME
        assert [report["path"] for report in reports] == [str(db)] * 8  # Nobody in memory.
        assert all(report["warnings"] == [] for report in reports), reports
        assert all(report["warnings_at_close"] == [] for report in reports), reports
        assert aside_files(directory) == []
        assert solved_rows(db) == expected_levels(8, 5)  # All 40 acknowledged writes of the round.


@pytest.mark.slow
def test_eight_sessions_on_a_corrupt_store_set_it_aside_once(tmp_path: Path) -> None:
    """Regression: sessions raced to set it aside, died, fell back to memory, overwrote it."""
    dirs = round_dirs(tmp_path)
    for directory in dirs:
        (directory / DB_FILENAME).write_bytes(GARBAGE)
    rounds = run_sessions([directory / DB_FILENAME for directory in dirs], sessions=8, writes=5)
    for directory, reports in zip(dirs, rounds):
        db = directory / DB_FILENAME
        asides = aside_files(directory)
        assert len(asides) == 1, asides
        assert asides[0].read_bytes() == GARBAGE  # The damaged bytes, exactly, preserved.
        assert [report["path"] for report in reports] == [str(db)] * 8  # Nobody in memory.
        warnings = [message for report in reports for message in report["warnings"]]
        assert sum("moved to" in message for message in warnings) == 1, warnings
        assert all("could not be read" in message for message in warnings), warnings
        assert solved_rows(db) == expected_levels(8, 5)  # All 40 writes, in the new file.


# -- a database locked by someone else ------------------------------------------------------


def _fill(db: Path, levels: int) -> None:
    with Store(db) as store:
        for index in range(levels):
            store.mark_solved("g", "p", f"l{index}", moves=index)
        assert not store.warnings


@pytest.mark.slow
def test_database_locked_longer_than_the_busy_timeout_is_not_set_aside(data_dir: Path) -> None:
    """Regression: a healthy database locked for over 5 s was set aside (0 of 300 visible)."""
    db = data_dir / DB_FILENAME
    _fill(db, 300)
    deadline = time.monotonic() + DEADLINE_S
    with _children([["-c", HOLDER, str(db), "6"]]) as (holder,):
        assert _readline(holder, deadline) == "locked"
        started = time.monotonic()
        store = Store(db)
        waited = time.monotonic() - started
        holder.communicate(timeout=DEADLINE_S)
        assert holder.returncode == 0
    try:
        assert waited > 4  # It really was locked out while opening.
        assert store.path == db and aside_files(data_dir) == []
        assert len(store.solved_levels("g", "p")) == 300
        store.mark_solved("g", "p", "after")
        assert "after" in store.solved_levels("g", "p") and not store.warnings
    finally:
        store.close()
    assert len(solved_rows(db)) == 301


def test_store_still_locked_after_opening_keeps_the_file_and_writes_later(data_dir: Path) -> None:
    """Out of patience while locked: stay on disk (not memory), queue writes, write them later."""
    db = data_dir / DB_FILENAME
    _fill(db, 3)
    deadline = time.monotonic() + DEADLINE_S
    with _children([["-c", HOLDER, str(db), "1.5"]]) as (holder,):
        assert _readline(holder, deadline) == "locked"
        store = Store(db, busy_timeout=0.2)
        assert store.path == db  # Not memory.
        assert len(store.warnings) == 1 and "busy" in store.warnings[0]
        store.save_game("g", "slot", {"moves": 3})  # Queued while the file is locked.
        store.mark_solved("g", "p", "queued")
        assert len(store.warnings) == 1  # One warning per busy spell, not one per write.
        holder.communicate(timeout=DEADLINE_S)
        assert holder.returncode == 0
    store.set_setting("theme", "dark")  # The file is free: the queue is written first, in order.
    assert store.load_game("g", "slot") == {"moves": 3}
    store.close()
    assert solved_rows(db) == {"l0", "l1", "l2", "queued"}
    assert aside_files(data_dir) == []
    with Store(db) as again:
        assert again.get_setting("theme") == "dark" and not again.warnings


def test_queued_writes_are_written_at_close(data_dir: Path) -> None:
    db = data_dir / DB_FILENAME
    _fill(db, 1)
    deadline = time.monotonic() + DEADLINE_S
    with _children([["-c", HOLDER, str(db), "1"]]) as (holder,):
        assert _readline(holder, deadline) == "locked"
        store = Store(db, busy_timeout=0.2)
        store.mark_solved("g", "p", "at-close")
        holder.communicate(timeout=DEADLINE_S)
    store.close()
    assert "at-close" in solved_rows(db)
    assert not any("could not be saved" in message for message in store.warnings)


# -- damaged files, read-only directories ---------------------------------------------------


@contextmanager
def read_only_directory(directory: Path) -> Iterator[None]:
    """Make ``directory`` unwritable for this process for real (chmod, or chattr +i as root)."""
    if os.geteuid() == 0:
        result = subprocess.run(["chattr", "+i", str(directory)], capture_output=True)
        if result.returncode != 0:
            pytest.skip("running as root without chattr: cannot make a read-only directory")
        undo = ["chattr", "-i", str(directory)]
    else:
        directory.chmod(0o555)
        undo = ["chmod", "755", str(directory)]
    try:
        probe = directory / "probe"
        try:
            probe.write_bytes(b"")
        except OSError:
            pass
        else:  # pragma: no cover - file system ignores permissions
            probe.unlink()
            pytest.skip("this file system ignores directory permissions")
        yield
    finally:
        subprocess.run(undo, check=True)


def test_corrupt_database_in_a_read_only_directory(data_dir: Path) -> None:
    """Regression: the unguarded rename crashed the app (exit 70)."""
    db = data_dir / DB_FILENAME
    db.write_bytes(GARBAGE)
    with read_only_directory(data_dir):
        store = Store(db)
        assert store.path is None  # Memory for this session ...
        assert len(store.warnings) == 1
        assert "could not be moved aside" in store.warnings[0]
        assert "left untouched" in store.warnings[0]
        store.mark_solved("g", "p", "l")  # ... which works.
        assert store.solved_levels("g", "p") == {"l"}
        store.close()
    assert db.read_bytes() == GARBAGE
    assert sorted(path.name for path in data_dir.iterdir()) == [DB_FILENAME]


def test_missing_database_in_a_read_only_directory(data_dir: Path) -> None:
    """No file and no way to create one: memory, a warning, no crash."""
    with read_only_directory(data_dir):
        store = Store(data_dir / DB_FILENAME)
        assert store.path is None and "session only" in store.warnings[0]
        store.close()
    assert list(data_dir.iterdir()) == []


def test_set_aside_never_overwrites_an_earlier_aside_file(data_dir: Path) -> None:
    db = data_dir / DB_FILENAME
    now = time.time()
    earlier = {}
    for offset in range(-1, 4):  # Whatever second the set-aside happens in, its name is taken.
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now + offset))
        path = data_dir / f"{DB_FILENAME}.corrupt-{stamp}"
        path.write_bytes(f"older damaged file {offset}".encode())
        earlier[path] = path.read_bytes()
    db.write_bytes(GARBAGE)
    with Store(db) as store:
        assert store.path == db and "moved to" in store.warnings[0]
    for path, content in earlier.items():
        assert path.read_bytes() == content
    new = [path for path in aside_files(data_dir) if path not in earlier]
    assert len(new) == 1 and new[0].read_bytes() == GARBAGE


def _damage_data_pages(db: Path) -> bytes:
    """Write a database with 300 saves, then smash its data pages (not the schema page).

    Returns:
        The damaged file's bytes.
    """
    with Store(db) as store:
        for index in range(300):
            store.save_game("g", f"slot{index}", {"data": "x" * 300})
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    raw = bytearray(db.read_bytes())
    for page in range(2, len(raw) // 4096):
        raw[page * 4096 + 8 : page * 4096 + 64] = b"\xa5" * 56
    db.write_bytes(bytes(raw))
    return bytes(raw)


def test_damaged_database_found_by_quick_check_is_set_aside(data_dir: Path) -> None:
    """A database with a schema whose pages are damaged: quick_check says so, it moves aside."""
    db = data_dir / DB_FILENAME
    damaged = _damage_data_pages(db)
    with Store(db) as store:
        assert store.path == db
        assert any("moved to" in message for message in store.warnings), store.warnings
        assert store.saved_slots("g") == []
    asides = aside_files(data_dir)
    assert len(asides) == 1 and asides[0].read_bytes() == damaged


READER = r"""
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN")
conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchall()  # A read transaction, held open.
print("reading", flush=True)
sys.stdin.readline()
conn.close()
"""


def test_damaged_database_still_open_elsewhere_moves_aside_with_its_wal(data_dir: Path) -> None:
    """An older session still has the damaged file open: its -wal and -shm go with the file,
    so the new database never starts with the old one's write-ahead log."""
    db = data_dir / DB_FILENAME
    damaged = _damage_data_pages(db)
    deadline = time.monotonic() + DEADLINE_S
    with _children([["-c", READER, str(db)]]) as (reader,):
        assert _readline(reader, deadline) == "reading"
        assert (data_dir / (DB_FILENAME + "-wal")).exists()
        with Store(db) as store:
            assert store.path == db and "moved to" in store.warnings[0]
            store.mark_solved("g", "p", "new")
        assert reader.stdin is not None
        reader.stdin.write("done\n")
        reader.stdin.flush()
        reader.communicate(timeout=DEADLINE_S)
    (aside,) = aside_files(data_dir)
    assert aside.read_bytes() == damaged
    assert {path.name for path in data_dir.iterdir()} >= {aside.name + "-wal", aside.name + "-shm"}
    assert solved_rows(db) == {"new"}


# -- many sessions recording results, on both backends ----------------------------------------

RECORDER = r"""
import json, sys, time
worker, count, target = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
from tui.store import Store
print("ready", flush=True)
start = float(sys.stdin.readline())
time.sleep(max(0.0, start - time.time()))
# Two sessions per player (one player in two terminals): their game scores race on one row.
store = Store(target, user=f"player{worker % (int(sys.argv[4]))}")
for step in range(count):
    store.record_result("g", "pack:p", f"l{step % 3}", moves=1 + (worker + step) % 7,
                        seconds=worker + step / 10)
    store.record_game_score("2048", "4x4-standard", f"run{step % 4}", worker * 1000 + step,
                            moves=step, seconds=float(step))
    store.mark_solved("g", "pack:q", f"w{worker}-{step}")
warnings = store.warnings[:]
store.close()
print(json.dumps(warnings + store.warnings[len(warnings):]), flush=True)
"""


def run_recorders(target: str, sessions: int, players: int, count: int) -> None:
    """Start ``sessions`` processes at the same moment, each recording ``count`` wins and
    game scores; fail on any crash, error output, warning or hang."""
    deadline = time.monotonic() + DEADLINE_S
    argvs = [
        ["-c", RECORDER, str(worker), str(count), target, str(players)]
        for worker in range(sessions)
    ]
    with _children(argvs) as processes:
        for process in processes:
            assert _readline(process, deadline) == "ready"
        start = time.time() + 0.1
        for process in processes:
            assert process.stdin is not None
            process.stdin.write(f"{start}\n")
            process.stdin.flush()
        for process in processes:
            out, err = process.communicate(timeout=max(0.1, deadline - time.monotonic()))
            assert process.returncode == 0 and not err, err
            assert json.loads(out) == [], out


def rows(backend: str, target: str, sql: str) -> list[tuple]:
    """Rows of a query, read with the driver directly (not through the store)."""
    if backend == "postgresql":
        from tests.postgres_server import admin_connect

        with admin_connect(target) as conn:
            return [tuple(row) for row in conn.execute(sql).fetchall()]
    conn = sqlite3.connect(target)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[str, str]:
    """A fresh store every session of a test opens: (backend, URL or path)."""
    if request.param == "postgresql":
        from tests.postgres_server import postgres_url

        return "postgresql", postgres_url(request)
    return "sqlite", str(tmp_path / DB_FILENAME)


@pytest.mark.slow
def test_concurrent_sessions_recording_scores_lose_none(shared_store: tuple[str, str]) -> None:
    """Eight sessions (four players, two sessions each) open a *fresh* store at the same moment
    and record wins, game scores and solved levels: every row arrives, no best is lowered."""
    backend, target = shared_store
    sessions, players, count = 8, 4, 24
    run_recorders(target, sessions, players, count)

    results = rows(backend, target, 'SELECT "user", level, moves, seconds FROM results')
    assert len(results) == sessions * count  # Every win, none lost, none doubled.
    expected_results = sorted(
        (f"player{worker % players}", f"l{step % 3}", 1 + (worker + step) % 7, worker + step / 10)
        for worker in range(sessions)
        for step in range(count)
    )
    assert sorted(results) == expected_results
    solved = rows(backend, target, "SELECT COUNT(*) FROM solved WHERE pack = 'pack:q'")
    assert solved == [(sessions * count,)]

    # Each game's best: the maximum over both sessions of its player, whatever the order.
    scores = {
        (user, run): score
        for user, run, score in rows(backend, target, 'SELECT "user", run, score FROM game_scores')
    }
    expected_scores: dict[tuple[str, str], int] = {}
    for worker in range(sessions):
        for step in range(count):
            key = (f"player{worker % players}", f"run{step % 4}")
            expected_scores[key] = max(expected_scores.get(key, 0), worker * 1000 + step)
    assert scores == expected_scores

    # The boards agree with the rows.
    with Store(target) as reader:
        board = reader.level_board("g", "pack:p", "l0", limit=100)
        assert {entry.user for entry in board} == {f"player{p}" for p in range(players)}
        top = reader.score_board("2048", "4x4-standard", limit=100)
        assert [entry.score for entry in top] == sorted(
            {
                user: max(s for (u, _), s in expected_scores.items() if u == user)
                for user, _ in expected_scores
            }.values(),
            reverse=True,
        )
        assert not reader.warnings
