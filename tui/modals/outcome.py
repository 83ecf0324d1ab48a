"""Win and loss modals of TermCraft (usable by any game that has levels).

A won level shows the moves used against the level's par; a lost one shows why the game is
over. The modal dismisses with what the player wants next: ``"next"``, ``"undo"``,
``"restart"``, ``"levels"`` or ``"stay"`` (look at the final position).
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

__all__ = ["OutcomeModal", "par_verdict"]


def par_verdict(moves: int, par: int | None) -> str:
    """Describe ``moves`` against ``par`` in words.

    Args:
        moves: Moves the player used.
        par: The designer's move count, or None.

    Returns:
        E.g. ``"3 moves (par 3): on par"``.
    """
    noun = "move" if moves == 1 else "moves"
    if par is None:
        return f"{moves} {noun} (this level has no par)"
    if moves < par:
        return f"{moves} {noun} (par {par}): under par, better than the designer!"
    if moves == par:
        return f"{moves} {noun} (par {par}): on par"
    return f"{moves} {noun} (par {par}): {moves - par} over par"


class OutcomeModal(ModalScreen[str]):
    """Tell the player the level is won or lost and offer what to do next.

    Keys (won): ``n``/``enter`` next level, ``escape``/``q`` level list, ``s`` stay.
    Keys (lost): ``u`` undo, ``R`` restart, ``escape``/``q`` level list, ``s`` stay.

    Args:
        won: True for a win, False for a loss.
        title: The level's title.
        detail: Moves vs par (win) or the reason (loss).
        has_next: Whether a next level exists (win only).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('next')", "Next level", id="outcome.next"),
        Binding("u,ctrl+z", "choose('undo')", "Undo", id="outcome.undo"),
        Binding("R", "choose('restart')", "Restart", id="outcome.restart"),
        Binding("s", "choose('stay')", "Stay", id="outcome.stay"),
        Binding("escape,q", "choose('levels')", "Levels", id="outcome.levels",
                key_display="esc"),
        Binding("left,h,a", "app.focus_previous", "Previous", show=False, id="outcome.left"),
        Binding("right,l,d", "app.focus_next", "Next", show=False, id="outcome.right"),
    ]

    DEFAULT_CSS = """
    OutcomeModal { align: center middle; }
    #outcome-dialog {
        width: 60;
        max-width: 100%;
        height: auto;
        border: thick $success;
        background: $surface;
        padding: 0 1;
    }
    #outcome-dialog.-lost { border: thick $error; }
    #outcome-heading { text-style: bold; width: 100%; content-align: center middle; }
    #outcome-title { width: 100%; content-align: center middle; color: $text-muted; }
    #outcome-detail { width: 100%; margin: 1 0; }
    #outcome-buttons { height: auto; width: 100%; align-horizontal: center; }
    #outcome-buttons Button { margin: 0 1; min-width: 10; }
    """

    def __init__(self, won: bool, title: str, detail: str, has_next: bool = False) -> None:
        super().__init__()
        self.won = won
        """True for a win."""
        self.level_title = title
        """The level's title."""
        self.detail = detail
        """Moves vs par, or why the game is lost."""
        self.has_next = has_next
        """Whether there is a next level to go to."""

    def compose(self) -> ComposeResult:
        with Vertical(id="outcome-dialog", classes="-won" if self.won else "-lost"):
            yield Label("★ Level solved! ★" if self.won else "✗ No moves left", id="outcome-heading")
            yield Label(self.level_title, id="outcome-title")
            yield Static(self.detail, id="outcome-detail")
            with Horizontal(id="outcome-buttons"):
                if self.won:
                    if self.has_next:
                        yield Button("Next level (n)", id="outcome-next", variant="primary")
                else:
                    yield Button("Undo (u)", id="outcome-undo", variant="primary")
                    yield Button("Restart (R)", id="outcome-restart", variant="warning")
                yield Button("Stay (s)", id="outcome-stay")
                yield Button("Levels (esc)", id="outcome-levels")

    def on_mount(self) -> None:
        self.query_one("#outcome-buttons Button", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "outcome-stay").removeprefix("outcome-"))

    def action_choose(self, choice: str) -> None:
        """Dismiss with ``choice`` (ignores choices that make no sense here)."""
        if choice == "next" and not (self.won and self.has_next):
            return
        self.dismiss(choice)
