"""Level files (``*.levels``): text -> :class:`core.levelpack.LevelPack` and back, for every game.

The syntax is the envelope (``level.lark``: a pack header, then ``level "Title" { ... }``
blocks of ``key value`` fields) combined with the game's own body grammar; each game
describes its fields, kinds of values and level type with one :class:`LevelFormat`, found
through the game registry (``core.registry.get(game).level_format``). Nothing here lists the
games.

Where ``game`` goes: the game must be known before the first value of a level, so it is
either a field of the pack header (``game termcraft``, once for all levels) or the *first*
field of every level block. A pack holds the levels of one game.

Errors are :class:`~grammar.errors.ParseError` with the file, line, column, the line and a
caret: syntax errors (with the exact list of what was expected), unknown fields (with "did
you mean"), duplicate or missing fields, values of the wrong kind ("fuel must be a
non-negative integer, not the term x"), header fields after a level, a second game, bad
strings, and a level constructor's refusal of a value (the caret on that field).

Printing (:func:`dump_pack`, :func:`dump_level`) writes one field per line in the format's
order; loading the text gives back an equal pack (round trip).
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from typing import Any

from lark import Token
from lark.exceptions import GrammarError, UnexpectedCharacters

from core import registry
from core.levelpack import LevelPack
from core.text import shorten

from . import envelope, fastpath
from .bulk import collector_paused
from .envelope import Parsed, ParsedBlock, ParsedField
from .errors import ParseError, from_lark
from .format import (
    BODY,
    INT,
    NEGATIVE,
    STRING,
    STRING_KIND,
    WORD,
    FieldSpec,
    FieldValue,
    LevelFormat,
    PlainLoader,
    ValueKind,
    WrongKind,
)
from .strings import (
    ESCAPES_EXPECTED,
    StringEscapeError,
    decode_string,
    escape_string,
    format_string,
)

__all__ = [
    "MAX_FILE_CHARS",
    "FieldSpec",
    "FieldValue",
    "LevelFormat",
    "PlainLoader",
    "ValueKind",
    "WrongKind",
    "bundled_packs",
    "dump_level",
    "dump_pack",
    "escape_string",
    "format_for",
    "load_pack",
    "load_pack_file",
    "registered_formats",
]

MAX_FILE_CHARS = 16 * 1024 * 1024
"""Longest level text accepted (characters); longer input is refused before parsing."""

HEADER_FIELDS = ("title", "author", "description", "game")
"""Fields of the pack header (before the first level)."""


# --------------------------------------------------------------------------- formats


def format_for(game: str) -> LevelFormat:
    """Return the level format of a registered game.

    Args:
        game: A game id such as ``"termcraft"``.

    Returns:
        The game's :class:`LevelFormat` (``core.registry.get(game).level_format``).

    Raises:
        ValueError: When no game has that id (the message lists the games with level
            files), the game has no level files, or its format cannot be loaded.
    """
    info = registry.get(game)
    if info is None:
        known = ", ".join(fmt.game for fmt in registered_formats()) or "none"
        raise ValueError(f"unknown game {game!r} (games with level files: {known})")
    if info.level_format is None:
        raise ValueError(f"{info.title} has no level files")
    try:
        fmt = info.load("level_format")
    except registry.RegistryError as error:
        raise ValueError(str(error)) from None
    if not isinstance(fmt, LevelFormat) or fmt.game != game:
        raise ValueError(
            f"{info.title}'s level format {info.level_format} is not a "
            f"LevelFormat for game {game!r}"
        )
    return fmt


def registered_formats() -> list[LevelFormat]:
    """The level formats of every registered game that has one (in registry order).

    Games whose format cannot be loaded are left out (``core.registry.problems`` and
    :func:`format_for` report them).
    """
    out = []
    for info in registry.games():
        if info.level_format is None:
            continue
        try:
            out.append(format_for(info.id))
        except ValueError:
            continue
    return out


# --------------------------------------------------------------------------- positions


class _Source:
    """The text being loaded, with helpers that turn offsets into ParseErrors."""

    def __init__(self, text: str, filename: str | None) -> None:
        self.text = text
        self.filename = filename

    def error_at_offset(self, offset: int, message: str, expected=()) -> ParseError:
        line = self.text.count("\n", 0, offset) + 1
        column = offset - (self.text.rfind("\n", 0, offset) + 1) + 1
        return ParseError(
            message,
            text=self.text,
            line=line,
            column=column,
            filename=self.filename,
            expected=expected,
        )

    def error_at(self, token: Token, message: str, expected=()) -> ParseError:
        return ParseError(
            message,
            text=self.text,
            line=token.line or 1,
            column=token.column or 1,
            filename=self.filename,
            expected=expected,
        )

    def value_offset(self, field: ParsedField) -> int:
        """Offset of the first character of a field's value (skips blanks and comments)."""
        value = field.value
        if value.form == STRING:
            return value.data[0].start_pos or 0
        if value.form != BODY:
            return value.data.start_pos or 0
        # Body values are built by the game's callbacks, which do not carry positions.
        text, i, n = self.text, field.key.end_pos or 0, len(self.text)
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

    def value_error(self, field: ParsedField, message: str, expected=()) -> ParseError:
        return self.error_at_offset(self.value_offset(field), message, expected)


