"""Opening the database file safely when many sessions start at once or the file is damaged.

The rules, in the order they are applied:

* SQLite's own locking does the heavy lifting: the schema is created or migrated inside one
  ``BEGIN EXCLUSIVE`` transaction (see :mod:`._schema`), so another session sees either no
  schema or the whole schema, never half of one.
* Only definite damage counts as corruption: a ``sqlite3.Error`` whose ``sqlite_errorcode`` is
  ``SQLITE_CORRUPT`` or ``SQLITE_NOTADB``, or a failed ``PRAGMA quick_check`` on a database that
  already had a schema when this session found it (one this session has just built is whole).
* Busy or locked is never corruption: the open is retried until the patience runs out, and if
  the file is still locked the session keeps its on-disk connection (the store retries later).
* Setting a damaged file aside happens once per file, whatever the number of sessions: an
  advisory lock file (``termarcade.sqlite3.lock``, ``fcntl.flock``) is held shared by every
  session while it opens and checks the database, and exclusively by the one that moves it
  aside. Under the exclusive lock the mover checks that the path still names the very file it
  found damaged (device and inode); if not, another session has already dealt with it. The
  aside name is claimed with a hard link, which never overwrites an existing file.
* The file's ``-wal``, ``-shm`` and ``-journal`` go with it, so the new database never starts
  with the old one's log. (When no other process has the file open, SQLite's own recovery has
  usually removed them already as the checking connection closed: it folds a valid WAL or hot
  journal into the file first, so only what it applied, or what held nothing, disappears.)
* Every rename and unlink is guarded: if the directory cannot be written, the damaged file is
  left untouched and the session keeps its progress in memory, with a warning.
"""

from __future__ import annotations

import errno
import itertools
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from ._db import Database, SqliteDatabase, sqlite_error_kind
from ._files import PRIVATE_FILE_MODE, create_private_file, tighten
from ._salvage import SALVAGE_SUFFIX, Salvaged, salvage
from ._schema import SCHEMA_VERSION, NewerSchema, migrate

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: renames there never overwrite anyway.
    fcntl = None  # type: ignore[assignment]

__all__ = ["LOCK_SUFFIX", "Opened", "connect", "error_kind", "open_database"]

LOCK_SUFFIX = ".lock"
"""Suffix of the advisory lock file next to the database."""

_SQLITE_SIDE_FILES = ("-wal", "-shm")

_COMPANIONS = ("-wal", "-shm", "-journal")
"""Files that belong to a database and move aside with it (the WAL may hold committed data)."""
_NO_HARD_LINKS = frozenset(
    code
    for code in (
        getattr(errno, name, None)
        for name in ("EPERM", "EXDEV", "EMLINK", "ENOTSUP", "EOPNOTSUPP", "ENOSYS")
    )
    if code is not None
)
"""``os.link`` errors meaning "no hard links here" rather than "cannot write here"."""
_POLL_S = 0.02
"""Pause between attempts to take the lock file or to reopen a busy database."""
_MAX_SET_ASIDES = 3
"""A database that is damaged again right after being replaced means a failing disk: stop."""
_SESSION_ONLY = "progress is kept for this session only"


def error_kind(error: BaseException) -> str:
    """Classify a storage error by SQLite's own result code, never by its message.

    Args:
        error: An exception raised while opening or using the database.

    Returns:
        ``"corrupt"`` for SQLITE_CORRUPT / SQLITE_NOTADB (or a failed quick_check),
        ``"busy"`` for SQLITE_BUSY / SQLITE_LOCKED, ``"other"`` for anything else.
    """
    if isinstance(error, _Damaged | UnicodeDecodeError):
        # Not UTF-8 where SQLite keeps text (its schema, an error quoting it): a damaged file.
        return "corrupt"
    kind = sqlite_error_kind(error)
    return "other" if kind == "unique" else kind


def connect(target: str, busy_timeout: float) -> sqlite3.Connection:
    """Open a connection configured the way the store uses it.

    Args:
        target: A file path or ``":memory:"``.
        busy_timeout: Seconds a statement waits for another session's lock.

    Returns:
        An autocommit connection (transactions are explicit) usable from worker threads
        (the store serialises access with its own lock).
    """
    return sqlite3.connect(
        target, timeout=busy_timeout, isolation_level=None, check_same_thread=False
    )


