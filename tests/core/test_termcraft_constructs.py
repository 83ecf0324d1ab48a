"""TermCraft constructs over the level's alphabet, and the verdicts that rest on them (issue 29).

The solver's answers are checked against a brute-force search written here from the rules
alone: every rewrite action and every construct of every ground term of Size <= the budget
over the level's alphabet **plus fresh symbols** (a constant and a unary function that occur
nowhere in the level), with no pruning but exact repeated states.  That the optimum does not
change with the fresh symbols checks the completeness argument of ``core.termcraft.constructs``.
"""

from __future__ import annotations

from collections import deque
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from core.search import Interrupted, Watch
from core.termcraft import (
    ConstructAction,
    Level,
    State,
    apply,
    placeholder_sites,
    rewrite_actions,
    solve,
    status,
)
from core.termcraft.constructs import Constructible, alphabet_of
from core.termcraft.solver import replay
from core.termcraft.terms import VAR, compound, const, replace_at, substitute, var
from grammar.terms import parse_term as p

# The issue's level: won in 2 moves (construct f(k), then rewrite it), which the old solver
# (constructs limited to subterms of the target) called unsolvable.
ISSUE_CURRENT = "s(rewrite(f(var(X)),g(h(k))),placeholder)"
ISSUE_TARGET = "s(rewrite(f(var(X)),g(h(k))),g(h(k)))"


def _symbols(t, consts, funs):
    if t.kind == VAR:
        return
    if t.args:
        funs.add((t.name, len(t.args)))
        for a in t.args:
            _symbols(a, consts, funs)
    elif t.is_const:
        consts.add(const(t.name))
    else:
        consts.add(compound(t.name, ()))


def all_terms(consts, funs, max_size):
    """Every ground term of Size <= max_size, by plain recursion (no sharing, no laziness)."""
    by_size = {1: set(consts)}
    for n in range(2, max_size + 1):
        out = set()
        for name, k in funs:
            for split in _splits(n - 1, k):
                for kids in product(*(by_size.get(m, ()) for m in split)):
                    if name.lower() == "var" and k == 1 and kids[0].is_const:
                        continue  # typed as var(c), it is a variable
                    out.add(compound(name, kids))
        by_size[n] = out
    return {t for terms in by_size.values() for t in terms}


def _splits(total, parts):
    if parts == 0:
        return [()] if total == 0 else []
    return [(i, *rest) for i in range(1, total + 1) for rest in _splits(total - i, parts - 1)]


def brute_force(state: State, fresh: bool = True, cap: int = 20_000):
    """Length of a shortest plan, None when there is none, or "gave up" past ``cap`` states."""
    consts, funs = set(), set()
    _symbols(state.term, consts, funs)
    _symbols(state.target, consts, funs)
    if fresh:
        consts.add(const("zz_fresh"))
        funs.add(("ff_fresh", 1))
    pool = all_terms(consts, funs, state.budget)
    seen = {(state.term, state.fuel, state.budget)}
    queue = deque([(state, 0)])
    while queue:
        s, d = queue.popleft()
        if s.term is s.target:
            return d
        nexts = [apply(s, a) for a in rewrite_actions(s)]
        for site in placeholder_sites(s.term):
            for t in pool:
                if t.size <= s.budget:
                    nexts.append(
                        State(replace_at(s.term, site, t), s.target, s.fuel, s.budget - t.size)
                    )
        for n in nexts:
            key = (n.term, n.fuel, n.budget)
            if key not in seen:
                seen.add(key)
                if len(seen) > cap:
                    return "gave up"
                queue.append((n, d + 1))
    return None


# -- the alphabet and its terms -------------------------------------------------------------


def test_alphabet_of_a_level():
    alpha = alphabet_of([p("s(rewrite(f(var(X)),g(h(k))),placeholder,t())"), p("d(a,b)")])
    assert set(alpha.leaves) == {const("k"), const("placeholder"), compound("t"), const("a"),
                                 const("b")}  # fmt: skip
    assert set(alpha.functions) == {
        ("s", 3), ("rewrite", 2), ("f", 1), ("g", 1), ("h", 1), ("d", 2)
    }  # fmt: skip
    assert alpha.restriction == ""


