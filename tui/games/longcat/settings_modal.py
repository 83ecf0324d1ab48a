"""The Longcat settings dialog: what ``g`` and ``N`` generate, and the slide animation.

Dismisses with a :class:`LongcatSettings` (the new choices) or ``None`` (cancelled). The
generator settings apply to the next generated level; the game being played is kept.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label

from core.longcat.params import BAND_LABELS, GENERATOR_PARAMS, METHOD, SIZES, TEMPERATURES
from core.params import Param, Params
from tui.modals.dialog import Dialog
from tui.params import Settings, field, read_fields

__all__ = [
    "BAND_LABELS",
    "SETTINGS_KEY",
    "SETTINGS_PARAMS",
    "SIZES",
    "TEMPERATURES",
    "LongcatSettings",
    "LongcatSettingsModal",
]

SETTINGS_KEY = "longcat.settings"
"""Store setting holding :class:`LongcatSettings` as a dict."""

ANIMATE = Param("animate", True, "Animate the cat's slides.", label="Animate the slides")
"""The screen's own setting (no generator reads it)."""

SETTINGS_PARAMS = Params([METHOD]) + GENERATOR_PARAMS + Params([ANIMATE])
"""Every Longcat setting: the generator's (:mod:`core.longcat.params`) and the animation."""


class LongcatSettings(Settings):
    """The player's Longcat preferences (persisted as the store setting ``longcat.settings``):
    ``method``, ``band``, ``size``, ``unique``, ``temperature`` (declared in
    :mod:`core.longcat.params`) and ``animate``.

    Stored settings keep a yes/no as ``true``/``false``; ``0``/``1`` (as a level's source
    spells it) load too. :meth:`params` gives a generator its parameters as the level's
    source spells them (``unique`` ``0``/``1``; the learned generator, ``rl``, also gets
    the temperature).
    """

    PARAMS = SETTINGS_PARAMS
    GENERATOR = GENERATOR_PARAMS


GENERATOR_FIELDS = ("method", "band", "size", "temperature", "unique")
"""The dialog's first group, in its order (what ``g`` and ``N`` generate)."""


class LongcatSettingsModal(Dialog[LongcatSettings | None]):
    """Edit the Longcat settings.

    Keys: ``tab``/``shift+tab`` move between fields, ``enter`` opens a list or presses a
    button, ``space`` toggles a box, ``ctrl+s`` applies, ``escape`` cancels.

    Args:
        current: The settings to start from.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", id="longcat-settings.apply"),
        Binding("escape", "cancel", "Cancel", id="longcat-settings.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    LongcatSettingsModal { align: center middle; }
    #lc-settings-dialog {
        width: 58;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #lc-settings-dialog .lc-settings-label { margin-top: 1; text-style: bold; }
    #lc-settings-dialog Select { margin-top: 1; }
    #lc-settings-note { color: $text-muted; text-style: italic; }
    #lc-settings-buttons { height: auto; width: 100%; align-horizontal: center; margin-top: 1; }
    #lc-settings-buttons Button { margin: 0 1; }
    """

    def __init__(self, current: LongcatSettings) -> None:
        super().__init__()
        self.current = current
        """The settings when the dialog opened."""

    def compose(self) -> ComposeResult:
        with Vertical(id="lc-settings-dialog"):
            yield Label("New levels (g, N): method, difficulty, size", classes="lc-settings-label")
            values = self.current.values
            for name in GENERATOR_FIELDS:
                yield field(SETTINGS_PARAMS[name], values[name], "lc-settings", compact=True)
            yield Label("Game", classes="lc-settings-label")
            yield field(ANIMATE, self.current.animate, "lc-settings", compact=True)
            yield Label("The game you are playing is kept.", id="lc-settings-note")
            with Horizontal(id="lc-settings-buttons"):
                yield Button("Apply (ctrl+s)", id="lc-settings-apply", variant="primary")
                yield Button("Cancel (esc)", id="lc-settings-cancel")

    def on_mount(self) -> None:
        self.query_one("#lc-settings-method").focus()

    def chosen(self) -> LongcatSettings:
        """The settings as currently shown in the dialog."""
        shown = read_fields(self, SETTINGS_PARAMS, "lc-settings")
        return LongcatSettings.from_dict({**self.current.values, **shown})

    @on(Button.Pressed, "#lc-settings-apply")
    def action_apply(self) -> None:
        """Close with the chosen settings."""
        self.dismiss(self.chosen())

    @on(Button.Pressed, "#lc-settings-cancel")
    def action_cancel(self) -> None:
        """Close without changes."""
        self.dismiss(None)
