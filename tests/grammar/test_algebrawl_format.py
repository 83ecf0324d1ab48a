"""Algebrawl level files: numbers, targets, built-in and custom cards; round trips and errors
with the caret on the culprit, inside card definitions too."""

from __future__ import annotations

import functools
from fractions import Fraction as F

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from core.algebrawl import ADD, DEFAULT_CARDS, DIV, LIBRARY, MUL, NEG, SQUARE, SUB, Card, Puzzle
from core.algebrawl.expr import FUNCTIONS, Arg, BinOp, Call, Neg, Num
from core.algebrawl.level import Level
from core.algebrawl.values import MAX_INPUT
from core.levelpack import LevelPack
from grammar.algebrawl import format_cards, parse_cards
from grammar.algebrawl_expr import parse_card
from grammar.errors import ParseError
from grammar.levels import dump_level, dump_pack, load_pack

PACK = """title "Workshop"
game algebrawl

level "Everything" {
  description "All the fields."
  hint "Average."
  author "me"
  numbers [3, 5 -2 7/2]        ; commas and/or spaces; negatives and fractions
  targets [4 1/2]
  cards [+ − × ÷ * / - square neg avg(a, b) commutative = (a + b) / 2, avg,
         oplus(x, y) symbol "⊕" = x * y + x + y]
  use_all no
  par 9
}

level "Bare" {
  numbers 24
  targets 24
}
"""


def test_a_hand_written_pack_loads_with_exact_values() -> None:
    pack = load_pack(PACK, "w.levels")
    everything, bare = pack.levels
    avg = parse_card("avg(a, b) = (a + b) / 2")
    avg = Card(avg.name, avg.params, avg.body, "", True)
    oplus = parse_card("oplus(x, y) = x * y + x + y")
    oplus = Card(oplus.name, oplus.params, oplus.body, "⊕", False)
    assert everything == Level(
        "Everything",
        Puzzle(
            (F(3), F(5), F(-2), F(7, 2)),
            (F(4), F(1, 2)),
            (ADD, SUB, MUL, DIV, MUL, DIV, SUB, SQUARE, NEG, avg, avg, oplus),
        ),
        par=9,
        description="All the fields.",
        hint="Average.",
        author="me",
    )
    assert bare == Level("Bare", Puzzle((F(24),), (F(24),), DEFAULT_CARDS))
    assert load_pack(dump_pack(pack)) == pack


def test_the_printer_writes_symbols_definitions_once_and_flags() -> None:
    pack = load_pack(PACK)
    text = dump_level(pack.levels[0])
    assert "numbers [3 5 -2 7/2]" in text and "targets [4 1/2]" in text
    assert "avg(a, b) commutative = (a + b) / 2, avg" in text
    assert 'oplus(x, y) symbol "⊕" = x * y + x + y' in text
    assert "use_all" not in text and "integer_only" not in text  # defaults are left out
    assert text.count("avg(") == 1
    flags = Level("f", Puzzle.of([1, 2], [3], integer_only=True, use_all=True))
    text = dump_level(flags)
    assert "integer_only yes" in text and "use_all yes" in text and "cards" not in text


def test_a_custom_card_may_take_a_built_in_name_when_the_built_in_is_not_dealt() -> None:
    level = load_pack(
        'game algebrawl\nlevel "x" { numbers [1 2] targets 3 cards [add(a, b) = a * b, add, -] }'
    ).levels[0]
    custom = level.puzzle.cards[0]
    assert custom.name == "add" and custom != ADD and level.puzzle.cards[1] == custom
    assert level.puzzle.cards[2] == SUB
    assert (
        load_pack(dump_pack(LevelPack("p", levels=(level,), game="algebrawl"))).levels[0] == level
    )


def _level(fields: str) -> str:
    """An Algebrawl level whose extra fields are on line 5."""
    return 'game algebrawl\nlevel "L" {\n  numbers [1 2 3]\n  targets 6\n' + fields + "\n}\n"


