"""Printing a pack and loading it back gives an equal pack; deep and large inputs."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st

from core.levelpack import LevelPack
from core.termcraft import Level
from core.terms import compound, const
from grammar.levels import MAX_INT, dump_level, dump_pack, load_pack

from tests.strategies import terms

# Any text (quotes, backslashes, newlines, control and non-BMP characters); no surrogates,
# which cannot be encoded in a UTF-8 file.
texts = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=120)
tricky = st.text(alphabet='ab "\\\n\t\r;{}()#.@\x85\u2028\x00é\U0001F600 ', max_size=40)
strings = texts | tricky
ints = st.integers(0, 5) | st.integers(0, MAX_INT)


@st.composite
def levels(draw, title):
    return Level(
        title=title,
        current=draw(terms(max_leaves=20)),
        target=draw(terms(max_leaves=20)),
        fuel=draw(ints),
        budget=draw(ints),
        par=draw(st.none() | ints),
        description=draw(strings),
        hint=draw(strings),
        author=draw(strings),
    )


@st.composite
def packs(draw):
    titles = draw(st.lists(strings, max_size=4, unique=True))
    return LevelPack(
        title=draw(strings),
        author=draw(strings),
        description=draw(strings),
        levels=tuple(draw(levels(t)) for t in titles),
        game="termcraft",
    )


@settings(max_examples=150, deadline=None)
@given(packs())
def test_dump_then_load_gives_an_equal_pack(pack):
    text = dump_pack(pack)
    assert load_pack(text, "roundtrip.levels") == pack
    # Printing is canonical: printing the loaded pack again gives the same text.
    assert dump_pack(load_pack(text)) == text


def test_dump_is_readable_one_field_per_line():
    rule = compound("rewrite", [const("red"), const("blue")])
    level = Level(
        title='Say "hi"',
        current=compound("puzzle_state", [rule, compound("data", [const("red")])]),
        target=compound("puzzle_state", [rule, compound("data", [const("blue")])]),
        fuel=1, budget=0, par=1, description="two\nlines",
    )
    pack = LevelPack(title="P", author="me", levels=(level,), game="termcraft")
    assert dump_pack(pack) == (
        'title "P"\n'
        'author "me"\n'
        "\n"
        'level "Say \\"hi\\"" {\n'
        "  game termcraft\n"
        '  description "two\\nlines"\n'
        "  fuel 1\n"
        "  budget 0\n"
        "  par 1\n"
        "  current puzzle_state(rewrite(red,blue),data(red))\n"
        "  target puzzle_state(rewrite(red,blue),data(blue))\n"
        "}\n"
    )


def test_long_values_are_wrapped_and_still_round_trip():
    long_text = " ".join(f"word{i}" for i in range(60))
    args = [compound("data", [const(f"item_number_{i}")]) for i in range(8)]
    level = Level(title="Long", current=compound("puzzle_state", args), target=const("t"),
                  fuel=0, budget=0, description=long_text)
    pack = LevelPack(title="P", levels=(level,), game="termcraft")
    text = dump_level(level)
    assert max(len(line) for line in text.splitlines()) <= 84
    assert "  current puzzle_state(\n    data(item_number_0),\n" in text
    assert load_pack(dump_pack(pack)) == pack


def _deep(depth: int):
    t = const("a")
    for _ in range(depth):
        t = compound("f", [t])
    return t


def test_a_term_100000_deep_in_a_level_file_loads_and_round_trips():
    depth = 100_000
    text = ('level "deep" {\n  game termcraft\n  fuel 0\n  budget 0\n  current '
            + "f(" * depth + "a" + ")" * depth + "\n  target a\n}\n")
    pack = load_pack(text)
    assert pack.levels[0].current is _deep(depth)
    assert pack.levels[0].current.height == depth + 1
    assert load_pack(dump_pack(pack)) == pack


def test_a_large_file_loads_or_fails_cleanly_in_bounded_time():
    one = ('level "L%d" {\n  game termcraft\n  fuel 3\n  budget 1\n  current puzzle_state('
           "rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),"
           "equiv(apple,red),data(pair(apple,green)),data(placeholder))\n  target done\n}\n")
    text = "".join(one % i for i in range(4600))  # about 1 MB
    assert len(text) > 1_000_000
    started = time.perf_counter()
    pack = load_pack(text)
    assert len(pack.levels) == 4600 and pack.levels[-1].title == "L4599"
    # The same file cut short: a clean error at the very end, not a crash.
    try:
        load_pack(text[:-3])
    except ValueError as err:
        assert err.line == text[:-3].count("\n") + 1 and "unexpected end of input" in err.message
    else:  # pragma: no cover
        raise AssertionError("a truncated file must not load")
    assert time.perf_counter() - started < 60  # generous: only catches runaway behaviour
