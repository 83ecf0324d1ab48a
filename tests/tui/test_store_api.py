"""The store's API for the shell, on every backend: users, save summaries, results, my levels.

Every test runs on SQLite and on a real PostgreSQL server (see ``tests/tui/test_store.py``).
"""

from __future__ import annotations

import sqlite3
import time

import pytest

from tests.postgres_server import BACKENDS, select_backend
from tui.store import (
    SCHEMA_VERSION,
    DuplicateTitle,
    MyLevel,
    SaveInfo,
    Store,
)
from tui.store._db import Database, SqliteDatabase
from tui.store._schema import migrate
from tui.store._target import resolve_target


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run each test on SQLite and on PostgreSQL."""
    return select_backend(request, monkeypatch)


def test_per_user_isolation() -> None:
    stores = {user: Store(user=user) for user in ("", "alice", "bob")}
    for user, store in stores.items():
        store.mark_solved("g", "p", f"level-of-{user}", moves=len(user))
        store.save_game("g", "slot", {"owner": user}, summary={"owner": user})
        store.record_score("g", "4x4", 10 + len(user))
        store.set_setting("theme", user)
        store.add_my_level("g", "Same title", f"text of {user}")
    for user, store in stores.items():
        assert store.user == user
        assert store.solved_levels("g", "p") == {f"level-of-{user}"}
        assert store.load_game("g", "slot") == {"owner": user}
        assert [info.summary for info in store.saves("g")] == [{"owner": user}]
        assert store.best_score("g", "4x4") == 10 + len(user)
        assert store.get_setting("theme") == user
        assert [level.text for level in store.my_levels("g")] == [f"text of {user}"]
    # Ids are not capabilities: another player's level id reads, replaces, deletes nothing.
    alice_level = stores["alice"].my_levels("g")[0]
    bob = stores["bob"]
    assert bob.get_my_level("g", alice_level.id) is None
    assert bob.replace_my_level("g", alice_level.id, "Stolen", "x") is None
    bob.delete_my_level("g", alice_level.id)
    bob.delete_game("g", "slot")
    assert stores["alice"].get_my_level("g", alice_level.id) == alice_level
    assert stores["alice"].load_game("g", "slot") == {"owner": "alice"}
    for store in stores.values():
        assert store.warnings == []
        store.close()


def test_user_must_be_a_string() -> None:
    with pytest.raises(TypeError):
        Store(user=None)  # type: ignore[arg-type]


def test_save_summaries_newest_first() -> None:
    with Store() as store:
        store.save_game("g", "level-1", {"moves": ["u"]}, summary={"moves": 1, "status": "playing"})
        time.sleep(0.01)
        store.save_game("g", "level-2", {"moves": []})
        time.sleep(0.01)
        store.save_game("h", "other-game", {})
        saves = store.saves("g")
        assert [info.slot for info in saves] == ["level-2", "level-1"]
        assert saves[0].summary is None
        assert saves[1].summary == {"moves": 1, "status": "playing"}
        assert saves[0].saved_at >= saves[1].saved_at > 0
        assert store.saved_slots("g") == ["level-2", "level-1"]
        store.save_game("g", "level-1", {"moves": ["u", "d"]}, summary={"moves": 2})
        newest = store.saves("g")[0]
        assert newest == SaveInfo("level-1", newest.saved_at, {"moves": 2})


def test_summary_must_be_json() -> None:
    with Store() as store:
        with pytest.raises(TypeError):
            store.save_game("g", "s", {"ok": 1}, summary={"bad": object()})
        assert store.saves("g") == []  # Nothing half-written.


def test_best_results_keep_the_time_of_the_best() -> None:
    with Store() as store:
        store.mark_solved("g", "p", "a", moves=10)
        first = store.best_results("g", "p")["a"]
        time.sleep(0.01)
        store.mark_solved("g", "p", "a", moves=12)  # Worse: nothing changes.
        assert store.best_results("g", "p")["a"] == first
        store.mark_solved("g", "p", "a", moves=6)  # Better: moves and time change.
        better = store.best_results("g", "p")["a"]
        assert better.moves == 6 and better.solved_at > first.solved_at
        store.mark_solved("g", "p", "b")
        assert store.best_results("g", "p")["b"].moves is None
        assert set(store.best_results("g", "p")) == store.solved_levels("g", "p") == {"a", "b"}


# -- my levels --------------------------------------------------------------------------------


def test_my_levels_crud() -> None:
    with Store() as store:
        assert store.my_levels("termcraft") == []
        first = store.add_my_level("termcraft", "First", 'level "First" { }\n')
        time.sleep(0.01)
        second = store.add_my_level("termcraft", "Second", "text 2")
        store.add_my_level("longcat", "First", "another game, same title: fine")
        assert isinstance(first, MyLevel) and isinstance(second, MyLevel)
        assert first.id != second.id and first.created_at == first.updated_at
        assert store.my_levels("termcraft") == [first, second]  # Oldest first.
        assert store.get_my_level("termcraft", second.id) == second
        assert store.get_my_level("longcat", second.id) is None  # Wrong game.

        time.sleep(0.01)
        replaced = store.replace_my_level("termcraft", first.id, "First, revised", "text 1b")
        assert replaced is not None
        assert replaced.id == first.id
        assert (replaced.title, replaced.text) == ("First, revised", "text 1b")
        assert replaced.created_at == first.created_at < replaced.updated_at
        assert store.my_levels("termcraft") == [replaced, second]  # Still in creation order.
        assert store.replace_my_level("termcraft", 10_000, "Nope", "x") is None

        store.delete_my_level("termcraft", first.id)
        store.delete_my_level("termcraft", first.id)  # Deleting twice is fine.
        assert store.get_my_level("termcraft", first.id) is None
        assert store.my_levels("termcraft") == [second]
        third = store.add_my_level("termcraft", "Third", "t")
        assert third is not None and third.id > second.id  # Ids are never reused.
        assert store.warnings == []
    with Store() as store:  # Persisted.
        assert [level.title for level in store.my_levels("termcraft")] == ["Second", "Third"]


def test_duplicate_titles_are_refused_with_the_existing_id() -> None:
    with Store() as store:
        original = store.add_my_level("g", "Maze", "v1")
        other = store.add_my_level("g", "Other", "x")
        assert original is not None and other is not None
        with pytest.raises(ValueError, match="already have a g level titled 'Maze'") as caught:
            store.add_my_level("g", "Maze", "v2")
        assert isinstance(caught.value, DuplicateTitle)
        assert caught.value.existing_id == original.id
        with pytest.raises(DuplicateTitle):  # Renaming onto another level's title.
            store.replace_my_level("g", other.id, "Maze", "x")
        same = store.replace_my_level("g", original.id, "Maze", "v2")  # Its own title: fine.
        assert same is not None and same.text == "v2"
        assert [(level.title, level.text) for level in store.my_levels("g")] == [
            ("Maze", "v2"),
            ("Other", "x"),
        ]
        assert store.warnings == []


def test_level_title_and_text_are_checked() -> None:
    with Store() as store:
        with pytest.raises(ValueError):
            store.add_my_level("g", "   ", "text")
        with pytest.raises(TypeError):
            store.add_my_level("g", "Title", None)  # type: ignore[arg-type]
        assert store.my_levels("g") == []


def test_storage_errors_return_empty_values_for_new_methods() -> None:
    store = Store()
    store.close()
    assert store.saves("g") == []
    assert store.best_results("g", "p") == {}
    assert store.my_levels("g") == []
    assert store.get_my_level("g", 1) is None
    assert store.add_my_level("g", "T", "x") is None
    assert store.replace_my_level("g", 1, "T", "x") is None
    store.delete_my_level("g", 1)
    assert store.warnings


def test_two_sessions_adding_the_same_title_one_wins() -> None:
    """Uniqueness is the database's: a second session gets DuplicateTitle, not a second row."""
    first, second = Store(), Store()
    added = first.add_my_level("g", "Race", "from first")
    with pytest.raises(DuplicateTitle) as caught:
        second.add_my_level("g", "Race", "from second")
    assert added is not None and caught.value.existing_id == added.id
    assert [level.text for level in second.my_levels("g")] == ["from first"]
    first.close()
    second.close()


