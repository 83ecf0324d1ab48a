"""The level editor of Longcat on the designer's bench (:mod:`tui.screens.designer`).

Two views of one level, always in step:

* the **canvas** (:class:`tui.games.longcat.canvas.LongcatCanvas`): the grid with a cursor;
  keys or clicks paint walls and empty cells, move the start and resize the grid. Every
  paint rewrites the level text through :meth:`LevelTextDesigner.set_level`, so it is one
  undoable change (``ctrl+z`` / ``ctrl+y``), and the text stays the level;
* the **level text**: the level as a level file writes it (title, author, description,
  hint, par, grid), read by the same loader as level files, with the same messages and
  carets. Typing in it redraws the canvas as soon as the text loads.

The **live verdict** (:func:`core.longcat.design.assess`, in the bench's worker, bounded by
states and time) says whether the level is solvable, its shortest solution against the par,
the predicted difficulty and band, both solution counts (success states: the seed's number
of solutions, which decides "unique"; solution paths: the winning move sequences), the
states per class and every metric of the state graph. A compact picture of the state graph
(one bar per class) shows when the screen is tall enough; the full graph is
``termarcade longcat analyze FILE --dot`` on the exported file.

``p`` plays the shortest solution on the canvas (a timer; any key or change stops it; the
level is not touched); ``P`` (or the Par button) sets the par to the shortest solution.
"F9 Current position" makes a level of the game in progress: its filled cells become walls
and the cat's head the start.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.timer import Timer
from textual.widgets import Button, Static

from core.longcat.design import Assessment, Cancelled, assess, edit_grid
from core.longcat.difficulty import BANDS, difficulty_label, difficulty_text
from core.longcat.graph import CLASSES
from core.longcat.level import Level, bits
from core.longcat.rules import State, apply_move, body_path, initial, solution_string
from core.registry import GameInfo
from core.text import plural
from tui.games.longcat.board import BoardPicture
from tui.games.longcat.canvas import LongcatCanvas
from tui.screens.designer import LevelTextDesigner, MetadataUpdate

__all__ = [
    "DOT_COMMAND",
    "DOT_NOTE",
    "PLAY_STEP",
    "LongcatDesigner",
    "VerdictText",
    "graph_picture",
    "verdict_text",
]

PLAY_STEP = 0.4
"""Seconds between the moves of the solution played on the canvas."""

GLYPHS: dict[str, str] = {
    "start": "@",
    "success": "★",
    "fail": "✗",
    "reachable": "●",
    "dead": "×",
    "indeterminate": "?",
}
"""One glyph per state class in the graph picture (readable without colour)."""

CLASS_STYLES: dict[str, str] = {
    "start": "bold",
    "success": "green",
    "fail": "red",
    "reachable": "blue",
    "dead": "magenta",
    "indeterminate": "yellow",
}
"""The DOT export's class colours, in the terminal's 16 colours."""

DOT_COMMAND = "termarcade longcat analyze FILE --dot"
"""The command that prints a level file's whole state graph (Graphviz DOT)."""

DOT_NOTE = f"Full graph: {DOT_COMMAND} (F8 exports the file)"
"""How the designer gets the whole state graph (under the graph's picture)."""


class VerdictText(str):
    """The verdict's text, carrying the :class:`Assessment` it was written from."""

    assessment: Assessment

    def __new__(cls, text: str, assessment: Assessment) -> VerdictText:
        made = super().__new__(cls, text)
        made.assessment = assessment
        return made


