"""One error type for every text format: file, line, column, the line and a caret.

Lark's exceptions are translated here so that no caller ever shows a Lark
traceback; :meth:`ParseError.render` produces the message people read.
"""

from __future__ import annotations

from typing import Iterable, Optional

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

__all__ = ["ParseError", "from_lark", "describe_terminals"]

# Readable names for terminals, shared by every grammar in this package.
_TERMINAL_NAMES = {
    "LPAR": '"("',
    "RPAR": '")"',
    "COMMA": '","',
    "LBRACE": '"{"',
    "RBRACE": '"}"',
    "NAME": "an identifier",
    "KEY": "a field name",
    "STRING": "a string",
    "ESCAPED_STRING": "a string",
    "INT": "an integer",
    "SIGNED_INT": "an integer",
    "NEG_INT": "a negative integer",
    "NUMBER": "a number",
    "LEVEL": '"level"',
    "PACK": '"pack"',
    "$END": "the end of the input",
}

_WINDOW = 72  # columns of context shown around the error on very long lines


def describe_terminals(names: Iterable[str]) -> list[str]:
    """Turn Lark terminal names into readable, de-duplicated descriptions.

    Args:
        names: Terminal names such as ``"LPAR"`` or ``"NAME"``.

    Returns:
        Sorted readable names such as ``'"("'`` or ``"an identifier"``.
    """
    out = set()
    for name in names:
        if name.startswith("__ANON") or name.startswith("_"):
            continue
        out.add(_TERMINAL_NAMES.get(name, name.lower().replace("_", " ")))
    return sorted(out)


class ParseError(ValueError):
    """A syntax or validation error located in a text.

    Attributes:
        message: What went wrong, in one sentence.
        line: 1-based line number (0 when unknown).
        column: 1-based column number (0 when unknown).
        filename: The file name, or None for text from a prompt or argument.
        source_line: The offending line (empty when unknown).
        expected: Readable descriptions of what was expected.
    """

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        line: int = 0,
        column: int = 0,
        filename: Optional[str] = None,
        expected: Iterable[str] = (),
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.filename = filename
        self.expected = tuple(expected)
        self.source_line = _line_of(text, line) if line else ""
        super().__init__(self.render())

    @property
    def location(self) -> str:
        """``file:line:col`` (parts that are unknown are left out)."""
        parts = [self.filename or "<input>"]
        if self.line:
            parts += [str(self.line), str(self.column)]
        return ":".join(parts)

    def caret_lines(self) -> list[str]:
        """Return the offending line and a caret under the column.

        Very long lines are cut to a window around the column so a 10 MB
        one-line file still gives a readable message.
        """
        if not self.line:
            return []
        text, col = self.source_line.expandtabs(1), max(self.column, 1)
        start = 0
        if len(text) > _WINDOW:
            start = max(0, min(col - 1 - _WINDOW // 2, len(text) - _WINDOW))
            text = ("…" if start else "") + text[start : start + _WINDOW] + (
                "…" if start + _WINDOW < len(self.source_line) else ""
            )
            col = col - start + (1 if start else 0)
        return ["  " + text, "  " + " " * (col - 1) + "^"]

    def render(self) -> str:
        """Render the full message: location, message, line, caret, expected."""
        lines = [f"{self.location}: {self.message}"]
        lines += self.caret_lines()
        if self.expected:
            lines.append("expected " + _or_list(self.expected))
        return "\n".join(lines)

    def short(self) -> str:
        """One line for status bars: ``line L, column C: message``."""
        if self.line:
            return f"line {self.line}, column {self.column}: {self.message}"
        return self.message


def _or_list(items: tuple[str, ...]) -> str:
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " or " + items[-1]


def _line_of(text: str, line: int) -> str:
    # Find the line without splitting a possibly huge text into a list.
    start = 0
    for _ in range(line - 1):
        nl = text.find("\n", start)
        if nl < 0:
            return ""
        start = nl + 1
    end = text.find("\n", start)
    return text[start : end if end >= 0 else len(text)].rstrip("\r")


def from_lark(err: UnexpectedInput, text: str, filename: Optional[str] = None) -> ParseError:
    """Translate a Lark exception into a :class:`ParseError`.

    Args:
        err: The exception Lark raised.
        text: The text that was parsed.
        filename: Its file name, if any.

    Returns:
        The equivalent ParseError.
    """
    line = getattr(err, "line", 0) or 0
    column = getattr(err, "column", 0) or 0
    if isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    ):
        expected = describe_terminals(err.expected)
        line, column = _end_position(text)
        return ParseError("unexpected end of input", text=text, line=line, column=column,
                          filename=filename, expected=expected)
    if isinstance(err, UnexpectedToken):
        expected = describe_terminals(err.accepts or err.expected)
        return ParseError(f"unexpected {str(err.token)[:40]!r}", text=text, line=line, column=column,
                          filename=filename, expected=expected)
    if isinstance(err, UnexpectedCharacters):
        char = text[err.pos_in_stream] if 0 <= err.pos_in_stream < len(text) else "?"
        expected = describe_terminals(err.allowed or ())
        return ParseError(f"unexpected character {char!r}", text=text, line=line,
                          column=column, filename=filename, expected=expected)
    return ParseError(str(err).splitlines()[0], text=text, line=line, column=column,
                      filename=filename)


def _end_position(text: str) -> tuple[int, int]:
    text = text.rstrip()  # point just after the last visible character
    line = text.count("\n") + 1
    last = text.rfind("\n")
    return line, len(text) - last
