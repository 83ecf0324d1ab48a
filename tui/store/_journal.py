"""The local journal: changes the database could not take yet, kept on this host's disk.

While the store cannot write (PostgreSQL stopped or unreachable, a SQLite file held locked
by another program) every change that needs no answer (a move's save, a solved level, a
setting ...) is queued in the session *and* appended to a journal file, so it outlives the
session: a player who quits during an outage, or a session killed meanwhile, loses nothing.

* Where: ``<data dir>/journal/<store key>/<pid>-<random>.jsonl``; the store key is a hash
  of the store's location and the player, so a journal is only ever replayed into the
  database and for the player it was written for. Folders are 0700, files 0600: they hold a
  player's saves.
* How: one JSON object per line (:meth:`._changes.Change.to_json`), appended and
  ``fsync``-ed before the move returns. A torn last line (power cut mid-write) is skipped.
* Ownership: the writing session holds an exclusive ``flock`` on its file. Any other session
  of the same player and store that can take that lock knows the writer is gone, replays the
  file (in order, as "late" changes that never overwrite a newer row), and removes it.
* When the queue has been written, the session truncates its file; at a clean close an
  empty file is removed, one still holding changes stays for the next session.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path

from ._changes import Change
from ._decode import decode
from ._files import data_dir

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no advisory locks, no replay of others.
    fcntl = None  # type: ignore[assignment]

__all__ = ["JOURNAL_DIR", "Journal", "Leftover", "journal_dir"]

JOURNAL_DIR = "journal"
"""Folder of the data directory that holds the journals."""
_SUFFIX = ".jsonl"


def journal_dir(location: str, user: str) -> Path:
    """The folder of the journals of one store and player (not created here).

    Args:
        location: The store's location (a file path, or a URL without its password).
        user: The player.

    Returns:
        ``<data dir>/journal/<hash of location and user>``.
    """
    key = hashlib.sha256(f"{location}\0{user}".encode()).hexdigest()[:24]
    return data_dir() / JOURNAL_DIR / key


def _make_private_dir(directory: Path) -> None:
    """Create ``directory`` (and the journal folder above it) readable by the owner only."""
    for folder in (directory.parent, directory):
        with contextlib.suppress(FileExistsError):
            os.makedirs(folder, mode=0o700)


class Journal:
    """This session's journal file (created at the first change kept).

    Args:
        directory: The store's journal folder (:func:`journal_dir`).
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / f"{os.getpid()}-{secrets.token_hex(4)}{_SUFFIX}"
        """This session's file (exists once a change was kept)."""
        self.problem: str | None = None
        """Why the journal cannot be written (changes then live in memory only)."""
        self._fd: int | None = None
        self._entries = 0

    @property
    def entries(self) -> int:
        """How many changes the file holds now."""
        return self._entries

    def append(self, change: Change) -> bool:
        """Append ``change`` and flush it to the disk.

        Returns:
            True when it is on the disk; False (with :attr:`problem`) when it could not be.
        """
        line = (json.dumps(change.to_json(), ensure_ascii=False) + "\n").encode()
        try:
            fd = self._open()
            os.write(fd, line)
            os.fsync(fd)
        except OSError as error:
            self.problem = f"cannot write {self.path}: {error.strerror or error}"
            return False
        self._entries += 1
        return True

    def clear(self) -> None:
        """Forget every change (they are in the database now)."""
        if self._fd is None or not self._entries:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, 0)
            os.fsync(self._fd)
            self._entries = 0

    def close(self) -> None:
        """Release the file: remove it when empty, keep it (for a later session) otherwise."""
        if self._fd is None:
            return
        if not self._entries:
            with contextlib.suppress(OSError):
                self.path.unlink()
        os.close(self._fd)  # Releases the lock: the next session may replay what is left.
        self._fd = None

    def leftovers(self) -> Iterator[Leftover]:
        """The journals of ended sessions of this store and player, each locked, oldest first.

        Yields:
            One :class:`Leftover` at a time; the caller calls its ``done`` or ``release``.
        """
        try:
            paths = sorted(self.directory.glob(f"*{_SUFFIX}"), key=_mtime)
        except OSError:
            return
        for path in paths:
            if path == self.path:
                continue
            found = Leftover.take(path)
            if found is not None:
                yield found

    def _open(self) -> int:
        if self._fd is None:
            _make_private_dir(self.directory)
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # A fresh name: never contended.
            self._fd = fd
        return self._fd


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


class Leftover:
    """The journal of a session that ended, locked by this one while it is replayed.

    Attributes:
        path: The file.
        changes: What it holds, in order (damaged lines skipped).
    """

    def __init__(self, path: Path, fd: int, changes: list[Change]) -> None:
        self.path = path
        self.changes = changes
        self._fd: int | None = fd

    @classmethod
    def take(cls, path: Path) -> Leftover | None:
        """Lock and read ``path``; None while its session still runs (or it is gone)."""
        if fcntl is None:  # pragma: no cover - Windows
            return None
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # Another session may have replayed and removed it while this one waited.
            if os.fstat(fd).st_ino != os.stat(path).st_ino:
                raise FileNotFoundError(path)
            with open(fd, "rb", closefd=False) as stream:
                changes = [change for line in stream if (change := _parse(line)) is not None]
        except OSError:
            os.close(fd)
            return None
        return cls(path, fd, changes)

    def done(self) -> None:
        """Every change is in the database: remove the file."""
        with contextlib.suppress(OSError):
            self.path.unlink()
        self.release()

    def release(self) -> None:
        """Leave the file for a later try (the database went away again)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def _parse(line: bytes) -> Change | None:
    """The change on one journal line, or None for a torn or foreign line."""
    decoded = decode(line)  # Never raises: a torn, smashed or absurdly nested line is skipped.
    return None if decoded.problem is not None else Change.from_json(decoded.value)