def test_save_info_reads_one_summary() -> None:
    with Store() as store:
        assert store.save_info("g", "slot") is None
        store.save_game("g", "slot", {"moves": [1, 2]}, summary={"seconds": 12.5, "moves": 2})
        store.save_game("g", "other", {})
        info = store.save_info("g", "slot")
        assert info is not None and info.slot == "slot"
        assert info.summary == {"seconds": 12.5, "moves": 2}
        assert Store(user="bob").save_info("g", "slot") is None  # Per player.


# -- migrations -------------------------------------------------------------------------------


def open_raw() -> Database:
    """A bare connection to the database ``Store()`` would open (no schema work done)."""
    target = resolve_target(None)
    if target.backend == "postgresql":
        import psycopg

        from tui.store._postgres import PostgresDatabase

        return PostgresDatabase(psycopg.connect(target.url, autocommit=True))
    assert target.path is not None
    target.path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteDatabase(sqlite3.connect(target.path, isolation_level=None))


def _database_at_version_2() -> None:
    """Build the database ``Store()`` will open as termarcade 0.2 left it, with rows."""
    db = open_raw()
    try:
        assert migrate(db, target=2) is True and db.schema_version() == 2
        db.execute(
            'INSERT INTO solved ("user", game, pack, level, moves, solved_at) '
            "VALUES ('', 'termcraft', 'pack:01', 'l1', 7, 100.0)"
        )
        db.execute(
            'INSERT INTO my_levels ("user", game, title, text, created_at, updated_at) '
            "VALUES ('alice', 'termcraft', 'Mine', 'text', 1.0, 1.0)"
        )
    finally:
        db.close()


def test_migration_from_version_2_keeps_every_row() -> None:
    _database_at_version_2()
    with Store() as store:
        assert store.warnings == []
        assert store._db is not None and store._db.schema_version() == SCHEMA_VERSION
        assert store.solved_moves("termcraft", "pack:01") == {"l1": 7}
        store.record_result("termcraft", "pack:01", "l1", moves=5, seconds=9.0)
        assert store.solved_moves("termcraft", "pack:01") == {"l1": 5}
        assert [entry.moves for entry in store.level_board("termcraft", "pack:01", "l1")] == [5]
    with Store(user="alice") as alice:
        (mine,) = alice.my_levels("termcraft")
        newer = alice.add_my_level("termcraft", "Second", "x")
        assert newer is not None and newer.id > mine.id  # The id sequence survived.


def test_migrating_twice_changes_nothing() -> None:
    with Store() as store:
        store.mark_solved("g", "p", "l")
        assert store._db is not None
        assert migrate(store._db) is False  # Already current: nothing to do.
        assert store.solved_levels("g", "p") == {"l"}
