"""Level files (``*.levels``): text -> :class:`core.levelpack.LevelPack` and back.

The syntax is ``level.lark`` (the shared envelope) with each game's body values imported
from its own grammar file (``termcraft.lark``: terms).  Parsing is LALR with the transformer
applied during the parse, so terms are built bottom-up without Python recursion (a term
nested 100,000 deep inside a level loads).  The grammar only knows *shapes* (strings,
integers, terms); which fields a level of a game accepts, and of which kind, is described
by a :class:`GameFormat`, so that errors can say "fuel must be a non-negative integer"
with the file, line, column and a caret, instead of "unexpected token".

A new game plugs in by adding its body values to ``level.lark`` (via its own grammar file)
and calling :func:`register_format` with its fields and level type; a game whose plain
files are accepted as they are (bare Longcat grids) also calls :func:`register_plain_loader`.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Optional, Union

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, VisitError

from core.levelpack import LevelPack
from core.termcraft.level import Level as TermCraftLevel
from core.terms import Term, to_str

from .errors import ParseError, from_lark
from .terms import TermBuilder

__all__ = [
    "FieldSpec",
    "GameFormat",
    "MAX_FILE_CHARS",
    "MAX_INT",
    "register_format",
    "register_plain_loader",
    "formats",
    "load_pack",
    "load_pack_file",
    "dump_pack",
    "dump_level",
    "bundled_packs",
    "escape_string",
]

MAX_FILE_CHARS = 16 * 1024 * 1024
"""Longest level text accepted (characters); longer input is refused before parsing."""

MAX_INT = 10**9
"""Largest integer field value (keeps fuel/budget sane and int() conversion bounded)."""

GAME_IDS = ("termcraft", "carving", "algebrawl", "longcat", "2048")
"""Every game id of the arcade (SPEC); only those with a registered format load."""

HEADER_FIELDS = ("title", "author", "description", "game")
"""Fields allowed before the first level (the pack header)."""


# --------------------------------------------------------------------------- formats


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of a game's level blocks.

    Attributes:
        name: The key, e.g. ``"fuel"``.
        kind: ``"string"``, ``"int"`` (non-negative) or ``"term"``.
        required: Whether a level must give it.
    """

    name: str
    """The key."""
    kind: str
    """``"string"``, ``"int"`` or ``"term"``."""
    required: bool = False
    """Whether a level must give it."""


@dataclass(frozen=True, slots=True)
class GameFormat:
    """How one game's levels are written in a level file.

    Attributes:
        game: The game id (the value of the ``game`` field).
        fields: The fields a level block accepts besides ``game`` (in printing order).
        build: ``build(title, values) -> level``; ``values`` maps given field names to
            Python values (str, int or Term).  May raise ValueError/TypeError.
        fields_of: ``fields_of(level) -> dict`` of the values to print (``None`` or an
            absent key means "leave the field out").
        level_type: The class of the game's levels.
    """

    game: str
    """The game id."""
    fields: tuple[FieldSpec, ...]
    """The accepted fields, in printing order."""
    build: Callable[[str, dict[str, Any]], Any]
    """Title and field values -> a level."""
    fields_of: Callable[[Any], dict[str, Any]]
    """A level -> its field values."""
    level_type: type
    """The class of the game's levels."""

    def spec(self, name: str) -> Optional[FieldSpec]:
        """Return the spec of a field, or None when the game has no such field."""
        for field in self.fields:
            if field.name == name:
                return field
        return None


_FORMATS: dict[str, GameFormat] = {}


def register_format(fmt: GameFormat) -> None:
    """Make a game's levels loadable and printable.

    Args:
        fmt: The game's format (replaces an earlier one for the same game).
    """
    _FORMATS[fmt.game] = fmt


def formats() -> dict[str, GameFormat]:
    """Return the registered game formats by game id."""
    return dict(_FORMATS)