@pytest.mark.parametrize(
    "fields, column, message_part",
    [
        ("  cards [+ avgg]", 12, "unknown card 'avgg'"),
        ("  cards [+ sqare]", 12, "did you mean square?"),
        ("  cards [avg(a, b) = (a + c) / 2]", 27, "unknown name 'c'; the arguments are a, b"),
        ("  cards [f(a) = foo(a)]", 17, "unknown function 'foo'"),
        ("  cards [f(a) = max(a)]", 17, "max() takes 2 arguments, not 1"),
        ("  cards [f(a, a) = a]", 15, "parameter 'a' is repeated"),
        ("  cards [f(min) = 1]", 12, "'min' is a function name"),
        ("  cards [f(a) = a, f(a) = a + 1]", 20, "card f is already defined in this list"),
        ("  cards [add(a, b) = a * b, +]", 29, "two different cards are named add"),
        ("  cards [+, add(a, b) = a * b]", 13, "two different cards are named add"),
        ("  cards [f(a) = a ^ ]", 21, "unexpected ']'"),
        ("  cards [f(a) = a + 1 -]", 24, "unexpected ']'"),
        ("  cards [f(a) = a + 1 +]", 24, "unexpected ']'"),
        ("  cards [f(a) = a  g(b) = b]", 20, "unexpected 'g'"),
        ('  cards [f(a) symbol "toolong" = a]', 10, "an infix symbol has at most 3 characters"),
        ('  cards [f(a, b) symbol "\\q" = a]', 25, "invalid escape"),
        ("  cards [f(a) = 1234567]", 17, "numbers in a card are at most 1,000,000"),
        ("  cards [" + "+ " * 25 + "]", 10 + 2 * 24, "at most 24 cards"),
        ("  cards [f(a, b, c, d, e) = a]", 10, "a card takes 1 to 4 arguments"),
        ("  cards 3", 9, "cards must be a list of cards such as [+ - * /], not the integer 3"),
        ("  integer_only maybe", 16, "unexpected 'maybe'"),
        ("  integer_only [1]", 16, "integer_only must be yes or no, not a list of numbers"),
        ("  use_all [+]", 11, "use_all must be yes or no, not a list of cards"),
        ("  par 0", 7, "par must be a whole number from 1 to 99, not 0"),
        ("  par [3]", 7, "par must be a non-negative integer"),
    ],
)
def test_bad_fields_give_exact_positions(fields: str, column: int, message_part: str) -> None:
    with pytest.raises(ParseError) as error:
        load_pack(_level(fields), "bad.levels")
    err = error.value
    assert (err.filename, err.line, err.column) == ("bad.levels", 5, column), err.render()
    assert message_part in err.message, err.render()
    assert "^" in err.render().splitlines()[-1] or err.expected


@pytest.mark.parametrize(
    "numbers, targets, line, column, message_part",
    [
        ("[1 x 3]", "6", 3, 14, "unexpected 'x'"),
        ("[1 2/0]", "6", 3, 14, "cannot have the denominator 0"),
        ("[1 10000001]", "6", 3, 14, "out of range"),
        ("[1 1/2000000]", "6", 3, 14, "out of range"),
        ("[1 2 3]", "[]", 4, 11, "a puzzle has 1 to 8 targets, not 0"),
        ("[]", "6", 3, 11, "a puzzle has 1 to 12 numbers, not 0"),
        ("[1 2 3 4 5 6 7 8 9 10 11 12 13]", "6", 3, 11, "1 to 12 numbers, not 13"),
        ("[1 2]", "[1 2 3]", 4, 11, "3 targets need at least as many numbers"),
        ("[1 2]", "-2000000", 4, 11, "out of range"),
        ("[1 2]", '"6"', 4, 11, "targets must be a list of numbers"),
        (
            "[1 2]",
            "[+]",
            4,
            11,
            "targets must be a list of numbers such as [3 5 7/2], not a list of cards",
        ),
    ],
)
def test_bad_numbers_give_exact_positions(numbers, targets, line, column, message_part) -> None:
    text = f'game algebrawl\nlevel "L" {{\n  numbers {numbers}\n  targets {targets}\n}}\n'
    with pytest.raises(ParseError) as error:
        load_pack(text, "n.levels")
    err = error.value
    assert (err.line, err.column) == (line, column), err.render()
    assert message_part in err.message, err.render()


