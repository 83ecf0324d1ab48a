"""Hostile Longcat inputs (issue 28): level files the loader refuses quickly, and levels whose
state graph is huge, bounded by a work budget in states, never by the clock.

Each case states its bound: memory through :mod:`tracemalloc`, work through a budget, time
only as a generous multiple of the same work done on a valid input.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import Level
from core.longcat.design import assess
from core.longcat.graph import AnalysisLimit, analyse
from core.longcat.solver import shortest_solution
from core.search import Watch
from grammar.levels import bundled_packs, load_pack
from tests.fuzz.bounds import (
    FUZZ,
    damaged,
    edits,
    loads_in_linear_memory,
    peak_bytes,
    refuses_no_slower_than_loading,
)

GRID = ["#####...", "####..#.", "###..##.", "###.....", "#####..#", "#####.@#", "####...#"]


def _pack(levels: int) -> str:
    """A valid Longcat pack of ``levels`` small levels."""
    body = "\n".join(f"    {row}" for row in GRID)
    return "game longcat\n" + "".join(
        f'level "L{n}" {{\n  par 15\n  grid\n{body}\n}}\n\n' for n in range(levels)
    )


_PIECES = st.sampled_from(
    ["{", "}", '"', "level", "grid", "par", "#", ".", "@", "\n", " ", "game 2048", "\x00", "é"]
)


@FUZZ
@given(edits(_PIECES))
def test_a_damaged_pack_is_loaded_or_refused_in_bounded_memory(damages) -> None:
    loads_in_linear_memory(damaged(_pack(40), damages), "longcat")


@pytest.mark.slow
@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.sampled_from(["grid_char", "late_field", "unclosed", "second_start"]))
def test_refusing_is_no_slower_than_loading(defect: str) -> None:
    """Issue 28: time(refuse) <= 2 x time(load a valid file of the same size) + 0.5 s."""
    valid = _pack(600)  # ~60 KB
    last = valid.rindex("@")
    bad = {
        "grid_char": valid[:last] + "X" + valid[last + 1 :],
        "late_field": valid[: valid.rindex("}")] + "  colour 3\n}\n",
        "unclosed": valid[: valid.rindex("}")],
        "second_start": valid[: last - 1] + "@" + valid[last:],
    }[defect]
    refuses_no_slower_than_loading(valid, bad, "longcat")


def _grid_level(rows: list[str]) -> Level:
    """The one level of a pack holding ``rows`` (``@`` the start)."""
    body = "".join(f"    {row}\n" for row in rows)
    return load_pack(f'game longcat\nlevel "x" {{\n  grid\n{body}}}\n').levels[0]


def _scattered(seed: int, size: int = 32, walls: float = 0.1) -> Level:
    """A size x size grid with a few scattered walls: seed 2 at 32x32 has more than 300,000
    states (a 500-byte level that took seconds and hundreds of MB to analyse unbounded)."""
    rnd = random.Random(seed)
    rows = ["".join("#" if rnd.random() < walls else "." for _ in range(size)) for _ in range(size)]
    rows[0] = "@" + rows[0][1:]
    return _grid_level(rows)


@pytest.mark.parametrize("budget", [5_000, 20_000])
def test_a_huge_state_graph_stops_at_the_budget_in_bounded_memory(budget: int) -> None:
    level = _scattered(2)
    results: list = []
    peak = peak_bytes(lambda: results.append(assess(level, budget=budget, time_limit=3600.0)))
    verdict = results[0]
    # Far more states than the budget, and nothing left for the pruned solver: the budget,
    # not the clock, decides (a limit of an hour is only there should it hang).
    assert verdict.status == "unknown" and verdict.why == "work budget"
    assert peak < 2_000 * budget  # bound: memory grows with the budget, ~2 KB a state


def test_the_budget_is_counted_in_states_the_same_on_every_run() -> None:
    level = _scattered(1, size=24, walls=0.05)
    full = analyse(level).metrics.states
    assert full > 1024  # more than one block of the count
    analyse(level, watch=Watch(budget=full))  # exactly enough
    with pytest.raises(AnalysisLimit) as stopped:
        analyse(level, watch=Watch(budget=full - 1))
    assert stopped.value.reason == "budget" and stopped.value.why == "work budget"
    level = dict(bundled_packs("longcat"))["01-arduboy"].levels[99]
    found = shortest_solution(level)
    cut = shortest_solution(level, watch=Watch(budget=1))
    assert found.status == "solved" and cut.status == "unknown" and cut.reason == "budget"
