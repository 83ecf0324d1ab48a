"""The 2048 level designer's verdict (core/game2048/design.py) against hand-worked answers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.game2048 import GameConfig, create_game, move
from core.game2048.design import (
    assess,
    change_rule,
    check_goal,
    check_spawn,
    describe,
    is_tile_value,
    resize_board,
    spawn_probabilities,
    step_value,
    tile_values,
)
from core.game2048.level import MAX_NUMBER, Level


def fibonacci_tiles() -> list[int]:
    out, a, b = [], 1, 2
    while a <= MAX_NUMBER:
        out.append(a)
        a, b = b, a + b
    return out


def test_the_rules_tile_values_are_the_known_sequences() -> None:
    assert tile_values("standard") == tuple(2**k for k in range(1, 60))  # 2**60 > 10**18
    assert tile_values("fibonacci") == tuple(fibonacci_tiles())
    threes = [1, 2] + [3 * 2**k for k in range(0, 60) if 3 * 2**k <= MAX_NUMBER]
    assert tile_values("threes") == tuple(threes)
    assert is_tile_value("threes", 3072) and not is_tile_value("threes", 4)
    assert is_tile_value("fibonacci", 2584) and not is_tile_value("fibonacci", 2048)
    with pytest.raises(ValueError):
        tile_values("nope")


def test_step_value_walks_the_rules_tiles_with_empty_below() -> None:
    assert step_value("standard", 0, 1) == 2
    assert step_value("standard", 2, 1) == 4
    assert step_value("standard", 2, -1) == 0
    assert step_value("standard", 0, -1) == 0
    assert step_value("standard", 3, 1) == 4 and step_value("standard", 3, -1) == 2
    assert step_value("threes", 2, 1) == 3 and step_value("threes", 3, 1) == 6
    assert step_value("fibonacci", 5, 1) == 8 and step_value("fibonacci", 1, -1) == 0
    top = tile_values("standard")[-1]
    assert step_value("standard", top, 1) == top


@given(st.sampled_from(["standard", "fibonacci", "threes"]), st.integers(0, 10**6))
def test_a_step_up_then_down_comes_back_to_a_tile(rule: str, value: int) -> None:
    up = step_value(rule, value, 1)
    assert is_tile_value(rule, up) and up > value
    down = step_value(rule, up, -1)
    assert down < up and (down == 0 or is_tile_value(rule, down))
    assert step_value(rule, down, 1) == up


def test_goal_and_spawn_checks() -> None:
    check_goal(2048, "standard")
    check_goal(None, "fibonacci")
    with pytest.raises(ValueError, match="the goal 3000 is not a tile of standard"):
        check_goal(3000, "standard")
    with pytest.raises(ValueError, match="not a tile of fibonacci"):
        check_goal(2048, "fibonacci")
    check_spawn(((2, 9), (4, 1)), "standard")  # relative weights
    check_spawn(((2, 0.9), (4, 0.1)), "standard")  # probabilities summing to 1
    with pytest.raises(ValueError, match=r"sum to 0\.8, not 1"):
        check_spawn(((2, 0.5), (4, 0.3)), "standard")
    with pytest.raises(ValueError, match="the spawn value 3 is not a tile of standard"):
        check_spawn(((2, 1), (3, 1)), "standard")
    check_spawn(((1, 2), (2, 2), (3, 1)), "threes")
    assert spawn_probabilities(((2, 9), (4, 1))) == ((2, 0.9), (4, 0.1))


def test_a_dead_board_is_over_with_nothing_to_estimate() -> None:
    level = Level("dead", GameConfig(board_size=2, goal=8), ((2, 4), (4, 2)))
    design = assess(level)
    assert design.over and design.moves == () and design.estimate is None
    assert design.empty_cells == 0 and design.largest == 4 and not design.won
    assert design.legal
    assert "already OVER" in describe(design)


def test_moves_empty_cells_won_and_legality_by_hand() -> None:
    # [2 2]/[0 0]: up changes nothing; down, left and right do.
    level = Level("pair", GameConfig(board_size=2, goal=2), ((2, 2), (0, 0)))
    design = assess(level, moves=0)
    assert design.moves == ("down", "left", "right")
    assert design.empty_cells == 2 and design.largest == 2 and design.won
    assert "already WON" in describe(design)
    odd = Level("odd", GameConfig(board_size=2), ((3, 0), (0, 6)))
    assert assess(odd, moves=0).illegal_tiles == (3, 6)
    assert "✗ 3, 6 not tile(s) of standard" in describe(assess(odd, moves=0))
    as_threes = Level("odd", GameConfig.for_preset("threes", board_size=2), ((3, 0), (0, 6)))
    assert assess(as_threes, moves=0).legal
    bad_goal = Level("goal", GameConfig(goal=3000))
    design = assess(bad_goal, moves=0)
    assert not design.goal_legal and not design.legal
    bad_spawn = Level("spawn", GameConfig(tile_value_distribution=((3, 1),)))
    assert assess(bad_spawn, moves=0).illegal_spawns == (3,)


def test_a_random_start_is_the_seeds_deal() -> None:
    config = GameConfig(initial_seed=7, number_of_initial_tiles=3)
    design = assess(Level("seven", config), moves=0)
    assert design.random_start and design.board == create_game(config).board
    assert design.empty_cells == 13
    assert "Start (3 random tiles, seed 7)" in describe(design)


def test_the_estimate_replays_from_the_start() -> None:
    level = Level("seven", GameConfig(initial_seed=7))
    design = assess(level, moves=25, time_limit=60)
    estimate = design.estimate
    assert estimate is not None and estimate.complete and len(estimate.directions) == 25
    state = design.start
    for direction in estimate.directions:
        nxt = move(state, direction)
        assert nxt is not state
        state = nxt
    assert state == estimate.final
    assert estimate.first_move == estimate.directions[0]
    assert "after 25 moves (going on)" in describe(design)


def test_the_estimate_finds_a_goal_one_merge_away() -> None:
    # Goal 8 on [4 4]/[0 0]: left or right merges into 8 at once.
    level = Level("pair", GameConfig(board_size=2, goal=8), ((4, 4), (0, 0)))
    design = assess(level, moves=50, time_limit=60)
    assert design.estimate is not None and design.estimate.goal_at is not None
    replayed = design.start
    for direction in design.estimate.directions[: design.estimate.goal_at]:
        replayed = move(replayed, direction)
    assert max(max(row) for row in replayed.board) >= 8


def test_the_estimate_stops_at_the_time_limit_and_when_told() -> None:
    level = Level("big", GameConfig(board_size=8, initial_seed=1, number_of_initial_tiles=10))
    design = assess(level, moves=100_000, time_limit=0.05)
    assert design.estimate is not None and not design.estimate.complete
    assert "unknown within the limit" in describe(design)
    stopped = assess(level, moves=100, time_limit=60, should_stop=lambda: True)
    assert stopped.estimate is not None and stopped.estimate.directions == ()
    assert not stopped.estimate.complete


def test_resize_keeps_what_fits() -> None:
    board = ((2, 4, 8), (16, 32, 64), (128, 256, 512))
    assert resize_board(board, 2) == ((2, 4), (16, 32))
    assert resize_board(board, 4) == ((2, 4, 8, 0), (16, 32, 64, 0), (128, 256, 512, 0), (0,) * 4)


def test_a_rule_change_moves_defaults_and_keeps_what_suits() -> None:
    fib = change_rule(GameConfig(), "fibonacci")
    assert fib.merge_rule == "fibonacci" and fib.goal == 2584
    assert [tuple(t) for t in fib.tile_value_distribution] == [(1, 9), (2, 1)]
    chosen = GameConfig(goal=1024, tile_value_distribution=((2, 1),))
    threes = change_rule(chosen, "threes")
    assert threes.goal == 3072  # 1024 is no Threes tile
    assert [tuple(t) for t in threes.tile_value_distribution] == [(2, 1)]  # 2 is one
    assert change_rule(chosen, "standard") is chosen
    endless = change_rule(GameConfig(goal=None), "fibonacci")
    assert endless.goal is None


def _replayed(design, count: int):
    """The state after the estimate's first ``count`` moves, replayed move by move."""
    state = design.start
    for direction in design.estimate.directions[:count]:
        nxt = move(state, direction)
        assert nxt is not state
        state = nxt
    return state


