"""One error type for every text format: file, line, column, the line and a caret.

Lark's exceptions are translated here so that no caller ever shows a Lark traceback;
:meth:`ParseError.render` produces the message people read. Everything rendered passes
through :func:`core.text.escape_controls`, so bad input cannot drive the terminal, and the
caret stays under the offending character (escapes and wide characters counted).

"Expected ..." lists are exact: they name the terminals that the parser accepts at the error
position (see :mod:`grammar.lalr`), not the lookahead set of an LALR state, which state
merging makes larger than what is valid there (``a$`` used to say ``expected "(", ")" or
","``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr

from core.text import escape_controls, shorten

from .lalr import Feeder, accepts_of

__all__ = ["ParseError", "accepted_terminals", "describe_terminals", "error_offset", "from_lark"]

# Readable names for terminals, shared by every grammar in this package; a namespaced
# terminal (``termcraft__NAME``) is looked up by its last part.
_TERMINAL_NAMES = {
    "LPAR": '"("',
    "RPAR": '")"',
    "COMMA": '","',
    "LBRACE": '"{"',
    "RBRACE": '"}"',
    "LSQB": '"["',
    "RSQB": '"]"',
    "COLON": '":"',
    "NAME": "an identifier",
    "KEY": "a field name",
    "GAME": '"game"',
    "GAME_ID": "a game id",
    "WORD": "a word",
    "STRING": "a string",
    "ESCAPED_STRING": "a string",
    "INT": "an integer",
    "SIGNED_INT": "an integer",
    "NEG_INT": "a negative integer",
    "NUMBER": "a number",
    "LEVEL": '"level"',
    "$END": "the end of the input",
}

_WINDOW = 72  # columns of context shown around the error on very long lines


def _describe_one(name: str, parser: Lark | None, extra: Mapping[str, str]) -> str | None:
    if name in extra:
        return extra[name]
    base = name if name.startswith("__") else name.rsplit("__", 1)[-1]
    if base in extra:
        return extra[base]
    if parser is not None and name != "$END":
        try:
            terminal = parser.get_terminal(name)
        except KeyError:
            return None  # a declared terminal that no text matches
        if terminal.pattern is None:  # pragma: no cover - declared terminals are not listed
            return None
        if base not in _TERMINAL_NAMES and isinstance(terminal.pattern, PatternStr):
            return '"' + terminal.pattern.value + '"'
    if base in _TERMINAL_NAMES:
        return _TERMINAL_NAMES[base]
    if base.startswith("_NO_VALUE"):
        return None
    return base.lower().strip("_").replace("_", " ")


def describe_terminals(
    names: Iterable[str], parser: Lark | None = None, extra: Mapping[str, str] | None = None
) -> list[str]:
    """Turn Lark terminal names into readable, de-duplicated descriptions.

    Args:
        names: Terminal names such as ``"LPAR"`` or ``"termcraft__NAME"``.
        parser: The parser they come from (to show literal terminals as they are written,
            and to leave out terminals no text matches).
        extra: More readable names (by full or unprefixed name), e.g. a body grammar's.

    Returns:
        Sorted readable names such as ``'"("'`` or ``"an identifier"``.
    """
    out = set()
    for name in names:
        text = _describe_one(name, parser, extra or {})
        if text is not None:
            out.add(text)
    return sorted(out)


def _cells(text: str) -> int:
    """Terminal columns taken by ``text`` (wide characters 2, combining marks 0)."""
    if text.isascii():
        return len(text)
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


class ParseError(ValueError):
    """A syntax or validation error located in a text.

    Attributes:
        message: What went wrong, in one sentence.
        line: 1-based line number (0 when unknown).
        column: 1-based column number, in characters (0 when unknown).
        filename: The file name, or None for text from a prompt or argument.
        source_line: The offending line, raw (empty when unknown).
        expected: Readable descriptions of what was expected.
        terminals: For syntax errors, the grammar terminals accepted at the error position
            (Lark names, ``$END`` for the end of the input); empty for other errors.
    """

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        line: int = 0,
        column: int = 0,
        filename: str | None = None,
        expected: Iterable[str] = (),
        terminals: Iterable[str] = (),
    ) -> None:
        self.message = message
        self.line = line
        self.column = column
        self.filename = filename
        self.expected = tuple(expected)
        self.terminals = tuple(sorted(terminals))
        self.source_line = _line_of(text, line) if line else ""
        super().__init__(self.render())

    def __str__(self) -> str:
        # Rendered on demand: callers may adjust line or filename after construction.
        return self.render()

    @property
    def location(self) -> str:
        """``file:line:col`` (parts that are unknown are left out), control characters escaped."""
        parts = [escape_controls(self.filename or "<input>")]
        if self.line:
            parts += [str(self.line), str(self.column)]
        return ":".join(parts)

    def caret_lines(self) -> list[str]:
        """Return the offending line and a caret under the column.

        Control characters are shown escaped (``\\e``, ``\\x07``) and tabs as one space;
        the caret counts those escapes and wide characters, so it stays under the
        offending character. Very long lines are cut to a window around the column, so a
        10 MB one-line file still gives a readable message.
        """
        if not self.line:
            return []
        raw = self.source_line.expandtabs(1)
        col = min(max(self.column, 1), len(raw) + 1)
        before = escape_controls(raw[: col - 1])
        after = escape_controls(raw[col - 1 :])
        if len(before) + len(after) > _WINDOW:
            keep_before = min(len(before), max(_WINDOW // 2, _WINDOW - len(after)))
            cut_before = len(before) - keep_before
            before = ("…" if cut_before else "") + before[cut_before:]
            room = _WINDOW - keep_before
            after = after[:room] + ("…" if len(after) > room else "")
        return ["  " + before + after, "  " + " " * _cells(before) + "^"]

    def render(self) -> str:
        """Render the full message: location, message, line, caret, expected."""
        lines = [f"{self.location}: {escape_controls(self.message)}"]
        lines += self.caret_lines()
        if self.expected:
            lines.append("expected " + _or_list(tuple(escape_controls(e) for e in self.expected)))
        return "\n".join(lines)

    def short(self) -> str:
        """One line for status bars: ``line L, column C: message``."""
        message = escape_controls(self.message)
        if self.line:
            return f"line {self.line}, column {self.column}: {message}"
        return message


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


def accepted_terminals(parser: Lark, text: str, offset: int) -> set[str]:
    """Return the terminals the parser accepts at ``offset`` of ``text``, by parsing again.

    For callers that ran ``parser.parse`` themselves; the loaders in this package use a
    :class:`~grammar.lalr.Feeder`, which needs no second parse.

    Args:
        parser: The (LALR) parser that failed.
        text: The text.
        offset: Where the offending token starts (``len(text)`` for the end of the input).

    Returns:
        Terminal names (``$END`` included when the input may end there).
    """
    feeder = Feeder(parser, text)
    try:
        for token in feeder.tokens():
            if (token.start_pos or 0) >= offset:
                return accepts_of(feeder.interactive, parser)
    except UnexpectedInput:
        return feeder.expected()
    return accepts_of(feeder.interactive, parser)


def _at_end(err: UnexpectedInput) -> bool:
    return isinstance(err, UnexpectedEOF) or (
        isinstance(err, UnexpectedToken) and err.token.type == "$END"
    )


def error_offset(err: UnexpectedInput, text: str) -> int:
    """Where in ``text`` a Lark error happened (``len(text)`` for the end of the input).

    Args:
        err: The exception Lark raised.
        text: The text that was parsed.

    Returns:
        The offset of the offending character or token.
    """
    if _at_end(err):
        return len(text)
    if isinstance(err, UnexpectedCharacters):
        return err.pos_in_stream or 0
    token = getattr(err, "token", None)  # UnexpectedToken and UnexpectedEOF carry one
    return (token.start_pos if token is not None else None) or 0


def from_lark(
    err: UnexpectedInput,
    text: str,
    filename: str | None = None,
    parser: Lark | None = None,
    accepts: Iterable[str] | None = None,
    terminal_names: Mapping[str, str] | None = None,
) -> ParseError:
    """Translate a Lark exception into a :class:`ParseError` with the exact expected list.

    Args:
        err: The exception Lark raised.
        text: The text that was parsed.
        filename: Its file name, if any.
        parser: The parser that raised it (for an exact list, and readable names of
            literal terminals).
        accepts: The terminals accepted at the error, when the caller knows them (a
            :class:`~grammar.lalr.Feeder`'s ``expected()``); else they are computed by
            parsing again up to the error.
        terminal_names: Readable names of the grammar's own terminals.

    Returns:
        The equivalent ParseError.
    """
    line = getattr(err, "line", 0) or 0
    column = getattr(err, "column", 0) or 0
    at_end = _at_end(err)
    if accepts is not None:
        accepts = set(accepts)
    elif parser is not None:
        accepts = accepted_terminals(parser, text, error_offset(err, text))
    else:  # pragma: no cover - every caller in this package passes its parser
        accepts = set(getattr(err, "expected", ()) or ())
    if parser is not None:  # leave out declared terminals that no text can produce
        known = {t.name for t in parser.terminals}
        accepts = {name for name in accepts if name == "$END" or name in known}
    expected = describe_terminals(accepts, parser, terminal_names)
    if at_end:
        line, column = _end_position(text)
        message = "unexpected end of input"
    elif isinstance(err, UnexpectedToken):
        message = f"unexpected {shorten(str(err.token), 40)!r}"
    elif isinstance(err, UnexpectedCharacters):
        at = err.pos_in_stream if err.pos_in_stream is not None else -1
        char = text[at] if 0 <= at < len(text) else "?"
        message = f"unexpected character {char!r}"
    else:  # pragma: no cover - Lark raises only the three above while parsing
        message = str(err).splitlines()[0]
        return ParseError(message, text=text, line=line, column=column, filename=filename)
    return ParseError(
        message,
        text=text,
        line=line,
        column=column,
        filename=filename,
        expected=expected,
        terminals=accepts,
    )


def _end_position(text: str) -> tuple[int, int]:
    text = text.rstrip()  # point just after the last visible character
    line = text.count("\n") + 1
    last = text.rfind("\n")
    return line, len(text) - last
