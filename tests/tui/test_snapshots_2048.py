"""SVG snapshots of the 2048 screen at 80x24 (pytest-textual-snapshot).

Fixed seeds and animations off make them deterministic. After an intended visual change:
``pytest tests/tui/test_snapshots_2048.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

import pytest

from core.game2048 import GameConfig
from core.game2048.level import Level
from tests.tui.helpers import open_level, wait_until
from tui.app import ArcadeApp
from tui.games.game2048.screen import SETTINGS_KEY
from tui.games.game2048.settings_modal import Settings2048

pytestmark = pytest.mark.snapshot

STILL = Settings2048(animate=False)
SIZE = (80, 24)


def opener(level: Level, keys=()):
    async def run_before(pilot) -> None:
        pilot.app.store.set_setting(SETTINGS_KEY, STILL.to_dict())
        await open_level(pilot, "2048", level)
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return run_before


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_2048_after_moves(snap_compare, size: tuple[int, int]) -> None:
    level = Level("seed 2048", GameConfig(initial_seed=2048))
    keys = ["left", "down", "left", "down", "right", "down", "left", "down"]
    assert snap_compare(ArcadeApp(), run_before=opener(level, keys), terminal_size=size)


def test_2048_all_tile_colours(snap_compare) -> None:
    rows = (
        (2, 4, 8, 16),
        (256, 128, 64, 32),
        (512, 1024, 2048, 4096),
        (0, 32768, 16384, 8192),
    )
    level = Level("colours", GameConfig(board_size=4, goal=None), rows)
    assert snap_compare(ArcadeApp(), run_before=opener(level), terminal_size=SIZE)


def test_2048_game_over_dialog(snap_compare) -> None:
    board = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (0, 8, 16, 32))
    level = Level("locked", GameConfig(board_size=4, tile_value_distribution=((2, 1),)), board)
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["left"]), terminal_size=SIZE)


def test_2048_win_dialog(snap_compare) -> None:
    rows = ((1024, 1024, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0))
    level = Level("goal", GameConfig(board_size=4), rows)
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["left"]), terminal_size=SIZE)


def test_2048_settings_dialog(snap_compare) -> None:
    level = Level("seed 1", GameConfig(initial_seed=1))
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["o"]), terminal_size=SIZE)


def test_2048_six_by_six_fibonacci(snap_compare) -> None:
    config = GameConfig.for_preset(
        "fibonacci", board_size=6, initial_seed=3, number_of_initial_tiles=12
    )
    level = Level("fibonacci", config)
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["left", "up"]), terminal_size=SIZE)


def test_2048_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    level = Level("seed 2048", GameConfig(initial_seed=2048))
    keys = ["left", "down", "left", "down"]
    assert snap_compare(ArcadeApp(), run_before=opener(level, keys), terminal_size=SIZE)


def test_2048_level_editor(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bench at 80x24: canvas (cursor typing on a cell), fields, text and live verdict."""
    from tui.games.game2048.designer import Game2048Designer

    # A short estimate with room to finish: the same verdict on any machine.
    monkeypatch.setattr(Game2048Designer, "ESTIMATE_MOVES", 20)
    monkeypatch.setattr(Game2048Designer, "ESTIMATE_SECONDS", 60.0)
    rows = ((2, 4, 8, 16), (0, 0, 0, 32), (0, 0, 0, 64), (0, 0, 2, 128))
    level = Level("Corner", GameConfig(board_size=4, initial_seed=5), rows, hint="Keep the corner")

    async def run_before(pilot) -> None:
        await opener(level, ["E"])(pilot)
        await pilot.press("down", "right", "1")
        bench = pilot.app.screen
        await wait_until(pilot, lambda: "Estimate" in bench.verdict_text)
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=SIZE)
