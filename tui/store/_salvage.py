"""Salvaging a damaged database file row by row before it is moved aside.

A truncated file or a smashed page usually damages a few pages: the saves, solved marks and
keymap on the others are intact, and the player should not lose them with the file.
:func:`salvage` copies every row it can read into a fresh database built next to the file
(``<name>.salvage``), which then takes the damaged file's place once that is moved aside
(see :mod:`._opening`).

How rows are read, most thorough first:

* with the ``sqlite3`` command-line program, when it is installed: its ``.recover`` command
  reads every page it can (also rows of damaged tables' pages) into a healthy copy, which is
  then read as below;
* with Python alone (always, and when the program is missing or fails): the damaged file is
  opened read-only and each known table is read in rowid order; where the read fails (a
  damaged page), the next readable rowid is found by probing ahead (doubling, then
  bisecting), so a damaged page costs only its own rows.

Only the store's own tables are copied, column by column into the current schema (a file
of an older schema version gains the columns it lacked, e.g. ``"user"`` = ``""``). Rows the
new schema refuses (a NULL where none is allowed, a duplicate key) are skipped. The work is
bounded by :data:`WORK_BUDGET` (rows read plus probes, by their cost), and the ``sqlite3`` program by
:data:`RECOVER_TIMEOUT_S`.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from core.text import plural

from ._db import SqliteDatabase
from ._files import create_private_file
from ._schema import migrate

__all__ = ["RECOVER_TIMEOUT_S", "SALVAGE_SUFFIX", "WORK_BUDGET", "Salvaged", "salvage"]

SALVAGE_SUFFIX = ".salvage"
"""Suffix of the fresh database the salvaged rows are copied into."""

WORK_BUDGET = 1_000_000
"""Rows read plus :data:`PROBE_COST` per probe, at most, per salvage: far above one player's
progress, and a bound (some seconds) on the time a file of garbage pages can take."""

VM_STEPS = 100_000
"""SQLite virtual-machine steps between two charges to the work budget."""

VM_COST = 50
"""What those steps cost (a row read takes some hundreds: this only stops runaway SQL)."""

PROBE_COST = 20
"""A probe (a seek that may fail) costs about as much as reading twenty rows."""

RECOVER_TIMEOUT_S = 60.0
"""The longest the ``sqlite3`` program's ``.recover`` may run (it is skipped after that)."""

_BATCH = 256
"""Rows read at once while the table reads well."""
_MAX_ROWID = 2**63 - 1
_MIN_ROWID = -(2**63)

_TABLES = ("saves", "solved", "scores", "settings", "my_levels", "results", "game_scores")
"""The store's tables, the only ones copied (``damaged_rows`` stays with the old file)."""

_NOUNS = {
    "saves": "save",
    "solved": "solved mark",
    "scores": "best score",
    "settings": "setting",
    "my_levels": "own level",
    "results": "leaderboard result",
    "game_scores": "game score",
}


@dataclass
class Salvaged:
    """What a salvage copied.

    Attributes:
        counts: Rows copied per table.
        keymap: Whether a keymap setting was among them.
    """

    counts: dict[str, int] = field(default_factory=dict)
    keymap: bool = False

    @property
    def total(self) -> int:
        """Rows copied in all."""
        return sum(self.counts.values())

    def describe(self) -> str:
        """The rows kept, for the player: ``"12 saves, 3 solved marks and your keymap"``."""
        parts = []
        for table in _TABLES:
            count = self.counts.get(table, 0)
            if table == "settings" and self.keymap:
                count -= 1
            if count:
                parts.append(plural(count, _NOUNS[table]))
        if self.keymap:
            parts.append("your keymap")
        if len(parts) <= 1:
            return "".join(parts)
        return ", ".join(parts[:-1]) + " and " + parts[-1]


class _Budget:
    """Counts the units of work (rows and probes) left."""

    def __init__(self, units: int) -> None:
        self.left = units

    def spend(self, units: int = 1) -> bool:
        """Spend ``units``; False once the budget is gone."""
        self.left -= units
        return self.left >= 0


def salvage(damaged: Path, into: Path, *, budget: int = WORK_BUDGET) -> Salvaged:
    """Copy every readable row of the damaged database ``damaged`` into a new file ``into``.

    Args:
        damaged: The damaged database (only read; opened read-only).
        into: Where to build the new database (replaced if it exists; removed again when
            nothing could be read).
        budget: Rows read plus probes, at most.

    Returns:
        What was copied (nothing when the file is beyond reading). Never raises for a
        damaged file; an unwritable ``into`` gives an empty result.
    """
    _remove(into)
    work = _Budget(budget)
    try:
        with _readable(damaged) as source:
            result = _copy(source, into, work) if source is not None else Salvaged()
    except (sqlite3.Error, OSError, MemoryError, ValueError):
        result = Salvaged()
    if not result.total:
        _remove(into)
    return result


