"""The SSH server's host key: the one given, or one made on first run and kept.

Players' SSH clients remember the host key and warn when it changes, so it must survive
restarts: it lives in the data directory (``ssh_host_ed25519_key``, readable by its owner only).
A key file other users may read or write, given or found, is refused (as OpenSSH refuses one).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tui.store import data_dir

__all__ = ["HOST_KEY_NAME", "HostKeyError", "load_or_create_host_key"]

HOST_KEY_NAME = "ssh_host_ed25519_key"
"""File name of the generated host key inside the data directory."""


class HostKeyError(Exception):
    """The host key cannot be read or written (the message names the file)."""


def load_or_create_host_key(path: str | os.PathLike[str] | None = None) -> tuple[Any, Path, bool]:
    """The server's host key.

    Args:
        path: A private key file given by the host (``--host-key``); None for the generated
            key in the data directory, made now if it does not exist yet.

    Returns:
        ``(key, path, created)``: an ``asyncssh.SSHKey``, where it is kept, and whether it was
        made by this call.

    Raises:
        HostKeyError: When the file cannot be read, parsed or written, or when other users
            may read or write it.
    """
    import asyncssh

    given = path is not None
    key_path = Path(path) if path is not None else data_dir() / HOST_KEY_NAME
    if given or key_path.exists():
        try:
            key = asyncssh.read_private_key(str(key_path))
        except (OSError, asyncssh.KeyImportError) as error:
            raise HostKeyError(f"cannot read the host key {key_path}: {_reason(error)}") from None
        _check_private(key_path)
        return key, key_path, False
    key = asyncssh.generate_private_key("ssh-ed25519")
    try:
        key_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)  # as the store makes it
        # O_EXCL: two servers starting at once must not both write (one would lose its key).
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_or_create_host_key(key_path)
    except OSError as error:
        raise HostKeyError(f"cannot create the host key {key_path}: {_reason(error)}") from None
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    return key, key_path, True


def _check_private(key_path: Path) -> None:
    """Refuse a key file that other users may read or change, as OpenSSH does.

    Whoever can read the host key can pose as this server to every player (and read what
    they type); whoever can write it can swap it.

    Raises:
        HostKeyError: Naming the file, its mode and the command that fixes it.
    """
    try:
        mode = key_path.stat().st_mode & 0o777
    except OSError as error:
        raise HostKeyError(f"cannot read the host key {key_path}: {_reason(error)}") from None
    if mode & 0o077:
        raise HostKeyError(
            f"UNPROTECTED PRIVATE KEY FILE: the host key {key_path} has mode {mode:04o}, so "
            "other users of this machine can read it (and pose as this server); it is "
            f"refused. Make it private: chmod 600 {key_path}"
        )


def _reason(error: BaseException) -> str:
    return getattr(error, "strerror", None) or str(error) or type(error).__name__
