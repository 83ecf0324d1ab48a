"""SVG snapshot of the leaderboard screen at 80x24 (pytest-textual-snapshot).

The results are seeded with fixed moves and times (no clock is shown), so the picture is
deterministic. After an intended visual change:
``pytest tests/tui/test_leaderboard_snapshots.py --snapshot-update`` and review the SVG.
"""

from __future__ import annotations

import pytest

from tests.tui.helpers import fixed_registry
from tests.tui.test_leaderboard_screen import seed_level_board
from tui.app import ArcadeApp

pytestmark = pytest.mark.snapshot


@pytest.fixture(autouse=True)
def _fixed_games():
    """The screens list every game: picture a fixed set, so a new game changes no snapshot."""
    with fixed_registry():
        yield


def test_leaderboard_level_boards_80x24(snap_compare) -> None:
    async def run_before(pilot) -> None:
        seed_level_board()
        await pilot.press("L")
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=(80, 24))
