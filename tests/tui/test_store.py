"""The SQLite store: round trips, best-score rules, corruption handling, concurrency."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from tui.store import DB_FILENAME, SCHEMA_VERSION, Store, atomic_write_text, data_dir


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


def test_solved_round_trip_and_persistence() -> None:
    with Store() as store:
        assert store.solved_levels("termcraft", "basics") == set()
        store.mark_solved("termcraft", "basics", "l1", moves=7)
        store.mark_solved("termcraft", "basics", "l2")
        store.mark_solved("termcraft", "other", "l1", moves=1)
        store.mark_solved("longcat", "basics", "l9", moves=1)
    with Store() as store:  # A new connection sees the committed data.
        assert store.solved_levels("termcraft", "basics") == {"l1", "l2"}
        assert store.solved_moves("termcraft", "basics") == {"l1": 7, "l2": None}


def test_solved_keeps_fewest_moves() -> None:
    with Store() as store:
        store.mark_solved("g", "p", "l", moves=9)
        store.mark_solved("g", "p", "l", moves=12)
        assert store.solved_moves("g", "p") == {"l": 9}
        store.mark_solved("g", "p", "l", moves=4)
        store.mark_solved("g", "p", "l")  # Unknown count keeps the known best.
        assert store.solved_moves("g", "p") == {"l": 4}


def test_save_load_delete() -> None:
    data = {"level": "basics/3", "seed": 42, "moves": ["up", "left"], "note": "ünïcode ✓"}
    with Store() as store:
        assert store.load_game("2048", "autosave") is None
        store.save_game("2048", "autosave", data)
        assert store.load_game("2048", "autosave") == data
        store.save_game("2048", "autosave", {"seed": 1})
        assert store.load_game("2048", "autosave") == {"seed": 1}
        store.save_game("2048", "other", {"seed": 2})
        assert set(store.saved_slots("2048")) == {"autosave", "other"}
        store.delete_game("2048", "autosave")
        store.delete_game("2048", "autosave")  # Deleting twice is fine.
        assert store.load_game("2048", "autosave") is None
        assert store.saved_slots("2048") == ["other"]


def test_save_rejects_non_json() -> None:
    with Store() as store, pytest.raises(TypeError):
        store.save_game("g", "s", {"x": object()})


def test_best_score_higher_is_better() -> None:
    with Store() as store:
        assert store.best_score("2048", "4x4") is None
        assert store.record_score("2048", "4x4", 100) is True
        assert store.record_score("2048", "4x4", 50) is False
        assert store.record_score("2048", "4x4", 100) is False  # A tie is not a new best.
        assert store.best_score("2048", "4x4") == 100
        assert store.record_score("2048", "4x4", 101) is True
        assert store.best_score("2048", "4x4") == 101
        assert store.best_score("2048", "5x5") is None


def test_best_score_lower_is_better() -> None:
    with Store() as store:
        assert store.record_score("longcat", "lvl", 30, lower_is_better=True)
        assert not store.record_score("longcat", "lvl", 31, lower_is_better=True)
        assert store.record_score("longcat", "lvl", 12, lower_is_better=True)
        assert store.best_score("longcat", "lvl") == 12


def test_settings_json_values() -> None:
    with Store() as store:
        assert store.get_setting("theme") is None
        assert store.get_setting("theme", "dark") == "dark"
        value = {"b": [1, 2, {"c": None}], "a": True}
        store.set_setting("complex", value)
        store.set_setting("theme", "light")
        store.set_setting("theme", "nord")
        assert store.get_setting("complex") == value
        assert store.get_setting("theme") == "nord"


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


def test_unusable_directory_falls_back_to_memory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory", encoding="utf-8")
    monkeypatch.setenv("TERMARCADE_DATA_DIR", str(blocker / "sub"))  # mkdir fails, even as root.
    store = Store()
    assert store.path is None and "session only" in store.warnings[0]
    store.mark_solved("g", "p", "l")
    assert store.solved_levels("g", "p") == {"l"}
    store.close()


def test_storage_error_becomes_warning() -> None:
    store = Store()
    store.close()
    assert store.solved_levels("g", "p") == set()  # No exception after close.
    assert store.record_score("g", "k", 5) is False
    assert store.warnings


def test_concurrent_connections_keep_the_best_score(data_dir: Path) -> None:
    """Many sessions racing to record scores: the stored best is the true maximum."""
    Store().close()
    scores = [(worker * 37 + step * 11) % 1000 for worker in range(4) for step in range(40)]
    errors: list[BaseException] = []

    def session(worker: int) -> None:
        try:
            with Store() as store:
                for step in range(40):
                    store.record_score("2048", "4x4", (worker * 37 + step * 11) % 1000)
                    store.mark_solved("g", "p", f"w{worker}-{step}")
                assert not store.warnings, store.warnings
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=session, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    with Store() as store:
        assert store.best_score("2048", "4x4") == max(scores)
        assert len(store.solved_levels("g", "p")) == 160


def test_two_open_stores_see_each_others_writes() -> None:
    first, second = Store(), Store()
    first.mark_solved("g", "p", "a")
    assert second.solved_levels("g", "p") == {"a"}
    second.set_setting("k", [1])
    assert first.get_setting("k") == [1]
    first.close()
    second.close()


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
