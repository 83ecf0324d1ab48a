"""The one family of end-of-game dialogs, for every game.

Three kinds, chosen by the puzzle screen base from the engine's status:

* ``"won"``: the level is solved (moves against par); next level, stay, levels, undo.
* ``"goal"``: the goal is reached but the game goes on (2048's "keep playing"); keep
  playing, new game, back.
* ``"lost"``: no move is left (and why); undo, restart, stay, levels.

When the computer played (part of) the game (``by_computer``: 2048's autoplay, Longcat's
solution), a win is headed "Solved by the computer" and says it does not count as the
player's: the level is not marked solved (Tatham: not completed by the player).

The modal dismisses with what the player wants next: ``"next"``, ``"new"``, ``"keep"``,
``"undo"``, ``"restart"``, ``"stay"`` or ``"levels"``.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from core.text import plural
from tui.modals.dialog import Dialog
from tui.text import plain

__all__ = ["OutcomeModal", "par_verdict"]

_HEADINGS = {"won": "★ Level solved! ★", "goal": "★ Goal reached! ★", "lost": "✗ No moves left"}

_BY_COMPUTER = {"won": "Solved by the computer", "goal": "Goal reached by the computer"}
"""Headings when the computer played (part of) the game: it is not the player's solve."""

BY_COMPUTER_NOTE = (
    "The computer played this game, so it does not count as solved by you "
    "(its result goes to the autoplayed boards)."
)
"""The line a computer-played outcome adds under the result."""

_BUTTONS: dict[str, tuple[tuple[str, str, str], ...]] = {
    # kind -> (choice, label, variant), the first one has the focus
    "won": (
        ("next", "Next (n)", "primary"),
        ("stay", "Stay (s)", "default"),
        ("undo", "Undo (u)", "default"),
        ("levels", "Levels (esc)", "default"),
    ),
    "goal": (
        ("keep", "Keep playing (k)", "primary"),
        ("new", "New game (N)", "default"),
        ("levels", "Back (esc)", "default"),
    ),
    "lost": (
        ("undo", "Undo (u)", "primary"),
        ("restart", "Restart (R)", "warning"),
        ("stay", "Stay (s)", "default"),
        ("levels", "Levels (esc)", "default"),
    ),
}


def par_verdict(moves: int, par: int | None, word: str = "move") -> str:
    """Describe ``moves`` against ``par`` in words.

    Args:
        moves: Moves the player used.
        par: The designer's move count, or None.
        word: What par counts (Carving: ``"step"``).

    Returns:
        E.g. ``"3 moves (par 3): on par"``.
    """
    used = plural(moves, word)
    if par is None:
        return f"{used} (this level has no par)"
    if moves < par:
        return f"{used} (par {par}): under par, better than the designer!"
    if moves == par:
        return f"{used} (par {par}): on par"
    return f"{used} (par {par}): {moves - par} over par"


class OutcomeModal(Dialog[str]):
    """Tell the player the game is won, the goal reached, or lost, and offer what next.

    Keys: ``n`` next level (won), ``k`` keep playing (goal), ``N`` new game (goal),
    ``u`` undo, ``R`` restart (lost), ``s`` stay, ``escape``/``q`` back to the levels;
    ``left``/``right`` move between the buttons, ``enter`` presses the focused one.

    Args:
        kind: ``"won"``, ``"goal"`` or ``"lost"``.
        title: The level's title (or the game's name).
        detail: Moves vs par, the score, or why the game is lost.
        has_next: Whether a next level exists (won only).
        by_computer: The computer played (part of) this game.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "choose('next')", "Next level", id="outcome.next"),
        Binding("k", "choose('keep')", "Keep playing", id="outcome.keep"),
        Binding("N", "choose('new')", "New game", id="outcome.new"),
        Binding("u,ctrl+z", "choose('undo')", "Undo", id="outcome.undo"),
        Binding("R", "choose('restart')", "Restart", id="outcome.restart"),
        Binding("s", "choose('stay')", "Stay", id="outcome.stay"),
        Binding("escape,q", "choose('levels')", "Back", id="outcome.levels", key_display="esc"),
        Binding("left,h,a", "app.focus_previous", "Previous", show=False, id="outcome.left"),
        Binding("right,l,d", "app.focus_next", "Next", show=False, id="outcome.right"),
    ]

    DEFAULT_CSS = """
    OutcomeModal { align: center middle; }
    #outcome-dialog {
        width: 64;
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
    #outcome-buttons Button { margin: 0 1 0 0; min-width: 8; }
    """

    def __init__(
        self, kind: str, title: str, detail: str, has_next: bool = False, by_computer: bool = False
    ) -> None:
        super().__init__()
        if kind not in _HEADINGS:
            raise ValueError(f"unknown outcome kind {kind!r}")
        self.kind = kind
        """``"won"``, ``"goal"`` or ``"lost"``."""
        self.level_title = title
        """The level's title."""
        self.detail = detail
        """Moves vs par, the score, or why the game is lost."""
        self.has_next = has_next
        """Whether there is a next level to go to."""
        self.by_computer = by_computer and kind in _BY_COMPUTER
        """The computer played: the heading and a note say it is not the player's solve."""

    @property
    def heading(self) -> str:
        """The dialog's first line."""
        return _BY_COMPUTER[self.kind] if self.by_computer else _HEADINGS[self.kind]

    @property
    def choices(self) -> tuple[str, ...]:
        """The answers this dialog accepts."""
        return tuple(
            choice for choice, _, _ in _BUTTONS[self.kind] if choice != "next" or self.has_next
        )

    def compose(self) -> ComposeResult:
        with Vertical(id="outcome-dialog", classes=f"-{self.kind}"):
            yield Label(self.heading, id="outcome-heading")
            # The title (and a detail quoting the game) are text, never markup.
            yield Label(plain(self.level_title), id="outcome-title")
            detail = plain(self.detail)
            if self.by_computer:
                detail += "\n" + BY_COMPUTER_NOTE
            yield Static(detail, id="outcome-detail")
            with Horizontal(id="outcome-buttons"):
                for choice, label, variant in _BUTTONS[self.kind]:
                    if choice in self.choices:
                        yield Button(label, id=f"outcome-{choice}", variant=variant)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.query_one("#outcome-buttons Button", Button).focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss((event.button.id or "outcome-stay").removeprefix("outcome-"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only this kind of dialog's answers are keys (and in its footer)."""
        if action == "choose" and parameters:
            return parameters[0] in self.choices or parameters[0] == "levels"
        return True

    def action_choose(self, choice: str) -> None:
        """Dismiss with ``choice`` (ignored when this kind of dialog does not offer it)."""
        if choice in self.choices or choice == "levels":
            self.dismiss(choice)
