"""The toy game's screen: the row, drawn from the state; everything else is the base's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from core.session import Session
from tui.screens.puzzle import PuzzleScreen


class ToyScreen(PuzzleScreen):
    """Play Slide-1D."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "slide('left')", "Left", id="toy.left"),
        Binding("right,l", "slide('right')", "Right", id="toy.right"),
    ]

    def compose_board(self) -> ComposeResult:
        yield Static("", id="toy-row")

    def render_state(self, session: Session) -> None:
        self.query_one("#toy-row", Static).update(" ".join(session.state.row))

    def action_slide(self, direction: str) -> None:
        self.play(direction)

    def keys_for(self, move: str) -> Sequence[str]:
        """A slide is its direction's key (``toy.left``, ``toy.right``): all a new game writes
        to get the generic screen test (``tests/tui/test_every_game.py``)."""
        return (self.binding_key(f"toy.{move}"),)
