"""The designer's bench: every game's level editor, through the shared base.

For every registered game with an editor: ``E`` opens it on the level being played (not the
game in progress), a broken level shows the loader's message with a caret, closing with
unsaved edits asks, Save keeps the level in My levels, and Play plays the saved level. The
per-game editors' own parts (a painted grid, a live verdict) have their own tests.
"""

from __future__ import annotations

import pytest
from textual.widgets import TextArea

from core import registry
from grammar.levels import dump_level
from tests.tui.helpers import open_level
from tests.tui.test_games_together import first_level
from tui.app import ArcadeApp
from tui.modals.confirm import ConfirmModal
from tui.screens.designer import DesignerScreen, LevelTextDesigner

pytestmark = pytest.mark.pilot

SIZE = (80, 24)

EDITORS = [info.id for info in registry.games() if info.editor is not None]


def test_every_playable_game_has_a_bench() -> None:
    playable = [info.id for info in registry.games() if info.playable]
    assert playable == EDITORS


async def _open_bench(pilot, game_id: str):
    app = pilot.app
    level = first_level(app, game_id)
    screen = await open_level(pilot, game_id, level)
    await pilot.press("E")
    await pilot.pause()
    bench = app.screen
    assert isinstance(bench, DesignerScreen), game_id
    assert game_id == bench.info.id == bench.game_id == bench.help_topic
    return screen, bench, level


@pytest.mark.parametrize("game_id", EDITORS)
async def test_the_bench_opens_on_the_level_and_closes_without_asking(game_id: str) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen, bench, level = await _open_bench(pilot, game_id)
        assert not bench.edited
        assert bench.read_level() == level
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen


@pytest.mark.parametrize(
    "game_id", [g for g in EDITORS if issubclass(registry.get(g).load("editor"), LevelTextDesigner)]
)
async def test_a_broken_level_shows_a_caret_and_ctrl_z_mends_it(game_id: str) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        _screen, bench, level = await _open_bench(pilot, game_id)
        area = bench.query_one("#dev-level-text", TextArea)
        area.focus()
        area.move_cursor((1, 0))
        await pilot.press("end", "@", "@")
        await pilot.pause()
        assert bench.read_level(quiet=True) is None
        assert "^" in bench.error_text and "<editor>:2:" in bench.error_text
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert bench.read_level() == level
        assert bench.error_text == ""


@pytest.mark.parametrize("game_id", EDITORS)
async def test_unsaved_edits_ask_before_closing_then_save_and_play(game_id: str) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen, bench, level = await _open_bench(pilot, game_id)
        title = "Bench test level"
        if isinstance(bench, LevelTextDesigner):
            text = dump_level(level, game_id).replace(level.title, title, 1)
            bench.text_area.text = text
        else:
            from textual.widgets import Input

            bench.query_one("#dev-title-input", Input).value = title
        await pilot.pause()
        assert bench.edited
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmModal)
        await pilot.press("n")  # keep editing
        await pilot.pause()
        assert app.screen is bench
        await pilot.press("f2")  # save in My levels, then play it
        await pilot.pause()
        assert app.screen is screen
        assert screen.level_title == title
        assert screen.ref is not None and screen.ref.source == "mine"
        mine = app.store.my_levels(game_id)
        assert [item.title for item in mine] == [title]
        # ... and it travels as a custom ID, which names the very same level
        from tui.ids import level_id, resolve_id

        shared = level_id(game_id, None, screen.level)
        assert shared.startswith(f"{game_id}:L")
        assert resolve_id(shared).level == screen.level
