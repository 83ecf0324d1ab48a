"""SVG snapshots of the Longcat screen at 80x24 (pytest-textual-snapshot).

Animations off make them deterministic. After an intended visual change:
``pytest tests/tui/test_snapshots_longcat.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

import pytest

from core.longcat import Level
from grammar.levels import bundled_packs
from tests.tui.helpers import open_level, wait_until
from tui.app import ArcadeApp
from tui.games.longcat.settings_modal import SETTINGS_KEY, LongcatSettings
from tui.sources import LevelRef

pytestmark = pytest.mark.snapshot

SIZE = (80, 24)
PACKS = dict(bundled_packs("longcat"))


def opener(level: Level, keys=(), wait_workers: bool = False):
    async def run_before(pilot) -> None:
        pilot.app.store.set_setting(SETTINGS_KEY, LongcatSettings(animate=False).to_dict())
        await open_level(pilot, "longcat", level, ref=LevelRef("test", level.title))
        if keys:
            await pilot.press(*keys)
        if wait_workers:
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


def test_longcat_8x8_after_moves(snap_compare) -> None:
    level = PACKS["01-arduboy"].levels[1]
    assert snap_compare(
        ArcadeApp(), run_before=opener(level, ["up", "right", "down"]), terminal_size=SIZE
    )


def test_longcat_12x10(snap_compare) -> None:
    level = PACKS["05-generated-large"].levels[0]
    assert (level.width, level.height) == (12, 10)
    assert snap_compare(
        ArcadeApp(), run_before=opener(level, ["down", "left", "up"]), terminal_size=SIZE
    )


def test_longcat_tip(snap_compare) -> None:
    level = PACKS["01-arduboy"].levels[11]
    assert snap_compare(
        ArcadeApp(), run_before=opener(level, ["t"], wait_workers=True), terminal_size=SIZE
    )


def test_longcat_dead_end(snap_compare) -> None:
    level = Level.from_rows(["######", "#....#", "#@...#", "#....#", "######"], title="split")
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["right"]), terminal_size=SIZE)


def test_longcat_win_dialog(snap_compare) -> None:
    level = PACKS["01-arduboy"].levels[0]
    keys = ["k", "h", "j", "l", "k"]  # its solution ULDRU in vi keys
    assert snap_compare(ArcadeApp(), run_before=opener(level, keys), terminal_size=SIZE)


def test_longcat_settings_dialog(snap_compare) -> None:
    level = PACKS["01-arduboy"].levels[0]
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["o"]), terminal_size=SIZE)


def test_longcat_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    level = PACKS["01-arduboy"].levels[1]
    assert snap_compare(ArcadeApp(), run_before=opener(level, ["up", "right"]), terminal_size=SIZE)


def test_longcat_level_select(snap_compare) -> None:
    async def run_before(pilot) -> None:
        pilot.app.start_game("longcat")
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=SIZE)


def test_longcat_level_editor(snap_compare) -> None:
    """The level editor on Arduboy 2: the canvas with its cursor on a painted wall, the
    level text, the live verdict and the buttons, at 80x24."""
    level = PACKS["01-arduboy"].levels[1]

    async def run_before(pilot) -> None:
        await opener(level, ["E"])(pilot)
        await pilot.press("left", "left", "down", "down", "space")  # a wall: row 5, column 3
        bench = pilot.app.screen

        def judged() -> bool:  # the live verdict on the painted level
            result = getattr(bench, "assessment", None)
            return (
                result is not None
                and result.level == bench.read_level()
                and bool(bench.verdict_text)
            )

        await wait_until(pilot, judged, "the live verdict on the painted level")
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=SIZE)