def _termcraft_build(title: str, values: dict[str, Any]) -> TermCraftLevel:
    return TermCraftLevel(
        title=title,
        current=values["current"],
        target=values["target"],
        fuel=values["fuel"],
        budget=values["budget"],
        par=values.get("par"),
        description=values.get("description", ""),
        hint=values.get("hint", ""),
        author=values.get("author", ""),
    )


def _termcraft_fields(level: TermCraftLevel) -> dict[str, Any]:
    return {
        "author": level.author or None,
        "description": level.description or None,
        "hint": level.hint or None,
        "fuel": level.fuel,
        "budget": level.budget,
        "par": level.par,
        "current": level.current,
        "target": level.target,
    }


register_format(
    GameFormat(
        game="termcraft",
        fields=(
            FieldSpec("author", "string"),
            FieldSpec("description", "string"),
            FieldSpec("hint", "string"),
            FieldSpec("fuel", "int", required=True),
            FieldSpec("budget", "int", required=True),
            FieldSpec("par", "int"),
            FieldSpec("current", "term", required=True),
            FieldSpec("target", "term", required=True),
        ),
        build=_termcraft_build,
        fields_of=_termcraft_fields,
        level_type=TermCraftLevel,
    )
)


# --------------------------------------------------------------------------- parsing


@dataclass(frozen=True, slots=True)
class _Str:
    """A string value: its tokens (adjacent strings are joined)."""

    tokens: tuple[Token, ...]


@dataclass(frozen=True, slots=True)
class _NegInt:
    """A negative integer value (always an error, kept for a precise message)."""

    token: Token


@dataclass(frozen=True, slots=True)
class _Field:
    """``key value`` as parsed (the key token keeps its position)."""

    key: Token
    value: Union[_Str, _NegInt, Term]


@dataclass(frozen=True, slots=True)
class _Block:
    """``level "Title" { fields }`` as parsed."""

    keyword: Token
    title: Token
    fields: tuple[_Field, ...]


class _PackBuilder(TermBuilder):
    """Parse-time callbacks: terms via :class:`TermBuilder`, fields and blocks as raw records.

    Validation needs the source text (for positions of term values), so it happens after
    the parse, in :func:`load_pack`.
    """

    # term.lark's aliases are namespaced when imported through termcraft.lark.
    termcraft__term__const = TermBuilder.const
    termcraft__term__empty_compound = TermBuilder.empty_compound
    termcraft__term__compound = TermBuilder.compound

    def start(self, children: list) -> list:
        """The file: header fields and level blocks in order."""
        return children

    def term_value(self, children: list) -> Term:
        """A TermCraft body value."""
        return children[0]

    def string(self, children: list) -> _Str:
        """One or more adjacent strings."""
        return _Str(tuple(children))

    def neg_int(self, children: list) -> _NegInt:
        """A negative integer."""
        return _NegInt(children[0])

    def field(self, children: list) -> _Field:
        """``key value``."""
        return _Field(children[0], children[1])

    def level(self, children: list) -> _Block:
        """``level "Title" { fields }``."""
        return _Block(children[0], children[1], tuple(children[2:]))


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark.open_from_package(
        "grammar", "level.lark", parser="lalr", transformer=_PackBuilder(),
        maybe_placeholders=False,
    )


class _Source:
    """The text being loaded, with helpers that turn offsets into ParseErrors."""

    def __init__(self, text: str, filename: Optional[str]) -> None:
        self.text = text
        self.filename = filename

    def error_at_offset(self, offset: int, message: str, expected=()) -> ParseError:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return ParseError(message, text=self.text, line=line, column=column,
                          filename=self.filename, expected=expected)

    def error_at(self, token: Token, message: str, expected=()) -> ParseError:
        return ParseError(message, text=self.text, line=token.line, column=token.column,
                          filename=self.filename, expected=expected)

    def value_offset(self, field: _Field) -> int:
        """Offset of the first character of a field's value (skips blanks and comments)."""
        value = field.value
        if isinstance(value, _Str):
            return value.tokens[0].start_pos
        if isinstance(value, _NegInt):
            return value.token.start_pos
        text, i, n = self.text, field.key.end_pos, len(self.text)
        while i < n:
            ch = text[i]
            if ch == ";":
                nl = text.find("\n", i)
                i = n if nl < 0 else nl + 1
            elif ch in " \t\r\n\f":
                i += 1
            else:
                break
        return i

    def value_error(self, field: _Field, message: str, expected=()) -> ParseError:
        return self.error_at_offset(self.value_offset(field), message, expected)


