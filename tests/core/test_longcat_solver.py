"""The pruned solver against the unpruned state graph, the brute-force reference and the
arduboy levels (all of which are solvable: they shipped in a game)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings

from core.longcat import (
    Level,
    analyse,
    apply_move,
    initial,
    is_solvable,
    shortest_solution,
    status,
)
from core.longcat.prune import dead_ends_ok, is_hopeless, parity_ok
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import HAND, arduboy_levels, brute, hand_level


def _wins(level: Level, moves) -> bool:
    state = initial(level)
    for move in moves:
        state = apply_move(state, move)
    return status(state) == "won"


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_worked_levels(name: str) -> None:
    level = hand_level(name)
    shortest = HAND[name].metrics["shortest_solution"]
    assert is_solvable(level) is (shortest is not None)
    solution = shortest_solution(level)
    assert solution.status == ("solved" if shortest is not None else "unsolvable")
    assert len(solution.moves) == (shortest or 0)


def test_solution_string() -> None:
    assert shortest_solution(hand_level("indeterminate")).letters == "ULDRUL"
    assert shortest_solution(hand_level("square_2x2")).letters in ("RDL", "DRU")


@settings(max_examples=200, deadline=None)
@given(small_levels(max_side=5))
def test_pruned_solver_equals_full_graph(level: Level) -> None:
    metrics = analyse(level).metrics
    assert is_solvable(level) is metrics.solvable
    solution = shortest_solution(level)
    assert solution.status == ("solved" if metrics.solvable else "unsolvable")
    if metrics.solvable:
        assert len(solution.moves) == metrics.shortest_solution
        assert _wins(level, solution.moves)


@settings(max_examples=80, deadline=None)
@given(small_levels())
def test_solvable_equals_brute_force(level: Level) -> None:
    assert is_solvable(level) is bool(brute(level).solutions)


def test_every_arduboy_level_is_solvable() -> None:
    for level in arduboy_levels():
        assert is_solvable(level) is True, level.title
        solution = shortest_solution(level)
        assert solution.status == "solved" and _wins(level, solution.moves), level.title


def test_arduboy_shortest_solutions_equal_the_full_graph() -> None:
    for level in arduboy_levels():
        assert len(shortest_solution(level).moves) == analyse(level).metrics.shortest_solution


def test_pruning_rules_on_hand_positions() -> None:
    # A corridor from its end: colours alternate, the head's colour has as many cells.
    corridor = Level.from_rows(["@..."])
    assert parity_ok(corridor.board, corridor.start_index, 1 << corridor.start_index)
    # A plus with the head in the centre: four arms of one cell, four dead ends.
    plus = Level.from_rows(["#.#", ".@.", "#.#"])
    assert not dead_ends_ok(plus.board, plus.start_index, 1 << plus.start_index)
    assert is_hopeless(plus.board, plus.start_index, 1 << plus.start_index)
    # A corridor from its middle: the (filled) head splits the empty cells in two.
    middle = hand_level("corridor_middle")
    assert is_hopeless(middle.board, middle.start_index, 1 << middle.start_index)
    # A 3x2 block from a corner passes all three tests (and is solvable).
    block = Level.from_rows(["@..", "..."])
    assert not is_hopeless(block.board, block.start_index, 1 << block.start_index)
    assert is_solvable(block) is True


def test_parity_rejects_a_colour_surplus_of_two() -> None:
    # (0,0), (2,0), (1,1) are black and (1,0) white: three against one, whatever the start.
    t = Level.from_rows(["@..", "#.#"])
    assert not parity_ok(t.board, t.start_index, 1 << t.start_index)
    assert is_solvable(t) is False


def test_limits() -> None:
    level = Level.from_rows(["@......", "......."] + ["......."] * 5)
    assert shortest_solution(level, max_states=3).status == "unknown"
    cancelled = shortest_solution(level, should_stop=lambda: True)
    assert (cancelled.status, cancelled.reason) == ("unknown", "cancelled")
    hard = arduboy_levels()[99]
    assert is_solvable(hard, max_states=2) is None
