"""One database connection and everything that differs in *using* it, per backend.

The store never touches a DB-API connection directly: it goes through a :class:`Database`,
which converts placeholders (:mod:`._dialect`), classifies errors by the driver's own codes,
and knows how the backend keeps its schema version and serialises migrations. The SQLite
one is here; the PostgreSQL one is in :mod:`._postgres` (psycopg is imported only there).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Sequence
from typing import Any

from ._dialect import SQLITE, Dialect

__all__ = ["Database", "SqliteDatabase", "sqlite_error_kind"]

_CORRUPT_CODES = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
_BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


class Database:
    """A connection in autocommit mode (transactions are explicit) and its dialect.

    Error kinds (:meth:`error_kind`) drive the store's policy:

    * ``"busy"``: another session holds a lock; the change can wait and be retried;
    * ``"lost"``: the connection is gone (server restarted, network); reconnect and retry;
    * ``"corrupt"``: the SQLite file is damaged (it is set aside when the store reopens);
    * ``"unique"``: a UNIQUE constraint refused a row (turned into :class:`DuplicateTitle`);
    * ``"other"``: anything else (reported as a warning).

    Args:
        conn: The driver's connection.
    """

    dialect: Dialect = SQLITE
    errors: tuple[type[BaseException], ...] = ()
    """The driver's error classes: what the store turns into warnings."""

    def __init__(self, conn: Any) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """Run one statement written in the store's SQL (``?`` placeholders).

        Returns:
            The driver's cursor (``fetchone``, ``fetchall``, ``rowcount``).
        """
        text = self.dialect.sql(sql)
        # Without parameters nothing is parsed for placeholders (DDL goes through here).
        return self.conn.execute(text, tuple(params)) if params else self.conn.execute(text)

    @property
    def in_transaction(self) -> bool:
        """True while a transaction is open (or failed and awaits its rollback)."""
        raise NotImplementedError

    def rollback(self) -> None:
        """Roll back the open transaction, if any; never raises (the error is already known)."""
        if not self.in_transaction:
            return
        # The server or SQLite may have dropped it already (some errors do so).
        with contextlib.suppress(*self.errors):
            self.execute("ROLLBACK")

    def close(self) -> None:
        """Close the connection (errors ignored: it may be gone already)."""
        with contextlib.suppress(*self.errors):  # closing a dead connection
            self.conn.close()

    def error_kind(self, error: BaseException) -> str:
        """Classify an error by the driver's codes, never by its message (see the class)."""
        raise NotImplementedError

    # -- schema version and migrations ------------------------------------------------------

    def schema_version(self) -> int:
        """The schema version of the database (0 when it has none yet)."""
        raise NotImplementedError

    def begin_migration(self) -> None:
        """Start the transaction that migrates, holding the lock that keeps other sessions
        from migrating at the same time (they wait, then find nothing left to do)."""
        raise NotImplementedError

    def set_schema_version(self, version: int) -> None:
        """Record ``version`` (inside the migration's transaction)."""
        raise NotImplementedError


class SqliteDatabase(Database):
    """An :mod:`sqlite3` connection (``isolation_level=None``)."""

    dialect = SQLITE
    errors = (sqlite3.Error,)

    @property
    def in_transaction(self) -> bool:
        return bool(self.conn.in_transaction)

    def error_kind(self, error: BaseException) -> str:
        return sqlite_error_kind(error)

    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def begin_migration(self) -> None:
        # EXCLUSIVE: readers of a half-migrated file would see tables mid-rebuild.
        self.conn.execute("BEGIN EXCLUSIVE")

    def set_schema_version(self, version: int) -> None:
        self.conn.execute(f"PRAGMA user_version = {int(version)}")


def sqlite_error_kind(error: BaseException) -> str:
    """Classify an :mod:`sqlite3` error by SQLite's result code, never by its message.

    Returns:
        ``"unique"`` for a UNIQUE constraint, ``"corrupt"`` for SQLITE_CORRUPT / SQLITE_NOTADB,
        ``"busy"`` for SQLITE_BUSY / SQLITE_LOCKED, ``"other"`` for anything else.
    """
    code = getattr(error, "sqlite_errorcode", None)
    if code is None:
        return "other"
    if code == sqlite3.SQLITE_CONSTRAINT_UNIQUE:
        return "unique"
    primary = code & 0xFF  # Extended codes (SQLITE_BUSY_SNAPSHOT ...) keep the primary low byte.
    if primary in _CORRUPT_CODES:
        return "corrupt"
    if primary in _BUSY_CODES:
        return "busy"
    return "other"
