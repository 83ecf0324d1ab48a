"""Enter in the level select opens the level the player expects (issue 30 item 7): on a
source it moves to its levels with the game in progress highlighted, and coming back from a
generated game highlights that game, not "New level"."""

from __future__ import annotations

import pytest

from core.longcat.solver import shortest_solution
from tests.tui.helpers import wait_until
from tui.app import ArcadeApp
from tui.games.longcat.settings_modal import SETTINGS_KEY, LongcatSettings
from tui.ids import resolve_id
from tui.launch import launcher_for
from tui.screens.level_select import LevelSelectScreen
from tui.screens.puzzle import PuzzleScreen

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def highlighted_ref(select: LevelSelectScreen):
    """The ref of the level the level list highlights (None: "New level" or a note)."""
    row = select.query_one("#levels").highlighted
    entry = select._entries[row] if row is not None and row < len(select._entries) else None
    return entry.ref if entry is not None else None


async def test_enter_on_a_source_highlights_its_game_in_progress_and_enter_resumes_it() -> None:
    resolved = resolve_id("longcat:arduboy/3")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.store.set_setting(SETTINGS_KEY, LongcatSettings(animate=False).to_dict())
        launcher = launcher_for(app, "longcat")
        select = LevelSelectScreen(launcher)
        app.push_screen(select)
        await wait_until(pilot, lambda: app.screen is select, "the level select")
        launcher.open(resolved.ref)
        await wait_until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the game")
        game = app.screen
        await pilot.press(shortest_solution(resolved.level).moves[0])
        await wait_until(pilot, lambda: game.session.moves_made == 1, "the move")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is select, "back to the levels")
        # To the sources, onto another source and back onto the pack: its level 1 is
        # highlighted while browsing; enter on the pack goes to level 3, in progress.
        pack = [source.id for source in select._sources].index(resolved.ref.source)
        await pilot.press("left")
        select.query_one("#packs").highlighted = pack + 1
        await pilot.pause()
        select.query_one("#packs").highlighted = pack
        await pilot.pause()
        assert app.focused is select.query_one("#packs")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.focused is select.query_one("#levels"), "levels")
        assert highlighted_ref(select) == resolved.ref
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the game again")
        again = app.screen
        assert again.ref == resolved.ref and again.session.moves_made == 1  # resumed


async def test_back_from_a_2048_game_enter_resumes_it_rather_than_a_new_game() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        app.start_game("2048")  # no game in progress: a new one opens over the level select
        await wait_until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "a 2048 game")
        game = app.screen
        for key in ("left", "up", "right", "down", "left", "up"):
            await pilot.press(key)
        await wait_until(pilot, lambda: game.session.moves_made > 0, "a move")
        moves, ref = game.session.moves_made, game.ref
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelSelectScreen), "the levels")
        select = app.screen
        assert isinstance(select, LevelSelectScreen)
        assert highlighted_ref(select) == ref  # not "+ New level"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PuzzleScreen), "the game again")
        assert app.screen.ref == ref and app.screen.session.moves_made == moves
