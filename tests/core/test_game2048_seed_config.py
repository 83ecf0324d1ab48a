"""Seed 004's createGame and GameConfig.mergeLogic, exactly (issue 21).

* ``createGame`` sets ``isGameOver`` to false (§4); the first move or ``checkIfGameOver``
  decides. The app still shows a board dealt dead as over at once: the session layer
  (:func:`core.game2048.game.start_game`) checks it.
* ``mergeLogic`` is any function (§3.1): a custom one plays, replays and gets hints through
  the general AI path; a save says cleanly that it cannot store it unless it is a
  registered preset.
"""

from __future__ import annotations

import json
from itertools import product

import pytest
from click.testing import CliRunner

import core.game2048 as g
from core.game2048 import (
    DIRECTIONS,
    GameConfig,
    GameState,
    MergeResult,
    UnsavableMergeLogic,
    ai,
    check_if_game_over,
    create_game,
    legal_moves,
    move,
    process_line,
    register_merge_preset,
    replay,
)
from core.game2048.game import GAME, start_game
from tui.games.game2048.cli import game2048


def _dead(board) -> bool:
    """Independent reference: full, and no two orthogonal neighbours equal (standard rule)."""
    n = len(board)
    if any(v == 0 for row in board for v in row):
        return False
    for r, c in product(range(n), repeat=2):
        if c + 1 < n and board[r][c] == board[r][c + 1]:
            return False
        if r + 1 < n and board[r][c] == board[r + 1][c]:
            return False
    return True


def _dead_deal_seed() -> int:
    """The first seed that deals four unmergeable tiles on a 2x2 board (found by search)."""
    for seed in range(10_000):
        config = GameConfig(board_size=2, initial_seed=seed, number_of_initial_tiles=4)
        if _dead(create_game(config).board):
            return seed
    raise AssertionError("no dead deal among the first 10,000 seeds")


# ---------------------------------------------------------------------------
# createGame: isGameOver is false at creation.
# ---------------------------------------------------------------------------


def test_create_game_sets_is_game_over_false_even_on_a_dead_deal() -> None:
    seed = _dead_deal_seed()
    config = GameConfig(board_size=2, initial_seed=seed, number_of_initial_tiles=4)
    state = create_game(config)
    assert _dead(state.board)
    assert state.is_game_over is False  # seed §4: "isGameOver 设为 false"
    assert check_if_game_over(state) is True  # the independent check sees it
    for direction in DIRECTIONS:  # no move changes the board: move returns the same object
        assert move(state, direction) is state
    assert legal_moves(state) == ()


def test_the_session_layer_flags_a_dead_deal_at_start() -> None:
    seed = _dead_deal_seed()
    config = GameConfig(board_size=2, initial_seed=seed, number_of_initial_tiles=4)
    from core.game2048.level import Level

    level = Level(title="Dealt dead", config=config)  # a level file can deal it too
    for start in (start_game(config), GAME.initial(config), GAME.initial(level)):
        assert start.is_game_over is True
        assert start.board == create_game(config).board
        assert GAME.finished(start) and GAME.status(start) == "lost"
    live = GameConfig(board_size=4, initial_seed=seed)
    assert start_game(live) == create_game(live)  # a live deal is left as the seed made it


