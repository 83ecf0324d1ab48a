"""Which database a store uses: a SQLite file (the default), PostgreSQL, or memory.

A store is named by a path or a URL:

* nothing: ``$TERMARCADE_STORE`` when set, else ``termarcade.sqlite3`` in the data directory;
* ``postgresql://user:password@host:5432/dbname`` (or ``postgres://``; every libpq URL
  parameter works, e.g. ``?host=/run/postgresql`` for a socket or ``?sslmode=require``);
* ``sqlite:///absolute/path.sqlite3``, ``sqlite:relative/path.sqlite3``, or a plain path;
* ``:memory:`` for a throw-away store.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from ._files import DB_FILENAME, data_dir

__all__ = [
    "ENV_PASSWORD",
    "ENV_STORE",
    "PASSWORD_ON_COMMAND_LINE",
    "StoreTarget",
    "has_password",
    "parse_store_url",
    "read_password_file",
    "redact",
    "resolve_target",
]

ENV_STORE = "TERMARCADE_STORE"
"""Environment variable naming the store (a URL or path); ``--store`` sets it."""

ENV_PASSWORD = "PGPASSWORD"
"""libpq's own variable for the password: ``--store-password-file`` puts the file's password
there (read by psycopg when the URL holds none; inherited by every session process)."""

PASSWORD_ON_COMMAND_LINE = (
    "the store URL holds a password, and a command line is visible to every local user "
    f"(ps): put the URL in the environment variable {ENV_STORE} instead, or leave the "
    "password out of the URL and name a file holding it with --store-password-file"
)
"""Why ``--store`` refuses a URL with a password."""

_POSTGRES_SCHEMES = ("postgresql", "postgres")


@dataclass(frozen=True)
class StoreTarget:
    """Where a store keeps its data.

    Attributes:
        backend: ``"sqlite"``, ``"postgresql"`` or ``"memory"``.
        path: The SQLite file (``"sqlite"`` only).
        url: The PostgreSQL URL as given (``"postgresql"`` only; it may hold a password).
    """

    backend: str
    path: Path | None = None
    url: str | None = None

    def describe(self) -> str:
        """A name for messages: the file, the URL without its password, or ``:memory:``."""
        if self.backend == "sqlite":
            return str(self.path)
        if self.backend == "postgresql":
            return redact(self.url or "")
        return ":memory:"


MEMORY = StoreTarget("memory")


def parse_store_url(text: str) -> StoreTarget:
    """Turn a ``--store`` value into a target (see the module docstring).

    Args:
        text: A URL or a path.

    Returns:
        The target.

    Raises:
        ValueError: For an empty value or a URL scheme the store does not speak.
    """
    value = text.strip()
    if not value:
        raise ValueError("the store URL is empty")
    if value == ":memory:":
        return MEMORY
    scheme, sep, rest = value.partition(":")
    scheme = scheme.lower()
    if sep and scheme in _POSTGRES_SCHEMES:
        return StoreTarget("postgresql", url=value)
    if sep and scheme == "sqlite":
        # sqlite:///abs (three slashes: an empty host, then the absolute path) or sqlite:rel.
        path = rest[2:] if rest.startswith("//") else rest
        if path == ":memory:":
            return MEMORY
        if not path:
            raise ValueError("a sqlite: store URL needs a file path (sqlite:///path/to/file)")
        return StoreTarget("sqlite", path=Path(path).expanduser())
    if sep and rest.startswith("//"):
        raise ValueError(
            f"unsupported store URL scheme {scheme!r}: use postgresql://... or a SQLite file "
            "path (sqlite:///path)"
        )
    return StoreTarget("sqlite", path=Path(value).expanduser())


def resolve_target(path: str | os.PathLike[str] | None) -> StoreTarget:
    """The target of ``Store(path)``.

    Args:
        path: A path or URL; ``None`` for ``$TERMARCADE_STORE`` or the default file.

    Raises:
        ValueError: When ``path`` (or the environment variable) is not a usable URL.
    """
    if path is None:
        configured = os.environ.get(ENV_STORE, "").strip()
        if configured:
            return parse_store_url(configured)
        return StoreTarget("sqlite", path=data_dir() / DB_FILENAME)
    if isinstance(path, os.PathLike):
        return StoreTarget("sqlite", path=Path(path))
    return parse_store_url(str(path))


def redact(url: str) -> str:
    """Return ``url`` without its password (user-visible messages must never show it)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if parts.password is not None:
            netloc = netloc.replace(f":{parts.password}@", ":***@", 1)
        query = (
            "&".join(
                "password=***" if pair.lower().startswith("password=") else pair
                for pair in parts.query.split("&")
            )
            if parts.query
            else ""
        )
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:  # Unparseable (bad port ...): show nothing that could be secret.
        return url.partition(":")[0] + "://…"


def has_password(text: str) -> bool:
    """True when a store URL carries a password (``user:PASSWORD@`` or ``?password=``).

    Args:
        text: A ``--store`` value (a URL or a path).
    """
    value = text.strip()
    if value.partition(":")[0].lower() not in _POSTGRES_SCHEMES:
        return False
    authority = value.partition("//")[2].partition("/")[0].partition("?")[0]
    user_info, at, _ = authority.rpartition("@")
    if at and ":" in user_info:
        return True
    query = value.partition("?")[2]
    return any(pair.strip().lower().startswith("password=") for pair in query.split("&"))


def read_password_file(path: str | os.PathLike[str]) -> str:
    """The password in a file (its first line, without the line end).

    Args:
        path: The file (keep it readable by the server's user only).

    Returns:
        The password.

    Raises:
        ValueError: The file cannot be read or its first line is empty.
    """
    try:
        with open(path, encoding="utf-8") as stream:
            first = stream.readline().rstrip("\r\n")
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the password file {path}: {error}") from None
    if not first:
        raise ValueError(f"the password file {path} is empty")
    return first
