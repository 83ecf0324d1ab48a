"""The state graph, its classes and metrics: hand-worked levels, the brute-force reference on
random small levels, metric identities and the DOT export."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import (
    CLASSES,
    AnalysisLimit,
    Level,
    analyse,
    apply_move,
    initial,
    status,
    to_dot,
)
from core.longcat.prune import is_dead, is_hopeless
from tests.core.test_longcat_reference import HAND, arduboy_levels, brute, hand_level


@st.composite
def small_levels(draw, max_side: int = 4) -> Level:
    """Random levels up to ``max_side`` x ``max_side`` with a random start."""
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    cells = [(x, y) for y in range(height) for x in range(width)]
    wall = draw(st.lists(st.booleans(), min_size=len(cells), max_size=len(cells)))
    start = draw(st.sampled_from(cells))
    rows = [
        "".join(
            "@" if (x, y) == start else "#" if wall[y * width + x] else "." for x in range(width)
        )
        for y in range(height)
    ]
    return Level.from_rows(rows)


def metrics_dict(level: Level) -> dict:
    return dataclasses.asdict(analyse(level).metrics)


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_worked_metrics(name: str) -> None:
    assert metrics_dict(hand_level(name)) == HAND[name].metrics


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_worked_classes(name: str) -> None:
    counts = analyse(hand_level(name)).class_counts()
    assert {k: v for k, v in counts.items() if v} == HAND[name].classes
    assert set(counts) == set(CLASSES)


def test_indeterminate_level_node_by_node() -> None:
    """The hand-worked 'indeterminate' level: the state after 'left' is the indeterminate
    one (two moves, both into dead states), and the shortest solution is ULDRUL."""
    analysis = analyse(hand_level("indeterminate"))
    graph = analysis.graph
    after_left = dict(graph.edges[0])[2]  # direction 2 = left
    assert analysis.kinds[after_left] == "indeterminate"
    assert [analysis.kinds[c] for _, c in graph.edges[after_left]] == ["dead", "dead"]
    assert analysis.solution_letters == "ULDRUL"
    assert analysis.node_class(0) == "start" and analysis.kinds[0] == "reachable"


@settings(max_examples=150, deadline=None)
@given(small_levels())
def test_metrics_equal_brute_force(level: Level) -> None:
    assert metrics_dict(level) == brute(level).metrics


@settings(max_examples=100, deadline=None)
@given(small_levels())
def test_every_node_kind_equals_brute_force(level: Level) -> None:
    analysis = analyse(level)
    ref = brute(level).kinds
    got = {}
    for k, (head, filled) in enumerate(zip(analysis.graph.heads, analysis.graph.filled)):
        cells = frozenset(level.xy(i) for i in range(filled.bit_length()) if filled >> i & 1)
        got[(level.xy(head), cells)] = analysis.kinds[k]
    assert got == ref


@settings(max_examples=100, deadline=None)
@given(small_levels())
def test_shortest_solution_replays_to_a_win(level: Level) -> None:
    analysis = analyse(level)
    state = initial(level)
    for move in analysis.solution:
        state = apply_move(state, move)
    assert (status(state) == "won") == analysis.metrics.solvable
    assert len(analysis.solution) == (analysis.metrics.shortest_solution or 0)


def _identities(level: Level) -> None:
    analysis = analyse(level)
    m = analysis.metrics
    counts = analysis.class_counts()
    assert sum(counts.values()) == m.states
    assert (
        m.success_states + m.fails + m.reachable_states + m.dead_states + m.indeterminate_states
    ) == m.states
    # Each success node ends at least one solution; equality iff no two solutions share one.
    assert m.success_states <= m.solution_paths
    assert (m.solution_paths > 0) == (m.success_states > 0) == (m.shortest_solution is not None)
    # Every node but the start has a parent; a DAG has at least states - 1 edges.
    assert m.edges >= m.states - 1
    assert m.branches <= m.states and m.open_cells == level.size
    assert m.grid_cells == level.width * level.height >= m.open_cells
    if m.solvable:
        # The shortest path passes shortest_solution non-success nodes, all 'reachable'.
        assert m.reachable_states >= m.shortest_solution
        assert m.shortest_solution <= m.open_cells - 1
    for k, (head, filled) in enumerate(zip(analysis.graph.heads, analysis.graph.filled)):
        kind = analysis.kinds[k]
        if kind in ("reachable", "success"):
            # A split grid cannot be completed, and pruning never cuts a winning node.
            assert not is_dead(level.board, filled)
            assert not is_hopeless(level.board, head, filled)


@settings(max_examples=150, deadline=None)
@given(small_levels(max_side=5))
def test_metric_identities_on_random_levels(level: Level) -> None:
    _identities(level)


def test_metric_identities_on_arduboy_levels() -> None:
    for level in arduboy_levels():
        _identities(level)


def test_success_states_and_solutions_differ_when_solutions_meet() -> None:
    """3x3 with the start in the middle: 8 solutions (4 first moves x 2 turns) end in the 4
    corners, two per corner; so success states (4) < solutions (8)."""
    m = analyse(Level.from_rows(["...", ".@.", "..."])).metrics
    assert (m.solution_paths, m.success_states, m.shortest_solution) == (8, 4, 5)


def test_counts_are_not_pruned() -> None:
    """The 'indeterminate' level has 18 reachable states although pruning would visit only
    the winning line and the start's two children."""
    assert analyse(hand_level("indeterminate")).metrics.states == 18


def test_state_limit_and_cancel() -> None:
    open_grid = Level.from_rows(["@....", ".....", ".....", ".....", "....."])
    with pytest.raises(AnalysisLimit) as info:
        analyse(open_grid, max_states=10)
    assert info.value.reason == "limit"
    big = Level.from_rows(["@" + "." * 7] + ["." * 8] * 7)
    with pytest.raises(AnalysisLimit) as info:
        analyse(big, should_stop=lambda: True)
    assert info.value.reason == "cancelled"


def test_dot_export() -> None:
    analysis = analyse(hand_level("indeterminate"))
    dot = to_dot(analysis, name="my level!")
    assert dot.startswith("digraph my_level_ {") and dot.endswith("}\n")
    assert dot.count(" -> ") == analysis.metrics.edges == 17
    assert dot.count("fillcolor=") == 18
    assert dot.count("fillcolor=yellow") == 1 and dot.count("fillcolor=purple") == 6
    assert dot.count("fillcolor=red") == 4 and dot.count("fillcolor=green") == 1
    assert dot.count("fillcolor=lightblue") == 5 and dot.count("fillcolor=white") == 1
    assert "n0 -> " in dot and '[label="U"]' in dot
