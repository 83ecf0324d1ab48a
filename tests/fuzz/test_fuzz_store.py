"""Hostile stored content: the store never raises, and its work stays bounded.

Each case has an explicit bound: memory by ``tracemalloc`` (peak Python allocations), time by
the salvage's work budget plus a CPU-time bound only a hang would reach (50 times what the
case takes on a busy machine). Hypothesis runs a bounded number of examples.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tests.fuzz.bounds import cpu_seconds
from tui.store import KEYMAP_SETTING, Store
from tui.store._decode import MAX_DEPTH, decode
from tui.store._journal import journal_dir

pytestmark = pytest.mark.slow

HANG_S = 60.0
"""CPU seconds no example comes near (each takes well under a second)."""
PEAK_BYTES = 256 * 1024 * 1024
"""Peak Python allocations allowed for one example (the inputs are at most a few MB)."""


@contextmanager
def bounded(peak: int = PEAK_BYTES, cpu_s: float = HANG_S) -> Iterator[None]:
    """Fail if the block allocates more than ``peak`` bytes at once or spins ``cpu_s``."""
    tracemalloc.start()
    started = time.process_time()
    try:
        yield
        used = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert used <= peak, f"peak {used:,} bytes"
    assert time.process_time() - started <= cpu_s


def _small_database() -> bytes:
    """A small store file (a few pages): saves, solved marks, a score, settings."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "small.sqlite3"
        with Store(str(path)) as store:
            for index in range(40):
                store.save_game("2048", f"s{index}", {"cells": [index] * 40}, {"moves": index})
            for index in range(10):
                store.mark_solved("carving", "basics", f"l{index}", index)
            store.record_score("2048", "4x4", 512)
            store.set_setting(KEYMAP_SETTING, {"app.help": "f2"})
        conn = sqlite3.connect(path)
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode = DELETE")  # one file holds everything
        conn.close()
        return path.read_bytes()


SMALL = _small_database()


def _use_everything(store: Store) -> None:
    """Every read the arcade makes at start and in a level list; none may raise."""
    store.get_setting(KEYMAP_SETTING)
    for info in store.saves("2048"):
        store.load_game("2048", info.slot)
        store.save_info("2048", info.slot)
    store.best_results("carving", "basics")
    store.best_score("2048", "4x4")
    store.my_levels("carving")
    store.mark_solved("carving", "basics", "new")  # and it takes a change


@settings(max_examples=40)
@given(
    flips=st.lists(
        st.tuples(st.integers(0, len(SMALL) - 1), st.integers(0, 255)), min_size=1, max_size=40
    ),
    keep=st.one_of(st.none(), st.integers(0, len(SMALL))),
)
@example(flips=[(60, 128)], keep=None)  # the header's schema version made negative
def test_a_damaged_database_file_never_raises(
    flips: list[tuple[int, int]], keep: int | None
) -> None:
    raw = bytearray(SMALL)
    for offset, value in flips:
        raw[offset] = value
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "store.sqlite3"
        path.write_bytes(bytes(raw[:keep]))
        with bounded():
            store = Store(str(path), busy_timeout=0.2)
            _use_everything(store)
            store.close()
        for message in store.warnings:
            assert "Traceback" not in message


_ROWS: dict[str, Callable[[sqlite3.Connection, str], Any]] = {
    "keymap": lambda conn, text: conn.execute(
        "UPDATE settings SET value = ? WHERE key = ?", (text, KEYMAP_SETTING)
    ),
    "save": lambda conn, text: conn.execute("UPDATE saves SET data = ? WHERE slot = 's1'", (text,)),
    "summary": lambda conn, text: conn.execute(
        "UPDATE saves SET summary = ? WHERE slot = 's1'", (text,)
    ),
}


