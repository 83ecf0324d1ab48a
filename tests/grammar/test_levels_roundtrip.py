"""Printing then loading gives back an equal pack, for every level the constructors accept.

Each drawn level either has every field valid, or exactly one field drawn from the other
side of its bound (negative and huge numbers, names that are not identifiers, control
characters in titles, wrong board sizes, NaN weights...). The constructor must accept the
first kind, refuse the second with a LevelFieldError naming that field, and every level it
accepts must round-trip through a level file.
"""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from core.game2048.level import MAX_NUMBER, MAX_SEED, MAX_SIZE, PRESET, make_config
from core.game2048.level import Level as Level2048
from core.levelpack import MAX_TEXT, MAX_TITLE, LevelFieldError, LevelPack
from core.termcraft import Level
from core.termcraft.level import MAX_RESOURCE
from core.termcraft.terms import compound, const, var
from grammar.levels import dump_level, dump_pack, load_pack

# Any text (quotes, backslashes, newlines, control and non-BMP characters) and a small
# alphabet of characters that matter to the format.
texts = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=80)
tricky = st.text(alphabet='ab "\\\n\t\r;{}()[]#.@\x85\u2028\x00\x1b\x07é\U0001f600 ', max_size=30)
strings = texts | tricky
bad_strings = st.sampled_from(["a\ud800b", "x" * (MAX_TEXT + 1)])
good_titles = (
    st.text(alphabet='Az09 "\\;{}#()é\U0001f600\u00e9-', min_size=1, max_size=30)
    | st.text(
        alphabet=st.characters(exclude_categories=("Cs", "Cc", "Cf", "Co", "Cn", "Zl", "Zp", "Zs")),
        min_size=1,
        max_size=40,
    )
    | st.just("t" * MAX_TITLE)
).filter(str.strip)
bad_titles = st.sampled_from(
    [
        "",
        "   ",
        "a\nb",
        "a\x1b]0;x\x07",
        "\t",
        "t" * (MAX_TITLE + 1),
        "a\ud800",
        "nbsp\u00a0",
        "rtl\u202e",
    ]
)
resources = st.integers(0, 5) | st.integers(0, MAX_RESOURCE) | st.just(MAX_RESOURCE)
bad_resources = st.sampled_from([-1, MAX_RESOURCE + 1, 10**40, True, "3", 2.0])

GOOD_NAMES = ["a", "f", "x1", "007", "placeholder", "var", "VAR", "Var", "level", "game", "_"]
good_names = st.sampled_from(GOOD_NAMES)
# var(X) with a constant X is read as a variable: as a compound it cannot round-trip.
good_terms = st.recursive(
    good_names.map(const) | good_names.map(var),
    lambda kids: st.builds(compound, good_names, st.lists(kids, max_size=3)).filter(
        lambda t: not (t.name.lower() == "var" and len(t.args) == 1 and t.args[0].is_const)
    ),
    max_leaves=12,
)
bad_leaves = st.sampled_from(["a b", "", "é", "f(x)", "x\n"]).map(const) | st.sampled_from(
    ["var", "VAR"]
).map(lambda n: compound(n, [const("X")]))
bad_terms = st.builds(lambda t, bad: compound("f", [t, bad]), good_terms, bad_leaves) | bad_leaves


ENVELOPE_TEXTS = ("description", "hint", "author")
"""The free-text fields every level has."""


def _one_broken(draw, fields, title=None):
    """Draw ``{field: value}``: all valid, or (one time in four) one field invalid; the
    envelope's text fields (description, hint, author) are drawn last, after ``fields``.

    Args:
        draw: Hypothesis's draw.
        fields: ``{name: (valid strategy, invalid strategy)}``.
        title: when given, the title (valid) in place of the drawn one.

    Returns:
        The broken field's name (or None) and the values.
    """
    fields = {**fields, **dict.fromkeys(ENVELOPE_TEXTS, (strings, bad_strings))}
    broken = draw(st.sampled_from([None] * (3 * len(fields)) + list(fields)))
    values = {name: draw(bad if name == broken else good) for name, (good, bad) in fields.items()}
    if title is not None:
        values["title"] = title
        broken = None if broken == "title" else broken
    return broken, values


def _made(broken, make):
    """Build a level: it must be accepted when nothing is broken, refused naming the field."""
    try:
        level = make()
    except LevelFieldError as error:
        assert broken is not None, f"a valid level was refused: {error}"
        assert error.field == broken, (broken, str(error))
        return None
    assert broken is None, f"{broken} out of bounds was accepted"
    return level