def verdict_text(result: Assessment) -> str:
    """The live verdict, in words (every metric under its own name).

    Args:
        result: The assessment.

    Returns:
        A few lines: the answer and the par, the solution counts and uniqueness, the states
        per class, the other metrics.
    """
    level = result.level
    lines: list[str] = []
    states, seconds = result.limit
    if result.status == "unknown":
        lines.append(
            f"Solvable? Unknown within the limit ({states:,} states, {seconds:g} s): "
            "a smaller or more walled grid answers."
        )
        return "\n".join(lines)
    if result.status == "unsolvable":
        head = "Unsolvable: no sequence of slides fills every empty cell"
    else:
        shortest = result.shortest or 0
        head = f"Solvable · shortest solution {plural(shortest, 'move')}"
        if level.par is None:
            head += " · no par (P sets it)"
        elif result.par_matches:
            head += f" = par {level.par}"
        else:
            head += f" · par {level.par} differs (P sets it to {shortest})"
    if result.difficulty is not None:
        head += f" · difficulty {difficulty_text(result.difficulty)}"
    lines.append(head)
    metrics = result.metrics
    if metrics is None:
        lines.append(
            f"The state graph has more than {states:,} states: counts, classes and "
            "difficulty unknown within the limit."
        )
        return "\n".join(lines)
    unique = "yes" if result.unique else "no"
    lines.append(
        f"Unique solution: {unique} · success states {metrics.success_states} (seed's count) "
        f"· solution paths {metrics.solution_paths}"
    )
    if result.classes is not None:
        counts = ", ".join(f"{name} {result.classes[name]}" for name in CLASSES)
        lines.append(f"States {metrics.states}: {counts}")
    lines.append(
        f"Edges {metrics.edges}, branches {metrics.branches}, fails {metrics.fails}, "
        f"indeterminate branches {metrics.indeterminate_branches}, solution branches "
        f"{metrics.solution_branches}"
    )
    return "\n".join(lines)


def graph_picture(result: Assessment | None, width: int) -> Text:
    """The compact state graph: one bar per class, its length proportional to the count.

    Args:
        result: The assessment (None: not computed yet).
        width: Columns available.

    Returns:
        The picture (the counts alone when the graph is unknown).
    """
    text = Text()
    if result is None or result.classes is None or result.metrics is None:
        text.append("State graph: unknown within the limit\n" if result else "State graph: …\n")
        text.append(DOT_NOTE, "dim")
        return text
    classes = result.classes
    total = max(1, result.metrics.states)
    label_width = max(len(name) for name in CLASSES) + 2 + len(str(total)) + 1
    bar_width = max(1, width - label_width - 1)
    text.append(f"State graph: {plural(result.metrics.states, 'state')}, ")
    text.append(f"{plural(result.metrics.edges, 'move')}\n")
    for name in CLASSES:
        count = classes[name]
        bar = GLYPHS[name] * (max(1, round(count * bar_width / total)) if count else 0)
        text.append(f"{GLYPHS[name]} {name:<13} {count:>{len(str(total))}} ")
        text.append(bar + "\n", CLASS_STYLES[name])
    text.append(DOT_NOTE, "dim")
    return text


_BANDS = "|".join(re.escape(name) for _, _, name in BANDS)
TITLE_LABEL = re.compile(rf"^(?P<base>.*) · (?:(?:{_BANDS}) \d+|difficulty \?)$")
"""A title that ends with a difficulty label (:func:`core.longcat.difficulty.difficulty_label`)."""
DESCRIBED = re.compile(rf"Predicted difficulty -?\d+(?:\.\d+)? \((?:{_BANDS})\)")
"""The difficulty sentence a description carries (:func:`core.longcat.catalog.describe`)."""


def derived_updates(
    level: Level, result: Assessment, *, labels: bool = True
) -> list[MetadataUpdate]:
    """The metadata of ``level`` that its assessment contradicts, with the new values.

    Args:
        level: The level (its title, description and par as written).
        result: Its assessment by the bench.
        labels: Also the difficulty in the title and the description (else the par only).

    Returns:
        The par (when the assessment knows the shortest solution, or that there is none),
        the difficulty label ending the title and the description's difficulty sentence
        (when the assessment knows the difficulty).
    """
    updates: list[MetadataUpdate] = []
    if level.par is not None and result.status != "unknown" and level.par != result.shortest:
        updates.append(MetadataUpdate("par", level.par, result.shortest, "the shortest solution"))
    if result.difficulty is None or not labels:
        return updates
    label = difficulty_label(result.difficulty)
    titled = TITLE_LABEL.match(level.title)
    if titled is not None:
        title = f"{titled['base']} · {label}"
        updates.append(MetadataUpdate("title", level.title, title, "the predicted difficulty"))
    sentence = f"Predicted difficulty {difficulty_text(result.difficulty)}"
    description = DESCRIBED.sub(sentence, level.description)
    updates.append(
        MetadataUpdate("description", level.description, description, "the predicted difficulty")
    )
    return [u for u in updates if u.old != u.new]


