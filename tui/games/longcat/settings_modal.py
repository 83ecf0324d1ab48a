"""The Longcat settings dialog: what ``g`` and ``N`` generate, and the slide animation.

Dismisses with a :class:`LongcatSettings` (the new choices) or ``None`` (cancelled). The
generator settings apply to the next generated level; the game being played is kept.
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

from core.longcat.catalog import BAND_RANGES, GENERATORS
from tui.modals.dialog import Dialog

__all__ = [
    "BAND_LABELS",
    "SETTINGS_KEY",
    "SIZES",
    "TEMPERATURES",
    "LongcatSettings",
    "LongcatSettingsModal",
]

SETTINGS_KEY = "longcat.settings"
"""Store setting holding :class:`LongcatSettings` as a dict."""

SIZES: tuple[str, ...] = ("5x5", "6x6", "8x8", "10x8", "12x10", "16x12")
"""Grid sizes offered for generated levels (width x height)."""

BAND_LABELS: Mapping[str, str] = {
    "any": "Any difficulty",
    "trivial": "Trivial (below 20)",
    "easy": "Easy (20 to 50)",
    "hard": "Hard (50 to 80)",
    "very_hard": "Very hard (80 to 200)",
    "extreme": "Extreme (200 and more)",
}
"""How the difficulty bands are offered (ids of :data:`core.longcat.catalog.BAND_RANGES`)."""

TEMPERATURES: Mapping[float, str] = {
    0.0: "Learned: temperature 0 (greedy)",
    0.2: "Learned: temperature 0.2",
    0.3: "Learned: temperature 0.3 (the seed's best)",
    0.5: "Learned: temperature 0.5",
    1.0: "Learned: temperature 1 (random, as Solution-Down)",
}
"""The learned generator's temperatures offered (``rl`` only)."""


@dataclass(frozen=True)
class LongcatSettings:
    """The player's Longcat preferences (persisted as the store setting ``longcat.settings``)."""

    method: str = "sd"
    """Generator of new levels (``g``, and ``N`` on a generated level)."""
    band: str = "any"
    """Difficulty band of new levels."""
    size: str = "8x8"
    """Grid size of new levels."""
    unique: bool = False
    """Only levels with exactly one solution."""
    animate: bool = True
    """Animate the cat's slides."""
    temperature: float = 0.3
    """Sampling temperature of the learned generator (``rl``)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "method": self.method,
            "band": self.band,
            "size": self.size,
            "unique": self.unique,
            "animate": self.animate,
            "temperature": self.temperature,
        }

    @classmethod
    def from_dict(cls, data: Any) -> LongcatSettings:
        """Read settings leniently: unknown or invalid values fall back to the defaults."""
        if not isinstance(data, Mapping):
            return cls()
        method, band, size = data.get("method"), data.get("band"), data.get("size")
        unique, animate = data.get("unique"), data.get("animate")
        temperature = data.get("temperature")
        return cls(
            method=method if method in GENERATORS else "sd",
            band=band if band in BAND_RANGES else "any",
            size=size if size in SIZES else "8x8",
            unique=unique if isinstance(unique, bool) else False,
            animate=animate if isinstance(animate, bool) else True,
            temperature=(
                float(temperature)
                if isinstance(temperature, int | float) and temperature in TEMPERATURES
                else 0.3
            ),
        )

    def params(self, method: str | None = None) -> dict[str, Any]:
        """The parameters a generator source passes to ``generate`` (the learned generator,
        ``rl``, also gets the temperature)."""
        params: dict[str, Any] = {"size": self.size, "band": self.band, "unique": int(self.unique)}
        if method == "rl":
            params["temperature"] = f"{self.temperature:g}"
        return params


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
            yield Select(
                [(f"{gen.title} ({name})", name) for name, gen in GENERATORS.items()],
                value=self.current.method,
                allow_blank=False,
                compact=True,
                id="lc-settings-method",
            )
            yield Select(
                [(label, band) for band, label in BAND_LABELS.items()],
                value=self.current.band,
                allow_blank=False,
                compact=True,
                id="lc-settings-band",
            )
            yield Select(
                [(size.replace("x", " × "), size) for size in SIZES],
                value=self.current.size,
                allow_blank=False,
                compact=True,
                id="lc-settings-size",
            )
            yield Select(
                [(label, value) for value, label in TEMPERATURES.items()],
                value=self.current.temperature,
                allow_blank=False,
                compact=True,
                id="lc-settings-temperature",
            )
            yield Checkbox(
                "Only levels with one solution",
                self.current.unique,
                compact=True,
                id="lc-settings-unique",
            )
            yield Label("Game", classes="lc-settings-label")
            yield Checkbox(
                "Animate the slides", self.current.animate, compact=True, id="lc-settings-animate"
            )
            yield Label("The game you are playing is kept.", id="lc-settings-note")
            with Horizontal(id="lc-settings-buttons"):
                yield Button("Apply (ctrl+s)", id="lc-settings-apply", variant="primary")
                yield Button("Cancel (esc)", id="lc-settings-cancel")

    def on_mount(self) -> None:
        self.query_one("#lc-settings-method", Select).focus()

    def chosen(self) -> LongcatSettings:
        """The settings as currently shown in the dialog."""

        def value(widget_id: str, fallback: str) -> str:
            got = self.query_one(widget_id, Select).value
            return got if isinstance(got, str) else fallback

        return LongcatSettings.from_dict(
            {
                "method": value("#lc-settings-method", self.current.method),
                "band": value("#lc-settings-band", self.current.band),
                "size": value("#lc-settings-size", self.current.size),
                "unique": bool(self.query_one("#lc-settings-unique", Checkbox).value),
                "animate": bool(self.query_one("#lc-settings-animate", Checkbox).value),
                "temperature": self.query_one("#lc-settings-temperature", Select).value,
            }
        )

    @on(Button.Pressed, "#lc-settings-apply")
    def action_apply(self) -> None:
        """Close with the chosen settings."""
        self.dismiss(self.chosen())

    @on(Button.Pressed, "#lc-settings-cancel")
    def action_cancel(self) -> None:
        """Close without changes."""
        self.dismiss(None)
