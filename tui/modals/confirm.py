"""A yes/no question."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label

from tui.modals.dialog import Dialog
from tui.text import plain


class ConfirmModal(Dialog[bool]):
    """Ask a yes/no question; dismisses with True (yes) or False (no).

    Keys: ``y`` yes, ``n`` or ``escape`` no; ``enter``/``space`` press the focused button
    (``No`` has the focus first, so a stray ``enter`` never confirms something destructive);
    ``left``/``right``/``tab`` move between the buttons.

    Args:
        message: The question: a plain string is shown as it is (never read as markup, as
            it often quotes a title), a :class:`Content` keeps its styles.
        yes: Label of the confirming button.
        no: Label of the declining button.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm.no", key_display="n/esc"),
        Binding("left,h", "app.focus_previous", "Previous", show=False, id="confirm.left"),
        Binding("right,l", "app.focus_next", "Next", show=False, id="confirm.right"),
    ]

    def __init__(self, message: str | Content, yes: str = "Yes", no: str = "No") -> None:
        super().__init__()
        self.message = message
        """The question shown."""
        self.yes_label = yes
        """Text of the confirming button."""
        self.no_label = no
        """Text of the declining button."""

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog"):
            yield Label(plain(self.message), id="confirm-message")
            with Horizontal(id="confirm-buttons"):
                yes, no = plain(f"{self.yes_label} (y)"), plain(f"{self.no_label} (n)")
                yield Button(yes, id="confirm-yes", variant="error")
                yield Button(no, id="confirm-no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "confirm-yes")

    def action_answer(self, answer: bool) -> None:
        """Dismiss with ``answer``."""
        self.dismiss(answer)
