"""How one game's levels are written in a level file: :class:`LevelFormat` and its parts.

Every game describes its level blocks with one :class:`LevelFormat` object, found through the
game registry (``core.registry.get(game).level_format`` is ``"module:attr"`` of it). The
format says:

* which fields a level block has (:class:`FieldSpec`: name, kind, required) and how to turn
  their values into a level (``build``) and back (``fields_of``);
* how each kind of value is read and printed (:class:`ValueKind`; ``string`` and ``int``
  are built in, a game adds its own, e.g. TermCraft's ``term``);
* optionally the game's *body grammar*: a ``.lark`` file, named as a package resource, whose
  rule ``value`` gives the values the envelope does not know (terms, boards). It is imported
  into the envelope under the format's namespace, with its own parser, so its terminals never
  meet another game's (see ``grammar/envelope.py``);
* optionally a plain-file loader for the game's own bare files (:class:`PlainLoader`).

A field value reaches a kind's ``read`` as a :class:`FieldValue`: its *form* (what the parser
saw: a string, an integer, a negative integer, a bare word in the header, or a body value) and
its data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lark import Transformer

from core.levelmeta import META_TEXTS, LevelMeta
from core.levelpack import LevelPack

from .strings import format_string

__all__ = [
    "BODY",
    "INT",
    "INT_KIND",
    "MAX_DIGITS",
    "META_FIELDS",
    "NEGATIVE",
    "PAR_FIELD",
    "STRING",
    "STRING_KIND",
    "WORD",
    "FieldSpec",
    "FieldValue",
    "LevelFormat",
    "PlainLoader",
    "ValueKind",
    "WrongKind",
    "meta_args",
    "meta_values",
    "read_digits",
]

STRING = "string"
"""Form of ``"..."`` values (adjacent strings joined); data: the decoded text."""
INT = "int"
"""Form of non-negative integers; data: the digits as written."""
NEGATIVE = "negative"
"""Form of ``-123``; data: the text as written (only so that errors can be precise)."""
WORD = "word"
"""Form of a bare word where only the envelope's values are allowed (pack header, ``game``);
data: the word."""
BODY = "body"
"""Form of a value of the game's own body grammar; data: what its transformer built."""

MAX_DIGITS = 40
"""Longest integer read (digits); level constructors hold the real bounds, this only keeps
conversion cheap on absurd input."""


@dataclass(frozen=True, slots=True, eq=False)
class FieldValue:
    """A field value as parsed, before its kind reads it.

    Attributes:
        form: :data:`STRING`, :data:`INT`, :data:`NEGATIVE`, :data:`WORD` or :data:`BODY`.
        data: The decoded text, the digits, the word, or the body value.
    """

    form: str
    """What the parser saw."""
    data: Any
    """The value's data (see the form constants)."""


class WrongKind(Exception):
    """Raised by :attr:`ValueKind.read` for a value of another form.

    The loader then reports ``<field> must be <noun>, not <what was given>`` with a caret at
    the value.  A value of the right form but bad content raises ValueError instead (its
    message is shown as is).
    """


def read_digits(digits: str) -> int:
    """Convert an integer's digits, refusing absurdly long numbers.

    Args:
        digits: ASCII digits.

    Returns:
        The number.

    Raises:
        ValueError: With more than :data:`MAX_DIGITS` digits.
    """
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"the number is too large ({len(digits)} digits)")
    return int(digits)


@dataclass(frozen=True, slots=True)
class ValueKind:
    """How one kind of field value is read from a :class:`FieldValue` and printed.

    Attributes:
        noun: What the kind is, for messages: ``"a non-negative integer"``.
        read: ``read(value) -> python value``; raises :class:`WrongKind` for a value of
            another form, ValueError for bad content.
        write: ``write(python value, indent) -> text`` that ``read`` gives back; ``indent``
            is the field's indentation, for values printed over several lines.
        expected: What to show as "expected ..." for a value of the wrong form
            (default: the noun).
    """

    noun: str
    """What the kind is, for messages."""
    read: Callable[[FieldValue], Any]
    """Field value -> Python value."""
    write: Callable[[Any, str], str]
    """Python value, indentation -> text."""
    expected: tuple[str, ...] = ()
    """Shown as "expected ..." for a value of the wrong form."""


def _read_string(value: FieldValue) -> str:
    if value.form != STRING:
        raise WrongKind
    return value.data


def _read_int(value: FieldValue) -> int:
    if value.form != INT:
        raise WrongKind
    return read_digits(value.data)


