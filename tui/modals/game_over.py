"""End-of-game dialogs for 2048 (and any score-based game): game over, and "you won, keep playing?".

Both dismiss with a short string saying what the player wants next:

* :class:`GameOverModal`: ``"undo"``, ``"new"``, ``"stay"`` (look at the board) or ``"back"``.
* :class:`KeepPlayingModal`: ``"keep"`` (continue the same game), ``"new"`` or ``"back"``.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

__all__ = ["GameOverModal", "KeepPlayingModal"]

_CSS = """
_EndModal { align: center middle; }
.end-dialog {
    width: 56;
    max-width: 100%;
    height: auto;
    background: $surface;
    padding: 0 1;
}
.end-dialog.-lost { border: thick $error; }
.end-dialog.-won { border: thick $success; }
.end-heading { text-style: bold reverse; width: 100%; content-align: center middle; }
.end-detail { width: 100%; margin: 1 0; content-align: center middle; text-align: center; }
.end-buttons { height: auto; width: 100%; align-horizontal: center; }
.end-buttons Button { margin: 0 1; min-width: 8; }
"""


class _EndModal(ModalScreen[str]):
    """Shared behaviour: buttons dismiss with their id's suffix; left/right move focus."""

    DEFAULT_CSS = _CSS

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "end-back").removeprefix("end-"))

    def action_choose(self, choice: str) -> None:
        """Dismiss with ``choice``."""
        self.dismiss(choice)


class GameOverModal(_EndModal):
    """No move is left: show the score and offer undo, a new game, staying, or going back.

    Keys: ``u``/``ctrl+z`` undo, ``N`` new game, ``s`` stay, ``escape``/``q`` back.

    Args:
        score: The final score.
        detail: Extra lines (best score, largest tile ...).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u,ctrl+z", "choose('undo')", "Undo", id="2048-over.undo"),
        Binding("N", "choose('new')", "New game", id="2048-over.new"),
        Binding("s", "choose('stay')", "Stay", id="2048-over.stay"),
        Binding("escape,q", "choose('back')", "Back", id="2048-over.back", key_display="esc"),
        Binding("left,h", "app.focus_previous", "Previous", show=False, id="2048-over.left"),
        Binding("right,l", "app.focus_next", "Next", show=False, id="2048-over.right"),
    ]

    def __init__(self, score: int, detail: str = "") -> None:
        super().__init__()
        self.score = score
        """The final score."""
        self.detail = detail
        """Extra information shown under the score."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="end-dialog -lost", id="game-over-dialog"):
            yield Label(" GAME OVER — no moves left ", classes="end-heading")
            yield Static(f"Score {self.score}\n{self.detail}".rstrip(), classes="end-detail")
            with Horizontal(classes="end-buttons"):
                yield Button("Undo (u)", id="end-undo", variant="primary")
                yield Button("New (N)", id="end-new", variant="warning")
                yield Button("Stay (s)", id="end-stay")
                yield Button("Back (esc)", id="end-back")

    def on_mount(self) -> None:
        self.query_one("#end-undo", Button).focus()


class KeepPlayingModal(_EndModal):
    """The goal tile was reached: congratulate and ask whether to keep playing.

    Keys: ``k``/``enter`` keep playing, ``N`` new game, ``escape``/``q`` back.

    Args:
        goal: The goal tile reached.
        score: The score so far.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k,y", "choose('keep')", "Keep playing", id="2048-win.keep"),
        Binding("N", "choose('new')", "New game", id="2048-win.new"),
        Binding("escape,q", "choose('back')", "Back", id="2048-win.back", key_display="esc"),
        Binding("left,h", "app.focus_previous", "Previous", show=False, id="2048-win.left"),
        Binding("right,l", "app.focus_next", "Next", show=False, id="2048-win.right"),
    ]

    def __init__(self, goal: int, score: int) -> None:
        super().__init__()
        self.goal = goal
        """The goal tile reached."""
        self.score = score
        """The score so far."""

    def compose(self) -> ComposeResult:
        with Vertical(classes="end-dialog -won", id="win-dialog"):
            yield Label(f" ★ YOU REACHED {self.goal}! ★ ", classes="end-heading")
            yield Static(f"Score {self.score}\nKeep playing for a bigger tile?",
                         classes="end-detail")
            with Horizontal(classes="end-buttons"):
                yield Button("Keep playing (k)", id="end-keep", variant="success")
                yield Button("New (N)", id="end-new", variant="warning")
                yield Button("Back (esc)", id="end-back")

    def on_mount(self) -> None:
        self.query_one("#end-keep", Button).focus()
