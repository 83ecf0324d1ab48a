"""The SQLite store's own concerns: the default file, WAL, damaged files, old schemas.

Backend-independent behaviour is in ``test_store.py`` and ``test_store_api.py`` (run on
SQLite and PostgreSQL); many processes at once are in ``test_store_concurrency.py``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tui.store import (
    DB_FILENAME,
    ENV_STORE,
    SCHEMA_VERSION,
    Result,
    SaveInfo,
    Store,
    atomic_write_text,
    data_dir,
)


@pytest.fixture(autouse=True)
def sqlite_default(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the SQLite default, whatever the developer's shell has set.

    Set to empty rather than deleted: monkeypatch then restores it after the test, even when
    ``--store`` has set it meanwhile (a deletion of an unset variable is not recorded).
    """
    monkeypatch.setenv(ENV_STORE, "")


def test_schema_version() -> None:
    assert SCHEMA_VERSION == 3


def test_default_location_follows_env(data_dir: Path) -> None:
    with Store() as store:
        assert store.path == data_dir / DB_FILENAME
    assert (data_dir / DB_FILENAME).exists()


def test_data_dir_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "nested" / "deeper"
    monkeypatch.setenv("TERMARCADE_DATA_DIR", str(target))
    assert data_dir() == target
    with Store():
        pass
    assert (target / DB_FILENAME).exists()


def test_wal_and_schema_version(data_dir: Path) -> None:
    Store().close()
    conn = sqlite3.connect(data_dir / DB_FILENAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_corrupt_database_is_set_aside(data_dir: Path) -> None:
    garbage = b"this is not a database" * 100
    (data_dir / DB_FILENAME).write_bytes(garbage)
    store = Store()
    assert len(store.warnings) == 1 and "moved to" in store.warnings[0]
    aside = [p for p in data_dir.iterdir() if p.name.startswith(DB_FILENAME + ".corrupt-")]
    assert len(aside) == 1
    assert aside[0].read_bytes() == garbage  # Nothing lost.
    store.mark_solved("g", "p", "l")  # The new database works.
    assert store.solved_levels("g", "p") == {"l"}
    store.close()


def test_truncated_database_is_set_aside(data_dir: Path) -> None:
    with Store() as store:
        for index in range(200):
            store.save_game("g", f"slot{index}", {"data": "x" * 200})
    with sqlite3.connect(data_dir / DB_FILENAME) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = data_dir / DB_FILENAME
    raw = bytearray(path.read_bytes())
    raw[100:4096] = b"\xff" * (4096 - 100)  # Smash the schema page.
    path.write_bytes(bytes(raw))
    store = Store()
    assert store.warnings, "damage must be reported"
    assert store.load_game("g", "slot0") is None
    assert any(p.name.startswith(DB_FILENAME + ".corrupt-") for p in data_dir.iterdir())
    store.close()


def test_newer_schema_left_untouched(data_dir: Path) -> None:
    path = data_dir / DB_FILENAME
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 5}")
    before = path.read_bytes()
    store = Store()
    assert store.path is None and "newer" in store.warnings[0]
    store.set_setting("x", 1)  # In-memory fallback still works for the session.
    assert store.get_setting("x") == 1
    store.close()
    assert path.read_bytes() == before


def test_unusable_directory_falls_back_to_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("TERMARCADE_DATA_DIR", str(blocker / "sub"))  # mkdir fails, even as root.
    store = Store()
    assert store.path is None and "session only" in store.warnings[0]
    store.mark_solved("g", "p", "l")
    assert store.solved_levels("g", "p") == {"l"}
    store.close()


def test_atomic_write_text(tmp_path: Path) -> None:
    target = tmp_path / "pack.levels"
    atomic_write_text(target, "first\n")
    target.chmod(0o640)
    atomic_write_text(target, "second ✓\n")
    assert target.read_text(encoding="utf-8") == "second ✓\n"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["pack.levels"]  # No temp file left.


def test_atomic_write_failure_leaves_old_file(tmp_path: Path) -> None:
    target = tmp_path / "pack.levels"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(TypeError):
        atomic_write_text(target, 123)  # type: ignore[arg-type]
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["pack.levels"]


# -- migrating a version-1 file ---------------------------------------------------------


# Version 1 exactly as termarcade 0.1 created it (copied from main's tui/store.py).
V1_SCHEMA = """
    CREATE TABLE IF NOT EXISTS solved (
        game      TEXT NOT NULL,
        pack      TEXT NOT NULL,
        level     TEXT NOT NULL,
        moves     INTEGER,
        solved_at REAL NOT NULL,
        PRIMARY KEY (game, pack, level)
    );
    CREATE TABLE IF NOT EXISTS saves (
        game     TEXT NOT NULL,
        slot     TEXT NOT NULL,
        data     TEXT NOT NULL,
        saved_at REAL NOT NULL,
        PRIMARY KEY (game, slot)
    );
    CREATE TABLE IF NOT EXISTS scores (
        game        TEXT NOT NULL,
        key         TEXT NOT NULL,
        score       INTEGER NOT NULL,
        recorded_at REAL NOT NULL,
        PRIMARY KEY (game, key)
    );
    CREATE TABLE IF NOT EXISTS settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
"""


