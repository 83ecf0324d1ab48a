"""Damaged data in the store: one bad row never stops the arcade, a damaged file is salvaged.

A row whose JSON cannot be decoded (nested a hundred thousand deep, not JSON, not text) is
reported once, naming its table and key, and moved to ``damaged_rows``; every other row stays
usable. A truncated or smashed database file gives back every row that can still be read,
and the player is told what was kept (issue 28, item 3).
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tui.store._salvage as salvage_module
from tests.postgres_server import BACKENDS, select_backend
from tui.cli import main
from tui.store import DB_FILENAME, KEYMAP_SETTING, Store
from tui.store._decode import MAX_DEPTH, decode, too_deep

COMPANIONS = ("-wal", "-shm")

DEEP = "[" * 100_000 + "]" * 100_000
"""Valid JSON that CPython's decoder refuses with RecursionError (issue 28's hostile row)."""


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a row-damage test on SQLite and on PostgreSQL (skipped without a server)."""
    return select_backend(request, monkeypatch)


def _database(data_dir: Path) -> Path:
    return data_dir / DB_FILENAME


def _poke(sql: str, params: tuple[Any, ...]) -> None:
    """Change a row behind the store's back (what a bug, a tool or a bad disk does)."""
    with Store() as store:
        assert store._db is not None
        store._db.execute(sql, params)


def _damaged_rows() -> list[tuple[str, str, dict[str, Any]]]:
    with Store() as store:
        assert store._db is not None
        rows = store._db.execute("SELECT source, row_key, content FROM damaged_rows").fetchall()
    return [(source, key, json.loads(content)) for source, key, content in rows]


# -- decoding ------------------------------------------------------------------------------


def test_decode_refuses_what_json_loads_raises_on_and_keeps_the_rest() -> None:
    assert decode('{"a": [1, "[[[[{{{"]}').value == {"a": [1, "[[[[{{{"]}
    assert decode(DEEP).problem == f"nested more than {MAX_DEPTH} deep"
    assert decode("[" * 5000).problem is not None  # Deep and unfinished.
    assert decode('{"a":').problem is not None
    assert decode(b"\xff\xfe").problem == "not UTF-8 text"
    assert decode(None).problem is not None and decode(12).problem is not None


def test_depth_counts_brackets_outside_strings_only() -> None:
    inside = json.dumps(["[" * 1000, {"k": "{" * 1000}])
    assert not too_deep(inside)
    assert json.loads(inside)[0] == "[" * 1000
    nested = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)
    assert too_deep(nested) and not too_deep(nested[1:-1])
    escaped = json.dumps(['\\"[' * 300])  # escaped quotes do not end the string
    assert not too_deep(escaped)


# -- damaged rows ---------------------------------------------------------------------------


def test_nested_keymap_row_is_set_aside_and_other_settings_stay(backend: str) -> None:
    with Store() as store:
        store.set_setting(KEYMAP_SETTING, {"app.help": "f2"})
        store.set_setting("theme", "dark")
    _poke("UPDATE settings SET value = ? WHERE key = ?", (DEEP, KEYMAP_SETTING))
    with Store() as store:
        assert store.get_setting(KEYMAP_SETTING, "none") == "none"
        assert store.get_setting("theme") == "dark"
        assert store.get_setting(KEYMAP_SETTING, "none") == "none"  # set aside: no new warning
        assert len(store.warnings) == 1
        assert "settings" in store.warnings[0] and "'keymap'" in store.warnings[0]
        store.set_setting(KEYMAP_SETTING, {"app.quit": "f10"})  # the setting works again
        assert store.get_setting(KEYMAP_SETTING) == {"app.quit": "f10"}
    (row,) = _damaged_rows()
    assert row[:2] == ("settings", KEYMAP_SETTING) and row[2]["value"] == DEEP  # kept whole


