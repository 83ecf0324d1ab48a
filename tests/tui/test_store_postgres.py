"""The PostgreSQL backend's own concerns, against a real server (skipped when none starts).

Reconnecting after a dropped connection, queueing while the server cannot be reached and
writing the queue once it answers, refusing a newer schema, the same schema as SQLite,
values SQLite takes for granted (64-bit scores, exact timestamps), schemas as separate
arcades, passwords kept out of messages, and psycopg missing.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.postgres_server import SERVER, admin_connect, postgres_url
from tui.store import ENV_STORE, SCHEMA_VERSION, Store, redact

pytestmark = pytest.mark.postgres


@pytest.fixture
def url(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh schema on the test server (the test is skipped when there is none)."""
    monkeypatch.setenv(ENV_STORE, "")  # Restored after the test, even if --store sets it.
    return postgres_url(request)


def _backend_pid(store: Store) -> int:
    assert store._db is not None
    return int(store._db.conn.info.backend_pid)


def test_a_dropped_connection_is_reopened_without_a_word(url: str) -> None:
    """The server ends the session's connection (restart, idle timeout, admin): the next call
    reconnects and runs; nothing is lost and the player sees no warning."""
    store = Store(url)
    store.record_result("g", "pack:p", "l", moves=3, seconds=1.0)
    for call in (
        lambda: store.solved_levels("g", "pack:p"),  # a read
        lambda: store.record_result("g", "pack:p", "l", moves=2, seconds=2.0),  # a queued write
        lambda: store.record_score("2048", "4x4", 10),  # a write that answers
    ):
        old = _backend_pid(store)
        with admin_connect() as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (old,))
        call()
        assert _backend_pid(store) != old
    assert store.best_score("2048", "4x4") == 10
    assert [entry.moves for entry in store.level_board("g", "pack:p", "l")] == [2]
    assert store.warnings == []
    store.close()
    with admin_connect(url) as conn:
        assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 2


def test_an_unreachable_server_queues_changes_and_writes_them_when_it_answers(url: str) -> None:
    """No server behind the URL at first: the session starts (no crash, no memory store),
    queues its changes, and writes them, in order, once the server answers."""
    socket_dir = SERVER.socket_dir
    if socket_dir is None:
        pytest.skip("needs the server this run started (its socket)")
    with tempfile.TemporaryDirectory(prefix="ta-pg-off-") as hideout:
        # The URL points at an empty directory: "connection refused", as for a stopped server.
        moved = url.replace(f"host={quote(str(socket_dir))}", f"host={quote(hideout)}")
        assert moved != url
        store = Store(moved, busy_timeout=0.2)
        assert store.backend == "postgresql" and store._db is None
        assert len(store.warnings) == 1
        assert "Cannot reach the PostgreSQL store" in store.warnings[0]
        store.mark_solved("g", "p", "first")
        store.save_game("g", "slot", {"moves": 1})
        store.record_result("g", "p", "second", moves=4, seconds=3.0)
        assert store.solved_levels("g", "p") == set()  # Reads give "nothing there" meanwhile.
        assert store.record_score("2048", "4x4", 5) is False  # Needs an answer now: refused.
        # The server "comes back": its socket appears where the URL points.
        socket = f".s.PGSQL.{SERVER.port}"
        os.symlink(socket_dir / socket, Path(hideout) / socket)
        store._retry_at = 0.0  # Do not wait out the reconnect interval in a test.
        store.set_setting("theme", "dark")  # The queue is written first, then this.
        assert store.solved_levels("g", "p") == {"first", "second"}
        assert store.load_game("g", "slot") == {"moves": 1}
        assert store.get_setting("theme") == "dark"
        store.close()
    assert not any("could not be saved" in message for message in store.warnings)