def test_cli_replay_reports_a_dead_deal_as_over() -> None:
    seed = _dead_deal_seed()
    result = CliRunner().invoke(
        game2048, ["replay", "--seed", str(seed), "--size", "2", "--tiles", "4", "--json"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game_over"] is True and data["moves_applied"] == 0


# ---------------------------------------------------------------------------
# mergeLogic: any function.
# ---------------------------------------------------------------------------


def triple(val1: int, val2: int) -> MergeResult | None:
    """Equal tiles merge into three times their value; the score is the new tile."""
    if val1 == val2 and val1:
        return MergeResult(3 * val1, 3 * val1)
    return None


def _reference_left(board, logic):
    """Independent reference of a move to the left: slide, merge each pair once, slide."""
    out, points = [], 0
    for row in board:
        tiles = [v for v in row if v]
        merged, i = [], 0
        while i < len(tiles):
            result = logic(tiles[i], tiles[i + 1]) if i + 1 < len(tiles) else None
            if result is not None:
                merged.append(result.merged_value)
                points += result.score_earned
                i += 2
            else:
                merged.append(tiles[i])
                i += 1
        out.append(tuple(merged + [0] * (len(row) - len(merged))))
    return tuple(out), points


def test_a_custom_function_is_accepted_and_merges_by_its_rule() -> None:
    config = GameConfig(merge_logic=triple, initial_seed=5, goal=None)
    assert config.merge_rule == g.CUSTOM_RULE and config.merge_logic is triple
    assert config.custom_merge_logic is triple
    assert process_line((3, 3, 3, 3), triple).new_row == (9, 9, 0, 0)  # 3+3 → 9, twice
    assert process_line((0, 2, 0, 2), triple).points_earned == 6
    # A preset given as a function is still stored by name (and so saveable).
    assert GameConfig(merge_logic=g.fibonacci_merge).merge_rule == "fibonacci"


def test_a_custom_game_plays_by_its_rule_and_replays_deterministically() -> None:
    config = GameConfig(
        merge_logic=triple, initial_seed=11, tile_value_distribution=[(3, 1)], goal=None
    )
    state = create_game(config)
    moves = []
    for step in range(40):
        options = legal_moves(state)
        if not options:
            break
        direction = options[step % len(options)]
        nxt = move(state, direction)
        if direction == "left":
            expected, points = _reference_left(state.board, triple)
            spawned = nxt.last_move.new_tile_position
            board = [list(r) for r in nxt.board]
            if spawned is not None:
                board[spawned.r][spawned.c] = 0
            assert tuple(map(tuple, board)) == expected
            assert nxt.score == state.score + points
        moves.append(direction)
        state = nxt
    assert any(v % 9 == 0 for row in state.board for v in row if v)  # 3+3 made 9 somewhere
    again, applied = replay(config, moves)
    assert again == state and applied == len(moves)


def test_a_custom_game_gets_a_hint_through_the_general_path() -> None:
    # Only "left" (or "right") merges the two 3s; "up"/"down" change nothing on this board.
    board = ((3, 3), (0, 0))
    config = GameConfig(board_size=2, merge_logic=triple, goal=None)
    state = g.state_from_board(board, config)
    assert not ai.is_fast_config(state.board, config)
    direction = ai.hint(state)
    assert direction in legal_moves(state)
    # A standard config on a board it can represent does take the fast path.
    assert ai.is_fast_config(((2, 0, 0, 0),) * 4, GameConfig())
    # Autoplay to the end of a small custom game stays legal at every step.
    played = list(ai.autoplay(create_game(config.with_changes(initial_seed=3)), max_moves=30))
    assert played and all(isinstance(s, GameState) for s in played)


def test_saving_a_custom_game_is_a_clean_error() -> None:
    state = create_game(GameConfig(merge_logic=triple, goal=None))
    for save in (state.to_dict, state.config.to_dict, lambda: GAME.state_to_json(state)):
        with pytest.raises(UnsavableMergeLogic, match=r"custom merge function.*cannot be saved"):
            save()
    assert issubclass(UnsavableMergeLogic, ValueError)  # callers catching ValueError see it


def test_a_level_with_a_custom_rule_is_refused_cleanly() -> None:
    from core.game2048.level import Level

    with pytest.raises(ValueError, match=r"custom merge function.*cannot be saved"):
        Level(title="custom", config=GameConfig(merge_logic=triple))


@pytest.fixture
def registered_lucas():
    """Register a Lucas-number rule (2, 1, 3, 4, 7, 11, ...) for one test, then remove it."""
    lucas = [2, 1]
    while lucas[-1] < 10**6:
        lucas.append(lucas[-1] + lucas[-2])
    lucas_set = frozenset(lucas)

    def lucas_merge(val1: int, val2: int) -> MergeResult | None:
        total = val1 + val2
        if val1 != val2 and total in lucas_set and val1 in lucas_set and val2 in lucas_set:
            return MergeResult(total, total)
        return None

    register_merge_preset("lucas", lucas_merge, distribution=((1, 1), (3, 1)), goal=199)
    yield lucas_merge
    del g.MERGE_PRESETS["lucas"], g.PRESET_DEFAULTS["lucas"]


def test_a_registered_custom_function_saves_and_loads(registered_lucas) -> None:
    config = GameConfig(merge_logic=registered_lucas, initial_seed=4)
    assert config.merge_rule == "lucas"
    state, _ = replay(config, ["left", "up", "right", "down"] * 5)
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    # A config made before registering becomes saveable once registered (found by identity).
    assert GameConfig.for_preset("lucas").goal == 199
    with pytest.raises(ValueError, match="already taken"):
        register_merge_preset("standard", registered_lucas)


def test_presets_still_round_trip() -> None:
    for name in ("standard", "fibonacci", "threes"):
        config = GameConfig.for_preset(name, initial_seed=8)
        state, _ = replay(config, ["left", "up", "right", "down"] * 6)
        data = json.loads(json.dumps(state.to_dict()))
        assert data["config"]["merge_logic"] == name
        assert GameState.from_dict(data) == state