def test_the_goal_is_reported_with_the_score_of_its_own_move() -> None:
    """Issue 30: the verdict said "goal 16 at move 17, score 2640": the move at which the
    goal appeared, with the score of the autoplay's last move (200). Worked by hand: on
    [4 4]/[2 2] only left and right move, and each merges 4+4 (the goal, 8) and 2+2 at
    once: goal at move 1, score 8 + 4 = 12."""
    config = GameConfig(board_size=2, goal=8)
    design = assess(Level("eight", config, ((4, 4), (2, 2))), moves=200, time_limit=600)
    assert design.moves == ("left", "right")
    estimate = design.estimate
    assert estimate is not None and estimate.goal_at == 1
    assert estimate.final.score == 12 and len(estimate.directions) == 1
    assert estimate.complete and not estimate.over
    assert "goal 8 at move 1, score 12" in describe(design)


@pytest.mark.parametrize("seed", [1, 7])
def test_the_goal_move_and_score_agree_with_a_replay(seed: int) -> None:
    """The numbers are those of the state that replaying the moves gives: the goal is on the
    board after move ``goal_at`` and not before, with the score said."""
    design = assess(
        Level("sixteen", GameConfig(initial_seed=seed, goal=16)),
        moves=200,
        time_limit=600,  # only a hang reaches it: the work budget bounds each move
        budget=20_000,
    )
    estimate = design.estimate
    assert estimate is not None and estimate.goal_at is not None and estimate.goal_at > 0
    at_goal = _replayed(design, estimate.goal_at)
    before = _replayed(design, estimate.goal_at - 1)
    assert max(max(row) for row in at_goal.board) >= 16 > max(max(row) for row in before.board)
    assert at_goal == estimate.final
    assert len(estimate.directions) == estimate.goal_at
    line = f"goal 16 at move {estimate.goal_at}, score {at_goal.score}"
    assert line in describe(design)


def test_a_start_that_already_shows_the_goal_plays_on() -> None:
    """Goal 4 on a board with a 4: nothing to reach, so the estimate plays its moves."""
    board = ((4, 0, 0, 0), (0, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    design = assess(Level("won", GameConfig(goal=4), board), moves=5, time_limit=600)
    estimate = design.estimate
    assert estimate is not None and estimate.goal_at == 0 and len(estimate.directions) == 5
    assert _replayed(design, 5) == estimate.final
    assert f"after 5 moves (going on), score {estimate.final.score}" in describe(design)
