"""The PostgreSQL backend (psycopg 3): for arcades that outgrow one host.

Several ``serve`` processes, on one host or many, share one database: ``--store
postgresql://...`` (or ``TERMARCADE_STORE``). The schema and its migrations are the SQLite
ones (:mod:`._schema`); only what is listed in :mod:`._dialect` and here differs:

* **the schema version** lives in a one-row table ``termarcade_schema`` (PostgreSQL has no
  ``user_version``), in the connection's current schema, so several arcades can share a
  database in separate schemas (``?options=-csearch_path%3Darcade2``);
* **migrations are serialised** by a transaction-scoped advisory lock keyed on that schema
  (the equivalent of SQLite's ``BEGIN EXCLUSIVE``); DDL is transactional in PostgreSQL, so
  all the migrations a database needs commit together or not at all;
* **errors** are classified by psycopg's SQLSTATE classes: lock timeouts, deadlocks and
  serialization failures are "busy" (the change waits and is retried), a dropped connection
  is "lost" (the store reconnects and retries once);
* **opening**: a connection that fails is retried for the store's patience, then later
  (changes are queued meanwhile, as for a locked SQLite file). libpq gives connection
  failures no SQLSTATE, so "not running", "too many connections" and "no such database" look
  alike; all are retried, and the warning carries libpq's own words so an operator can tell.
  Once connected, the server's answers have codes: a refusal that will not go away (no right
  to create the tables) or a database written by a newer termarcade sends the session to
  memory with a warning, as a damaged SQLite file in a read-only directory does. psycopg is
  imported only here, so the SQLite default never needs it.
"""

from __future__ import annotations

import time
from typing import Any

from ._db import Database
from ._dialect import POSTGRES
from ._opening import Opened
from ._schema import SCHEMA_VERSION, NewerSchema, migrate
from ._target import redact

__all__ = ["PostgresDatabase", "open_postgres"]

_POLL_S = 0.2
"""Pause between attempts to reach a server that does not answer."""
_SESSION_ONLY = "progress is kept for this session only"
_TRANSIENT_CLASSES = ("08", "53", "57P")
"""SQLSTATE classes worth retrying: connection exceptions, insufficient resources (too many
connections), operator intervention (the server is starting or shutting down)."""


class PostgresDatabase(Database):
    """A psycopg 3 connection in autocommit mode (transactions are explicit)."""

    dialect = POSTGRES

    def __init__(self, conn: Any) -> None:
        import psycopg

        super().__init__(conn)
        self.errors = (psycopg.Error,)

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus

        # UNKNOWN is a broken connection: there is nothing left to roll back.
        status = self.conn.info.transaction_status
        return status in (TransactionStatus.INTRANS, TransactionStatus.INERROR)

    def error_kind(self, error: BaseException) -> str:
        from psycopg import OperationalError, errors

        if isinstance(error, errors.UniqueViolation):
            return "unique"
        if isinstance(
            error, (errors.LockNotAvailable, errors.DeadlockDetected, errors.SerializationFailure)
        ):
            return "busy"
        if self.conn.closed or self.conn.broken:
            return "lost"
        if isinstance(error, OperationalError) and _transient(error):
            return "lost"
        return "other"

    def schema_version(self) -> int:
        (table,) = self.execute("SELECT to_regclass('termarcade_schema')").fetchone()
        if table is None:
            return 0
        row = self.execute("SELECT version FROM termarcade_schema").fetchone()
        return 0 if row is None else int(row[0])

    def begin_migration(self) -> None:
        self.execute("BEGIN")
        # Keyed on the schema: arcades in other schemas of the database never wait for this one.
        self.execute(
            "SELECT pg_advisory_xact_lock("
            "hashtext('termarcade ' || COALESCE(current_schema(), '')))"
        )
        # Safe only under the lock: concurrent CREATE TABLE IF NOT EXISTS can fail in PostgreSQL.
        self.execute("CREATE TABLE IF NOT EXISTS termarcade_schema (version INTEGER NOT NULL)")

    def set_schema_version(self, version: int) -> None:
        self.execute("DELETE FROM termarcade_schema")
        self.execute("INSERT INTO termarcade_schema (version) VALUES (?)", (int(version),))


def _transient(error: BaseException) -> bool:
    """True when the server could not be reached (no SQLSTATE) or asked to come back later."""
    state = getattr(error, "sqlstate", None)
    return state is None or state.startswith(_TRANSIENT_CLASSES)


def _reason(error: BaseException) -> str:
    """libpq's words for an error, on one line (without the socket path it starts with)."""
    text = " ".join(str(error).split())
    _, found, after = text.rpartition(" failed: ")
    return (after if found else text) or type(error).__name__


def open_postgres(url: str, busy_timeout: float, patience: float) -> Opened:
    """Connect to ``url`` and bring its schema up to date.

    Args:
        url: A ``postgresql://`` URL.
        busy_timeout: Seconds a statement waits for a lock (``lock_timeout``).
        patience: Seconds to keep retrying a server that cannot be reached.

    Returns:
        Ready; or ``later`` (unreachable: the caller queues changes and retries); or no
        database (the caller uses memory; the warning says why). Never raises for storage
        problems.
    """
    where = redact(url)
    try:
        import psycopg
    except ImportError:
        return Opened(
            None,
            False,
            [
                f"The store {where} needs psycopg (pip install 'termarcade[postgres]'); "
                f"{_SESSION_ONLY}."
            ],
        )
    deadline = time.monotonic() + patience
    while True:
        try:
            return Opened(_connect(psycopg, url, busy_timeout), True)
        except NewerSchema as newer:
            return Opened(
                None,
                False,
                [
                    f"The PostgreSQL store {where} was written by a newer termarcade (schema "
                    f"{newer.version}); it was left untouched; {_SESSION_ONLY}."
                ],
            )
        except psycopg.Error as error:
            if not _transient(error):
                return Opened(
                    None,
                    False,
                    [
                        f"Cannot use the PostgreSQL store {where} ({_reason(error)}); "
                        f"{_SESSION_ONLY}."
                    ],
                )
            if time.monotonic() >= deadline:
                return Opened(
                    None,
                    False,
                    [
                        f"Cannot reach the PostgreSQL store {where} ({_reason(error)}); "
                        "changes are kept and saved once it answers."
                    ],
                    later=True,
                )
            time.sleep(_POLL_S)


def _connect(psycopg: Any, url: str, busy_timeout: float) -> PostgresDatabase:
    """One attempt: connect, set the lock timeout, migrate if needed.

    Raises:
        psycopg.Error: Connecting or migrating failed (the connection is closed).
        NewerSchema: The database is newer than this code (nothing was changed).
    """
    conn = psycopg.connect(
        url,
        autocommit=True,
        # Whole seconds, at least 2 for libpq: a host that drops packets stalls a call no longer
        # (the store spaces out its tries; a refused connection fails at once anyway).
        connect_timeout=2,
        application_name="termarcade",
        # No server-side prepared statements: they break behind a pooler such as PgBouncer.
        prepare_threshold=None,
    )
    db = PostgresDatabase(conn)
    try:
        # A lock held longer than this fails as "busy", like SQLite's busy timeout.
        db.execute(f"SET lock_timeout = {int(busy_timeout * 1000)}")
        if db.schema_version() != SCHEMA_VERSION:
            migrate(db)  # Raises NewerSchema for a newer database, changing nothing.
    except BaseException:
        db.close()
        raise
    return db
