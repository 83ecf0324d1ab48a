"""The 2048 settings dialog: board size, merge rule, animation.

Dismisses with a :class:`Settings2048` (the new choices) or ``None`` (cancelled). Changing the
board size or rule applies to the next game (``N``), never to the one being played; the
animation switch applies at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Label, Select

from core.game2048 import MERGE_PRESETS, PRESET_DEFAULTS
from tui.modals.dialog import Dialog

__all__ = ["BOARD_SIZES", "Settings2048", "Settings2048Modal"]

BOARD_SIZES: tuple[int, ...] = (3, 4, 5, 6, 7, 8)
"""Board sizes offered in the TUI (the engine takes any size >= 2)."""

RULE_LABELS: Mapping[str, str] = {
    "standard": "Standard (2+2=4)",
    "fibonacci": "Fibonacci (1+2=3, 2+3=5)",
    "threes": "Threes (1+2=3, 3+3=6)",
}
"""How the merge presets are described in the dialog."""


@dataclass(frozen=True)
class Settings2048:
    """The player's 2048 preferences (persisted as the store setting ``2048.settings``)."""

    board_size: int = 4
    """Side length of new games."""
    merge: str = "standard"
    """Merge preset name of new games."""
    animate: bool = True
    """Flash merged and new tiles after each move."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"board_size": self.board_size, "merge": self.merge, "animate": self.animate}

    @classmethod
    def from_dict(cls, data: Any) -> Settings2048:
        """Read settings leniently: unknown or invalid values fall back to the defaults."""
        if not isinstance(data, Mapping):
            return cls()
        size = data.get("board_size", 4)
        merge = data.get("merge", "standard")
        animate = data.get("animate", True)
        return cls(
            board_size=size if size in BOARD_SIZES else 4,
            merge=merge if merge in MERGE_PRESETS else "standard",
            animate=animate if isinstance(animate, bool) else True,
        )


class Settings2048Modal(Dialog[Settings2048 | None]):
    """Edit the 2048 settings.

    Keys: ``tab``/``shift+tab`` move between fields, ``enter`` opens a list or presses a
    button, ``space`` toggles the animation box, ``ctrl+s`` applies, ``escape`` cancels.

    Args:
        current: The settings to start from.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", id="2048-settings.apply"),
        Binding("escape", "cancel", "Cancel", id="2048-settings.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    Settings2048Modal { align: center middle; }
    #settings-dialog {
        width: 50;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #settings-dialog Label { margin-top: 1; text-style: bold; }
    #settings-note { color: $text-muted; text-style: italic; }
    #settings-buttons { height: auto; width: 100%; align-horizontal: center; margin-top: 1; }
    #settings-buttons Button { margin: 0 1; }
    """

    def __init__(self, current: Settings2048) -> None:
        super().__init__()
        self.current = current
        """The settings when the dialog opened."""

    def compose(self) -> ComposeResult:
        with Vertical(id="settings-dialog"):
            yield Label("2048 settings", id="settings-title")
            yield Select(
                [(f"{n} × {n}", n) for n in BOARD_SIZES],
                value=self.current.board_size,
                allow_blank=False,
                id="settings-size",
            )
            yield Select(
                [(RULE_LABELS.get(name, name), name) for name in MERGE_PRESETS],
                value=self.current.merge,
                allow_blank=False,
                id="settings-merge",
            )
            yield Checkbox(
                "Animate merges and new tiles", self.current.animate, id="settings-animate"
            )
            yield Label("Size and rule apply to the next game (N).", id="settings-note")
            with Horizontal(id="settings-buttons"):
                yield Button("Apply (ctrl+s)", id="settings-apply", variant="primary")
                yield Button("Cancel (esc)", id="settings-cancel")

    def on_mount(self) -> None:
        self.query_one("#settings-size", Select).focus()

    def chosen(self) -> Settings2048:
        """The settings as currently shown in the dialog."""
        size = self.query_one("#settings-size", Select).value
        merge = self.query_one("#settings-merge", Select).value
        animate = self.query_one("#settings-animate", Checkbox).value
        return Settings2048(
            board_size=size if isinstance(size, int) else self.current.board_size,
            merge=merge
            if isinstance(merge, str) and merge in PRESET_DEFAULTS
            else self.current.merge,
            animate=bool(animate),
        )

    @on(Button.Pressed, "#settings-apply")
    def action_apply(self) -> None:
        """Close with the chosen settings."""
        self.dismiss(self.chosen())

    @on(Button.Pressed, "#settings-cancel")
    def action_cancel(self) -> None:
        """Close without changes."""
        self.dismiss(None)
