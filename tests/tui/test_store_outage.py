"""Nothing is lost while the store cannot be written (issue 27, item 5).

A player plays 2048 in the app (Pilot); mid-game the store goes away: PostgreSQL is really
stopped (a private server of this module, so other tests keep theirs), or another process
holds the SQLite file locked (``BEGIN EXCLUSIVE``). The player is told at once, plays on,
and quits: the dialog says the moves are kept, not saved. When the store is back, a new
session finds every move (the journal left behind is replayed), or, for a session still
running, the kept moves are written and the player is told how many. Also: a login during
an outage tries the server once (it used to retry for 10 s), the journal never overwrites a
newer row nor replays a live session's file, and ``--store`` refuses a password.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from tests.postgres_server import PORT, PostgresServer, admin_connect
from tests.tui.helpers import start_2048
from tests.tui.test_2048_screen import still
from tui.app import ArcadeApp
from tui.cli import main
from tui.games.game2048.screen import Game2048Screen
from tui.modals.confirm import ConfirmModal
from tui.store import DB_FILENAME, ENV_PASSWORD, ENV_STORE, Store
from tui.store._journal import JOURNAL_DIR
from tui.unsaved import STORE_GONE

pytestmark = pytest.mark.pilot

ROOT = Path(__file__).resolve().parents[2]
MOVES = ["left", "up", "right", "down"]
DEADLINE_S = 60.0
"""Generous bound for waiting on a condition (never a pass/fail timing)."""


# -- a PostgreSQL server this module may stop and start ---------------------------------------


class _Server:
    """A private cluster (:class:`PostgresServer`) that a test can stop and start again."""

    def __init__(self) -> None:
        self.cluster = PostgresServer()
        self.base = self.cluster.ensure()  # Skips the module's PostgreSQL tests without one.

    def url(self) -> str:
        """A URL whose current schema is new and empty."""
        schema = f"t_{uuid.uuid4().hex[:16]}"
        with admin_connect(self.base) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
        return f"{self.base}&options={quote(f'-csearch_path={schema}', safe='')}"

    def stop(self) -> None:
        subprocess.run(
            [*self.cluster._pg_ctl, "-m", "fast", "-w", "stop"], check=True, capture_output=True
        )

    def start(self) -> None:
        root = self.cluster.socket_dir
        assert root is not None
        options = (
            f"-k {root} -c listen_addresses= -p {PORT} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        subprocess.run(
            [*self.cluster._pg_ctl, "-l", str(root / "server.log"), "-o", options]
            + ["-w", "-t", "120", "start"],
            check=True,
            capture_output=True,
            timeout=180,
        )


@pytest.fixture(scope="module")
def server() -> Iterator[_Server]:
    if os.environ.get("TERMARCADE_TEST_POSTGRES", "").strip():
        pytest.skip("stopping the server needs the private one (not an external server)")
    private = _Server()
    if private.cluster.socket_dir is None:
        pytest.skip("stopping the server needs the private one")
    yield private
    private.cluster.stop()


@pytest.fixture
def pg_url(server: _Server, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The store of ``Store()`` for this test: a fresh schema; the server runs again after."""
    url = server.url()
    monkeypatch.setenv(ENV_STORE, url)
    yield url
    if not (server.cluster.socket_dir / f".s.PGSQL.{PORT}").exists():  # type: ignore[operator]
        server.start()


# -- helpers ----------------------------------------------------------------------------------


def messages(app: ArcadeApp) -> list[str]:
    return [str(note.message) for note in app._notifications]


async def play(pilot: Any, screen: Game2048Screen, keys: list[str]) -> None:
    for key in keys:
        await pilot.press(key)
    await pilot.pause()


async def open_2048(app: ArcadeApp, pilot: Any) -> Game2048Screen:
    still(app)
    return await start_2048(pilot)


async def quit_while_down(app: ArcadeApp, pilot: Any) -> str:
    """Press ctrl+q, read the dialog's question, quit; return the question."""
    await pilot.press("ctrl+q")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, ConfirmModal)
    question = dialog.message
    await pilot.press("y")
    await pilot.pause()
    return question


def journals(data_dir: Path) -> list[Path]:
    return sorted((data_dir / JOURNAL_DIR).glob("*/*.jsonl"))


async def resumed_moves(slot: str) -> int:
    """Open the app again (a new session) and count the moves of the resumed game."""
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_2048(app, pilot)
        assert screen.ref is not None and screen.ref.slot == slot
        return int(screen.session.moves_made)


def assert_kept_question(question: str) -> None:
    assert "(it is saved)" not in question
    assert "not saved yet" in question and "journal" in question and "returns" in question


# -- PostgreSQL stopped mid-game ---------------------------------------------------------------


