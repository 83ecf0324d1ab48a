"""A fast reader for well-formed level files: the envelope by regular expressions, body values
by the game's ``LevelFormat.fast_value``.

It builds exactly the records the Lark path's callbacks build (:mod:`grammar.envelope`:
the same tokens with the same positions, the same body values), so the loader's checks run
unchanged on either. It raises :class:`~grammar.fastterm.Fallback` at the first thing it is not
sure about; the loader then parses with Lark, which stays the definition of the syntax and
reports every error. The Fallback says where the reader stopped and carries a short stand-in
for everything before that place (the records read so far, each written as a token or two;
see :func:`grammar.lalr.refuse`), so that a broken file is refused at the cost of reading
it, not of parsing it whole with Lark. ``tests/grammar/test_fast_path.py`` checks the equality on generated
files, well-formed and broken.

Only games with a ``fast_value`` reader and without the envelope's integers in their
values (``envelope_ints=False``) take this path: deciding between an envelope integer and
a body token needs the grammar's terminal priorities, which this reader does not repeat.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Token

from .envelope import Parsed, ParsedBlock, ParsedField
from .fastterm import Fallback, top_standin
from .format import BODY, INT, NEGATIVE, STRING, WORD, LevelFormat

__all__ = ["Fallback", "read_items"]

_SKIP = re.compile(r"(?:[ \t\f\r\n]+|;[^\n]*)*")  # the envelope's WS and COMMENT
_WORD = re.compile(r"[A-Za-z0-9_]+")
_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_NEG_INT = re.compile(r"-[0-9]+")


class _Reader:
    """A cursor over the text that makes Lark-like tokens (type, value, positions)."""

    def __init__(self, text: str, fmt: LevelFormat) -> None:
        self.text = text
        self.fmt = fmt
        self.pos = 0
        self.cache: dict = {}  # shared by the body reader's calls for this file
        # Line bookkeeping moves forward only: tokens are made in text order.
        self._line = 1
        self._line_start = 0
        self._counted = 0
        # Where the reader is, for a stand-in of the text read (see `standin`).
        self.items: list[Any] = []  # the header fields and level blocks read
        self.head = ""  # the level block being read: its tokens so far, as a stand-in
        self.fields: list[ParsedField] = []  # the fields of that block read so far
        self.reading: Token | None = None  # the key of the field whose value is being read
        self.strings_read = 0  # adjacent strings read of that value

    def skip(self) -> None:
        self.pos = _SKIP.match(self.text, self.pos).end()  # type: ignore[union-attr]  # matches ""

    def token(self, kind: str, start: int, end: int) -> Token:
        text = self.text
        if start > self._counted:
            newlines = text.count("\n", self._counted, start)
            if newlines:
                self._line += newlines
                self._line_start = text.rfind("\n", self._counted, start) + 1
            self._counted = start
        column = start - self._line_start + 1
        return Token(
            kind, text[start:end], start, self._line, column, self._line, column + end - start, end
        )

    def word(self) -> tuple[str, int]:
        match = _WORD.match(self.text, self.pos)
        if match is None:
            raise Fallback
        return match.group(), match.end()

    def take(self, kind: str, pattern: re.Pattern) -> Token:
        match = pattern.match(self.text, self.pos)
        if match is None:
            raise Fallback
        token = self.token(kind, self.pos, match.end())
        self.pos = match.end()
        self.skip()
        return token

    def expect(self, char: str) -> None:
        if not self.text.startswith(char, self.pos):
            raise Fallback
        self.pos += 1
        self.skip()

    def strings(self) -> Parsed:
        tokens = [self.take("STRING", _STRING)]
        while self.text.startswith('"', self.pos):
            self.strings_read = len(tokens)
            tokens.append(self.take("STRING", _STRING))
        return Parsed(STRING, tokens)

    def field(self) -> ParsedField:
        """``key value`` (in the header, or in a level block when ``self.head`` is set)."""
        self.reading = key = self.key()
        self.strings_read = 0
        if key.type == "GAME":
            value = self.game_value()
        else:
            value = self.level_value() if self.head else self.header_value()
        self.reading = None
        return ParsedField(key, value)

    def standin(self) -> str:
        """A short text that the grammar reads into the same state as the text before
        ``self.pos`` (see :func:`grammar.lalr.refuse`): the records read so far as stand-ins.
        """
        parts = [_items_standin(self.items, 'level "" {}')]
        if self.head:
            parts.append(self.head)
            parts.append(_items_standin(self.fields, "k a"))
        if self.reading is not None:
            parts.append(str(self.reading) + ' ""' * min(self.strings_read, 2))
        return " ".join(part for part in parts if part)

    def placed(self, stop: Fallback) -> Fallback:
        """The Fallback to raise for ``stop``: placed in the file, with the stand-in of the
        text before that place (the term reader's own stand-in after the field's)."""
        if stop.at is None:  # the envelope: the reader stopped where it stands
            return Fallback(self.pos, self.standin())
        return Fallback(stop.at, self.standin() + " " + stop.standin)

    def key(self) -> Token:
        """A field key or the ``game`` keyword (the next text is a word)."""
        word, end = self.word()
        if word == "game":
            token = self.token("GAME", self.pos, end)
        elif _KEY.fullmatch(word):
            token = self.token("KEY", self.pos, end)
        else:
            raise Fallback
        self.pos = end
        self.skip()
        return token

    def game_value(self) -> Parsed:
        if self.text.startswith('"', self.pos):
            return self.strings()
        _word, end = self.word()
        token = self.token("GAME_ID", self.pos, end)
        self.pos = end
        self.skip()
        return Parsed(WORD, token)

    def header_value(self) -> Parsed:
        text, pos = self.text, self.pos
        if text.startswith('"', pos):
            return self.strings()
        if text.startswith("-", pos):
            return Parsed(NEGATIVE, self.take("NEG_INT", _NEG_INT))
        word, end = self.word()
        # INT where the whole word is digits (INT's priority and look-ahead), else WORD.
        token = self.token("INT" if word.isdigit() else "WORD", pos, end)
        self.pos = end
        self.skip()
        return Parsed(INT if word.isdigit() else WORD, token)

    def level_value(self) -> Parsed:
        text, pos = self.text, self.pos
        if text.startswith('"', pos):
            return self.strings()
        if text.startswith("-", pos):
            return Parsed(NEGATIVE, self.take("NEG_INT", _NEG_INT))
        fast_value = self.fmt.fast_value
        assert fast_value is not None  # fast_level_reader only takes formats that have one
        value, end = fast_value(text, pos, self.cache)  # raises Fallback when unsure
        self.pos = end
        self.skip()
        return Parsed(BODY, value)

    def block(self, keyword: Token) -> ParsedBlock:
        self.head, self.fields = "level", []
        title = self.take("STRING", _STRING)
        self.head = 'level ""'
        self.expect("{")
        self.head = 'level "" {'
        self.fields = fields = []
        while not self.text.startswith("}", self.pos):
            fields.append(self.field())
        self.pos += 1
        self.skip()
        self.head = ""
        return ParsedBlock(keyword, title, tuple(fields))


def read_items(text: str, fmt: LevelFormat) -> list[Any]:
    """Read a whole level file of ``fmt``'s game, as ``envelope.parse_items`` would.

    Args:
        text: The file's text.
        fmt: The game's format; it must have a ``fast_value`` reader and
            ``envelope_ints=False``.

    Returns:
        Header :class:`ParsedField` and :class:`ParsedBlock` records in file order.

    Raises:
        Fallback: When the text is not plainly well-formed (or the format has no fast reader).
    """
    if fmt.fast_value is None or fmt.envelope_ints:
        raise Fallback
    reader = _Reader(text, fmt)
    reader.skip()
    items = reader.items
    n = len(text)
    try:
        while reader.pos < n:
            word, end = reader.word()
            if word == "level":
                keyword = reader.token("LEVEL", reader.pos, end)
                reader.pos = end
                reader.skip()
                items.append(reader.block(keyword))
                continue
            items.append(reader.field())
    except Fallback as stop:
        raise reader.placed(stop) from None
    return items


def _items_standin(items: list[Any], other: str) -> str:
    """Stand-ins for records read in a row (header items, or a block's fields).

    The grammar's lists are left-recursive: after two or more records its state is the same
    whatever they were, except for the last one, whose reduction waits for the next token.
    So the last record is written with the kind of its value, and ``other`` stands for all
    those before it.
    """
    if not items:
        return ""
    last = items[-1]
    if isinstance(last, ParsedBlock):
        text = 'level "" {k a}' if last.fields else 'level "" {}'
    else:
        text = f"{last.key} {_value_standin(last.value)}"
    return f"{other} {text}" if len(items) > 1 else text


def _value_standin(value: Parsed) -> str:
    """A value of the same kind: one or two strings, a term's shape, or the token itself."""
    if value.form == STRING:
        return " ".join(['""'] * min(len(value.data), 2))
    if value.form == BODY:
        return top_standin(None, value.data)
    return str(value.data)
