"""Strings in level files: quoting (:func:`escape_string`), decoding, and wrapped printing.

A string is written in double quotes on one line; escapes are ``\\"`` ``\\\\`` ``\\n``
``\\t`` ``\\r`` ``\\0`` ``\\uXXXX`` ``\\UXXXXXXXX``. Adjacent strings are joined, so the
printer splits a long text over several lines.
"""

from __future__ import annotations

__all__ = [
    "ESCAPES_EXPECTED",
    "WRAP",
    "StringEscapeError",
    "decode_string",
    "escape_string",
    "format_string",
]

WRAP = 72
"""Printed lines aim to stay within this many columns."""

_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}
_HEX = frozenset("0123456789abcdefABCDEF")

ESCAPES_EXPECTED = ('\\"', "\\\\", "\\n", "\\t", "\\r", "\\0", "\\uXXXX", "\\UXXXXXXXX")
"""The escapes a string may use (the "expected" list of an invalid escape)."""


class StringEscapeError(ValueError):
    """An invalid escape in a string token.

    Attributes:
        offset: Offset of the backslash within the token (the opening quote is 0).
    """

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


def decode_string(token: str) -> str:
    """Decode one string token (with its quotes) into its text.

    Args:
        token: ``"..."`` as matched by the grammar's STRING terminal (so a backslash is
            always followed by a character).

    Returns:
        The text.

    Raises:
        StringEscapeError: At the first invalid escape.
    """
    raw = token[1:-1]
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        j = raw.find("\\", i)
        if j < 0:
            out.append(raw[i:])
            break
        out.append(raw[i:j])
        esc = raw[j + 1]
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
            i = j + 2
            continue
        width = 4 if esc == "u" else 8 if esc == "U" else 0
        digits = raw[j + 2 : j + 2 + width]
        if width and len(digits) == width and all(c in _HEX for c in digits):
            code = int(digits, 16)
            # Surrogates cannot be encoded in a UTF-8 file, so no text may hold them.
            if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                out.append(chr(code))
                i = j + 2 + width
                continue
        raise StringEscapeError(j + 1, f"invalid escape sequence '\\{esc}' in a string")
    return "".join(out)


def escape_string(text: str) -> str:
    """Quote a string for a level file (the inverse of the loader's decoding).

    Args:
        text: Any text without lone surrogates.

    Returns:
        ``"..."`` with ``"`` and ``\\`` escaped and line breaks / unprintable characters
        written as escapes, so the result is on one line and drives no terminal.
    """
    out = ['"']
    for ch in text:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif ch.isprintable():
            out.append(ch)
        elif ord(ch) <= 0xFFFF:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(f"\\U{ord(ch):08x}")
    out.append('"')
    return "".join(out)


def format_string(text: str, indent: str) -> str:
    """A string value; long ones are split after spaces into adjacent strings, one a line.

    Args:
        text: The text.
        indent: The indentation of the field (continuation lines get two more spaces).

    Returns:
        One or more quoted strings that the loader joins back into ``text``.
    """
    quoted = escape_string(text)
    if len(quoted) + len(indent) <= WRAP + 12 or " " not in text:
        return quoted
    chunks: list[str] = []
    first, *words = text.split(" ")
    current = first  # may be "" (a leading space): the next piece keeps its space
    for word in words:
        piece = " " + word
        if current and len(escape_string(current + piece)) + len(indent) + 2 > WRAP:
            chunks.append(current)
            current = piece
        else:
            current += piece
    chunks.append(current)
    return ("\n" + indent + "  ").join(escape_string(c) for c in chunks)
