"""TermCraft's status panel: level title, fuel, budget, moves against par, target, warnings.

A plain :class:`~textual.widgets.Static` that renders the values it is given; it never
looks inside the game. Every figure has a word next to it (``Fuel 2/3``), and warnings start
with ``⚠``, so nothing depends on colour alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from core.termcraft.terms import Term, short_str

__all__ = ["ResourceBar", "ResourceView"]

TARGET_PREVIEW = 600
"""At most this many characters of the target are printed (it wraps, then is cut)."""


@dataclass(frozen=True, slots=True)
class ResourceView:
    """Everything the status panel shows."""

    title: str
    """Level title."""
    fuel: int
    """Fuel left."""
    fuel_start: int
    """Fuel the level started with."""
    budget: int
    """Budget left."""
    budget_start: int
    """Budget the level started with."""
    moves: int
    """Moves made so far."""
    par: int | None
    """The level's par, if any."""
    target: Term
    """The target term."""
    warnings: tuple[str, ...] = ()
    """Engine warnings about the current term (ignored rules and axioms)."""
    status: str = "playing"
    """``"playing"``, ``"won"`` or ``"lost"``."""


class ResourceBar(Vertical):
    """The status panel at the top of the TermCraft screen: stats, target, warnings."""

    DEFAULT_CSS = """
    ResourceBar {
        height: auto;
        padding: 0 1;
        background: $boost;
    }
    ResourceBar > #resources-stats { height: 1; }
    ResourceBar > #resources-target-row { height: auto; max-height: 2; }
    ResourceBar #resources-target-label { width: 8; text-style: bold; }
    ResourceBar #resources-target { width: 1fr; height: auto; max-height: 2; }
    ResourceBar > #resources-warnings { height: auto; max-height: 2; color: $text-warning; }
    ResourceBar > #resources-warnings.-empty { display: none; }
    """

    def compose(self) -> ComposeResult:
        yield Static("", id="resources-stats")
        with Horizontal(id="resources-target-row"):
            yield Static("Target:", id="resources-target-label")
            yield Static("", id="resources-target")
        yield Static("", id="resources-warnings", classes="-empty")

    def show(self, view: ResourceView) -> None:
        """Render ``view``.

        Args:
            view: The values to show.
        """
        self.view = view
        stats = Text(no_wrap=True, overflow="ellipsis")
        if view.status == "won":
            stats.append("★ SOLVED  ", "bold")
        elif view.status == "lost":
            stats.append("✗ LOST  ", "bold")
        stats.append("Fuel ")
        stats.append(f"{view.fuel}", "bold")
        stats.append(f"/{view.fuel_start}")
        stats.append("  Budget ")
        stats.append(f"{view.budget}", "bold")
        stats.append(f"/{view.budget_start}")
        stats.append("  Moves ")
        stats.append(f"{view.moves}", "bold")
        if view.par is not None:
            stats.append(f" (par {view.par})")
        stats.append("  ")
        stats.append(view.title, "italic")
        self.query_one("#resources-stats", Static).update(stats)
        target = Text(short_str(view.target, TARGET_PREVIEW), overflow="fold")
        self.query_one("#resources-target", Static).update(target)
        warnings = self.query_one("#resources-warnings", Static)
        lines = [f"⚠ {w}" for w in view.warnings[:2]]
        if len(view.warnings) > 2:
            lines[1:] = [f"⚠ … and {len(view.warnings) - 1} more (E: developer panel lists all)"]
        warnings.update(Text("\n".join(lines), no_wrap=True, overflow="ellipsis"))
        warnings.set_class(not lines, "-empty")
