"""SVG snapshots of the shell screens (pytest-textual-snapshot).

Update after an intended visual change with ``pytest tests/tui/test_snapshots_shell.py
--snapshot-update`` and review the SVGs in ``tests/tui/__snapshots__``.
"""

from __future__ import annotations

import pytest

from tests.tui.helpers import fixed_registry
from tests.tui.test_shell import PACKS, FakeLauncher
from tui.app import ArcadeApp
from tui.screens.level_select import LevelSelectScreen

pytestmark = pytest.mark.snapshot


@pytest.fixture(autouse=True)
def _fixed_games():
    """The screens list every game: picture a fixed set, so a new game changes no snapshot."""
    with fixed_registry():
        yield


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_home(snap_compare, size: tuple[int, int]) -> None:
    assert snap_compare(ArcadeApp(), terminal_size=size)


def test_home_second_game_highlighted(snap_compare) -> None:
    assert snap_compare(ArcadeApp(), press=["j"], terminal_size=(80, 24))


def test_help_home(snap_compare) -> None:
    assert snap_compare(ArcadeApp(), press=["f1"], terminal_size=(80, 24))


def test_quit_confirmation(snap_compare) -> None:
    async def run_before(pilot) -> None:
        pilot.app.game_in_progress = True
        await pilot.press("q")

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=(80, 24))


def test_level_select(snap_compare) -> None:
    async def run_before(pilot) -> None:
        pilot.app.store.mark_solved("termcraft", "pack:basics", "First steps", 2)
        pilot.app.push_screen(LevelSelectScreen(FakeLauncher(pilot.app, PACKS)))
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=(80, 24))
