"""Helpers for Pilot tests of game screens: open a level on a screen the way the app does."""

from __future__ import annotations

from typing import Any

from core import registry
from core.session import Session
from tui.launch import launcher_for
from tui.sources import LevelRef


def home_row(game_id: str) -> int:
    """The game's row on the home screen (registry order), counted from 0."""
    return [info.id for info in registry.games()].index(game_id)


async def open_level(
    pilot: Any, game_id: str, level: Any, ref: LevelRef | None = None, state: Any = None
) -> Any:
    """Push ``game_id``'s screen on ``level`` (a new game, or from ``state``).

    Args:
        pilot: The Textual pilot.
        game_id: A registered game id.
        level: The level to play.
        ref: Its save slot (default: a test source named after the level's title).
        state: Start from this state instead of the level's initial one.

    Returns:
        The screen.
    """
    app = pilot.app
    launcher = launcher_for(app, game_id)
    ref = ref or LevelRef("test", getattr(level, "title", "level"))
    start = state if state is not None else launcher.game.initial(level)
    screen = launcher.screen_class(
        Session.begin(launcher.game, start), level=level, ref=ref, launcher=launcher
    )
    app.push_screen(screen)
    await pilot.pause()
    return screen
