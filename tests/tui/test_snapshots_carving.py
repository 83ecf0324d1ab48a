"""SVG snapshots of the Triangle Carving screen at 80×24, and one at 120×36 (pytest-textual-snapshot).

The level is built here (it is the tutorial's "Step Aside"), not read from the bundled packs,
so editing a pack never changes these pictures. After an intended visual change:
``pytest tests/tui/test_snapshots_carving.py --snapshot-update``, then look at the SVGs.
"""

from __future__ import annotations

import pytest

from core.carving import Formula, Level, Target
from tests.tui.helpers import number_picked, open_level, wait_until
from tui.app import ArcadeApp

pytestmark = pytest.mark.snapshot

D = lambda v: Formula("D", v, v, v)  # noqa: E731
N = lambda v: Formula("N", v, v, v)  # noqa: E731

STEP_ASIDE = Level(
    types=("t",),
    variables=(("x", "t"), ("y", "t"), ("z", "t")),
    r_delta=(("t", "t", "t"),),
    r_nabla=(("t", "t", "t"),),
    root=D("x"),
    target=Target(("a", "b", "c"), (("b", "c"), ("c", "b"), ("a", "b", "c"))),
    par=2,
    title="Step Aside",
    hint="Strip both x edges; then make ▼xxx the base point.",
)


def opener(*keys: str):
    async def run_before(pilot) -> None:
        await open_level(pilot, "carving", STEP_ASIDE)
        for key in keys:
            await pilot.press(key)
            if key.isdigit():  # each digit is its own move: wait for it to be picked
                await number_picked(pilot, pilot.app.screen)
        for widget in pilot.app.screen.query("Input"):
            widget.cursor_blink = False
        await pilot.pause()

    return run_before


# θ(N(x,x,x), D(y,y,y) ×4): the four Δ slots moved on once each.
BUILD = ("c", "down", "down", "right", "down", "right", "down", "right", "down", "right")


def test_carving_construct_80x24(snap_compare) -> None:
    assert snap_compare(ArcadeApp(), run_before=opener(), terminal_size=(80, 24))


def test_carving_edge_builder_80x24(snap_compare) -> None:
    assert snap_compare(ArcadeApp(), run_before=opener(*BUILD), terminal_size=(80, 24))


def test_carving_path_80x24(snap_compare) -> None:
    assert snap_compare(
        ArcadeApp(), run_before=opener(*BUILD, "enter", "1", "2", "1"), terminal_size=(80, 24)
    )


def test_carving_succession_80x24(snap_compare) -> None:
    assert snap_compare(
        ArcadeApp(),
        run_before=opener(*BUILD, "enter", "1", "2", "1", "3", "f"),
        terminal_size=(80, 24),
    )


def test_carving_path_120x36(snap_compare) -> None:
    """A larger terminal: the same walk, with room for the long hint on the message line."""
    assert snap_compare(
        ArcadeApp(), run_before=opener(*BUILD, "enter", "1", "2", "t"), terminal_size=(120, 36)
    )


def test_carving_editor_80x24(snap_compare, monkeypatch) -> None:
    """The level editor (E) on Step Aside: density and par controls, the level text, the
    target preview, and the live verdict with the shortest solution's steps."""
    from tui.games.carving.designer import CarvingDesigner

    monkeypatch.setattr(CarvingDesigner, "LIVE_TIME_LIMIT", 60.0)  # a busy machine still solves

    async def run_before(pilot) -> None:
        await open_level(pilot, "carving", STEP_ASIDE)
        await pilot.press("E")
        bench = pilot.app.screen
        for widget in bench.query("Input, TextArea"):
            widget.cursor_blink = False
        await wait_until(pilot, lambda: "Solvable:" in bench.verdict_text, timeout=120)
        await pilot.pause()

    assert snap_compare(ArcadeApp(), run_before=run_before, terminal_size=(80, 24))
