"""Setting a damaged row aside: out of the player's way, but never deleted.

A row whose stored content cannot be decoded (see :mod:`._decode`) is copied, whole, into the
``damaged_rows`` table and removed from its own table (or, for a save whose only damage is
its summary, the summary is copied and cleared, so the save still loads). Every other row
stays usable; the copy lets someone look at what was there.

``damaged_rows`` is created the first time a row is set aside (``CREATE TABLE IF NOT
EXISTS``, in the same transaction), so a healthy database never has it and the schema
version does not change.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from ._db import Database

__all__ = ["DAMAGED_TABLE", "set_aside"]

DAMAGED_TABLE = "damaged_rows"
"""Where damaged rows go: their table, key, whole content (a JSON object), and why."""

_CREATE = f"""
    CREATE TABLE IF NOT EXISTS {DAMAGED_TABLE} (
        "user"    TEXT NOT NULL,
        source    TEXT NOT NULL,
        row_key   TEXT NOT NULL,
        content   TEXT NOT NULL,
        reason    TEXT NOT NULL,
        found_at  {{REAL}} NOT NULL
    )
"""

_TABLES = frozenset({"saves", "settings"})
"""The tables whose rows hold JSON (a fixed list: table and column names are never data)."""


def set_aside(
    table: str,
    key: Mapping[str, Any],
    reason: str,
    *,
    clear: str | None = None,
) -> Callable[[Database], bool]:
    """The write that sets one damaged row aside.

    Args:
        table: ``"saves"`` or ``"settings"``.
        key: The row's primary key, ``{column: value}`` (``"user"`` included).
        reason: Why it is unreadable (kept with the copy).
        clear: A nullable column to copy and clear instead of moving the whole row (a save's
            ``summary``), or None to move the row.

    Returns:
        ``work(db)`` for a write transaction (True once done).
    """
    if table not in _TABLES:
        raise ValueError(f"no JSON rows in {table!r}")
    where = " AND ".join(f'"{column}" = ?' for column in key)
    params = tuple(key.values())
    row_key = "/".join(str(value) for column, value in key.items() if column != "user")

    def work(db: Database) -> bool:
        db.execute(db.dialect.ddl(_CREATE))
        cursor = db.execute(f"SELECT * FROM {table} WHERE {where}", params)
        rows = cursor.fetchall()
        columns = [str(item[0]) for item in cursor.description or ()]
        for row in rows:
            content = dict(zip(columns, row, strict=False))
            if clear is not None:
                content = {column: content[column] for column in (*key, clear)}
            db.execute(
                f'INSERT INTO {DAMAGED_TABLE} ("user", source, row_key, content, reason, '
                "found_at) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    str(key.get("user", "")),
                    table if clear is None else f"{table}.{clear}",
                    row_key,
                    json.dumps(content, default=repr),  # ASCII: lone surrogates too
                    reason,
                    time.time(),
                ),
            )
        if clear is None:
            db.execute(f"DELETE FROM {table} WHERE {where}", params)
        else:
            db.execute(f"UPDATE {table} SET {clear} = NULL WHERE {where}", params)
        return True

    return work
