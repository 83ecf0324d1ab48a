"""Who owns which player name on an SSH arcade: trust on first use.

A name belongs to the first SSH public key that plays it; later sessions under that name must
present that key. Clients without a key play as guests (``guest-XXXX``) whose progress lasts
for the session.

Where the book of owners lives follows the store, so that every host that shares players'
saves also shares who owns them:

* with the default store (or a SQLite ``--store``), a small SQLite file,
  :data:`NAMES_FILENAME`, in the arcade's data directory, created ``0600`` in a ``0700``
  folder (fingerprints and first/last use are the operator's business, not other local
  users');
* with a PostgreSQL ``--store`` (several hosts), the table :data:`NAMES_TABLE` in that
  database's current schema, so a name claimed through one host is owned on all of them.

It is kept apart from the store's own tables (and their migrations) because the book belongs
to the server, not to a player's session: it is read before any session exists, and no session
process can read or change it. Every change is one transaction, so a crash never leaves half an
entry, and the operator's ``termarcade serve --release-name`` may run while servers do.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = [
    "GUEST_PREFIX",
    "NAMES_FILENAME",
    "NameBook",
    "NameOwner",
    "guest_greeting",
    "guest_name",
    "key_identity",
]

NAMES_FILENAME = "names.sqlite3"
"""The owner book's file name inside the data directory (SQLite stores)."""

NAMES_TABLE = "termarcade_names"
"""The owner book's table in a PostgreSQL store."""

GUEST_PREFIX = "guest-"
"""Names starting with this are handed out to guests and never owned."""

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS {NAMES_TABLE} (
    name        TEXT PRIMARY KEY,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    first_used  DOUBLE PRECISION NOT NULL,
    last_used   DOUBLE PRECISION NOT NULL
)
"""
_COLUMNS = "name, key, fingerprint, first_used, last_used"


@dataclass(frozen=True)
class NameOwner:
    """One owned name.

    Attributes:
        name: The player name.
        key: The owner's public key, ``"ssh-ed25519 AAAA..."`` (no comment).
        fingerprint: Its SHA256 fingerprint, as ``ssh-keygen -l`` prints it.
        first_used: When the name was claimed (seconds since the epoch).
        last_used: When the owner last logged in under it.
    """

    name: str
    key: str
    fingerprint: str
    first_used: float
    last_used: float


def key_identity(key: Any) -> tuple[str, str]:
    """The stored form of an asyncssh public key.

    Args:
        key: An ``asyncssh.SSHKey``.

    Returns:
        ``(key line without its comment, SHA256 fingerprint)``.
    """
    words = key.export_public_key("openssh").decode("ascii").split()
    return " ".join(words[:2]), str(key.get_fingerprint("sha256"))


class NameBook:
    """The owners of an arcade's names, kept in one SQLite file (or a PostgreSQL table: see
    :meth:`for_arcade`).

    Every method connects, does one transaction and disconnects, so the servers and the
    operator's command never hold the book between calls.

    Args:
        path: The book's file (created on first use, with its folder).
        url: A PostgreSQL URL: the book is the table :data:`NAMES_TABLE` there instead.
    """

    def __init__(self, path: Path, url: str = "") -> None:
        self.path = path
        self.url = url

    @classmethod
    def in_folder(cls, folder: str | os.PathLike[str]) -> NameBook:
        """The SQLite book of the arcade whose data directory is ``folder``."""
        return cls(Path(folder) / NAMES_FILENAME)

    @classmethod
    def for_arcade(cls, folder: str | os.PathLike[str], store: str) -> NameBook:
        """The book of an arcade: in its PostgreSQL store if it has one, else in ``folder``.

        Args:
            folder: The data directory.
            store: The ``--store`` value ("" for the default file).
        """
        if store.strip().lower().startswith(("postgresql:", "postgres:")):
            return cls(Path(folder) / NAMES_FILENAME, url=store.strip())
        return cls.in_folder(folder)

    @property
    def where(self) -> str:
        """The book's place for messages and logs (never a password)."""
        if self.url:
            from tui.store import redact

            return f"{NAMES_TABLE} in {redact(self.url)}"
        return str(self.path)

    @property
    def errors(self) -> tuple[type[BaseException], ...]:
        """What a failing book raises: to catch, log and refuse with."""
        if self.url:
            import psycopg

            return (OSError, psycopg.Error)
        return (OSError, sqlite3.Error)

    @contextlib.contextmanager
    def _db(self) -> Iterator[_Cursor]:
        """A connection inside one transaction (committed when the block ends).

        Raises:
            OSError, sqlite3.Error, psycopg.Error: When the book cannot be created or read.
        """
        if self.url:
            with _postgres(self.url) as cursor:
                yield cursor
            return
        self._create_private()
        db = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute(_SCHEMA)
            yield _Cursor(db.execute)
            db.execute("COMMIT")
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")
            db.close()

    def _create_private(self) -> None:
        """Create the folder (0700) and the file (0600) before SQLite does, so that neither
        is ever readable by others, whatever the umask; SQLite gives its journal the file's
        mode."""
        self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        os.close(fd)

    def owner(self, name: str) -> NameOwner | None:
        """The owner of ``name``, or None when it is free."""
        with self._db() as conn:
            row = conn.execute(
                f"SELECT {_COLUMNS} FROM {NAMES_TABLE} WHERE name = ?",
                (name,),
            ).fetchone()
        return NameOwner(*row) if row else None

    def claim(self, name: str, key: str, fingerprint: str) -> bool:
        """Record a login under ``name`` with a key: a free name becomes the key's.

        Args:
            name: The player name.
            key: The key line (see :func:`key_identity`).
            fingerprint: Its fingerprint.

        Returns:
            True when the key owns the name now (claimed now or before), False when another
            key owns it (say, one that claimed it a moment ago on another connection).
        """
        now = time.time()
        with self._db() as conn:
            conn.execute(
                f"INSERT INTO {NAMES_TABLE} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (name) DO NOTHING",
                (name, key, fingerprint, now, now),
            )
            updated = conn.execute(
                f"UPDATE {NAMES_TABLE} SET last_used = ? WHERE name = ? AND fingerprint = ?",
                (now, name, fingerprint),
            ).rowcount
        return updated == 1

    def give(self, name: str, key: str, fingerprint: str) -> NameOwner | None:
        """Make ``key`` the owner of ``name`` (the operator's choice: replaces any owner).

        Returns:
            The previous owner, or None when the name was free.
        """
        before = self.owner(name)
        now = time.time()
        with self._db() as conn:
            conn.execute(
                f"INSERT INTO {NAMES_TABLE} ({_COLUMNS}) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (name) DO UPDATE SET key = excluded.key, "
                "fingerprint = excluded.fingerprint, first_used = excluded.first_used, "
                "last_used = excluded.last_used",
                (name, key, fingerprint, now, now),
            )
        return before

    def release(self, name: str) -> bool:
        """Free ``name``: the next key that plays it claims it.

        Returns:
            False when the name was not owned.
        """
        with self._db() as conn:
            return conn.execute(f"DELETE FROM {NAMES_TABLE} WHERE name = ?", (name,)).rowcount == 1

    def names(self) -> list[NameOwner]:
        """Every owned name, in name order."""
        with self._db() as conn:
            rows = conn.execute(f"SELECT {_COLUMNS} FROM {NAMES_TABLE} ORDER BY name").fetchall()
        return [NameOwner(*row) for row in rows]


