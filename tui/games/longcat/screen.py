"""The Longcat screen: the canvas, the level's figures, hints, the solution, new levels.

Built on :class:`tui.screens.puzzle.PuzzleScreen`: the session (every move from the start),
undo/redo, restart as an undoable move, saves per level, the outcome dialogs and the hint
worker come from the base; every rule lives in :mod:`core.longcat`.

* The cat is drawn as one connected body (:mod:`tui.games.longcat.board`): the order of
  its cells comes from the moves of the session since the last restart
  (:func:`core.longcat.rules.body_from_history`); a slide grows cell by cell (settings: off).
* ``t`` gives the next move of a solution from the current position (arrows on the cells it
  fills), or says that none is left; ``p`` plays a solution from here, one move at a time
  (``p`` again, or any move, stops it); both run in worker threads with a time limit.
* A dead position (the empty cells split in two or more regions) is said at once and the
  cut-off cells are drawn ``×``: no solution can follow, ``u`` undoes.
* ``g`` generates a level with the settings' method, size and difficulty band and plays it;
  ``N`` does the same on a generated level (on a pack level it goes to the next one);
  ``m`` keeps the level in My levels; ``o`` opens the settings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from core.longcat import AnalysisLimit, analyse
from core.longcat.catalog import GENERATORS
from core.longcat.difficulty import difficulty_label, level_difficulty
from core.longcat.level import DIRECTIONS, Level, bits
from core.longcat.prune import empty_regions
from core.longcat.rules import State, body_from_history, slide, solution_string
from core.longcat.solver import solution_from
from core.session import Session
from core.text import escape_controls, plural
from tui.game_settings import SettingsScreen
from tui.games.longcat.board import ARROWS, BoardPicture, LongcatBoard
from tui.games.longcat.settings_modal import (
    BAND_LABELS,
    SETTINGS_KEY,
    LongcatSettings,
    LongcatSettingsModal,
)
from tui.screens.puzzle import Hint
from tui.workers import cancelled, report_failure

__all__ = ["SLIDE_STEP", "SOLUTION_STEP", "LongcatScreen"]

SLIDE_STEP = 0.025
"""Seconds per cell of the slide animation."""
SOLUTION_STEP = 0.5
"""Seconds between the moves of a shown solution."""
ANALYSIS_STATES = 10_000
"""Largest state graph analysed on screen for the difficulty (bigger: not shown)."""
SOLVER_TIME = 5.0
"""Seconds ``p`` may search for a solution."""


class LongcatScreen(SettingsScreen):
    """Play one Longcat level (see the module docstring)."""

    HINT_TIME_LIMIT: ClassVar[float] = 3.0
    SETTINGS = LongcatSettings
    SETTINGS_KEY = SETTINGS_KEY
    SETTINGS_MODAL = LongcatSettingsModal
    SETTINGS_SAVED = "Longcat settings saved."
    GENERATORS = tuple(GENERATORS)

    CSS_PATH = "styles.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k,w", "move('up')", "Up", show=False, id="longcat.up"),
        Binding("down,j,s", "move('down')", "Down", show=False, id="longcat.down"),
        Binding("left,h,a", "move('left')", "Left", show=False, id="longcat.left"),
        Binding("right,l,d", "move('right')", "Right", show=False, id="longcat.right"),
        Binding(
            "p",
            "solution",
            "Solve",
            id="longcat.solution",
            tooltip="Play a solution from here, move by move (p again stops).",
        ),
        Binding(
            "g",
            "generate",
            "New",
            id="longcat.generate",
            tooltip="Generate a level with the settings' method and difficulty.",
        ),
        Binding(
            "m",
            "keep",
            "Keep",
            id="longcat.keep",
            show=False,
            tooltip="Keep this level in My levels.",
        ),
        Binding(
            "o,comma", "settings", "Settings", id="longcat.settings", key_display="o", show=False
        ),
    ]

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self._path: tuple[int, ...] = ()
        self._anim_timer: Timer | None = None
        self._anim_from = 0
        self._hint: tuple[str, tuple[tuple[int, int], ...]] | None = None
        self._was_dead = False
        self._demo: list[str] = []
        self._demo_timer: Timer | None = None
        self._solution_job: Worker[Any] | None = None
        self._solution_start: State | None = None
        self._generate_job: Worker[Any] | None = None
        self._generate_ref: Any = None
        self._difficulty: dict[Level, str] = {}

    # -- settings (the glue is tui.game_settings.SettingsScreen's) ---------------------------

    def before_settings(self) -> None:
        self.stop_solution()

    def settings_applied(
        self, old: LongcatSettings, new: LongcatSettings, generators_changed: bool
    ) -> None:
        """Say what ``g`` makes now (method, temperature, size, band)."""
        gen = GENERATORS[new.method]
        learned = f" at temperature {new.temperature:g}" if new.method == "rl" else ""
        self.say(
            f"Settings saved: g makes {gen.title} levels{learned}, {new.size}, "
            f"{BAND_LABELS[new.band].lower()}."
        )

    # -- layout --------------------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        with Horizontal(id="lc-main"):
            yield LongcatBoard(id="lc-board")
            with Vertical(id="lc-side"):
                yield Static("", id="lc-info")
                yield Static("", id="lc-status")
                yield Static(
                    "move: arrows hjkl wasd\nt tip · p solution\n"
                    "g new level · o settings\nm keep in My levels",
                    id="lc-keys",
                )

    def render_state(self, session: Session) -> None:
        state: State = session.state
        level = state.level
        path = body_from_history(session.line_since_restart())
        board = self.query_one(LongcatBoard)
        regions = empty_regions(level.board, state.filled)
        cut = frozenset(level.xy(i) for region in regions[1:] for i in bits(region))
        walls = frozenset(level.xy(i) for i in bits(level.walls))
        picture = BoardPicture(
            level.width, level.height, walls, [level.xy(i) for i in path], cut, self._hint
        )
        grows = (
            len(path) > len(self._path)
            and path[: len(self._path)] == self._path
            and bool(self._path)
        )
        start = len(self._path)
        self._path = path
        self._stop_animation()
        if grows and self.settings.animate and self.is_mounted:
            board.show(picture, start)
            self._anim_timer = self.set_interval(SLIDE_STEP, self._animate_step)
        else:
            board.show(picture)
        dead = len(regions) > 1
        if dead and not self._was_dead:
            self.say(
                f"The empty cells are split in {_count_word(len(regions))}: this cannot "
                "be finished from here. u undoes.",
                "warning",
            )
        self._was_dead = dead
        self._show_side(session, regions)

    def _show_side(self, session: Session, regions: list[int]) -> None:
        state: State = session.state
        level = state.level
        filled = state.filled.bit_count()
        info = Text()
        # Both sizes: the seed's (every cell of the grid) and the open cells to fill.
        info.append(
            f"{level.width}×{level.height} = {level.width * level.height} cells, "
            f"{level.size} open\n"
        )
        info.append("Filled  ")
        info.append(f"{filled}/{level.size}", "bold")
        info.append("\nMoves   ")
        info.append(str(session.moves_made), "bold")
        if level.par is not None:
            info.append(f" (par {level.par})")
        info.append("\nLevel   ")
        info.append(self._difficulty_label(level), "bold")
        self.query_one("#lc-info", Static).update(info)
        status = Text()
        if session.status == "won":
            status.append("★ Solved!", "bold")
        elif session.status == "lost":
            status.append(f"✗ Stuck: {plural(level.size - filled, 'cell')} left\n", "bold")
            status.append("u undoes, R restarts")
        elif len(regions) > 1:
            status.append("✗ Dead end\n", "bold")
            status.append(
                f"The empty cells are split in {_count_word(len(regions))} "
                "(× marks the cut-off ones): u undoes"
            )
        if self._demo:
            status.append(
                ("\n" if status.plain else "") + "▶ Showing the solution (p stops)", "bold"
            )
        self.query_one("#lc-status", Static).update(status)

    def _difficulty_label(self, level: Level) -> str:
        """The level's one difficulty (:func:`core.longcat.difficulty.level_difficulty`) as
        its title and the level list show it (``easy 28``); ``no solution`` for a level
        that has none, ``difficulty ?`` when its graph is too large to tell."""
        if level not in self._difficulty:
            try:
                analysis = analyse(level, max_states=ANALYSIS_STATES)
            except AnalysisLimit:
                label = difficulty_label(None)
            else:
                value = level_difficulty(analysis)
                label = "no solution" if value is None else difficulty_label(value)
            self._difficulty[level] = label
        return self._difficulty[level]

    # -- the slide animation -------------------------------------------------------------------

    def _animate_step(self) -> None:
        board = self.query_one(LongcatBoard)
        shown = (board.shown_cells or len(self._path)) + 1
        if shown >= len(self._path):
            self._stop_animation()
        else:
            board.set_visible(shown)

    def _stop_animation(self) -> None:
        if self._anim_timer is not None:
            self._anim_timer.stop()
            self._anim_timer = None
            self.query_one(LongcatBoard).set_visible(None)

    @property
    def animating(self) -> bool:
        """True while a slide is being drawn."""
        return self._anim_timer is not None

    # -- moves ---------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        """Slide the cat; an illegal slide changes nothing (the message line says why)."""
        self.stop_solution()
        self._hint = None
        self.play(direction)

    def keys_for(self, move: Any) -> Sequence[str]:
        """A slide is its direction's key (the ``longcat.up`` ... bindings).

        Args:
            move: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.

        Returns:
            The one key.
        """
        return (self.binding_key(f"longcat.{move}"),)

    def on_level_changed(self) -> None:
        self.stop_solution()
        self._stop_animation()
        self._path = ()
        self._hint = None
        self._was_dead = False

    def loss_reason(self) -> str | None:
        state: State = self.state
        left = state.level.size - state.filled.bit_count()
        reason = f"The cat is stuck with {plural(left, 'empty cell')} left."
        if len(empty_regions(state.level.board, state.filled)) > 1:
            reason += " The empty cells were split in two: no slide could fill them all."
        return reason

    # -- hints and the solution ----------------------------------------------------------------

    def compute_hint(self, state: State, should_stop: Any, time_limit: float) -> Hint:
        solution = solution_from(state, time_limit=time_limit, should_stop=should_stop)
        if solution.status == "solved" and solution.moves:
            move = solution.moves[0]
            return Hint(
                f"Tip: {ARROWS[move]} {move} ({plural(len(solution.moves), 'move')} to go)", move
            )
        if solution.status == "unsolvable":
            return Hint("No solution from here: undo (u) or restart (R).")
        return Hint(f"No solution found within {time_limit:g} s.")

    def highlight_move(self, move: Any) -> None:
        """Show the hinted slide as arrows over the cells it would fill."""
        state: State = self.state
        board = state.level.board
        moved = slide(board, state.head, state.filled, DIRECTIONS.index(move))
        if moved is None:
            return
        cells = tuple(state.level.xy(i) for i in bits(moved[1] & ~state.filled))
        self._hint = (move, cells)
        self.render_state(self.session)
        self._hint = None  # shown until the next change of the position

    def action_solution(self) -> None:
        """Play a solution from here, one move at a time (``p`` again stops)."""
        if self._demo or self._solution_running():
            self.stop_solution()
            self.say("Stopped showing the solution.")
            return
        if self.session.status == "won":
            self.say("The level is solved already.")
            return
        if self.session.finished:
            self.say("No solution from here: the cat is stuck. u undoes, R restarts.", "warning")
            return
        self.say("Looking for a solution…")
        state = self._solution_start = self.state
        self._solution_job = self.run_worker(
            # p again cancels the worker; the search polls that flag (cancelled).
            lambda: solution_from(state, time_limit=SOLVER_TIME, should_stop=cancelled),
            thread=True,
            group="longcat-solution",
            exclusive=True,
            exit_on_error=False,
        )

    def _solution_running(self) -> bool:
        job = self._solution_job
        return job is not None and job.state in (WorkerState.PENDING, WorkerState.RUNNING)

    def _solution_found(self, solution: Any, state: State | None) -> None:
        if state is not self.state:
            return  # the player moved meanwhile
        if solution.status == "unsolvable":
            self.say(
                "No solution from here: the position is lost. u undoes, R restarts.", "warning"
            )
        elif solution.status != "solved":
            self.say(f"No solution found within {SOLVER_TIME:g} s.", "warning")
        else:
            self.mark_autoplayed()  # a win from here goes to the autoplayed boards
            self._demo = list(solution.moves)
            self.say(
                f"The solution from here: {plural(len(self._demo), 'move')} "
                f"({solution_string(self._demo)}); p stops."
            )
            self._demo_timer = self.set_interval(SOLUTION_STEP, self._demo_step)
            self._demo_step()

    def _demo_step(self) -> None:
        if not self._demo:
            self.stop_solution()
            return
        if self.animating or self.app.screen is not self:
            return
        move = self._demo.pop(0)
        self._hint = None
        if not self.play(move) or not self._demo:
            self.stop_solution()

    def stop_solution(self) -> None:
        """Stop showing the solution (no-op when it is not shown)."""
        if self._solution_job is not None:
            self._solution_job.cancel()
            self._solution_job = None
        if self._demo_timer is not None:
            self._demo_timer.stop()
            self._demo_timer = None
        if self._demo:
            self._demo = []
            if self.is_mounted:
                self._show_side(
                    self.session, empty_regions(self.state.level.board, self.state.filled)
                )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Solutions and generated levels arrive here; hints go to the base."""
        worker = event.worker
        if worker is self._solution_job:
            if event.state == WorkerState.SUCCESS:
                self._solution_job = None
                self._solution_found(worker.result, self._solution_start)
            elif event.state == WorkerState.ERROR:
                self._solution_job = None
                self.say(report_failure(self, worker, "The solver"), "error")
            return
        if worker is self._generate_job:
            if event.state == WorkerState.SUCCESS:
                self._generate_job = None
                self._open_generated()
            elif event.state == WorkerState.ERROR:
                self._generate_job = None
                self.say(report_failure(self, worker, "Making a new level"), "error")
        # The base's handler (hints) runs too: Textual calls each class's own handler.

    # -- new levels ----------------------------------------------------------------------------

    def action_next_level(self) -> None:
        """On a generated level: a new one with the settings; else the pack's next level."""
        if self.ref is not None and self.ref.source.kind == "generator":
            self.action_generate()
        else:
            super().action_next_level()

    def action_generate(self) -> None:
        """Generate a level with the settings' method, size and band, then play it."""
        if self.launcher is None:
            self.say("New levels can be made from the level list.")
            return
        if self._generate_job is not None:
            self.say("Still generating…")
            return
        settings = self.settings
        source = self.launcher.sources.generator(settings.method)
        if source is None:  # pragma: no cover - every method has a source
            self.say(f"There is no {settings.method} generator.", "error")
            return
        ref = source.new()
        self._generate_ref = ref
        self.stop_solution()
        band = BAND_LABELS.get(settings.band, settings.band).split(" (")[0].lower()
        self.say(f"Generating a {source.title} level ({settings.size}, {band})…")
        self._generate_job = self.run_worker(
            lambda: source.level(ref.key),
            thread=True,
            group="longcat-generate",
            exclusive=True,
            exit_on_error=False,
        )

    def _open_generated(self) -> None:
        ref, self._generate_ref = self._generate_ref, None
        if ref is None or self.launcher is None or self.app.screen is not self:
            return
        try:
            opened_ref, level, session, _ = self.launcher.prepare(ref)
        except Exception as error:  # a level that cannot be opened must not crash the game
            self.say(f"No new level: {error}", "error")
            return
        self.switch_level(opened_ref, level, session)
        kept = " Your previous game is saved." if self._was_touched else ""
        self.say(f"New level: {escape_controls(level.title)}.{kept} m keeps it in My levels.")

    def action_keep(self) -> None:
        """Keep this level in the player's own levels (My levels)."""
        from tui.exporting import save_to_my_levels
        from tui.store import DuplicateTitle

        if self.ref is not None and self.ref.source.kind == "mine":
            self.say("This level is one of yours already.")
            return
        try:
            item = save_to_my_levels(self.arcade.store, self.info.id, self.level)
        except DuplicateTitle:
            self.say(f"My levels already has “{escape_controls(self.level_title)}”.")
            return
        if item is None:
            self.say("Could not keep the level (see the storage warning).", "error")
            return
        self.say(f"Kept in My levels as “{escape_controls(item.title)}”.")

    def action_back(self) -> None:
        self.stop_solution()
        self._stop_animation()
        super().action_back()


def _count_word(n: int) -> str:
    return {2: "two", 3: "three", 4: "four"}.get(n, str(n))
