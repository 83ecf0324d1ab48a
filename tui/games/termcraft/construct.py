"""The placeholder construct modal: type a ground term to put in place of a ``placeholder``.

The input is parsed live, as the seed's modal does: all whitespace is removed first
(:func:`grammar.terms.strip_whitespace`), then :func:`grammar.terms.parse_term` reads it. The
modal shows the term's Size against the remaining budget, whether it is ground, and any
parse error with the offending text and a caret under the column. The Construct button stays
disabled until the input is acceptable; what "acceptable" means beyond parsing is asked of
the engine through the ``check`` callback, so no game rule lives here.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from core.termcraft.terms import Path, Term, format_path
from grammar.errors import ParseError
from grammar.terms import parse_term, strip_whitespace
from tui.modals.dialog import Dialog
from tui.widgets.plain_fields import PlainInput

__all__ = ["Check", "ConstructModal"]

Check = Callable[[Term], "str | None"]
"""Asks the engine whether a term may be constructed: None if yes, else the reason."""


class ConstructModal(Dialog["Term | None"]):
    """Ask for the term to construct at a placeholder; dismisses with the term or None.

    Keys: ``enter`` constructs (when the input is valid), ``escape`` cancels.

    Args:
        site: Position of the placeholder (shown in the title).
        budget: Budget left (Size of the new term must fit in it).
        check: Engine check for a parsed term: returns None when it may be constructed,
            else a message (ground check, budget ...).
        value: Initial text of the input.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="construct.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    ConstructModal {
        align: center middle;
    }
    #construct-dialog {
        width: 76;
        max-width: 100%;
        height: auto;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
    }
    #construct-title { text-style: bold; width: 100%; }
    #construct-help { color: $text-muted; width: 100%; }
    #construct-info { width: 100%; height: 1; }
    #construct-error { width: 100%; height: 4; color: $text-error; }
    #construct-error.-ok { color: $text-success; }
    #construct-buttons { height: auto; width: 100%; align-horizontal: right; }
    #construct-buttons Button { margin-left: 1; }
    """

    def __init__(self, site: Path, budget: int, check: Check, value: str = "") -> None:
        super().__init__()
        self.site = site
        """Position of the placeholder."""
        self.budget = budget
        """Budget left."""
        self.check = check
        """The engine's verdict on a parsed term: None when legal, else why not."""
        self.term: Term | None = None
        """The parsed term when the input is valid, else None."""
        self.error: str = ""
        """Why the input is not accepted ("" when it is)."""
        self._initial = value

    def compose(self) -> ComposeResult:
        with Vertical(id="construct-dialog"):
            yield Label(
                f"Construct at {format_path(self.site)} (placeholder)", id="construct-title"
            )
            yield Label(
                "A ground term; its Size (node count) is taken from the budget.",
                id="construct-help",
            )
            yield PlainInput(
                self._initial, placeholder="e.g. done or pair(a,b)", id="construct-input"
            )
            yield Static("", id="construct-info")
            yield Static("", id="construct-error")
            with Horizontal(id="construct-buttons"):
                yield Button("Construct", id="construct-ok", variant="primary", disabled=True)
                yield Button("Cancel (esc)", id="construct-cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._validate(self._initial)

    @on(Input.Changed, "#construct-input")
    def _changed(self, event: Input.Changed) -> None:
        self._validate(event.value)

    @on(Input.Submitted, "#construct-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._validate(event.value)
        if self.term is not None:
            self.dismiss(self.term)
        else:
            self.app.bell()

    @on(Button.Pressed, "#construct-ok")
    def _ok(self, event: Button.Pressed) -> None:
        event.stop()
        if self.term is not None:
            self.dismiss(self.term)

    @on(Button.Pressed, "#construct-cancel")
    def _cancel_button(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without constructing."""
        self.dismiss(None)

    def _validate(self, raw: str) -> None:
        """Parse the input and update the info line, the error line and the button."""
        text = strip_whitespace(raw)
        info = self.query_one("#construct-info", Static)
        error_box = self.query_one("#construct-error", Static)
        self.term = None
        if not text:
            self.error = "Type a term."
            info.update(Text(f"Size –  ·  budget left {self.budget}"))
            error_box.update(Text(self.error))
            error_box.set_class(False, "-ok")
            self._set_enabled(False)
            return
        try:
            term = parse_term(text)
        except ParseError as err:
            self.error = err.short()
            lines = [self.error] + err.caret_lines()
            if err.expected:
                lines = lines[:3]
                lines.append("expected " + ", ".join(err.expected))
            info.update(Text(f"Size –  ·  budget left {self.budget}"))
            error_box.update(Text("\n".join(lines[:4]), no_wrap=True, overflow="ellipsis"))
            error_box.set_class(False, "-ok")
            self._set_enabled(False)
            return
        fits = term.size <= self.budget
        info.update(
            Text.assemble(
                ("Size ", ""),
                (str(term.size), "bold"),
                (f" / budget {self.budget} ", ""),
                ("✓ fits" if fits else "✗ over budget", "" if fits else "bold"),
                ("  ·  ", ""),
                (
                    "ground ✓" if term.ground else "✗ not ground (has variables)",
                    "" if term.ground else "bold",
                ),
            )
        )
        problem = self.check(term)  # the engine decides; the info line above only explains
        if problem:
            self.error = problem
            error_box.update(Text(problem))
            error_box.set_class(False, "-ok")
            self._set_enabled(False)
            return
        self.error = ""
        self.term = term
        error_box.update(Text(f"OK: {text if len(text) <= 60 else text[:59] + '…'}"))
        error_box.set_class(True, "-ok")
        self._set_enabled(True)

    def _set_enabled(self, enabled: bool) -> None:
        self.query_one("#construct-ok", Button).disabled = not enabled
