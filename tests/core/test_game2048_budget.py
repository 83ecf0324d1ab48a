"""2048's AI under a work budget (issue 28): nodes per move, the same answer on any machine,
and autoplay stopping at the goal."""

from __future__ import annotations

import pytest

from core.game2048 import GameConfig, has_won, max_tile, move
from core.game2048 import fastboard as fb
from core.game2048.ai import (
    NodeBudget,
    OutOfTime,
    _general_scores,
    _pick,
    autoplay,
    best_move_fast,
    hint,
    move_scores_fast,
)
from core.game2048.game import start_game
from core.game2048.merge import resolve_merge_logic


def _played(seed: int, moves: int) -> object:
    """A standard game after ``moves`` moves of the first legal direction (a mid-game board)."""
    state = start_game(GameConfig(initial_seed=seed))
    for _ in range(moves):
        for direction in ("left", "down", "right", "up"):
            after = move(state, direction)
            if after is not state:
                state = after
                break
    return state


def test_a_node_budget_stops_the_fast_search() -> None:
    board = fb.from_rows(_played(3, 30).board)  # type: ignore[attr-defined]
    with pytest.raises(OutOfTime):
        move_scores_fast(board, 3, nodes=NodeBudget(5))
    spent = NodeBudget(10**9)
    full = move_scores_fast(board, 2, nodes=spent)
    assert full == move_scores_fast(board, 2)  # counting changes nothing
    used = 10**9 - spent.left
    assert used > 5
    # Exactly the nodes the search needs is enough; one fewer is not.
    assert move_scores_fast(board, 2, nodes=NodeBudget(used)) == full
    with pytest.raises(OutOfTime):
        move_scores_fast(board, 2, nodes=NodeBudget(used - 1))


@pytest.mark.parametrize("seed", [1, 5, 9])
def test_a_tiny_budget_answers_with_the_one_move_look_ahead(seed: int) -> None:
    state = _played(seed, 40)
    board = fb.from_rows(state.board)  # type: ignore[attr-defined]
    greedy = _pick(move_scores_fast(board, 0))
    assert best_move_fast(board, depth=3, budget=1) == greedy
    assert hint(state, depth=3, budget=1) == greedy


@pytest.mark.parametrize("seed", [2, 7])
def test_a_budget_the_search_fits_in_changes_no_move(seed: int) -> None:
    state = _played(seed, 25)
    assert hint(state, budget=10**7) == hint(state)


def test_the_general_search_keeps_to_its_budget_on_a_huge_board() -> None:
    state = start_game(GameConfig(board_size=64, initial_seed=5))
    logic = resolve_merge_logic("standard")
    rows = tuple(tuple(row) for row in state.board)
    spawns = ((2, 0.9), (4, 0.1))
    with pytest.raises(OutOfTime):
        _general_scores(rows, logic, spawns, 1, None, NodeBudget(20))
    greedy = _pick(_general_scores(rows, logic, spawns, 0, None))
    # Without a budget depth 1 on 64x64 costs ~8000 moves of a 64x64 board per direction.
    assert hint(state, depth=1, budget=20) == greedy


def test_autoplay_stops_at_the_goal() -> None:
    start = start_game(GameConfig(initial_seed=1, goal=64))
    free = list(autoplay(start, 300, depth=1, budget=100))
    stopped = list(autoplay(start, 300, depth=1, budget=100, stop_at_goal=True))
    assert stopped and has_won(stopped[-1]) and max_tile(stopped[-1].board) >= 64
    assert not any(has_won(s) for s in stopped[:-1])
    # Stopping changes nothing before the goal: the same moves, then no more.
    assert stopped == free[: len(stopped)]
    assert len(free) > len(stopped)


def test_the_benchs_estimate_keeps_to_a_node_budget_per_move() -> None:
    from core.game2048.design import assess
    from core.game2048.level import Level

    level = Level("L", GameConfig(initial_seed=4))
    design = assess(level, moves=30, time_limit=3600.0, budget=1)
    assert design.estimate is not None and design.estimate.complete
    # One node a move cannot pay for the depth-1 look-ahead: every move is depth 0's.
    greedy = list(autoplay(start_game(level.config), 30, depth=0))
    assert design.estimate.directions == tuple(s.last_move.direction for s in greedy)
    assert design.estimate.final == greedy[-1]
    unbounded = assess(level, moves=30, time_limit=3600.0)
    assert unbounded.estimate is not None and unbounded.estimate.directions != (
        design.estimate.directions
    )  # the budget, not the clock, made the difference
