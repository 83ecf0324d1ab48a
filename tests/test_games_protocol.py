"""Every registered game against the Game protocol (OpenSpiel's ``games_sim_test`` idea).

The games come from the registry (the ``termarcade.games`` entry points) plus the toy game of
the tests; their levels from their bundled packs and their generators. A new game gets these
checks without writing a test: seeded random playouts where every offered move is accepted,
``apply`` never mutates its input, state and move codecs round-trip through JSON, replaying
the recorded moves reproduces the final state, and moves after the end are refused.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from core import registry
from core.game import Game
from tests.game_protocol import check_game
from tests.toycore.engine import GAME as TOY
from tests.toycore.engine import Level as ToyLevel

LEVELS_PER_PACK = 3
"""Playouts per bundled pack (its first levels)."""
GENERATED = 3
"""Generated levels per generator (seeds 1, 2, 3)."""


PATIENT_GUARD = 600.0
"""Seconds a generator may search here: a guard only a hang reaches."""


@contextmanager
def _patient_generators() -> Iterator[None]:
    """Lift Longcat's generator time guard (10 s by default) while the cases are made.

    The guard is a wall-clock bound: on a loaded machine ``pu`` 8x8 hit it during collection
    and the whole file errored, while the same seed succeeds idle. The level made does not
    depend on the guard, only whether one is found in time.
    """
    from core.longcat import catalog

    defaults = getattr(catalog.make_level, "__kwdefaults__", None) or {}
    saved = defaults.get("time_guard")
    if saved is not None:
        defaults["time_guard"] = max(saved, PATIENT_GUARD)
    try:
        yield
    finally:
        if saved is not None:
            defaults["time_guard"] = saved


def _levels(info: registry.GameInfo) -> Iterator[tuple[str, Any]]:
    if info.level_format is not None:
        from grammar.levels import bundled_packs

        for pack_id, pack in bundled_packs(info.id):
            for level in pack.levels[:LEVELS_PER_PACK]:
                yield f"{pack_id}/{level.title}", level
    if info.generators is not None:
        for name, generator in info.load("generators").items():
            for seed in range(1, GENERATED + 1):
                yield f"{name}#{seed}", generator.generate(seed)


with _patient_generators():
    CASES = [
        (info.id, label, level)
        for info in registry.games()
        for label, level in itertools.islice(_levels(info), 40)
    ]


def test_every_registered_game_has_levels_to_check() -> None:
    with_levels = {game_id for game_id, _, _ in CASES}
    assert with_levels == set(registry.ids())


@pytest.mark.parametrize("game_id, label, level", CASES, ids=[f"{g}:{lab}" for g, lab, _ in CASES])
def test_registered_game_follows_the_protocol(game_id: str, label: str, level: Any) -> None:
    game = registry.get(game_id).load("engine")  # type: ignore[union-attr]
    assert isinstance(game, Game) and game.id == game_id
    check_game(game, level, seeds=(0, 1), max_moves=150)


@pytest.mark.parametrize("row", ["21.3", "3.21", ".4321", "12."])
def test_the_toy_game_follows_the_protocol(row: str) -> None:
    check_game(TOY, ToyLevel("toy", row), seeds=(0, 1, 2))