@pytest.mark.postgres
async def test_moves_played_while_postgresql_is_stopped_are_all_there_after_quitting(
    server: _Server, pg_url: str, data_dir: Path
) -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_2048(app, pilot)
        await play(pilot, screen, MOVES)
        before = screen.session.moves_made
        assert before > 0 and STORE_GONE not in messages(app)
        server.stop()
        await play(pilot, screen, MOVES * 2)
        played = screen.session.moves_made
        assert played > before
        assert STORE_GONE in messages(app)  # Told at once, during the game.
        assert screen.ref is not None
        slot = screen.ref.slot
        question = await quit_while_down(app, pilot)
    assert_kept_question(question)
    assert any("kept in" in warning for warning in app.store.warnings)
    [journal] = journals(data_dir)  # Left behind for the next session.
    assert stat.S_IMODE(journal.stat().st_mode) == 0o600
    assert stat.S_IMODE(journal.parent.stat().st_mode) == 0o700
    server.start()
    assert await resumed_moves(slot) == played  # All of them.
    assert journals(data_dir) == []  # Replayed, then removed.
    with Store(pg_url) as store:
        info = store.save_info("2048", slot)
        assert info is not None and info.summary is not None
        assert info.summary["moves"] == played


@pytest.mark.postgres
async def test_a_player_in_a_game_is_told_when_the_store_is_back_and_how_much_was_saved(
    server: _Server, pg_url: str, data_dir: Path
) -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_2048(app, pilot)
        await play(pilot, screen, MOVES)
        server.stop()
        await play(pilot, screen, MOVES)
        kept = app.store.status.kept
        assert kept > 0 and not app.store.status.reachable
        server.start()
        app.store.retry_now()  # Rather than wait out the back-off.
        back = f"Store back: {kept} changes saved."
        deadline = time.monotonic() + DEADLINE_S
        while back not in messages(app) and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert back in messages(app)
        assert app.store.status.reachable and app.store.status.kept == 0
        assert journals(data_dir) == [] or all(p.stat().st_size == 0 for p in journals(data_dir))
        played = screen.session.moves_made
        assert screen.ref is not None
        slot = screen.ref.slot
    with admin_connect(pg_url) as conn:
        (summary,) = conn.execute(
            "SELECT summary FROM saves WHERE game = '2048' AND slot = %s", (slot,)
        ).fetchone()
    assert json.loads(summary)["moves"] == played


