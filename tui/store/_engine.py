"""The store's plumbing: which database, transactions, the busy queue, errors as warnings.

:class:`StoreBase` is what every :class:`~._store.Store` method runs through. It knows
nothing of tables; it runs a *work* function (``work(db) -> result``) either as a read or as
one write transaction, and applies the store's contract whatever the backend:

* storage errors never raise: they become a message in :attr:`StoreBase.warnings` and the
  method's "nothing there" value;
* a busy database (a locked SQLite file, a PostgreSQL lock timeout) or an unreachable server
  delays changes that need no answer: they are queued in order and written before the next
  write or at :meth:`StoreBase.close`;
* a lost PostgreSQL connection (server restarted, network) is reopened and the work retried
  once, so a long-running session survives a database restart without a word;
* a store that cannot use its database at all falls back to memory for the session.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from ._db import Database, SqliteDatabase
from ._files import make_private_dir
from ._opening import Opened, connect, open_database
from ._schema import migrate
from ._target import MEMORY, StoreTarget, resolve_target

__all__ = ["BUSY_TIMEOUT_MS", "RECONNECT_INTERVAL_S", "StoreBase", "Work"]

BUSY_TIMEOUT_MS = 5_000
"""How long one statement waits for another session's lock before giving up."""

RECONNECT_INTERVAL_S = 5.0
"""After a database server could not be reached, how long the store waits before trying
again (each try may take the connect timeout: the UI must not stall on every call). The wait
doubles after every failed try, up to :data:`RECONNECT_MAX_S`."""

RECONNECT_MAX_S = 60.0
"""The longest wait between two tries to reach a server that does not answer."""

T = TypeVar("T")
Work = Callable[[Database], T]
"""A read or the body of a write transaction, given the open database."""


def _driver_errors() -> tuple[type[BaseException], ...]:
    """The error classes of every database driver in use (psycopg only once imported)."""
    errors: tuple[type[BaseException], ...] = (sqlite3.Error,)
    psycopg = sys.modules.get("psycopg")
    if psycopg is not None:
        errors += (psycopg.Error,)
    return errors


class _Failure(Exception):
    """A storage error and its kind (see :meth:`._db.Database.error_kind`), classified by the
    connection that raised it (the store may have moved to another one since)."""

    def __init__(self, error: BaseException, kind: str) -> None:
        super().__init__(str(error))
        self.error = error
        self.kind = kind


