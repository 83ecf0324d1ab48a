"""Games share one app and one stylesheet: opening one game must never change another's screen.

Textual matches CSS type selectors by class name, so a widget whose name is also used by
another game picks up that game's ``DEFAULT_CSS`` once the other game has been opened (two
``TargetView`` classes once cut Carving's target to TermCraft's three lines). Two checks:
no two widget classes of the arcade share a name, and every game's first screen is the same
whether it is opened in a fresh app or after any other game.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import pytest
from textual.dom import DOMNode

import tui
from core import registry
from tests.tui.helpers import open_level
from tui.app import ArcadeApp
from tui.launch import launcher_for
from tui.sources import GeneratorSource, PackSource

pytestmark = pytest.mark.pilot

SIZE = (120, 40)
"""Big enough that nothing is cut by the terminal itself."""

GAMES = [info.id for info in registry.games() if info.playable]


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_no_two_widget_classes_share_a_name() -> None:
    for info in registry.games():
        if info.screen is not None:
            info.load("screen")
    for module in pkgutil.walk_packages(tui.__path__, "tui."):
        if not module.name.startswith("tui.serve"):  # server parts need optional extras
            importlib.import_module(module.name)
    modules: dict[str, set[str]] = defaultdict(set)
    for cls in set(_subclasses(DOMNode)):
        modules[cls.__name__].add(cls.__module__)
    clashes = {
        name: sorted(found)
        for name, found in modules.items()
        if len(found) > 1 and any(m.startswith("tui.") for m in found)
    }
    assert clashes == {}, f"widget classes share a CSS type name: {clashes}"


def first_level(app: ArcadeApp, game_id: str) -> Any:
    """The game's first bundled level (a seeded generated one when it has none)."""
    sources = launcher_for(app, game_id).sources
    for source in sources.all():
        if isinstance(source, PackSource) and source.entries():
            return sources.level(source.entries()[0].ref)
    generator = next(s for s in sources.all() if isinstance(s, GeneratorSource))
    return sources.level(generator.new(seed=1))


def screen_text(app: ArcadeApp) -> str:
    """What the terminal shows, as plain text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def opened_after(before: list[str], game_id: str) -> str:
    """The screen of ``game_id``'s first level, opened after the games in ``before``."""
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        for other in before:
            await open_level(pilot, other, first_level(app, other))
            app.pop_screen()
            await pilot.pause()
        await open_level(pilot, game_id, first_level(app, game_id))
        # What the screen starts in the background (a count, a verdict) has ended.
        await app.workers.wait_for_complete()
        await pilot.pause()
        return screen_text(app)


_fresh: dict[str, str] = {}


@pytest.mark.parametrize(("first", "game_id"), [(a, b) for a in GAMES for b in GAMES if a != b])
async def test_a_game_looks_the_same_after_another(first: str, game_id: str) -> None:
    if game_id not in _fresh:
        _fresh[game_id] = await opened_after([], game_id)
    assert await opened_after([first], game_id) == _fresh[game_id]