def _string(src: _Source, tokens: tuple[Token, ...]) -> str:
    """Decode adjacent string tokens into one text."""
    parts = []
    for token in tokens:
        try:
            parts.append(decode_string(str(token)))
        except StringEscapeError as error:
            raise src.error_at_offset(
                (token.start_pos or 0) + error.offset, str(error), expected=ESCAPES_EXPECTED
            ) from None
    return "".join(parts)


def _field_value(src: _Source, value: Parsed) -> FieldValue:
    if value.form == STRING:
        return FieldValue(STRING, _string(src, value.data))
    if value.form == BODY:
        return FieldValue(BODY, value.data)
    return FieldValue(value.form, str(value.data))


def _describe(value: FieldValue, fmt: LevelFormat | None) -> str:
    if value.form == STRING:
        return "a string"
    if value.form == INT:
        return f"the integer {shorten(value.data, 20)}"
    if value.form == NEGATIVE:
        return shorten(value.data, 20)
    if value.form == WORD:
        return f"the word {shorten(value.data, 40)}"
    return fmt.describe(value.data) if fmt is not None else "a value"


def _read(
    src: _Source, field: ParsedField, kind: ValueKind, what: str, fmt: LevelFormat | None
) -> Any:
    """Read a field value with its kind; wrong forms and bad content become ParseErrors."""
    value = _field_value(src, field.value)
    name = str(field.key)
    try:
        return kind.read(value)
    except WrongKind:
        raise src.value_error(
            field,
            f"{what} {name} must be {kind.noun}, not {_describe(value, fmt)}",
            expected=kind.expected or (kind.noun,),
        ) from None
    except (ValueError, TypeError) as error:
        raise src.value_error(field, f"{what} {name}: {error}") from None


# --------------------------------------------------------------------------- checking


