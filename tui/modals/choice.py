"""A question with a few answers, each a button with its own key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label

from tui.modals.dialog import Dialog
from tui.text import plain

__all__ = ["ChoiceModal"]


class ChoiceModal(Dialog[str | None]):
    """Ask ``question``; dismisses with the chosen answer's id, or None (``escape``).

    The first answer has the focus, so put the safe one first.

    Args:
        question: The question: a plain string is shown as it is (never read as markup, as
            it often quotes a title or a path), a :class:`Content` keeps its styles.
        answers: ``(id, label, key)`` per answer; ``key`` (one character) chooses it.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "choose('')", "Cancel", id="choice.cancel", key_display="esc"),
        Binding("left,h", "app.focus_previous", "Previous", show=False, id="choice.left"),
        Binding("right,l", "app.focus_next", "Next", show=False, id="choice.right"),
    ]

    DEFAULT_CSS = """
    ChoiceModal { align: center middle; }
    #choice-dialog { width: 72; max-width: 100%; height: auto; border: thick $warning;
                     background: $surface; padding: 0 1; }
    #choice-question { width: 100%; margin-bottom: 1; }
    #choice-buttons { height: auto; width: 100%; align-horizontal: center; }
    #choice-buttons Button { margin: 0 1 0 0; min-width: 8; }
    """

    def __init__(self, question: str | Content, answers: Sequence[tuple[str, str, str]]) -> None:
        super().__init__()
        self.question = question
        """The question."""
        self.answers = tuple(answers)
        """``(id, label, key)`` per answer."""

    def compose(self) -> ComposeResult:
        with Vertical(id="choice-dialog"):
            yield Label(plain(self.question), id="choice-question")
            with Horizontal(id="choice-buttons"):
                for answer, label, key in self.answers:
                    yield Button(plain(f"{label} ({key})"), id=f"choice-{answer}")

    def on_mount(self) -> None:
        self.query_one("#choice-buttons Button", Button).focus()

    def on_key(self, event) -> None:
        """An answer's own key chooses it."""
        for answer, _, key in self.answers:
            if event.character == key:
                event.stop()
                self.dismiss(answer)
                return

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "choice-").removeprefix("choice-") or None)

    def action_choose(self, answer: str) -> None:
        """Dismiss with ``answer`` (empty: cancelled)."""
        self.dismiss(answer or None)
