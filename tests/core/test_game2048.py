"""Tests for the 2048 engine (core.game2048): seed 004's API and the original game's rules."""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game2048 import (
    DIRECTIONS,
    MERGE_PRESETS,
    Cell,
    GameConfig,
    GameState,
    calculate_is_game_over,
    can_any_cell_move,
    check_if_game_over,
    create_game,
    execute_move_on_board,
    fibonacci_merge,
    get_board,
    get_empty_cells,
    get_score,
    has_won,
    is_fibonacci,
    legal_moves,
    merge_line,
    move,
    parse_moves,
    place_new_tile,
    process_line,
    replay,
    resolve_merge_logic,
    reverse_items,
    select_weighted_value,
    slide,
    standard_merge,
    state_from_board,
    threes_merge,
    transpose,
)
from core.game2048.rng import prng_next
from tests.cases2048 import LEFT_LINES

# ---------------------------------------------------------------------------
# Independent reference: the original game's algorithm (gabrielecirulli/2048 game_manager.js),
# index based per direction, moving tile by tile with "merged" flags; no transposes, no slide().
# ---------------------------------------------------------------------------

_VECTORS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}


def reference_move(board, direction, logic=standard_merge):
    """Return (new_board, points, moved) computed the way the original JavaScript does."""
    n = len(board)
    grid = [list(row) for row in board]
    merged = [[False] * n for _ in range(n)]
    dr, dc = _VECTORS[direction]
    rows = list(range(n))
    cols = list(range(n))
    # Traverse from the side the tiles move towards.
    if dr == 1:
        rows.reverse()
    if dc == 1:
        cols.reverse()
    points = 0
    moved = False
    for r in rows:
        for c in cols:
            value = grid[r][c]
            if value == 0:
                continue
            # Find the farthest empty cell in the direction of travel.
            pr, pc = r, c
            while 0 <= pr + dr < n and 0 <= pc + dc < n and grid[pr + dr][pc + dc] == 0:
                pr, pc = pr + dr, pc + dc
            nr, nc = pr + dr, pc + dc
            if 0 <= nr < n and 0 <= nc < n and not merged[nr][nc]:
                result = logic(grid[nr][nc], value)
                if result is not None:
                    grid[r][c] = 0
                    grid[nr][nc] = result.merged_value
                    merged[nr][nc] = True
                    points += result.score_earned
                    moved = True
                    continue
            if (pr, pc) != (r, c):
                grid[r][c] = 0
                grid[pr][pc] = value
                moved = True
    return tuple(tuple(row) for row in grid), points, moved


def reference_game_over(board, logic=standard_merge):
    """The board is full and no move in any direction changes it."""
    return all(v for row in board for v in row) and not any(
        reference_move(board, d, logic)[2] for d in DIRECTIONS
    )


def reference_spawn(board, distribution, seed):
    """Seed 004 §5.1 written out longhand."""
    empties = []
    for r in range(len(board)):
        for c in range(len(board)):
            if board[r][c] == 0:
                empties.append((r, c))
    if not empties:
        return board, seed, None
    rand1, seed = prng_next(seed)
    total = sum(w for _, w in distribution)
    acc = 0
    value = None
    for v, w in distribution:
        acc += w
        if rand1 * total < acc:
            value = v
            break
    rand2, seed = prng_next(seed)
    r, c = empties[int(rand2 * len(empties))]
    grid = [list(row) for row in board]
    grid[r][c] = value
    return tuple(tuple(row) for row in grid), seed, (r, c)


def random_board(rng: random.Random, n: int, values=(2, 4, 8, 16, 32), empty_ratio=0.35):
    return tuple(
        tuple(0 if rng.random() < empty_ratio else rng.choice(values) for _ in range(n))
        for _ in range(n)
    )


# ---------------------------------------------------------------------------
# Lines: the original game's examples.
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("row", "expected", "points"), LEFT_LINES)
def test_process_line_original_rules(row, expected, points) -> None:
    result = process_line(row, standard_merge)
    assert result.new_row == expected
    assert result.points_earned == points
    assert result.line_changed == (expected != row)