@contextlib.contextmanager
def _readable(damaged: Path) -> Iterator[sqlite3.Connection | None]:
    """The best readable copy of ``damaged``: ``.recover``'s output, else the file itself."""
    recovered = damaged.with_name(damaged.name + ".recovered")
    _remove(recovered)
    # A read-only connection cannot remove the -wal and -shm it creates: remove those (only
    # those that were not there before: an existing WAL may hold committed rows).
    companions = [damaged.with_name(damaged.name + suffix) for suffix in ("-wal", "-shm")]
    made = [path for path in companions if not path.exists()]
    try:
        if _recover(damaged, recovered):
            with _closing(_connect_ro(recovered)) as conn:
                if conn is not None and _tables(conn):
                    yield conn
                    return
        with _closing(_connect_ro(damaged)) as conn:
            yield conn
    finally:
        _remove(recovered)
        for path in made:
            with contextlib.suppress(OSError):
                os.unlink(path)


@contextlib.contextmanager
def _closing(conn: sqlite3.Connection | None) -> Iterator[sqlite3.Connection | None]:
    try:
        yield conn
    finally:
        if conn is not None:
            conn.close()


def _recover(damaged: Path, recovered: Path) -> bool:
    """Rebuild what ``sqlite3 damaged .recover`` reads into ``recovered``; False if not possible.

    The program's output is SQL built from the damaged file's own text, so it is never fed
    to the program's shell (whose dot-commands run programs): Python runs it as SQL only,
    with ATTACH refused (no other file is touched) and the work bounded.
    """
    program = shutil.which("sqlite3")
    if program is None:
        return False
    try:
        dump = subprocess.run(
            [program, "-readonly", str(damaged), ".recover"],
            capture_output=True,
            timeout=RECOVER_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    if not dump.stdout:
        return False
    create_private_file(recovered)
    conn = sqlite3.connect(str(recovered), isolation_level=None)
    try:
        conn.set_authorizer(_no_attach)
        _bound(conn, _Budget(WORK_BUDGET))
        conn.executescript(dump.stdout.decode(errors="replace"))
    except (sqlite3.Error, ValueError, MemoryError):
        pass  # What ran before the error is kept (the script commits as it goes).
    finally:
        conn.close()
    return recovered.exists()


def _no_attach(action: int, *_: object) -> int:
    """An authorizer refusing ATTACH and DETACH (a recovered script names no other file)."""
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def _bound(conn: sqlite3.Connection, work: _Budget) -> None:
    """Interrupt any statement of ``conn`` once :data:`VM_STEPS` * ``work`` steps have run.

    A crafted schema (a view or a trigger in place of a table) cannot loop for ever.
    """
    conn.set_progress_handler(lambda: 0 if work.spend(VM_COST) else 1, VM_STEPS)


def _connect_ro(path: Path) -> sqlite3.Connection | None:
    """Open ``path`` read-only (its WAL included when possible); None if it cannot be."""
    for flags in ("mode=ro", "immutable=1"):  # immutable: no -shm needed, WAL ignored
        try:
            conn = sqlite3.connect(f"file:{quote(str(path))}?{flags}", uri=True)
        except sqlite3.Error:
            continue
        conn.text_factory = _text
        try:
            # A truncated file's header names more pages than the file holds, which SQLite
            # refuses unless the schema is "writable" (nothing is written: read-only); the
            # cell size check turns a garbage page into an error rather than garbage rows.
            conn.execute("PRAGMA writable_schema = ON")
            conn.execute("PRAGMA cell_size_check = ON")
            conn.execute("SELECT name FROM sqlite_master LIMIT 1").fetchall()
        except sqlite3.Error:
            conn.close()
            continue
        return conn
    return None


def _text(raw: bytes) -> str | bytes:
    """A text value as ``str``; bytes that are not UTF-8 stay bytes (copied as they are: the
    store's decoding sets such a row aside later), rather than failing the whole read."""
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return raw


def _tables(conn: sqlite3.Connection) -> dict[str, list[str]]:
    """The store's tables in ``conn`` and their columns (empty when the schema is unreadable)."""
    found: dict[str, list[str]] = {}
    try:  # Tables only: a crafted file's view named like a table is not read.
        kinds = dict(conn.execute("SELECT name, type FROM sqlite_master").fetchall())
    except sqlite3.Error:
        return found
    for table in _TABLES:
        if kinds.get(table) != "table":
            continue
        try:
            columns = [str(row[1]) for row in conn.execute(f'PRAGMA table_info("{table}")')]
        except sqlite3.Error:
            continue
        if columns:
            found[table] = columns
    return found


def _copy(source: sqlite3.Connection, into: Path, work: _Budget) -> Salvaged:
    """Build ``into`` with the current schema and copy the readable rows of ``source``."""
    _bound(source, work)
    tables = _tables(source)
    result = Salvaged()
    if not tables:
        return result
    create_private_file(into)  # it takes the damaged file's place: 0600, like every store file
    target = sqlite3.connect(str(into), isolation_level=None)
    try:
        migrate(SqliteDatabase(target))
        target.execute("BEGIN")
        for table, columns in tables.items():
            result.counts[table] = _copy_table(source, target, table, columns, work)
        target.execute("COMMIT")
        result.keymap = _has_keymap(target)
    finally:
        target.close()
    return result


def _copy_table(
    source: sqlite3.Connection,
    target: sqlite3.Connection,
    table: str,
    columns: list[str],
    work: _Budget,
) -> int:
    """Copy the readable rows of one table; return how many the new schema took."""
    wanted = [str(row[1]) for row in target.execute(f'PRAGMA table_info("{table}")')]
    common = [column for column in columns if column in wanted]
    extra = ['"user"'] if "user" in wanted and "user" not in columns else []
    names = ", ".join([f'"{column}"' for column in common] + extra)
    marks = ", ".join(["?"] * len(common) + ["''"] * len(extra))
    insert = f'INSERT OR IGNORE INTO "{table}" ({names}) VALUES ({marks})'
    copied = 0
    for row in _rows(source, table, common, work):
        try:
            copied += target.execute(insert, row).rowcount > 0
        except (sqlite3.Error, OverflowError):
            continue  # A garbage value the new table refuses: skip that row only.
    return copied


def _rows(
    conn: sqlite3.Connection, table: str, columns: list[str], work: _Budget
) -> Iterator[tuple[object, ...]]:
    """Yield the readable rows of ``table`` in rowid order, skipping damaged stretches.

    Rows are read in pages of :data:`_BATCH`; where a page fails, one row at a time (the
    sqlite3 module reads a row ahead, so a plain scan would lose the row before the damage),
    and past a row that cannot be read, from the next readable rowid.
    """
    names = ", ".join(f'"{column}"' for column in columns)
    select = f'SELECT rowid, {names} FROM "{table}" WHERE rowid >= ? ORDER BY rowid LIMIT ?'
    start: int | None = _MIN_ROWID
    while start is not None and work.spend():
        batch = _read(conn, select, start, _BATCH) or _read(conn, select, start, 1)
        if batch is None:
            start = _next_readable(conn, select, start, work)
            continue
        if not batch:
            return
        for row in batch:
            if not work.spend():
                return
            yield row[1:]
        last = int(batch[-1][0])  # type: ignore[call-overload]  # checked by _read
        start = None if last == _MAX_ROWID else last + 1


def _read(
    conn: sqlite3.Connection, select: str, start: int, limit: int
) -> list[tuple[object, ...]] | None:
    """Up to ``limit`` rows from rowid ``start`` on, or None where the read fails.

    A broken tree may answer with rowids out of order or before ``start``: that is a failure
    too (the way forward is then found by probing).
    """
    try:
        rows: list[tuple[object, ...]] = conn.execute(select, (start, limit)).fetchall()
    except sqlite3.Error:
        return None
    previous = start - 1
    for row in rows:
        rowid = row[0]
        if not isinstance(rowid, int) or rowid <= previous:
            return None
        previous = rowid
    return rows


def _next_readable(conn: sqlite3.Connection, select: str, failed: int, work: _Budget) -> int | None:
    """The smallest rowid after ``failed`` from which a read succeeds (None: none found).

    Probes ``failed + 1, + 2, + 4 ...`` until one succeeds, then bisects back to the first
    rowid that does: reads from inside a damaged page fail, reads from past it succeed.
    """
    low, step = failed, 1
    while True:
        high = min(_MAX_ROWID, failed + step)
        if not work.spend(PROBE_COST):
            return None
        if _probe(conn, select, high):
            break
        if high == _MAX_ROWID:
            return None
        low, step = high, step * 2
    while high - low > 1 and work.spend(PROBE_COST):
        middle = (low + high) // 2
        if _probe(conn, select, middle):
            high = middle
        else:
            low = middle
    return high


def _probe(conn: sqlite3.Connection, select: str, start: int) -> bool:
    """Whether reading from ``start`` on gives its first row (or the end) without an error."""
    return _read(conn, select, start, 1) is not None


def _has_keymap(target: sqlite3.Connection) -> bool:
    from ._store import KEYMAP_SETTING  # the store builds on this module

    row = target.execute(
        "SELECT 1 FROM settings WHERE key = ? LIMIT 1", (KEYMAP_SETTING,)
    ).fetchone()
    return row is not None


def _remove(path: Path) -> None:
    """Remove a file and its journal if they exist (a leftover from an interrupted salvage)."""
    for name in (path, path.with_name(path.name + "-journal")):
        with contextlib.suppress(OSError):
            os.unlink(name)
