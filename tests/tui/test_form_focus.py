"""Forms show where the focus is and keep their text when it arrives (issue 30 item 5):
a field reached with Tab keeps its text (the first key typed replaced a title), and every
focusable widget of a bench or a dialog looks different focused, colours left out (16-colour
and NO_COLOR terminals)."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from core import registry
from tests.tui.focus_marks import unmarked
from tests.tui.helpers import open_level, wait_until
from tests.tui.test_games_together import first_level
from tui.app import ArcadeApp
from tui.modals.level_id import LevelIdModal
from tui.screens.designer import DesignerScreen

pytestmark = pytest.mark.pilot

SIZE = (120, 40)
EDITORS = [info.id for info in registry.games() if info.editor is not None]


async def open_bench(pilot, game_id: str) -> DesignerScreen:
    """The game's bench on its first level."""
    app = pilot.app
    await open_level(pilot, game_id, first_level(app, game_id))
    await pilot.press("E")
    await wait_until(pilot, lambda: isinstance(app.screen, DesignerScreen), "the bench")
    assert isinstance(app.screen, DesignerScreen)
    return app.screen


async def test_a_field_reached_with_tab_keeps_its_text_and_the_key_typed_adds_to_it() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, "termcraft")
        title = bench.query_one("#dev-title-input", Input)
        before = title.value
        assert before  # the level's title
        bench.query_one("#dev-play-button").focus()
        await pilot.pause()
        while app.focused is not title:  # Tab round to the title, as a player does
            await pilot.press("tab")
        await pilot.press("X")
        assert title.value == before + "X"  # not "X": the title was selected on focus


async def test_the_id_box_keeps_what_was_typed_when_tab_comes_back() -> None:
    app = ArcadeApp(start_id="longcat:arduboy/3")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "LongcatScreen", "game")
        await pilot.press("I")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelIdModal), "the ID dialog")
        box = app.screen.query_one("#level-id-input", Input)
        await pilot.press(*"longcat:")
        await pilot.press("tab")
        while app.focused is not box:
            await pilot.press("tab")
        await pilot.press(*"arduboy/4")
        assert box.value == "longcat:arduboy/4"


@pytest.mark.slow
@pytest.mark.parametrize("game_id", EDITORS)
async def test_every_focusable_widget_of_a_bench_shows_the_focus_without_colour(
    game_id: str,
) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        bench = await open_bench(pilot, game_id)
        widgets = [w for w in bench.query("*") if w.focusable and w.region.area]
        assert len(widgets) >= 5
        first = await unmarked(pilot, widgets[1:], widgets[0])
        rest = await unmarked(pilot, widgets[:1], widgets[1])
        assert first + rest == [], game_id


async def test_every_focusable_widget_of_the_id_dialog_shows_the_focus_without_colour() -> None:
    from tui.ids import level_id, resolve_id

    custom = level_id("carving", None, resolve_id("carving:tutorial/1").level)
    app = ArcadeApp(start_id=custom)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: app.screen.__class__.__name__ == "CarvingScreen", "game")
        await pilot.press("I")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelIdModal), "the ID dialog")
        widgets = [w for w in app.screen.query("*") if w.focusable and w.region.area]
        names = sorted(type(w).__name__ for w in widgets)
        assert names == ["Button", "Button", "Button", "Input", "TextArea"]
        assert await unmarked(pilot, widgets[1:], widgets[0]) == []
        assert await unmarked(pilot, widgets[:1], widgets[1]) == []
