"""The store's API on every backend: round trips, best-score rules, closed stores, sharing.

Every test here runs twice: on SQLite (the default file in the test's data directory) and on
a real PostgreSQL server (a fresh schema, through ``TERMARCADE_STORE``, as ``--store`` sets
it); the PostgreSQL half is skipped when no server can be started. ``Store()`` picks the
backend, so the tests read exactly as a caller's code does.
"""

from __future__ import annotations

import threading

import pytest

from tests.postgres_server import BACKENDS, select_backend
from tui.store import Store


@pytest.fixture(autouse=True, params=BACKENDS)
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run each test on SQLite and on PostgreSQL."""
    return select_backend(request, monkeypatch)


def test_store_uses_the_backend(backend: str) -> None:
    with Store() as store:
        assert store.backend == backend and store.warnings == []
        assert (store.path is not None) == (backend == "sqlite")


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


def test_storage_error_becomes_warning() -> None:
    store = Store()
    store.close()
    assert store.solved_levels("g", "p") == set()  # No exception after close.
    assert store.record_score("g", "k", 5) is False
    assert store.warnings


def test_concurrent_connections_keep_the_best_score() -> None:
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
