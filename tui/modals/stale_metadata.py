"""Before a level leaves the bench: which of its derived metadata to bring up to date.

The designer's bench (:mod:`tui.screens.designer`) opens :class:`StaleMetadataModal` when
Save, Play or Export would write a level whose metadata disagrees with what the bench now
knows of it (a par the live verdict contradicts, a difficulty label in the title), or a My
level titled exactly as a bundled level. Each stale field is one row, ``old → new``, with a
checkbox that starts on (update); the designer unticks the ones to keep. Nothing is written
until the designer answers, so a par the verdict contradicts is written only when the
designer unticked its row: a dialog before the write rather than an update with undo
afterwards, because after the write the file or the My level already holds the stale value,
and a silent rewrite of a title (a level's key in saves and results) is not for the bench to
decide alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, NamedTuple

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Label

from tui.modals.dialog import Dialog
from tui.text import plain

__all__ = ["MetadataUpdate", "StaleMetadataModal"]


class MetadataUpdate(NamedTuple):
    """One field of a level that the bench would change before writing it."""

    field: str
    """The level's attribute (``"par"``, ``"title"``, ``"description"``)."""
    old: Any
    """The value the level holds."""
    new: Any
    """The value the bench now knows."""
    why: str
    """Where the new value comes from (``"the verdict's shortest solution"``)."""
    required: bool = False
    """True when the level cannot be written with the old value (a bundled title in My
    levels): shown without a checkbox."""


def _shown(value: Any) -> str:
    return "none" if value is None or value == "" else str(value)


class StaleMetadataModal(Dialog["dict[str, Any] | None"]):
    """List the stale fields; dismiss with ``{field: new value}`` for the rows to update
    (empty: keep them all), or None to go back to editing (``escape``).

    Args:
        what: What is about to happen (``"Save in My levels"``, ``"Export"``).
        updates: The fields, in the order shown.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Back to editing", id="stale.cancel", key_display="esc"),
        Binding("u", "update_all", "Update all", id="stale.update_all"),
        Binding("k", "keep_all", "Keep all", id="stale.keep_all"),
    ]

    DEFAULT_CSS = """
    StaleMetadataModal { align: center middle; }
    #stale-dialog { width: 76; max-width: 100%; height: auto; max-height: 100%;
                    border: thick $warning; background: $surface; padding: 0 1; }
    #stale-question { width: 100%; margin-bottom: 1; }
    #stale-rows { height: auto; max-height: 12; }
    #stale-rows Checkbox { width: 100%; }
    .stale-values { width: 100%; padding: 0 0 0 4; color: $text-muted; }
    #stale-buttons { height: auto; width: 100%; align-horizontal: center; margin-top: 1; }
    #stale-buttons Button { margin: 0 1 0 0; min-width: 8; }
    """

    def __init__(self, what: str, updates: Sequence[MetadataUpdate]) -> None:
        super().__init__()
        self.what = what
        """What is about to happen."""
        self.updates = tuple(updates)
        """The stale fields."""

    def compose(self) -> ComposeResult:
        with Vertical(id="stale-dialog"):
            yield Label(
                plain(
                    f"{self.what}: the bench knows better than these fields. "
                    "Ticked rows are updated (untick one to keep it as it is)."
                ),
                id="stale-question",
            )
            with VerticalScroll(id="stale-rows"):
                for update in self.updates:
                    head = f"{update.field} ({update.why})"
                    if update.required:
                        yield Label(plain(f"    {head}"), classes="stale-head")
                    else:
                        yield Checkbox(plain(head), True, id=f"stale-{update.field}", compact=True)
                    # The values on their own lines, wrapped: never cut at any width.
                    yield Label(
                        plain(f"{_shown(update.old)} → {_shown(update.new)}"),
                        classes="stale-values",
                    )
            with Horizontal(id="stale-buttons"):
                yield Button("Write ticked (enter)", id="stale-write", variant="primary")
                yield Button("Update all (u)", id="stale-update-all")
                yield Button("Keep all (k)", id="stale-keep-all")
                yield Button("Back (esc)", id="stale-cancel")

    def on_mount(self) -> None:
        self.query_one("#stale-write", Button).focus()

    def chosen(self) -> dict[str, Any]:
        """``{field: new value}`` of the ticked (and the required) rows."""
        out: dict[str, Any] = {}
        for update in self.updates:
            if update.required or self.query_one(f"#stale-{update.field}", Checkbox).value:
                out[update.field] = update.new
        return out

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {
            "stale-write": lambda: self.dismiss(self.chosen()),
            "stale-update-all": self.action_update_all,
            "stale-keep-all": self.action_keep_all,
            "stale-cancel": self.action_cancel,
        }
        actions[event.button.id or "stale-cancel"]()

    def action_update_all(self) -> None:
        """Update every row."""
        self.dismiss({update.field: update.new for update in self.updates})

    def action_keep_all(self) -> None:
        """Keep every field as it is (required rows are still updated)."""
        self.dismiss({u.field: u.new for u in self.updates if u.required})

    def action_cancel(self) -> None:
        """Write nothing: back to the bench."""
        self.dismiss(None)