def test_integer_only_levels_refuse_fractions_at_the_field() -> None:
    with pytest.raises(ParseError) as error:
        load_pack(_level("  integer_only yes").replace("[1 2 3]", "[1 5/2 3]"))
    assert (error.value.line, error.value.column) == (3, 11)
    assert "whole numbers" in error.value.message


def test_missing_fields_are_named() -> None:
    with pytest.raises(ParseError) as error:
        load_pack('game algebrawl\nlevel "L" {\n  numbers [1]\n}\n')
    assert "missing required field targets" in error.value.message


# --------------------------------------------------------------------------- round trips


NAMES = st.sampled_from(
    ["avg", "f", "g_2", "add", "commutative", "symbol", "yes", "no", "min", "Twice", "x" * 24]
)


@functools.cache
def bodies(arity: int):
    """Card bodies over ``arity`` parameters (built once per arity: a recursive strategy made
    afresh for every example cost most of the round-trip test's time)."""
    params = [Arg(i, p) for i, p in enumerate("abcd"[:arity])]
    leaves = st.builds(Num, st.integers(0, 1000)) | st.sampled_from(params)
    one_arg = [fn for fn, spec in FUNCTIONS.items() if spec[0] == 1]
    two_args = [fn for fn, spec in FUNCTIONS.items() if spec[0] == 2]

    def grow(kids):
        return (
            st.builds(BinOp, st.sampled_from("+-*/^"), kids, kids)
            | st.builds(Neg, kids)
            | st.builds(lambda f, x: Call(f, (x,)), st.sampled_from(one_arg), kids)
            | st.builds(lambda f, x, y: Call(f, (x, y)), st.sampled_from(two_args), kids, kids)
        )

    return st.recursive(leaves, grow, max_leaves=8)


@st.composite
def custom_cards(draw):
    arity = draw(st.integers(1, 4))
    symbol = (
        draw(
            st.text(
                st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=3
            )
            | st.just("")
        )
        if arity == 2
        else ""
    )
    assume(symbol.isprintable())
    return Card(
        draw(NAMES), tuple("abcd"[:arity]), draw(bodies(arity)), symbol, draw(st.booleans())
    )


values = st.fractions(min_value=-MAX_INPUT, max_value=MAX_INPUT, max_denominator=MAX_INPUT)


@st.composite
def levels(draw):
    integer_only = draw(st.booleans())
    number = st.integers(-MAX_INPUT, MAX_INPUT).map(F) if integer_only else values
    numbers = draw(st.lists(number, min_size=1, max_size=12))
    targets = draw(st.lists(number, min_size=1, max_size=min(8, len(numbers))))
    pool = st.sampled_from(list(LIBRARY.values())) | custom_cards()
    cards = draw(st.lists(pool, max_size=24))
    # Copies of custom cards: a second copy is written by name.
    cards += draw(st.lists(st.sampled_from(cards), max_size=3)) if cards else []
    try:
        puzzle = Puzzle(
            tuple(numbers),
            tuple(targets),
            tuple(cards[:24]),
            integer_only=integer_only,
            use_all=draw(st.booleans()),
        )
    except ValueError:
        assume(False)
    texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
    title = draw(
        st.text(
            st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=30
        )
    )
    assume(title.strip() and title.isprintable())
    return Level(
        title, puzzle, draw(st.none() | st.integers(1, 99)), draw(texts), draw(texts), draw(texts)
    )


