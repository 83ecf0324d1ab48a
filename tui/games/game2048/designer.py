"""The level editor of 2048 on the designer's bench (:mod:`tui.screens.designer`).

Structured editing beside the level text, kept in step both ways:

* a board canvas (:class:`BoardCanvas`): arrows (and ``h j k l``) move the cursor; digits
  type a tile value, ``+``/``-`` step through the merge rule's tile values, ``0``,
  ``backspace`` or ``delete`` clear a cell; only tiles of the chosen rule can be put there
  (:func:`core.game2048.design.tile_values`). A level without a board (a random start)
  shows the board its seed deals, dimmed; editing a cell makes that board the level's own
  start board;
* fields: title, size (resizing keeps what fits), merge rule (a Select of the presets; a
  goal or spawn distribution that was the old rule's default follows the new rule), goal
  (a tile of the rule; empty for endless play), seed, start (random tiles or this board),
  tiles dealt at a random start, spawn distribution (``2:9 4:1`` relative weights or
  ``2:0.9 4:0.1`` probabilities summing to 1; values must be tiles of the rule) and hint;
* the level text below (the level-file block, the same loader and carets): the place for
  the description and author, and for anything the fields do not cover.

A change in a field or on the canvas rewrites the text (an undoable checkpoint, ``ctrl+z``);
a change of the text updates the fields and the canvas. The live verdict
(:func:`core.game2048.design.assess`) says whether the board is legal for the rule, whether
the start is already over or won, the empty cells, the largest tile against the goal, and
an *estimate*: the expectimax AI's first move and a seeded autoplay within a time limit.
"Current position" (F9) makes the game in progress the start board, with its seed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static, TextArea

from core.game2048 import GameState, merge_preset_names
from core.game2048.design import (
    assess,
    change_rule,
    check_goal,
    check_spawn,
    describe,
    is_tile_value,
    resize_board,
    step_value,
    tile_values,
)
from core.game2048.game import GAME
from core.game2048.level import MAX_NUMBER, MAX_SEED, MAX_SIZE, Level
from core.registry import GameInfo
from tui.games.game2048.board import EMPTY_STYLE, tile_style
from tui.screens.designer import LevelTextDesigner
from tui.widgets.plain_fields import PlainInput

__all__ = ["BoardCanvas", "Game2048Designer"]

Board = tuple[tuple[int, ...], ...]


class BoardCanvas(Widget, can_focus=True):
    """A 2048 board to edit cell by cell (see the module docstring for the keys).

    It holds no level: each edit is posted as :class:`BoardCanvas.Edited` and the editor
    decides (the board it shows comes back through :meth:`show`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor(-1, 0)", "Up", show=False, id="2048_editor.up"),
        Binding("down,j", "cursor(1, 0)", "Down", show=False, id="2048_editor.down"),
        Binding("left,h", "cursor(0, -1)", "Left", show=False, id="2048_editor.left"),
        Binding("right,l", "cursor(0, 1)", "Right", show=False, id="2048_editor.right"),
        # Not in the footer (the bench's keys fill it): the line under the canvas says them.
        Binding(
            "plus,equals_sign",
            "step(1)",
            "Next tile",
            show=False,
            id="2048_editor.raise",
            key_display="+",
        ),
        Binding(
            "minus",
            "step(-1)",
            "Previous tile",
            show=False,
            id="2048_editor.lower",
            key_display="-",
        ),
        Binding(
            "backspace,delete",
            "clear",
            "Clear the cell",
            show=False,
            id="2048_editor.clear",
            key_display="⌫",
        ),
        # Digits are bindings like the other keys: a key with a binding is acted on once it
        # has bubbled up to the app, so a digit handled on the way (on_key) would overtake an
        # arrow typed before it.
        *(
            Binding(str(d), f"digit('{d}')", show=False, id=f"2048_editor.digit{d}")
            for d in range(10)
        ),
    ]

    DEFAULT_CSS = """
    BoardCanvas { width: auto; height: auto; max-height: 8; max-width: 44; margin-right: 1; }
    BoardCanvas:focus { background: $boost; text-style: underline; }
    """

    class Edited(Message):
        """The designer put ``value`` (0: empty) on cell ``(row, column)``."""

        def __init__(self, row: int, column: int, value: int, before: int) -> None:
            super().__init__()
            self.before = before
            """The value the cell had."""
            self.row = row
            """The cell's row, 0 at the top."""
            self.column = column
            """The cell's column, 0 at the left."""
            self.value = value
            """The new value (0: empty)."""

    class Moved(Message):
        """The cursor moved or the typed digits changed (the editor shows the cell)."""

    def __init__(self, board: Board, rule: str, *, preview: bool, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board: Board = board
        """The board shown."""
        self.rule = rule
        """The merge rule whose tiles may be put on the board."""
        self.preview = preview
        """The board is the one a random start deals (shown dimmed)."""
        self.cursor = (0, 0)
        """The cursor's ``(row, column)``."""
        self.typed = ""
        """Digits typed on the cursor's cell so far (a tile value in the making)."""

    def show(self, board: Board, rule: str, preview: bool) -> None:
        """Show ``board`` (the cursor stays, clamped to the board)."""
        self.board, self.rule, self.preview = board, rule, preview
        n = len(board)
        self.cursor = (min(self.cursor[0], n - 1), min(self.cursor[1], n - 1))
        self.refresh(layout=True)

    @property
    def cell_width(self) -> int:
        """Columns of one cell's value (the widest value on the board, at least 4)."""
        widest = max((len(str(v)) for row in self.board for v in row), default=1)
        return max(4, widest)

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return len(self.board) * (self.cell_width + 2)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return len(self.board)

    def _window(self, count: int, fits: int, at: int) -> range:
        """The rows (or columns) shown when only ``fits`` of ``count`` fit: the cursor's."""
        fits = max(1, min(fits, count))
        first = min(max(0, at - fits // 2), count - fits)
        return range(first, first + fits)

    def render(self) -> Text:
        n = len(self.board)
        width = self.cell_width
        rows = self._window(n, self.size.height or n, self.cursor[0])
        cols = self._window(n, (self.size.width or n * (width + 2)) // (width + 2), self.cursor[1])
        lines = []
        for r in rows:
            line = Text(no_wrap=True, overflow="crop")
            for c in cols:
                value = self.board[r][c]
                here = (r, c) == self.cursor
                label = self.typed + "…" if here and self.typed and value != int(self.typed) else ""
                label = label or (str(value) if value else "·")
                style = tile_style(value) if value else EMPTY_STYLE
                if self.preview:
                    style = Style(dim=True)
                line.append("[" if here else " ", Style(bold=True))
                line.append(label.center(width), style + Style(underline=here))
                line.append("]" if here else " ", Style(bold=True))
            lines.append(line)
        return Text("\n", no_wrap=True).join(lines)

    # -- keys ----------------------------------------------------------------------------------

    def action_cursor(self, rows: int, columns: int) -> None:
        """Move the cursor (it stops at the edges)."""
        n = len(self.board)
        r, c = self.cursor
        self.cursor = (min(max(r + rows, 0), n - 1), min(max(c + columns, 0), n - 1))
        self.typed = ""
        self.refresh()
        self.post_message(self.Moved())

    def _put(self, value: int) -> None:
        r, c = self.cursor
        before = self.board[r][c]
        # Shown at once, so that the next key (a second +) starts from it; the editor puts
        # the board back (:meth:`set_cell`) if it refuses the change.
        self.set_cell(r, c, value)
        self.preview = False
        self.post_message(self.Edited(r, c, value, before))

    def set_cell(self, row: int, column: int, value: int) -> None:
        """Show ``value`` on one cell."""
        rows = [list(line) for line in self.board]
        rows[row][column] = value
        self.board = tuple(tuple(line) for line in rows)
        self.refresh(layout=True)

    def action_step(self, step: int) -> None:
        """The next (or previous) tile value of the rule on the cursor's cell."""
        self.typed = ""
        r, c = self.cursor
        self._put(step_value(self.rule, self.board[r][c], step))

    def action_clear(self) -> None:
        """Empty the cursor's cell."""
        self.typed = ""
        self._put(0)

    def action_digit(self, digit: str) -> None:
        """A digit key (see :meth:`type_digit`)."""
        self.type_digit(digit)

    def type_digit(self, digit: str) -> None:
        """Type one digit on the cursor's cell: the digits so far make a tile value.

        ``0`` on its own clears the cell. The cell takes the typed number as soon as it is a
        tile of the rule; digits that can still grow into one wait (``20…`` on the way to
        2048); a digit that cannot starts a new number, or rings the bell.
        """
        if not self.typed and digit == "0":
            self._put(0)
            self.post_message(self.Moved())
            return
        for typed in (self.typed + digit, digit):
            if self._can_become_tile(typed):
                self.typed = typed
                if is_tile_value(self.rule, int(typed)):
                    self._put(int(typed))
                self.refresh()
                self.post_message(self.Moved())
                return
        self.typed = ""
        self.refresh()
        self.post_message(self.Moved())
        self.app.bell()

    def _can_become_tile(self, typed: str) -> bool:
        if typed.startswith("0") or int(typed) > MAX_NUMBER:
            return False
        values = tile_values(self.rule)
        if values is None:
            return True
        return any(str(v).startswith(typed) for v in values)


class Game2048Designer(LevelTextDesigner):
    """2048's level editor: a board canvas and fields beside the level text (module docs)."""

    EDITOR_TITLE = "2048 level editor"

    BINDINGS: ClassVar[list[BindingType]] = [
        # A modal screen hides the app's own bindings (f1 among them): the editor has its own.
        Binding("f1", "app.help", "Help", show=False, id="2048_editor.help"),
    ]
    TEXT_LABEL = "The level text (description, author; F1: the format)"
    ESTIMATE_MOVES: ClassVar[int] = 200
    """Moves the live verdict's autoplay estimate plays at most."""
    ESTIMATE_SECONDS: ClassVar[float] = 1.0
    """Seconds the estimate may take."""
    ESTIMATE_BUDGET: ClassVar[int] = 200_000
    """Nodes the AI may expand for each move of the estimate (``2048 check``'s default):
    the bound that is the same on a busy machine as on an idle one."""

    DEFAULT_CSS = """
    #g2048ed-top { height: auto; max-height: 8; }
    #g2048ed-fields { width: 1fr; height: auto; }
    #g2048ed-fields Horizontal { height: 1; }
    #g2048ed-fields Label { padding: 0 1 0 0; }
    #g2048ed-fields Input { margin-right: 1; }
    #g2048ed-title, #g2048ed-hint, #g2048ed-spawn { width: 1fr; }
    #g2048ed-size, #g2048ed-tiles { width: 4; }
    #g2048ed-goal, #g2048ed-seed { width: 1fr; }
    #g2048ed-rule { width: 14; }
    #g2048ed-start { width: 17; margin-right: 1; }
    #g2048ed-cell { height: 1; color: $text-muted; }
    #dev-level-text { min-height: 3; }
    """

    level: Level
    state: GameState | None

    def __init__(
        self, level: Any, state: Any = None, mine_id: int | None = None, *, info: GameInfo
    ) -> None:
        super().__init__(level, state, mine_id, info=info)
        self._author: tuple[str, str] = ("", "")
        """(the text, the field whose change wrote it) after a structured change."""

    # -- layout ------------------------------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        level = self.level
        config = level.config
        rule = config.saved_merge_rule()
        with Horizontal(id="g2048ed-top"):
            yield BoardCanvas(
                self._start_board(level), rule, preview=level.board is None, id="g2048ed-canvas"
            )
            with Vertical(id="g2048ed-fields"):
                with Horizontal():
                    yield Label("Title")
                    yield PlainInput(level.title, id="g2048ed-title", compact=True)
                with Horizontal():
                    yield Label("Size")
                    yield PlainInput(
                        str(config.board_size), id="g2048ed-size", compact=True, restrict=r"\d*"
                    )
                    yield Label("Rule")
                    yield Select(
                        [(name, name) for name in merge_preset_names()],
                        value=rule,
                        allow_blank=False,
                        id="g2048ed-rule",
                        compact=True,
                    )
                with Horizontal():
                    yield Label("Goal")
                    yield PlainInput(
                        _goal_text(config.goal),
                        id="g2048ed-goal",
                        compact=True,
                        restrict=r"\d*",
                        placeholder="none",
                        tooltip="The winning tile (a tile of the rule); empty: endless",
                    )
                    yield Label("Seed")
                    yield PlainInput(
                        str(config.initial_seed), id="g2048ed-seed", compact=True, restrict=r"\d*"
                    )
                with Horizontal():
                    yield Label("Start")
                    yield Select(
                        [("random tiles", "random"), ("this board", "board")],
                        value="random" if level.board is None else "board",
                        allow_blank=False,
                        id="g2048ed-start",
                        compact=True,
                    )
                    yield Label("Tiles")
                    yield PlainInput(
                        str(config.number_of_initial_tiles),
                        id="g2048ed-tiles",
                        compact=True,
                        restrict=r"\d*",
                        tooltip="Tiles the seed deals at a random start",
                        disabled=level.board is not None,
                    )
                with Horizontal():
                    yield Label("Spawn")
                    yield PlainInput(
                        _spawn_text(config),
                        id="g2048ed-spawn",
                        compact=True,
                        tooltip="New tiles: 2:9 4:1 (weights) or 2:0.9 4:0.1 (probabilities)",
                    )
                with Horizontal():
                    yield Label("Hint ")
                    yield PlainInput(level.hint, id="g2048ed-hint", compact=True)
        yield Static("", id="g2048ed-cell")
        yield from super().compose_fields()

    def on_mount(self) -> None:
        # Textual also runs the bases' on_mount (the text area takes the focus there): the
        # canvas takes it after them.
        self.call_after_refresh(self.canvas.focus)
        self._show_cell()

    def on_resize(self, event: events.Resize) -> None:
        # The canvas shows a window of a big board: as many rows as leave the text, the
        # verdict and the buttons their lines (8 at 80x24).
        rows = max(4, min(16, event.size.height - 16))
        self.canvas.styles.max_height = rows
        self.query_one("#g2048ed-top").styles.max_height = max(rows, 6)

    @property
    def canvas(self) -> BoardCanvas:
        """The board canvas."""
        return self.query_one("#g2048ed-canvas", BoardCanvas)

    # -- the fields, read and written ----------------------------------------------------------

    def _start_board(self, level: Level) -> Board:
        """The level's start board, or the one its seed deals."""
        if level.board is not None:
            return level.board
        return GAME.initial(level).board

    def _field_readers(self) -> dict[str, tuple[str, Callable[[Any, Level], Level]]]:
        """``widget id -> (field name, read(value, level) -> new level)``."""
        return {
            "g2048ed-title": ("Title", _read_title),
            "g2048ed-size": ("Size", _read_size),
            "g2048ed-rule": ("Rule", _read_rule),
            "g2048ed-goal": ("Goal", _read_goal),
            "g2048ed-seed": ("Seed", _read_seed),
            "g2048ed-start": ("Start", self._read_start),
            "g2048ed-tiles": ("Tiles", _read_tiles),
            "g2048ed-spawn": ("Spawn", _read_spawn),
            "g2048ed-hint": ("Hint", _read_hint),
        }

    def _read_start(self, value: Any, level: Level) -> Level:
        if value == "random":
            return replace(level, board=None)
        if level.board is not None:
            return level
        return replace(level, board=self._start_board(level))

    def _field_value(self, widget_id: str) -> Any:
        widget = self.query_one(f"#{widget_id}")
        assert isinstance(widget, Input | Select)
        return widget.value

    def _text_level(self) -> Level | None:
        """The level in the text, or None when it does not load (no message shown)."""
        return cast("Level | None", self.text_level())

    def _apply(self, widget_id: str, read: Callable[[Level], Level]) -> None:
        """A structured change: the new level goes into the text (undoable), or the error."""
        name = self._field_readers().get(widget_id, ("Board", None))[0]
        level = self._text_level()
        if level is None:
            # The text's error with its caret; the focus stays where the designer types.
            self.read_level(quiet=True)
            return
        try:
            new = read(level)
        except ValueError as error:
            self.show_error(f"{name}: {error}")
            self._mark(widget_id, invalid=True)
            return
        self._mark(widget_id, invalid=False)
        if new != level:
            self._commit(widget_id, level, new)
        if self.error_text.startswith(f"{name}: "):
            self.show_error("")

    def _commit(self, widget_id: str, level: Level, new: Level) -> None:
        """Write ``new`` into the text as one undoable change made by ``widget_id``.

        The checkpoints are whole: before, every field as ``level`` shows it; after, every
        field as ``new`` shows it except the author, which keeps what the designer typed (and
        is left alone when the text's change arrives). So undo and redo put back fields and
        text that agree, and the fields' change messages that follow find nothing to do.
        """
        from grammar.levels import dump_level

        readers = self._field_readers()
        before = list(self.field_values())
        for index, widget in enumerate(self._editables()):
            if widget.id in readers:
                before[index] = _field_text(widget.id, level)
        self.text_area.text = dump_level(new, self.info.id)
        self._author = (self.text_area.text, widget_id)
        self._sync(new, author=widget_id)
        self.record_change(tuple(before))

    def _mark(self, widget_id: str, invalid: bool) -> None:
        if widget_id in self._field_readers():
            self.query_one(f"#{widget_id}").set_class(invalid, "-invalid")

    @on(Input.Changed, "#g2048ed-fields Input")
    @on(Select.Changed, "#g2048ed-fields Select")
    def _structured_changed(self, event: Input.Changed | Select.Changed) -> None:
        widget_id = event.control.id or ""
        entry = self._field_readers().get(widget_id)
        if entry is None:
            return
        _, read = entry
        value = event.value
        level = self._text_level()
        if level is not None and value == _field_text(widget_id, level):
            self._mark(widget_id, invalid=False)
            return  # the field shows the text's own value (the text's checks judge it)
        self._apply(widget_id, lambda level: read(value, level))

    @on(BoardCanvas.Edited)
    def _cell_edited(self, event: BoardCanvas.Edited) -> None:
        def read(level: Level) -> Level:
            board = [list(row) for row in self._start_board(level)]
            board[event.row][event.column] = event.value
            return replace(level, board=tuple(tuple(row) for row in board))

        self._apply("g2048ed-canvas", read)
        level = self._text_level()
        if level is None:  # refused: the text is broken
            self.canvas.set_cell(event.row, event.column, event.before)
        elif self._start_board(level)[event.row][event.column] != event.value:
            self._sync(level, "")  # refused: the canvas shows the text's board again
        self._show_cell()

    @on(BoardCanvas.Moved)
    def _cell_moved(self) -> None:
        self._show_cell()

    def _show_cell(self) -> None:
        canvas = self.canvas
        r, c = canvas.cursor
        value = canvas.board[r][c]
        what = str(value) if value else "empty"
        if canvas.typed and (not value or str(value) != canvas.typed):
            what += f", typing {canvas.typed}…"
        start = "the seed's deal (an edit fixes it)" if canvas.preview else "start board"
        self.query_one("#g2048ed-cell", Static).update(
            Text(
                f"Cell {r + 1},{c + 1}: {what} · {start} · digits, +/-, 0/⌫ clears",
                no_wrap=True,
                overflow="ellipsis",
            )
        )

    @on(TextArea.Changed, "#dev-level-text")
    def _text_changed(self) -> None:
        level = self._text_level()
        if level is None:
            return
        text, author = self._author
        self._sync(level, author if text == self.text_area.text else "")

    def _sync(self, level: Level, author: str) -> None:
        """Show ``level`` in the fields (all but ``author``) and on the canvas."""
        for widget_id, (_, read) in self._field_readers().items():
            if widget_id == author:
                continue
            try:
                same = read(self._field_value(widget_id), level) == level
            except ValueError:
                same = False
            if not same:
                widget = self.query_one(f"#{widget_id}")
                assert isinstance(widget, Input | Select)
                widget.value = _field_text(widget_id, level)
            self._mark(widget_id, invalid=False)
        # Tiles are dealt only at a random start.
        self.query_one("#g2048ed-tiles", Input).disabled = level.board is not None
        rule = level.config.saved_merge_rule()
        self.canvas.show(self._start_board(level), rule, preview=level.board is None)
        self._show_cell()

    # -- the bench's hooks -----------------------------------------------------------------------

    def read_level(self, quiet: bool = False) -> Level | None:
        level = super().read_level(quiet)
        if level is None:
            return None
        for widget_id, (name, read) in self._field_readers().items():
            value = self._field_value(widget_id)
            if value == _field_text(widget_id, level):
                continue  # in step with the text
            try:
                same = read(value, level) == level
                problem = "" if same else f"{name} differs from the level text"
            except ValueError as error:
                problem = str(error)
            if problem:
                self.show_error(f"{name}: {problem}")
                if not quiet:
                    self.query_one(f"#{widget_id}").focus()
                return None
        return level

    def live_verdict(self, level: Level, should_stop: Callable[[], bool]) -> str | None:
        return describe(
            assess(
                level,
                moves=self.ESTIMATE_MOVES,
                time_limit=self.ESTIMATE_SECONDS,
                should_stop=should_stop,
                budget=self.ESTIMATE_BUDGET,
            )
        )

    def level_from_state(self, state: GameState) -> Level | None:
        """The game in progress as the start board; its seed becomes the level's seed, so
        the tiles to come are the ones the game would have dealt."""
        base = self._text_level() or self.level
        try:
            config = state.config.with_changes(initial_seed=state.current_seed)
            return replace(base, config=config, board=state.board)
        except ValueError:
            return None


# --------------------------------------------------------------------------- field readers


def _goal_text(goal: int | None) -> str:
    return "" if goal is None else str(goal)


def _spawn_text(config: Any) -> str:
    from grammar.game2048 import format_distribution

    return format_distribution(config.tile_value_distribution).replace(",", " ")


def _field_text(widget_id: str, level: Level) -> Any:
    """What field ``widget_id`` shows for ``level``."""
    config = level.config
    return {
        "g2048ed-title": level.title,
        "g2048ed-size": str(config.board_size),
        "g2048ed-rule": config.saved_merge_rule(),
        "g2048ed-goal": _goal_text(config.goal),
        "g2048ed-seed": str(config.initial_seed),
        "g2048ed-start": "random" if level.board is None else "board",
        "g2048ed-tiles": str(config.number_of_initial_tiles),
        "g2048ed-spawn": _spawn_text(config),
        "g2048ed-hint": level.hint,
    }[widget_id]


def _number(text: str, low: int, high: int) -> int:
    text = text.strip()
    if not text.isdigit():
        raise ValueError(f"give a whole number from {low} to {high}")
    value = int(text)
    if not low <= value <= high:
        raise ValueError(f"give a whole number from {low} to {high}, not {value}")
    return value


def _read_title(value: str, level: Level) -> Level:
    return replace(level, title=value.strip())


def _read_hint(value: str, level: Level) -> Level:
    return replace(level, hint=value.strip())


def _read_size(value: str, level: Level) -> Level:
    size = _number(value, 2, MAX_SIZE)
    config = level.config
    if size == config.board_size:
        return level
    tiles = min(config.number_of_initial_tiles, size * size)
    config = config.with_changes(board_size=size, number_of_initial_tiles=tiles)
    board = None if level.board is None else resize_board(level.board, size)
    return replace(level, config=config, board=board)


def _read_rule(value: Any, level: Level) -> Level:
    if not isinstance(value, str):
        raise ValueError("choose a merge rule")
    return replace(level, config=change_rule(level.config, value))


def _read_goal(value: str, level: Level) -> Level:
    goal = None if not value.strip() else _number(value, 1, MAX_NUMBER)
    check_goal(goal, level.config.saved_merge_rule())
    if goal == level.config.goal:
        return level
    return replace(level, config=level.config.with_changes(goal=goal))


def _read_seed(value: str, level: Level) -> Level:
    seed = _number(value, 0, MAX_SEED)
    if seed == level.config.initial_seed:
        return level
    return replace(level, config=level.config.with_changes(initial_seed=seed))


def _read_tiles(value: str, level: Level) -> Level:
    size = level.config.board_size
    tiles = _number(value, 0, size * size)
    if tiles == level.config.number_of_initial_tiles:
        return level
    return replace(level, config=level.config.with_changes(number_of_initial_tiles=tiles))


def _read_spawn(value: str, level: Level) -> Level:
    from grammar.game2048 import parse_distribution

    pairs = parse_distribution(value)
    check_spawn(pairs, level.config.saved_merge_rule())
    config = level.config
    if tuple(tuple(t) for t in config.tile_value_distribution) == pairs:
        return level
    return replace(level, config=config.with_changes(tile_value_distribution=pairs))
