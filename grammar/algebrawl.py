"""Algebrawl's level format (:data:`FORMAT`): numbers, targets and cards, custom cards included.

An Algebrawl level block::

    level "Mean Streak" {
      game algebrawl
      description "Two monsters, and a card that averages."  ; author, description, hint
      numbers [3 5 9 2]             ; the starting pool: whole numbers or fractions (7/2)
      targets [4 7]                 ; the monsters (one target may be written bare: 24)
      cards [+ - avg(a, b) = (a + b) / 2, avg]    ; built-in cards and custom ones
      integer_only yes              ; every result must be whole (default no)
      use_all yes                   ; every number must be used (default no)
      par 5                         ; moves of the shortest solution (optional)
    }

``cards`` (default ``[+ - × ÷]``) lists built-in cards by symbol (``+ - * /``, also ``− × ÷``)
or by name (``add sub mul div neg square split poison``, and the two cast on the monsters,
``poison_wizard traitor``), and custom cards by their definition in the card grammar
(``grammar/algebrawl_expr.lark``), optionally with ``commutative`` and ``symbol "⊕"`` before
the ``=``; a later reference by name deals another copy. Every entry deals one card, and each
card is played at most once.

Errors carry the file, line and column with a caret, also inside a card definition (an
unknown argument name points at that name): the body's callbacks check each value while it
is parsed and report a problem as a located Lark error, which the loader turns into a
:class:`grammar.errors.ParseError` like any syntax error. Bounds that involve several fields
(how many numbers, targets and cards) are checked by the level constructor
(:func:`core.algebrawl.level.level_of`), with the caret on the field.

:func:`parse_cards` reads a card list written without its brackets (the CLI's ``--cards``, the
level editor's card field), :func:`cards_text` writes one; :func:`parse_numbers` reads a list
of numbers the same way (the editor's numbers and monsters).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, NoReturn

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedInput
from lark.load_grammar import FromPackageLoader
from lark.visitors import merge_transformers

from core.algebrawl.cards import ADD, DEFAULT_CARDS, DIV, LIBRARY, MUL, SUB, Card
from core.algebrawl.expr import to_text
from core.algebrawl.level import Level, level_of
from core.algebrawl.puzzle import MAX_CARDS
from core.algebrawl.values import MAX_INPUT, format_value, within
from core.text import shorten

from .algebrawl_expr import CardBuilder, LocatedError, build_card
from .errors import ParseError, from_lark
from .format import (
    BODY,
    INT,
    META_FIELDS,
    NEGATIVE,
    PAR_FIELD,
    FieldSpec,
    FieldValue,
    LevelFormat,
    ValueKind,
    WrongKind,
    meta_args,
    meta_values,
    read_digits,
)
from .strings import WRAP, StringEscapeError, decode_string, escape_string

__all__ = [
    "FORMAT",
    "CardList",
    "Empty",
    "Flag",
    "NumberList",
    "cards_text",
    "format_cards",
    "parse_cards",
    "parse_numbers",
]

SYMBOLS: dict[str, Card] = {"+": ADD, "-": SUB, "−": SUB, "*": MUL, "×": MUL, "/": DIV, "÷": DIV}
"""Card symbols a card list accepts."""
WRITTEN: dict[Card, str] = {ADD: "+", SUB: "-", MUL: "*", DIV: "/"}
"""How the printer writes the four arithmetic cards (ASCII, so any editor can type them)."""


# --------------------------------------------------------------------------- body values


@dataclass(frozen=True, slots=True)
class Empty:
    """``[]``: an empty list (of numbers or cards)."""


@dataclass(frozen=True, slots=True)
class NumberList:
    """``[3 5 7/2]``."""

    values: tuple[Fraction, ...]
    """The numbers."""


@dataclass(frozen=True, slots=True)
class CardList:
    """``[+ - avg(a, b) = (a + b) / 2]``: the cards dealt, in order."""

    cards: tuple[Card, ...]
    """The cards."""


@dataclass(frozen=True, slots=True)
class Flag:
    """``yes`` or ``no``."""

    value: bool
    """True for yes."""


@dataclass(frozen=True, slots=True)
class _Definition:
    card: Card
    name: Token


class BodyError(UnexpectedInput):
    """A value the body's callbacks refuse, located at a token.

    Raised during the parse, so the loader reports it as it reports a syntax error: file,
    line, column, the line and a caret (``grammar.errors.from_lark`` renders any
    ``UnexpectedInput`` that is not a token or character error by its position and text).
    """

    def __init__(self, token: Token, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.line = token.line or 1
        self.column = token.column or 1
        self.pos_in_stream = token.start_pos or 0  # type: ignore[assignment]  # lark declares it None
        self.token = token

    def __str__(self) -> str:
        return self.message


def _number(token: Token) -> Fraction:
    text = str(token)
    num, _, den = text.partition("/")
    if len(num.lstrip("-")) > 7 or len(den) > 7:
        raise BodyError(token, f"{shorten(text, 30)} is out of range (at most {MAX_INPUT:,})")
    if den and int(den) == 0:
        raise BodyError(token, f"{text}: a fraction cannot have the denominator 0")
    value = Fraction(int(num), int(den) if den else 1)
    if not within(value, MAX_INPUT):
        raise BodyError(
            token, f"{text} is out of range (numerator and denominator at most {MAX_INPUT:,})"
        )
    return value


def _unknown_card(token: Token, defined: dict[str, Card]) -> BodyError:
    name = str(token)
    known = list(LIBRARY) + [n for n in defined if n not in LIBRARY]
    close = difflib.get_close_matches(name, known, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return BodyError(
        token,
        f"unknown card {name!r}{hint}; built-in cards are + - * / and "
        f"{', '.join(n for n in LIBRARY if n not in ('add', 'sub', 'mul', 'div'))}"
        "; define a new one as name(a, b) = expression",
    )


class BodyBuilder(Transformer):
    """Callbacks of ``algebrawl.lark`` (applied during the parse; they check each value)."""

    def empty(self, children: list) -> Empty:
        """``[]``."""
        return Empty()

    def numbers(self, children: list) -> NumberList:
        """``[3 5 7/2]``: each number is checked at its own token."""
        return NumberList(tuple(_number(tok) for tok in children))

    def yes(self, children: list) -> Flag:
        """``yes``."""
        return Flag(True)

    def no(self, children: list) -> Flag:
        """``no``."""
        return Flag(False)

    def ref(self, children: list) -> Token:
        """A card reference: a symbol or a name (resolved by :meth:`cards`)."""
        return children[0]

    def params(self, children: list) -> list:
        """The parameter name tokens of a definition."""
        return list(children)

    def definition(self, children: list) -> _Definition:
        """``name(params) [commutative] [symbol "s"] = body``."""
        name, params, *options, raw = children
        symbol, commutative = "", False
        for option in options:
            if option.type.endswith("COMMUTATIVE"):
                commutative = True
            elif option.type.endswith("SYMBOL_TEXT"):
                try:
                    symbol = decode_string(str(option))
                except StringEscapeError as error:
                    raise BodyError(option, str(error)) from None
        try:
            card = build_card(name, params, raw, symbol, commutative)
        except LocatedError as error:
            raise BodyError(error.token, error.message) from None
        return _Definition(card, name)

    def cards(self, children: list) -> CardList:
        """Resolve references in order: a name defined earlier in the list, else a
        built-in card; check that no two different cards share a name."""
        defined: dict[str, Card] = {}
        by_name: dict[str, Card] = {}
        out: list[Card] = []
        for item in children:
            token = item.name if isinstance(item, _Definition) else item
            card: Card | None
            if isinstance(item, _Definition):
                card = item.card
                if card.name in defined:
                    raise BodyError(
                        token,
                        f"card {card.name} is already defined in this "
                        f"list; write just {card.name} to deal another copy",
                    )
                defined[card.name] = card
            else:
                text = str(item)
                card = SYMBOLS.get(text) or defined.get(text) or LIBRARY.get(text)
                if card is None:
                    raise _unknown_card(item, defined)
            other = by_name.setdefault(card.name, card)
            if other != card:
                raise BodyError(
                    token,
                    f"two different cards are named {card.name} (a "
                    "built-in card and a defined one): rename the new card",
                )
            out.append(card)
            if len(out) > MAX_CARDS:
                raise BodyError(token, f"a puzzle has at most {MAX_CARDS} cards")
        return CardList(tuple(out))


class _CardCallbacks(CardBuilder):
    """The card grammar's callbacks, reporting their errors the way the loader locates."""

    def num(self, children: list) -> Any:
        """A whole number of a card body (checked at its token)."""
        try:
            return super().num(children)
        except LocatedError as error:
            raise BodyError(error.token, error.message) from None