def test_slide_and_merge_line_separately() -> None:
    assert slide((0, 2, 0, 4)) == (2, 4, 0, 0)
    assert slide(()) == ()
    r = merge_line((2, 2, 2, 0), standard_merge)
    assert r == ((4, 2, 0, 0), 4, True)
    # merge_line compares with its own (already slid) input.
    r = merge_line((2, 4, 0, 0), standard_merge)
    assert r == ((2, 4, 0, 0), 0, False)


def test_transpose_and_reverse() -> None:
    b = ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    assert transpose(b) == ((1, 4, 7), (2, 5, 8), (3, 6, 9))
    assert transpose(transpose(b)) == b
    assert reverse_items((1, 2, 3)) == (3, 2, 1)
    assert reverse_items([]) == ()


def test_moves_in_all_directions_hand_worked() -> None:
    b = ((2, 0, 2, 4), (0, 4, 4, 4), (2, 0, 0, 2), (8, 8, 16, 16))
    assert execute_move_on_board(b, "left", standard_merge) == (
        ((4, 4, 0, 0), (8, 4, 0, 0), (4, 0, 0, 0), (16, 32, 0, 0)),
        4 + 8 + 4 + 16 + 32,
        True,
    )
    assert execute_move_on_board(b, "right", standard_merge) == (
        ((0, 0, 4, 4), (0, 0, 4, 8), (0, 0, 0, 4), (0, 0, 16, 32)),
        4 + 8 + 4 + 16 + 32,
        True,
    )
    # Columns top to bottom: (2,0,2,8) (0,4,0,8) (2,4,0,16) (4,4,2,16); merges 2+2 and 4+4.
    new, pts, changed = execute_move_on_board(b, "up", standard_merge)
    assert new == ((4, 4, 2, 8), (8, 8, 4, 2), (0, 0, 16, 16), (0, 0, 0, 0))
    assert (pts, changed) == (4 + 8, True)
    new, pts, changed = execute_move_on_board(b, "down", standard_merge)
    assert new == ((0, 0, 0, 0), (0, 0, 2, 8), (4, 4, 4, 2), (8, 8, 16, 16))
    assert (pts, changed) == (4 + 8, True)


def test_unchanged_move_returns_input_board() -> None:
    b = ((2, 4), (0, 0))
    assert execute_move_on_board(b, "up", standard_merge) == (b, 0, False)
    assert execute_move_on_board(b, "down", standard_merge) == (((0, 0), (2, 4)), 0, True)
    full = ((2, 4), (4, 2))
    out = execute_move_on_board(full, "left", standard_merge)
    assert out == (full, 0, False)
    assert out.new_board is full


def test_invalid_direction_names_valid_ones() -> None:
    state = create_game(GameConfig(initial_seed=1))
    with pytest.raises(ValueError, match="up, down, left, right"):
        move(state, "north")
    with pytest.raises(ValueError, match="valid directions"):
        execute_move_on_board(state.board, "L", standard_merge)


# ---------------------------------------------------------------------------
# Differential testing against the reference on thousands of random boards.
# ---------------------------------------------------------------------------


def test_differential_standard_random_boards() -> None:
    rng = random.Random(2048)
    checked = 0
    for _ in range(3000):
        n = rng.randint(2, 6)
        board = random_board(rng, n, empty_ratio=rng.choice((0.0, 0.2, 0.5)))
        for d in DIRECTIONS:
            assert tuple(execute_move_on_board(board, d, standard_merge)) == reference_move(
                board, d
            ), (board, d)
            checked += 1
        assert calculate_is_game_over(board, standard_merge) == reference_game_over(board)
    assert checked == 12000


@pytest.mark.parametrize("name", sorted(MERGE_PRESETS))
def test_differential_presets_random_boards(name: str) -> None:
    logic = resolve_merge_logic(name)
    values = {"standard": (2, 4, 8), "fibonacci": (1, 2, 3, 5, 8, 13), "threes": (1, 2, 3, 6, 12)}
    rng = random.Random(name)
    for _ in range(800):
        n = rng.randint(2, 6)
        board = random_board(rng, n, values[name], empty_ratio=rng.choice((0.0, 0.3)))
        for d in DIRECTIONS:
            assert tuple(execute_move_on_board(board, d, logic)) == reference_move(board, d, logic)
        assert calculate_is_game_over(board, logic) == reference_game_over(board, logic)


