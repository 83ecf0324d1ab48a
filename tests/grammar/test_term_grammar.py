"""The term syntax of seed 000 §3.2 and its error messages."""

from __future__ import annotations

import pytest
from hypothesis import given

from core.termcraft.terms import VAR, compound, const, to_str, var
from grammar.errors import ParseError
from grammar.terms import parse_term, strip_whitespace
from tests.strategies import terms


@pytest.mark.parametrize(
    "text, expected",
    [
        ("apple", const("apple")),
        ("var(X)", var("X")),
        ("VAR(X)", var("X")),  # the keyword is case-insensitive
        ("Var(x1)", var("x1")),
        ("tuple()", compound("tuple", [])),
        ("pair(apple,green)", compound("pair", [const("apple"), const("green")])),
        ("rev_pair(var(Y),var(X))", compound("rev_pair", [var("Y"), var("X")])),
        (
            "f(g(a,b),h(c))",
            compound("f", [compound("g", [const("a"), const("b")]), compound("h", [const("c")])]),
        ),
        ("123", const("123")),
    ],
)
def test_seed_examples_parse(text, expected):
    assert parse_term(text) is expected
    assert to_str(expected) == text.replace("VAR(", "var(").replace("Var(", "var(")


def test_var_of_a_compound_is_a_compound_named_var():
    t = parse_term("var(f(x))")
    assert t.kind != VAR and t.name == "var" and t.args == (compound("f", [const("x")]),)
    t = parse_term("var(a,b)")
    assert t.name == "var" and len(t.args) == 2
    assert parse_term("var()") is compound("var", [])
    assert parse_term("var") is const("var")


def test_whitespace_between_tokens_is_allowed():
    assert parse_term("  pair ( apple ,\n\t green )  ") is parse_term("pair(apple,green)")
    assert strip_whitespace("pair(a, \n b)") == "pair(a,b)"


@given(terms())
def test_print_parse_round_trip(t):
    assert parse_term(to_str(t)) is t


@pytest.mark.parametrize(
    "text, line, column, expected_part",
    [
        ("f(a", 1, 4, '")"'),
        ("f(a,)", 1, 5, "an identifier"),
        ("a b", 1, 3, '"("'),
        ("f(-)", 1, 3, "an identifier"),
        ("café", 1, 4, '"("'),
        ("pair(a,\n  b c)", 2, 5, '","'),
        ("f(a))", 1, 5, "the end of the input"),
    ],
)
def test_errors_name_line_column_and_expected(text, line, column, expected_part):
    with pytest.raises(ParseError) as info:
        parse_term(text)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert any(expected_part in e for e in err.expected)
    rendered = err.render().splitlines()
    assert rendered[0].startswith(f"<input>:{line}:{column}: ")
    # the caret sits under the offending column of the shown line
    assert rendered[2].index("^") - 2 == column - 1
    assert rendered[1][2:] == text.splitlines()[line - 1]


def test_empty_input_is_an_error():
    with pytest.raises(ParseError, match="empty"):
        parse_term("   ")


def test_error_on_a_huge_line_shows_a_window():
    # 400,000 characters on one line: 4,000 times what the window shows (a 2 MB line took
    # five times as long to reach the same error, for the same assertions).
    text = "f(" + "a," * 200_000 + ")"
    with pytest.raises(ParseError) as info:
        parse_term(text, filename="big.term")
    lines = info.value.render().splitlines()
    assert lines[0].startswith("big.term:1:")
    assert all(len(line) < 100 for line in lines)
    assert lines[2].strip() == "^"


def test_deep_term_parses_and_prints():
    depth = 100_000
    text = "f(" * depth + "var(X)" + ")" * depth
    t = parse_term(text)
    assert t.height == depth + 1
    assert to_str(t) == text
    assert parse_term(text) is t


def test_a_stream_of_terms_goes_on_after_a_bad_line():
    from grammar.terms import parse_terms

    out = list(parse_terms(["f(a)\n", "   \n", "g(", "", "var(X)\r\n"], filename="in.txt"))
    assert [number for number, _ in out] == [1, 3, 5]
    assert out[0][1] is compound("f", [const("a")]) and out[2][1] is var("X")
    error = out[1][1]
    assert isinstance(error, ParseError) and error.line == 3 and error.filename == "in.txt"
    assert error.render().startswith("in.txt:3:3: unexpected end of input")
