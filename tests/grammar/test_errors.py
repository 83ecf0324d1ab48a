"""Parse errors: control characters are never echoed raw, and "expected ..." lists are exact.

The expected lists are checked by brute force: for a corpus of broken texts (terms and level
files of every game), every terminal of the grammar is tried at the error position (a sample
text of it substituted for the rest of the input); the terminals that the parser lexes and
accepts there must be exactly the ones the error lists.
"""

from __future__ import annotations

import random
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

from core import registry
from core.text import escape_controls
from grammar import envelope
from grammar.errors import ParseError, describe_terminals
from grammar.levels import format_for, load_pack, load_pack_file
from grammar.terms import _parser as term_parser
from grammar.terms import parse_term
from tests.grammar import toygame


def _cells(text: str) -> int:
    return sum(
        0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
        for ch in text
    )


def _check_rendering(err: ParseError) -> None:
    """No rendered line holds a control character, and the caret is under the column."""
    lines = err.render().split("\n")
    for line in lines:
        assert line.isprintable(), repr(line)
    if not err.line:
        return
    shown = err.source_line.expandtabs(1)
    if len(escape_controls(shown)) <= 72:
        assert lines[1] == "  " + escape_controls(shown)
    caret = lines[2].index("^") - 2
    # The text shown before the caret takes exactly as many columns as the caret's indent,
    # and the offending character (escaped) comes next (long lines are cut to a window).
    row = lines[1][2:]
    k = next(k for k in range(len(row) + 1) if _cells(row[:k]) >= caret)
    assert _cells(row[:k]) == caret
    assert row[k:].startswith(escape_controls(shown[err.column - 1 : err.column]))


def test_the_terminal_title_escape_is_shown_escaped():
    with pytest.raises(ParseError) as info:
        parse_term("a\x1b]0;pwned\x07(b)", filename="evil\x1b[2J.txt")
    err = info.value
    text = err.render()
    assert "\x1b" not in text and "\x07" not in text
    assert text.splitlines() == [
        "evil\\e[2J.txt:1:2: unexpected character '\\x1b'",
        "  a\\e]0;pwned\\x07(b)",
        "   ^",
        'expected "(" or the end of the input',
    ]
    _check_rendering(err)
    assert "\x1b" not in err.short() and "\x1b" not in str(err)


def test_the_caret_counts_escapes_and_wide_characters():
    with pytest.raises(ParseError) as info:
        parse_term("f(\x07, 語, x)")
    _check_rendering(info.value)
    assert info.value.render().splitlines()[1:3] == ["  f(\\x07, 語, x)", "    ^"]
    with pytest.raises(ParseError) as info:
        load_pack('title "語語\x1b" level "\U0001f600" { game termcraft fule 1 }')
    err = info.value
    _check_rendering(err)
    caret = err.render().splitlines()[2]
    assert caret.index("^") - 2 == _cells('title "語語\\e" level "\U0001f600" { game termcraft ')


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(list("f(a,b) \t\n\x1b\x07\x00\x85\u202e\u200b語é\x7f")),
        min_size=1,
        max_size=30,
    )
)
def test_any_bad_input_renders_printable_with_the_caret_in_place(text):
    for call in (
        lambda: parse_term(text, filename="in\x1bput"),
        lambda: load_pack('game termcraft level "a" { current ' + text + " }"),
    ):
        try:
            call()
        except ParseError as err:
            _check_rendering(err)


def test_messages_from_values_are_escaped_too(tmp_path):
    with pytest.raises(ParseError) as info:
        load_pack('level "a\\u0007" { game termcraft fuel 1 budget 0 current a target b }')
    assert "title must be printable" in info.value.message
    _check_rendering(info.value)
    path = tmp_path / "bad\x1b.levels"
    path.write_bytes(b'title "\x1b]0;x\x07"\ntitle "caf\xe9"\n')
    with pytest.raises(ParseError) as info:
        load_pack_file(path)
    assert info.value.render().isprintable() is False  # several lines ...
    _check_rendering(info.value)  # ... each of them printable


# --------------------------------------------------------------------------- expected lists

# A text that lexes as each terminal (by its name without namespace) where it is valid.
SAMPLES = {
    "$END": "",
    "LPAR": "(",
    "RPAR": ")",
    "COMMA": ",",
    "LBRACE": "{",
    "RBRACE": "}",
    "LSQB": "[",
    "RSQB": "]",
    "NAME": "abc",
    "KEY": "somekey",
    "GAME": "game",
    "LEVEL": "level",
    "GAME_ID": "termcraft",
    "WORD": "none",
    "STRING": '"s"',
    "INT": "12",
    "NEG_INT": "-3",
    "CELL": "5",
    "ROW": "x.3",
}
IGNORED = {"WS", "COMMENT"}


