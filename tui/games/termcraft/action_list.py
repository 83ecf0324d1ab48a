"""TermCraft's action list and the detail box of the highlighted action.

The list shows what the engine offers in the current state: one entry per rewrite action
(the subterm at the site, an arrow, the result at the site; then the rule, the site, the
substitution and the fuel cost) and one entry per placeholder (construct, paid from the
budget). It renders :class:`core.termcraft.RewriteAction` values and placeholder paths that
the screen passes in; it computes nothing itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from core.termcraft import REWRITE_FUEL, RewriteAction
from core.termcraft.terms import Path, Term, format_path, short_str, subterm_at

__all__ = ["LOAD_MARGIN", "PAGE", "ActionDetails", "ActionList", "ConstructEntry", "Entry"]

PAGE = 100
"""Rewrite actions loaded at a time (the first page at once, then one page per request)."""

LOAD_MARGIN = 20
"""The next page is asked for when the cursor is this many entries from the last loaded one."""

PREVIEW = 60
"""Characters of each term shown in a list entry."""


@dataclass(frozen=True, slots=True)
class ConstructEntry:
    """A placeholder the player may replace by a constructed term."""

    site: Path
    """Position of the placeholder."""


Entry = RewriteAction | ConstructEntry
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

    Long lists are shown a page at a time: the screen passes the first page, then more
    pages as the player moves down (the list posts :class:`ActionList.MoreWanted` when the
    cursor or the scroll position nears the last loaded rewrite) and the total once it is
    counted. While rewrites remain unloaded, one dimmed line after the loaded ones says how
    many (or that they are being counted), and the construct entries follow it.

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

    class MoreWanted(Message):
        """The player reached the end of the loaded rewrites and more exist."""

        def __init__(self, listing: ActionList) -> None:
            super().__init__()
            self.listing = listing
            """The list that wants more."""

        @property
        def control(self) -> ActionList:
            """The list that sent the message."""
            return self.listing

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.entries: list[Entry | None] = []
        """The entries in option order: the loaded rewrites, None for the "more" line when
        there is one, then the construct entries."""
        self.rewrites: list[RewriteAction] = []
        """The rewrite actions loaded so far (engine order; number N is ``rewrites[N-1]``)."""
        self.total: int | None = 0
        """How many rewrite actions there are (None while not known)."""
        self.complete = True
        """True when every rewrite action is loaded."""
        self.loading = False
        """True while the screen is fetching the next page."""
        self.note = ""
        """What the "more" line says about the work in progress (e.g. "counting…")."""
        self._term: Term | None = None
        self._constructs: list[ConstructEntry] = []
        self._budget = 0
        self._empty = "No action available."
        self._width = 1

    @property
    def total_rewrites(self) -> int:
        """How many rewrite actions are known to exist (the loaded ones while not counted)."""
        return self.total if self.total is not None else len(self.rewrites)

    def show_actions(
        self,
        term: Term,
        rewrites: Sequence[RewriteAction],
        placeholders: Sequence[Path],
        budget: int,
        keep: Entry | None = None,
        empty: str = "No action available.",
        complete: bool = True,
        total: int | None = None,
    ) -> None:
        """List the rewrite actions (or their first page) and the construct sites.

        Args:
            term: The current term (to show the subterm at each site).
            rewrites: The engine's rewrite actions, or the first of them.
            placeholders: Positions of the placeholders.
            budget: Budget left (shown with the construct entries).
            keep: An entry to keep highlighted if it is still offered.
            empty: What the list says when there is no action.
            complete: False when ``rewrites`` is only the start of the list (more come
                through :meth:`add_rewrites`).
            total: How many rewrite actions there are, when known (with ``complete`` it is
                ``len(rewrites)``).
        """
        self._term = term
        self.rewrites = list(rewrites)
        self.complete = complete
        self.total = len(self.rewrites) if complete else total
        self.loading = False
        self._constructs = [ConstructEntry(site) for site in placeholders] if budget > 0 else []
        self._budget = budget
        self._empty = empty
        # Rewrites are numbered from 1, as in `termarcade termcraft actions` (digit keys pick
        # them); construct entries are marked ◆ instead.
        self._width = len(str(max(self.total_rewrites, 1)))
        options = [
            self._option(number, entry) for number, entry in enumerate(self.rewrites, start=1)
        ]
        self.entries = list(self.rewrites)
        self.clear_options()
        self.add_options(options + self._tail())
        index = 0
        if keep is not None and keep in self.entries:
            index = self.entries.index(keep)
        if any(entry is not None for entry in self.entries):
            self.highlighted = index

    def add_rewrites(self, more: Sequence[RewriteAction], complete: bool) -> None:
        """Append the next page of rewrite actions (the highlight and scroll stay).

        Args:
            more: The actions that follow the loaded ones, in engine order.
            complete: True when no action follows these.
        """
        start = len(self.rewrites)
        self.rewrites.extend(more)
        self.complete = complete
        self.loading = False
        if complete:
            self.total = len(self.rewrites)
        highlighted = self.highlighted
        keep = (
            self.entries[highlighted]
            if highlighted is not None and 0 <= highlighted < len(self.entries)
            else None
        )
        self._drop_tail(start)
        self.entries.extend(more)
        self.add_options(
            [self._option(number, entry) for number, entry in enumerate(more, start=start + 1)]
            + self._tail()
        )
        if isinstance(keep, ConstructEntry):
            self.highlighted = self.entries.index(keep)
        elif highlighted is not None:
            self.highlighted = highlighted
        elif self.entries and self.entries[0] is not None:
            self.highlighted = 0
        self._maybe_want_more()

    def set_total(self, total: int | None, note: str = "") -> None:
        """Show the total once counted (or a note about the count, e.g. that it stopped)."""
        self.note = note
        if self.complete:
            return
        self.total = total
        if total is not None and total <= len(self.rewrites):  # the last page was loaded
            self.add_rewrites([], complete=True)
        else:
            self._refresh_more_line()

    def set_loading(self, loading: bool, note: str | None = None) -> None:
        """Say on the "more" line that the next page is being fetched."""
        self.loading = loading
        if note is not None:
            self.note = note
        self._refresh_more_line()

    def more_text(self) -> str:
        """What the "more" line says (empty when every rewrite is loaded)."""
        if self.complete:
            return ""
        loaded = len(self.rewrites)
        if self.total is not None:
            head = f"… {self.total - loaded:,} more of {self.total:,}"
        else:
            head = "… more"
        tail = "loading…" if self.loading else "move down to load them"
        if self.note:
            tail += f" ({self.note})"
        return f"{head}: {tail}"

    # -- internals ---------------------------------------------------------------------------

    def _option(self, number: int, entry: Entry) -> Option:
        assert self._term is not None
        return Option(self._prompt(number, self._width, self._term, entry, self._budget))

    def _tail(self) -> list[Option]:
        """The "more" line (when rewrites remain), the construct entries, or the empty note."""
        options: list[Option] = []
        if not self.complete:
            self.entries.append(None)
            options.append(Option(Text(self.more_text(), style="italic"), disabled=True))
        self.entries.extend(self._constructs)
        options.extend(self._option(0, entry) for entry in self._constructs)
        if not self.entries:
            options.append(Option(Text(self._empty, style="italic"), disabled=True))
        return options

    def _drop_tail(self, loaded: int) -> None:
        """Remove the options after the first ``loaded`` (the rewrites): the more line and
        the construct entries (from the end, which keeps the options before them)."""
        for index in range(self.option_count - 1, loaded - 1, -1):
            self.remove_option_at_index(index)
        del self.entries[loaded:]

    def _refresh_more_line(self) -> None:
        if self.complete:
            return
        index = len(self.rewrites)
        if index < self.option_count and self.entries[index] is None:
            self.replace_option_prompt_at_index(index, Text(self.more_text(), style="italic"))

    def _maybe_want_more(self) -> None:
        """Ask for the next page when the cursor or the view nears the last loaded rewrite."""
        if self.complete or self.loading or not self.is_mounted:
            return
        near = self.highlighted is not None and self.highlighted >= len(self.rewrites) - LOAD_MARGIN
        view_end = self.scroll_y + self.scrollable_content_region.height
        if near or view_end >= self.virtual_size.height - 2 * LOAD_MARGIN:
            self.loading = True
            self._refresh_more_line()
            self.post_message(self.MoreWanted(self))

    def watch_highlighted(self, highlighted: int | None) -> None:
        super().watch_highlighted(highlighted)
        self._maybe_want_more()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        self._maybe_want_more()

    def action_cursor_down(self) -> None:
        """Move down; at the last loaded rewrite while more are coming, wait for them
        (instead of jumping to the constructs or wrapping to the top)."""
        if not self.complete and self.highlighted == len(self.rewrites) - 1:
            self._maybe_want_more()
            return
        super().action_cursor_down()

    def action_last(self) -> None:
        """Go to the last loaded rewrite while more are coming (and ask for them)."""
        if not self.complete and self.rewrites:
            self.highlighted = len(self.rewrites) - 1
            return
        super().action_last()

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
        text.append(
            f"\n{pad}at {format_path(site)} · rule {format_path(rule.path)} · −{REWRITE_FUEL} fuel"
        )
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
            text.append(
                f"at {format_path(entry.site)}: replace the placeholder by a ground "
                f"term you type. Costs its Size; budget {budget} left."
            )
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