@dataclass
class Opened:
    """What :func:`open_database` achieved.

    Attributes:
        db: The database, or ``None`` when the caller must use memory (or, with ``ready``
            False, has nothing to use yet and tries again later).
        ready: False when the database stayed locked (or the server could not be reached):
            ``db`` is a plain connection whose schema is not checked yet, or None; the caller
            retries later.
        warnings: Messages for the player (set aside, left untouched ...).
        later: With no ``db``: nothing is usable yet but may be soon (a server that does not
            answer); the caller queues changes and tries again, rather than use memory.
    """

    db: Database | None
    ready: bool
    warnings: list[str] = field(default_factory=list)
    later: bool = False


def open_database(path: Path, busy_timeout: float, patience: float) -> Opened:
    """Open ``path``, creating, migrating, or setting it aside as the rules above say.

    Args:
        path: The database file (its directory exists).
        busy_timeout: Seconds one statement waits for a lock.
        patience: Seconds the whole open may keep retrying a busy database.

    Returns:
        The outcome; never raises for storage problems.
    """
    lock = _LockFile(path.with_name(path.name + LOCK_SUFFIX))
    for suffix in _SQLITE_SIDE_FILES:  # left 0644 by an older termarcade: private now
        tighten(path.with_name(path.name + suffix), PRIVATE_FILE_MODE)
    try:
        return _open_loop(path, busy_timeout, time.monotonic() + patience, patience, lock)
    finally:
        lock.close()


# -- one attempt ----------------------------------------------------------------------------


@dataclass
class _Ready:
    db: SqliteDatabase
    notes: list[str]


@dataclass
class _Busy:
    error: str


@dataclass
class _Corrupt:
    reason: str
    identity: tuple[int, int] | None
    """Device and inode of the file found damaged; None if the path changed meanwhile."""


@dataclass
class _Unusable:
    message: str


_Outcome = _Ready | _Busy | _Corrupt | _Unusable


class _Damaged(Exception):
    """``PRAGMA quick_check`` found damage."""


def _open_loop(
    path: Path, busy_timeout: float, deadline: float, patience: float, lock: _LockFile
) -> Opened:
    """Attempt to open until ready, unusable, set aside (then again), or out of patience."""
    warnings: list[str] = []
    set_asides = 0
    while True:
        outcome = _attempt(path, busy_timeout, deadline, lock)
        if isinstance(outcome, _Ready):
            return Opened(outcome.db, True, warnings + outcome.notes)
        if isinstance(outcome, _Unusable):
            return Opened(None, False, warnings + [outcome.message])
        if isinstance(outcome, _Busy):
            if time.monotonic() >= deadline:
                return _keep_busy(path, busy_timeout, warnings)
            time.sleep(_POLL_S)
            continue
        if outcome.identity is None:
            # The file changed while this session looked at it (another session set it aside
            # and started a new one): look again rather than judge a file not checked.
            if time.monotonic() >= deadline:
                return Opened(None, False, warnings + [_unreadable(path, outcome.reason)])
            time.sleep(_POLL_S)
            continue
        if set_asides >= _MAX_SET_ASIDES:
            return Opened(None, False, warnings + [_unreadable(path, outcome.reason)])
        set_asides += 1
        try:
            warnings.append(_set_aside(path, outcome, lock, time.monotonic() + patience))
        except _CannotSetAside as why:
            return Opened(None, False, warnings + [_untouched(path, outcome.reason, str(why))])


def _attempt(path: Path, busy_timeout: float, deadline: float, lock: _LockFile) -> _Outcome:
    """Connect and check/create the schema while holding the lock file shared.

    The shared lock keeps any session from moving the file aside while this one opens it;
    without a lock file (read-only directory) the attempt goes ahead all the same.
    """
    with lock.hold(exclusive=False, deadline=deadline):
        create_private_file(path)  # 0600, and so are the WAL and SHM SQLite makes next to it
        before = _identity(path)
        # Wait no longer than the patience left, so opening is bounded by the patience.
        wait = min(busy_timeout, max(_POLL_S, deadline - time.monotonic()))
        try:
            conn = connect(str(path), wait)
        except sqlite3.Error as error:
            return _classify(error, path, before)
        try:
            db = SqliteDatabase(conn)
            notes = _prepare(db)
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            return _Ready(db, notes)
        except NewerSchema as newer:
            conn.close()
            return _Unusable(
                f"{path} was written by a newer termarcade (schema {newer.version}); "
                f"it was left untouched; {_SESSION_ONLY}."
            )
        except (sqlite3.Error, _Damaged, UnicodeDecodeError) as error:
            conn.close()
            return _classify(error, path, before)
        except BaseException:
            conn.close()
            raise


