"""The games of the arcade: ids, titles, taglines and how to start each one.

Pure data plus a lazy loader, so the CLI can list games without importing Textual. A game's
``starter`` names a function ``start(app)`` as ``"module:function"``; the function pushes the
game's first screen (usually a level select). ``starter=None`` means "coming soon".
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

__all__ = ["GAMES", "GameEntry", "StarterError", "get_game", "load_starter"]


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game on the home screen."""

    id: str
    """Game id: CLI sub-command, level-file ``game`` field, help file name."""
    title: str
    """Name shown to players."""
    tagline: str
    """One line saying what the game is about."""
    starter: str | None
    """``"module:function"`` of the game's ``start(app)``, or None while it is not playable."""

    @property
    def playable(self) -> bool:
        """True when the game has a starter."""
        return self.starter is not None


GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        "termcraft",
        "TermCraft",
        "Rewrite terms with rules and axioms until they match the target.",
        "tui.screens.termcraft:start",
    ),
    GameEntry(
        "2048",
        "2048",
        "Slide and merge tiles; seeded, undoable, with an expectimax hint.",
        "tui.screens.game2048:start",
    ),
    GameEntry(
        "carving",
        "Triangle Carving",
        "Carve paths through a typed hypergraph to uncover the target shape.",
        None,
    ),
    GameEntry(
        "algebrawl",
        "Algebrawl",
        "Combine numbers with operator cards to strike every target value.",
        None,
    ),
    GameEntry(
        "longcat",
        "Longcat",
        "Slide the cat until it fills every empty cell of the grid.",
        None,
    ),
)
"""All games, in home-screen order."""


class StarterError(Exception):
    """A game's starter could not be loaded (missing module, bad name, import failure)."""


def get_game(game_id: str) -> GameEntry | None:
    """Return the game with this id, or None."""
    for entry in GAMES:
        if entry.id == game_id:
            return entry
    return None


def load_starter(entry: GameEntry) -> Callable[[Any], Any]:
    """Import and return a game's ``start(app)`` function.

    Args:
        entry: A playable game.

    Returns:
        The start function.

    Raises:
        StarterError: If the game is not playable or its starter cannot be imported; the
            message is meant for the player (the app shows it as a notification).
    """
    if entry.starter is None:
        raise StarterError(f"{entry.title} is coming soon.")
    module_name, _, function_name = entry.starter.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:  # Any import-time failure must not crash the arcade.
        raise StarterError(
            f"{entry.title} could not be loaded ({type(error).__name__}: {error})."
        ) from error
    start = getattr(module, function_name or "start", None)
    if not callable(start):
        raise StarterError(f"{entry.title} could not be loaded (no {entry.starter}).")
    return start
