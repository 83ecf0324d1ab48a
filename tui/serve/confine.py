"""What a session process may do to the host: write only in the data folder, use bounded memory.

Defence in depth under the app's own rules (:mod:`tui.allowlist`): should a player still find a
way to make their session write a file, the kernel refuses it outside the store's folder.

* :func:`confine_writes` uses Landlock (Linux 5.13 and later), which an unprivileged process
  can apply to itself and its future threads and children, for good: after it, creating,
  writing, truncating, renaming or removing a file is allowed only beneath the folders given
  (and in the few device files named). Reading and running stay allowed everywhere (Python
  imports lazily). Where the kernel has no Landlock, or it is disabled, a warning is logged once
  and the session goes on unconfined.
* :func:`limit_memory` sets ``RLIMIT_AS``, so that a runaway allocation fails with
  ``MemoryError`` in that session only, instead of waking the host's OOM killer.

The system calls are made with :mod:`ctypes` (the standard library has no Landlock binding);
their numbers are the same on x86_64 and aarch64 (the generic table), and the ABI version the
kernel reports decides which access rights can be handled.
"""

from __future__ import annotations

import ctypes
import logging
import os
import platform
import re
import resource
import struct
import threading
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = [
    "DEFAULT_MEMORY_LIMIT",
    "MIN_MEMORY_LIMIT",
    "Confinement",
    "confine_writes",
    "keep_sqlite_temp_files_in",
    "landlock_abi",
    "limit_memory",
    "parse_size",
]

log = logging.getLogger("termarcade.serve.session")

DEFAULT_MEMORY_LIMIT = 2 * 1024**3
"""Bytes of address space a session may map (``serve --memory-limit``). A session playing
every game peaks near 0.5 GiB of address space (most of it thread stacks and malloc arenas
reserved, not used: docs/remote.md has the measurement), so 2 GiB leaves room for a solver's
real work and still stops a runaway one long before it hurts the host."""

MIN_MEMORY_LIMIT = 512 * 1024**2
"""The smallest limit ``serve --memory-limit`` accepts: a session maps about 300 MiB before
its first screen."""

# System call numbers (include/uapi/asm-generic/unistd.h; x86_64 uses the same three).
_SYS_CREATE_RULESET, _SYS_ADD_RULE, _SYS_RESTRICT_SELF = 444, 445, 446
_CREATE_RULESET_VERSION = 1
_RULE_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38
_SUPPORTED_MACHINES = ("x86_64", "amd64", "aarch64", "arm64")

# Access rights (include/uapi/linux/landlock.h). Executing and reading are never handled.
_WRITE_FILE = 1 << 1
_REMOVE_DIR = 1 << 4
_REMOVE_FILE = 1 << 5
_MAKE = sum(1 << bit for bit in range(6, 13))  # char, dir, reg, sock, fifo, block, sym
_REFER = 1 << 13  # ABI 2: rename or link into another folder
_TRUNCATE = 1 << 14  # ABI 3


def _file_rights(abi: int) -> int:
    """The handled rights that apply to a single file (a rule on a file may grant no more)."""
    return _WRITE_FILE | (_TRUNCATE if abi >= 3 else 0)


def _handled_rights(abi: int) -> int:
    """Every write-like right the kernel's ABI version knows."""
    rights = _WRITE_FILE | _REMOVE_DIR | _REMOVE_FILE | _MAKE
    if abi >= 2:
        rights |= _REFER
    return rights | (_TRUNCATE if abi >= 3 else 0)


@dataclass(frozen=True)
class Confinement:
    """What :func:`confine_writes` did.

    Attributes:
        abi: The kernel's Landlock ABI version (0: none).
        applied: True when the process is now confined.
        reason: Why not, when it is not ("" when applied).
    """

    abi: int
    applied: bool
    reason: str = ""


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


def landlock_abi() -> int:
    """The kernel's Landlock ABI version.

    Returns:
        1 or more where Landlock is available, 0 where it is not (another OS or architecture,
        an old kernel, or Landlock disabled at boot).
    """
    if platform.system() != "Linux" or platform.machine().lower() not in _SUPPORTED_MACHINES:
        return 0
    libc = _libc()
    version = libc.syscall(_SYS_CREATE_RULESET, None, ctypes.c_size_t(0), _CREATE_RULESET_VERSION)
    return max(0, int(version))


