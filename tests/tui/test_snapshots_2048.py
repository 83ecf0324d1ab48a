"""SVG snapshots of the 2048 screen at 80x24 (pytest-textual-snapshot).

Fixed seeds and animations off make them deterministic. After an intended visual change:
``pytest tests/tui/test_snapshots_2048.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

import pytest

from core.game2048 import GameConfig, state_from_board
from tui.app import ArcadeApp
from tui.modals.game2048_settings import Settings2048
from tui.screens.game2048 import Game2048Screen

pytestmark = pytest.mark.snapshot

STILL = Settings2048(animate=False)
SIZE = (80, 24)


def opener(screen_factory, keys=()):
    async def run_before(pilot) -> None:
        pilot.app.push_screen(screen_factory())
        await pilot.pause()
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return run_before


def test_2048_after_moves(snap_compare) -> None:
    factory = lambda: Game2048Screen(config=GameConfig(initial_seed=2048), settings=STILL)
    keys = ["left", "down", "left", "down", "right", "down", "left", "down"]
    assert snap_compare(ArcadeApp(), run_before=opener(factory, keys), terminal_size=SIZE)


def test_2048_all_tile_colours(snap_compare) -> None:
    rows = (
        (2, 4, 8, 16),
        (256, 128, 64, 32),
        (512, 1024, 2048, 4096),
        (0, 32768, 16384, 8192),
    )
    state = state_from_board(rows, GameConfig(board_size=4, goal=None))
    factory = lambda: Game2048Screen(state=state, settings=STILL)
    assert snap_compare(ArcadeApp(), run_before=opener(factory), terminal_size=SIZE)


def test_2048_game_over_dialog(snap_compare) -> None:
    board = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (0, 8, 16, 32))
    state = state_from_board(board, GameConfig(board_size=4, tile_value_distribution=((2, 1),)))
    factory = lambda: Game2048Screen(state=state, settings=STILL)
    assert snap_compare(ArcadeApp(), run_before=opener(factory, ["left"]), terminal_size=SIZE)


def test_2048_win_dialog(snap_compare) -> None:
    rows = ((1024, 1024, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0))
    state = state_from_board(rows, GameConfig(board_size=4))
    factory = lambda: Game2048Screen(state=state, settings=STILL)
    assert snap_compare(ArcadeApp(), run_before=opener(factory, ["left"]), terminal_size=SIZE)


def test_2048_settings_dialog(snap_compare) -> None:
    factory = lambda: Game2048Screen(config=GameConfig(initial_seed=1), settings=STILL)
    assert snap_compare(ArcadeApp(), run_before=opener(factory, ["o"]), terminal_size=SIZE)


def test_2048_six_by_six_fibonacci(snap_compare) -> None:
    config = GameConfig.for_preset("fibonacci", board_size=6, initial_seed=3, number_of_initial_tiles=12)
    factory = lambda: Game2048Screen(config=config, settings=STILL)
    assert snap_compare(ArcadeApp(), run_before=opener(factory, ["left", "up"]), terminal_size=SIZE)


def test_2048_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    factory = lambda: Game2048Screen(config=GameConfig(initial_seed=2048), settings=STILL)
    keys = ["left", "down", "left", "down"]
    assert snap_compare(ArcadeApp(), run_before=opener(factory, keys), terminal_size=SIZE)
