"""TermCraft solver and the shared bounded BFS, against a plain brute-force BFS."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.search import KeyVisited, ParetoVisited, bfs
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
from core.termcraft.solver import replay
from core.termcraft.terms import compound, const, var
from grammar.terms import parse_term as p
from tests.core.helpers import TERMCRAFT_SAMPLE as SAMPLE
from tests.core.helpers import TERMCRAFT_SAMPLE_TARGET as SAMPLE_TARGET
from tests.core.test_termcraft_constructs import brute_force


def brute_force_optimum(state: State):
    """Length of a shortest plan by plain BFS (no dominance pruning), or None.  Constructs try
    every ground term over the level's symbols that the budget allows (issue 29): the
    differential test's brute force, without its made-up symbols and with no cap."""
    return brute_force(state, fresh=False, cap=10**12)


def test_sample_level_shortest_plan():
    level = Level("Sample", p(SAMPLE), p(SAMPLE_TARGET), fuel=2, budget=1)
    result = solve(level)
    assert result.status == "solved"
    assert len(result.plan) == 3
    states = replay(level, result.plan)
    assert status(states[-1]) == "won"
    assert any(isinstance(a, ConstructAction) and a.term is p("done") for a in result.plan)


def test_sample_level_without_enough_fuel_is_unsolvable():
    result = solve(Level("Sample", p(SAMPLE), p(SAMPLE_TARGET), fuel=1, budget=1))
    assert result.status == "unsolvable" and result.plan == ()
    assert result.explored > 0


def test_already_won_has_empty_plan():
    result = solve(State(p("a"), p("a"), 0, 0))
    assert result.status == "solved" and result.plan == ()


def test_unreachable_target_is_unsolvable():
    level = Level(
        "x",
        p("s(rewrite(a,b),rewrite(b,a),d(a))"),
        p("s(rewrite(a,b),rewrite(b,a),d(c))"),
        fuel=6,
        budget=0,
    )
    assert solve(level).status == "unsolvable"


def test_limits_give_unknown():
    # a(...) doubling grows forever; the target is unreachable, so only limits can stop early
    level = Level("x", p("s(rewrite(var(X),g(var(X),var(X))),a)"), p("nope"), fuel=30, budget=0)
    result = solve(level, max_states=50)
    assert result.status == "unknown" and result.reason == "limit"


def test_cancellation_and_progress():
    level = Level("x", p("s(rewrite(var(X),g(var(X),var(X))),a)"), p("nope"), fuel=30, budget=0)
    calls = []
    result = solve(
        level,
        should_stop=lambda: len(calls) >= 2,
        progress=lambda explored, frontier: calls.append((explored, frontier)),
    )
    assert result.status == "unknown" and result.reason == "cancelled"
    assert calls and calls[0][0] == 0


def test_construct_of_a_target_term():
    # f(done) is the only Size-2 term that wins in one move
    level = Level("x", p("d(placeholder)"), p("d(f(done))"), fuel=0, budget=2)
    result = solve(level)
    assert result.status == "solved"
    assert [a.term for a in result.plan] == [p("f(done)")]
    # budget too small for f(done): unsolvable
    assert solve(Level("x", p("d(placeholder)"), p("d(f(done))"), 0, 1)).status == "unsolvable"


# -- random tiny levels: solver optimum == brute-force optimum -----------------------------

atoms = st.sampled_from(["a", "b", "c"]).map(const)
small_ground = st.recursive(atoms, lambda ch: ch.map(lambda x: compound("f", (x,))), max_leaves=3)
pattern = st.one_of(small_ground, st.just(var("X")), st.just(compound("f", (var("X"),))))
rhs = st.one_of(small_ground, st.just(var("X")), st.just(compound("f", (var("X"),))))
rule = st.tuples(pattern, rhs).map(lambda x: compound("rewrite", x))
axiom = st.tuples(atoms, atoms).map(lambda x: compound("equiv", x))
datum = st.one_of(small_ground, st.just(const("placeholder"))).map(lambda x: compound("d", (x,)))
start_terms = st.tuples(
    st.lists(st.one_of(rule, rule, axiom), min_size=1, max_size=3),
    st.lists(datum, min_size=1, max_size=2),
).map(lambda x: compound("s", tuple(x[0]) + tuple(x[1])))


