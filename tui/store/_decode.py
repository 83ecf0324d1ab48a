"""Decoding stored JSON without ever raising: damaged content is a value, not an exception.

Whatever a row holds (a save written by a bug, a byte flipped on disk, a hand-edited
database, nesting a million brackets deep), decoding it gives either the value or the
reason it is unreadable. Two cheap checks run before :func:`json.loads`, both linear in the
text's size: a size cap (a multi-gigabyte row would cost that much memory again as objects)
and a nesting-depth scan (CPython's decoder recurses once per bracket and raises
RecursionError, or worse, exhausts a thread's smaller stack). Anything the decoder still
raises is caught as well.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import accumulate
from typing import Any

__all__ = ["MAX_DEPTH", "MAX_ROW_CHARS", "Decoded", "decode", "too_deep"]

MAX_ROW_CHARS = 64 * 1024 * 1024
"""The longest stored JSON text decoded (a save of a very long 2048 game is a few MiB)."""

MAX_DEPTH = 500
"""The deepest nesting decoded: no game stores anything near it (the deepest, an Algebrawl
checkpoint, nests two brackets per card of a tree of at most a few dozen cards), and it
stays below the interpreter's recursion limit (1000), in any thread."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*+"', re.DOTALL)
"""A JSON string (brackets inside one do not nest); possessive, so it never backtracks."""
_RUNS = re.compile(r"[\[{]+|[\]}]+")
"""A run of opening or of closing brackets (everything between them is skipped)."""


@dataclass(frozen=True)
class Decoded:
    """The outcome of :func:`decode`.

    Attributes:
        value: The decoded value (None when unreadable, or when the text was ``null``).
        problem: Why the text is unreadable (for the player's warning), or None.
    """

    value: Any
    problem: str | None = None


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether a JSON text nests brackets more than ``limit`` deep (brackets in strings aside).

    Args:
        text: JSON text (valid or not).
        limit: The deepest nesting allowed.

    Returns:
        True when some bracket is nested deeper than ``limit``. Linear in ``len(text)``: the
        regex engine strips the strings and finds the runs of brackets; Python sums the runs.
    """
    if text.count("[") + text.count("{") <= limit:
        return False  # Too few brackets to nest that deep: the common case, no scan.
    stripped = _STRING.sub("", text)
    steps = (len(run) if run[0] in "[{" else -len(run) for run in _RUNS.findall(stripped))
    return max(accumulate(steps, initial=0)) > limit


def decode(text: object) -> Decoded:
    """Decode stored JSON text; never raises.

    Args:
        text: What the database returned (normally a ``str``; bytes, numbers or None are
            damage too, from a hand-edited database).

    Returns:
        The value, or the problem that made it unreadable.
    """
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode()
        except UnicodeDecodeError:
            return Decoded(None, "not UTF-8 text")
    if not isinstance(text, str):
        return Decoded(None, f"not text ({type(text).__name__})")
    if len(text) > MAX_ROW_CHARS:
        return Decoded(None, f"too large ({len(text):,} characters)")
    try:
        if too_deep(text):
            return Decoded(None, f"nested more than {MAX_DEPTH} deep")
        return Decoded(json.loads(text))
    except (ValueError, RecursionError, MemoryError, TypeError) as error:
        return Decoded(None, _describe(error))
    except Exception as error:
        return Decoded(None, _describe(error))


def _describe(error: BaseException) -> str:
    """A short reason for a decoding failure (its first line, without the offsets)."""
    if isinstance(error, json.JSONDecodeError):
        return f"not valid JSON ({error.msg})"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    if isinstance(error, MemoryError):
        return "too large to decode"
    first = str(error).strip().splitlines()
    return f"unreadable ({first[0] if first else type(error).__name__})"