boards = st.integers(min_value=2, max_value=6).flatmap(
    lambda n: st.lists(
        st.lists(st.sampled_from((0, 0, 2, 4, 8, 16, 3, 6)), min_size=n, max_size=n),
        min_size=n,
        max_size=n,
    )
)


@given(boards, st.sampled_from(DIRECTIONS))
@settings(max_examples=400, deadline=None)
def test_differential_hypothesis(rows, direction) -> None:
    board = tuple(tuple(r) for r in rows)
    assert tuple(execute_move_on_board(board, direction, standard_merge)) == reference_move(
        board, direction
    )


@given(boards, st.sampled_from(DIRECTIONS))
@settings(max_examples=200, deadline=None)
def test_move_properties(rows, direction) -> None:
    board = tuple(tuple(r) for r in rows)
    new, points, changed = execute_move_on_board(board, direction, standard_merge)
    # Standard merges conserve the total and score the merged values.
    assert sum(map(sum, new)) == sum(map(sum, board))
    tiles_before = sum(1 for row in board for v in row if v)
    tiles_after = sum(1 for row in new for v in row if v)
    assert tiles_after <= tiles_before
    assert points >= 0 and (points == 0) == (tiles_after == tiles_before)
    # A second move in the same direction never merges a tile produced by the first with
    # itself twice: replaying is idempotent once nothing can merge any more.
    if not changed:
        assert new == board
    # Mirror symmetry: moving right == mirror, move left, mirror.
    if direction == "right":
        mirrored = tuple(tuple(reversed(r)) for r in board)
        left = execute_move_on_board(mirrored, "left", standard_merge)
        assert tuple(tuple(reversed(r)) for r in left.new_board) == new
        assert left.total_points_earned == points


# ---------------------------------------------------------------------------
# Checks.
# ---------------------------------------------------------------------------


def test_empty_cells_row_major() -> None:
    b = ((0, 2, 0), (4, 0, 8), (0, 0, 2))
    assert get_empty_cells(b) == ((0, 0), (0, 2), (1, 1), (2, 0), (2, 1))
    assert all(isinstance(c, Cell) for c in get_empty_cells(b))


def test_game_over_conditions() -> None:
    locked = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
    assert not can_any_cell_move(locked, standard_merge)
    assert calculate_is_game_over(locked, standard_merge)
    vertical_pair = ((2, 4, 2), (4, 2, 4), (2, 4, 4))
    assert can_any_cell_move(vertical_pair, standard_merge)
    assert not calculate_is_game_over(vertical_pair, standard_merge)
    with_hole = ((2, 4, 2), (4, 0, 4), (2, 4, 2))
    assert not can_any_cell_move(with_hole, standard_merge)
    assert not calculate_is_game_over(with_hole, standard_merge)
    # The same locked board is alive under the Threes rule? 2,4 never merge there either.
    assert calculate_is_game_over(locked, threes_merge)
    assert not calculate_is_game_over(((1, 2), (2, 1)), threes_merge)


# ---------------------------------------------------------------------------
# Random utilities and tile placement.
# ---------------------------------------------------------------------------


def test_select_weighted_value_boundaries() -> None:
    dist = [(2, 9), (4, 1)]
    assert select_weighted_value(dist, 0.0) == 2
    assert select_weighted_value(dist, 0.8999) == 2
    assert select_weighted_value(dist, 0.9) == 4
    assert select_weighted_value(dist, 0.9999999) == 4
    assert select_weighted_value([{"value": 3, "weight": 0}, {"value": 5, "weight": 2}], 0.0) == 5
    assert select_weighted_value({1: 1, 2: 1, 3: 2}, 0.49) == 2
    with pytest.raises(ValueError):
        select_weighted_value(dist, 1.0)
    with pytest.raises(ValueError):
        select_weighted_value([], 0.5)
    with pytest.raises(ValueError):
        select_weighted_value([(2, 0)], 0.5)