def confine_writes(folders: Iterable[str], files: Iterable[str] = ()) -> Confinement:
    """Allow this process (and its future threads and children) to write only beneath
    ``folders`` and to the existing ``files``, for the rest of its life.

    Args:
        folders: Folders where anything may be created, written, renamed or removed (made,
            0700, when missing).
        files: Files that may be written but not replaced (``/dev/null``, the terminal);
            missing ones are skipped.

    Returns:
        What was done; where the kernel has no Landlock the process is left as it was (a
        warning is logged).

    Raises:
        OSError: When the kernel has Landlock but refuses the rules.

    Landlock confines the calling thread and what it starts later, not threads already running:
    call it before the app starts any (the session process is single-threaded until then).
    """
    abi = landlock_abi()
    if abi < 1:
        log.warning("no Landlock in this kernel: the session's writes are not confined")
        return Confinement(0, False, "Landlock is not available")
    if threading.active_count() > 1:
        log.warning("confining a process that already runs threads: those stay unconfined")
    libc = _libc()
    ruleset = _create_ruleset(libc, _handled_rights(abi))
    try:
        for folder in folders:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            _add_rule(libc, ruleset, folder, _handled_rights(abi))
        for path in files:
            if os.path.exists(path):
                _add_rule(libc, ruleset, path, _file_rights(abi))
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
            _fail(libc, "prctl(PR_SET_NO_NEW_PRIVS)")
        if libc.syscall(_SYS_RESTRICT_SELF, ruleset, 0) != 0:
            _fail(libc, "landlock_restrict_self")
    finally:
        os.close(ruleset)
    return Confinement(abi, True)


def _fail(libc: ctypes.CDLL, call: str) -> None:
    number = ctypes.get_errno()
    raise OSError(number, f"{call}: {os.strerror(number)}")


def _create_ruleset(libc: ctypes.CDLL, handled: int) -> int:
    # struct landlock_ruleset_attr starts with __u64 handled_access_fs; the kernel accepts the
    # shorter struct of ABI 1 and treats the later fields (network, scopes) as unhandled.
    attr = ctypes.c_uint64(handled)
    fd = int(libc.syscall(_SYS_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(8), 0))
    if fd < 0:
        _fail(libc, "landlock_create_ruleset")
    return fd


def _add_rule(libc: ctypes.CDLL, ruleset: int, path: str, rights: int) -> None:
    fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    try:
        # struct landlock_path_beneath_attr { __u64 allowed_access; __s32 parent_fd; } packed
        attr = ctypes.create_string_buffer(struct.pack("=Qi", rights, fd), 12)
        if libc.syscall(_SYS_ADD_RULE, ruleset, _RULE_PATH_BENEATH, attr, 0) != 0:
            _fail(libc, f"landlock_add_rule({path})")
    finally:
        os.close(fd)


_SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)


def parse_size(text: str) -> int:
    """Read a size such as ``1G``, ``512M``, ``1.5GiB`` or ``1073741824`` (bytes; powers of
    1024); ``0``, ``none``, ``off`` and ``unlimited`` mean no limit.

    Args:
        text: The size.

    Returns:
        Bytes (0: no limit).

    Raises:
        ValueError: When the text is not a size.
    """
    if text.strip().lower() in ("none", "off", "unlimited"):
        return 0
    match = _SIZE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a size: {text!r} (e.g. 2G, 512M, or none)")
    power = " KMGT".index(match.group(2).upper() or " ")
    return int(float(match.group(1)) * 1024**power)


def limit_memory(limit: int) -> None:
    """Cap this process's address space (``RLIMIT_AS``): beyond it an allocation fails with
    ``MemoryError`` (or ``ENOMEM``) instead of growing.

    Args:
        limit: Bytes (0: leave the limit as it is). A lower hard limit already in place wins.

    Raises:
        OSError: When the kernel refuses the limit.
        ValueError: When the limit is below what the process already uses.
    """
    if limit <= 0:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def keep_sqlite_temp_files_in(folder: str) -> bool:
    """Make SQLite put its temporary files (big sorts, indexes, spilled statement journals) in
    ``folder``: confined, its default (``/var/tmp``, ``/tmp``) is refused, and SQLite read
    ``SQLITE_TMPDIR`` once, in the fork server, long before the session knew its folder.

    Args:
        folder: An existing folder the session may write in.

    Returns:
        True when SQLite's ``sqlite3_temp_directory`` now names it; False where the library
        cannot be reached (SQLite then uses its default, and a big sort may fail).
    """
    import ctypes.util

    name = ctypes.util.find_library("sqlite3")
    try:
        library = ctypes.CDLL(name or "libsqlite3.so.0")
        library.sqlite3_mprintf.restype = ctypes.c_void_p
        library.sqlite3_mprintf.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
        # SQLite frees the old value itself only at shutdown; it must come from its allocator.
        copy = library.sqlite3_mprintf(b"%s", os.fsencode(folder))
        ctypes.c_void_p.in_dll(library, "sqlite3_temp_directory").value = copy
    except (OSError, ValueError, AttributeError) as error:
        log.warning("SQLite's temporary files stay in its default folder: %s", error)
        return False
    return True