def _offset(text: str, err: ParseError) -> int:
    if err.message == "unexpected end of input":
        return len(text)
    lines = text.split("\n")
    return sum(len(line) + 1 for line in lines[: err.line - 1]) + err.column - 1


def _lexed_and_fed(parser, text: str, pos: int):
    """The type of the token the parser lexes at ``pos`` if it also accepts it, else None."""
    interactive = parser.parse_interactive(text)
    try:
        for token in interactive.lexer_thread.lex(interactive.parser_state):
            if token.start_pos >= pos:
                if token.start_pos != pos:
                    return None
                interactive.feed_token(token)
                return token.type
            interactive.feed_token(token)
        interactive.feed_eof()
        return "$END"
    except UnexpectedInput:
        return None


def _brute_force(parser, text: str, err: ParseError, names=None) -> None:
    pos = _offset(text, err)
    accepted = set()
    for name in [t.name for t in parser.terminals if t.name not in IGNORED] + ["$END"]:
        sample = SAMPLES[name.rsplit("__", 1)[-1]]
        if _lexed_and_fed(parser, text[:pos] + " " + sample, pos + 1) == name:
            accepted.add(name)
    assert accepted == set(err.terminals), (text, err.render())
    assert list(err.expected) == describe_terminals(accepted, parser, names), (text, err.render())


def _mutants(text: str, start: int, count: int, seed: int):
    """Texts made from ``text`` by deleting or inserting one character at or after ``start``."""
    rng = random.Random(seed)
    out = set()
    for i in range(start, len(text)):
        out.add(text[:i] + text[i + 1 :])
        for ch in '(){}[]",-1x;$#':
            out.add(text[:i] + ch + text[i:])
    return rng.sample(sorted(out), min(count, len(out)))


TERMS = ["f(a,g(b),c())", "var(X)", "pair ( apple ,\n green )", "t()"]


def test_expected_lists_of_term_errors_are_exact():
    parser = term_parser()
    cases = 0
    for base in TERMS:
        for text in _mutants(base, 0, 60, seed=len(base)) + ["a$", "f(a", "f(a b", "f(,", "(", ""]:
            if not text.strip():
                continue
            try:
                parse_term(text)
            except ParseError as err:
                _brute_force(parser, text, err)
                cases += 1
    assert cases >= 150


LEVELS = [
    (
        "termcraft",
        'game termcraft\nlevel "a" {\n fuel 1 budget 0 hint "h"\n current f(a, g(b))\n'
        " target t()\n}\n",
    ),
    (
        "2048",
        'game 2048\nlevel "b" {\n size 2 rule standard goal none seed 3\n'
        ' distribution "2:1"\n board [2 0] [0, 2]\n}\n',
    ),
    ("toyrow", 'game toyrow\nlevel "c" { row x.3 length 4 }\nlevel "d" { row 3x }\n'),
]


@pytest.mark.parametrize("game, base", LEVELS, ids=[game for game, _ in LEVELS])
def test_expected_lists_of_level_file_errors_are_exact(game, base):
    with registry.register(toygame.INFO):
        fmt = format_for(game)
        parser = envelope.parser_for(fmt)
        start = base.index("\n") + 1  # the game stays known: errors come from its parser
        cases = 0
        for text in _mutants(base, start, 150, seed=len(base)) + [base[:-3], base + "level"]:
            try:
                load_pack(text)
            except ParseError as err:
                if err.terminals:  # a syntax error, not a field or value complaint
                    _brute_force(parser, text, err, fmt.terminal_names)
                    cases += 1
        assert cases >= 40


def test_lalr_lookaheads_are_not_listed():
    """Where LALR state merging used to list tokens that are not valid."""
    for text, expected in [
        ("a$", ['"("', "the end of the input"]),
        ("f(a))", ["the end of the input"]),
        ("f(a b", ['"("', '")"', '","']),
    ]:
        with pytest.raises(ParseError) as info:
            parse_term(text)
        assert list(info.value.expected) == expected, text
    with pytest.raises(ParseError) as info:  # `f(a` then `}`: "}" closes no term here
        load_pack('game termcraft level "a" { current f(a }')
    assert list(info.value.expected) == ['"("', '")"', '","']
