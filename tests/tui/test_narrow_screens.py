"""At 80x24 nothing the player needs is cut (issue 30 item 8): level-list entries, source
descriptions and the leaderboard's header wrap instead."""

from __future__ import annotations

import pytest

from tests.tui.helpers import fixed_registry, wait_until
from tui.app import ArcadeApp
from tui.launch import launcher_for
from tui.screens.leaderboard import LeaderboardScreen
from tui.screens.level_select import LevelSelectScreen
from tui.sources import GeneratorSource

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def words(text: str) -> str:
    """``text`` with its whitespace (line breaks, no-break spaces) made single spaces."""
    return " ".join(text.replace("\u00a0", " ").split())


def shown(app: ArcadeApp, widget) -> str:
    """What the screen shows over ``widget``, its lines joined, its border left out."""
    region = widget.region
    strips = app.screen._compositor.render_strips()
    lines = [
        strips[y].crop(region.x + 1, region.right - 1).text for y in range(region.y, region.bottom)
    ]
    return words(" ".join(line.strip("▊▎▔▁ ") for line in lines))


async def test_a_long_level_title_is_shown_whole_in_the_level_list() -> None:
    from tui.ids import resolve_id
    from tui.sources import level_to_text

    title = "A very long title for my own level that does not fit on one line at all"
    level = resolve_id("longcat:arduboy/2").level
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        made = app.store.add_my_level("longcat", title, level_to_text("longcat", level))
        assert made is not None
        select = LevelSelectScreen(launcher_for(app, "longcat"))
        app.push_screen(select)
        await wait_until(pilot, lambda: bool(app.screen is select and select._sources), "levels")
        mine = [source.kind for source in select._sources].index("mine")
        select.query_one("#packs").highlighted = mine
        await wait_until(pilot, lambda: select.query_one("#levels").option_count == 1, "mine")
        await pilot.pause()
        assert title in shown(app, select.query_one("#levels"))


async def test_every_source_description_is_shown_whole() -> None:
    app = ArcadeApp()
    async with app.run_test(size=(80, 60)) as pilot:  # tall: every source is on screen
        launcher = launcher_for(app, "longcat")
        select = LevelSelectScreen(launcher)
        app.push_screen(select)
        await wait_until(pilot, lambda: bool(app.screen is select and select._sources), "levels")
        await pilot.pause()
        text = shown(app, select.query_one("#packs"))
        descriptions = [
            source.generator.description
            for source in launcher.sources.all()
            if isinstance(source, GeneratorSource) and source.generator is not None
        ]
        assert any(len(d) > 40 for d in descriptions)  # longer than the old cut
        for description in descriptions:
            assert words(description) in text


async def test_the_leaderboard_header_shows_every_game_and_its_keys_whole() -> None:
    from core import registry

    with fixed_registry():
        app = ArcadeApp()
        async with app.run_test(size=SIZE) as pilot:
            app.push_screen(LeaderboardScreen("longcat"))
            await wait_until(pilot, lambda: isinstance(app.screen, LeaderboardScreen), "boards")
            await pilot.pause()
            text = shown(app, app.screen.query_one("#lb-title"))
            for info in registry.games():
                assert f" {info.title} " in f" {text} "
            assert text.endswith("←/→ games · a: autoplayed games")