_ESCAPES = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def _decode_string(src: _Source, token: Token) -> str:
    """Decode one string token (quotes and escapes) into its text."""
    raw = str(token)[1:-1]
    if "\\" not in raw:
        return raw
    out: list[str] = []
    i, n = 0, len(raw)
    while i < n:
        ch = raw[i]
        if ch != "\\":
            j = raw.find("\\", i)
            j = n if j < 0 else j
            out.append(raw[i:j])
            i = j
            continue
        esc = raw[i + 1]  # the token regex guarantees a character after a backslash
        if esc in _ESCAPES:
            out.append(_ESCAPES[esc])
            i += 2
            continue
        width = {"u": 4, "U": 8}.get(esc)
        digits = raw[i + 2 : i + 2 + width] if width else ""
        if width and len(digits) == width and all(c in "0123456789abcdefABCDEF" for c in digits):
            code = int(digits, 16)
            if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
                out.append(chr(code))
                i += 2 + width
                continue
        raise src.error_at_offset(
            token.start_pos + 1 + i, f"invalid escape sequence '\\{esc}' in a string",
            expected=['\\"', "\\\\", "\\n", "\\t", "\\r", "\\uXXXX", "\\UXXXXXXXX"],
        )
    return "".join(out)


def _string_value(src: _Source, value: _Str) -> str:
    return "".join(_decode_string(src, tok) for tok in value.tokens)


def _describe(value: Union[_Str, _NegInt, Term]) -> str:
    if isinstance(value, _Str):
        return "a string"
    if isinstance(value, _NegInt):
        return f"the negative number {value.token}"
    text = to_str(value) if value.size <= 20 else to_str(value)[:40] + "…"
    return f"the term {text}"


def _digits(value: Union[_Str, _NegInt, Term]) -> Optional[str]:
    if isinstance(value, Term) and value.is_const and value.name.isascii() and value.name.isdigit():
        return value.name
    return None


def _convert(src: _Source, field: _Field, kind: str, what: str) -> Any:
    """Check a field value's kind and turn it into a Python value."""
    value, name = field.value, str(field.key)
    if kind == "string":
        if not isinstance(value, _Str):
            raise src.value_error(field, f"{what} {name} must be a string in double quotes, "
                                  f"not {_describe(value)}", expected=["a string"])
        return _string_value(src, value)
    if kind == "int":
        digits = _digits(value)
        if digits is None:
            if isinstance(value, _NegInt):
                msg = f"{what} {name} must be a non-negative integer, not {value.token}"
            else:
                msg = f"{what} {name} must be a non-negative integer, not {_describe(value)}"
            raise src.value_error(field, msg, expected=["an integer"])
        number = int(digits) if len(digits) <= 10 else MAX_INT + 1
        if number > MAX_INT:
            raise src.value_error(field, f"{what} {name} is too large (at most {MAX_INT})")
        return number
    if kind == "term":
        if not isinstance(value, Term):
            raise src.value_error(field, f"{what} {name} must be a term, not {_describe(value)}",
                                  expected=["a term"])
        return value
    if kind == "game":
        if not (isinstance(value, Term) and value.is_const):
            raise src.value_error(field, f"game must be a game id such as termcraft, "
                                  f"not {_describe(value)}", expected=list(GAME_IDS))
        if value.name not in _FORMATS:
            known = sorted(_FORMATS)
            msg = (f"no level format for game {value.name!r} yet" if value.name in GAME_IDS
                   else f"unknown game {value.name!r}")
            raise src.value_error(field, msg, expected=known)
        return value.name
    raise AssertionError(kind)  # pragma: no cover - FieldSpec kinds are fixed


