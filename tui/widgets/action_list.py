"""TermCraft's action list and the detail box of the highlighted action.

The list shows what the engine offers in the current state: one entry per rewrite action
(the subterm at the site, an arrow, the result at the site; then the rule, the site, the
substitution and the fuel cost) and one entry per placeholder (construct, paid from the
budget). It renders :class:`core.termcraft.RewriteAction` values and placeholder paths that
the screen passes in; it computes nothing itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Sequence, Union

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.termcraft import REWRITE_FUEL, RewriteAction
from core.terms import Path, Term, subterm_at
from core.terms import format_path, short_str

__all__ = ["ActionList", "ActionDetails", "ConstructEntry", "Entry", "MAX_SHOWN"]

MAX_SHOWN = 1000
"""At most this many actions are listed (a note says how many more exist)."""

PREVIEW = 60
"""Characters of each term shown in a list entry."""


@dataclass(frozen=True, slots=True)
class ConstructEntry:
    """A placeholder the player may replace by a constructed term."""

    site: Path
    """Position of the placeholder."""


Entry = Union[RewriteAction, ConstructEntry]
"""One line of the action list."""


def sigma_text(sigma: Sequence[tuple[str, Term]], limit: int = 40) -> str:
    """Show a substitution as ``X=apple, Y=green`` (``{}`` when empty).

    Args:
        sigma: ``(variable name, term)`` pairs.
        limit: Characters per bound term.

    Returns:
        The text.
    """
    if not sigma:
        return "none (no variables)"
    return ", ".join(f"{name}={short_str(term, limit)}" for name, term in sigma)


class ActionList(OptionList):
    """The actions available in the current state (rewrites first, then constructs).

    Keys: ``j``/``s``/down and ``k``/``w``/up move, ``enter``/``space`` choose (posts
    ``OptionList.OptionSelected``; the screen applies the action or opens the construct
    modal).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("j,s", "cursor_down", "Down", show=False, id="actions.down"),
        Binding("k,w", "cursor_up", "Up", show=False, id="actions.up"),
        Binding("enter,space", "select", "Apply", id="actions.select", key_display="⏎"),
        Binding("left,h,a", "screen.focus_tree", "Tree", show=False, id="actions.tree"),
    ]

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: list[Entry] = []
        """The entries in list order (RewriteAction or ConstructEntry)."""
        self.total_rewrites = 0
        """How many rewrite actions the engine offered (some may be cut off)."""

    def show_actions(
        self,
        term: Term,
        rewrites: Sequence[RewriteAction],
        placeholders: Sequence[Path],
        budget: int,
        keep: Entry | None = None,
        empty: str = "No action available.",
    ) -> None:
        """List the rewrite actions and the construct sites.

        Args:
            term: The current term (to show the subterm at each site).
            rewrites: The engine's rewrite actions.
            placeholders: Positions of the placeholders.
            budget: Budget left (shown with the construct entries).
            keep: An entry to keep highlighted if it is still offered.
            empty: What the list says when there is no action.
        """
        self.total_rewrites = len(rewrites)
        shown = list(rewrites[:MAX_SHOWN])
        constructs = [ConstructEntry(site) for site in placeholders] if budget > 0 else []
        self.entries = shown + constructs
        options: list[Option] = []
        # Rewrites are numbered from 1, as in `termarcade termcraft actions` (digit keys pick
        # them); construct entries are marked ◆ instead.
        width = len(str(max(len(shown), 1)))
        for number, entry in enumerate(self.entries, start=1):
            options.append(Option(self._prompt(number, width, term, entry, budget)))
        if len(rewrites) > MAX_SHOWN:
            options.append(Option(Text(f"… {len(rewrites) - MAX_SHOWN} more rewrites not shown",
                                       style="italic"), disabled=True))
        if not self.entries:
            options.append(Option(Text(empty, style="italic"), disabled=True))
        self.clear_options()
        self.add_options(options)
        index = 0
        if keep is not None and keep in self.entries:
            index = self.entries.index(keep)
        if self.entries:
            self.highlighted = index

    @staticmethod
    def _prompt(number: int, width: int, term: Term, entry: Entry, budget: int) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        pad = " " * (width + 2)
        if isinstance(entry, ConstructEntry):
            text.append(f"{'◆':>{width}}  ", "bold")
            text.append("construct", "bold")
            text.append(f" at {format_path(entry.site)}")
            text.append(f"\n{pad}→ a ground term of Size ≤ {budget}")
            return text
        text.append(f"{number:>{width}}. ", "bold")
        site: Path = entry.site
        text.append(short_str(subterm_at(term, site), PREVIEW))
        text.append(" ⇒ ", "bold")
        text.append(short_str(entry.replacement, PREVIEW), "bold")
        rule = entry.rule
        text.append(f"\n{pad}at {format_path(site)} · rule {format_path(rule.path)} "
                    f"· −{REWRITE_FUEL} fuel")
        if entry.sigma:
            text.append(" · " + sigma_text(entry.sigma, 20))
        return text

    @property
    def current_entry(self) -> Entry | None:
        """The highlighted entry, or None."""
        index = self.highlighted
        if index is None or not 0 <= index < len(self.entries):
            return None
        return self.entries[index]


class ActionDetails(Static):
    """The full description of the highlighted action."""

    DEFAULT_CSS = """
    ActionDetails {
        height: auto;
        max-height: 8;
        padding: 0 1;
        border-top: solid $primary;
    }
    """

    def show_entry(self, term: Term, entry: Entry | None, fuel: int, budget: int) -> None:
        """Describe ``entry`` (a rewrite action or a construct site).

        Args:
            term: The current term.
            entry: The highlighted entry, or None.
            fuel: Fuel left.
            budget: Budget left.
        """
        text = Text()
        if entry is None:
            text.append("No action selected.", "italic")
        elif isinstance(entry, ConstructEntry):
            text.append("Construct ", "bold")
            text.append(f"at {format_path(entry.site)}: replace the placeholder by a ground "
                        f"term you type. Costs its Size; budget {budget} left.")
        else:
            rule = entry.rule
            site: Path = entry.site
            here = subterm_at(term, site)
            text.append("Rule ", "bold")
            text.append(f"{format_path(rule.path)}: ")
            text.append(short_str(rule.lhs, 100))
            text.append(" → ")
            text.append(short_str(rule.rhs, 100))
            text.append("\nSite ", "bold")
            text.append(f"{format_path(site)}: {short_str(here, 100)}")
            matched = getattr(entry, "matched", here)
            if matched is not here:
                text.append(f"  (≡ {short_str(matched, 60)})", "italic")
            text.append("\nσ ", "bold")
            text.append(sigma_text(entry.sigma, 60))
            text.append("\nResult ", "bold")
            text.append(short_str(entry.replacement, 160))
            text.append(f"\nCost {REWRITE_FUEL} fuel ({fuel} → {max(fuel - REWRITE_FUEL, 0)})")
        self.update(text)