class _Cursor:
    """One backend's ``execute`` in the book's SQL (``?`` placeholders).

    Args:
        execute: The connection's ``execute``.
        placeholder: The driver's placeholder for ``?``.
    """

    def __init__(self, execute: Callable[..., Any], placeholder: str = "?") -> None:
        self._execute = execute
        self._placeholder = placeholder

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> Any:
        """Run one statement; returns the driver's cursor."""
        return self._execute(sql.replace("?", self._placeholder), params)


@contextlib.contextmanager
def _postgres(url: str) -> Iterator[_Cursor]:
    """A psycopg connection inside one transaction, the book's table made if missing.

    A short connect timeout: a login waits for the book, and a database that does not
    answer must not hold players at the door (they are told to try again instead).
    """
    import psycopg

    with (
        psycopg.connect(url, connect_timeout=3, prepare_threshold=None) as conn,
        conn.transaction(),
    ):
        conn.execute("SET LOCAL lock_timeout = 5000")
        # Two hosts creating the table at once: one waits on this lock instead of failing.
        conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (NAMES_TABLE,))
        conn.execute(_SCHEMA)
        yield _Cursor(conn.execute, "%s")


def guest_name(taken: Collection[str]) -> str:
    """A fresh guest name, ``guest-`` and four hex digits, not in ``taken``.

    Args:
        taken: Names of the sessions now playing.
    """
    while True:
        name = GUEST_PREFIX + secrets.token_hex(2)
        if name not in taken:
            return name


def guest_greeting(name: str) -> str:
    """What a guest reads when their session starts.

    Args:
        name: The guest's name.
    """
    return (
        f"Welcome! You are playing as {name}, a guest: your progress is kept until you leave. "
        "To keep it, connect with an SSH key (ssh -i KEY): your name is then yours."
    )
