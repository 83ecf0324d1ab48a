"""TermCraft's level format (:data:`FORMAT`): term values, integers written as terms.

A TermCraft level block::

    level "Paint It Blue" {
      game termcraft
      description "What the level teaches."   ; author, description, hint: strings
      fuel 1                                  ; fuel, budget: integers (required)
      budget 0
      par 1                                   ; par: integer (optional)
      current puzzle_state(rewrite(red, blue), data(red))   ; current, target: terms
      target puzzle_state(rewrite(red, blue), data(blue))
    }

Values that are not strings are terms (``termcraft.lark``, which imports ``term.lark``);
``fuel 3`` is the constant ``3`` read as an integer, because digit strings are term names.
"""

from __future__ import annotations

from typing import Any

from lark.visitors import merge_transformers

from core.termcraft.level import Level
from core.termcraft.terms import Term, short_str, to_str

from .fastterm import read_term
from .format import (
    BODY,
    INT,
    META_FIELDS,
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
from .strings import WRAP
from .terms import TermBuilder

__all__ = ["FORMAT", "TERM_INT_KIND", "TERM_KIND"]


def _read_term(value: FieldValue) -> Term:
    if value.form != BODY or not isinstance(value.data, Term):
        raise WrongKind
    return value.data


def _write_term(term: Term, indent: str) -> str:
    """A term value: canonical; a long compound gets one argument per line.

    Each argument is printed once: the one-line text is put together from the same pieces
    (printing a 4 MiB term twice doubled the time to key a level by its text).
    """
    if not term.is_compound or not term.args:
        return to_str(term)
    args = [to_str(a) for a in term.args]
    length = len(term.name) + 1 + sum(map(len, args)) + len(args)  # name ( args , ... )
    if length + len(indent) <= WRAP + 12:
        return f"{term.name}({','.join(args)})"
    inner = indent + "  "
    return f"{term.name}(\n{inner}" + (",\n" + inner).join(args) + f"\n{indent})"


def _read_int(value: FieldValue) -> int:
    data = value.data
    if (
        value.form == BODY
        and isinstance(data, Term)
        and data.is_const
        and data.name.isdigit()
        and data.name.isascii()
    ):
        return read_digits(data.name)
    if value.form == INT:
        return read_digits(data)
    raise WrongKind


def _write_int(value: int, indent: str) -> str:
    return str(value)


TERM_KIND = ValueKind("a term", _read_term, _write_term, ("a term",))
"""Kind ``"term"``: a term in the syntax of ``term.lark``."""

TERM_INT_KIND = ValueKind("a non-negative integer", _read_int, _write_int, ("an integer",))
"""Kind ``"int"`` of TermCraft files: a constant made of digits (a term), read as a number."""


def _build(title: str, values: dict[str, Any]) -> Level:
    return Level(
        title=title,
        current=values["current"],
        target=values["target"],
        fuel=values["fuel"],
        budget=values["budget"],
        **meta_args(values),
    )


def _fields_of(level: Level) -> dict[str, Any]:
    return {
        **meta_values(level),
        "fuel": level.fuel,
        "budget": level.budget,
        "current": level.current,
        "target": level.target,
    }


FORMAT = LevelFormat(
    game="termcraft",
    level_type=Level,
    fields=(
        *META_FIELDS,
        FieldSpec("fuel", "int", required=True),
        FieldSpec("budget", "int", required=True),
        PAR_FIELD,
        FieldSpec("current", "term", required=True),
        FieldSpec("target", "term", required=True),
    ),
    build=_build,
    fields_of=_fields_of,
    kinds={"term": TERM_KIND, "int": TERM_INT_KIND},
    grammar="grammar:termcraft.lark",
    # term.lark's rules are imported into termcraft.lark under `term`.
    transformer=merge_transformers(term=TermBuilder()),
    envelope_ints=False,
    describe=lambda term: (
        f"the term {short_str(term, 40)}" if isinstance(term, Term) else "a value"
    ),
    # Large files: terms read by a regex tokenizer (same result, proven by tests).
    fast_value=lambda text, pos, cache: read_term(text, pos, comments=True, cache=cache),
)
"""TermCraft's level format, named by its registration (``grammar.termcraft:FORMAT``)."""
