"""The command palette (ctrl+p): the arcade's own commands, and a theme kept across starts."""

from __future__ import annotations

import pytest

from core import registry
from tests.tui.helpers import palette_found, wait_until
from tui.app import THEME_SETTING, ArcadeApp
from tui.commands import ArcadeCommands
from tui.games.game2048.screen import SETTINGS_KEY, Game2048Screen
from tui.games.game2048.settings_modal import Settings2048, Settings2048Modal
from tui.modals.text_view import TextModal
from tui.screens.home import HomeScreen
from tui.screens.leaderboard import LeaderboardScreen
from tui.screens.level_select import LevelSelectScreen

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


async def hits(app: ArcadeApp, query: str) -> dict[str, object]:
    """The provider's answers to ``query`` (``""``: what it offers before typing)."""
    provider = ArcadeCommands(app.screen)
    found = provider.search(query) if query else provider.discover()
    return {str(getattr(hit, "text", None) or hit.display): hit.command async for hit in found}


async def test_the_palette_offers_the_arcades_commands_by_typing() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Levels of Longcat")
        await palette_found(pilot, "Levels of Longcat")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelSelectScreen), "levels")
        screen = app.screen
        assert isinstance(screen, LevelSelectScreen) and screen.game_id == "longcat"


async def test_every_game_leaderboards_settings_keymap_and_help_are_offered() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        offered = await hits(app, "")
        for info in registry.games():
            if info.playable:
                assert f"Play {info.title}" in offered and f"Levels of {info.title}" in offered
        for title in (
            "Leaderboards",
            "Settings: 2048",
            "Settings: Longcat",
            "Keymap",
            "Help",
            "New 2048 game",
        ):
            assert title in offered, title
        offered["Leaderboards"]()
        await pilot.pause()
        assert isinstance(app.screen, LeaderboardScreen)
        offered["Keymap"]()
        await pilot.pause()
        assert isinstance(app.screen, TextModal) and "app.help" in app.screen.body.plain
        offered["Settings: 2048"]()  # from any screen: the game's dialog, stored on apply
        await pilot.pause()
        assert isinstance(app.screen, Settings2048Modal)
        app.screen.dismiss(Settings2048(board_size=5, merge="standard", animate=False))
        await pilot.pause()
        assert Settings2048.from_dict(app.store.get_setting(SETTINGS_KEY, None)).board_size == 5


async def test_a_seeded_new_game_from_the_palette() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        offered = await hits(app, "2048 42")
        assert "New 2048 game, seed 42" in offered
        assert not any("Longcat" in title and "seed" in title for title in offered)
        offered["New 2048 game, seed 42"]()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, Game2048Screen) and screen.ref.key == "42"
        # The same seed again resumes that seed's saved game: nothing is discarded.
        await pilot.press("left", "up", "right")
        played = screen.state
        (await hits(app, "2048 42"))["New 2048 game, seed 42"]()
        await pilot.pause()
        assert app.screen.state == played
        assert sum(isinstance(s, Game2048Screen) for s in app.screen_stack) == 1
        offered = await hits(app, "Play Triangle")
        offered["Play Triangle Carving"]()  # leaves the game (saved) for another one
        await pilot.pause()
        assert isinstance(app.screen_stack[0], HomeScreen)
        assert not any(isinstance(s, Game2048Screen) for s in app.screen_stack)
        assert app.store.load_game("2048", screen.ref.slot) is not None


async def test_a_theme_picked_in_the_palette_is_kept_across_restarts() -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme != "nord"
        app.theme = "nord"  # what the palette's "Change theme" does
        await pilot.pause()
        assert app.store.get_setting(THEME_SETTING, None) == "nord"
    again = ArcadeApp()
    async with again.run_test(size=SIZE) as pilot:
        assert again.theme == "nord"


async def palette_titles(pilot) -> list[str]:
    """Open the palette on the current screen and read its whole list, in order."""
    from textual.command import CommandList, CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_until(pilot, lambda: isinstance(app.screen, CommandPalette), "the palette")
    palette = app.screen

    def settled() -> bool:
        lists = palette.query(CommandList)
        return bool(lists) and lists.first().option_count > 0 and not palette.workers._workers

    await wait_until(pilot, settled, "the palette's list")
    listing = palette.query_one(CommandList)
    titles = [
        str(getattr(option.prompt, "plain", option.prompt)).split("\n")[0]
        for option in listing.options
    ]
    await pilot.press("escape")
    await wait_until(pilot, lambda: not isinstance(app.screen, CommandPalette), "closed")
    return titles


async def test_the_palette_lists_each_action_once_the_arcades_own_first() -> None:
    # Issue 30: "Quit", "Help" and "Leaderboards" were listed twice each, mixed with generic
    # scroll and page commands, in an order that depended on which provider answered first.
    from tests.tui.helpers import open_level
    from tui.ids import resolve_id
    from tui.launch import launcher_for

    own = ["Play Longcat", "Levels of Longcat", "Game ID / seed…", "Leaderboards", "Keymap"]
    generic = ("Scroll", "Page", "Copy selected text", "palette", "Focus", "Cursor")
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        seen: dict[str, list[str]] = {}
        seen["home"] = await palette_titles(pilot)
        app.push_screen(LevelSelectScreen(launcher_for(app, "longcat")))
        await wait_until(pilot, lambda: isinstance(app.screen, LevelSelectScreen), "levels")
        seen["levels"] = await palette_titles(pilot)
        level = resolve_id("longcat:arduboy/3").level
        await open_level(pilot, "longcat", level)
        seen["game"] = await palette_titles(pilot)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "help")
        seen["help"] = await palette_titles(pilot)
    for where, titles in seen.items():
        assert len(titles) == len(set(titles)), (where, titles)
        for title in ("Quit", "Help", "Leaderboards"):
            assert titles.count(title) == 1, (where, title)
        assert not [t for t in titles if t.startswith(generic)], (where, titles)
        # The arcade's own commands come first, before the first screen or Textual entry.
        first_other = min(titles.index(t) for t in ("Quit", "Theme", "Keys"))
        assert all(titles.index(t) < first_other for t in own), (where, titles)
    assert {"Undo", "Restart", "Back"} <= set(seen["game"])  # the screen's actions stay
    assert "Game ID" not in seen["game"]  # the same action as "Game ID / seed…"
