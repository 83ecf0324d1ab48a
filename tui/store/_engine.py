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
* a store that cannot use its database at all falls back to memory for the session;
* a change queued while the database cannot write is also appended to this session's local
  journal (:mod:`._journal`), so quitting (or a crash) during an outage loses nothing; a
  background thread retries with back-off and writes the queue as soon as the database
  answers; a new session first replays the journals ended sessions left behind;
* whoever watches the store (:meth:`StoreBase.watch`, the app) is told at once when it stops
  taking changes and when they have been written (:class:`StoreStatus`).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from core.text import plural

from ._changes import Change, change_work, coalesce, replaces
from ._db import Database, SqliteDatabase
from ._files import make_private_dir
from ._journal import Journal, journal_dir
from ._opening import Opened, connect, open_database
from ._schema import migrate
from ._target import MEMORY, StoreTarget, resolve_target

__all__ = ["BUSY_TIMEOUT_MS", "RECONNECT_INTERVAL_S", "StoreBase", "StoreStatus", "Work"]

log = logging.getLogger("termarcade.store")

BUSY_TIMEOUT_MS = 5_000
"""How long one statement waits for another session's lock before giving up."""

RECONNECT_INTERVAL_S = 5.0
"""After a database server could not be reached, how long the store waits before trying
again (each try may take the connect timeout: the UI must not stall on every call). The wait
doubles after every failed try, up to :data:`RECONNECT_MAX_S`."""

RECONNECT_MAX_S = 60.0
"""The longest wait between two tries to reach a server that does not answer."""

QUICK_BUSY_MS = 50
"""How long writing the queue waits for a SQLite lock while a busy spell lasts: a move must
not wait the full busy timeout on a file another program keeps locked (the background retry
tries again)."""

KEEP_AFTER_MS = 2_000
"""How long a change that needs no answer waits for a SQLite lock before it is kept for
later: longer than any write of another session, far shorter than the busy timeout (the
first move after another program locked the file froze the screen for 5 s)."""


@dataclass(frozen=True)
class StoreStatus:
    """Whether the store takes changes now, for whoever watches it (the app's notices).

    Attributes:
        reachable: False while changes are kept (queued and journalled) instead of written.
        kept: Changes waiting to be written.
        saved: When it came back: how many kept changes were written.
        journal: The file on this host that holds the kept changes (None: memory only).
    """

    reachable: bool
    kept: int = 0
    saved: int = 0
    journal: Path | None = None


Watcher = Callable[[StoreStatus], None]
"""Told of every change of :class:`StoreStatus`; may be called from the retry thread."""

T = TypeVar("T")
Work = Callable[[Database], T]
"""A read or the body of a write transaction, given the open database."""


