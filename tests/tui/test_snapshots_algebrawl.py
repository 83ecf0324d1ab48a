"""SVG snapshots of the Algebrawl screen at 80x24 (pytest-textual-snapshot).

Bundled levels and fixed seeds make them deterministic. After an intended visual change:
``pytest tests/tui/test_snapshots_algebrawl.py --snapshot-update`` and review the SVGs.
"""

from __future__ import annotations

import pytest

from grammar.levels import bundled_packs
from tests.tui.helpers import open_level, verdict_settled
from tui.app import ArcadeApp

pytestmark = pytest.mark.snapshot

SIZE = (80, 24)
PACKS = dict(bundled_packs("algebrawl"))


def level(pack: str, title: str):
    return next(lv for lv in PACKS[pack].levels if lv.title == title)


def opener(lv, keys=()):
    async def run_before(pilot) -> None:
        await open_level(pilot, "algebrawl", lv)
        await pilot.app.workers.wait_for_complete()
        if keys:
            await pilot.press(*keys)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


def test_algebrawl_start(snap_compare) -> None:
    lv = level("02-workshop", "Mean Streak")
    assert snap_compare(ArcadeApp(), run_before=opener(lv), terminal_size=SIZE)


def test_algebrawl_building_a_move_with_trees(snap_compare) -> None:
    # avg on 3 and 5, strike 4; then pick avg again and the 9: the move half built.
    lv = level("02-workshop", "Mean Streak")
    keys = [
        "k",
        "enter",
        "j",
        "enter",
        "l",
        "enter",  # avg(3, 5) = 4
        "enter",
        "k",
        "k",
        "enter",  # strike 4
        "j",
        "l",
        "enter",
        "enter",
    ]  # second avg, then 9 (cursor on it)
    assert snap_compare(ArcadeApp(), run_before=opener(lv, keys), terminal_size=SIZE)


def test_algebrawl_won_with_distinct_solutions(snap_compare) -> None:
    lv = level("01-first-blood", "Order of Operations")  # 2 + 3 × 4 = 14 (two solutions)
    # Picking a card puts the cursor on the pool's first free value.
    keys = [
        "k",
        "l",
        "enter",
        "l",
        "enter",
        "l",
        "enter",  # 3 × 4
        "k",
        "h",
        "enter",
        "enter",
        "l",
        "enter",  # 2 + 12
        "enter",
        "k",
        "k",
        "enter",
    ]  # strike 14
    assert snap_compare(ArcadeApp(), run_before=opener(lv, keys), terminal_size=SIZE)


def test_algebrawl_generator_dialog(snap_compare) -> None:
    lv = level("01-first-blood", "First Blood")
    assert snap_compare(ArcadeApp(), run_before=opener(lv, ["g"]), terminal_size=SIZE)


def test_algebrawl_no_color(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    lv = level("03-boss-rush", "Fused Multiply-Add")
    keys = ["k", "enter", "j", "enter", "l", "enter", "l", "enter"]  # fma(4, 5, 6) = 26
    assert snap_compare(ArcadeApp(), run_before=opener(lv, keys), terminal_size=SIZE)


def test_algebrawl_120x40(snap_compare) -> None:
    lv = level("03-boss-rush", "Countdown")
    keys = ["k", "enter", "j", "l", "l", "l", "enter", "l", "enter"]  # 100 + 3
    assert snap_compare(ArcadeApp(), run_before=opener(lv, keys), terminal_size=(120, 40))


def test_algebrawl_level_editor(snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    """The level editor (E) on "The Impossible Hand", its live verdict computed (bounded by the
    solver's work budget, the same on any machine: issue 28)."""
    lv = level("03-boss-rush", "The Impossible Hand")
    # A limit only a hang would reach: the verdict is the same on a busy machine.
    monkeypatch.setattr("tui.games.algebrawl.designer.LIVE_TIME_LIMIT", 600.0, raising=False)

    async def run_before(pilot) -> None:
        await opener(lv, ["E"])(pilot)
        bench = pilot.app.screen
        # The focused field's cursor blinks every 0.5 s: which phase the picture caught
        # depended on the machine's speed. Steady, it is always drawn (as recorded).
        for widget in bench.query("Input, TextArea"):
            widget.cursor_blink = False
        await verdict_settled(pilot, bench)
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=SIZE)
