"""core.termcraft.links, the position helpers the engine walks by: paths from links, the pruned pre-order
walk to marked subterms, and result texts spliced instead of rebuilt (against naive versions)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.termcraft.links import (
    TextSplicer,
    collect_marked_positions,
    distinct_subterms,
    marked_below,
    marked_positions,
    path_of,
)
from core.termcraft.terms import compound, const, replace_at, to_str
from tests.strategies import terms


def _positions(t, path=()):
    yield path, t
    for i, a in enumerate(t.args):
        yield from _positions(a, path + (i,))


@settings(max_examples=300, deadline=None)
@given(term=terms(max_leaves=20), wanted=st.sampled_from(["a", "f", "pair", "X", "_"]))
def test_marked_positions_equal_a_full_walk(term, wanted):
    order = distinct_subterms(term)
    assert len({t.id for t in order}) == len(order) == len({t.id for _, t in _positions(term)})
    assert all(a.id < t.id for t in order for a in t.args)  # children first
    marks = marked_below(order, lambda t: t.name == wanted, tag="hit")
    got = [(path, t) for path, t, tag in marked_positions(term, marks) if tag == "hit"]
    assert got == [(path, t) for path, t in _positions(term) if t.name == wanted]
    paths, tags = collect_marked_positions(term, marks)
    assert list(zip(paths, tags)) == [(path, tag) for path, _, tag in marked_positions(term, marks)]


def test_walk_of_a_deep_term_is_linear_and_paths_are_right():
    deep = const("a")
    for _ in range(100_000):
        deep = compound("s", (deep,))
    term = compound("root", (const("b"), deep))
    marks = marked_below(distinct_subterms(term), lambda t: t.name == "a")
    ((path, t, _),) = list(marked_positions(term, marks))
    assert t is const("a") and path == (1,) + (0,) * 100_000
    assert collect_marked_positions(term, marks) == ([path], [True])
    assert path_of(None) == () and path_of(((None, 1), 0)) == (1, 0)


@settings(max_examples=300, deadline=None)
@given(term=terms(max_leaves=20), new=terms(max_leaves=4), pick=st.integers(0, 10_000))
def test_spliced_text_equals_the_rebuilt_term(term, new, pick):
    spots = [path for path, _ in _positions(term)]
    path = spots[pick % len(spots)]
    splicer = TextSplicer(term)
    assert splicer.replaced(path, to_str(new)) == to_str(replace_at(term, path, new))
    assert splicer.length(term) == len(to_str(term))


def test_splicing_in_a_wide_term():
    wide = compound("data", tuple(const(f"x{i}") for i in range(5_000)))
    splicer = TextSplicer(wide)
    for i in (0, 1, 2_500, 4_999):
        assert splicer.replaced((i,), "y") == to_str(replace_at(wide, (i,), const("y")))