def test_place_new_tile_follows_seed_5_1() -> None:
    config = GameConfig(board_size=3, initial_seed=0)
    board = ((2, 0, 4), (0, 8, 0), (16, 0, 2))
    # From seed 0: rand1 = 0.23607 -> value 2 (0.236 < 0.9); rand2 = 0.27857, 4 empty cells
    # -> index floor(1.114) = 1 -> the second empty cell in row-major order, (1, 0).
    result = place_new_tile(board, config, 0)
    assert result.tile_added and result.new_tile_value == 2
    assert result.new_tile_position == (1, 0)
    assert result.new_board == ((2, 0, 4), (2, 8, 0), (16, 0, 2))
    assert result.next_seed == 1196435762
    full = ((2, 4), (4, 2))
    result = place_new_tile(full, config, 77)
    assert result == (full, 77, False, None, None)
    assert result.new_board is full


@given(st.integers(min_value=0, max_value=2**32 - 1), boards)
@settings(max_examples=200, deadline=None)
def test_place_new_tile_matches_reference(seed, rows) -> None:
    board = tuple(tuple(r) for r in rows)
    config = GameConfig(board_size=len(board), tile_value_distribution=((2, 9), (4, 1), (3, 2)))
    got = place_new_tile(board, config, seed)
    want_board, want_seed, pos = reference_spawn(board, ((2, 9), (4, 1), (3, 2)), seed)
    assert got.new_board == want_board
    assert got.next_seed == want_seed
    assert got.new_tile_position == pos


def test_distribution_statistics() -> None:
    config = GameConfig(board_size=4)
    board = ((0,) * 4,) * 4
    seed = 99
    counts = {2: 0, 4: 0}
    positions = set()
    for _ in range(5000):
        result = place_new_tile(board, config, seed)
        seed = result.next_seed
        counts[result.new_tile_value] += 1
        positions.add(result.new_tile_position)
    assert 0.87 < counts[2] / 5000 < 0.93
    assert len(positions) == 16


# ---------------------------------------------------------------------------
# Game state.
# ---------------------------------------------------------------------------


def test_create_game() -> None:
    config = GameConfig(board_size=4, initial_seed=0, number_of_initial_tiles=2)
    state = create_game(config)
    # Seed 0: rand 0.23607 -> value 2; rand 0.27857 * 16 = 4.46 -> empty cell 4 = (1, 0).
    # Then rand 0.81953 -> 2 (< 0.9); rand 0.66787 * 15 = 10.02 -> empty cell 10 of the
    # remaining 15 (row-major, (1, 0) skipped) = (2, 3).
    assert state.board == ((0, 0, 0, 0), (2, 0, 0, 0), (0, 0, 0, 2), (0, 0, 0, 0))
    assert state.current_seed == 2868466484
    assert (state.score, state.is_game_over, state.tiles_placed_count) == (0, False, 2)
    assert get_board(state) is state.board and get_score(state) == 0
    assert state.config is config


def test_move_same_object_when_unchanged_and_spawn_only_after_change() -> None:
    state = state_from_board(((2, 0), (4, 0)), seed=5)
    assert move(state, "left") is state
    assert move(state, "up") is state
    nxt = move(state, "right")
    assert nxt is not state
    assert nxt.tiles_placed_count == state.tiles_placed_count + 1
    assert nxt.current_seed != state.current_seed
    assert sum(1 for row in nxt.board for v in row if v) == 3
    assert nxt.move_count == 1 and nxt.last_move.direction == "right"
    assert nxt.last_move.new_tile_position in ((0, 0), (1, 0))


def test_move_scores_and_marks_merges() -> None:
    state = state_from_board(((2, 2, 4, 4), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), seed=0)
    nxt = move(state, "left")
    assert nxt.score == 12
    assert nxt.board[0][:2] == (4, 8)
    assert nxt.last_move.merged_cells == ((0, 0), (0, 1))
    assert nxt.last_move.points_earned == 12
    # Moving right merges into the right-hand cells.
    nxt = move(state, "right")
    assert nxt.board[0][2:] == (4, 8)
    assert nxt.last_move.merged_cells == ((0, 2), (0, 3))


def test_state_is_immutable() -> None:
    state = create_game(GameConfig(initial_seed=3))
    with pytest.raises(FrozenInstanceError):
        state.score = 5  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        state.config.board_size = 5  # type: ignore[misc]
    assert isinstance(state.board, tuple) and isinstance(state.board[0], tuple)