def _prepare(db: SqliteDatabase) -> list[str]:
    """Switch to WAL, check an existing database, create or migrate the schema.

    Returns:
        Notes for the player (WAL not available).

    Raises:
        NewerSchema: The file is newer than this code (nothing was written to it).
        _Damaged: ``quick_check`` failed on a database that already had a schema.
        sqlite3.Error: Busy, corrupt, I/O ...
    """
    conn = db.conn
    # Read the version before anything writes to the file (switching to WAL changes its header).
    version = db.schema_version()
    if version > SCHEMA_VERSION:
        raise NewerSchema(version)
    if version < 0:  # user_version is a signed field of the header: a flipped bit
        raise _Damaged(f"the file's header is damaged (schema version {version})")
    notes = []
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchall()
    if not mode or str(mode[0][0]).lower() != "wal":
        notes.append("The database does not support WAL mode here.")  # Network mounts.
    conn.execute("PRAGMA synchronous = NORMAL")
    if version >= 1:
        # It had a schema when found, so nobody is creating it: damage here is real damage.
        # (A database this session builds below is whole by construction.)
        rows = conn.execute("PRAGMA quick_check").fetchall()
        if rows != [("ok",)]:
            raise _Damaged(f"integrity check failed: {rows[0][0] if rows else '?'}")
    if version < SCHEMA_VERSION:
        # Only then take the write lock: an up-to-date database opens without waiting for a
        # session that is in the middle of a long write.
        migrate(db)
    return notes


def _classify(error: BaseException, path: Path, before: tuple[int, int] | None) -> _Outcome:
    """Turn an error from an attempt into its outcome."""
    kind = error_kind(error)
    if kind == "busy":
        return _Busy(str(error))
    if kind == "corrupt":
        after = _identity(path)
        return _Corrupt(str(error), before if before is not None and before == after else None)
    return _Unusable(f"Cannot open the progress database {path} ({error}); {_SESSION_ONLY}.")


def _keep_busy(path: Path, busy_timeout: float, warnings: list[str]) -> Opened:
    """Out of patience on a locked database: keep a plain connection to it (never memory)."""
    try:
        return Opened(SqliteDatabase(connect(str(path), busy_timeout)), False, warnings)
    except sqlite3.Error as error:  # pragma: no cover - connect only fails on an unusable path
        return Opened(None, False, warnings + [f"Cannot open {path} ({error}); {_SESSION_ONLY}."])