@st.composite
def tiny_levels(draw):
    term = draw(start_terms)
    fuel = draw(st.integers(1, 4))
    budget = draw(st.integers(0, 2))
    state = State(term, const("unused"), fuel, budget)
    # walk a few random legal moves to get a target that is often reachable
    for _ in range(draw(st.integers(1, 4))):
        acts = list(rewrite_actions(state))
        for site in placeholder_sites(state.term):
            if state.budget >= 1:
                acts.append(ConstructAction(site, draw(atoms)))
        if not acts:
            break
        state = apply(state, draw(st.sampled_from(acts)))
    target = state.term if draw(st.integers(0, 3)) else draw(start_terms)
    return State(term, target, fuel, budget)


@settings(max_examples=150, deadline=None)
@given(start=tiny_levels())
def test_solver_optimum_equals_brute_force(start):
    expected = brute_force_optimum(start)
    result = solve(start, max_states=1_000_000, time_limit=None)
    if expected is None:
        assert result.status == "unsolvable"
    else:
        assert result.status == "solved"
        assert len(result.plan) == expected
        assert replay(start, result.plan)[-1].term is start.target


# -- core.search on its own ----------------------------------------------------------------


def test_bfs_shortest_path_on_a_grid():
    # 5x5 grid, walls in column 2 except row 4: shortest path (0,0)->(0,4) needs 12 steps
    walls = {(r, 2) for r in range(4)}

    def succ(cell):
        r, c = cell
        for dr, dc, name in ((1, 0, "D"), (-1, 0, "U"), (0, 1, "R"), (0, -1, "L")):
            n = (r + dr, c + dc)
            if 0 <= n[0] < 5 and 0 <= n[1] < 5 and n not in walls:
                yield name, n

    res = bfs((0, 0), succ, lambda s: s == (0, 4))
    assert res.status == "solved" and len(res.plan) == 12
    assert res.plan[:4] == ("D", "D", "D", "D")
    assert bfs((0, 0), succ, lambda s: s == (9, 9)).status == "exhausted"
    assert bfs((0, 0), succ, lambda s: s == (9, 9), max_states=5).status == "limit"


def test_pareto_visited_drops_dominated_states():
    v = ParetoVisited(lambda s: s[0], lambda s: s[1:])
    assert v.add(("t", 2, 1))
    assert not v.add(("t", 1, 1))
    assert not v.add(("t", 2, 1))
    assert v.add(("t", 1, 2))  # incomparable
    assert v.add(("t", 3, 3))  # dominates both
    assert not v.add(("t", 1, 2))
    assert v.add(("u", 0, 0))
    k = KeyVisited(lambda s: s % 3)
    assert k.add(1) and not k.add(4) and k.add(5)


# -- limits that hold whatever the state's shape (behavioural bounds, not speed) ---------------


def _wide_level(width: int) -> Level:
    """data(rewrite(a,b), a, a, ..., a): ``width`` + 1 sites, each successor a new wide term."""
    a = const("a")
    return Level(
        "wide", compound("data", (p("rewrite(a,b)"),) + (a,) * width), p("done"), fuel=3, budget=0
    )


def test_time_limit_holds_on_a_wide_level(ticking_clock):
    """The clock ticks 1 ms per read: the 0.5 s limit falls after 500 reads, inside the first
    expansion's 20,001 successors (the clock is read inside it, not only between states)."""
    from core.termcraft.solver import state_bytes

    level = _wide_level(20_000)
    result = solve(level, time_limit=0.5, max_memory=None)
    assert result.status == "unknown" and result.reason == "limit"
    assert ticking_clock.reads <= 600, ticking_clock.reads
    # What one successor of it is estimated to cost: at least its 20,001 child slots.
    start = State.from_level(level)
    action = next(iter(rewrite_actions(start)))
    assert state_bytes(action, apply(start, action)) >= 8 * 20_001


def test_memory_limit_counts_state_size():
    level = _wide_level(2_000)
    small = solve(level, max_memory=2_000 * 8 * 50, time_limit=None)
    assert small.status == "unknown" and small.reason == "limit"
    assert small.explored <= 2  # about fifty wide successors fit, far fewer than 2,001
    assert (
        solve(
            Level("x", p("s(rewrite(a,b),a)"), p("s(rewrite(a,b),b)"), 1, 0), max_memory=10_000
        ).status
        == "solved"
    )  # small states fit easily


def test_cancel_inside_the_expansion_of_a_wide_state():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 100

    result = solve(_wide_level(20_000), should_stop=stop, time_limit=None, max_memory=None)
    assert result.status == "unknown" and result.reason == "cancelled"
    assert result.explored == 1  # stopped while producing the first state's successors