def test_game_over_after_move_and_moves_are_noops_afterwards() -> None:
    # One move left fills the board into a locked position (spawn goes into the last hole).
    board = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (0, 8, 16, 32))
    state = state_from_board(board, GameConfig(board_size=4, tile_value_distribution=((2, 1),)))
    nxt = move(state, "left")
    assert nxt.board[3] == (8, 16, 32, 2)
    assert nxt.is_game_over and check_if_game_over(nxt)
    for d in DIRECTIONS:
        assert move(nxt, d) is nxt
    assert legal_moves(nxt) == ()


def test_determinism_and_replay() -> None:
    config = GameConfig(initial_seed=424242)
    rng = random.Random(1)
    moves = [rng.choice(DIRECTIONS) for _ in range(300)]
    a, applied_a = replay(config, moves)
    b, applied_b = replay(config, moves)
    assert a == b and applied_a == applied_b
    # Step by step gives the same and never mutates earlier states.
    state = create_game(config)
    first_board = state.board
    count = 0
    for d in moves:
        nxt = move(state, d)
        count += nxt is not state
        state = nxt
    assert state == a and count == applied_a == a.move_count
    assert create_game(config).board == first_board


def test_full_games_match_reference() -> None:
    """Play whole random games, checking each step (move + spawn) against the reference."""
    rng = random.Random(7)
    for game in range(12):
        n = 2 + game % 5
        config = GameConfig(board_size=n, initial_seed=game * 1000 + 1)
        state = create_game(config)
        steps = 0
        while not state.is_game_over and steps < 400:
            d = rng.choice(DIRECTIONS)
            want_board, want_points, moved = reference_move(state.board, d)
            nxt = move(state, d)
            if not moved:
                assert nxt is state
            else:
                spawned, seed, _ = reference_spawn(want_board, ((2, 9), (4, 1)), state.current_seed)
                assert nxt.board == spawned
                assert nxt.current_seed == seed
                assert nxt.score == state.score + want_points
                assert nxt.is_game_over == reference_game_over(spawned)
            state = nxt
            steps += 1


def test_has_won_and_goal() -> None:
    config = GameConfig(board_size=2, goal=16)
    assert not has_won(state_from_board(((8, 8), (0, 0)), config))
    won = move(state_from_board(((8, 8), (0, 0)), config), "left")
    assert won.board[0][0] == 16 and has_won(won)
    assert not won.is_game_over  # winning does not end the game
    assert not has_won(state_from_board(((4096, 0), (0, 0)), GameConfig(board_size=2, goal=None)))


# ---------------------------------------------------------------------------
# Configuration, presets, serialisation.
# ---------------------------------------------------------------------------


def test_config_validation() -> None:
    with pytest.raises(ValueError):
        GameConfig(board_size=1)
    with pytest.raises(ValueError):
        GameConfig(board_size=2, number_of_initial_tiles=5)
    with pytest.raises(ValueError, match="standard, fibonacci, threes"):
        GameConfig(merge_logic="nope")
    with pytest.raises(ValueError):
        GameConfig(merge_logic=42)  # neither a preset name nor a function
    with pytest.raises(ValueError):
        GameConfig(tile_value_distribution=[(0, 1)])
    with pytest.raises(ValueError):
        GameConfig(tile_value_distribution=[(2, -1)])
    with pytest.raises(ValueError):
        GameConfig(goal=0)
    assert GameConfig(initial_seed=-1).initial_seed == 2**32 - 1


def test_config_merge_logic_resolves_and_roundtrips() -> None:
    config = GameConfig(merge_logic=fibonacci_merge, board_size=5, goal=None)
    assert config.merge_rule == "fibonacci" and config.merge_logic is fibonacci_merge
    data = config.to_dict()
    assert data["merge_logic"] == "fibonacci"
    assert GameConfig.from_dict(data) == config
    with pytest.raises(ValueError):
        GameConfig.from_dict({"board_size": 4, "colour": "red"})
    with pytest.raises(ValueError):
        GameConfig.from_dict([1, 2])
    assert config.with_changes(board_size=3).board_size == 3
    assert config.with_changes(merge_logic="threes").merge_rule == "threes"
    preset = GameConfig.for_preset("threes", initial_seed=9)
    assert preset.goal == 3072 and {t.value for t in preset.tile_value_distribution} == {1, 2, 3}


