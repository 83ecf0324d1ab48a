"""What the server tells a session process, and what the process answers with its exit status.

Kept free of Textual so the server process can build specs without importing the app: the
session process (:mod:`tui.serve.child`) is forked from a pre-loaded server of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "CLIENT_ENV",
    "EXIT_CPU",
    "EXIT_ERROR",
    "EXIT_OK",
    "EXIT_START",
    "SessionSpec",
    "clean_client_env",
    "exit_reason",
    "run",
]

CLIENT_ENV = ("COLORTERM", "NO_COLOR", "TERMARCADE_GLYPHS", "LANG", "LC_ALL", "LC_CTYPE")
"""Environment variables a player's client may set for their session (OpenSSH ``SendEnv`` or
``SetEnv``); nothing else of the client's or the host's environment reaches the app, and each
value must pass :func:`clean_client_env` first."""

GLYPH_SETS = ("unicode", "cp437", "ascii")
"""The values ``TERMARCADE_GLYPHS`` may take (``tui.terminal.GLYPH_SETS``, repeated here so the
server need not import Textual; a test keeps the two equal)."""

# A locale name: language[_territory][.codeset][@modifier], or C / POSIX (C.UTF-8 included).
_LOCALE = re.compile(
    r"[A-Za-z]{1,8}(_[A-Za-z0-9]{1,8})?(\.[A-Za-z0-9_-]{1,16})?(@[A-Za-z0-9_-]{1,16})?"
)
_PRINTABLE = re.compile(r"[ -~]{0,64}")
_CLIENT_VALUES = {
    # Rich reads only these two; anything else would mean nothing to the app.
    "COLORTERM": lambda value: value.lower() in ("truecolor", "24bit"),
    # Set at all is what counts (Textual); the value only has to be harmless in a log.
    "NO_COLOR": lambda value: _PRINTABLE.fullmatch(value) is not None,
    "TERMARCADE_GLYPHS": lambda value: value.strip().lower() in GLYPH_SETS,
    "LANG": lambda value: _LOCALE.fullmatch(value) is not None,
    "LC_ALL": lambda value: _LOCALE.fullmatch(value) is not None,
    "LC_CTYPE": lambda value: _LOCALE.fullmatch(value) is not None,
}


def clean_client_env(env: Mapping[Any, Any]) -> tuple[dict[str, str], list[str]]:
    """Keep the client variables the app understands, each with a well-formed value.

    A client's environment is a stranger's input: a value the app cannot use (an unknown glyph
    set, a locale name with shell characters, 10 kB of anything) is dropped before the session
    starts, so the session runs as if the client had not sent it.

    Args:
        env: What the client sent (asyncssh may hand over bytes or str, keys and values).

    Returns:
        ``(kept, dropped)``: the variables to pass on, and the names of those left out
        (known names with a bad value; unknown names are ignored without a word).
    """
    kept: dict[str, str] = {}
    dropped: list[str] = []
    for key, value in env.items():
        name, text = _text(key), _text(value)
        check = _CLIENT_VALUES.get(name) if name is not None else None
        if check is None:
            continue
        if text is not None and check(text):
            kept[str(name)] = text
        else:
            dropped.append(str(name))
    return kept, dropped


def _text(value: object) -> str | None:
    """A str as is, bytes decoded as UTF-8; None for anything else (or undecodable bytes)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return None
    return None


EXIT_OK = 0
"""The player quit."""
EXIT_CPU = 3
"""The session reached its CPU-time limit (and closed itself)."""
EXIT_START = 4
"""The session could not set up its terminal."""
EXIT_ERROR = 70
"""termarcade hit an internal error (logged on the server, never shown as a traceback)."""


@dataclass(frozen=True)
class SessionSpec:
    """Everything a session process needs (pickled to it).

    Attributes:
        session_id: The server's number for the session (for logs).
        user: The player's name (their saves are kept under it).
        tty_path: The pseudo-terminal the app draws on (``/dev/pts/N``).
        term: The client's ``TERM``.
        env: Client environment variables the app may see (``COLORTERM``, ``NO_COLOR`` ...).
        glyphs: A forced glyph set, or None to choose from ``term``.
        data_dir: The data directory (the store and nothing else).
        store: The store every session uses: a PostgreSQL URL (an arcade on several hosts) or
            a SQLite path; empty for the default file in ``data_dir``.
        cpu_limit: CPU seconds the session may use (0: no limit).
        nice: Scheduling niceness added to the process (keeps the server responsive).
        guest: A guest (no SSH key): an in-memory store, gone when the session ends.
        memory_limit: Bytes of address space the session may map (``RLIMIT_AS``; 0: none).
    """

    session_id: int
    user: str
    tty_path: str
    term: str = "xterm-256color"
    env: dict[str, str] = field(default_factory=dict)
    glyphs: str | None = None
    data_dir: str = ""
    store: str = ""
    cpu_limit: float = 0.0
    nice: int = 0
    guest: bool = False
    memory_limit: int = 0


def run(spec: SessionSpec) -> None:
    """Process entry point: run the arcade for one player (imports the app lazily).

    Args:
        spec: The session.
    """
    from tui.serve.child import run_session

    run_session(spec)


def exit_reason(code: int | None) -> str:
    """Say, for logs and for the player, why a session process ended.

    Args:
        code: The process exit status (negative: killed by that signal; None: unknown).

    Returns:
        A short phrase ("quit", "CPU limit", ...).
    """
    if code == EXIT_OK:
        return "quit"
    if code == EXIT_CPU or code == -24:  # -24: SIGXCPU before the app could handle it
        return "CPU limit"
    if code == -9:  # the kernel's hard CPU limit, the OOM killer, or the server's own kill
        return "killed"
    if code == EXIT_START:
        return "terminal set-up failed"
    if code is not None and code < 0:
        return f"killed by signal {-code}"
    return "internal error"