@st.composite
def termcraft_levels(draw, title=None):
    broken, v = _one_broken(
        draw,
        {
            "title": (good_titles, bad_titles),
            "current": (good_terms, bad_terms),
            "target": (good_terms, bad_terms),
            "fuel": (resources, bad_resources),
            "budget": (resources, bad_resources),
            "par": (st.none() | resources, bad_resources),
        },
        title,
    )
    return _made(broken, lambda: Level(**v))


numbers = st.integers(1, 64) | st.integers(1, MAX_NUMBER) | st.just(MAX_NUMBER)
bad_numbers = st.sampled_from([0, -1, MAX_NUMBER + 1])
weights = (
    st.integers(0, 20)
    | st.integers(1, MAX_NUMBER)
    | st.floats(0, 10, exclude_min=True)
    | st.floats(0, allow_infinity=False, exclude_min=True)
    | st.just(5e-324)
)
distributions = st.lists(
    st.tuples(numbers, weights | st.just(0) | st.just(-0.0)), min_size=1, max_size=4
).map(lambda pairs: pairs + [(2, 1)])  # a positive total weight
bad_distributions = st.sampled_from(
    [[], [(2, -1)], [(2, 0)], [(2, math.inf)], [(2, math.nan)], [(2, MAX_NUMBER + 1)]]
) | st.builds(lambda n: [(n, 1)], bad_numbers)


@st.composite
def game2048_levels(draw, title=None):
    size = draw(st.integers(2, 6) | st.just(MAX_SIZE))
    broken, v = _one_broken(
        draw,
        {
            "title": (good_titles, bad_titles),
            "size": (st.just(size), st.sampled_from([1, 0, -1, MAX_SIZE + 1, "4"])),
            "rule": (st.sampled_from(["standard", "fibonacci", "threes"]), st.just("fib")),
            "seed": (
                st.integers(0, 10) | st.integers(0, MAX_SEED),
                st.sampled_from([-1, MAX_SEED + 1]),
            ),
            "tiles": (st.integers(0, 4), st.sampled_from([-1, size * size + 1])),
            "goal": (st.just(PRESET) | st.none() | numbers, bad_numbers),
            "distribution": (st.just(PRESET) | distributions, bad_distributions),
            "board": (
                st.none()
                | st.lists(
                    st.lists(
                        st.integers(0, 2048) | st.just(MAX_NUMBER), min_size=size, max_size=size
                    ),
                    min_size=size,
                    max_size=size,
                ),
                st.sampled_from(
                    [
                        [[0]],
                        [[0] * size] * (size + 1),
                        [[-1] * size] * size,
                        [[MAX_NUMBER + 1] * size] * size,
                    ]
                ),
            ),
        },
        title,
    )
    config_fields = ("size", "rule", "seed", "tiles", "goal", "distribution")

    def make():
        config = make_config(**{k: v[k] for k in config_fields})
        return Level2048(config=config, **{k: x for k, x in v.items() if k not in config_fields})

    return _made(broken, make)


@st.composite
def packs(draw, game, levels):
    pack_titles = draw(st.lists(good_titles, max_size=3, unique=True))
    made = [draw(levels(title=t)) for t in pack_titles]
    return LevelPack(
        title=draw(good_titles | st.just("")),
        author=draw(strings),
        description=draw(strings),
        levels=tuple(level for level in made if level is not None),
        game=draw(st.just(game) | st.just("")) if not any(made) else game,
    )


def _round_trip(pack: LevelPack) -> None:
    text = dump_pack(pack)
    assert load_pack(text, "roundtrip.levels") == pack
    # Printing is canonical: printing the loaded pack again gives the same text.
    assert dump_pack(load_pack(text)) == text


@settings(max_examples=100, deadline=None)
@given(packs("termcraft", termcraft_levels))
def test_every_termcraft_pack_the_constructors_accept_round_trips(pack):
    _round_trip(pack)


@settings(max_examples=100, deadline=None)
@given(packs("2048", game2048_levels))
def test_every_2048_pack_the_constructors_accept_round_trips(pack):
    _round_trip(pack)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow],
)
@given(termcraft_levels() | game2048_levels())
def test_every_single_level_round_trips(level):
    assume(level is not None)
    pack = LevelPack(
        title="", levels=(level,), game="termcraft" if isinstance(level, Level) else "2048"
    )
    assert load_pack(dump_pack(pack)).levels == (level,)


