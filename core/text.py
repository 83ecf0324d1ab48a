"""Text helpers shared by every front end: shortening and making text safe to show.

Pure string functions, in ``core`` so that the grammar (error messages), the CLI and the
Textual app all use the same ones.
"""

from __future__ import annotations

__all__ = ["ELLIPSIS", "escape_controls", "plural", "shorten"]

ELLIPSIS = "…"
"""Marks text that was cut."""

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r", "\x1b": "\\e", "\0": "\\0"}


def _escape(ch: str) -> str:
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def escape_controls(text: str, *, keep_newlines: bool = False) -> str:
    """Show control characters as escapes, so text from a user never drives the terminal.

    A terminal interprets ESC, BEL and the other C0/C1 control characters (and a few format
    characters such as bidi overrides): echoing them from bad input would let a file or a
    remote player retitle the window, move the cursor or hide text. Every message and screen
    that shows user text passes it through here.

    Args:
        text: Any text.
        keep_newlines: Leave ``\\n`` as a line break (for multi-line messages).

    Returns:
        The text with each control character written as ``\\n``, ``\\t``, ``\\e``, ``\\x07``,
        ``\\u202e`` ...; printable text (any script, emoji) is unchanged.
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if (ch == "\n" and keep_newlines) or ch == " " or ch.isprintable():
            out.append(ch)
        else:
            out.append(_escape(ch))
    return "".join(out)


def shorten(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters, ending with ``…`` when cut.

    Args:
        text: The text.
        limit: The most characters to keep (the ellipsis included); at least 1.

    Returns:
        ``text`` itself when short enough, else its start and ``…``.
    """
    if len(text) <= limit:
        return text
    return text[: max(limit - 1, 0)] + ELLIPSIS


def plural(count: int, noun: str, plural_form: str | None = None) -> str:
    """``plural(1, "move")`` -> ``"1 move"``; ``plural(3, "move")`` -> ``"3 moves"``."""
    return f"{count} {noun if count == 1 else (plural_form or noun + 's')}"