@pytest.mark.postgres
def test_a_login_during_an_outage_tries_the_server_once(
    server: _Server, pg_url: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regression: opening retried an unreachable server for twice the busy timeout (10.5 s
    to the home screen); now one try, and the journal takes the changes meanwhile."""
    import psycopg

    tries = []
    real = psycopg.connect

    def counting(*args: Any, **kwargs: Any) -> Any:
        tries.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(psycopg, "connect", counting)
    server.stop()
    store = Store()
    assert len(tries) == 1 and store.backend == "postgresql"
    store.save_game("2048", "slot", {"moves": 3})
    assert store.load_game("2048", "slot") == {"moves": 3}  # This session sees its kept save.
    store.close()
    [journal] = journals(data_dir)
    assert json.loads(journal.read_text())["op"] == "save"


# -- SQLite locked by another process mid-game -------------------------------------------------

HOLDER = r"""
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
conn.execute("COMMIT")
"""


@pytest.fixture
def lock_holder(data_dir: Path) -> Iterator[Any]:
    """Start a process that locks the store's file when asked, and frees it when told."""
    processes: list[subprocess.Popen[str]] = []

    def lock() -> subprocess.Popen[str]:
        holder = subprocess.Popen(
            [sys.executable, "-c", HOLDER, str(data_dir / DB_FILENAME)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        processes.append(holder)
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        return holder

    yield lock
    for holder in processes:
        if holder.poll() is None:
            holder.kill()
        holder.communicate()


def release(holder: subprocess.Popen[str]) -> None:
    holder.communicate("\n", timeout=DEADLINE_S)
    assert holder.returncode == 0


async def test_moves_played_while_sqlite_is_locked_are_all_there_after_quitting(
    data_dir: Path, lock_holder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_STORE, "")
    app = ArcadeApp(store=Store(busy_timeout=0.3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_2048(app, pilot)
        await play(pilot, screen, MOVES)
        holder = lock_holder()
        await play(pilot, screen, MOVES * 2)
        played = screen.session.moves_made
        assert STORE_GONE in messages(app)
        assert screen.ref is not None
        slot = screen.ref.slot
        question = await quit_while_down(app, pilot)
    assert_kept_question(question)
    assert len(journals(data_dir)) == 1
    release(holder)
    assert await resumed_moves(slot) == played
    assert journals(data_dir) == []


async def test_a_lock_released_mid_game_is_reported_with_the_count(
    data_dir: Path, lock_holder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_STORE, "")
    app = ArcadeApp(store=Store(busy_timeout=0.3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_2048(app, pilot)
        holder = lock_holder()
        await play(pilot, screen, MOVES)
        kept = app.store.status.kept
        assert kept > 0 and STORE_GONE in messages(app)
        release(holder)
        app.store.retry_now()
        back = f"Store back: {kept} changes saved."
        deadline = time.monotonic() + DEADLINE_S
        while back not in messages(app) and time.monotonic() < deadline:
            await pilot.pause(0.05)
        assert back in messages(app)
        played = screen.session.moves_made
        assert screen.ref is not None
        slot = screen.ref.slot
        await pilot.press("ctrl+q")  # Nothing kept now: the usual question.
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        assert "(it is saved)" in app.screen.message
    with Store() as store:
        info = store.save_info("2048", slot)
        assert info is not None and info.summary is not None
        assert info.summary["moves"] == played


# -- the journal's rules -------------------------------------------------------------------------


def _locked_store(lock_holder: Any, data_dir: Path) -> tuple[Store, Any]:
    Store().close()  # The file exists (with its schema) before it is locked.
    holder = lock_holder()
    return Store(busy_timeout=0.1), holder


def test_a_journal_never_overwrites_a_newer_save_and_a_live_session_s_is_left_alone(
    data_dir: Path, lock_holder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_STORE, "")
    ended, holder = _locked_store(lock_holder, data_dir)
    ended.save_game("g", "mine", {"moves": 5})
    ended.save_game("g", "other", {"moves": 1})
    ended.close()  # Quits during the outage: its journal stays.
    live = Store(busy_timeout=0.1)
    live.save_game("g", "live", {"moves": 2})  # Kept in a journal its session still holds.
    release(holder)
    with sqlite3.connect(data_dir / DB_FILENAME) as conn:  # Another host went on meanwhile.
        conn.execute(
            'INSERT INTO saves ("user", game, slot, data, summary, saved_at) '
            "VALUES ('', 'g', 'mine', '{\"moves\": 9}', NULL, ?)",
            (time.time() + 1,),
        )
    with Store() as later:
        assert later.load_game("g", "mine") == {"moves": 9}  # The newer row stays.
        assert later.load_game("g", "other") == {"moves": 1}  # The rest is replayed.
        assert later.load_game("g", "live") is None  # Not the live session's.
        assert (
            "Store back: 2 changes kept on this host by an earlier session saved." in later.warnings
        )
    assert len(journals(data_dir)) == 1
    live.close()  # Free now: written at close, its journal removed.
    assert journals(data_dir) == []
    with Store() as last:
        assert last.load_game("g", "live") == {"moves": 2}


def test_a_torn_last_line_is_skipped_and_the_rest_replayed(
    data_dir: Path, lock_holder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_STORE, "")
    ended, holder = _locked_store(lock_holder, data_dir)
    ended.mark_solved("g", "p", "one")
    ended.close()
    [journal] = journals(data_dir)
    with open(journal, "a", encoding="utf-8") as stream:
        stream.write('{"op": "solved", "row": ["", "g"')  # A power cut mid-write.
    release(holder)
    with Store() as later:
        assert later.solved_levels("g", "p") == {"one"}
    assert journals(data_dir) == []


# -- no password on the command line ---------------------------------------------------------------


def test_store_with_a_password_on_the_command_line_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(ENV_STORE, raising=False)
    for url in (
        "postgresql://arcade:hunter2@db.example.org/arcade",
        "postgresql://arcade@db.example.org/arcade?sslmode=require&password=hunter2",
    ):
        result = CliRunner().invoke(main, ["--store", url, "keymap"])
        assert result.exit_code == 2
        assert "hunter2" not in result.output
        assert ENV_STORE in result.output and "--store-password-file" in result.output
        assert os.environ.get(ENV_STORE) is None  # Nothing was set.


def test_store_password_file_gives_libpq_the_password(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_PASSWORD, raising=False)
    monkeypatch.setenv(ENV_STORE, "")
    secret = tmp_path / "password"
    secret.write_text("hunter2\n")
    secret.chmod(0o600)
    result = CliRunner().invoke(
        main,
        ["--store", "postgresql://arcade@/arcade", "--store-password-file", str(secret), "--help"],
    )
    assert result.exit_code == 0
    assert os.environ[ENV_PASSWORD] == "hunter2"
    missing = CliRunner().invoke(main, ["--store-password-file", str(tmp_path / "nope"), "--help"])
    assert missing.exit_code == 2 and "cannot read the password file" in missing.output
