"""A served app runs only the actions on its allowlist (tui.allowlist), wherever they come from.

Textual's ``screenshot`` action writes an SVG wherever its arguments say: served, it is
refused through ``run_action``, through ``[@click=...]`` markup clicked on screen, and it is
not in the palette; a local app still runs it (so each refusal is the allowlist's doing, not a
broken test). Every action a game screen binds stays allowed, so no game breaks when served.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

from core import registry
from tests.tui.every_game import level_to_play
from tests.tui.helpers import open_level, palette_found, wait_until
from tui.allowlist import action_allowed, declared_actions
from tui.app import ArcadeApp
from tui.screens.designer import DesignerScreen
from tui.screens.help import HelpScreen
from tui.screens.level_select import LevelSelectScreen

pytestmark = pytest.mark.pilot

SIZE = (80, 24)


def screenshot_action(folder: Path) -> str:
    return f"app.screenshot('shot.svg', {str(folder)!r})"


def refusals(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "termarcade.tui"]


async def saved_or_refused(pilot: Any, shot: Path, served: bool) -> None:
    """Wait for the screenshot to be written (local app); when served, give a refused action
    a moment in which it could (wrongly) still write it: absence cannot be awaited."""
    if served:
        await pilot.pause(0.3)
    else:
        await wait_until(pilot, shot.exists, f"{shot.name} to be written")


class ClickMe(Screen[None]):
    """A screen whose only widget is markup naming an action (as a hostile title would)."""

    def __init__(self, markup: str) -> None:
        super().__init__()
        self.markup = markup

    def compose(self) -> ComposeResult:
        yield Static(self.markup, id="bait")


@pytest.mark.parametrize("served", [True, False])
async def test_run_action_screenshot_is_refused_only_when_served(
    served: bool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "termarcade.tui")
    app = ArcadeApp(served=served)
    async with app.run_test(size=SIZE) as pilot:
        ran = await app.run_action(screenshot_action(tmp_path))
        await saved_or_refused(pilot, tmp_path / "shot.svg", served)
    if served:
        assert not ran and not (tmp_path / "shot.svg").exists()
        assert any("'screenshot'" in line for line in refusals(caplog))
    else:
        assert ran and (tmp_path / "shot.svg").exists()
        assert refusals(caplog) == []


@pytest.mark.parametrize("served", [True, False])
async def test_a_click_on_action_markup_runs_nothing_when_served(
    served: bool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, "termarcade.tui")
    app = ArcadeApp(served=served)
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(ClickMe(f"[@click={screenshot_action(tmp_path)}]CLICK ME[/]"))
        await pilot.pause()
        await pilot.click("#bait", offset=(2, 0))
        await saved_or_refused(pilot, tmp_path / "shot.svg", served)
    assert (tmp_path / "shot.svg").exists() is not served
    if served:
        assert any("'screenshot'" in line for line in refusals(caplog))


async def test_the_served_palette_offers_no_screenshot_and_cannot_save_one(
    tmp_path: Path,
) -> None:
    served, local = ArcadeApp(served=True), ArcadeApp()
    async with local.run_test(size=SIZE):
        assert "Screenshot" in {c.title for c in local.get_system_commands(local.screen)}
    async with served.run_test(size=SIZE) as pilot:
        titles = {c.title for c in served.get_system_commands(served.screen)}
        assert "Screenshot" not in titles and "Theme" in titles
        # What the palette's entry would call, refused beneath the palette too.
        assert served.deliver_screenshot("shot.svg", str(tmp_path)) is None
        await pilot.press("ctrl+p", *"Screenshot", "enter")
        await pilot.pause(0.5)
    assert list(tmp_path.iterdir()) == []


async def test_served_toggle_of_an_attribute_and_a_malformed_action_are_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, "termarcade.tui")
    app = ArcadeApp(served=True)
    async with app.run_test(size=SIZE) as pilot:
        # DOMNode.action_toggle would flip any attribute: here, served mode itself.
        assert not await app.run_action("app.toggle('served')")
        assert not await app.run_action("nowhere.help")  # an unknown namespace
        assert not await app.run_action("app.notify('hello')")
        await pilot.pause()
        assert app.served
    assert len(refusals(caplog)) == 3


async def test_served_open_url_starts_no_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url, *args, **kwargs: opened.append(url))
    for served in (True, False):
        app = ArcadeApp(served=served)
        async with app.run_test(size=SIZE):
            app.open_url(f"https://example.org/{served}")
    assert opened == ["https://example.org/False"]


async def test_served_keys_still_work(tmp_path: Path) -> None:
    """The app's own bindings (help, then escape back) and Textual's focus keys pass."""
    app = ArcadeApp(served=True)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.screen is not home
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is home
        assert await app.run_action("app.focus_next")


def bound_actions(app: Any, node: Any) -> list[tuple[str, Any, str, tuple[object, ...]]]:
    """Every binding of ``node`` resolved as a key press would resolve it."""
    found = []
    for _key, binding in node._bindings:
        target, name, params = app._parse_action(binding.action, node)
        found.append((binding.action, target, name, tuple(params)))
    return found


async def check_every_binding(pilot: Any, screen: Any) -> int:
    """Assert that every binding of ``screen`` and its widgets is allowed (each widget focused
    in turn, as its keys need); return how many were checked."""
    app = pilot.app
    checked = 0
    for node in [app, screen, *screen.walk_children()]:
        if getattr(node, "focusable", False):  # a widget's bindings fire while it has focus
            node.focus()
            await pilot.pause()
        for action, target, name, params in bound_actions(app, node):
            assert action_allowed(app, target, name, params), (type(node).__name__, action)
            checked += 1
    assert checked >= len(list(declared_actions(screen))) > 0
    return checked


@pytest.mark.parametrize("game_id", [info.id for info in registry.games() if info.playable])
@pytest.mark.slow
async def test_every_action_a_game_screen_binds_is_allowed_when_served(game_id: str) -> None:
    """The game's screen, and its level editor (opened with its key, through the allowlist)."""
    info = registry.get(game_id)
    assert info is not None
    _level_id, level = level_to_play(info, 2026)
    app = ArcadeApp(served=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_level(pilot, game_id, level)
        await check_every_binding(pilot, screen)
        if info.editor is not None:
            screen.focus()
            await pilot.press("E")
            await pilot.pause()
            assert isinstance(app.screen, DesignerScreen), game_id
            await check_every_binding(pilot, app.screen)


async def test_every_action_the_shell_screens_bind_is_allowed_when_served() -> None:
    """Home, its help page (opened by key), and a game's level list."""
    app = ArcadeApp(served=True)
    async with app.run_test(size=SIZE) as pilot:
        home = app.screen
        await check_every_binding(pilot, home)
        home.focus_next()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        await check_every_binding(pilot, app.screen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.start_game("longcat")
        await pilot.pause()
        assert isinstance(app.screen, LevelSelectScreen)
        await check_every_binding(pilot, app.screen)


async def test_the_served_palette_still_runs_the_arcades_commands_and_screen_actions() -> None:
    app = ArcadeApp(served=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p", *"Levels of Longcat")
        await palette_found(pilot, "Levels of Longcat")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, LevelSelectScreen), "levels")
        assert isinstance(app.screen, LevelSelectScreen) and app.screen.game_id == "longcat"
        # A screen action by name (it runs through node.run_action, so through the allowlist).
        commands = {c.title: c for c in app.get_system_commands(app.screen)}
        commands["Back"].callback()
        await wait_until(pilot, lambda: not isinstance(app.screen, LevelSelectScreen), "back")
        assert not isinstance(app.screen, LevelSelectScreen)