def _transformer() -> Transformer:
    return merge_transformers(BodyBuilder(), algebrawl_expr=_CardCallbacks())


# --------------------------------------------------------------------------- kinds


def _read_numbers(value: FieldValue) -> tuple[Fraction, ...]:
    data = value.data
    if value.form == BODY and isinstance(data, NumberList):
        return data.values
    if value.form == BODY and isinstance(data, Empty):
        return ()
    if value.form in (INT, NEGATIVE):
        text = str(data)
        number = -read_digits(text[1:]) if text.startswith("-") else read_digits(text)
        if abs(number) > MAX_INPUT:
            raise ValueError(f"{shorten(text, 30)} is out of range (at most {MAX_INPUT:,})")
        return (Fraction(number),)
    raise WrongKind


def format_numbers(values: Sequence[Fraction], indent: str = "") -> str:
    """``[3 5 7/2]``."""
    return "[" + " ".join(format_value(v) for v in values) + "]"


def _read_cards(value: FieldValue) -> tuple[Card, ...]:
    if value.form == BODY and isinstance(value.data, CardList):
        return value.data.cards
    if value.form == BODY and isinstance(value.data, Empty):
        return ()
    raise WrongKind


def _card_items(cards: Sequence[Card]) -> list[str]:
    """Each card as written: a symbol or name, a definition the first time a custom card
    is dealt (followed by a comma unless it is last), its name after that."""
    items: list[str] = []
    written: set[str] = set()
    for i, card in enumerate(cards):
        if LIBRARY.get(card.name) == card:
            text = WRITTEN.get(card, card.name)
        elif card.name in written:
            text = card.name
        else:
            written.add(card.name)
            options = (" commutative" if card.commutative else "") + (
                f" symbol {escape_string(card.symbol)}" if card.symbol else ""
            )
            text = f"{card.name}({', '.join(card.params)}){options} = {to_text(card.body)}"
            if i + 1 < len(cards):
                text += ","
        items.append(text)
    return items


