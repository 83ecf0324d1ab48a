"""The 2048 settings dialog: board size, merge rule, animation.

Dismisses with a :class:`Settings2048` (the new choices) or ``None`` (cancelled). Changing the
board size or rule applies to the next game (``N``), never to the one being played; the
animation switch applies at once.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from core.game2048.generators import BOARD_SIZES, RULE_LABELS
from core.game2048.generators import PARAMS as GENERATOR_PARAMS
from core.params import Param, Params
from tui.modals.dialog import Dialog
from tui.params import Settings, field, read_fields

__all__ = ["BOARD_SIZES", "RULE_LABELS", "SETTINGS_PARAMS", "Settings2048", "Settings2048Modal"]

ANIMATE = Param(
    "animate",
    True,
    "Flash merged and new tiles after each move.",
    label="Animate merges and new tiles",
)
"""The screen's own setting (no generator reads it)."""

SETTINGS_PARAMS = GENERATOR_PARAMS + Params([ANIMATE])
"""Every 2048 setting: the new-game generator's (:mod:`core.game2048.generators`) and the
animation."""


class Settings2048(Settings):
    """The player's 2048 preferences (persisted as the store setting ``2048.settings``):
    ``size`` and ``rule`` of new games (declared in :mod:`core.game2048.generators`) and
    ``animate``. Settings stored as ``board_size``/``merge`` (before the declaration) load,
    and those names still read and construct."""

    PARAMS = SETTINGS_PARAMS
    GENERATOR = GENERATOR_PARAMS


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
            for param in SETTINGS_PARAMS:
                yield field(param, self.current.values[param.name], "settings")
            yield Label("Size and rule apply to the next game (N).", id="settings-note")
            with Horizontal(id="settings-buttons"):
                yield Button("Apply (ctrl+s)", id="settings-apply", variant="primary")
                yield Button("Cancel (esc)", id="settings-cancel")

    def on_mount(self) -> None:
        self.query_one("#settings-size").focus()

    def chosen(self) -> Settings2048:
        """The settings as currently shown in the dialog."""
        shown = read_fields(self, SETTINGS_PARAMS, "settings")
        return Settings2048.from_dict({**self.current.values, **shown})

    @on(Button.Pressed, "#settings-apply")
    def action_apply(self) -> None:
        """Close with the chosen settings."""
        self.dismiss(self.chosen())

    @on(Button.Pressed, "#settings-cancel")
    def action_cancel(self) -> None:
        """Close without changes."""
        self.dismiss(None)