def test_termarcade_keymap_survives_a_nested_keymap_row(backend: str) -> None:
    with Store() as store:
        store.set_setting(KEYMAP_SETTING, {"app.help": "f2"})
    _poke("UPDATE settings SET value = ? WHERE key = ?", (DEEP, KEYMAP_SETTING))
    result = CliRunner().invoke(main, ["keymap"])
    assert result.exit_code == 0, result.output
    assert "warning:" in result.output and "keymap" in result.output
    assert "Traceback" not in result.output
    again = CliRunner().invoke(main, ["keymap", "app.help", "f3"])
    assert again.exit_code == 0, again.output
    with Store() as store:
        assert store.get_setting(KEYMAP_SETTING) == {"app.help": "f3"}


def test_nested_save_is_set_aside_and_the_other_saves_load(backend: str) -> None:
    with Store() as store:
        store.save_game("2048", "a", {"moves": [1, 2]}, {"moves": 2})
        store.save_game("2048", "b", {"moves": [3]}, {"moves": 1})
        store.save_game("2048", "c", {"moves": []}, {"moves": 0})
    _poke("UPDATE saves SET data = ? WHERE slot = 'a'", (DEEP,))
    _poke("UPDATE saves SET summary = ? WHERE slot = 'b'", ("{" * 50_000,))
    with Store() as store:
        assert store.load_game("2048", "a") is None
        assert store.load_game("2048", "c") == {"moves": []}
        infos = {info.slot: info.summary for info in store.saves("2048")}
        assert infos == {"b": None, "c": {"moves": 0}}  # a moved aside; b's summary cleared
        assert store.load_game("2048", "b") == {"moves": [3]}  # b's save itself stays
        assert len(store.warnings) == 2
        assert any("saves" in w and "'2048/a'" in w for w in store.warnings)
        assert any("summary" in w and "'2048/b'" in w for w in store.warnings)
    damaged = {(source, key): content for source, key, content in _damaged_rows()}
    assert damaged[("saves", "2048/a")]["data"] == DEEP
    assert damaged[("saves.summary", "2048/b")]["summary"] == "{" * 50_000


def test_a_row_of_the_wrong_type_is_damage_too() -> None:  # SQLite: PostgreSQL types its text
    with Store() as store:
        store.save_game("g", "s", {"x": 1})
    _poke("UPDATE saves SET data = ? WHERE slot = 's'", (b"\xff\x00binary",))
    with Store() as store:
        assert store.load_game("g", "s") is None
        assert store.saved_slots("g") == []
        assert len(store.warnings) == 1


async def test_the_arcade_starts_with_a_nested_keymap_row(backend: str, arcade_app) -> None:
    with Store() as store:
        store.set_setting(KEYMAP_SETTING, {"app.help": "f2"})
        store.save_game("2048", "autosave", {"x": 1}, {"moves": 3})
    _poke("UPDATE settings SET value = ? WHERE key = ?", (DEEP, KEYMAP_SETTING))
    app = arcade_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.is_running
        assert any("keymap" in n.message for n in app._notifications)
        assert app.store.load_game("2048", "autosave") == {"x": 1}


# -- damaged files ---------------------------------------------------------------------------