def _collect(src: _Source, fields: tuple[_Field, ...], allowed: tuple[str, ...], what: str,
             title_given: bool = False) -> dict[str, _Field]:
    """Index fields by key, rejecting unknown and duplicate keys."""
    seen: dict[str, _Field] = {}
    for field in fields:
        key = str(field.key)
        if key == "title" and title_given:
            raise src.error_at(field.key, 'duplicate field title: a level\'s title is the '
                               'string after "level"')
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise src.error_at(field.key, f"unknown field {key!r} for {what}{hint}",
                               expected=list(allowed))
        if key in seen:
            first = seen[key].key
            raise src.error_at(field.key, f"duplicate field {key!r} (first given on line "
                               f"{first.line})")
        seen[key] = field
    return seen


def _build(src: _Source, items: list) -> LevelPack:
    header = tuple(item for item in items if isinstance(item, _Field))
    blocks = [item for item in items if isinstance(item, _Block)]
    # Header fields must come before the first level (the grammar allows any order so that
    # the error can say exactly this).
    first_block = next((i for i, item in enumerate(items) if isinstance(item, _Block)),
                       len(items))
    for item in items[first_block:]:
        if isinstance(item, _Field):
            raise src.error_at(item.key, f"pack field {str(item.key)!r} after a level: the "
                               "pack header comes before the first level")
    fields = _collect(src, header, HEADER_FIELDS, "the pack header")
    values = {
        key: _convert(src, field, "game" if key == "game" else "string", "pack field")
        for key, field in fields.items()
    }
    pack_game: Optional[str] = values.get("game")
    game_field: Optional[_Field] = fields.get("game")

    levels = []
    titles: dict[str, Token] = {}
    for block in blocks:
        title = _decode_string(src, block.title)
        if title in titles:
            raise src.error_at(block.title, f"duplicate level title {title!r} (first used on "
                               f"line {titles[title].line})")
        titles[title] = block.title
        game, game_at = pack_game, game_field
        for field in block.fields:
            if str(field.key) == "game":
                game, game_at = _convert(src, field, "game", "level field"), field
        if game is None:
            raise src.error_at(block.keyword, f"level {title!r} has no game field (write e.g. "
                               "'game termcraft' in the level or in the pack header)",
                               expected=["game"])
        if pack_game is None:
            pack_game = game
        elif game != pack_game:
            raise src.value_error(game_at, f"level {title!r} is a {game} level but this pack "
                                  f"holds {pack_game} levels (one game per pack)")
        fmt = _FORMATS[game]
        allowed = ("game",) + tuple(f.name for f in fmt.fields)
        given = _collect(src, block.fields, allowed, f"a {game} level", title_given=True)
        # Values are checked in file order before missing fields, so the first error in
        # the text is the one reported.
        level_values = {
            key: _convert(src, field, fmt.spec(key).kind, "level field")
            for key, field in given.items() if key != "game"
        }
        missing = [f.name for f in fmt.fields if f.required and f.name not in given]
        if missing:
            raise src.error_at(block.keyword, f"level {title!r} is missing required field"
                               f"{'s' if len(missing) > 1 else ''} " + ", ".join(missing),
                               expected=missing)
        try:
            levels.append(fmt.build(title, level_values))
        except (ValueError, TypeError) as err:
            raise src.error_at(block.keyword, f"level {title!r}: {err}") from None
    return LevelPack(
        title=values.get("title", ""),
        author=values.get("author", ""),
        description=values.get("description", ""),
        levels=tuple(levels),
        game=pack_game or "",
    )


_LABELS = {"neg int": "a negative integer", "level": '"level"'}


def _relabel(err: ParseError, text: str) -> ParseError:
    """Give this grammar's own terminals readable names in an error's expected list."""
    expected = sorted({_LABELS.get(e, e) for e in err.expected})
    if list(err.expected) == expected:
        return err
    return ParseError(err.message, text=text, line=err.line, column=err.column,
                      filename=err.filename, expected=expected)