class StoreBase:
    """Opening the right database and running work on it under the store's contract.

    Args:
        path: A SQLite file path, a ``postgresql://`` URL (see :mod:`._target`), ``":memory:"``
            for a throw-away store, or ``None`` for ``$TERMARCADE_STORE`` or else
            ``data_dir()/termarcade.sqlite3``.
        user: Whose data the store reads and writes; ``""`` is the local player.
        busy_timeout: Seconds a statement waits for another session's lock. Opening retries
            a locked database (or an unreachable server) for twice as long before carrying
            on without it.

    Raises:
        TypeError: If ``user`` is not a string.
        ValueError: If ``path`` is a URL of an unsupported kind (a bad ``$TERMARCADE_STORE``
            is only warned about: the session then keeps its progress in memory).
    """

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        user: str = "",
        *,
        busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
    ) -> None:
        if not isinstance(user, str):
            raise TypeError(f"user must be a string, not {type(user).__name__}")
        self.user = user
        """Whose data this store reads and writes (``""``: the local player)."""
        self.warnings: list[str] = []
        """Messages for the user (corrupt database set aside, storage errors)."""
        self._lock = threading.RLock()
        self._busy_timeout = busy_timeout
        self._pending: list[Work[object]] = []
        self._busy_warned = False
        self._closed = False
        self._ready = True
        self._retry_at = 0.0
        self._retry_wait = RECONNECT_INTERVAL_S
        try:
            self._target = resolve_target(path)
        except ValueError as error:
            if path is not None:
                raise
            self.warnings.append(
                f"Ignoring the store setting ({error}); progress is kept for this session only."
            )
            self._target = MEMORY
        self._db: Database | None = self._open(patience=2 * busy_timeout)

    # -- where the data is -------------------------------------------------------------------

    @property
    def backend(self) -> str:
        """``"sqlite"``, ``"postgresql"`` or ``"memory"`` (also after a fallback to memory)."""
        return self._target.backend

    @property
    def path(self) -> Path | None:
        """The SQLite file, or ``None`` for PostgreSQL and for an in-memory store."""
        return self._target.path

    @property
    def location(self) -> str:
        """Where the data is, for messages: a file, a URL without its password, ``:memory:``."""
        return self._target.describe()

    # -- opening ---------------------------------------------------------------------------

    def _open(self, patience: float) -> Database | None:
        """Open the target (or memory), recording warnings.

        Args:
            patience: Seconds to keep retrying a locked database or an unreachable server.

        Returns:
            The database to use (None only while a server cannot be reached);
            :attr:`_ready` says whether its schema is checked.
        """
        target = self._target
        if target.backend == "memory":
            return self._memory()
        if target.backend == "postgresql":
            from ._postgres import open_postgres

            opened = open_postgres(target.url or "", self._busy_timeout, patience)
        else:
            from_file = self._open_file(target, patience)
            if from_file is None:
                return self._memory()
            opened = from_file
        if opened.later:
            # The server does not answer. Its message already says that changes are kept:
            # say it once per spell, not at every retry.
            self._retry_at = time.monotonic() + self._retry_wait
            self._retry_wait = min(RECONNECT_MAX_S, 2 * self._retry_wait)
            if not self._busy_warned:
                self.warnings.extend(opened.warnings)
            self._busy_warned = True
            self._ready = False
            return opened.db
        self.warnings.extend(opened.warnings)
        if opened.db is None:
            return self._memory()  # The warning already says why.
        self._retry_wait = RECONNECT_INTERVAL_S
        self._ready = opened.ready
        if not opened.ready:
            self._warn_busy()
        return opened.db

    def _open_file(self, target: StoreTarget, patience: float) -> Opened | None:
        """Open a SQLite file (see :mod:`._opening`); None if its directory cannot be made."""
        assert target.path is not None
        try:
            make_private_dir(target.path.parent)  # 0700: other local users read no saves
        except OSError as error:
            self.warnings.append(
                f"Cannot create the data directory {target.path.parent} "
                f"({error.strerror or error}); progress is kept for this session only."
            )
            return None
        return open_database(target.path, self._busy_timeout, patience)

    def _memory(self) -> Database:
        """Switch to a fresh in-memory database (progress lasts for this session)."""
        self._target = MEMORY
        self._ready = True
        db = SqliteDatabase(connect(":memory:", self._busy_timeout))
        migrate(db)
        return db

    def _ensure_ready(self) -> bool:
        """After a busy open or a lost connection, try once more to open the database.

        Returns:
            True if the database is ready (possibly a new connection, or memory).
        """
        if self._ready:
            return True
        if time.monotonic() < self._retry_at:
            return False  # The server did not answer a moment ago: do not stall the UI again.
        stale = self._db
        # One try for a server (a refused connection fails at once; the retry interval spaces
        # out the next ones); a locked SQLite file is worth the busy timeout.
        patience = 0.0 if self.backend == "postgresql" else self._busy_timeout
        self._db = self._open(patience=patience)
        if stale is not None and stale is not self._db:
            stale.close()
        return self._ready

    def _warn_busy(self) -> None:
        """Say once per busy spell that the database cannot be written now."""
        if self._busy_warned:
            return
        self._busy_warned = True
        if self.backend == "postgresql":
            self.warnings.append(
                f"The progress database {self.location} cannot be reached or is busy; "
                "changes are kept and saved once it answers."
            )
        else:
            self.warnings.append(
                f"The progress database {self.location} is busy (another program holds it "
                "locked); changes are kept and saved once it is free."
            )

    # -- running work ----------------------------------------------------------------------

    def _attempt(self, run: Work[T], *, retry: bool) -> T:
        """Run ``run(db)``; after a lost connection, reconnect and (if ``retry``) run it again.

        Raises:
            _Failure: The driver's error and its kind (a lost connection is marked for
                reopening, so the next call tries again).
        """
        db = self._db
        assert db is not None
        try:
            return run(db)
        except _driver_errors() as error:
            failure = self._failure(db, error)
            if failure.kind != "lost" or not retry:
                raise failure from error
            self._retry_at = 0.0  # Reconnect now: the server was there a moment ago.
            if not self._ensure_ready():
                raise failure from error
        db = self._db
        assert db is not None
        try:
            return run(db)
        except _driver_errors() as error:
            raise self._failure(db, error) from error

    def _failure(self, db: Database, error: BaseException) -> _Failure:
        """Classify ``error`` by the database that raised it; a lost one must be reopened."""
        kind = db.error_kind(error)
        if kind == "lost":
            self._ready = False
        return _Failure(error, kind)

    def _read(self, default: T, work: Work[T]) -> T:
        """Run a query; turn storage errors into a warning and ``default``."""
        with self._lock:
            if self._closed:
                return self._closed_default(default)
            if not self._ensure_ready():
                return default
            try:
                return self._attempt(work, retry=True)
            except _Failure as failure:
                self._storage_error(failure.error)
                return default

    def _write(
        self, default: T, work: Work[T], *, deferrable: bool = False, retry: bool = True
    ) -> T:
        """Run ``work`` in one write transaction (all or nothing).

        Args:
            default: What to return when storage fails.
            work: The statements; they must give the same result when run again later
                (upserts, deletes, inserts keyed by an id made beforehand).
            deferrable: Queue ``work`` if the database is busy or unreachable (only for
                changes whose caller needs no answer).
            retry: Run ``work`` again on a new connection when the old one was lost (False
                for work that may not be repeated if its commit reached the server).

        Returns:
            The result of ``work``, or ``default``.
        """
        with self._lock:
            if self._closed:
                return self._closed_default(default)
            if not (self._ensure_ready() and self._flush()):
                # Still busy: write nothing out of order; queue it behind the others.
                return self._defer(work, default) if deferrable else self._busy(default)
            try:
                return self._attempt(lambda db: self._transaction(db, work), retry=retry)
            except _Failure as failure:
                if deferrable and failure.kind in ("busy", "lost"):
                    return self._defer(work, default)
                self._storage_error(failure.error)
                return default

    @staticmethod
    def _transaction(db: Database, work: Work[T]) -> T:
        """Run ``work`` between the dialect's ``BEGIN`` and ``COMMIT``; roll back on any error."""
        db.execute(db.dialect.begin)
        try:
            result = work(db)
            db.execute("COMMIT")
        except BaseException:
            db.rollback()
            raise
        return result

    def _flush(self) -> bool:
        """Write the queued changes in order.

        Returns:
            True when the queue is empty; False if the database is still busy.
        """
        while self._pending:
            work = self._pending[0]
            try:
                self._attempt(lambda db: self._transaction(db, work), retry=True)  # noqa: B023 - runs now
            except _Failure as failure:
                if failure.kind in ("busy", "lost"):
                    return False
                self._storage_error(failure.error)  # It will never succeed: report it, go on.
            self._pending.pop(0)
        self._busy_warned = False
        return True

    def _defer(self, work: Work[Any], default: T) -> T:
        """Queue a change for when the database is free again."""
        self._pending.append(work)
        self._warn_busy()
        return default

    def _busy(self, default: T) -> T:
        """A change that needs an answer now could not be made: the database is busy."""
        self.warnings.append(
            "The progress database is busy (another program holds it locked, or the server "
            "does not answer); that change was not saved."
        )
        return default

    def _storage_error(self, error: BaseException) -> None:
        text = str(error).strip().splitlines()
        self.warnings.append(f"Storage error: {text[0] if text else type(error).__name__}")

    def _closed_default(self, default: T) -> T:
        self.warnings.append("Storage error: the store is closed.")
        return default

    def close(self) -> None:
        """Write queued changes if the database is free now, and close the connection.

        Further calls return their empty value with a warning, never an exception.
        """
        with self._lock:
            if self._closed:
                return
            if self._pending:
                self._retry_at = 0.0  # Last chance: try the server now.
                if not (self._ensure_ready() and self._flush()):
                    self.warnings.append(
                        f"{len(self._pending)} change(s) could not be saved: the progress "
                        "database stayed busy."
                    )
            self._closed = True
            if self._db is not None:
                self._db.close()

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