def test_terms_by_size_hand_counted():
    # constants a, b; f/1; g/2.  Size 1: a b.  Size 2: f(a) f(b).
    # Size 3: f(f(a)) f(f(b)) g(a,a) g(a,b) g(b,a) g(b,b): 6.
    # Size 4: f of the 6 (6), g(size1, size2) 2*2 and g(size2, size1) 2*2: 14.
    made = Constructible(alphabet_of([p("h(g(a,b),f(a))")]))
    h = ("h", 2)
    assert made.alphabet().functions == (("f", 1), ("g", 2), h)
    # h/2 counts too: Size 3 gains h(x,y) (4 terms), Size 4 gains 8 more.
    counts = [len(list(made.of_size(n))) for n in (1, 2, 3, 4)]
    assert counts == [2, 2, 6 + 4, 14 + 4 + 8]
    sizes3 = {str(t) for t in made.of_size(3)}
    assert {"f(f(a))", "g(a,b)", "h(b,a)"} <= sizes3
    every = list(made.up_to(4))
    assert len(every) == len(set(every)) == sum(counts)
    assert [t.size for t in every] == sorted(t.size for t in every)


def test_var_compound_is_skipped_and_marks_the_alphabet():
    alpha = alphabet_of([p("d(var(f(a)),placeholder)")])
    made = Constructible(alpha)
    # var(a) and var(placeholder) read back as variables: the player cannot type them
    assert {str(t) for t in made.of_size(2)} == {"f(a)", "f(placeholder)"}
    assert "var(f(a))" in {str(t) for t in made.of_size(3)}
    assert alpha.restriction.startswith("terms over the level's symbols")


def test_enumeration_spends_the_work_budget():
    made = Constructible(alphabet_of([p("g(a,b)")]))
    watch = Watch(budget=10**6)
    assert len(list(made.of_size(3, watch))) == 4  # g(a,a) g(a,b) g(b,a) g(b,b)
    assert watch.spent == 4
    again = Watch(budget=10**6)
    assert len(list(made.of_size(3, again))) == 4 and again.spent == 0  # kept, not remade
    with pytest.raises(Interrupted) as stop:
        list(Constructible(made.alphabet()).of_size(5, Watch(budget=3)))
    assert stop.value.reason == "budget"


# -- the verdicts ----------------------------------------------------------------------------


def test_issue_level_is_solved_in_two_moves():
    level = Level("issue 29", p(ISSUE_CURRENT), p(ISSUE_TARGET), fuel=1, budget=2)
    result = solve(level, time_limit=None)
    assert result.status == "solved" and len(result.plan) == 2
    assert result.plan[0].term is p("f(k)")
    assert status(replay(level, result.plan)[-1]) == "won"
    assert brute_force(State.from_level(level)) == 2


def test_unsolvable_is_a_proof_over_every_construct():
    # budget 1 cannot pay for f(k): no plan, and the whole space says so
    level = Level("x", p(ISSUE_CURRENT), p(ISSUE_TARGET), fuel=1, budget=1)
    assert solve(level, time_limit=None).status == "unsolvable"
    assert brute_force(State.from_level(level)) is None


def test_restricted_alphabet_is_unknown_not_unsolvable():
    level = Level("x", p("s(var(f(a)),placeholder)"), p("s(var(f(a)),f(a))"), fuel=0, budget=1)
    result = solve(level, time_limit=None)
    assert result.status == "unknown" and result.reason == "restricted"
    assert result.why.startswith("search space restricted to ")
    # without budget, no construct can happen: the proof holds
    assert solve(Level("x", level.current, level.target, 0, 0)).status == "unsolvable"


def test_work_budget_stops_the_construct_search():
    level = Level("x", p("s(g(a,b),placeholder)"), p("nope"), fuel=0, budget=9)
    result = solve(level, time_limit=None, budget=500)
    assert result.status == "unknown" and result.why == "work budget"


# -- differential: the solver against brute force on small random levels ---------------------

leaf = st.sampled_from(["a", "b", "placeholder"]).map(const)
ground = st.recursive(
    leaf,
    lambda ch: st.one_of(
        ch.map(lambda x: compound("f", (x,))),
        st.tuples(ch, ch).map(lambda x: compound("g", x)),
    ),
    max_leaves=3,
)
pattern = st.one_of(
    ground,
    st.just(var("X")),
    st.just(compound("f", (var("X"),))),
    st.just(compound("f", (var("X"),))),
    st.just(compound("g", (var("X"), var("Y")))),
)
grow = compound("g", (var("X"), compound("g", (var("X"), var("X")))))  # Size 5 > any budget
rhs = st.one_of(ground, st.just(var("X")), st.just(grow), st.just(grow))
rules = st.tuples(st.one_of(pattern, st.just(compound("f", (var("X"),)))), rhs).map(
    lambda x: compound("rewrite", x)
)
axioms = st.tuples(leaf, ground).map(lambda x: compound("equiv", x))