def _identity(path: Path) -> tuple[int, int] | None:
    """Return the (device, inode) of ``path``, or ``None`` if it cannot be read."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_dev, status.st_ino)


# -- setting aside --------------------------------------------------------------------------


class _CannotSetAside(Exception):
    """The damaged file could not be moved (read-only directory, lock not obtained)."""


def _set_aside(path: Path, damaged: _Corrupt, lock: _LockFile, deadline: float) -> str:
    """Move the damaged file aside, unless another session already has.

    Args:
        path: The database path.
        damaged: The attempt that found the damage (its reason and the file's identity).
        lock: The advisory lock file, taken exclusively here.
        deadline: When to stop waiting for the lock.

    Returns:
        The warning for the player.

    Raises:
        _CannotSetAside: If the lock or a rename failed; the file is then untouched.
    """
    with lock.hold(exclusive=True, deadline=deadline) as problem:
        if problem is not None:
            raise _CannotSetAside(problem)
        if _identity(path) != damaged.identity:
            return (
                f"The progress database could not be read ({damaged.reason}); another session "
                f"moved it aside next to {path} and a new one was started."
            )
        # Salvage first, while the file is still where its WAL expects it.
        salvaged = path.with_name(path.name + SALVAGE_SUFFIX)
        kept = salvage(path, salvaged)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            aside = _claim_name(path, f"{path.name}.corrupt-{stamp}")
        except OSError as error:
            _unlink_quietly(salvaged)
            raise _CannotSetAside(error.strerror or str(error)) from error
        left = [suffix for suffix in _COMPANIONS if not _move_companion(path, aside, suffix)]
        restored = _put_in_place(salvaged, path, kept, clean=not left)
    if restored:
        message = (
            f"Recovered {kept.describe()} from a damaged progress database "
            f"({damaged.reason}); the damaged file was moved to {aside}."
        )
    else:
        message = (
            f"The progress database could not be read ({damaged.reason}); it was moved to "
            f"{aside} and a new one was started."
        )
    if left:
        message += f" (Could not move its {', '.join(left)} file(s) along.)"
    return message


def _put_in_place(salvaged: Path, path: Path, kept: Salvaged, *, clean: bool) -> bool:
    """Make the salvaged database the one at ``path``; False (and it is removed) if not.

    Not when a companion of the damaged file stayed behind (a new file must not start with
    the old one's WAL), nor over a file that appeared meanwhile.
    """
    if kept.total and clean:
        try:
            _move_no_overwrite(salvaged, path)
            return True
        except OSError:
            pass
    _unlink_quietly(salvaged)
    return False


def _claim_name(source: Path, base: str) -> Path:
    """Move ``source`` to ``base`` (or ``base-2``, ``base-3`` ...), never over an existing file.

    Returns:
        Where ``source`` now is.

    Raises:
        OSError: If the directory cannot be written (``source`` is untouched).
    """
    for counter in itertools.count(1):
        target = source.with_name(base if counter == 1 else f"{base}-{counter}")
        try:
            _move_no_overwrite(source, target)
        except FileExistsError:
            continue
        return target
    raise AssertionError("unreachable")  # pragma: no cover


def _move_companion(path: Path, aside: Path, suffix: str) -> bool:
    """Move ``path+suffix`` (if any) next to the aside file; return False if it had to stay."""
    source = path.with_name(path.name + suffix)
    if not os.path.lexists(source):
        return True
    try:
        _move_no_overwrite(source, aside.with_name(aside.name + suffix))
    except OSError:
        return False
    return True


def _move_no_overwrite(source: Path, target: Path) -> None:
    """Rename ``source`` to ``target``, failing with FileExistsError if ``target`` exists.

    A hard link claims the name atomically (``link`` never overwrites); the old name is then
    removed. Where hard links are not supported the exclusive lock makes check-then-rename
    safe among termarcade sessions (and Windows' rename refuses to overwrite anyway).

    Raises:
        FileExistsError: ``target`` exists.
        OSError: The directory cannot be written; ``source`` is untouched.
    """
    try:
        os.link(source, target)
    except FileExistsError:
        raise
    except OSError as error:
        if error.errno not in _NO_HARD_LINKS:
            raise
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.rename(source, target)
        return
    try:
        os.unlink(source)
    except OSError:
        _unlink_quietly(target)  # Undo the link: the file stays where it was, under its name.
        raise


def _unlink_quietly(path: Path) -> None:
    """Remove ``path``, ignoring errors (used only to undo a link just made)."""
    with suppress(OSError):
        os.unlink(path)


# -- the advisory lock file -----------------------------------------------------------------


class _LockFile:
    """``fcntl.flock`` on a small lock file next to the database (never deleted).

    Where ``fcntl`` does not exist, holding always "succeeds": setting aside then relies on
    renames that never overwrite and on the identity re-check.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None
        self._problem: str | None = None
        self._tried = False

    def _descriptor(self) -> int | None:
        """Open (creating if needed) the lock file once; remember why it could not be."""
        if not self._tried:
            self._tried = True
            try:
                self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE_MODE)
                tighten(self.path, PRIVATE_FILE_MODE)
            except OSError as error:
                try:  # A read-only directory may still hold the lock file from earlier.
                    self._fd = os.open(self.path, os.O_RDONLY)
                except OSError:
                    self._problem = f"cannot create {self.path}: {error.strerror or error}"
        return self._fd

    @contextmanager
    def hold(self, *, exclusive: bool, deadline: float) -> Iterator[str | None]:
        """Hold the lock for the ``with`` block.

        Args:
            exclusive: Exclusive (set aside) rather than shared (open and check).
            deadline: ``time.monotonic()`` value after which to give up waiting.

        Yields:
            ``None`` when held (or when the platform has no advisory locks), else why not.
        """
        problem = self._acquire(exclusive, deadline)
        try:
            yield problem
        finally:
            if problem is None and fcntl is not None and self._fd is not None:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def _acquire(self, exclusive: bool, deadline: float) -> str | None:
        """Poll for the lock until ``deadline``; return None when held, else why not."""
        if fcntl is None:  # pragma: no cover - Windows
            return None
        fd = self._descriptor()
        if fd is None:
            return self._problem
        mode = (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB
        while True:
            try:
                fcntl.flock(fd, mode)
                return None
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return "another session kept the lock file busy"
                time.sleep(_POLL_S)
            except OSError as error:  # pragma: no cover - e.g. ENOLCK on some network mounts
                return f"cannot lock {self.path}: {error.strerror or error}"

    def close(self) -> None:
        """Close the lock file (which also releases any lock still held)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _unreadable(path: Path, reason: str) -> str:
    """Warning for a damaged file this session gave up on without moving it."""
    return f"The progress database {path} could not be read ({reason}); {_SESSION_ONLY}."


def _untouched(path: Path, reason: str, why: str) -> str:
    """Warning for a damaged file that could not be moved aside."""
    return (
        f"The progress database {path} could not be read ({reason}) and could not be moved "
        f"aside ({why}); it was left untouched and {_SESSION_ONLY}."
    )
