"""2048 engine: seed 004's functional API in snake_case.

Pure functions over immutable values; the PRNG seed travels in the state, so a game is
replayable from its configuration and moves::

    from core.game2048 import GameConfig, create_game, move

    state = create_game(GameConfig(board_size=4, initial_seed=42))
    nxt = move(state, "left")
    if nxt is not state:          # the same object comes back when nothing moved
        state = nxt

Modules: :mod:`.merge` (merge rules and presets), :mod:`.board` (slide/merge/moves/checks),
:mod:`.state` (config, state, tile placement, move, replay). The expectimax hint lives in
:mod:`.ai` and is imported lazily by :func:`hint`; :mod:`.design` is the level editor's
verdict (the rule's tile values, a level's start, an autoplay estimate).
"""

from __future__ import annotations

from typing import Any

from core.game2048.board import (
    DIRECTIONS,
    Board,
    Cell,
    LineResult,
    MoveOutcome,
    Row,
    calculate_is_game_over,
    can_any_cell_move,
    empty_board,
    execute_move_on_board,
    execute_move_on_board_marked,
    get_empty_cells,
    make_board,
    max_tile,
    merge_line,
    process_line,
    reverse_items,
    slide,
    transpose,
    validate_direction,
)
from core.game2048.merge import (
    MERGE_PRESETS,
    PRESET_DEFAULTS,
    MergeLogic,
    MergeResult,
    UnsavableMergeLogic,
    fibonacci_merge,
    is_fibonacci,
    merge_logic_name,
    merge_preset_names,
    preset_name_of,
    register_merge_preset,
    resolve_merge_logic,
    standard_merge,
    threes_merge,
)
from core.game2048.rng import prng_next
from core.game2048.state import (
    CUSTOM_RULE,
    DEFAULT_DISTRIBUTION,
    Distribution,
    GameConfig,
    GameState,
    MoveInfo,
    PlacementResult,
    TileWeight,
    board_from_rows,
    check_if_game_over,
    create_game,
    get_board,
    get_score,
    has_won,
    legal_moves,
    move,
    normalize_distribution,
    parse_moves,
    place_new_tile,
    replay,
    replay_from,
    select_weighted_value,
    state_from_board,
)


def hint(state: GameState, **kwargs: Any) -> str | None:
    """Suggest a direction for ``state`` (expectimax search in :mod:`core.game2048.ai`).

    The AI module is imported on first call so that the rest of the engine does not depend
    on it.

    Args:
        state: The position.
        **kwargs: Passed to :func:`core.game2048.ai.hint` (search depth, time limit, ...).

    Returns:
        A direction, or ``None`` when no move changes the board.
    """
    from core.game2048 import ai

    return ai.hint(state, **kwargs)


__all__ = [
    "CUSTOM_RULE",
    "DEFAULT_DISTRIBUTION",
    "DIRECTIONS",
    "MERGE_PRESETS",
    "PRESET_DEFAULTS",
    "Board",
    "Cell",
    "Distribution",
    "GameConfig",
    "GameState",
    "LineResult",
    "MergeLogic",
    "MergeResult",
    "MoveInfo",
    "MoveOutcome",
    "PlacementResult",
    "Row",
    "TileWeight",
    "UnsavableMergeLogic",
    "board_from_rows",
    "calculate_is_game_over",
    "can_any_cell_move",
    "check_if_game_over",
    "create_game",
    "empty_board",
    "execute_move_on_board",
    "execute_move_on_board_marked",
    "fibonacci_merge",
    "get_board",
    "get_empty_cells",
    "get_score",
    "has_won",
    "hint",
    "is_fibonacci",
    "legal_moves",
    "make_board",
    "max_tile",
    "merge_line",
    "merge_logic_name",
    "merge_preset_names",
    "move",
    "normalize_distribution",
    "parse_moves",
    "place_new_tile",
    "preset_name_of",
    "prng_next",
    "process_line",
    "register_merge_preset",
    "replay",
    "replay_from",
    "resolve_merge_logic",
    "reverse_items",
    "select_weighted_value",
    "slide",
    "standard_merge",
    "state_from_board",
    "threes_merge",
    "transpose",
    "validate_direction",
]