class LongcatDesigner(LevelTextDesigner):
    """The canvas, the level text and the live verdict (see the module docstring)."""

    """F1 opens Longcat's help (its "Level editor (E)" section has these keys)."""
    EDITOR_TITLE = "Longcat level editor"

    BINDINGS: ClassVar[list[BindingType]] = [
        # A modal screen does not reach the app's bindings: its own F1 opens the help.
        Binding("f1", "app.help", "Help", id="longcat_editor.help", show=False),
    ]
    TEXT_LABEL = "Level file text (F1: help)"

    DEFAULT_CSS = """
    #lc-ed-top { height: 1fr; }
    #lc-ed-left { width: 2fr; height: 1fr; margin-right: 1; }
    #lc-ed-right { width: 3fr; height: 1fr; }
    #lc-ed-canvas { width: 1fr; height: 1fr; }
    #lc-ed-cursor { height: 2; color: $text-muted; }
    #lc-ed-graph { height: auto; display: none; }
    #lc-ed-graph.-shown { display: block; }
    LongcatDesigner #dev-verdict { display: none; }
    #lc-ed-verdict-scroll { height: 5; }
    #lc-ed-verdict { height: auto; color: $text-muted; }
    """

    GRAPH_MIN_HEIGHT: ClassVar[int] = 32
    """Screen lines from which the state graph's picture is shown (below: the counts in the
    verdict only)."""

    def __init__(
        self, level: Any, state: Any = None, mine_id: int | None = None, *, info: GameInfo
    ) -> None:
        super().__init__(level, state, mine_id, info=info)
        self.shown_level: Level = level
        """The level the canvas shows (the last text that loaded)."""
        self.assessment: Assessment | None = None
        """The last live verdict's assessment (None until one is computed)."""
        self.playing: list[str] | None = None
        """The moves of the solution still to play on the canvas (None: not playing)."""
        self._play_timer: Timer | None = None
        self._play_state: State | None = None
        self._play_heads: list[int] = []
        self._play_cursor: tuple[int, int] | None = None
        self._note: tuple[str, bool] | None = None

    # -- layout ------------------------------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        with Horizontal(id="lc-ed-top"):
            with Vertical(id="lc-ed-left"):
                yield LongcatCanvas(id="lc-ed-canvas")
                yield Static("", id="lc-ed-cursor")
            with Vertical(id="lc-ed-right"):
                yield from super().compose_fields()
                yield Static("", id="lc-ed-graph")
        # The verdict in a box of fixed height (it scrolls when long), so that the canvas
        # does not move under the mouse when a verdict of another length arrives; the base's
        # own verdict line is hidden (its text is still verdict_text).
        with VerticalScroll(id="lc-ed-verdict-scroll", can_focus=False):
            yield Static("", id="lc-ed-verdict")

    def extra_buttons(self) -> Iterable[Button]:
        yield Button(
            "Par P",
            id="lc-ed-par-button",
            compact=True,
            tooltip="Set the par to the shortest solution (ctrl+z undoes)",
        )
        yield Button(
            "Solution p",
            id="lc-ed-solution-button",
            compact=True,
            tooltip="Play the shortest solution on the canvas (any key stops)",
        )

    def button_actions(self) -> dict[str, Callable[[], None]]:
        return {"lc-ed-par-button": self.action_set_par, "lc-ed-solution-button": self.toggle_play}

    def on_mount(self) -> None:
        # Textual calls every class's on_mount (this one first): no super() call here; the
        # text area takes the focus in LevelTextDesigner's, so the canvas takes it after.
        self.canvas.set_cursor(self.shown_level.start)
        self._show_canvas()
        self.call_after_refresh(self.canvas.focus)

    @property
    def canvas(self) -> LongcatCanvas:
        """The grid."""
        return self.query_one("#lc-ed-canvas", LongcatCanvas)

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#lc-ed-graph").set_class(
            event.size.height >= self.GRAPH_MIN_HEIGHT, "-shown"
        )
        self.call_after_refresh(self._show_graph)  # the bars fit the new width

    # -- the level: text first, canvas drawn from it -------------------------------------------

    def _text_level(self) -> Level | None:
        """The level in the text, or None when it does not load (no message shown)."""
        return cast("Level | None", self.text_level())

    def changed(self) -> None:
        self.stop_playing()
        if self.is_mounted:
            level = self._text_level()
            if level is not None:
                self.shown_level = level
            self._show_canvas(stale=level is None)
        super().changed()

    def _picture(self, level: Level, path: list[tuple[int, int]] | None = None) -> BoardPicture:
        walls = frozenset(level.xy(i) for i in bits(level.walls))
        return BoardPicture(level.width, level.height, walls, path or [level.start])

    def _show_canvas(self, stale: bool = False) -> None:
        level = self.shown_level
        canvas = self.canvas
        canvas.show_level(self._picture(level))
        if canvas.cursor is None:
            canvas.set_cursor(level.start)
        self._show_cursor(stale)

    def _show_cursor(self, stale: bool = False) -> None:
        level = self.shown_level
        line = (
            f"{level.width}×{level.height} = {level.width * level.height} cells, {level.size} open"
        )
        cursor = self.canvas.cursor
        if cursor is not None:
            x, y = cursor
            what = "start" if cursor == level.start else "wall" if level.is_wall(x, y) else "empty"
            line += f"\nrow {y + 1} col {x + 1}: {what}"
        if stale:
            line = "The text does not load:\nthis is the last grid that did"
        self.query_one("#lc-ed-cursor", Static).update(Text(line))

    # -- painting ------------------------------------------------------------------------------

    @on(LongcatCanvas.Command)
    def _command(self, event: LongcatCanvas.Command) -> None:
        event.stop()
        if self.playing is not None:
            self.stop_playing()
            if event.name == "solution":
                return
        name, (x, y) = event.name, event.cell
        if name == "moved":
            if self.canvas.cursor is None:  # it was hidden while the solution played
                self.canvas.set_cursor(self.shown_level.start)
            self._show_cursor()
        elif name == "solution":
            self.toggle_play()
        elif name == "par":
            self.action_set_par()
        else:  # (the canvas put its cursor there itself: a burst of keys keeps its order)
            self.paint(name, (x, y))

    def paint(self, name: str, cell: tuple[int, int]) -> bool:
        """Change the level at ``cell`` (an undoable change that rewrites the text).

        Args:
            name: One of :data:`core.longcat.design.EDITS` (see
                :func:`core.longcat.design.edit_grid`).
            cell: The cell painted (the cursor's).

        Returns:
            True when the level changed.
        """
        level = self._text_level()
        if level is None:
            # The loader's error (the line under the canvas says the grid is the last that
            # loaded), and the text's cursor on it.
            self.read_level()
            self.app.bell()
            return False
        try:
            new = edit_grid(level, name, cell)
        except ValueError as refusal:
            self.say(str(refusal))
            self.app.bell()
            return False
        if new == level:
            return False
        self.set_level(new)
        self.show_error("")
        return True

    def action_set_par(self) -> None:
        """Set the par to the shortest solution (an undoable change)."""
        result = self._current_assessment()
        if result is None:
            return
        level = result.level
        if result.shortest is None:
            self.say("No par: the level has no solution the bench knows of.")
            self.app.bell()
            return
        if level.par == result.shortest:
            self.say(f"The par is the shortest solution already ({level.par}).", ok=True)
            return
        self.set_level(
            Level(
                level.width,
                level.height,
                level.walls,
                level.start,
                title=level.title,
                description=level.description,
                hint=level.hint,
                author=level.author,
                par=result.shortest,
            )
        )
        self.say(f"Par set to {result.shortest} (ctrl+z undoes).", ok=True)

    def _current_assessment(self) -> Assessment | None:
        """The verdict of the level in the text, or None (and a message) when there is none
        yet."""
        level = self._text_level()
        result = self.assessment
        if level is None:
            self.read_level()
            return None
        if result is None or result.level != level:
            self.say("The verdict is not ready yet: try again in a moment.")
            self.app.bell()
            return None
        return result

    def derived_metadata(self, level: Level) -> list[MetadataUpdate]:
        """Par, the title's difficulty label (``"Arduboy 1 · trivial 0"``) and the
        description's "Predicted difficulty" from this very level's verdict."""
        result = self.assessment
        if result is None or result.level != level:
            return []
        opened = self.level
        same_grid = (level.width, level.height, level.walls, level.start) == (
            opened.width,
            opened.height,
            opened.walls,
            opened.start,
        )
        # The bundled packs' figures come from the predictor they were made with (their
        # titles are keys in saves): an unchanged grid keeps them, only an edit re-labels.
        return derived_updates(level, result, labels=not same_grid)

    def exported(self, message: str) -> None:
        """Exported (see the base): also say how to draw the file's whole state graph."""
        self.say(f"{message}\nIts whole state graph: {DOT_COMMAND}", ok=True)

    # -- "Current position" ----------------------------------------------------------------------

    def level_from_state(self, state: Any) -> Any:
        """The level that starts where the game is: the filled cells become walls and the
        cat's head the start (par cleared: it belonged to the old level)."""
        level: Level = state.level
        head = state.head
        return Level(
            level.width,
            level.height,
            level.walls | (state.filled & ~(1 << head)),
            level.xy(head),
            title=level.title,
            description=level.description,
            hint=level.hint,
            author=level.author,
            par=None,
        )

    # -- the live verdict ----------------------------------------------------------------------

    def live_verdict(self, level: Any, should_stop: Callable[[], bool]) -> str | None:
        try:
            result = assess(level, should_stop=should_stop)
        except Cancelled:
            return None
        return VerdictText(verdict_text(result), result)

    def show_live_verdict(self, verdict: object) -> None:
        """The base shows the text; the assessment also fills the box and the graph."""
        super().show_live_verdict(verdict)
        if isinstance(verdict, VerdictText):
            self.assessment = verdict.assessment
            self._show_verdict_box(str(verdict))
            self._show_graph()

    def say(self, message: str, ok: bool = False) -> None:
        """Show an editor's note (a refusal, what a key did) that stays until the next
        message, also when the live verdict re-reads the text (which clears the line)."""
        self.show_error(message, ok)
        self._note = (message, ok)

    def show_error(self, message: str, ok: bool = False) -> None:
        super().show_error(message, ok)
        if self._note is not None and self._note[0] != message:
            self._note = None

    def _show_verdict_box(self, text: str) -> None:
        self.query_one("#lc-ed-verdict", Static).update(Text(text))

    def read_level(self, quiet: bool = False) -> Any:
        note = self._note
        level = super().read_level(quiet)
        if level is None:  # the base clears its verdict line: clear the box too
            self._show_verdict_box("")
        elif quiet and note is not None and not self.error_text:
            self.say(*note)  # the live verdict's re-read keeps the editor's note
        return level

    def _show_graph(self) -> None:
        graph = self.query_one("#lc-ed-graph", Static)
        graph.update(graph_picture(self.assessment, max(20, graph.size.width or 36)))

    # -- the solution on the canvas ------------------------------------------------------------

    def toggle_play(self) -> None:
        """Play the shortest solution on the canvas, or stop it."""
        if self.playing is not None:
            self.stop_playing()
            return
        result = self._current_assessment()
        if result is None:
            return
        if result.status == "unknown":
            self.say("No solution to show: unknown within the limit.")
            return
        if result.solution is None:
            self.say("No solution to show: the level is unsolvable.")
            return
        if not result.solution:
            self.say("The level is won at the start: no move to show.", ok=True)
            return
        level = result.level
        self.playing = list(result.solution)
        self._play_state = initial(level)
        self._play_heads = [level.start_index]
        letters = solution_string(result.solution)
        self.say(
            f"Playing the shortest solution: {letters} (any key stops; the level is unchanged).",
            ok=True,
        )
        self._play_cursor = self.canvas.cursor
        self.canvas.set_cursor(None)
        self._play_timer = self.set_interval(PLAY_STEP, self._play_step)

    def _play_step(self) -> None:
        if not self.playing or self._play_state is None:
            if self._play_timer is not None:
                self._play_timer.stop()
                self._play_timer = None
            return
        move = self.playing.pop(0)
        state = self._play_state = apply_move(self._play_state, move)
        self._play_heads.append(state.head)
        level = state.level
        path = [level.xy(i) for i in body_path(level, self._play_heads)]
        self.canvas.show(self._picture(level, path))
        if not self.playing and self._play_timer is not None:
            self._play_timer.stop()
            self._play_timer = None
            self.say("Solved: the cat fills the grid (any key returns to editing).", ok=True)

    def stop_playing(self) -> None:
        """Stop the solution and show the level again (no-op when not playing)."""
        if self._play_timer is not None:
            self._play_timer.stop()
            self._play_timer = None
        if self.playing is None:
            return
        self.playing = None
        self._play_state = None
        self.canvas.set_cursor(self._play_cursor or self.shown_level.start)
        self._show_canvas()
        self.show_error("")

    def on_key(self, event: events.Key) -> None:
        """Any key stops the solution being played (``p`` on the canvas stops it too)."""
        if self.playing is not None and not (event.key == "p" and self.canvas.has_focus):
            self.stop_playing()