@settings(max_examples=150, deadline=None)
@given(levels())
@pytest.mark.slow
def test_every_level_the_constructor_accepts_round_trips(level: Level) -> None:
    pack = LevelPack("p", levels=(level,), game="algebrawl")
    assert load_pack(dump_pack(pack)) == pack


def test_bundled_packs_round_trip_and_print_the_same() -> None:
    from grammar.levels import bundled_packs

    for _, pack in bundled_packs("algebrawl"):
        text = dump_pack(pack)
        assert load_pack(text) == pack
        assert dump_pack(load_pack(text)) == text


# --------------------------------------------------------------------------- --cards


def test_parse_cards_reads_a_list_without_brackets() -> None:
    assert parse_cards("+,-,*,/") == (ADD, SUB, MUL, DIV)
    assert parse_cards("+ - × ÷") == (ADD, SUB, MUL, DIV)
    avg = parse_cards("avg(a, b) = (a + b) / 2, avg")
    assert len(avg) == 2 and avg[0] == avg[1] and avg[0].name == "avg"
    cards = (ADD, avg[0], avg[0], SQUARE)
    assert parse_cards(format_cards(cards)[1:-1]) == cards


@pytest.mark.parametrize(
    "text, column, message_part",
    [
        ("+ avgg", 3, "unknown card 'avgg'"),
        ("avg(a, b) = (a + c) / 2", 18, "unknown name 'c'"),
        ("+ +,, -", 5, "unexpected ','"),
        ("3 4", 1, "expected cards such as + - * /, not numbers"),
        ("", 1, "no cards"),
        ("f(a) = ", 8, "unexpected end of input"),
    ],
)
def test_parse_cards_errors_point_into_the_text(text: str, column: int, message_part: str) -> None:
    with pytest.raises(ParseError) as error:
        parse_cards(text, filename="<--cards>")
    err = error.value
    assert err.line == 1 and err.column == column, err.render()
    assert message_part in err.message
    assert '"]"' not in err.expected


# --------------------------------------------------------------------------- the editor's fields


def test_cards_text_reads_back_for_every_bundled_level() -> None:
    from grammar.algebrawl import cards_text
    from grammar.levels import bundled_packs

    for _, pack in bundled_packs("algebrawl"):
        for level in pack.levels:
            cards = level.puzzle.cards
            assert parse_cards(cards_text(cards)) == cards, level.title
    assert cards_text(DEFAULT_CARDS) == "+ - * /"


def test_parse_numbers_reads_what_a_level_file_reads() -> None:
    from grammar.algebrawl import parse_numbers

    assert parse_numbers("3 5, 7/2 -1") == (F(3), F(5), F(7, 2), F(-1))
    assert parse_numbers("  ") == ()
    level = load_pack('title "p"\ngame algebrawl\nlevel "l" { numbers [3 5, 7/2 -1] targets [1] }')
    assert level.levels[0].puzzle.numbers == parse_numbers("3 5, 7/2 -1")


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("3 x", 3, "unexpected 'x'"),
        ("  x 3", 3, "unexpected 'x'"),
        ("+ -", 1, "unexpected '+'"),
        ("3 5/0", 3, "5/0: a fraction cannot have the denominator 0"),
        ("3 99999999", 3, "99999999 is out of range"),
    ],
)
def test_parse_numbers_errors_have_a_caret(text: str, column: int, message: str) -> None:
    from grammar.algebrawl import parse_numbers

    with pytest.raises(ParseError) as caught:
        parse_numbers(text, filename="numbers")
    error = caught.value
    assert (error.line, error.column) == (1, column)
    assert error.message.startswith(message)
    shown = error.render().splitlines()
    assert shown[0].startswith(f"numbers:1:{column}: ")
    assert shown[2].index("^") - 2 == column - 1  # under the offending character