def cards_text(cards: Sequence[Card]) -> str:
    """A card list on one line without its brackets: what :func:`parse_cards` reads back
    to the same cards (``"+ - avg(a, b) = (a + b) / 2, avg"``)."""
    return " ".join(_card_items(cards))


def format_cards(cards: Sequence[Card], indent: str = "") -> str:
    """A card list as a level file writes it (one line, or one card per line when long).

    Args:
        cards: The cards, in order.
        indent: The field's indentation (for the long form).

    Returns:
        ``[+ - avg(a, b) = (a + b) / 2, avg]``; :func:`parse_cards` (and the level loader)
        read it back to the same cards.
    """
    items = _card_items(cards)
    line = "[" + " ".join(items) + "]"
    if len(line) + len(indent) + 8 <= WRAP:
        return line
    inner = indent + "  "
    lines: list[str] = []
    for item in items:  # greedy: as many items per line as fit
        if lines and len(inner) + len(lines[-1]) + 1 + len(item) <= WRAP:
            lines[-1] += " " + item
        else:
            lines.append(item)
    return "[\n" + "".join(f"{inner}{line}\n" for line in lines) + indent + "]"


def _read_flag(value: FieldValue) -> bool:
    if value.form == BODY and isinstance(value.data, Flag):
        return value.data.value
    raise WrongKind


def _write_flag(value: bool, indent: str) -> str:
    return "yes" if value else "no"


NUMBERS_KIND = ValueKind(
    "a list of numbers such as [3 5 7/2]", _read_numbers, format_numbers, ('"["', "an integer")
)
"""Kind ``"numbers"``: ``[3 5 7/2]`` (or one bare integer)."""
CARDS_KIND = ValueKind("a list of cards such as [+ - * /]", _read_cards, format_cards, ('"["',))
"""Kind ``"cards"``: built-in cards and definitions."""
FLAG_KIND = ValueKind("yes or no", _read_flag, _write_flag, ('"yes"', '"no"'))
"""Kind ``"flag"``: ``yes`` or ``no``."""


# --------------------------------------------------------------------------- the format


def _build(title: str, values: dict[str, Any]) -> Level:
    return level_of(
        title,
        numbers=values["numbers"],
        targets=values["targets"],
        cards=values.get("cards"),
        integer_only=values.get("integer_only", False),
        use_all=values.get("use_all", False),
        **meta_args(values),
    )


def _fields_of(level: Level) -> dict[str, Any]:
    puzzle = level.puzzle
    return {
        **meta_values(level),
        "numbers": puzzle.numbers,
        "targets": puzzle.targets,
        "cards": None if puzzle.cards == DEFAULT_CARDS else puzzle.cards,
        "integer_only": True if puzzle.integer_only else None,
        "use_all": True if puzzle.use_all else None,
    }


def _describe(value: Any) -> str:
    if isinstance(value, NumberList):
        return "a list of numbers"
    if isinstance(value, CardList):
        return "a list of cards"
    if isinstance(value, Flag):
        return "yes" if value.value else "no"
    return "an empty list"


TERMINAL_NAMES = {
    "NUMBER": "a number",
    "NAME": "a name",
    "SYMBOL_TEXT": "a string",
    "COMMUTATIVE": '"commutative"',
    "SYMBOL": '"symbol"',
    "PLUS": '"+"',
    "MINUS": '"-"',
    "TIMES": '"*"',
    "DIVIDE": '"/"',
    "POWER": '"^"',
    "INT": "a whole number",
}
"""Readable names of the body's terminals in "expected ..." lists."""