def test_state_roundtrip() -> None:
    state = replay(GameConfig(initial_seed=11, board_size=5), parse_moves("LURDLLUURRDD"))[0]
    again = GameState.from_dict(state.to_dict())
    assert again == state
    with pytest.raises(ValueError):
        GameState.from_dict({"board": [[1]]})
    bad = state.to_dict()
    bad["board"] = [[2, 2], [2, 2]]
    with pytest.raises(ValueError):
        GameState.from_dict(bad)


def test_fibonacci_and_threes_rules() -> None:
    assert [n for n in range(1, 60) if is_fibonacci(n)] == [1, 2, 3, 5, 8, 13, 21, 34, 55]
    assert fibonacci_merge(1, 1) == (2, 2)
    assert fibonacci_merge(2, 3) == (5, 5) and fibonacci_merge(5, 3) == (8, 8)
    assert fibonacci_merge(2, 2) is None and fibonacci_merge(1, 3) is None
    assert process_line((1, 1, 2, 3), fibonacci_merge).new_row == (2, 5, 0, 0)
    assert process_line((1, 2, 3, 0), fibonacci_merge).new_row == (3, 3, 0, 0)
    assert threes_merge(1, 2) == (3, 3) and threes_merge(2, 1) == (3, 3)
    assert threes_merge(1, 1) is None and threes_merge(2, 2) is None
    assert threes_merge(6, 6) == (12, 12) and threes_merge(3, 6) is None
    assert process_line((3, 3, 3, 3), threes_merge) == ((6, 6, 0, 0), 12, True)


def test_non_power_of_two_values_and_big_boards() -> None:
    config = GameConfig(
        board_size=7,
        initial_seed=5,
        number_of_initial_tiles=10,
        tile_value_distribution=[(3, 1), (5, 1)],
    )
    state = create_game(config)
    assert state.tiles_placed_count == 10
    assert {v for row in state.board for v in row} <= {0, 3, 5}
    state, _ = replay(config, parse_moves("LRUD" * 20))
    assert all(v == 0 or v % 3 == 0 or v % 5 == 0 for row in state.board for v in row)


def test_parse_moves() -> None:
    assert parse_moves("LLRU") == ("left", "left", "right", "up")
    assert parse_moves(" l, r d\nu ") == ("left", "right", "down", "up")
    assert parse_moves("left,UP down") == ("left", "up", "down")
    assert parse_moves("") == ()
    with pytest.raises(ValueError, match="column 3"):
        parse_moves("LLX")


def test_internal_state_builder_matches_the_dataclass():
    """move() builds states without __init__; it must set exactly the dataclass's fields."""
    import dataclasses

    from core.game2048 import GameConfig, GameState, create_game, move
    from core.game2048.state import _new_state

    state = move(create_game(GameConfig(initial_seed=7)), "left")
    if state.move_count == 0:
        state = move(state, "right")
    values = {f.name: getattr(state, f.name) for f in dataclasses.fields(GameState)}
    built = _new_state(**values)
    assert set(vars(built)) == set(values)
    assert built == GameState(**values) and hash(built) == hash(GameState(**values))


def test_replay_session_ends_a_game_dealt_dead_where_the_seed_replay_waits() -> None:
    """A 2×2 board dealt four tiles is sometimes dealt with no move at all (no two equal
    neighbours): the session's replay (the app's and the CLI's) says over at once; the seed's
    replay leaves ``is_game_over`` false until a move is tried (seed 004 §4). Live deals agree."""
    from core.game2048.game import replay_session

    dead = live = 0
    for seed in range(200):
        config = GameConfig(board_size=2, initial_seed=seed, number_of_initial_tiles=4)
        start = create_game(config)
        b = start.board
        mergeable = b[0][0] in (b[0][1], b[1][0]) or b[1][1] in (b[0][1], b[1][0])
        session, applied = replay_session(config, ())
        assert applied == 0 and session.board == b
        assert session.is_game_over is (not mergeable)
        assert replay(config, ())[0].is_game_over is False
        dead += not mergeable
        live += mergeable
        if mergeable:
            assert replay_session(config, ("left", "up")) == replay(config, ("left", "up"))
    assert dead and live  # both kinds were dealt