def _write_int(value: int, indent: str) -> str:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"not a non-negative integer: {value!r}")
    return str(value)


STRING_KIND = ValueKind("a string in double quotes", _read_string, format_string, ("a string",))
"""Built-in kind ``"string"``: text in double quotes; long texts print over several lines."""

INT_KIND = ValueKind("a non-negative integer", _read_int, _write_int, ("an integer",))
"""Built-in kind ``"int"``: a non-negative decimal integer."""


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """One field of a game's level blocks.

    Attributes:
        name: The key, e.g. ``"fuel"`` (letters, digits and ``_``; not ``game``/``title``).
        kind: The name of its :class:`ValueKind`: ``"string"``, ``"int"`` or one of the
            format's own kinds.
        required: Whether a level must give it.
    """

    name: str
    """The key."""
    kind: str
    """The kind's name."""
    required: bool = False
    """Whether a level must give it."""


META_FIELDS = tuple(FieldSpec(name, "string") for name in META_TEXTS)
"""The free-text metadata fields of every game's level blocks (``author``, ``description``,
``hint``), written first; a format lists them before its own fields."""

PAR_FIELD = FieldSpec("par", "int")
"""The ``par`` field (the level-metadata protocol's); a format places it among its own fields
where its files have always written it."""


def meta_args(values: Mapping[str, Any], *, par: bool = True) -> dict[str, Any]:
    """The metadata arguments of a level constructor, from a level block's values.

    Args:
        values: The fields a block gives (a ``LevelFormat.build``'s ``values``).
        par: Whether the game's levels take a par (2048's do not).

    Returns:
        ``description``, ``hint``, ``author`` ("" when absent) and ``par`` (None when absent).
    """
    args = {name: values.get(name, "") for name in META_TEXTS}
    if par:
        args["par"] = values.get("par")
    return args


def meta_values(level: LevelMeta) -> dict[str, Any]:
    """The metadata fields to print of a level (a ``LevelFormat.fields_of``'s share).

    Args:
        level: Any game's level (:class:`core.levelmeta.LevelMeta`).

    Returns:
        ``author``, ``description``, ``hint`` and ``par``, None where empty (not printed; a
        format without :data:`PAR_FIELD` never prints ``par``).
    """
    values: dict[str, Any] = {name: getattr(level, name) or None for name in META_TEXTS}
    values["par"] = level.par
    return values


@dataclass(frozen=True, slots=True)
class PlainLoader:
    """A game's own plain file format, accepted besides the envelope (bare Longcat grids).

    :func:`grammar.levels.load_pack` asks ``sniff`` only for texts that cannot be envelope
    files (their first character that is not blank or in a ``;`` comment is not a letter or
    ``_``), so an eager sniffer cannot take envelope files.

    Attributes:
        sniff: ``sniff(text) -> bool``: cheaply tells whether a text is in this format.
        load: ``load(text, filename) -> LevelPack``; raises ``grammar.errors.ParseError``
            (with line, column and text) on bad input.
    """

    sniff: Callable[[str], bool]
    """Tells whether a text is in this format."""
    load: Callable[[str, str | None], LevelPack]
    """Loads such a text."""


_NAMESPACE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _default_describe(value: Any) -> str:
    return "a game value"


