"""A fast reader for well-formed level files: the envelope by regular expressions, body values
by the game's ``LevelFormat.fast_value``.

It builds exactly the records the Lark path's callbacks build (:mod:`grammar.envelope`:
the same tokens with the same positions, the same body values), so the loader's checks run
unchanged on either. It raises :class:`~grammar.fastterm.Fallback` at the first thing it is not
sure about; the loader then parses with Lark, which stays the definition of the syntax and
reports every error. ``tests/grammar/test_fast_path.py`` checks the equality on generated
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
from .fastterm import Fallback
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
            tokens.append(self.take("STRING", _STRING))
        return Parsed(STRING, tokens)

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
        title = self.take("STRING", _STRING)
        self.expect("{")
        fields = []
        while not self.text.startswith("}", self.pos):
            key = self.key()
            value = self.game_value() if key.type == "GAME" else self.level_value()
            fields.append(ParsedField(key, value))
        self.pos += 1
        self.skip()
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
    items: list[Any] = []
    n = len(text)
    while reader.pos < n:
        word, end = reader.word()
        if word == "level":
            keyword = reader.token("LEVEL", reader.pos, end)
            reader.pos = end
            reader.skip()
            items.append(reader.block(keyword))
            continue
        key = reader.key()
        value = reader.game_value() if key.type == "GAME" else reader.header_value()
        items.append(ParsedField(key, value))
    return items