_PLAIN_LOADERS: list[tuple[str, Callable[[str], bool], Callable[[str, Optional[str]], LevelPack]]] = []


def register_plain_loader(game: str, sniff: Callable[[str], bool],
                          load: Callable[[str, Optional[str]], LevelPack]) -> None:
    """Accept a game's own plain file format besides the envelope (e.g. bare Longcat grids).

    :func:`load_pack` asks each registered ``sniff(text)`` in turn; the first that says yes
    loads the text with ``load(text, filename)`` (which must raise :class:`ParseError` on
    bad input) instead of the envelope grammar.

    Args:
        game: The game id (for documentation and de-duplication).
        sniff: Tells, cheaply, whether a text is in this plain format.
        load: Loads such a text into a pack.
    """
    _PLAIN_LOADERS[:] = [entry for entry in _PLAIN_LOADERS if entry[0] != game]
    _PLAIN_LOADERS.append((game, sniff, load))


def load_pack(text: str, filename: Optional[str] = None) -> LevelPack:
    """Load a level pack from the text of a level file.

    Args:
        text: The file's text.
        filename: Shown in error messages.

    Returns:
        The pack (levels of the game named by the ``game`` fields).

    Raises:
        ParseError: For a syntax error, an unknown/duplicate/missing field, a value of the
            wrong kind (e.g. negative fuel), an unknown game, a duplicate level title or an
            over-long text; with file, line, column and a caret where there is a place.
    """
    if len(text) > MAX_FILE_CHARS:
        raise ParseError(f"level file too large ({len(text)} characters; at most "
                         f"{MAX_FILE_CHARS})", filename=filename)
    if text.startswith("\ufeff"):  # a byte-order mark from some editors
        text = text[1:]
    for _game, sniff, plain_load in _PLAIN_LOADERS:
        if sniff(text):
            return plain_load(text, filename)
    src = _Source(text, filename)
    try:
        items = _parser().parse(text)
    except UnexpectedCharacters as err:
        if 0 <= err.pos_in_stream < len(text) and text[err.pos_in_stream] == '"':
            raise src.error_at_offset(err.pos_in_stream, 'unterminated string (a string ends '
                                      'with " on the same line)') from None
        raise _relabel(from_lark(err, text, filename), text) from None
    except UnexpectedInput as err:
        raise _relabel(from_lark(err, text, filename), text) from None
    except VisitError as err:  # pragma: no cover - callbacks do not raise
        raise ParseError(str(err.orig_exc), filename=filename) from None
    return _build(src, items)


def load_pack_file(path: Union[str, os.PathLike]) -> LevelPack:
    """Load a level pack from a file.

    Args:
        path: The file (UTF-8 text).

    Returns:
        The pack.

    Raises:
        ParseError: As :func:`load_pack`, and when the file cannot be read, is too large
            or is not UTF-8 (the message names the file).
    """
    name = os.fspath(path)
    try:
        if os.path.getsize(name) > 4 * MAX_FILE_CHARS:
            raise ParseError(f"level file too large ({os.path.getsize(name)} bytes)",
                             filename=name)
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise ParseError(f"cannot read the file: {err.strerror or err}", filename=name) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        src = _Source(data[: err.start].decode("utf-8"), name)
        raise src.error_at_offset(len(src.text), "the file is not UTF-8 text "
                                  f"(byte 0x{data[err.start]:02x})") from None
    return load_pack(text, filename=name)


# --------------------------------------------------------------------------- printing

_WRAP = 72  # printed lines aim to stay within this many columns


