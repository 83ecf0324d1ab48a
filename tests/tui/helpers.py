"""Helpers for Pilot tests of game screens: open a level on a screen the way the app does."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core import registry
from core.session import Session
from tui.launch import launcher_for
from tui.sources import LevelRef

SHELL_GAMES = ("termcraft", "carving", "algebrawl", "longcat", "2048")
"""The games the shell's snapshots picture: fixed, so adding a game changes no picture."""


@contextmanager
def fixed_registry() -> Iterator[None]:
    """Pin the registry to :data:`SHELL_GAMES` (screens that list every game are snapshots)."""
    infos = [registry.get(game_id) for game_id in SHELL_GAMES]
    assert all(infos), f"a shell game is not registered: {SHELL_GAMES}"
    with registry.pinned(*(info for info in infos if info is not None)):
        yield


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
