"""Loader for the term syntax (``term.lark``): text -> hash-consed :class:`core.termcraft.terms.Term`.

The parser is Lark's LALR with the transformer applied *during* parsing
(``transformer=`` on the parser): each rule is reduced bottom-up straight into
a term, so no parse tree is built and no Python recursion happens, whatever the
nesting depth.  Well-formed input is read first by :mod:`grammar.fastterm` (a regex
tokenizer with an iterative builder, proven equal by tests); anything it is not sure
about goes through Lark, which reports errors.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache
from importlib import resources

from lark import Lark, Transformer
from lark.exceptions import UnexpectedInput

from core.termcraft.terms import Term, compound, const, var

from .bulk import collector_paused
from .errors import ParseError, from_lark
from .fastterm import Fallback, read_term, top_standin
from .lalr import Feeder, refuse

__all__ = ["TermBuilder", "grammar_text", "parse_term", "parse_terms", "strip_whitespace"]

_BLANKS = re.compile(r"[ \t\f\r\n]*")  # the grammar's WS


class TermBuilder(Transformer):
    """Lark callbacks that build terms; reusable by grammars that import ``term``."""

    def start(self, children: list) -> Term:
        """The whole input is one term."""
        return children[0]

    def const(self, children: list) -> Term:
        """``apple`` -> Const(apple)."""
        return const(str(children[0]))

    def empty_compound(self, children: list) -> Term:
        """``tuple()`` -> Compound(tuple, []), different from the constant ``tuple``."""
        return compound(str(children[0]), ())

    def compound(self, children: list) -> Term:
        """``f(a,b)`` -> Compound(f, [a, b]); ``var(X)`` (any case of var) -> Var(X)."""
        name, args = str(children[0]), children[1:]
        # The seed's /^var\((\w+)\)$/i: only a bare identifier inside var(...)
        # makes a variable; var(f(x)) or var(a,b) stay compounds named var.
        if len(args) == 1 and name.lower() == "var" and args[0].is_const:
            return var(args[0].name)
        return compound(name, args)


def grammar_text(name: str = "term.lark") -> str:
    """Return the text of one of this package's grammar files.

    Args:
        name: File name inside ``grammar/``.

    Returns:
        The grammar source.
    """
    return resources.files("grammar").joinpath(name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark(grammar_text(), parser="lalr", transformer=TermBuilder(), maybe_placeholders=False)


def parse_term(text: str, filename: str | None = None) -> Term:
    """Parse one term.

    Args:
        text: The term's text; whitespace between tokens is allowed.
        filename: Shown in error messages, if the text came from a file.

    Returns:
        The (hash-consed) term.

    Raises:
        ParseError: With line, column, the offending line, a caret and what
            was expected.
    """
    if not text.strip():
        return _raise_empty(text, filename)
    with collector_paused(text):
        return _parse(text, filename)


def _parse(text: str, filename: str | None) -> Term:
    """:func:`parse_term` for a text that is not blank."""
    read = _fast(text)  # the fast reader for well-formed input; the grammar decides the rest
    if isinstance(read, Term):
        return read
    error = _quick_refusal(text, filename, read)
    if error is not None:
        raise error
    return _lark_parse(text, filename)


def _fast(text: str) -> Term | Fallback:
    """The fast reader's term, or its Fallback (placed after a whole term followed by more)."""
    try:
        term, end = read_term(text, 0)
    except Fallback as stop:
        return stop
    blanks = _BLANKS.match(text, end).end()  # type: ignore[union-attr]  # matches ""
    if blanks == len(text):
        return term
    return Fallback(blanks, top_standin(None, term))  # something after a whole term


def _quick_refusal(text: str, filename: str | None, stop: Fallback) -> ParseError | None:
    """The error where the fast reader found the text wrong, from a short stand-in of the
    text before it (:func:`grammar.lalr.refuse`); None when that does not show it."""
    if stop.at is None:
        return None
    found = refuse(_parser(), text, stop.at, stop.standin)
    if found is None:
        return None
    return from_lark(found[0], text, filename, parser=_parser(), accepts=found[1])


def _lark_parse(text: str, filename: str | None) -> Term:
    """Parse the whole text with the grammar (which reports every error)."""
    feeder = Feeder(_parser(), text)
    try:
        for _ in feeder.tokens():
            pass
        return feeder.finish()
    except UnexpectedInput as err:
        raise from_lark(err, text, filename, parser=_parser(), accepts=feeder.expected()) from None


def parse_terms(
    lines: Iterable[str], filename: str | None = None, first_line: int = 1
) -> Iterator[tuple[int, Term | ParseError]]:
    """Parse a stream of terms, one per line (``termarcade parse`` reading stdin).

    Blank lines are skipped; a line that does not parse gives its ParseError (with the
    line's real number) and the stream goes on.

    Args:
        lines: The lines, without or with their line breaks.
        filename: Shown in error messages.
        first_line: The number of the first line.

    Yields:
        ``(line number, term)`` or ``(line number, ParseError)`` per non-blank line.
    """
    for number, line in enumerate(lines, start=first_line):
        line = line.rstrip("\r\n")
        if not line.strip():
            continue
        try:
            yield number, parse_term(line, filename)
        except ParseError as error:
            error.line = number if error.line else 0  # each line is line 1 of its own text
            yield number, error


def _raise_empty(text: str, filename: str | None) -> Term:
    raise ParseError(
        "empty input: expected a term",
        text=text or " ",
        line=1,
        column=1,
        filename=filename,
        expected=["an identifier"],
    )


def strip_whitespace(text: str) -> str:
    """Remove every whitespace character, as the seed's dev panel and construct modal do.

    Args:
        text: Raw input.

    Returns:
        The text with all whitespace removed.
    """
    return "".join(text.split())
