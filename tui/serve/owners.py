"""Who owns which player name on an SSH arcade: trust on first use.

A name belongs to the first SSH public key that plays it; later sessions under that name must
present that key. Clients without a key play as guests (``guest-XXXX``) whose progress lasts
for the session. The book of owners is a small SQLite file, :data:`NAMES_FILENAME`, in the
arcade's data directory, created ``0600`` in a ``0700`` folder (fingerprints and first/last
use are the operator's business, not other local users'); every change is one transaction,
so a crash never leaves half an entry, and the operator's ``termarcade serve --release-name``
may run while the server does.

Why a file of its own and not a table in the store: the store's schema is one migration list
shared by SQLite and PostgreSQL, and an owner book must be readable before any session (and so
any store) exists. An arcade of several hosts on one PostgreSQL store therefore keeps one book
per host (docs/remote.md, "Who is who: names and keys").
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
import time
from collections.abc import Collection, Iterator
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
"""The owner book's file name inside the data directory."""

GUEST_PREFIX = "guest-"
"""Names starting with this are handed out to guests and never owned."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS names (
    name        TEXT PRIMARY KEY,
    key         TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    first_used  REAL NOT NULL,
    last_used   REAL NOT NULL
)
"""


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
    """The owners of an arcade's names, kept in one SQLite file.

    Every method opens the file, does one transaction and closes it, so the server and the
    operator's command never hold it between calls.

    Args:
        path: The book's file (created on first use, with its folder).
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def in_folder(cls, folder: str | os.PathLike[str]) -> NameBook:
        """The book of the arcade whose data directory is ``folder``."""
        return cls(Path(folder) / NAMES_FILENAME)

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        """A connection inside one immediate transaction (committed when the block ends).

        Raises:
            OSError, sqlite3.Error: When the file cannot be created or read.
        """
        self._create_private()
        conn = sqlite3.connect(self.path, timeout=5.0, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute(_SCHEMA)
            yield conn
            conn.execute("COMMIT")
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.close()

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
                "SELECT name, key, fingerprint, first_used, last_used FROM names WHERE name = ?",
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
                "INSERT OR IGNORE INTO names VALUES (?, ?, ?, ?, ?)",
                (name, key, fingerprint, now, now),
            )
            updated = conn.execute(
                "UPDATE names SET last_used = ? WHERE name = ? AND fingerprint = ?",
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
                "INSERT OR REPLACE INTO names VALUES (?, ?, ?, ?, ?)",
                (name, key, fingerprint, now, now),
            )
        return before

    def release(self, name: str) -> bool:
        """Free ``name``: the next key that plays it claims it.

        Returns:
            False when the name was not owned.
        """
        with self._db() as conn:
            return conn.execute("DELETE FROM names WHERE name = ?", (name,)).rowcount == 1

    def names(self) -> list[NameOwner]:
        """Every owned name, in name order."""
        with self._db() as conn:
            rows = conn.execute(
                "SELECT name, key, fingerprint, first_used, last_used FROM names ORDER BY name"
            ).fetchall()
        return [NameOwner(*row) for row in rows]


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
