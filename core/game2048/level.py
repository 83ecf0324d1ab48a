"""A 2048 level: a configuration (size, rule, seed, ...) and optionally a starting board.

New games are levels too (made by :data:`core.game2048.generators.GENERATORS` from a seed), so
2048 goes through the same seam as every other game: level files, saves, the level select.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .board import Board, make_board
from .state import GameConfig

__all__ = ["Level"]


@dataclass(frozen=True, slots=True)
class Level:
    """A 2048 game to play.

    Attributes:
        title: Shown in level lists.
        config: Size, merge rule, seed, initial tiles, spawn distribution, goal.
        board: A starting board (a 2048 puzzle), or None for the usual random start.
        description: Flavour / explanation text.
        hint: The tip shown on ``t`` before the AI's suggestion.
        author: Who made the level.
    """

    title: str
    """Shown in level lists."""
    config: GameConfig
    """The game's configuration (its seed included)."""
    board: Optional[Board] = None
    """A starting board, or None."""
    description: str = ""
    """Flavour / explanation text."""
    hint: str = ""
    """The tip shown on ``t``."""
    author: str = ""
    """Who made the level."""

    def __post_init__(self) -> None:
        if not isinstance(self.config, GameConfig):
            raise TypeError("Level.config must be a GameConfig")
        if self.board is not None:
            board = make_board(self.board)
            if len(board) != self.config.board_size:
                raise ValueError(f"the board is {len(board)}×{len(board)} but the size is "
                                 f"{self.config.board_size}")
            object.__setattr__(self, "board", board)