def escape_string(text: str) -> str:
    """Quote a string for a level file (the inverse of the loader's decoding).

    Args:
        text: Any text.

    Returns:
        ``"..."`` with ``"`` and ``\\`` escaped and line breaks / unprintable characters
        written as escapes, so the result is on one line.
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


def _format_string(text: str, indent: str) -> str:
    """A string value; long ones are split after spaces into adjacent strings, one a line."""
    quoted = escape_string(text)
    if len(quoted) + len(indent) <= _WRAP + 12 or " " not in text:
        return quoted
    chunks: list[str] = []
    current = ""
    for word in text.split(" "):
        piece = word if not current and not chunks else " " + word
        if current and len(escape_string(current + piece)) + len(indent) + 2 > _WRAP:
            chunks.append(current)
            current = piece
        else:
            current += piece
    chunks.append(current)
    return ("\n" + indent + "  ").join(escape_string(c) for c in chunks)


def _format_term(term: Term, indent: str) -> str:
    """A term value: canonical; a long compound gets one argument per line."""
    text = to_str(term)
    if len(text) + len(indent) <= _WRAP + 12 or not term.is_compound or not term.args:
        return text
    inner = indent + "  "
    args = (",\n" + inner).join(to_str(a) for a in term.args)
    return f"{term.name}(\n{inner}{args}\n{indent})"


def _format_value(value: Any, indent: str) -> str:
    if isinstance(value, Term):
        return _format_term(value, indent)
    if isinstance(value, bool):  # pragma: no cover - no boolean fields
        raise TypeError("boolean field values are not supported")
    if isinstance(value, int):
        return str(value)
    return _format_string(str(value), indent)


def dump_level(level: Any, game: Optional[str] = None) -> str:
    """Print one level block.

    Args:
        level: A level of a registered game.
        game: Its game id (found from the level's type when left out).

    Returns:
        ``level "Title" { ... }`` text, one field per line, ending with a newline.
    """
    fmt = _format_for(level, game)
    lines = [f"level {escape_string(level.title)} {{", f"  game {fmt.game}"]
    values = fmt.fields_of(level)
    for spec in fmt.fields:
        value = values.get(spec.name)
        if value is None:
            continue
        lines.append(f"  {spec.name} {_format_value(value, '  ')}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _format_for(level: Any, game: Optional[str]) -> GameFormat:
    if game:
        if game not in _FORMATS:
            raise ValueError(f"no level format for game {game!r}")
        return _FORMATS[game]
    for fmt in _FORMATS.values():
        if isinstance(level, fmt.level_type):
            return fmt
    raise ValueError(f"no level format for {type(level).__name__} values")


def dump_pack(pack: LevelPack) -> str:
    """Print a pack as a level file; :func:`load_pack` gives back an equal pack.

    Args:
        pack: The pack.

    Returns:
        The file's text: the header, then one block per level, separated by blank lines.
    """
    lines = [f"title {_format_string(pack.title, '')}"]
    if pack.author:
        lines.append(f"author {_format_string(pack.author, '')}")
    if pack.description:
        lines.append(f"description {_format_string(pack.description, '')}")
    if pack.game and not pack.levels:
        lines.append(f"game {pack.game}")
    parts = ["\n".join(lines) + "\n"]
    parts += [dump_level(level, pack.game or None) for level in pack.levels]
    return "\n".join(parts)


# --------------------------------------------------------------------------- bundled packs


def bundled_packs(game: str) -> list[tuple[str, LevelPack]]:
    """Load the level packs shipped with termarcade for a game.

    The files are package data (``levels/<game>/*.levels``), found through
    :mod:`importlib.resources`, so this works from a source checkout and from an install.

    Args:
        game: A game id such as ``"termcraft"``.

    Returns:
        ``(pack_id, pack)`` pairs sorted by file name; ``pack_id`` is the file name without
        ``.levels`` (e.g. ``"01-basics"``).

    Raises:
        ParseError: When a bundled file is broken (a packaging bug).
    """
    return list(_bundled(game))


@lru_cache(maxsize=None)
def _bundled(game: str) -> tuple[tuple[str, LevelPack], ...]:
    # Packs are immutable values and the files ship with the code: load each game once.
    from levels import pack_files

    result = []
    for entry in pack_files(game):
        text = entry.read_text(encoding="utf-8")
        pack_id = entry.name[: -len(".levels")]
        result.append((pack_id, load_pack(text, filename=f"levels/{game}/{entry.name}")))
    return tuple(result)
