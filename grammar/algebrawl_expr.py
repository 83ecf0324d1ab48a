"""Loader for Algebrawl's card language (``algebrawl_expr.lark``): text -> core values.

``parse_card("avg(a, b) = (a + b) / 2")`` gives a :class:`core.algebrawl.cards.Card`;
``parse_expr("(a + b) / 2", ("a", "b"))`` a bare :mod:`core.algebrawl.expr` expression. No
Python ``eval``: the text is parsed by Lark's LALR parser with the transformer applied while
parsing (no parse tree, no recursion on nesting depth), then names are resolved to argument
positions and built-in functions in one iterative pass. Every error is a
:class:`grammar.errors.ParseError` with line, column, the line and a caret: syntax errors,
unknown names and functions, wrong argument counts, numbers out of range, expressions over the
size limit. Texts longer than :data:`MAX_TEXT` characters are refused before parsing, so time
and memory stay bounded whatever the input.

Printing: ``card.definition()`` (and :func:`core.algebrawl.expr.to_text`) writes text that
parses back to an equal value.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from lark import Lark, Token, Transformer
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from core.algebrawl.cards import Card
from core.algebrawl.expr import (
    FUNCTIONS,
    MAX_EXPR_NODES,
    MAX_LITERAL,
    Arg,
    BinOp,
    Call,
    Expr,
    Neg,
    Num,
    expr_size,
)
from core.algebrawl.trees import fold_up

from .errors import ParseError, from_lark
from .terms import grammar_text

__all__ = ["MAX_TEXT", "CardBuilder", "LocatedError", "build_card", "parse_card", "parse_expr"]

MAX_TEXT = 4096
"""Longest text accepted (a card definition is one short line)."""

_OPS = {"+": "+", "-": "-", "−": "-", "*": "*", "×": "*", "/": "/", "÷": "/", "^": "^"}
_EXPECTED = {
    "PLUS": '"+"',
    "MINUS": '"-"',
    "TIMES": '"*"',
    "DIVIDE": '"/"',
    "POWER": '"^"',
    "LPAR": '"("',
    "RPAR": '")"',
    "COMMA": '","',
    "EQUAL": '"="',
    "NAME": "a name",
    "INT": "a whole number",
    "$END": "the end of the input",
}


class LocatedError(Exception):
    """An error found while building a card, at a token (its line and column locate it)."""

    def __init__(self, token: Token, message: str):
        super().__init__(message)
        self.token, self.message = token, message


_Located = LocatedError


@dataclass(frozen=True)
class _Name:
    """A name not yet resolved to an argument."""

    token: Token


@dataclass(frozen=True)
class _CallSite:
    """A call not yet checked against the built-in functions."""

    token: Token
    args: tuple


class CardBuilder(Transformer):
    """Lark callbacks (run during LALR parsing, bottom-up); names stay unresolved until
    :func:`build_card`. ``num`` raises :class:`LocatedError` for an out-of-range number."""

    def card(self, c: list):
        """``name(params) = body``."""
        return ("card", c[0], c[1], c[2])

    def params(self, c: list) -> list:
        """The parameter name tokens."""
        return list(c)

    def expr(self, c: list):
        """A bare expression."""
        return ("expr", c[0])

    def args(self, c: list) -> tuple:
        """Call arguments."""
        return tuple(c)

    def binop(self, c: list) -> BinOp:
        """``left op right``."""
        return BinOp(_OPS[str(c[1])], c[0], c[2])

    def neg(self, c: list) -> Neg:
        """``-x``."""
        return Neg(c[1])

    def num(self, c: list) -> Num:
        """A whole number (checked before conversion: no 10,000-digit ints)."""
        tok = c[0]
        if len(tok) > len(str(MAX_LITERAL)) or int(tok) > MAX_LITERAL:
            raise _Located(tok, f"numbers in a card are at most {MAX_LITERAL:,}")
        return Num(int(tok))

    def name(self, c: list) -> _Name:
        """An argument name (resolved later)."""
        return _Name(c[0])

    def call(self, c: list) -> _CallSite:
        """``fn(args)`` (checked later)."""
        return _CallSite(c[0], c[1])


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(
        grammar_text("algebrawl_expr.lark"),
        parser="lalr",
        start=["card", "expr"],
        transformer=CardBuilder(),
        maybe_placeholders=False,
    )


def _kids(e) -> tuple:
    if isinstance(e, BinOp):
        return (e.left, e.right)
    if isinstance(e, Neg):
        return (e.operand,)
    if isinstance(e, _CallSite):
        return e.args
    return ()


def _resolve(raw, params: Sequence[str]) -> Expr:
    """Replace names by arguments and check calls (iterative post-order)."""
    index = {p: i for i, p in enumerate(params)}
    return fold_up(raw, _kids, lambda e, args: _rebuild(e, args, index))


def _rebuild(e, args: list, index: dict) -> Expr:
    if isinstance(e, _Name):
        name = str(e.token)
        if name not in index:
            hint = f" (a function: write {name}(...))" if name in FUNCTIONS else ""
            raise _Located(
                e.token,
                f"unknown name {name!r}{hint}; the arguments are {', '.join(index) or 'none'}",
            )
        return Arg(index[name], name)
    if isinstance(e, _CallSite):
        fn = str(e.token)
        spec = FUNCTIONS.get(fn)
        if spec is None:
            raise _Located(
                e.token, f"unknown function {fn!r}; known: {', '.join(sorted(FUNCTIONS))}"
            )
        if len(args) != spec[0]:
            raise _Located(
                e.token,
                f"{fn}() takes {spec[0]} argument{'s' if spec[0] != 1 else ''}, not {len(args)}",
            )
        return Call(fn, tuple(args))
    if isinstance(e, BinOp):
        return BinOp(e.op, args[0], args[1])
    if isinstance(e, Neg):
        return Neg(args[0])
    return e


def _syntax_error(err: UnexpectedInput, text: str, filename: str | None) -> ParseError:
    base = from_lark(err, text, filename)
    names = set()
    if isinstance(err, UnexpectedToken):
        names = set(err.accepts or err.expected)
    elif isinstance(err, (UnexpectedCharacters, UnexpectedEOF)):
        names = set(getattr(err, "allowed", None) or getattr(err, "expected", None) or ())
    expected = sorted({_EXPECTED.get(n, n.lower()) for n in names if not n.startswith("__")})
    return ParseError(
        base.message,
        text=text,
        line=base.line,
        column=base.column,
        filename=filename,
        expected=expected,
    )


def _located(err: _Located, text: str, filename: str | None) -> ParseError:
    return ParseError(
        err.message,
        text=text,
        line=err.token.line or 1,
        column=err.token.column or 1,
        filename=filename,
    )


def _parse(text: str, start: str, filename: str | None):
    if not isinstance(text, str):
        raise TypeError("parse text, not bytes")
    if len(text) > MAX_TEXT:
        raise ParseError(f"a card definition is at most {MAX_TEXT} characters", filename=filename)
    if not text.strip():
        what = (
            "a card definition such as avg(a, b) = (a + b) / 2"
            if start == "card"
            else "an expression"
        )
        raise ParseError(
            f"empty input: expected {what}", text=text or " ", line=1, column=1, filename=filename
        )
    try:
        return _parser().parse(text, start=start)
    except _Located as err:
        raise _located(err, text, filename) from None
    except UnexpectedInput as err:
        raise _syntax_error(err, text, filename) from None


def _check_size(expr_raw, text: str, filename: str | None) -> None:
    # Counted on the raw tree (same shape), before anything recursive touches it.
    size, stack = 0, [expr_raw]
    while stack:
        size += 1
        if size > MAX_EXPR_NODES:
            raise ParseError(
                f"a card expression has at most {MAX_EXPR_NODES} operations and numbers",
                text=text,
                line=1,
                column=1,
                filename=filename,
            )
        stack.extend(_kids(stack.pop()))


def parse_expr(text: str, params: Sequence[str] = (), filename: str | None = None) -> Expr:
    """Parse a bare expression over the given argument names.

    Args:
        text: The expression (``"(a + b) / 2"``).
        params: The argument names, in order.
        filename: Shown in error messages.

    Returns:
        The expression.

    Raises:
        ParseError: Syntax errors, unknown names or functions, limits (with a caret).
    """
    _, raw = _parse(text, "expr", filename)
    _check_size(raw, text, filename)
    try:
        expr = _resolve(raw, params)
    except _Located as err:
        raise _located(err, text, filename) from None
    assert expr_size(expr) <= MAX_EXPR_NODES
    return expr


def build_card(
    name: Token, params: Sequence[Token], raw, symbol: str = "", commutative: bool = False
) -> Card:
    """Make a card from the pieces the card grammar's callbacks built.

    Args:
        name: The card's name token.
        params: The parameter name tokens.
        raw: The body as built by :class:`CardBuilder`'s callbacks (names unresolved).
        symbol: Infix symbol ("" for none).
        commutative: Whether the card is commutative.

    Returns:
        The card.

    Raises:
        LocatedError: Repeated or reserved parameters, unknown names or functions, wrong
            argument counts, a body over the size limit, a card the core refuses; the token
            points at the culprit.
    """
    names = [str(p) for p in params]
    for i, p in enumerate(params):
        if str(p) in names[:i]:
            raise LocatedError(p, f"parameter {str(p)!r} is repeated")
        if str(p) in FUNCTIONS:
            raise LocatedError(p, f"{str(p)!r} is a function name; choose another parameter name")
    if _too_big(raw):
        raise LocatedError(
            name, f"a card expression has at most {MAX_EXPR_NODES} operations and numbers"
        )
    body = _resolve(raw, names)
    try:
        return Card(str(name), tuple(names), body, symbol, commutative)
    except ValueError as err:
        raise LocatedError(name, str(err)) from None


def _too_big(raw) -> bool:
    size, stack = 0, [raw]
    while stack:
        size += 1
        if size > MAX_EXPR_NODES:
            return True
        stack.extend(_kids(stack.pop()))
    return False


def parse_card(text: str, filename: str | None = None) -> Card:
    """Parse a card definition such as ``avg(a, b) = (a + b) / 2``.

    Args:
        text: The definition.
        filename: Shown in error messages.

    Returns:
        The card (no infix symbol; not marked commutative).

    Raises:
        ParseError: Syntax errors, repeated or reserved parameter names, unknown names,
            too many parameters, limits (with a caret).
    """
    _, name, params, raw = _parse(text, "card", filename)
    if _too_big(raw):
        _check_size(raw, text, filename)
    try:
        return build_card(name, params, raw)
    except LocatedError as err:
        raise _located(err, text, filename) from None
