"""Shared checks of the :class:`core.game.Game` protocol, in the spirit of OpenSpiel's
``games_sim_test``: seeded random playouts that check the contract on every step.

Used by ``tests/test_games_protocol.py`` for every registered game, and callable from a
game's own tests (``check_game(GAME, level)``) before the game is registered.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from core.game import STATUSES, Game, IllegalMove, replay_moves

__all__ = ["check_game", "playout"]


def _round_trip(value: Any) -> Any:
    """Send a JSON-safe value through real JSON text (proves it is JSON-safe)."""
    return json.loads(json.dumps(value))


def playout(game: Game, level: Any, seed: int, max_moves: int = 200) -> tuple[Any, list[Any]]:
    """Play uniformly random offered moves from the level's start, checking every step.

    Checks: every offered move passes ``check`` and ``apply``; ``apply`` leaves its input
    unchanged (compared through the state codec); move and state codecs round-trip through
    JSON text; the status is one of the three; a finished state offers no move.

    Args:
        game: The engine.
        level: A level (or configuration) of the game.
        seed: Seed of the move choices.
        max_moves: Stop after this many moves.

    Returns:
        The final state and the moves played, as JSON values.
    """
    rng = random.Random(seed)
    state = game.initial(level)
    played: list[Any] = []
    while len(played) < max_moves:
        assert game.status(state) in STATUSES
        offered: Sequence[Any] = list(game.moves(state))
        if game.finished(state):
            assert not offered, "a finished state must offer no move"
            break
        if not offered:
            break
        move = rng.choice(offered)
        before = game.state_to_json(state)
        game.check(state, move)
        nxt = game.apply(state, move)
        assert game.state_to_json(state) == before, "apply must not mutate its input"
        data = _round_trip(game.move_to_json(move))
        assert game.move_from_json(state, data) == move, "move codec round trip"
        saved = _round_trip(game.state_to_json(nxt))
        assert game.state_from_json(saved) == nxt, "state codec round trip"
        assert isinstance(game.describe_move(state, move), str)
        played.append(data)
        state = nxt
    return state, played


def check_game(
    game: Game, level: Any, seeds: Sequence[int] = (0, 1, 2), max_moves: int = 200
) -> None:
    """Run seeded playouts of ``level`` and check that replaying their moves is exact.

    Args:
        game: The engine.
        level: A level (or configuration) of the game.
        seeds: One playout per seed.
        max_moves: Length cap of each playout.
    """
    assert isinstance(game, Game), "the engine must provide every method of core.game.Game"
    assert isinstance(game.id, str) and game.move_kinds
    start = game.initial(level)
    assert game.initial(level) == start, "initial() must be deterministic"
    for seed in seeds:
        final, moves = playout(game, level, seed, max_moves)
        assert replay_moves(game, start, moves) == final, (
            "replaying the moves must reproduce the game"
        )
        # A move list that ends in an illegal move is refused with IllegalMove, not a crash.
        if moves and game.finished(final):
            try:
                replay_moves(game, start, moves + [moves[-1]])
            except IllegalMove:
                pass
            except ValueError:
                pass
            else:
                raise AssertionError("a move after the end of the game must be refused")