def test_a_server_gone_mid_session_queues_changes_without_stalling(url: str) -> None:
    """The connection drops and the server cannot be reached: changes are queued (one
    warning), calls do not wait on the server again before the retry interval, and the queue
    is written, in order, once the server answers."""
    socket_dir = SERVER.socket_dir
    if socket_dir is None:
        pytest.skip("needs the server this run started (its socket)")
    socket = f".s.PGSQL.{SERVER.port}"
    with tempfile.TemporaryDirectory(prefix="ta-pg-via-") as via:
        link = Path(via) / socket
        os.symlink(socket_dir / socket, link)  # The store reaches the server through here.
        store = Store(url.replace(f"host={quote(str(socket_dir))}", f"host={quote(via)}"))
        store.mark_solved("g", "p", "before")
        link.unlink()  # The server "goes away" ...
        with admin_connect() as admin:  # ... and the store's connection with it.
            admin.execute("SELECT pg_terminate_backend(%s)", (_backend_pid(store),))
        store.mark_solved("g", "p", "while-away")
        assert len(store.warnings) == 1 and "Cannot reach" in store.warnings[0]
        started = time.monotonic()
        for index in range(20):
            store.save_game("g", f"slot{index}", {"n": index})
            assert store.solved_levels("g", "p") == set()  # Nothing to read meanwhile.
        # No call waited for the server (a wait is the store's patience, seconds each: 40 calls
        # would take minutes); the bound is loose so that a busy machine cannot fail it.
        assert time.monotonic() - started < 5
        assert len(store.warnings) == 1
        os.symlink(socket_dir / socket, link)  # Back.
        store._retry_at = 0.0  # Do not wait out the retry interval in a test.
        assert store.solved_levels("g", "p") == {"before"}  # Reads do not wait for the queue.
        store.mark_solved("g", "p", "after")  # A write sends the queue first, in order.
        assert store.solved_levels("g", "p") == {"before", "while-away", "after"}
        assert len(store.saves("g")) == 20
        store.close()
    assert len(store.warnings) == 1


def test_changes_still_queued_at_close_are_reported() -> None:
    with tempfile.TemporaryDirectory(prefix="ta-pg-off-") as hideout:
        store = Store(f"postgresql://nobody@/nowhere?host={quote(hideout)}", busy_timeout=0.2)
        store.mark_solved("g", "p", "l")
        store.close()
    assert "1 change(s) could not be saved" in store.warnings[-1]


def test_a_newer_schema_is_left_untouched(url: str) -> None:
    Store(url).close()
    with admin_connect(url) as conn:
        conn.execute("UPDATE termarcade_schema SET version = %s", (SCHEMA_VERSION + 5,))
    with Store(url) as store:
        assert store.backend == "memory"
        assert "newer termarcade" in store.warnings[0] and "left untouched" in store.warnings[0]
        store.mark_solved("g", "p", "l")  # The session works in memory.
        assert store.solved_levels("g", "p") == {"l"}
    with admin_connect(url) as conn:
        version = conn.execute("SELECT version FROM termarcade_schema").fetchone()[0]
        assert version == SCHEMA_VERSION + 5
        assert conn.execute("SELECT COUNT(*) FROM solved").fetchone()[0] == 0


def test_a_wrong_database_name_is_reported_in_the_server_s_words(url: str) -> None:
    """libpq gives connection failures no code: a wrong name is retried like a server that is
    down, and the warning quotes the server so an operator sees what is wrong."""
    wrong = url.replace("@/postgres?", "@/no_such_database?")
    assert wrong != url
    with Store(wrong, busy_timeout=0.2) as store:
        assert store.backend == "postgresql" and store._db is None
        (warning,) = store.warnings
        assert 'database "no_such_database" does not exist' in warning


def test_a_refusal_after_connecting_sends_the_session_to_memory(url: str) -> None:
    """Connected, but the server refuses to create the tables (no privilege: a code that will
    not change by waiting): memory for the session, a warning, nothing left half-built."""
    role = "player_without_create"
    with admin_connect(url) as conn:
        conn.execute(f"DROP ROLE IF EXISTS {role}")
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT USAGE ON SCHEMA {current_schema(url)} TO {role}")
    try:
        limited = url.replace("termarcade@", f"{role}@")
        started = time.monotonic()
        with Store(limited, busy_timeout=5) as store:
            # Not retried for the whole patience (2 x busy_timeout = 10 s; a busy machine's
            # slow connect must not look like a retry).
            assert time.monotonic() - started < 9
            assert store.backend == "memory"
            assert "Cannot use the PostgreSQL store" in store.warnings[0]
            assert "permission denied" in store.warnings[0]
        with admin_connect(url) as conn:
            assert conn.execute("SELECT to_regclass('solved')").fetchone()[0] is None
    finally:
        with admin_connect(url) as conn:
            conn.execute(f"DROP OWNED BY {role}")
            conn.execute(f"DROP ROLE {role}")