def make_v1_database(path: Path) -> None:
    """A version-1 database in WAL mode with a row in every table, as 0.1 left it."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript(V1_SCHEMA)
    conn.executemany(
        "INSERT INTO solved VALUES (?, ?, ?, ?, ?)",
        [("termcraft", "basics", "l1", 7, 100.0), ("termcraft", "basics", "l2", None, 200.0)],
    )
    conn.execute("INSERT INTO saves VALUES ('2048', 'autosave', '{\"seed\":42}', 300.0)")
    conn.execute("INSERT INTO scores VALUES ('2048', '4x4', 2048, 400.0)")
    conn.execute("INSERT INTO settings VALUES ('keymap', '{\"undo\":\"z\"}')")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()


def test_migration_from_version_1_keeps_every_row(data_dir: Path) -> None:
    db = data_dir / DB_FILENAME
    make_v1_database(db)
    with Store() as store:
        assert store.warnings == []
        assert store.solved_moves("termcraft", "basics") == {"l1": 7, "l2": None}
        assert store.best_results("termcraft", "basics")["l1"] == Result(7, 100.0)
        assert store.load_game("2048", "autosave") == {"seed": 42}
        assert store.saves("2048") == [SaveInfo("autosave", 300.0, None)]
        assert store.best_score("2048", "4x4") == 2048
        assert store.get_setting("keymap") == {"undo": "z"}
        assert store.my_levels("termcraft") == []
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not any(  # The temporary *_v2 tables were renamed into place.
        name.endswith("_v2")
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    )
    conn.close()
    with Store(user="alice") as other:  # The old rows belong to the local player only.
        assert other.solved_levels("termcraft", "basics") == set()
        assert other.get_setting("keymap") is None


def test_migrated_database_works_for_new_writes(data_dir: Path) -> None:
    make_v1_database(data_dir / DB_FILENAME)
    with Store() as store:
        store.mark_solved("termcraft", "basics", "l3", moves=1)
        store.save_game("2048", "autosave", {"seed": 43}, summary={"moves": 5})
    with Store() as store:
        assert store.solved_levels("termcraft", "basics") == {"l1", "l2", "l3"}
        assert store.saves("2048")[0].summary == {"moves": 5}


def test_store_url_forms_name_a_sqlite_file(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.sqlite3"
    for url in (f"sqlite://{target}", str(target)):
        with Store(url) as store:
            assert store.backend == "sqlite" and store.path == target
            store.mark_solved("g", "p", url)
    with Store.open(f"sqlite://{target}") as store:
        assert store.solved_levels("g", "p") == {f"sqlite://{target}", str(target)}
    with Store(":memory:") as store:
        assert store.backend == "memory" and store.path is None


def test_env_var_names_the_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "from-env.sqlite3"
    monkeypatch.setenv(ENV_STORE, f"sqlite://{target}")
    with Store() as store:
        assert store.path == target
    assert target.exists()


def test_bad_env_var_is_a_warning_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_STORE, "mysql://host/db")
    with Store() as store:
        assert store.backend == "memory"
        assert "unsupported store URL scheme 'mysql'" in store.warnings[0]
        store.mark_solved("g", "p", "l")  # The session still works, in memory.
        assert store.solved_levels("g", "p") == {"l"}


def test_bad_explicit_url_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unsupported store URL scheme"):
        Store("mysql://host/db")
    with pytest.raises(ValueError, match="needs a file path"):
        Store.open("sqlite://")


# -- termarcade --store -----------------------------------------------------------------------


def test_store_option_points_every_command_at_the_store(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from tui.cli import main

    target = tmp_path / "chosen.sqlite3"
    result = CliRunner().invoke(main, ["--store", f"sqlite://{target}", "keymap", "app.help", "f2"])
    assert result.exit_code == 0, result.output
    with Store(target) as store:
        assert store.get_setting("keymap") == {"app.help": "f2"}
    assert not (Path(data_dir()) / DB_FILENAME).exists()  # The default file was not touched.


def test_store_option_rejects_an_unknown_scheme_as_bad_usage() -> None:
    from click.testing import CliRunner

    from tui.cli import main

    result = CliRunner().invoke(main, ["--store", "mysql://host/db", "keymap"])
    assert result.exit_code == 2
    assert "unsupported store URL scheme 'mysql'" in result.output
