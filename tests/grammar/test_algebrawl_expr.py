"""The card language: parse, print, round trip and errors with carets."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import LIBRARY
from core.algebrawl.expr import (
    FUNCTIONS,
    MAX_EXPR_NODES,
    Arg,
    BinOp,
    Call,
    Neg,
    Num,
    evaluate,
    to_text,
)
from grammar.algebrawl_expr import MAX_TEXT, parse_card, parse_expr
from grammar.errors import ParseError

PARAMS = ("a", "b", "c")


def exprs(max_leaves: int = 12):
    leaves = st.builds(Num, st.integers(0, 1000)) | st.sampled_from(
        [Arg(i, p) for i, p in enumerate(PARAMS)]
    )
    calls = [(fn, spec[0]) for fn, spec in FUNCTIONS.items()]

    def grow(kids):
        return (
            st.builds(BinOp, st.sampled_from("+-*/^"), kids, kids)
            | st.builds(Neg, kids)
            | st.sampled_from(calls).flatmap(
                lambda fa: st.builds(lambda *a: Call(fa[0], tuple(a)), *[kids] * fa[1])
            )
        )

    return st.recursive(leaves, grow, max_leaves=max_leaves)


@settings(max_examples=300, deadline=None)
@given(exprs())
def test_print_then_parse_gives_the_same_expression(e):
    assert parse_expr(to_text(e), PARAMS) == e


def test_cards():
    avg = parse_card("avg(a, b) = (a + b) / 2")
    assert avg.arity == 2 and avg.apply([F(3), F(4)]) == F(7, 2)
    assert parse_card(avg.definition()) == avg
    for card in LIBRARY.values():  # the built-ins' bodies round-trip (names and symbols aside)
        parsed = parse_card(card.definition())
        assert (parsed.name, parsed.params, parsed.body) == (card.name, card.params, card.body)
    assert parse_card("  f ( x ) =x×2÷4−1 ").apply([F(6)]) == 2
    assert parse_card("poison(x) = x - odd(x)").apply([F(9)]) == 8


def test_precedence():
    assert evaluate(parse_expr("-2^2"), []) == -4
    assert evaluate(parse_expr("2^-1"), []) == F(1, 2)
    assert evaluate(parse_expr("2^3^2"), []) == 512
    assert evaluate(parse_expr("10 - 4 - 3"), []) == 3
    assert evaluate(parse_expr("12 / 6 / 2"), []) == 1
    assert evaluate(parse_expr("2 + 3 * 4"), []) == 14


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("avg(a, b) = (a + b) /", 1, 22, "end of input"),
        ("avg(a, b) = (a + c) / 2", 1, 18, "unknown name 'c'"),
        ("f(a) = sqrt(a)", 1, 8, "unknown function 'sqrt'"),
        ("f(a) = min(a)", 1, 8, "min() takes 2 arguments"),
        ("f(a, a) = a", 1, 6, "repeated"),
        ("f(min) = 1", 1, 3, "function name"),
        ("f(a) = 12345678", 1, 8, "at most 1,000,000"),
        ("f(a, b, c, d, e) = a", 1, 1, "1 to 4 arguments"),
        ("f(a) = a $ 2", 1, 10, "unexpected character"),
        ("f(a) =\n  a +* 2", 2, 6, "unexpected"),
        ("f(a) = odd", 1, 8, "a function"),
        ("", 1, 1, "empty input"),
    ],
)
def test_errors_point_at_the_problem(text, line, column, words):
    with pytest.raises(ParseError) as info:
        parse_card(text, filename="cards.txt")
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert words in err.message
    rendered = err.render()
    assert rendered.startswith(f"cards.txt:{line}:{column}: ")
    caret_line = rendered.splitlines()[2]
    assert caret_line.index("^") == 2 + column - 1


def test_expected_tokens_are_readable():
    with pytest.raises(ParseError) as info:
        parse_card("f(a) = (a")
    assert '")"' in info.value.expected


def test_size_limits_are_clean_errors():
    with pytest.raises(ParseError, match=f"at most {MAX_EXPR_NODES}"):
        parse_card("f(a) = " + " + ".join(["a"] * MAX_EXPR_NODES))
    with pytest.raises(ParseError, match=f"at most {MAX_TEXT}"):
        parse_card("f(a) = " + "(" * 100_000 + "a" + ")" * 100_000)
    with pytest.raises(ParseError, match=f"at most {MAX_TEXT}"):
        parse_expr("1" * 20_000)
    nested = "f(a) = " + "(" * 2000 + "a" + ")" * 2000  # deep but short: parsed, no recursion
    assert parse_card(nested).body == Arg(0, "a")
    with pytest.raises(ParseError, match=f"at most {MAX_EXPR_NODES}"):
        parse_card("f(a) = " + "-" * 2000 + "a")
