"""Where the store lives, and the atomic text-file writer used by the level editor."""

from __future__ import annotations

import contextlib
import logging
import os
import secrets
import stat
from pathlib import Path

ENV_DATA_DIR = "TERMARCADE_DATA_DIR"
"""Environment variable that overrides the data directory."""

DB_FILENAME = "termarcade.sqlite3"
"""File name of the database inside the data directory."""

_NEW_FILE_MODE = 0o666
"""Mode asked for a new file; the kernel applies the umask, as for any editor's file."""

PRIVATE_FILE_MODE = 0o600
"""Mode of the store's files (database, WAL, SHM, lock): every player's data is in them, and
on a shared host the other local users must not read it."""

PRIVATE_DIR_MODE = 0o700
"""Mode of the data directory (the store, the host key, anything kept next to them)."""

log = logging.getLogger("termarcade.store")


def data_dir() -> Path:
    """Return the directory that holds the database (not created here).

    Returns:
        ``$TERMARCADE_DATA_DIR`` when set and non-empty, else the platform's user data
        directory for ``termarcade``.
    """
    override = os.environ.get(ENV_DATA_DIR, "").strip()
    if override:
        return Path(override).expanduser()
    import platformdirs  # Imported lazily: only the store needs it.

    return Path(platformdirs.user_data_dir("termarcade", appauthor=False))


def atomic_write_text(path: str | os.PathLike[str], text: str, encoding: str = "utf-8") -> None:
    """Write a text file so that readers see either the old or the new content, never a mix.

    The text goes to a temporary file in the same directory, is flushed to disk, and then
    replaces ``path`` with :func:`os.replace` (atomic on POSIX and Windows). A new file gets the
    mode the umask gives (like any editor's file); a replaced file keeps its mode.

    Args:
        path: The file to write.
        text: Its new content.
        encoding: The text encoding.

    Raises:
        OSError: If the file cannot be written; ``path`` is then left unchanged. The error
            names ``path`` (never the temporary file, which the user has never heard of).
        TypeError: If ``text`` is not a string (nothing is written).
    """
    target = Path(path)
    try:
        _write_via_temp(target, text, encoding)
    except OSError as error:
        raise _naming(error, target) from error
    _sync_directory(target.parent)


def _write_via_temp(target: Path, text: str, encoding: str) -> None:
    """Write ``text`` to a fresh temporary file next to ``target``, then rename it over ``target``.

    Args:
        target: The file to write.
        text: Its new content.
        encoding: The text encoding.

    Raises:
        OSError: From creating, writing or renaming (the temporary file is removed).
    """
    old_mode = _existing_mode(target)
    fd, temp = _create_temp(target, _NEW_FILE_MODE if old_mode is None else old_mode & 0o777)
    try:
        if old_mode is not None and hasattr(os, "fchmod"):
            # The umask may have narrowed the requested mode; a replaced file keeps its exact mode.
            os.fchmod(fd, old_mode)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        if old_mode is not None and not hasattr(os, "fchmod"):  # pragma: no cover - Windows
            os.chmod(temp, old_mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def _existing_mode(target: Path) -> int | None:
    """Return the permission bits of ``target``, or ``None`` if there is no such file."""
    try:
        return target.stat().st_mode & 0o7777
    except FileNotFoundError:
        return None


def _create_temp(target: Path, mode: int) -> tuple[int, Path]:
    """Create a new, uniquely named temporary file next to ``target``.

    Unlike :func:`tempfile.mkstemp` (always 0600), the file is created with ``mode`` so the
    umask applies to it, as to any file an editor creates.

    Args:
        target: The file the temporary one will replace.
        mode: The mode asked for (the umask is applied by the kernel).

    Returns:
        The open file descriptor and the temporary file's path.
    """
    directory = target.parent
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    while True:
        temp = directory / f".{target.name}.{secrets.token_hex(4)}.tmp"
        try:
            return os.open(temp, flags, mode), temp
        except FileExistsError:  # pragma: no cover - 32 random bits collided
            continue


def _naming(error: OSError, target: Path) -> OSError:
    """Return a copy of ``error`` that names ``target`` instead of the temporary file.

    ``OSError(errno, strerror, filename)`` picks the matching subclass (PermissionError, ...).
    """
    if error.errno is None:
        return OSError(f"Cannot write {target}: {error}")
    return OSError(error.errno, error.strerror or str(error), str(target))


def _sync_directory(directory: Path) -> None:
    """Flush the directory entry of a rename to disk where the platform allows it.

    Best effort: the file's content is already on disk, so a failure here is ignored.
    """
    if not hasattr(os, "O_DIRECTORY"):  # pragma: no cover - Windows
        return
    try:
        fd = os.open(directory if str(directory) else ".", os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# -- private files --------------------------------------------------------------------------


def make_private_dir(directory: Path) -> None:
    """Create ``directory`` (and missing parents) for the store; its own mode is 0700.

    An existing data directory (:func:`data_dir`) that other users may enter is tightened to
    0700, with a log line; any other existing folder (the parent of a ``--store`` file,
    perhaps shared on purpose) is left as it is.

    Args:
        directory: The folder that holds the database.

    Raises:
        OSError: When it cannot be created.
    """
    directory.mkdir(mode=PRIVATE_DIR_MODE, parents=True, exist_ok=True)
    if _same_path(directory, data_dir()):
        tighten(directory, PRIVATE_DIR_MODE)


def create_private_file(path: Path) -> None:
    """Create ``path`` empty with mode 0600 unless it exists; tighten it if it does.

    SQLite then opens the empty file as a new database, and gives its WAL and SHM files the
    database's mode, so all of them are private (SQLite alone would create 0644 files).
    Best effort: where the file cannot be created, SQLite's own open reports why.

    Args:
        path: The database file.
    """
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE))
    except FileExistsError:
        tighten(path, PRIVATE_FILE_MODE)
    except OSError:
        pass


def tighten(path: Path, mode: int) -> bool:
    """Take away the permission bits ``path`` has beyond ``mode`` (logged when it happens).

    Args:
        path: A file or folder that may exist.
        mode: The most it may allow (0600 or 0700).

    Returns:
        True if its mode was changed.
    """
    try:
        status = path.stat()
    except OSError:
        return False
    old = stat.S_IMODE(status.st_mode)
    if not old & ~mode & 0o777:
        return False
    try:
        os.chmod(path, old & mode)
    except OSError as error:  # not ours (another user's file): say so, go on
        log.info("%s has mode %04o; cannot make it private: %s", path, old, error.strerror)
        return False
    # INFO: a served arcade logs it; a local app must not print over its own screen.
    log.info(
        "%s had mode %04o: other users could read players' data; it is now %04o",
        path,
        old,
        old & mode,
    )
    return True


def _same_path(one: Path, other: Path) -> bool:
    try:
        return os.path.samefile(one, other)
    except OSError:
        return False