@settings(max_examples=30)
@given(
    row=st.sampled_from(sorted(_ROWS)),
    depth=st.integers(1, 300_000),
    brackets=st.sampled_from(["[]", "{}", "{["]),
    closed=st.booleans(),
)
def test_any_nesting_in_any_json_row_never_raises(
    row: str, depth: int, brackets: str, closed: bool
) -> None:
    if brackets == "{}":
        text = '{"a":' * depth + "1" + "}" * depth * closed
    elif brackets == "{[":
        text = '{"a":[' * depth + "1" + "]}" * depth * closed
    else:
        text = "[" * depth + "]" * depth * closed
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "store.sqlite3"
        path.write_bytes(SMALL)
        with sqlite3.connect(path) as conn:
            _ROWS[row](conn, text)
        with bounded():
            store = Store(str(path))
            _use_everything(store)
            keymap = store.get_setting(KEYMAP_SETTING)
            data = store.load_game("2048", "s1")
            store.close()
    readable = closed and depth * (1 + (brackets == "{[")) <= MAX_DEPTH
    assert (keymap is not None) == (row != "keymap" or readable)
    assert (data is not None) == (row != "save" or (readable and brackets != "[]"))
    # A list where a save or its summary must be an object is damage too.
    assert bool(store.warnings) == (not readable or (row != "keymap" and brackets == "[]"))


@settings(max_examples=40)
@given(
    lines=st.lists(
        st.one_of(
            st.binary(max_size=200),
            st.recursive(
                st.none() | st.booleans() | st.integers() | st.text(max_size=10),
                lambda inner: (
                    st.lists(inner, max_size=4)
                    | st.dictionaries(st.sampled_from(["op", "row", "x"]), inner, max_size=3)
                ),
                max_leaves=20,
            ).map(lambda value: json.dumps(value).encode()),
            st.integers(1, 100_000).map(lambda depth: b"[" * depth + b"]" * depth),
            st.sampled_from(["save", "delete_save", "score", "setting", "delete_level"]).flatmap(
                lambda op: st.lists(
                    st.none() | st.integers() | st.text(max_size=5), max_size=12
                ).map(lambda row: json.dumps({"op": op, "row": row}).encode())
            ),
        ),
        max_size=8,
    )
)
@example(  # an integer no database column holds (found by this test)
    lines=[b'{"op":"save","row":[null,null,null,null,null,9223372036854775808]}']
)
def test_damaged_journal_lines_never_stop_a_session(lines: list[bytes]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "store.sqlite3"
        path.write_bytes(SMALL)
        left = journal_dir(os.path.abspath(path), "")
        left.mkdir(parents=True, exist_ok=True)
        good = {"op": "setting", "row": ["", "after", '"ok"']}
        (left / "1-0000.jsonl").write_bytes(
            b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)
            + json.dumps(good).encode()
            + b"\n"
        )
        with bounded():
            store = Store(str(path))
            _use_everything(store)
            assert store.get_setting("after") == "ok"  # the good line after the bad ones
            store.close()


HOSTILE: dict[str, Callable[[int], str]] = {
    "deep": lambda size: "[" * size,
    "deep-closed": lambda size: "[" * (size // 2) + "]" * (size // 2),
    "deep-objects": lambda size: '{"a":' * (size // 5),
    "unterminated-string": lambda size: '["' + '\\"' * (size // 2),
    "deep-after-strings": lambda size: '["' + "x" * (size // 2) + '",' + "[" * (size // 2),
    "garbage": lambda size: '\x00{["' * (size // 4),
}


def _valid(size: int) -> str:
    """A valid save-like JSON text of about ``size`` characters."""
    cells = json.dumps({"moves": [[index % 4, index] for index in range(size // 12)]})
    return cells + " " * max(0, size - len(cells))


def _cpu(text: str) -> float:
    """CPU seconds to decode ``text`` (the least of three runs)."""
    return cpu_seconds(lambda: decode(text))


@settings(max_examples=8)
@given(kind=st.sampled_from(sorted(HOSTILE)), size=st.sampled_from([100_000, 1_000_000]))
def test_refusing_a_row_is_no_slower_than_accepting_one(kind: str, size: int) -> None:
    hostile = HOSTILE[kind](size)
    valid = _valid(size)
    assert decode(hostile).problem is not None and decode(valid).problem is None
    assert _cpu(hostile) <= 2 * _cpu(valid) + 0.5