def _filled(data_dir: Path) -> Path:
    """A multi-page database: 300 saves (about 40 pages), 50 solved marks and a keymap."""
    with Store() as store:
        for index in range(300):
            store.save_game("g", f"slot{index:03}", {"data": "x" * 300, "index": index})
        for index in range(50):
            store.mark_solved("g", "p", f"l{index}")
        store.set_setting(KEYMAP_SETTING, {"app.help": "f2"})
    path = _database(data_dir)
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture(params=["python", "sqlite3-program"])
def reader(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Salvage with Python alone (as on a host without the program) and with ``.recover``."""
    if request.param == "python":
        monkeypatch.setattr(salvage_module.shutil, "which", lambda *_: None)
    elif shutil.which("sqlite3") is None:
        pytest.skip("the sqlite3 program is not installed")
    return str(request.param)


def _check_salvaged(store: Store, data_dir: Path, smallest: int) -> None:
    (warning,) = store.warnings
    assert warning.startswith("Recovered ") and "your keymap" in warning
    assert "50 solved marks" in warning and "moved to" in warning
    saves = store.saved_slots("g")
    assert smallest <= len(saves) < 300
    assert f"{len(saves)} saves" in warning
    for slot in saves:  # every save that came back is whole
        data = store.load_game("g", slot)
        assert data == {"data": "x" * 300, "index": int(slot[4:])}
    assert store.solved_levels("g", "p") == {f"l{index}" for index in range(50)}
    assert store.get_setting(KEYMAP_SETTING) == {"app.help": "f2"}
    aside = [
        path
        for path in data_dir.iterdir()
        if path.name.startswith(DB_FILENAME + ".corrupt-") and path.name[-4:] not in COMPANIONS
    ]
    assert len(aside) == 1 and str(aside[0]) in warning  # its -wal and -shm go with it


def test_a_truncated_database_gives_back_its_intact_rows(data_dir: Path, reader: str) -> None:
    path = _filled(data_dir)
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 4096 * 2 // 3 * 4096])  # the last third of the pages
    with Store() as store:
        _check_salvaged(store, data_dir, smallest=100)


def test_a_row_torn_by_truncation_is_set_aside_not_fatal(data_dir: Path) -> None:
    path = _filled(data_dir)
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) * 2 // 3 // 4096 * 4096 + 2000])  # mid-page
    with Store() as store:
        assert store.warnings[0].startswith("Recovered ")
        loaded = {slot: store.load_game("g", slot) for slot in store.saved_slots("g")}
        torn = [slot for slot, data in loaded.items() if data is None]
        assert len(loaded) - len(torn) >= 100
        assert len(store.warnings) == 1 + len(torn)  # each torn row is reported and set aside
        assert all(
            data == {"data": "x" * 300, "index": int(slot[4:])}
            for slot, data in loaded.items()
            if data is not None
        )


def test_a_smashed_page_costs_only_its_own_rows(data_dir: Path, reader: str) -> None:
    path = _filled(data_dir)
    raw = bytearray(path.read_bytes())
    pages = len(raw) // 4096
    middle = pages // 2 * 4096
    raw[middle : middle + 4096] = bytes(range(256)) * 16
    path.write_bytes(bytes(raw))
    with Store() as store:
        _check_salvaged(store, data_dir, smallest=250)
        store.save_game("g", "new", {"data": "y"})  # the salvaged database takes changes
        assert store.load_game("g", "new") == {"data": "y"}


def test_a_file_beyond_reading_is_moved_aside_as_before(data_dir: Path, reader: str) -> None:
    garbage = os.urandom(64) * 200
    _database(data_dir).write_bytes(garbage)
    with Store() as store:
        (warning,) = store.warnings
        assert "moved to" in warning and "Recovered" not in warning
        assert store.saved_slots("g") == []
    assert not (data_dir / (DB_FILENAME + salvage_module.SALVAGE_SUFFIX)).exists()


def test_a_crafted_file_cannot_make_the_salvage_run_forever(tmp_path: Path, reader: str) -> None:
    crafted = tmp_path / "crafted.sqlite3"
    with sqlite3.connect(crafted) as conn:
        conn.execute(  # a view where the saves table should be, which never ends
            "CREATE VIEW saves AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"
            " SELECT '' AS user, 'g' AS game, i AS slot, '{}' AS data, NULL AS summary,"
            " 0.0 AS saved_at FROM n"
        )
        conn.execute(
            'CREATE TABLE solved ("user" TEXT, game TEXT, pack TEXT, level TEXT, moves INTEGER,'
            " solved_at REAL)"
        )
        conn.execute("INSERT INTO solved VALUES ('', 'g', 'p', 'l1', 3, 1.0)")
    into = tmp_path / "new.sqlite3"
    kept = salvage_module.salvage(crafted, into, budget=100_000)
    assert kept.counts == {"solved": 1} and kept.describe() == "1 solved mark"
    with sqlite3.connect(into) as conn:
        assert conn.execute("SELECT level, moves FROM solved").fetchall() == [("l1", 3)]
        assert conn.execute("SELECT count(*) FROM saves").fetchone() == (0,)
