"""The three forms of the rewrite actions agree: counted, lazy and materialised.

``count_rewrite_actions`` must equal the number of actions (and the brute-force oracle's),
``iter_rewrite_actions`` must give exactly ``rewrite_actions`` in the same order whichever
way it finds the sites (one shared walk, or one walk per rule as for big terms), ``start``
must skip exactly, and the lazy form must stay lazy where listing is impossible.
"""

from __future__ import annotations

import time
from itertools import islice

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.search import Interrupted, Watch
from core.termcraft import (
    State,
    analyze,
    apply,
    count_rewrite_actions,
    has_rewrite_action,
    is_available,
    iter_rewrite_actions,
    nth_rewrite_action,
    rewrite_actions,
)
from core.termcraft.actions import RewriteMoves, moves_of
from core.termcraft.terms import compound, const, to_str, var
from grammar.levels import bundled_packs
from grammar.terms import parse_term as p
from tests.core.test_termcraft_engine import brute_force_actions, levels

NOWHERE = const("zzz")  # a target no test state reaches


def _check_forms(state: State) -> None:
    """Every form agrees with the materialised list, in count, content and order."""
    eager = list(rewrite_actions(state))
    assert count_rewrite_actions(state) == len(eager)
    assert list(iter_rewrite_actions(state)) == eager
    per_rule = RewriteMoves(state.term, analyze(state.term)).iterate(0, shared_walk_max=0)
    assert (list(per_rule) if state.fuel else []) == eager
    assert has_rewrite_action(state) == bool(eager)
    for start in {0, 1, len(eager) // 2, max(len(eager) - 1, 0), len(eager), len(eager) + 3}:
        assert list(iter_rewrite_actions(state, start)) == eager[start:]
    for n, action in enumerate(eager):
        assert nth_rewrite_action(state, n) == action
        assert is_available(state, action)
    with pytest.raises(IndexError):
        nth_rewrite_action(state, len(eager))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(term=levels)
def test_forms_agree_on_random_states(term):
    _check_forms(State(term, NOWHERE, 1, 0))
    assert count_rewrite_actions(State(term, NOWHERE, 1, 0)) == len(brute_force_actions(term))
    assert count_rewrite_actions(State(term, NOWHERE, 0, 0)) == 0
    assert list(iter_rewrite_actions(State(term, NOWHERE, 0, 0))) == []


def _shared(kids):
    """Terms that reuse one subterm several times (DAG sharing: more positions than nodes)."""
    return st.tuples(st.sampled_from(["f", "pair"]), kids).map(
        lambda x: compound(x[0], (x[1], x[1]))
    )


SHARED = st.recursive(st.sampled_from(["a", "b"]).map(const), _shared, max_leaves=6)
SHARING_LEVELS = st.tuples(
    SHARED,
    SHARED,
    st.sampled_from(
        [
            "rewrite(pair(var(X),var(X)),done)",
            "rewrite(f(var(X),var(Y)),g(var(Y)))",
            "rewrite(var(X),x)",
            "rewrite(a,b)",
        ]
    ),
).map(lambda x: compound("s", (p(x[2]), compound("equiv", (x[0], x[1])), x[0], x[1])))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(term=SHARING_LEVELS)
def test_forms_agree_with_shared_subterms(term):
    _check_forms(State(term, NOWHERE, 1, 0))
    assert count_rewrite_actions(State(term, NOWHERE, 1, 0)) == len(brute_force_actions(term))


def _reachable(level, depth: int = 2, cap: int = 60):
    """The level's start and the states up to ``depth`` rewrites away (at most ``cap``)."""
    frontier, out = [State.from_level(level)], []
    for _ in range(depth + 1):
        nxt = []
        for state in frontier:
            if len(out) >= cap:
                return out
            out.append(state)
            nxt.extend(
                apply(state, a) for a in rewrite_actions(state) if state.term is not state.target
            )
        frontier = nxt
    return out


BUNDLED = [
    (f"{name}:{level.title}", level)
    for name, pack in bundled_packs("termcraft")
    for level in pack.levels
]


@pytest.mark.parametrize("name, level", BUNDLED, ids=[n for n, _ in BUNDLED])
def test_forms_agree_on_bundled_levels(name, level):
    for state in _reachable(level):
        _check_forms(state)


def test_substitutions_ordered_by_text_then_first_occurrence():
    # pair(a,c) ~ pair(a,d) ~ pair(a,b) through the axioms: three substitutions at one site,
    # in the text order of what Y binds, whatever the order of the members.
    t = p(
        "s(equiv(d,b),equiv(b,c),rewrite(pair(a,var(Y)),r(var(Y))),w(pair(a,d),pair(a,c),"
        "pair(a,b)))"
    )
    state = State(t, NOWHERE, 1, 0)
    at_site = [a for a in rewrite_actions(state) if a.site == (3, 0) and a.rule.path == (2,)]
    assert [to_str(a.replacement) for a in at_site] == ["r(b)", "r(c)", "r(d)"]
    # Texts agreeing on their first 64 characters are ordered by where they first occur.
    stem = "g(" * 40 + "x" + ")" * 40
    late, early = p(f"h({stem},zz)"), p(f"h({stem},aa)")
    t = compound(
        "s",
        (
            p("rewrite(k(var(X)),var(X))"),
            compound("equiv", (late, early)),
            compound("k", (late,)),
            compound("k", (early,)),
        ),
    )
    subs = [a for a in rewrite_actions(State(t, NOWHERE, 1, 0)) if a.site == (2,)]
    assert [a.sigma[0][1] for a in subs] == [late, early]  # late occurs first in the term


def _doubling(k: int):
    """t_k = f(t_{k-1}, t_{k-1}): 2^k - 1 f-nodes as positions, only k + 1 distinct terms."""
    t = const("a")
    for _ in range(k):
        t = compound("f", (t, t))
    return compound("s", (p("rewrite(f(var(X),var(X)),a)"), t))


def _f_positions(t, path=()):
    """Pre-order positions of the ground f-nodes, naively (small terms only)."""
    out = [path] if t.name == "f" and t.ground else []
    for i, a in enumerate(t.args):
        out += _f_positions(a, path + (i,))
    return out


def test_count_without_listing_exponentially_many_positions():
    small = State(_doubling(6), NOWHERE, 1, 0)
    sites = [a.site for a in iter_rewrite_actions(small)]
    assert sites == _f_positions(small.term) and len(sites) == 63
    assert count_rewrite_actions(small) == 63
    # Height 60: 2^60 - 1 actions, counted down the DAG; listing starts at once.
    # (Only sites are compared: printing such a term would never end.)
    state = State(_doubling(60), NOWHERE, 1, 0)
    assert count_rewrite_actions(state) == 2**60 - 1
    first = [a.site for a in islice(iter_rewrite_actions(state), 3)]
    assert first == [(1,), (1, 0), (1, 0, 0)]
    site = nth_rewrite_action(state, 61).site
    assert site == (1,) + (0,) * 57 + (1,)


def test_deep_and_wide_terms():
    deep = const("a")
    for _ in range(100_000):
        deep = compound("s", (deep,))
    term = compound("puzzle", (p("rewrite(s(var(X)),var(X))"), deep))
    state = State(term, NOWHERE, 1, 0)
    assert count_rewrite_actions(state) == 100_000
    assert [len(a.site) for a in islice(iter_rewrite_actions(state), 3)] == [1, 2, 3]
    wide = compound("data", (p("rewrite(a,b)"),) + (const("a"),) * 20_000)
    state = State(wide, NOWHERE, 1, 0)
    assert count_rewrite_actions(state) == 20_001
    assert nth_rewrite_action(state, 20_000).site == (20_000,)
    assert list(iter_rewrite_actions(state)) == list(rewrite_actions(state))


def test_big_class_is_counted_and_listed_lazily():
    """40 constants joined into one class make every pair(ci,cj) congruent: 1,600 members,
    so the pair rule has 1,600 substitutions at each of the 1,600 pair sites."""
    cs = [const(f"c{i}") for i in range(40)]
    axioms = [compound("equiv", (cs[i], cs[i + 1])) for i in range(39)]
    pairs = [compound("pair", (x, y)) for x in cs for y in cs]
    term = compound(
        "s",
        (
            p("rewrite(pair(var(X),var(Y)),q(var(Y),var(X)))"),
            compound("axioms", axioms),
            compound("data", pairs),
        ),
    )
    state = State(term, NOWHERE, 1, 0)
    assert count_rewrite_actions(state) == 1600 * 1600
    started = time.monotonic()
    first = list(islice(iter_rewrite_actions(state), 2000))
    assert time.monotonic() - started < 10  # a behavioural bound: nothing is listed ahead
    assert [a.site for a in first[:1600]] == [(2, 0)] * 1600
    assert first[1600].site == (2, 1)
    assert [dict(a.sigma) for a in first[:2]] == [
        {"X": cs[0], "Y": cs[0]},
        {"X": cs[0], "Y": cs[1]},
    ]


def test_a_watch_stops_the_analysis_and_nothing_is_cached():
    term = compound("s", tuple(compound("f", (const(f"x{i}"), const("y"))) for i in range(50_000)))
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 3

    state = State(term, NOWHERE, 1, 0)
    with pytest.raises(Interrupted) as stopped:
        count_rewrite_actions(state, Watch(should_stop=stop))
    assert stopped.value.reason == "cancelled"
    with pytest.raises(Interrupted) as late:
        moves_of(compound("other", (term,)), Watch(time_limit=0.0))
    assert late.value.reason == "limit"
    assert count_rewrite_actions(state) == 0  # no rule: nothing half-built was kept
    assert analyze(term).closure.same(const("y"), const("y"))


def test_apply_checks_legality_without_listing():
    t = p("s(equiv(a,b),rewrite(f(b),done),x(f(a)))")
    state = State(t, NOWHERE, 1, 0)
    (action,) = [a for a in rewrite_actions(state) if a.site == (2, 0)]
    assert is_available(state, action)
    assert not is_available(state, action._replace(site=(2,)))  # x(f(a)) is not f(...)
    assert not is_available(state, action._replace(site=(9, 9)))
    assert not is_available(state, action._replace(sigma=(("X", const("a")),)))
    other = State(p("s(rewrite(f(b),done),x(f(a)))"), NOWHERE, 1, 0)
    assert not is_available(other, action)  # no such rule there
    assert apply(state, action).term is p("s(equiv(a,b),rewrite(f(b),done),x(done))")


def test_variable_names_do_not_change_counts():
    # f(var(X)) and f(var(Y)) are matched once for counting; the count is still per rule.
    t = p("s(rewrite(f(var(X)),a),rewrite(f(var(Y)),b),rewrite(f(var(X)),c),d(f(a),f(f(a))))")
    state = State(t, NOWHERE, 1, 0)
    assert count_rewrite_actions(state) == len(rewrite_actions(state)) == 3 * 3
    assert {a.rule.path for a in rewrite_actions(state)} == {(0,), (1,), (2,)}
    assert var("X") is not var("Y")
