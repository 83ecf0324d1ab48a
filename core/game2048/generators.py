"""2048's level generator: a new game is a level made from a seed and the player's settings.

Its parameters, the board size and the merge rule, are declared once (:data:`PARAMS`): the
command line's ``--size``/``--merge``, the settings dialog's fields, the stored settings and
a generated game's ID (``2048:new-5-fibonacci#7``) are derived from them (:mod:`tui.params`).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.params import Param, Params

from .level import Level
from .merge import MERGE_PRESETS
from .state import GameConfig

__all__ = ["BOARD_SIZES", "GENERATORS", "PARAMS", "RULE_LABELS", "NewGame"]

BOARD_SIZES: tuple[int, ...] = (3, 4, 5, 6, 7, 8)
"""Board sizes the settings dialog offers (the engine and the command line take 2 to 64)."""

RULE_LABELS: dict[str, str] = {
    "standard": "Standard (2+2=4)",
    "fibonacci": "Fibonacci (1+2=3, 2+3=5)",
    "threes": "Threes (1+2=3, 3+3=6)",
}
"""How the merge presets are described in the dialog."""

PARAMS = Params(
    [
        Param(
            "size",
            4,
            "Board side length (2 to 64).",
            choices=tuple((n, f"{n} × {n}") for n in BOARD_SIZES),
            low=2,
            high=64,
            what="the board size",
        ),
        Param(
            "rule",
            "standard",
            "Merge rule.",
            choices=tuple((name, RULE_LABELS.get(name, name)) for name in MERGE_PRESETS),
            flag="--merge",
        ),
    ],
    # The settings dialog stored these names before the parameters were declared once.
    renames={"board_size": "size", "merge": "rule"},
)
"""The new-game generator's parameters, in the order its ID spells them."""


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