def test_constructors_refuse_what_a_file_could_not_hold():
    a = const("a")
    with pytest.raises(LevelFieldError) as info:
        Level("t", a, a, fuel=10**10, budget=0)  # could be saved, never loaded, before
    assert info.value.field == "fuel"
    for bad, field in [
        (lambda: Level("t", a, a, 0, 0, par=-1), "par"),
        (lambda: Level("t", compound("var", [a]), a, 0, 0), "current"),  # reads back as var(a)
        (lambda: Level("t", a, const("a b"), 0, 0), "target"),
        (lambda: Level("", a, a, 0, 0), "title"),
        (lambda: Level("a\nb", a, a, 0, 0), "title"),
        (lambda: Level("t", a, a, 0, 0, hint="\ud800"), "hint"),
        (lambda: Level2048("t", make_config(), board=((0, 0), (0, 0))), "board"),
        (lambda: Level2048("t", make_config(size=65)), "size"),
        (lambda: make_config(seed=2**32), "seed"),
        (lambda: make_config(tiles=17), "tiles"),
        (
            lambda: (
                make_config(goal=MAX_NUMBER + 1, distribution=[(2, 1)])
                and Level2048("t", make_config(goal=MAX_NUMBER + 1))
            ),
            "goal",
        ),
        (lambda: make_config(distribution=[(2, float("nan"))]), "distribution"),
        (lambda: LevelPack("p", levels=(Level("t", a, a, 0, 0),) * 2, game="termcraft"), "title"),
    ]:
        with pytest.raises(LevelFieldError) as info:
            bad()
        assert info.value.field == field, str(info.value)


def test_dump_is_readable_one_field_per_line():
    rule = compound("rewrite", [const("red"), const("blue")])
    level = Level(
        title='Say "hi"',
        current=compound("puzzle_state", [rule, compound("data", [const("red")])]),
        target=compound("puzzle_state", [rule, compound("data", [const("blue")])]),
        fuel=1,
        budget=0,
        par=1,
        description="two\nlines",
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


def test_2048_dump_writes_every_rule_field_and_the_board_as_a_grid():
    level = Level2048(
        "Corner",
        make_config(size=2, rule="threes", seed=9, goal=None, distribution=[(1, 2), (3, 0.5)]),
        board=((1, 0), (0, 2)),
        hint="Keep 3s together.",
    )
    assert dump_level(level) == (
        'level "Corner" {\n'
        "  game 2048\n"
        '  hint "Keep 3s together."\n'
        "  size 2\n"
        "  rule threes\n"
        "  seed 9\n"
        "  tiles 2\n"
        "  goal none\n"
        '  distribution "1:2,3:0.5"\n'
        "  board\n"
        "    [1 0]\n"
        "    [0 2]\n"
        "}\n"
    )
    assert dump_level(level, game="2048") == dump_level(level)
    with pytest.raises(ValueError):
        dump_level(level, game="termcraft")


def test_long_values_are_wrapped_and_still_round_trip():
    long_text = " ".join(f"word{i}" for i in range(60))
    args = [compound("data", [const(f"item_number_{i}")]) for i in range(8)]
    level = Level(
        title="Long",
        current=compound("puzzle_state", args),
        target=const("t"),
        fuel=0,
        budget=0,
        description=long_text,
    )
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
    text = (
        'level "deep" {\n  game termcraft\n  fuel 0\n  budget 0\n  current '
        + "f(" * depth
        + "a"
        + ")" * depth
        + "\n  target a\n}\n"
    )
    pack = load_pack(text)
    assert pack.levels[0].current is _deep(depth)
    assert pack.levels[0].current.height == depth + 1
    assert load_pack(dump_pack(pack)) == pack


def test_a_large_file_loads_or_fails_cleanly_in_bounded_time():
    one = (
        'level "L%d" {\n  game termcraft\n  fuel 3\n  budget 1\n  current puzzle_state('
        "rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),"
        "equiv(apple,red),data(pair(apple,green)),data(placeholder))\n  target done\n}\n"
    )
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
        assert set(err.expected) == {'"("', "a field name", '"game"', '"}"'}
    else:  # pragma: no cover
        raise AssertionError("a truncated file must not load")
    assert time.perf_counter() - started < 60  # generous: only catches runaway behaviour
