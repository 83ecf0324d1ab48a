"""Algebrawl's generator dialog: which generator, the difficulty band and the seed.

Dismisses with a :class:`GeneratorChoice` or ``None`` (cancelled). The band's unit depends
on the generator (``brawl``: total card score; ``24``: predicted seconds); an empty seed
means a fresh random one. Bad values are reported in the dialog and nothing is applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Select, Static

from core.algebrawl.generators import GENERATORS, check_band
from core.text import escape_controls
from tui.modals.dialog import Dialog
from tui.widgets.plain_fields import PlainInput

__all__ = ["GeneratorChoice", "GeneratorModal", "read_choice"]

SEED_MAX = 2**32 - 1


@dataclass(frozen=True, slots=True)
class GeneratorChoice:
    """What the dialog asks for: a generator, a band, and a seed (None: a random one)."""

    generator: str
    """``"brawl"`` or ``"24"``."""
    low: int
    """Lower end of the band."""
    high: int
    """Upper end of the band."""
    seed: int | None = None
    """The seed, or None for a fresh one."""


def read_choice(generator: str, low: str, high: str, seed: str) -> GeneratorChoice:
    """Check the dialog's fields.

    Raises:
        ValueError: A sentence saying which field is wrong.
    """
    if generator not in GENERATORS:
        raise ValueError(f"unknown generator {generator!r}")
    gen = GENERATORS[generator]
    try:
        band = (int(low.strip()), int(high.strip()))
    except ValueError:
        raise ValueError("the difficulty band takes two whole numbers") from None
    check_band(band[0], band[1], gen.limits, gen.unit)
    number: int | None = None
    if seed.strip():
        try:
            number = int(seed.strip())
        except ValueError:
            raise ValueError(f"the seed is a whole number, not {seed.strip()[:20]!r}") from None
        if not 0 <= number <= SEED_MAX:
            raise ValueError(f"the seed is a whole number from 0 to {SEED_MAX}")
    return GeneratorChoice(generator, band[0], band[1], number)


class GeneratorModal(Dialog[GeneratorChoice | None]):
    """Choose how the next levels are generated (see the module docstring).

    Keys: the seed field has the focus (type a seed, ``enter``); ``tab``/``shift+tab`` move
    between fields, ``enter`` in a field or ``ctrl+s`` generates, ``escape`` cancels.

    Args:
        settings: ``{"generator": name, name: (low, high), ...}`` to start from.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Generate", id="algebrawl-generator.apply"),
        Binding("escape", "cancel", "Cancel", id="algebrawl-generator.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    GeneratorModal { align: center middle; }
    #gen-dialog {
        width: 60;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #gen-dialog Label { text-style: bold; }
    #gen-band { height: auto; }
    #gen-band Input { width: 1fr; }
    #gen-error { color: $text-error; text-style: bold; height: auto; }
    #gen-buttons { height: auto; width: 100%; align-horizontal: center; margin-top: 1; }
    #gen-buttons Button { margin: 0 1; }
    """

    def __init__(self, settings: Mapping[str, Any]) -> None:
        super().__init__()
        self.settings = dict(settings)
        """The choices the dialog starts from."""

    def compose(self) -> ComposeResult:
        name = self.settings.get("generator", "brawl")
        low, high = self.settings.get(name, GENERATORS[name].default_band)
        with Vertical(id="gen-dialog"):
            yield Label("New level", id="gen-title")
            yield Select(
                [(f"{g.title}: {g.description}", key) for key, g in GENERATORS.items()],
                value=name,
                allow_blank=False,
                id="gen-generator",
            )
            yield Label(self._unit(name), id="gen-unit")
            with Horizontal(id="gen-band"):
                yield PlainInput(str(low), id="gen-low", type="integer")
                yield PlainInput(str(high), id="gen-high", type="integer")
            yield Label("Seed (empty: a random one)")
            yield PlainInput("", id="gen-seed", type="integer", placeholder="random")
            yield Static("", id="gen-error")
            with Horizontal(id="gen-buttons"):
                yield Button("Generate (ctrl+s)", id="gen-apply", variant="primary")
                yield Button("Cancel (esc)", id="gen-cancel")

    def on_mount(self) -> None:
        # The seed is what a player most often types here; typed first into the band it
        # was lost (or made the band wrong). tab/shift+tab reach the other fields.
        self.query_one("#gen-seed", Input).focus()

    @staticmethod
    def _unit(name: str) -> str:
        gen = GENERATORS[name]
        return f"Difficulty, low and high ({gen.unit}, {gen.limits[0]} to {gen.limits[1]})"

    @on(Select.Changed, "#gen-generator")
    def _generator_changed(self, event: Select.Changed) -> None:
        name = event.value if isinstance(event.value, str) else "brawl"
        low, high = self.settings.get(name, GENERATORS[name].default_band)
        self.query_one("#gen-low", Input).value = str(low)
        self.query_one("#gen-high", Input).value = str(high)
        self.query_one("#gen-unit", Label).update(self._unit(name))

    def chosen(self) -> GeneratorChoice:
        """The dialog's fields, checked (ValueError in words)."""
        name = self.query_one("#gen-generator", Select).value
        return read_choice(
            name if isinstance(name, str) else "brawl",
            self.query_one("#gen-low", Input).value,
            self.query_one("#gen-high", Input).value,
            self.query_one("#gen-seed", Input).value,
        )

    @on(Input.Submitted)
    @on(Button.Pressed, "#gen-apply")
    def action_apply(self) -> None:
        """Generate with the fields' values (or say what is wrong)."""
        try:
            choice = self.chosen()
        except ValueError as error:
            # The message may quote what was typed: text, never markup.
            message = escape_controls(str(error))
            self.query_one("#gen-error", Static).update(Text(message[:1].upper() + message[1:]))
            return
        self.dismiss(choice)

    @on(Button.Pressed, "#gen-cancel")
    def action_cancel(self) -> None:
        """Close without generating."""
        self.dismiss(None)
