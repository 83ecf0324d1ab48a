"""2048's default depth and its work budget (issue 32): the compiled search looks deeper on
the boards that must cascade into a large tile, and the deepening does not begin an
iteration the node budget is predicted not to cover."""

from __future__ import annotations

import pytest

from core.game2048 import GameConfig, ai, native, state_from_board
from core.game2048 import fastboard as fb

needs_numba = pytest.mark.skipif(not native.available(), reason="numba is not installed")

# Worked by hand. A snake from 4096 down to 2 with a second 2: twelve distinct tiles, three
# empty cells (adaptive depth 3: at most 5 empty).
CASCADE = ((4096, 2048, 1024, 512), (32, 64, 128, 256), (16, 8, 4, 2), (0, 2, 0, 0))
# The same snake stopped at 1024 over a crowded floor: ten distinct tiles, three empty cells.
TEN = ((1024, 512, 256, 128), (8, 16, 32, 64), (4, 2, 4, 2), (0, 2, 0, 0))
# Stopped at 512: nine distinct tiles, three empty cells (adaptive depth 3: at most 5 empty).
NINE = ((512, 256, 128, 64), (4, 8, 16, 32), (2, 4, 2, 4), (0, 2, 0, 0))
# Eleven distinct tiles (2 to 2048) with a single empty cell (adaptive depth 4).
ELEVEN_CROWDED = ((2048, 1024, 512, 256), (16, 32, 64, 128), (8, 4, 2, 4), (2, 4, 2, 0))


def test_the_default_depth_by_hand() -> None:
    boards = [fb.from_rows(r) for r in (CASCADE, TEN, ELEVEN_CROWDED, NINE)]
    assert [ai.adaptive_depth(b) for b in boards] == [3, 3, 4, 3]
    # The pure search keeps its shallower rule: it is ~20-40x slower per node.
    assert [ai.default_depth(b, native=False) for b in boards] == [3, 3, 4, 3]
    # The compiled one: one spawn more, and 7 from ten distinct tiles on.
    assert ai.DEEP_DISTINCT == 10 and ai.DEEP_DEPTH == 7
    assert [ai.default_depth(b, native=True) for b in boards] == [7, 7, 7, 4]


def _iteration_nodes(board: int, depths: range, compiled: bool) -> list[int]:
    """Chance nodes each iteration of the deepening spends (each searched on its own, with a
    fresh table, as the deepening searches them)."""
    spent = []
    for depth in depths:
        nodes = ai.NodeBudget(10**12)
        ai.move_scores_fast(board, depth, nodes=nodes, native=compiled)
        spent.append(10**12 - nodes.left)
    return spent


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)])
def test_an_iteration_predicted_not_to_fit_is_not_begun(
    compiled: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = state_from_board(TEN, GameConfig())
    board = fb.from_rows(TEN)
    # Depth 4, pinned here for both engines (the default rule gives 7 on this board natively,
    # 3 on the pure search), so that the cut is worked on a cheap iteration.
    monkeypatch.setattr(ai, "default_depth", lambda b, native: 4)
    n1, n2, n3, n4 = _iteration_nodes(board, range(1, 5), compiled)
    assert n1 < n2 < n3 < n4
    growth = max(ai.NODE_GROWTH_FLOOR, n3 / n2)  # what the deepening predicts for depth 4
    budgets: list[ai.NodeBudget | None] = []
    real_nodes = ai._nodes

    def keep(budget: int | None) -> ai.NodeBudget | None:
        made = real_nodes(budget)
        budgets.append(made)
        return made

    monkeypatch.setattr(ai, "_nodes", keep)
    # Room for depths 1-3 and a little less than depth 4 is predicted to need: depth 4 is
    # not begun, so exactly n1 + n2 + n3 nodes are spent.
    first = n1 + n2 + n3
    room = int(n3 * growth) - 1
    found = ai.search_fast(board, budget=first + room, native=compiled)
    assert (found.depth, found.target, found.cut) == (3, 4, ai.CUT_BUDGET)
    assert budgets[-1] is not None and first + room - budgets[-1].left == first
    assert found.move == ai.hint(state, depth=3, native=compiled)
    # With room for the prediction, depth 4 runs to its end: the whole search's answer.
    found = ai.search_fast(board, budget=first + int(n3 * growth) + n4, native=compiled)
    assert (found.depth, found.target, found.cut) == (4, 4, None)
    assert found.move == ai.hint(state, depth=4, native=compiled)


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)])
def test_an_asked_depth_is_tried_to_the_budget(compiled: bool) -> None:
    # No prediction when the depth is asked for: depth 4 begins and the budget cuts it.
    board = fb.from_rows(TEN)
    n1, n2, n3 = _iteration_nodes(board, range(1, 4), compiled)
    found = ai.search_fast(board, depth=4, budget=n1 + n2 + n3 + 1, native=compiled)
    assert (found.depth, found.target, found.cut) == (3, 4, ai.CUT_BUDGET)


def test_the_growth_prediction() -> None:
    assert ai._node_growth([]) == ai._node_growth([50]) == ai.NODE_GROWTH_FLOOR
    assert ai._node_growth([10, 80]) == 8.0
    assert ai._node_growth([100, 150]) == ai.NODE_GROWTH_FLOOR  # the floor
    assert ai._node_growth([0, 7]) == ai.NODE_GROWTH_FLOOR


def test_the_cli_default_budget_is_the_core_default() -> None:
    from tui.games.game2048.cli import DEFAULT_BUDGET

    assert DEFAULT_BUDGET == ai.DEFAULT_BUDGET
