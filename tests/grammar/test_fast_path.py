"""The fast readers (grammar/fastterm.py, grammar/fastpath.py) give exactly what Lark gives.

Lark stays the definition: for every generated text, either the fast reader declines
(``Fallback``) or it returns the same records as the Lark path (the same tokens with the same
positions, the same terms) and Lark accepts the text too. Texts are printed packs and terms
with random blanks and comments between tokens, and random one-character mutations of them.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Token
from lark.exceptions import UnexpectedInput

from core.levelpack import LevelPack
from core.termcraft import Level
from core.termcraft.terms import Term, compound, const, to_str, var
from grammar import envelope, fastpath
from grammar.envelope import Parsed, ParsedBlock, ParsedField
from grammar.fastterm import Fallback, read_term
from grammar.levels import dump_pack, format_for
from grammar.terms import _parser as term_parser
from grammar.terms import parse_term
from tests.strategies import terms

TERMCRAFT = format_for("termcraft")


def _norm(value):
    """Records -> plain tuples, tokens with every position attribute, terms by identity."""
    if isinstance(value, Token):
        return (
            "token",
            value.type,
            str(value),
            value.start_pos,
            value.line,
            value.column,
            value.end_line,
            value.end_column,
            value.end_pos,
        )
    if isinstance(value, Term):
        return ("term", value.id)
    if isinstance(value, (list, tuple)):
        return tuple(_norm(v) for v in value)
    if isinstance(value, ParsedField):
        return ("field", _norm(value.key), _norm(value.value))
    if isinstance(value, ParsedBlock):
        return ("block", _norm(value.keyword), _norm(value.title), _norm(value.fields))
    if isinstance(value, Parsed):
        return ("value", value.form, _norm(value.data))
    raise AssertionError(type(value))


def _same_as_lark(text: str) -> bool:
    """Check one text; True when the fast reader took it."""
    try:
        fast = fastpath.read_items(text, TERMCRAFT)
    except Fallback:
        fast = None
    try:
        slow = envelope.parse_items(TERMCRAFT, text)
    except envelope.SyntaxFailure:
        assert fast is None, f"the fast reader accepted a text Lark refuses: {text!r}"
        return False
    if fast is not None:
        assert _norm(fast) == _norm(slow), text
    return fast is not None


BLANKS = st.sampled_from(
    [
        " ",
        "",
        "\n",
        "\t",
        '  ; a comment (with {braces} "quotes")\n',
        "\r\n",
        "\f",
        ";\n",
        " ;x",
        "\n\n  ",
    ]
)


def _respace(text: str, rnd: random.Random) -> str:
    """Insert random blanks and comments at token boundaries (outside strings)."""
    out, in_string, escaped = [], False, False
    for i, ch in enumerate(text):
        out.append(ch)
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"':
            in_string = True
            continue
        nxt = text[i + 1] if i + 1 < len(text) else ""
        word = ch.isalnum() or ch == "_"
        if not (word and (nxt.isalnum() or nxt == "_")) and rnd.random() < 0.3:
            out.append(rnd.choice([" ", "\n", "\t", " ; c\n", "\n;;\n ", "\r\n"]))
    return "".join(out)


@st.composite
def packs(draw):
    titles = draw(
        st.lists(
            st.text(alphabet='ab "\\é{};', min_size=1, max_size=8).filter(str.strip),
            max_size=3,
            unique=True,
        )
    )
    levels = []
    for title in titles:
        level = Level(
            title,
            draw(terms(max_leaves=10)),
            draw(terms(max_leaves=10)),
            draw(st.integers(0, 10**9)),
            draw(st.integers(0, 99)),
            par=draw(st.none() | st.integers(0, 9)),
            hint=draw(st.text(max_size=20)),
        )
        levels.append(level)
    header_game = draw(st.booleans())
    text = dump_pack(
        LevelPack(
            title=draw(st.text(alphabet="abc", max_size=5)),
            author="me",
            levels=tuple(levels),
            game="termcraft",
        )
    )
    if header_game:
        text = "game termcraft\n" + text.replace("  game termcraft\n", "")
    return text


@settings(max_examples=150, deadline=None)
@given(packs(), st.randoms(use_true_random=False))
@pytest.mark.slow
def test_fast_level_reader_equals_lark_on_printed_and_respaced_files(text, rnd):
    for variant in (text, _respace(text, rnd)):
        if "level" in variant:
            assert _same_as_lark(variant), variant  # well-formed: the fast reader takes it


@settings(max_examples=150, deadline=None)
@given(packs(), st.randoms(use_true_random=False))
def test_fast_level_reader_equals_lark_or_declines_on_broken_files(text, rnd):
    for _ in range(5):
        i = rnd.randrange(len(text) + 1)
        mutant = rnd.choice(
            [
                text[:i] + text[i + 1 :],
                text[:i] + rnd.choice('(){}",-;\\\n x1#\v\u00a0') + text[i:],
                text[:i]
                + rnd.choice(["level", "game", "-3", "007", '""', "f(", ")", "game 2048"])
                + text[i:],
            ]
        )
        _same_as_lark(mutant)


def test_fast_level_reader_handles_every_envelope_form():
    text = (
        '; c\ntitle "a" "b" author"x"description "d"\ngame termcraft\n'
        'level "L" {game termcraft fuel 007 budget 0 par 3 hint "h\\n" "i"\n'
        " current f(a ; c\n , VAR(X), t( ) ,var(f(x)))target b;end\n}\n"
        'level"M"{fuel 1 budget 2 current 3x target g() level 4}'
    )
    assert _same_as_lark(text)
    for broken in [
        'game termcraft level "a" { fuel -3 budget 0 current a target b }',
        "title 12 author x game termcraft",
        'game termcraft level "a" { current f(a,) }',
        'game termcraft level "a" { current f(a)) }',
        'game termcraft level "a" { current a, }',
        'game termcraft level "a" { current \x0ba }',
        'game termcraft level "a" "b" { }',
        'game termcraft level "a" { 3x 1 }',
        "game termcraft title 3x",
    ]:
        _same_as_lark(broken)


def test_formats_without_a_fast_reader_always_use_lark():
    with pytest.raises(Fallback):
        fastpath.read_items('level "a" { game 2048 size 4 }', format_for("2048"))


# --------------------------------------------------------------------------- terms


def _term_same_as_lark(text: str) -> None:
    try:
        term, end = read_term(text, 0)
        fast = term if text[end:].strip(" \t\f\r\n") == "" else None
    except Fallback:
        fast = None
    try:
        slow = term_parser().parse(text)
    except UnexpectedInput:
        assert fast is None, text
        return
    assert fast is None or fast is slow, text
    assert parse_term(text) is slow


@settings(max_examples=300, deadline=None)
@given(terms(), st.randoms(use_true_random=False))
def test_fast_term_reader_equals_lark_on_printed_terms(term, rnd):
    text = to_str(term)
    assert read_term(text, 0) == (term, len(text))
    spaced = "".join(
        ch + (rnd.choice([" ", "\n", "\t", "\r\n", ""]) if not ch.isalnum() else "") for ch in text
    )
    _term_same_as_lark(spaced)
    assert parse_term(spaced) is term


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.sampled_from(list("fa(),  \t\n;_0\x0b") + ["var", "VAR", "(X)", "()"]), max_size=15
    ).map("".join)
)
def test_fast_term_reader_equals_lark_or_declines_on_any_text(text):
    if text.strip():
        _term_same_as_lark(text)


def test_deep_terms_read_fast_and_the_same():
    depth = 100_000
    text = "f(" * depth + "var(X)" + ")" * depth
    t, end = read_term(text, 0)
    assert end == len(text) and t.height == depth + 1
    expected = var("X")
    for _ in range(depth):
        expected = compound("f", [expected])
    assert t is expected
    assert parse_term(text + " ") is expected
    assert read_term("a  b", 0) == (const("a"), 1)
