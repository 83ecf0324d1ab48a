"""Longcat under a work budget (issue 28): states counted the same on every machine, and every
bounded answer says which bound it hit."""

from __future__ import annotations

import pytest

from core.longcat import GenerationError, is_solvable
from core.longcat.catalog import make_level
from core.longcat.design import assess
from core.longcat.generate import generate
from core.longcat.graph import AnalysisLimit, analyse
from core.longcat.solver import shortest_solution
from core.search import Watch
from grammar.levels import bundled_packs

ARDUBOY = dict(bundled_packs("longcat"))["01-arduboy"].levels
LEVEL_100 = ARDUBOY[99]
"""145 states in its full graph; a shortest solution of 17 moves."""


def test_assess_names_the_bound_it_hit() -> None:
    full = assess(LEVEL_100, time_limit=3600.0)
    assert full.status == "solvable" and full.metrics is not None and full.why == ""
    assert full.metrics.states == 145
    # Exactly the graph's states: the full verdict, the same as without a budget.
    assert assess(LEVEL_100, budget=145, time_limit=3600.0) == full
    # One fewer: the graph is given up, nothing is left for the solver.
    short = assess(LEVEL_100, budget=144, time_limit=3600.0)
    assert (short.status, short.metrics, short.why) == ("unknown", None, "work budget")
    # Over the state limit, the pruned solver answers with the budget left, and the verdict
    # says the graph stopped at the state limit.
    pruned = assess(LEVEL_100, max_states=100, budget=10_000, time_limit=3600.0)
    assert pruned.status == "solvable" and pruned.shortest == 17
    assert pruned.why == "state limit"
    graph = Watch()
    with pytest.raises(AnalysisLimit):
        analyse(LEVEL_100, max_states=100, watch=graph)
    solver = shortest_solution(LEVEL_100, max_states=100).explored
    assert graph.spent > 0 and solver > 0  # both searches count
    enough = assess(LEVEL_100, max_states=100, budget=graph.spent + solver, time_limit=3600.0)
    assert enough.status == "solvable" and enough.why == "state limit"
    starved = assess(LEVEL_100, max_states=100, budget=graph.spent + solver - 1, time_limit=3600.0)
    assert starved.status == "unknown" and starved.why == "work budget"


def test_a_deadline_already_past_is_a_time_limit() -> None:
    verdict = assess(LEVEL_100, deadline=0.0)
    assert verdict.status == "unknown" and verdict.why == "time limit"


def test_the_solvers_stop_at_the_budget() -> None:
    assert is_solvable(LEVEL_100, watch=Watch(budget=10**6)) is True
    counted = Watch()
    assert is_solvable(LEVEL_100, watch=counted) is True and counted.spent > 0
    assert is_solvable(LEVEL_100, watch=Watch(budget=counted.spent)) is True
    assert is_solvable(LEVEL_100, watch=Watch(budget=counted.spent - 1)) is None
    found = shortest_solution(LEVEL_100, watch=Watch(budget=10**6))
    assert found == shortest_solution(LEVEL_100)
    cut = shortest_solution(LEVEL_100, watch=Watch(budget=found.explored - 1))
    assert (cut.status, cut.reason) == ("unknown", "budget")
    assert shortest_solution(LEVEL_100, watch=Watch(budget=found.explored)).moves == found.moves


def test_the_graph_counts_every_state_it_expands() -> None:
    watch = Watch(budget=10**6)
    analysis = analyse(LEVEL_100, watch=watch)
    assert watch.spent == analysis.metrics.states == 145


def test_a_generator_stops_at_the_budget_and_says_so() -> None:
    band = (80.0, 200.0)
    level = generate("sd", 3000, 8, 8, band=band, watch=Watch(budget=10**7))
    assert level == generate("sd", 3000, 8, 8, band=band)  # a budget it fits in: same level
    with pytest.raises(GenerationError, match="stopped by the work budget"):
        generate("sd", 3000, 8, 8, band=band, watch=Watch(budget=10))
    with pytest.raises(GenerationError, match="within the work budget of 10 states"):
        make_level("sd", 3000, 8, 8, band=band, budget=10, time_guard=3600.0)
    made = make_level("sd", 3000, 8, 8, band=band, budget=10**7, time_guard=3600.0)
    assert made == make_level("sd", 3000, 8, 8, band=band, time_guard=3600.0)


@pytest.mark.parametrize("method", ["sd", "ca"])
def test_the_candidate_makers_spend_the_budget_too(method: str) -> None:
    # Issue 28: the solver that validates each candidate (sd: the walk's level; ca: a cave
    # mask's start cells) counts its states against the budget, with no filter at all.
    counted = Watch()
    level = generate(method, 5, 8, 8, watch=counted)
    assert counted.spent > 0
    assert level == generate(method, 5, 8, 8)
    # Exactly the states it needs: the same level; one fewer: stopped, and it says by what.
    assert generate(method, 5, 8, 8, watch=Watch(budget=counted.spent)) == level
    with pytest.raises(GenerationError, match="stopped by the work budget"):
        generate(method, 5, 8, 8, watch=Watch(budget=counted.spent - 1))
    with pytest.raises(GenerationError, match="stopped by the time limit"):
        generate(method, 5, 8, 8, watch=Watch(deadline=0.0))  # a deadline already past