@st.composite
def small_levels(draw):
    """A level whose target is often reached by a random walk of legal moves, constructs of
    any small term included (so plans that build a term absent from the target occur)."""
    head = draw(st.lists(st.one_of(rules, rules, axioms), min_size=1, max_size=2))
    hole = st.just(const("placeholder"))
    data = draw(st.lists(st.one_of(ground, hole, hole), min_size=1, max_size=2))
    term = compound("s", (*head, *data))
    fuel, budget = draw(st.integers(0, 2)), draw(st.integers(0, 3))
    state = State(term, const("unused"), fuel, budget)
    built: tuple[int, ...] | None = None  # where the last construct was
    # ground instances of the rules' left sides: built, then rewritten, they make plans that
    # construct a term the target does not hold
    sigma = {"X": draw(leaf), "Y": draw(leaf)}
    instances = st.sampled_from(
        [substitute(r.args[0], sigma) for r in head if r.name == "rewrite"] or [const("a")]
    )
    for _ in range(draw(st.integers(0, 3))):
        moves = list(rewrite_actions(state)) if state.fuel else []
        there = [m for m in moves if m.site == built]
        if there and draw(st.booleans()):  # often rewrite what was just built
            moves = there
        for site in placeholder_sites(state.term):
            new = draw(st.one_of(ground, instances))
            if new.size <= state.budget:
                moves.append(ConstructAction(site, new))
        if not moves:
            break
        move = draw(st.sampled_from(moves))
        built = move.site if isinstance(move, ConstructAction) else None
        state = apply(state, move)
    target = state.term if draw(st.integers(0, 3)) else compound("s", (*head, draw(ground)))
    sites = placeholder_sites(term)
    made = [substitute(r.args[1], sigma) for r in head if r.name == "rewrite"]
    made = [t for t in made if t.ground]
    if sites and made and draw(st.integers(0, 2)):  # the issue's shape: build, then rewrite
        target = replace_at(term, draw(st.sampled_from(sites)), draw(st.sampled_from(made)))
    return State(term, target, fuel, budget)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=small_levels())
@example(start=State(p(ISSUE_CURRENT), p(ISSUE_TARGET), 1, 2))  # fails with target subterms only
@example(start=State(p("s(rewrite(f(var(X)),g(b,f(b))),placeholder)"), p("s(rewrite(f(var(X)),g(b,f(b))),g(b,f(b)))"), 1, 3))  # fmt: skip
def test_solver_equals_brute_force_with_fresh_symbols(start):
    expected = brute_force(start)
    assume(expected != "gave up")
    result = solve(start, max_states=10**6, time_limit=None, budget=None, max_memory=None)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert result.status == "solved" and len(result.plan) == expected
        assert replay(start, result.plan)[-1].term is start.target


def test_sizes_past_the_cache_are_made_again_and_paid_again(monkeypatch):
    from core.termcraft import constructs

    monkeypatch.setattr(constructs, "MAX_CACHED", 5)
    made = Constructible(alphabet_of([p("g(a,b)")]))
    first = Watch(budget=10**6)
    assert len(list(made.of_size(3, first))) == 4 and first.spent == 4  # kept: 4 <= 5
    second = Watch(budget=10**6)
    fives = list(made.of_size(5, second))  # g(1,3) and g(3,1): 16 terms, too many to keep
    assert len(fives) == len(set(fives)) == 16 and second.spent == 16
    third = Watch(budget=10**6)
    assert list(made.of_size(5, third)) == fives and third.spent == 16


def test_the_shared_do_nothing_watch_counts_nothing():
    from core.search import NO_WATCH

    before = NO_WATCH.spent
    assert len(list(Constructible([p("g(a,b)")]).up_to(5))) == 2 + 4 + 16
    assert NO_WATCH.spent == before


def test_lint_errs_only_on_a_proof():
    from core.termcraft import lint

    def codes(level):
        return {i.code: i for i in lint(level, time_limit=None)}

    solvable = codes(Level("x", p(ISSUE_CURRENT), p(ISSUE_TARGET), fuel=1, budget=2))
    assert "unsolvable" not in solvable and "2 move" in solvable["solvable"].message
    proved = codes(Level("x", p(ISSUE_CURRENT), p(ISSUE_TARGET), fuel=1, budget=1))
    assert proved["unsolvable"].severity == "error"
    assert proved["unsolvable"].message.startswith("proved:")
    restricted = codes(Level("x", p("s(var(f(a)),placeholder)"), p("s(var(f(a)),f(a))"), 0, 1))
    assert "unsolvable" not in restricted
    unknown = restricted["solver-unknown"]
    assert unknown.severity == "info" and "search space restricted to" in unknown.message