def _collect(
    src: _Source, fields: tuple[ParsedField, ...], allowed: tuple[str, ...], what: str
) -> dict[str, ParsedField]:
    """Index fields by key, rejecting unknown and duplicate keys."""
    seen: dict[str, ParsedField] = {}
    for field in fields:
        key = str(field.key)
        if key == "title" and "title" not in allowed:
            raise src.error_at(
                field.key, 'duplicate field title: a level\'s title is the string after "level"'
            )
        if key not in allowed:
            close = difflib.get_close_matches(key, allowed, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise src.error_at(
                field.key, f"unknown field {key!r} for {what}{hint}", expected=list(allowed)
            )
        if key in seen:
            first = seen[key].key
            raise src.error_at(
                field.key, f"duplicate field {key!r} (first given on line {first.line})"
            )
        seen[key] = field
    return seen


def _game_of(src: _Source, field: ParsedField) -> tuple[str, LevelFormat]:
    """The game named by a ``game`` field, and its format."""
    value = field.value
    if value.form != WORD:
        ids = [fmt.game for fmt in registered_formats()]
        raise src.value_error(
            field,
            "game must be a game id such as "
            f"{ids[0] if ids else 'termcraft'}, not "
            f"{_describe(_field_value(src, value), None)}",
            expected=ids,
        )
    game = str(value.data)
    try:
        fmt = format_for(game)
    except ValueError as error:
        ids = [fmt.game for fmt in registered_formats()]
        raise src.value_error(field, str(error), expected=ids) from None
    try:
        envelope.parser_for(fmt)  # compiled once; a broken body grammar is the game's bug
    except (GrammarError, OSError) as error:
        message = shorten(" ".join(str(error).split()), 200)
        raise src.value_error(field, f"the level format of {game} is broken: {message}") from None
    return game, fmt


def _build_error(
    src: _Source, block: ParsedBlock, given: dict[str, ParsedField], error: Exception, title: str
) -> ParseError:
    """Place a level constructor's complaint: at the field it names, else at the level."""
    message = f"level {title!r}: {error}"
    field = getattr(error, "field", None)
    if field == "title":
        return src.error_at(block.title, message)
    if field in given:
        return src.value_error(given[field], message)
    return src.error_at(block.keyword, message)


_STORED: ContextVar[bool] = ContextVar("stored_text", default=False)
"""Whether the text being loaded was stored by an earlier termarcade (``load_pack(stored=)``)."""


def _level(src: _Source, block: ParsedBlock, fmt: LevelFormat, header_game: bool) -> Any:
    """Check one level block against its game's format and build the level."""
    title = _string(src, (block.title,))
    fields = block.fields
    if fields and str(fields[0].key) == "game":
        first = fields[0].value
        # The usual case, `game <this pack's game>`, needs no registry look-up.
        game, other = (
            (fmt.game, fmt)
            if first.form == WORD and str(first.data) == fmt.game
            else _game_of(src, fields[0])
        )
        if other is not fmt:
            raise src.value_error(
                fields[0],
                f"level {title!r} is a {game} level but this "
                f"pack holds {fmt.game} levels (one game per pack)",
            )
        fields = fields[1:]
    elif not header_game:
        raise src.error_at(
            block.keyword,
            f"level {title!r} has no game: write 'game "
            f"{fmt.game}' as its first field (or once in the pack header)",
            expected=["game"],
        )
    for field in fields:
        if str(field.key) == "game":
            raise src.error_at(
                field.key,
                "the game field comes first in a level block "
                "(the game must be known before its values)",
            )
    allowed = tuple(spec.name for spec in fmt.fields)
    given = _collect(src, fields, allowed, f"a {fmt.game} level")
    # Values are read in file order before missing fields are reported, so the first
    # error in the text is the one reported.
    values = {
        key: _read(
            src,
            field,
            fmt.kind(fmt.spec(key).kind),  # type: ignore[union-attr]
            "level field",
            fmt,
        )  # _collect let only the format's own fields in
        for key, field in given.items()
    }
    missing = [spec.name for spec in fmt.fields if spec.required and spec.name not in given]
    if missing:
        raise src.error_at(
            block.keyword,
            f"level {title!r} is missing required field"
            f"{'s' if len(missing) > 1 else ''} " + ", ".join(missing),
            expected=missing,
        )
    if _STORED.get():
        # A stored text left out what was then the only or the default value.
        for key, value in fmt.stored_defaults.items():
            values.setdefault(key, value)
    try:
        return fmt.build(title, values)
    except (ValueError, TypeError) as error:
        raise _build_error(src, block, given, error, title) from None


def _build(src: _Source, items: list, fmt: LevelFormat | None) -> LevelPack:
    """Turn the parsed records into a pack, checking everything the grammar does not."""
    first_block = next(
        (i for i, item in enumerate(items) if isinstance(item, ParsedBlock)), len(items)
    )
    # Header fields must come before the first level (the grammar allows any order so that
    # the error can say exactly this).
    for item in items[first_block:]:
        if isinstance(item, ParsedField):
            raise src.error_at(
                item.key,
                f"pack field {str(item.key)!r} after a level: the "
                "pack header comes before the first level",
            )
    header = _collect(src, tuple(items[:first_block]), HEADER_FIELDS, "the pack header")
    values = {
        key: _read(src, field, STRING_KIND, "pack field", fmt)
        for key, field in header.items()
        if key != "game"
    }
    if "game" in header:
        _game, header_fmt = _game_of(src, header["game"])
        fmt = header_fmt
    levels = []
    titles: dict[str, Token] = {}
    for block in items[first_block:]:
        title = _string(src, (block.title,))
        if title in titles:
            raise src.error_at(
                block.title,
                f"duplicate level title {title!r} (first used on line {titles[title].line})",
            )
        titles[title] = block.title
        assert fmt is not None  # scan() found the game before the first block
        levels.append(_level(src, block, fmt, "game" in header))
    try:
        return LevelPack(
            title=values.get("title", ""),
            author=values.get("author", ""),
            description=values.get("description", ""),
            levels=tuple(levels),
            game=fmt.game if fmt is not None else "",
        )
    except (ValueError, TypeError) as error:
        field = getattr(error, "field", None)
        if field in header:
            raise src.value_error(header[field], f"pack field {field}: {error}") from None
        raise ParseError(f"pack: {error}", filename=src.filename) from None


# --------------------------------------------------------------------------- loading


def _first_significant(text: str) -> int:
    """The offset of the first character that is not blank or inside a ``;`` comment
    (-1 if none)."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == ";":
            nl = text.find("\n", i)
            if nl < 0:
                return -1
            i = nl + 1
        elif ch.isspace():
            i += 1
        else:
            return i
    return -1


def _plain(text: str, filename: str | None, game: str | None = None) -> LevelPack | None:
    """Load a game's own plain file (e.g. bare Longcat grids), if one claims the text.

    Args:
        text: The file's text.
        filename: Shown in error messages.
        game: The game the caller expects (``--game``, the command's own game), or None:
            when several plain formats claim the text, that game's reads it. A file that
            only another game claims is still read as that game's, so the caller can say
            whose file it is.

    Returns:
        The pack, or None when no plain format claims the text (it must be an envelope).

    Raises:
        ParseError: When two games' plain formats would both accept the text and the caller
            did not name one of them: the file is ambiguous, so the error asks for
            ``--game`` instead of letting the registry order decide.
    """
    at = _first_significant(text)
    if at < 0 or text[at].isalpha() or text[at] == "_":
        return None  # every envelope file starts with a key, `game` or `level`
    claims = [
        fmt for fmt in registered_formats() if fmt.plain is not None and fmt.plain.sniff(text)
    ]
    if len(claims) > 1 and game is not None:
        claims = [fmt for fmt in claims if fmt.game == game] or claims
    if len(claims) > 1:
        names = " or ".join(sorted(fmt.game for fmt in claims))
        raise _Source(text, filename).error_at_offset(
            at,
            f"this plain file could be a {names} level file: say which game with --game "
            "(or write the level-file envelope, starting with 'game <id>')",
        )
    if claims:
        plain = claims[0].plain
        assert plain is not None
        return plain.load(text, filename)
    return None


def _syntax_error(
    failure: envelope.SyntaxFailure, src: _Source, fmt: LevelFormat | None
) -> ParseError:
    err, text = failure.error, src.text
    at = err.pos_in_stream if isinstance(err, UnexpectedCharacters) else None
    if at is not None and 0 <= at < len(text) and text[at] == '"':
        return src.error_at_offset(
            at, 'unterminated string (a string ends with " on the same line)'
        )
    return from_lark(
        err,
        text,
        src.filename,
        parser=failure.parser,
        accepts=failure.accepts,
        terminal_names=fmt.terminal_names if fmt is not None else None,
    )


def load_pack(
    text: str, filename: str | None = None, game: str | None = None, *, stored: bool = False
) -> LevelPack:
    """Load a level pack from the text of a level file.

    Args:
        text: The file's text.
        filename: Shown in error messages.
        game: The game the caller expects, or None; it only decides which game's plain
            format reads a plain file that several could (envelope files say their game).
        stored: The text was stored by termarcade (a custom ID, a save, My levels), maybe
            by an older one: a field it leaves out takes the format's ``stored_defaults``
            value (what leaving it out meant then) instead of today's default.

    Returns:
        The pack: its ``levels`` are the game's own level values.

    Raises:
        ParseError: For a syntax error, an unknown game, an unknown/duplicate/missing
            field, a value of the wrong kind, a value a level constructor refuses, a
            duplicate level title or an over-long text; with file, line, column and a caret.
    """
    if len(text) > MAX_FILE_CHARS:
        raise _Source(text, filename).error_at_offset(
            MAX_FILE_CHARS,
            f"level file too large ({len(text)} characters; at most {MAX_FILE_CHARS})",
        )
    if text.startswith("\ufeff"):  # a byte-order mark from some editors
        text = text[1:]
    token = _STORED.set(stored)
    try:
        with collector_paused(text):
            return _load(text, filename, game)
    finally:
        _STORED.reset(token)


def _load(text: str, filename: str | None, game: str | None) -> LevelPack:
    """:func:`load_pack` after the size check (with the garbage collector paused)."""
    plain = _plain(text, filename, game)
    if plain is not None:
        return plain
    src = _Source(text, filename)
    try:
        found = envelope.scan(text)
    except envelope.SyntaxFailure as failure:
        raise _syntax_error(failure, src, None) from None
    if found.items is not None:
        return _build(src, found.items, None)
    if found.orphan is not None:
        title, token = found.orphan
        name = _string(src, (title,))
        raise src.error_at(
            token,
            f"level {name!r} does not say its game: write 'game <id>' "
            "as its first field (or once in the pack header)",
            expected=["game"],
        )
    assert found.game is not None
    game_field = ParsedField(
        Token("GAME", "game"),
        Parsed(
            WORD if found.game.type == "GAME_ID" else STRING,
            found.game if found.game.type == "GAME_ID" else (found.game,),
        ),
    )
    _, fmt = _game_of(src, game_field)
    try:  # large well-formed files: the fast reader; the grammar decides anything else
        items = fastpath.read_items(text, fmt)
    except fastpath.Fallback as stop:
        items = _parse_after_fallback(src, fmt, stop)
    return _build(src, items, fmt)


def _parse_after_fallback(src: _Source, fmt: LevelFormat, stop: fastpath.Fallback) -> list:
    """Parse a file the fast reader gave up on; a syntax error becomes a ParseError.

    Where the reader found the text wrong, the grammar is first asked about a short
    stand-in of the text before that place (a refusal then costs what reading up to there
    cost, not a parse of the whole file); if it does not fail there, the whole file is
    parsed.
    """
    if stop.at is not None:
        failure = envelope.refusal(fmt, src.text, stop.at, stop.standin)
        if failure is not None:
            raise _syntax_error(failure, src, fmt)
    try:
        return envelope.parse_items(fmt, src.text)
    except envelope.SyntaxFailure as failure:
        raise _syntax_error(failure, src, fmt) from None


def load_pack_file(path: str | os.PathLike, game: str | None = None) -> LevelPack:
    """Load a level pack from a file.

    Args:
        path: The file (UTF-8 text).
        game: The game the caller expects, or None (see :func:`load_pack`).

    Returns:
        The pack.

    Raises:
        ParseError: As :func:`load_pack`, and when the file cannot be read, is too large
            or is not UTF-8 (with the line and column of the first bad byte).
    """
    name = os.fspath(path)
    limit = 4 * MAX_FILE_CHARS  # no text within the limit takes more bytes (UTF-8)
    try:
        with open(name, "rb") as handle:
            data = handle.read(limit + 1)
    except OSError as err:
        raise ParseError(f"cannot read the file: {err.strerror or err}", filename=name) from None
    if len(data) > limit:
        text = data[:limit].decode("utf-8", errors="replace")
        raise _Source(text, name).error_at_offset(
            MAX_FILE_CHARS, f"level file too large (more than {limit} bytes)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        src = _Source(data[: err.start].decode("utf-8"), name)
        raise src.error_at_offset(
            len(src.text), f"the file is not UTF-8 text (byte 0x{data[err.start]:02x})"
        ) from None
    return load_pack(text, filename=name, game=game)


# --------------------------------------------------------------------------- printing


def _format_of_level(level: Any, game: str | None) -> LevelFormat:
    if game:
        fmt = format_for(game)
        if not isinstance(level, fmt.level_type):
            raise ValueError(f"{type(level).__name__} is not a {game} level")
        return fmt
    for fmt in registered_formats():
        if isinstance(level, fmt.level_type):
            return fmt
    raise ValueError(f"no level format for {type(level).__name__} values")


def _level_lines(level: Any, fmt: LevelFormat) -> Iterator[str]:
    yield f"level {escape_string(level.title)} {{"
    yield f"  game {fmt.game}"
    values = fmt.fields_of(level)
    for spec in fmt.fields:
        value = values.get(spec.name)
        if value is not None:
            text = fmt.kind(spec.kind).write(value, "  ")
            # A value that starts on the next line (a board) leaves no space after the key.
            yield f"  {spec.name}{'' if text.startswith(chr(10)) else ' '}{text}"
    yield "}"


def dump_level(level: Any, game: str | None = None) -> str:
    """Print one level block.

    Args:
        level: A level of a registered game.
        game: Its game id (found from the level's type when left out).

    Returns:
        ``level "Title" { ... }`` text, ``game`` first, then one field per line in the
        format's order; it ends with a newline.

    Raises:
        ValueError: When no registered format prints such levels.
    """
    return "\n".join(_level_lines(level, _format_of_level(level, game))) + "\n"


def dump_pack(pack: LevelPack) -> str:
    """Print a pack as a level file; :func:`load_pack` gives back an equal pack.

    Args:
        pack: The pack.

    Returns:
        The file's text: the header, then one block per level, separated by blank lines.

    Raises:
        ValueError: When the pack's game has no level format, or a level is not of its type.
    """
    lines = [f"title {format_string(pack.title, '')}"]
    if pack.author:
        lines.append(f"author {format_string(pack.author, '')}")
    if pack.description:
        lines.append(f"description {format_string(pack.description, '')}")
    if pack.game and not pack.levels:
        lines.append(f"game {pack.game}")
    parts = ["\n".join(lines) + "\n"]
    parts += [dump_level(level, pack.game) for level in pack.levels]
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
        ParseError: When a bundled file is broken or holds another game's levels (a
            packaging bug).
    """
    return list(_bundled(game))


@cache
def _bundled(game: str) -> tuple[tuple[str, LevelPack], ...]:
    # Packs are immutable values and the files ship with the code: load each game once.
    from levels import pack_files

    result = []
    for entry in pack_files(game):
        text = entry.read_text(encoding="utf-8")
        pack_id = entry.name[: -len(".levels")]
        filename = f"levels/{game}/{entry.name}"
        pack = load_pack(text, filename=filename, game=game)
        if pack.game != game:
            raise ParseError(
                f"a {pack.game or 'game-less'} pack in the {game} folder", filename=filename
            )
        result.append((pack_id, pack))
    return tuple(result)