def _driver_errors() -> tuple[type[BaseException], ...]:
    """The error classes of every database driver in use (psycopg only once imported)."""
    # UnicodeDecodeError: the sqlite3 module decoding a damaged file's text or error message.
    errors: tuple[type[BaseException], ...] = (sqlite3.Error, UnicodeDecodeError)
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
            a locked database for twice as long before carrying on without it; an
            unreachable server is tried once (the journal takes the changes meanwhile).

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
        self._pending: list[tuple[Work[object], Change | None]] = []
        self._busy_warned = False
        self._closed = False
        self._ready = True
        self._retry_at = 0.0
        self._retry_wait = RECONNECT_INTERVAL_S
        self._watchers: list[Watcher] = []
        self._down = False  # watchers were told that changes are being kept
        self._kept_in_spell = 0
        self._leftovers_due = False
        self._retrier: threading.Thread | None = None
        self._wake = threading.Event()
        try:
            self._target = resolve_target(path)
        except ValueError as error:
            if path is not None:
                raise
            self.warnings.append(
                f"Ignoring the store setting ({error}); progress is kept for this session only."
            )
            self._target = MEMORY
        self._journal: Journal | None = None
        if self._target.backend != "memory":
            where = self._target.describe()
            where = os.path.abspath(where) if self._target.backend == "sqlite" else where
            self._journal = Journal(journal_dir(where, user))
        # A server that does not answer gets one try: the journal takes the changes and the
        # retry thread keeps trying, so a login during an outage is as quick as ever.
        patience = 0.0 if self._target.backend == "postgresql" else 2 * busy_timeout
        self._db: Database | None = self._open(patience=patience)
        self._leftovers_due = self._journal is not None and self.backend != "memory"
        if self._ready:
            self._replay_leftovers()
        elif self._leftovers_due:
            self._start_retrier()

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

    def _change(self, change: Change) -> None:
        """Make a change that needs no answer: now, or kept (queued and journalled) for later.

        Args:
            change: The change (see :mod:`._changes`).
        """
        self._write(None, change_work(change), deferrable=True, change=change)

    def _write(
        self,
        default: T,
        work: Work[T],
        *,
        deferrable: bool = False,
        retry: bool = True,
        change: Change | None = None,
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
            change: ``work`` as data: when queued it is also kept in the journal.

        Returns:
            The result of ``work``, or ``default``.
        """
        with self._lock:
            if self._closed:
                return self._closed_default(default)
            if not (self._ensure_ready() and self._flush(quick=True)):
                # Still busy: write nothing out of order; queue it behind the others.
                if deferrable:
                    return self._defer(work, default, change)
                return self._busy(default)
            try:
                with self._short_waits(KEEP_AFTER_MS if deferrable else None):
                    return self._attempt(lambda db: self._transaction(db, work), retry=retry)
            except _Failure as failure:
                if deferrable and failure.kind in ("busy", "lost"):
                    return self._defer(work, default, change)
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

    def _flush(self, *, quick: bool = False) -> bool:
        """Write the queued changes in order.

        Args:
            quick: Wait only :data:`QUICK_BUSY_MS` for a SQLite lock (a player is waiting).

        Returns:
            True when the queue is empty; False if the database is still busy.
        """
        if not self._pending:
            self._busy_warned = False
            return True
        with self._short_waits(QUICK_BUSY_MS if quick else None):
            while self._pending:
                if not self._write_queued(self._pending[0][0]):
                    return False
                self._pending.pop(0)
        self._busy_warned = False
        self._came_back()
        return True

    def _write_queued(self, work: Work[Any]) -> bool:
        """Write one queued or journalled change in its own transaction.

        Args:
            work: The change's work.

        Returns:
            False if the database is busy or went away (the change is still to write); True
            once it is written, or failed for good (said, and passed over).
        """
        try:
            self._attempt(lambda db: self._transaction(db, work), retry=True)
        except _Failure as failure:
            if failure.kind in ("busy", "lost"):
                return False
            self._storage_error(failure.error)  # It will never succeed: say so, go on.
        return True

    @contextlib.contextmanager
    def _short_waits(self, wait_ms: int | None) -> Iterator[None]:
        """Make a SQLite connection give up on a lock after ``wait_ms`` (None: as usual)."""
        db = self._db
        usual = int(self._busy_timeout * 1000)
        if wait_ms is None or wait_ms >= usual or not isinstance(db, SqliteDatabase):
            yield
            return
        try:
            db.conn.execute(f"PRAGMA busy_timeout = {wait_ms}")
            yield
        finally:
            with contextlib.suppress(sqlite3.Error):
                db.conn.execute(f"PRAGMA busy_timeout = {usual}")

    def _back_off(self) -> None:
        """A failed background try: space out the next ones, doubling the wait each time."""
        self._retry_at = time.monotonic() + self._retry_wait
        self._retry_wait = min(RECONNECT_MAX_S, 2 * self._retry_wait)

    def _defer(self, work: Work[Any], default: T, change: Change | None = None) -> T:
        """Keep a change for when the database takes changes again.

        It is queued in this session and, when given as data, appended to the journal, so
        it survives the session; the retry thread writes it as soon as it can.
        """
        if change is not None:
            work = change_work(change, late=True)  # Never over a newer row, when it runs.
            if self._journal is not None:
                self._journal.append(change)
            self._kept(change)
            # The queue needs no save the new one overwrites (the journal keeps every line).
            self._pending = [
                item for item in self._pending if item[1] is None or not replaces(change, item[1])
            ]
        self._pending.append((work, change))
        self._kept_in_spell += 1
        self._warn_busy()
        if not self._down:
            self._down = True
            self._tell(StoreStatus(False, self._kept_in_spell, 0, self.journal_path))
        self._start_retrier()
        return default

    def _kept(self, change: Change) -> None:
        """Hook: ``change`` is kept for later (the store shows kept saves meanwhile)."""

    def _written(self) -> None:
        """Hook: every kept change is in the database now."""

    def _came_back(self) -> None:
        """The queue is written: clear the journal, tell the watchers how much was saved."""
        if self._journal is not None:
            self._journal.clear()
        self._written()
        if self._down:
            self._down = False
            saved, self._kept_in_spell = self._kept_in_spell, 0
            self._tell(StoreStatus(True, 0, saved, None))
        self._retry_wait = RECONNECT_INTERVAL_S

    # -- watching, the journal, the retry thread -------------------------------------------------

    def watch(self, watcher: Watcher) -> None:
        """Call ``watcher`` whenever the store stops taking changes and when it is back.

        Args:
            watcher: Called with a :class:`StoreStatus`, possibly from the store's retry
                thread and while the store is locked: it must only hand the news on (the app
                posts it to its own loop) and never call the store.
        """
        self._watchers.append(watcher)

    @property
    def status(self) -> StoreStatus:
        """Whether changes are written now, and how many wait (for the quit dialog)."""
        with self._lock:
            kept = self._kept_in_spell if self._pending else 0
            return StoreStatus(not kept, kept, 0, self.journal_path if kept else None)

    @property
    def journal_path(self) -> Path | None:
        """The file that keeps this session's changes while the store cannot take them."""
        journal = self._journal
        if journal is None or journal.problem is not None:
            return None
        return journal.path

    def retry_now(self) -> None:
        """Try to write the kept changes now rather than at the next scheduled retry."""
        self._retry_at = 0.0
        self._wake.set()

    def _tell(self, status: StoreStatus) -> None:
        for watcher in list(self._watchers):
            try:
                watcher(status)
            except Exception:  # A watcher's bug must not cost the player a move.
                log.exception("a store watcher failed")

    def _start_retrier(self) -> None:
        """Start the background retry thread unless it runs."""
        if self._retrier is not None and self._retrier.is_alive():
            return
        self._retrier = threading.Thread(
            target=self._retry_loop, name="termarcade-store-retry", daemon=True
        )
        self._retrier.start()

    def _retry_loop(self) -> None:
        """Until nothing is kept: wait for the next try (or :meth:`retry_now`), then try."""
        while True:
            delay = max(0.2, self._retry_at - time.monotonic())
            if self._wake.wait(delay):
                self._wake.clear()
            with self._lock:
                if self._closed or not (self._pending or self._leftovers_due):
                    return
                self._retry_at = 0.0
                if self._ensure_ready() and self._flush(quick=True) and self._leftovers_due:
                    self._replay_leftovers()
                if not (self._pending or self._leftovers_due):
                    return
                if self._retry_at <= time.monotonic():
                    self._back_off()

    def _replay(self, changes: list[Change]) -> bool:
        """Run journalled changes in order as late changes; False if the database went away."""
        return all(self._write_queued(change_work(change, late=True)) for change in changes)

    def _replay_leftovers(self) -> None:
        """Write the journals that ended sessions left behind (their changes, in order)."""
        self._leftovers_due = False
        if self._journal is None or self.backend == "memory":
            return
        replayed = 0
        with self._short_waits(QUICK_BUSY_MS):  # A login must not wait on a locked file.
            for leftover in self._journal.leftovers():
                if not self._replay(coalesce(leftover.changes)):
                    # Gone again: leave the file for later (what ran runs again: no harm).
                    leftover.release()
                    self._leftovers_due = True
                    self._start_retrier()
                    break
                leftover.done()
                replayed += len(leftover.changes)
        if replayed:
            self.warnings.append(
                f"Store back: {plural(replayed, 'change')} kept on this host by an earlier "
                "session saved."
            )

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
                    self._report_kept()
            self._closed = True
            self._wake.set()  # The retry thread ends.
            if self._journal is not None:
                self._journal.close()  # Kept changes stay in the file for the next session.
            if self._db is not None:
                self._db.close()

    def _report_kept(self) -> None:
        """Closing with changes not written: say where they are (warning and log line)."""
        count = self._kept_in_spell  # The player's changes (the queue holds one save a slot).
        where = self.journal_path
        if where is not None:
            message = (
                f"{count} change(s) could not be saved yet: the store {self.location} did not "
                f"take them (unreachable or locked); they are kept in {where} and will be "
                "written when it returns (the player's next session writes them)."
            )
        else:
            problem = self._journal.problem if self._journal is not None else None
            message = f"{count} change(s) could not be saved: the progress database stayed busy" + (
                f" and the journal failed ({problem})." if problem else "."
            )
        self.warnings.append(message)
        # The session's exit leaves a trace for the operator too (stderr without a handler).
        log.warning("%s%s", f"player {self.user!r}: " if self.user else "", message)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
