"""The database schema and its migrations.

Version 1 (termarcade 0.1): ``solved``, ``saves``, ``scores`` and ``settings``, one player.

Version 2: every table gains a ``user`` column first in its primary key (``""`` is the local
player; served mode uses the remote user's name), ``saves`` gains a JSON ``summary`` so a
level list can show progress without loading every save, and ``my_levels`` holds the
player's own levels. Migrating from 1 copies every row to the local player ``""``.

A fresh database goes through every migration in order, so the upgrade path from version 1
is exercised on every first start, not only on old installations. All migrations a database
needs run in one exclusive transaction: another session sees the old schema or the new one,
never a half-built one, and a crash mid-way leaves the old database as it was.
"""

from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 2
"""Current schema version, stored in ``PRAGMA user_version``."""

_V1 = (
    """
    CREATE TABLE IF NOT EXISTS solved (
        game      TEXT NOT NULL,
        pack      TEXT NOT NULL,
        level     TEXT NOT NULL,
        moves     INTEGER,
        solved_at REAL NOT NULL,
        PRIMARY KEY (game, pack, level)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS saves (
        game     TEXT NOT NULL,
        slot     TEXT NOT NULL,
        data     TEXT NOT NULL,
        saved_at REAL NOT NULL,
        PRIMARY KEY (game, slot)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS scores (
        game        TEXT NOT NULL,
        key         TEXT NOT NULL,
        score       INTEGER NOT NULL,
        recorded_at REAL NOT NULL,
        PRIMARY KEY (game, key)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )
    """,
)
"""Version 1 exactly as termarcade 0.1 created it (kept verbatim: history, not to be edited)."""


def _rebuild(table: str, columns: str, copy_from: str) -> tuple[str, ...]:
    """Statements that rebuild ``table`` with new columns, copying its rows.

    SQLite cannot change a primary key in place, so the table is created anew, filled, and
    renamed over the old one (all inside the migration's transaction).

    Args:
        table: Table name.
        columns: Column and constraint definitions of the new table.
        copy_from: ``INSERT`` column list and ``SELECT`` list, ``"(cols) SELECT ..."``.

    Returns:
        The statements, in order.
    """
    return (
        f"CREATE TABLE {table}_v2 ({columns})",
        f"INSERT INTO {table}_v2 {copy_from} FROM {table}",
        f"DROP TABLE {table}",
        f"ALTER TABLE {table}_v2 RENAME TO {table}",
    )


_V1_TO_V2 = (
    *_rebuild(
        "solved",
        """
        user      TEXT NOT NULL,
        game      TEXT NOT NULL,
        pack      TEXT NOT NULL,
        level     TEXT NOT NULL,
        moves     INTEGER,
        solved_at REAL NOT NULL,
        PRIMARY KEY (user, game, pack, level)
        """,
        "(user, game, pack, level, moves, solved_at) "
        "SELECT '', game, pack, level, moves, solved_at",
    ),
    *_rebuild(
        "saves",
        """
        user     TEXT NOT NULL,
        game     TEXT NOT NULL,
        slot     TEXT NOT NULL,
        data     TEXT NOT NULL,
        summary  TEXT,
        saved_at REAL NOT NULL,
        PRIMARY KEY (user, game, slot)
        """,
        "(user, game, slot, data, summary, saved_at) SELECT '', game, slot, data, NULL, saved_at",
    ),
    *_rebuild(
        "scores",
        """
        user        TEXT NOT NULL,
        game        TEXT NOT NULL,
        key         TEXT NOT NULL,
        score       INTEGER NOT NULL,
        recorded_at REAL NOT NULL,
        PRIMARY KEY (user, game, key)
        """,
        "(user, game, key, score, recorded_at) SELECT '', game, key, score, recorded_at",
    ),
    *_rebuild(
        "settings",
        """
        user  TEXT NOT NULL,
        key   TEXT NOT NULL,
        value TEXT NOT NULL,
        PRIMARY KEY (user, key)
        """,
        "(user, key, value) SELECT '', key, value",
    ),
    """
    CREATE TABLE my_levels (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        user       TEXT NOT NULL,
        game       TEXT NOT NULL,
        title      TEXT NOT NULL,
        text       TEXT NOT NULL,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        UNIQUE (user, game, title)
    )
    """,
)

_MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V1_TO_V2)
"""Entry ``i`` upgrades the schema from version ``i`` to ``i + 1``."""
assert len(_MIGRATIONS) == SCHEMA_VERSION


class NewerSchema(Exception):
    """The database was written by a newer version of termarcade."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema version {version}")
        self.version = version


def schema_version(conn: sqlite3.Connection) -> int:
    """Return the database's ``PRAGMA user_version``."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> bool:
    """Bring the schema up to :data:`SCHEMA_VERSION` in one exclusive transaction.

    The version is read again once the lock is held: another session may have created or
    migrated the database while this one waited, and then there is nothing left to do.

    Args:
        conn: An autocommit connection (``isolation_level=None``).

    Returns:
        True if this call changed the schema.

    Raises:
        NewerSchema: If the database is newer than this code (nothing is changed).
        sqlite3.Error: Busy, corrupt, I/O ...; the transaction is rolled back.
    """
    conn.execute("BEGIN EXCLUSIVE")
    try:
        version = schema_version(conn)
        if version > SCHEMA_VERSION:
            raise NewerSchema(version)
        for step in range(version, SCHEMA_VERSION):
            for statement in _MIGRATIONS[step]:
                conn.execute(statement)
        if version < SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        rollback(conn)
        raise
    return version < SCHEMA_VERSION


def rollback(conn: sqlite3.Connection) -> None:
    """Roll back the open transaction, if any (a failed ``BEGIN`` leaves none to roll back)."""
    if not conn.in_transaction:
        return
    try:
        conn.execute("ROLLBACK")
    except sqlite3.Error:
        pass  # SQLite already rolled back (some errors do so automatically).