def current_schema(url: str) -> str:
    with admin_connect(url) as conn:
        return str(conn.execute("SELECT current_schema()").fetchone()[0])


def test_passwords_never_appear_in_messages() -> None:
    secret = "s3cr3t-pw"
    with tempfile.TemporaryDirectory(prefix="ta-pg-off-") as hideout:
        store = Store(f"postgresql://player:{secret}@/db?host={quote(hideout)}", busy_timeout=0.2)
        store.mark_solved("g", "p", "l")
        store.close()
    assert store.warnings and not any(secret in message for message in store.warnings)
    assert secret not in store.location
    assert redact(f"postgresql://u:{secret}@h:5432/db?password={secret}&sslmode=require") == (
        "postgresql://u:***@h:5432/db?password=***&sslmode=require"
    )


def test_without_psycopg_the_session_runs_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # "import psycopg" now fails.
    with Store("postgresql://player@/db") as store:
        assert store.backend == "memory"
        assert "needs psycopg" in store.warnings[0]
        assert "termarcade[postgres]" in store.warnings[0]
        store.mark_solved("g", "p", "l")
        assert store.solved_levels("g", "p") == {"l"}


def _columns_sqlite(path: Path) -> set[tuple[str, str]]:
    conn = sqlite3.connect(path)
    try:
        tables = [
            name
            for (name,) in conn.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        return {
            (table, row[1])
            for table in tables
            for row in conn.execute(f"PRAGMA table_info({table})")
        }
    finally:
        conn.close()


def test_both_backends_build_the_same_schema(url: str, tmp_path: Path) -> None:
    Store(url).close()
    Store(tmp_path / "same.sqlite3").close()
    with admin_connect(url) as conn:
        columns = {
            (table, column)
            for table, column in conn.execute(
                "SELECT table_name, column_name FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name <> 'termarcade_schema'"
            ).fetchall()
        }
    assert columns == _columns_sqlite(tmp_path / "same.sqlite3")
    assert {table for table, _ in columns} == {
        "solved",
        "saves",
        "scores",
        "settings",
        "my_levels",
        "results",
        "game_scores",
    }


def test_big_scores_and_exact_times(url: str) -> None:
    """What SQLite gives for free: 64-bit integers (a 2048 score on a big board passes 2**31)
    and double-precision times (PostgreSQL's REAL would round a timestamp to minutes)."""
    with Store(url) as store:
        assert store.record_score("2048", "8x8-standard", 3 * 2**33)
        assert store.best_score("2048", "8x8-standard") == 3 * 2**33
        store.record_game_score("2048", "8x8-standard", "run", 2**40, moves=10, seconds=1.25)
        assert store.score_board("2048", "8x8-standard")[0].score == 2**40
        store.record_result("g", "p", "l", moves=1, seconds=123.456789)
        (entry,) = store.level_board("g", "p", "l")
        assert entry.seconds == 123.456789
        before = time.time()
        store.save_game("g", "s", {})
        saved = store.saves("g")[0].saved_at
        assert abs(saved - before) < 1  # A float4 would be off by up to a couple of minutes.
        assert store.warnings == []


def test_schemas_are_separate_arcades(request: pytest.FixtureRequest, url: str) -> None:
    other = postgres_url(request)
    with Store(url) as first, Store(other) as second:
        first.record_result("g", "p", "l", moves=1, seconds=1.0)
        assert second.level_board("g", "p", "l") == []
        assert second.boards("g") == [] and first.boards("g") == [("p", "l")]


def test_store_option_reaches_postgresql(url: str) -> None:
    from click.testing import CliRunner

    from tui.cli import main

    result = CliRunner().invoke(main, ["--store", url, "keymap", "app.help", "f2"])
    assert result.exit_code == 0, result.output
    with admin_connect(url) as conn:
        rows = conn.execute('SELECT "user", key, value FROM settings').fetchall()
    assert rows == [("", "keymap", '{"app.help":"f2"}')]
