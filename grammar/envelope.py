"""Parsers for level files: the envelope (``level.lark``) combined with one game's body grammar.

How a game's body plugs in
--------------------------

For a :class:`~grammar.format.LevelFormat` with a body grammar ``"pkg:dir/foo.lark"`` and
namespace ``foo``, the grammar compiled is ``level.lark`` followed by::

    %import foo.value -> game_value

Lark's import resolves ``foo.lark`` through :class:`_BodyLoader` (a package resource, so it
works from a zip or wheel, and relative ``%import .other`` lines inside the body work too).
Every rule and terminal of the body gets the ``foo__`` prefix, and the format's transformer is
merged in with :func:`lark.visitors.merge_transformers` under that prefix, so the body's
callbacks run during the parse (no parse tree: a term 100,000 deep builds without recursion).

Isolation: one parser per game
------------------------------

Each game gets its own LALR parser (compiled once, cached), holding the envelope and that
game's body only. A file is parsed by the parser of its game, which must therefore be known
before the first body value: :func:`scan` reads the start of the file with the envelope alone
(``game_value`` matching nothing) until it meets the header's ``game X`` or a level block's
first field. So no terminal of one game can change how another game's files lex or parse,
and a game's "expected ..." lists never name another game's tokens.
"""

from __future__ import annotations

import posixpath
import threading
from dataclasses import dataclass
from importlib import resources
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.load_grammar import PackageResource
from lark.visitors import merge_transformers

from .format import BODY, INT, NEGATIVE, STRING, WORD, LevelFormat
from .lalr import Feeder, refuse

__all__ = [
    "ENVELOPE",
    "Parsed",
    "ParsedBlock",
    "ParsedField",
    "Scan",
    "SyntaxFailure",
    "parse_items",
    "parser_for",
    "read_resource",
    "refusal",
    "scan",
]

ENVELOPE = "grammar:level.lark"
"""The envelope grammar, as a package resource."""


@dataclass(frozen=True, slots=True)
class Parsed:
    """A field value as the envelope saw it.

    Attributes:
        form: One of the forms of :mod:`grammar.format` (``STRING``, ``INT``, ...).
        data: The string tokens (a list), the token (``INT``, ``NEGATIVE``, ``WORD``), or
            the body value.
    """

    form: str
    """What the parser saw."""
    data: Any
    """Tokens or the body value."""


@dataclass(frozen=True, slots=True)
class ParsedField:
    """``key value`` as parsed (the key token keeps its position)."""

    key: Token
    """The key (a ``KEY`` or the ``game`` keyword)."""
    value: Parsed
    """The value."""


@dataclass(frozen=True, slots=True)
class ParsedBlock:
    """``level "Title" { fields }`` as parsed."""

    keyword: Token
    """The ``level`` keyword."""
    title: Token
    """The title's string token."""
    fields: tuple[ParsedField, ...]
    """The fields in file order."""


class _Envelope(Transformer):
    """Parse-time callbacks of the envelope: raw records, validated later by the loader.

    Validation needs the whole block (and the source text for positions), so the callbacks
    only record what was written.
    """

    def start(self, children: list) -> list:
        """The file: header fields and level blocks in order."""
        return children

    def field(self, children: list) -> ParsedField:
        """``key value``."""
        return ParsedField(children[0], children[1])

    level_field = field

    def game_field(self, children: list) -> ParsedField:
        """``game id``."""
        return ParsedField(children[0], children[1])

    level_game_field = game_field

    def level(self, children: list) -> ParsedBlock:
        """``level "Title" { fields }``."""
        return ParsedBlock(children[0], children[1], tuple(children[2:]))

    def strings(self, children: list) -> Parsed:
        """One or more adjacent strings (left-recursive: extend the first's token list)."""
        if len(children) == 1:
            return Parsed(STRING, [children[0]])
        children[0].data.append(children[1])
        return children[0]

    level_strings = strings

    def int_value(self, children: list) -> Parsed:
        """A non-negative integer."""
        return Parsed(INT, children[0])

    level_int = int_value

    def neg_int(self, children: list) -> Parsed:
        """A negative integer."""
        return Parsed(NEGATIVE, children[0])

    def word(self, children: list) -> Parsed:
        """A bare word (header values, game ids)."""
        return Parsed(WORD, children[0])

    def body(self, children: list) -> Parsed:
        """A value of the game's body grammar."""
        return Parsed(BODY, children[0])

    def game_value(self, children: list) -> Any:
        """The body grammar's ``value`` rule (when not inlined): its one result."""
        return children[0] if len(children) == 1 else tuple(children)


def read_resource(ref: str) -> str:
    """Read a ``"package:path"`` text resource (works from a zip or an installed wheel).

    Args:
        ref: Package and slash-separated path inside it.

    Returns:
        The UTF-8 text.
    """
    package, _, path = ref.partition(":")
    return resources.files(package).joinpath(path).read_text(encoding="utf-8")


class _BodyLoader:
    """Lark import hook: ``<namespace>.lark`` is the body resource; relative imports too.

    Anything else (``common.lark``) is left to Lark's own library loader.
    """

    def __init__(self, namespace: str, ref: str) -> None:
        self.namespace = namespace
        self.package, _, self.path = ref.partition(":")

    def __call__(
        self, base_path: str | PackageResource | None, grammar_path: str
    ) -> tuple[PackageResource, str]:
        if base_path is None:
            if grammar_path != self.namespace + ".lark":
                raise OSError(grammar_path)
            path = self.path
        elif isinstance(base_path, PackageResource) and base_path.pkg_name == self.package:
            path = posixpath.normpath(posixpath.join(base_path.path, grammar_path))
        else:
            raise OSError(grammar_path)
        try:
            text = read_resource(f"{self.package}:{path}")
        except (FileNotFoundError, ModuleNotFoundError, IsADirectoryError) as error:
            raise OSError(str(error)) from None
        return PackageResource(self.package, path), text


