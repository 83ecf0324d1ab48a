"""The Longcat level editor's canvas: the level's grid with a cursor, painted by keys or mouse.

It draws like the game's board (:mod:`tui.games.longcat.board`: walls as blocks, empty cells
as dots, the start as the cat's face, the same glyphs and the same fall-backs) and adds a
cursor: the cell under it is drawn in reverse video (a wall as ``▒``), so it shows without
colour. The widget holds no level: every key and click becomes a :class:`LongcatCanvas.Command`
message that the editor turns into an undoable change of the level (or a move of the cursor),
so the editor stays the one place where the level changes.

Keys (when the canvas has the focus): arrows and ``h j k l`` move the cursor; ``space`` or
``enter`` toggles wall/empty; ``#`` and ``.`` paint a wall or an empty cell; ``s`` or ``@``
puts the start on the cursor; ``>`` and ``<`` (or shift+right/left) add or remove the last
column; ``+`` and ``-`` (or shift+down/up) add or remove the last row; ``X`` and ``O``
make every cell but the start a wall, or empty (to start afresh); ``p`` plays the
shortest solution; ``P`` sets the par to it. A click on a cell moves the cursor there and
toggles the cell.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message

from tui.games.longcat.board import BoardPicture, LongcatBoard

__all__ = ["STEPS", "LongcatCanvas"]

STEPS: dict[str, tuple[int, int]] = {
    "up": (0, -1),
    "down": (0, 1),
    "left": (-1, 0),
    "right": (1, 0),
}
"""The cursor's step per direction."""


class LongcatCanvas(LongcatBoard, can_focus=True):
    """The editor's grid: a board with a cursor whose keys and clicks become commands."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "command('up')", "Up", show=False, id="longcat_editor.up"),
        Binding("down,j", "command('down')", "Down", show=False, id="longcat_editor.down"),
        Binding("left,h", "command('left')", "Left", show=False, id="longcat_editor.left"),
        Binding("right,l", "command('right')", "Right", show=False, id="longcat_editor.right"),
        Binding(
            "space,enter",
            "command('toggle')",
            "Wall/empty",
            id="longcat_editor.toggle",
            key_display="space",
        ),
        Binding("number_sign", "command('wall')", "Wall", show=False, id="longcat_editor.wall"),
        Binding("full_stop", "command('empty')", "Empty", show=False, id="longcat_editor.empty"),
        Binding("s,at", "command('start')", "Start", id="longcat_editor.start", key_display="s"),
        Binding(
            "greater_than_sign,shift+right",
            "command('wider')",
            "Wider",
            show=False,
            id="longcat_editor.wider",
        ),
        Binding(
            "less_than_sign,shift+left",
            "command('narrower')",
            "Narrower",
            show=False,
            id="longcat_editor.narrower",
        ),
        Binding(
            "plus,shift+down",
            "command('taller')",
            "Taller",
            show=False,
            id="longcat_editor.taller",
        ),
        Binding(
            "minus,shift+up",
            "command('shorter')",
            "Shorter",
            show=False,
            id="longcat_editor.shorter",
        ),
        Binding(
            "X", "command('all_walls')", "All walls", show=False, id="longcat_editor.all_walls"
        ),
        Binding(
            "O", "command('all_empty')", "All empty", show=False, id="longcat_editor.all_empty"
        ),
        Binding("p", "command('solution')", "Solution", id="longcat_editor.solution"),
        Binding("P", "command('par')", "Par", id="longcat_editor.par"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = LongcatBoard.COMPONENT_CLASSES | {
        "longcat-board--cursor"
    }

    DEFAULT_CSS = """
    LongcatCanvas { min-width: 8; min-height: 3; }
    LongcatCanvas > .longcat-board--cursor { color: $text-warning; text-style: bold reverse; }
    LongcatCanvas:focus > .longcat-board--frame { color: $accent; text-style: bold; }
    """

    FOLLOW_NOTE: ClassVar[str] = "follows the cursor"

    class Command(Message):
        """A key or click on the canvas: what the designer asked for, and where.

        Attributes:
            name: ``moved`` (the cursor moved), ``toggle wall empty start``
                (paint the cell), ``wider narrower taller shorter`` (resize),
                ``all_walls all_empty`` (every cell but the start),
                ``solution`` (play the shortest solution), ``par`` (set the par to it).
            cell: The cell concerned (the cursor's, or the clicked one).
        """

        def __init__(self, name: str, cell: tuple[int, int]) -> None:
            super().__init__()
            self.name = name
            """What was asked."""
            self.cell = cell
            """The cell concerned."""

    def __init__(
        self, *, name: str | None = None, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self.cursor: tuple[int, int] | None = (0, 0)
        """The cursor's cell (None: not drawn, while a solution plays)."""
        self._cursor_key: object = None

    def set_cursor(self, cell: tuple[int, int] | None) -> None:
        """Put the cursor on ``cell`` (None hides it)."""
        if cell != self.cursor:
            self.cursor = cell
            self.refresh()

    def action_command(self, name: str) -> None:
        """Move the cursor (``up down left right``: here, so that a burst of keys moves it
        as many cells, then a ``moved`` command), else post :class:`Command` ``name`` at
        the cursor."""
        step = STEPS.get(name)
        if step is not None:
            picture = self.picture
            if self.cursor is not None and picture is not None:
                x, y = self.cursor[0] + step[0], self.cursor[1] + step[1]
                self.set_cursor(
                    (min(max(x, 0), picture.width - 1), min(max(y, 0), picture.height - 1))
                )
            name = "moved"
        self.post_message(self.Command(name, self.cursor or (0, 0)))

    def on_click(self, event: events.Click) -> None:
        """A click on a cell moves the cursor there and toggles the cell."""
        cell = self.cell_at(event.x, event.y)
        if cell is None:
            return
        self.focus()
        self.set_cursor(cell)
        self.post_message(self.Command("toggle", cell))

    def view_centre(self) -> tuple[int, int]:
        return self.cursor if self.cursor is not None else super().view_centre()

    def _layout(self) -> None:
        key = (self.size, self.picture, self.shown_cells, self.cursor)
        if key == self._cursor_key:
            return
        self._key = None  # the board's own cache does not know the cursor
        super()._layout()
        self._cursor_key = key
        picture = self.picture
        if picture is None or self.cursor is None or not self._lines:
            return
        x, y = self.cursor
        if not (0 <= x < picture.width and 0 <= y < picture.height):
            return
        frame = 1 if self._framed else 0
        ch = self._scale[1]
        for i in range(ch):
            line = self._lines[frame + y * ch + i]
            text, role = line[frame + x]
            if role == "wall":
                text = "▒" * len(text)
            line[frame + x] = (text, "cursor")

    def show_level(self, picture: BoardPicture) -> None:
        """Show ``picture`` and keep the cursor inside its grid."""
        self.show(picture)
        if self.cursor is not None:
            x, y = self.cursor
            self.set_cursor((min(x, picture.width - 1), min(y, picture.height - 1)))