FORMAT = LevelFormat(
    game="algebrawl",
    level_type=Level,
    fields=(
        *META_FIELDS,
        FieldSpec("numbers", "numbers", required=True),
        FieldSpec("targets", "numbers", required=True),
        FieldSpec("cards", "cards"),
        FieldSpec("integer_only", "flag"),
        FieldSpec("use_all", "flag"),
        PAR_FIELD,
    ),
    build=_build,
    fields_of=_fields_of,
    kinds={"numbers": NUMBERS_KIND, "cards": CARDS_KIND, "flag": FLAG_KIND},
    grammar="grammar:algebrawl.lark",
    transformer=_transformer(),
    describe=_describe,
    terminal_names=TERMINAL_NAMES,
)
"""Algebrawl's level format, named by its registration (``grammar.algebrawl:FORMAT``)."""


# --------------------------------------------------------------------------- --cards


_STANDALONE = """
start: value
%import algebrawl.value
%import common.WS
%ignore WS
"""


@lru_cache(maxsize=1)
def _cards_parser() -> Lark:
    return Lark(
        _STANDALONE,
        parser="lalr",
        lexer="contextual",
        transformer=merge_transformers(_Start(), algebrawl=_transformer()),
        import_paths=[FromPackageLoader("grammar")],
        maybe_placeholders=False,
    )


class _Start(Transformer):
    def start(self, children: list) -> Any:
        return children[0]

    def value(self, children: list) -> Any:
        return children[0]


def parse_cards(text: str, filename: str | None = None) -> tuple[Card, ...]:
    """Read a card list without its brackets: ``"+ - * /"``, ``"+,-,avg(a, b) = (a+b)/2"``.

    Args:
        text: The list (what goes between ``[`` and ``]`` in a level file).
        filename: Shown in error messages (``"<--cards>"``).

    Returns:
        The cards, in order.

    Raises:
        ParseError: With the line, column and caret in ``text``.
    """
    if not text.strip():
        _raise("no cards: give cards such as + - * /", text or " ", 1, 1, filename, ())
    if len(text) > 4096:
        raise ParseError("the card list is too long (at most 4096 characters)", filename=filename)
    value = _parse_list(text, filename)
    if not isinstance(value, CardList):
        _raise("expected cards such as + - * /, not numbers", text, 1, 1, filename, ())
    return value.cards


def parse_numbers(text: str, filename: str | None = None) -> tuple[Fraction, ...]:
    """Read a list of numbers without its brackets: ``"3 5 7/2"`` (commas allowed), with the
    level loader's messages and carets (an empty text is the empty list).

    Raises:
        ParseError: With the line, column and caret in ``text``.
    """
    if not text.strip():
        return ()
    if len(text) > 4096:
        raise ParseError("the list is too long (at most 4096 characters)", filename=filename)
    first = len(text) - len(text.lstrip())
    if not re.match(r"-?[0-9]", text[first:]):
        # The shared parser would read a name as a card ("unknown card"): say what is wanted.
        _raise(
            f"unexpected {shorten(text[first:].split()[0], 20)!r}",
            text,
            text.count("\n", 0, first) + 1,
            first - (text.rfind("\n", 0, first) + 1) + 1,
            filename,
            ("a number",),
        )
    value = _parse_list(text, filename)
    if not isinstance(value, NumberList):
        _raise("expected numbers such as 3 5 7/2", text, 1, 1, filename, ("a number",))
    return value.values


def _parse_list(text: str, filename: str | None) -> Any:
    """Parse ``text`` as the inside of a bracketed list value (cards or numbers).

    Returns:
        The body value (:class:`CardList`, :class:`NumberList` or :class:`Empty`).

    Raises:
        ParseError: Located in ``text`` (the brackets added for the parse are not shown).
    """
    wrapped = "[" + text + "]"
    try:
        return _cards_parser().parse(wrapped)
    except BodyError as error:
        _raise(error.message, text, error.line, error.column - (error.line == 1), filename, ())
    except UnexpectedInput as error:
        shown = from_lark(
            error, wrapped, filename, parser=_cards_parser(), terminal_names=TERMINAL_NAMES
        )
        column = shown.column - (shown.line == 1)  # the added "["
        message = shown.message
        if getattr(error, "pos_in_stream", None) == len(wrapped) - 1:  # the added "]"
            message = "unexpected end of input"
        _raise(message, text, shown.line, column, filename, shown.expected)


def _raise(
    message: str, text: str, line: int, column: int, filename: str | None, expected: Sequence[str]
) -> NoReturn:
    """Raise a ParseError located in ``text`` (the list without the brackets added)."""
    lines = text.split("\n")
    line = min(max(line, 1), len(lines))
    column = min(max(column, 1), len(lines[line - 1]) + 1)
    shown = ["the end of the input" if e == '"]"' else e for e in expected]
    raise ParseError(
        message, text=text, line=line, column=column, filename=filename, expected=sorted(set(shown))
    )
