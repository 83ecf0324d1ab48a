"""2048's level generator: a new game is a level made from a seed and the player's settings."""

from __future__ import annotations

from dataclasses import dataclass

from .level import Level
from .merge import MERGE_PRESETS
from .state import GameConfig

__all__ = ["GENERATORS", "NewGame"]


@dataclass(frozen=True, slots=True)
class NewGame:
    """New games of a given size and merge rule; the seed picks the tiles."""

    title: str = "New game"
    """Shown in the level select."""
    description: str = "a new game with your settings (size, rule)"
    """One line for the level select."""

    def generate(self, seed: int, size: int = 4, rule: str = "standard") -> Level:
        """The game of ``seed`` with the given size and merge rule.

        Raises:
            ValueError: For a size or rule the configuration does not accept.
        """
        if rule not in MERGE_PRESETS:
            raise ValueError(f"unknown merge rule {rule!r}")
        config = GameConfig.for_preset(rule, board_size=int(size), initial_seed=int(seed))
        return Level(f"{size}×{size} {rule}, seed {seed}", config)


GENERATORS = {"new": NewGame()}
"""The generators of 2048 (the registry's ``generators`` reference)."""