@dataclass(frozen=True, eq=False)
class LevelFormat:
    """How one game's levels are written in a level file (see the module docstring).

    Attributes:
        game: The game id (the value of the ``game`` field), as registered.
        level_type: The class of the game's levels (``dump_level`` finds the format by it).
        fields: The fields a level block accepts besides ``game`` and its title, in
            printing order.
        build: ``build(title, values) -> level``; ``values`` maps the fields given to their
            read values. May raise ``core.levelpack.LevelFieldError`` (the caret goes to that
            field), ValueError or TypeError (the caret goes to the level).
        fields_of: ``fields_of(level) -> {name: value}`` of the values to print (``None`` or
            an absent key leaves the field out).
        kinds: The format's own value kinds by name; they may also replace ``"string"`` or
            ``"int"`` (TermCraft reads integers written as digit terms).
        grammar: ``"package:resource"`` of the body grammar (a ``.lark`` file defining rule
            ``value``), or None when the game's values are all strings and integers.
        transformer: Callbacks for the body grammar's rules (a ``lark.Transformer``; names as
            in the body file, without namespace); applied during the parse.
        namespace: Prefix of the body grammar's rules and terminals in the combined grammar
            (default: the resource's file name without ``.lark``).
        envelope_ints: Whether the envelope's integer terminal is offered in this game's
            field values. False for a body whose own words include digit strings (TermCraft:
            ``007`` and ``007(a)`` are terms), whose ``int`` kind then reads those words.
        describe: ``describe(body value) -> str`` for messages ("the term f(x)").
        terminal_names: Readable names of the body's terminals for "expected ..." lists
            (``{"ROW": "a row"}``); unnamed ones show their pattern or their name in lower case.
        plain: A loader for the game's own plain files, or None.
        fast_value: Optional fast reader of one body value, ``fast_value(text, pos, cache)
            -> (value, end)`` (``end`` just after the value's last token; ``cache`` a dict
            the reader may use while one file is read), for large well-formed files (see
            ``grammar/fastpath.py``): it must give exactly what the body grammar and
            transformer give, and raise ``grammar.fastterm.Fallback`` for anything else.
            Used only with ``envelope_ints=False``.
        stored_defaults: ``{field: value}`` for a field whose default changed: the value a
            level text *stored* before (a custom ID, a save, My levels) meant by leaving it
            out. ``load_pack(..., stored=True)`` applies it; a level file does not.
    """

    game: str
    """The game id."""
    level_type: type
    """The class of the game's levels."""
    fields: tuple[FieldSpec, ...]
    """The accepted fields, in printing order."""
    build: Callable[[str, dict[str, Any]], Any]
    """Title and field values -> a level."""
    fields_of: Callable[[Any], Mapping[str, Any]]
    """A level -> its field values."""
    kinds: Mapping[str, ValueKind] = field(default_factory=dict)
    """The format's own value kinds."""
    grammar: str | None = None
    """``"package:resource"`` of the body grammar, or None."""
    transformer: Transformer | None = None
    """Callbacks of the body grammar."""
    namespace: str | None = None
    """Prefix of the body's names in the combined grammar."""
    envelope_ints: bool = True
    """Whether the envelope's integers are offered in this game's values."""
    describe: Callable[[Any], str] = _default_describe
    """Body value -> words for messages."""
    terminal_names: Mapping[str, str] = field(default_factory=dict)
    """Readable names of the body's terminals."""
    plain: PlainLoader | None = None
    """A loader of the game's plain files, or None."""
    fast_value: Callable[[str, int, dict], tuple[Any, int]] | None = None
    """A fast reader of one body value, or None."""
    stored_defaults: Mapping[str, Any] = field(default_factory=dict)
    """What a field left out of a stored text meant (see :func:`grammar.levels.load_pack`)."""

    def __post_init__(self) -> None:
        if not self.game or not all(
            ch.isascii() and (ch.isalnum() or ch == "_") for ch in self.game
        ):
            raise ValueError(f"a game id is letters, digits and _ only, not {self.game!r}")
        names = [spec.name for spec in self.fields]
        for name in names:
            if not _FIELD.fullmatch(name) or name in ("game", "title"):
                raise ValueError(f"{self.game}: {name!r} cannot be a field name")
        if len(set(names)) != len(names):
            raise ValueError(f"{self.game}: duplicate field names")
        for spec in self.fields:
            self.kind(spec.kind)  # every kind is known
        if self.grammar is not None:
            if ":" not in self.grammar or not self.grammar.endswith(".lark"):
                raise ValueError(
                    f"{self.game}: grammar must be 'package:file.lark', not {self.grammar!r}"
                )
            if not _NAMESPACE.fullmatch(self.body_namespace):
                raise ValueError(
                    f"{self.game}: {self.body_namespace!r} cannot be a grammar "
                    "namespace (lower-case letters, digits, single _)"
                )

    @property
    def body_namespace(self) -> str:
        """The namespace of the body grammar in the combined grammar."""
        if self.namespace:
            return self.namespace
        resource = (self.grammar or "").partition(":")[2]
        return resource.rsplit("/", 1)[-1][: -len(".lark")]

    def kind(self, name: str) -> ValueKind:
        """Return the value kind called ``name`` (the format's own first, then built-ins).

        Raises:
            ValueError: When no kind has that name.
        """
        if name in self.kinds:
            return self.kinds[name]
        builtin = {"string": STRING_KIND, "int": INT_KIND}.get(name)
        if builtin is None:
            raise ValueError(f"{self.game}: unknown value kind {name!r}")
        return builtin

    def spec(self, name: str) -> FieldSpec | None:
        """Return the spec of a field, or None when the game has no such field."""
        for spec in self.fields:
            if spec.name == name:
                return spec
        return None
