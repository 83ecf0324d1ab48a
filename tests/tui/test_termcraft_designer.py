"""TermCraft's developer panel has the bench's live verdict (issue 30 item 4): computed in a
worker after each edit, bounded by a work budget, and honest (solvable with the shortest plan's
length, proved unsolvable, or unknown and why)."""

from __future__ import annotations

import pytest
from textual.widgets import Input, TextArea

from tests.tui.helpers import open_designer, play_first_level, verdict_with, wait_until
from tui.app import ArcadeApp
from tui.games.termcraft import dev_panel
from tui.games.termcraft.dev_panel import DevPanel

pytestmark = pytest.mark.pilot

SIZE = (80, 24)
# issue 29's level: construct f(k), then rewrite it (2 moves); a budget of 1 cannot pay for f(k)
CURRENT = "s(rewrite(f(var(X)), g(h(k))), placeholder)"
TARGET = "s(rewrite(f(var(X)), g(h(k))), g(h(k)))"


async def open_panel(pilot) -> DevPanel:
    await play_first_level(pilot, "termcraft")  # seed 000's sample, 3 moves
    panel = await open_designer(pilot, DevPanel)
    return panel


async def test_live_verdict_follows_the_edits(monkeypatch) -> None:
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        panel = await open_panel(pilot)
        await verdict_with(pilot, panel, "solvable", "3 moves")
        # each edit starts a new verdict; the last one is what is shown
        panel.query_one("#dev-current-term-input", TextArea).text = CURRENT
        panel.query_one("#dev-target-term-input", TextArea).text = TARGET
        panel.query_one("#dev-fuel-input", Input).value = "1"
        panel.query_one("#dev-par-input", Input).value = "2"
        panel.query_one("#dev-budget-input", Input).value = "2"
        text = await verdict_with(pilot, panel, "solvable", "2 moves")
        assert "par" not in text  # par 2 is the shortest plan
        panel.query_one("#dev-budget-input", Input).value = "1"
        await verdict_with(pilot, panel, "unsolvable (proved")
        # a work budget too small to decide says unknown, and why
        monkeypatch.setattr(dev_panel, "LIVE_BUDGET", 30)
        panel.query_one("#dev-budget-input", Input).value = "2"
        text = await verdict_with(pilot, panel, "unknown (work budget")
        assert "unsolvable" not in text.replace("proved unsolvable", "")
        # an edit that does not parse clears the verdict rather than keep a stale one
        panel.query_one("#dev-target-term-input", TextArea).text = "s(,"
        await wait_until(pilot, lambda: panel.verdict_text == "", "the verdict to clear")