def _grammar_text(fmt: LevelFormat | None) -> str:
    parts = [read_resource(ENVELOPE)]
    if fmt is None or fmt.grammar is None:
        parts.append("game_value: _NO_VALUE")
    else:
        parts.append(f"%import {fmt.body_namespace}.value -> game_value")
    if fmt is not None and not fmt.envelope_ints:
        parts.append("%override level_int: _NO_VALUE")
    return "\n".join(parts) + "\n"


_lock = threading.Lock()
_parsers: dict[LevelFormat | None, Lark] = {}


def parser_for(fmt: LevelFormat | None) -> Lark:
    """Return the LALR parser of one game's level files (compiled once), or the envelope's.

    Args:
        fmt: The game's format, or None for the envelope alone (no body values).

    Returns:
        The parser; its callbacks build :class:`ParsedField` / :class:`ParsedBlock` records
        and the body's values.

    Raises:
        lark.exceptions.GrammarError, OSError: When the body grammar is broken or missing
            (a bug of the game's format, reported by ``format_for``'s callers).
    """
    with _lock:
        parser = _parsers.get(fmt)
        if parser is None:
            callbacks = _Envelope()
            options: dict[str, Any] = {}
            if fmt is not None and fmt.grammar is not None:
                if fmt.transformer is not None:
                    merge_transformers(callbacks, **{fmt.body_namespace: fmt.transformer})
                options["import_paths"] = [_BodyLoader(fmt.body_namespace, fmt.grammar)]
            parser = Lark(
                _grammar_text(fmt),
                parser="lalr",
                lexer="contextual",
                transformer=callbacks,
                maybe_placeholders=False,
                **options,
            )
            _parsers[fmt] = parser
        return parser


@dataclass(frozen=True, slots=True)
class Scan:
    """What the start of a file says about its game (see :func:`scan`).

    Exactly one attribute is set.

    Attributes:
        game: The value token after the first ``game`` keyword (a ``GAME_ID`` or a string).
        orphan: ``(title token, first token)`` of a level block whose first field is not
            ``game`` while no game is known yet.
        items: The whole file, parsed by the envelope, when it names no game and has no
            level blocks.
    """

    game: Token | None = None
    """The token naming the game."""
    orphan: tuple[Token, Token] | None = None
    """A level whose fields start before any game is known."""
    items: list | None = None
    """The parsed file, when it names no game."""


class SyntaxFailure(Exception):
    """A syntax error, with what the parser accepted where it happened.

    Attributes:
        error: Lark's exception (positions, the offending token).
        accepts: The terminals accepted at the error (exact, see :mod:`grammar.lalr`).
        parser: The parser that failed.
    """

    def __init__(self, error: UnexpectedInput, accepts: set[str], parser: Lark) -> None:
        super().__init__(str(error))
        self.error = error
        self.accepts = accepts
        self.parser = parser


def scan(text: str) -> Scan:
    """Read the start of a level file with the envelope alone, until its game is known.

    Args:
        text: The file's text.

    Returns:
        A :class:`Scan`.

    Raises:
        SyntaxFailure: For a syntax error before the game is known.
    """
    parser = parser_for(None)
    feeder = Feeder(parser, text)
    previous = ""
    title: Token | None = None
    try:
        for token in feeder.tokens():  # each token comes before it is fed
            kind = token.type
            if previous == "GAME":
                return Scan(game=token)
            if previous == "LBRACE" and kind != "GAME":
                assert title is not None
                return Scan(orphan=(title, token))
            if previous == "LEVEL":
                title = token
            previous = kind
        return Scan(items=feeder.finish())
    except UnexpectedInput as error:
        raise SyntaxFailure(error, feeder.expected(), parser) from None


def parse_items(fmt: LevelFormat, text: str) -> list:
    """Parse a whole file with its game's parser.

    Args:
        fmt: The game's format.
        text: The file's text.

    Returns:
        Header :class:`ParsedField` and :class:`ParsedBlock` records in file order.

    Raises:
        SyntaxFailure: On a syntax error.
    """
    parser = parser_for(fmt)
    feeder = Feeder(parser, text)
    try:
        for _ in feeder.tokens():
            pass
        return feeder.finish()
    except UnexpectedInput as error:
        raise SyntaxFailure(error, feeder.expected(), parser) from None


def refusal(fmt: LevelFormat, text: str, at: int, standin: str) -> SyntaxFailure | None:
    """The syntax error of a file that a fast reader found wrong at ``at``, found cheaply.

    Args:
        fmt: The game's format.
        text: The file's text.
        at: Where the fast reader found the text wrong.
        standin: Its stand-in for the text before ``at`` (see :func:`grammar.lalr.refuse`).

    Returns:
        The failure :func:`parse_items` would raise, or None when the stand-in does not
        show it (the caller then parses the whole file).
    """
    parser = parser_for(fmt)
    found = refuse(parser, text, at, standin)
    return None if found is None else SyntaxFailure(found[0], found[1], parser)
