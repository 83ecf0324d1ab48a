"""TermCraft's bounded work (issue 28): the solver's and the linter's work budget, and listing
the actions of a deep term in memory linear in the term.

Outcomes are asserted under a work budget (term nodes), never under a short wall-clock limit.
"""

from __future__ import annotations

import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

from core.termcraft import Level, State, count_rewrite_actions, iter_rewrite_actions, lint, solve
from core.termcraft.analysis import analyze
from core.termcraft.state import Rule
from grammar.terms import parse_term as p
from tests.core.helpers import TERMCRAFT_SAMPLE as SAMPLE
from tests.core.helpers import TERMCRAFT_SAMPLE_TARGET as SAMPLE_TARGET

# A level needing three moves (two rewrites and a construct): see tests/core/test_termcraft_solver.py.


def sample_level() -> Level:
    return Level("Sample", p(SAMPLE), p(SAMPLE_TARGET), 2, 1)


def test_the_budget_counts_the_size_of_every_expanded_state() -> None:
    """Each expansion spends its term's Size (and each successor the nodes it rebuilds): a
    budget below the start's Size stops the search at its first state, whatever the clock
    says."""
    level = sample_level()
    size = level.current.size
    stopped = solve(level, budget=size - 1, time_limit=None)
    assert (stopped.status, stopped.reason, stopped.why) == ("unknown", "budget", "work budget")
    assert stopped.explored == 1 and stopped.spent == size
    solved = solve(level, budget=None, time_limit=None)
    assert solved.status == "solved" and len(solved.plan) == 3
    assert solved.spent > solved.explored * size // 2  # every expansion spent its Size
    # The same work reaches the same plan on any machine; one node less does not.
    again = solve(level, budget=solved.spent, time_limit=None)
    assert again.status == "solved" and again.plan == solved.plan
    short = solve(level, budget=solved.spent - 1, time_limit=None)
    assert (short.status, short.why) == ("unknown", "work budget")


def test_a_budget_hit_says_so_and_zero_means_none() -> None:
    level = sample_level()
    assert solve(level, budget=0, time_limit=None).status == "solved"
    result = solve(level, budget=level.current.size + 1, time_limit=None)
    assert result.status == "unknown" and result.why == "work budget"


def test_a_state_limit_and_a_time_limit_are_told_apart() -> None:
    level = sample_level()
    few = solve(level, max_states=2, budget=None, time_limit=None)
    assert (few.status, few.reason, few.why) == ("unknown", "limit", "state limit")
    late = solve(level, budget=None, deadline=0.0)  # a deadline long past
    assert (late.status, late.reason, late.why) == ("unknown", "limit", "time limit")


def test_lint_spends_the_budget_on_the_analysis_and_the_solver() -> None:
    level = sample_level()
    issues = lint(level, budget=level.current.size + 1, time_limit=None)
    unknown = [i for i in issues if i.code == "solver-unknown"]
    assert len(unknown) == 1 and "work budget" in unknown[0].message
    assert any(i.code == "solvable" for i in lint(level, budget=None, time_limit=None))


def chain(depth: int, link: str, leaf: str) -> str:
    """``f(LINK, f(LINK, ... LEAF))``: a chain ``depth`` deep with LINK at every level."""
    return f"f({link}," * depth + leaf + ")" * depth


def test_actions_of_a_deep_chain_take_memory_linear_in_the_term() -> None:
    """A site (or a rule) at every level of a chain 4,000 deep: every position's path as a
    tuple is 8 million indices (64 MB; 100 k deep took 48 s).  Listing the first actions and
    counting them all keeps to a few MB."""
    for term in (
        p("s(rewrite(x,y)," + chain(4000, "x", "x") + ")"),  # 4,001 sites of one rule
        p(chain(4000, "rewrite(x,y)", "x")),  # 4,000 rules, nested
    ):
        state = State(term, p("none"), 1, 0)
        tracemalloc.start()
        try:
            first = [a for _, a in zip(range(3), iter_rewrite_actions(state, cache=False))]
            total = count_rewrite_actions(state)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert total >= 4000 and len(first) == 3
        assert peak < 24 * 1024 * 1024, f"{peak:,} bytes"


@st.composite
def nested_rules(draw: st.DrawFn) -> str:
    """Terms with rules (valid and not) at random depths and child positions."""
    depth = draw(st.integers(0, 6))
    text = draw(st.sampled_from(["a", "rewrite(a,b)", "rewrite(var(X),g(var(X)))"]))
    for _ in range(depth):
        left = draw(st.sampled_from(["", "rewrite(c,d),", "k,", "rewrite(a,var(Y)),"]))
        right = draw(st.sampled_from(["", ",rewrite(e,f)", ",m"]))
        text = f"h({left}{text}{right})"
    return text


def ref_rules(t, path=()):  # the plain recursive definition: every valid rewrite(l, r)
    out = []
    if t.name == "rewrite" and len(t.args) == 2 and not t.is_var:
        lhs, rhs = t.args
        if _vars(rhs) <= _vars(lhs):
            out.append((path, lhs, rhs))
    for i, a in enumerate(t.args):
        out += ref_rules(a, (*path, i))
    return out


def _vars(t) -> set:
    return {t.name} if t.is_var else set().union(*(_vars(a) for a in t.args))


@settings(max_examples=80, deadline=None)
@given(nested_rules())
def test_rules_keep_their_paths_exactly(text: str) -> None:
    """A rule found by the analysis has the path where it sits (made from its link on
    demand), and compares and hashes by path and sides as before."""
    term = p(text)
    rules = analyze(term, cache=False).rules
    assert [(r.path, r.lhs, r.rhs) for r in rules] == ref_rules(term)
    for r in rules:
        twin = Rule(r.path, r.lhs, r.rhs)
        assert twin == r and hash(twin) == hash(r) and repr(twin) == repr(r)
