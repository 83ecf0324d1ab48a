"""Export a level to a file: type a path, see the full path, answer before anything is lost."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Input, Label, Static

from core.text import escape_controls
from tui.exporting import ExportPlan, plan_export, resolve_path, write_export
from tui.modals.choice import ChoiceModal
from tui.modals.dialog import Dialog

__all__ = ["ExportModal"]


class ExportModal(Dialog[str | None]):
    """Ask for a file and write the level there; dismisses with what was done, or None.

    The full path is shown as you type (``~`` expanded, relative paths from your home). An
    existing file is never replaced without asking: a pack of the same game can get the
    level appended (or the level of the same title replaced).

    Args:
        game: The game id.
        level: The level to export.
        default: The path offered first.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="export.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    ExportModal { align: center middle; }
    #export-dialog { width: 76; max-width: 100%; height: auto; border: thick $accent;
                     background: $surface; padding: 0 1; }
    #export-resolved { color: $text-muted; height: auto; }
    #export-error { color: $text-error; height: auto; }
    #export-buttons { height: auto; align-horizontal: right; }
    #export-buttons Button { margin-left: 1; }
    """

    def __init__(self, game: str, level: Any, default: str) -> None:
        super().__init__()
        self.game = game
        self.level = level
        self.default = default
        """The path offered first."""

    def compose(self) -> ComposeResult:
        with Vertical(id="export-dialog"):
            yield Label("Export the level to a file (a .levels pack):")
            # No select-all on focus (issue 30): the first key typed must not replace the text.
            yield Input(self.default, select_on_focus=False, id="export-path")
            yield Static("", id="export-resolved")
            yield Static("", id="export-error")
            with Horizontal(id="export-buttons"):
                yield Button("Export", id="export-ok", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="export-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._show_resolved(self.default)

    @on(Input.Changed, "#export-path")
    def _changed(self, event: Input.Changed) -> None:
        self._show_resolved(event.value)

    def _show_resolved(self, text: str) -> None:
        try:
            where = f"Will write {escape_controls(str(resolve_path(text)))}"
        except ValueError as error:
            where = str(error)
        self.query_one("#export-resolved", Static).update(Text(where))

    def _error(self, message: str) -> None:
        self.query_one("#export-error", Static).update(Text(escape_controls(message)))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.export(event.value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "export-ok":
            self.export(self.query_one(Input).value)
        else:
            self.dismiss(None)

    def export(self, path_text: str) -> None:
        """Plan the export, ask what is needed, then write."""
        try:
            plan = plan_export(path_text, self.game, self.level)
        except ValueError as error:
            self._error(str(error))
            return
        if not plan.exists:
            self._write(plan, "new")
            return
        where = escape_controls(str(plan.path))
        if plan.can_append:
            title = self.level.title
            add = (
                f"replace its level “{title}”"
                if plan.same_title is not None
                else "add this level to it"
            )
            count = len(plan.pack.levels) if plan.pack is not None else 0
            question = (
                f"{where} already exists (a pack of {count} levels). "
                f"Append: {add}. Or replace the whole file with this one level?"
            )
            answers = [
                ("cancel", "Cancel", "c"),
                ("append", "Append", "a"),
                ("replace", "Replace file", "r"),
            ]
        else:
            question = f"{where} already exists and {plan.problem}. Replace it?"
            answers = [("cancel", "Cancel", "c"), ("replace", "Replace file", "r")]

        def decided(answer: str | None) -> None:
            if answer in ("append", "replace"):
                self._write(plan, answer)

        self.app.push_screen(ChoiceModal(question, answers), decided)

    def _write(self, plan: ExportPlan, mode: str) -> None:
        try:
            message = write_export(plan, self.game, self.level, mode)
        except OSError as error:
            self._error(f"Could not write {error.filename or plan.path}: {error.strerror or error}")
            return
        self.dismiss(message)

    def action_cancel(self) -> None:
        """Close without writing."""
        self.dismiss(None)
