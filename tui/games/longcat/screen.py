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

import asyncio
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static
from textual.worker import Worker

from core.longcat import AnalysisLimit, analyse
from core.longcat.catalog import GENERATORS
from core.longcat.difficulty import difficulty_label, level_difficulty
from core.longcat.level import DIRECTIONS, Level, bits
from core.longcat.prune import cut_off, is_dead, region_count
from core.longcat.rules import State, body_from_history, slide, solution_string
from core.longcat.solver import Solution, solution_from
from core.session import Session
from core.text import escape_controls, plural
from tui.game_settings import SettingsScreen
from tui.games.longcat.board import ARROWS, BoardPicture, LongcatBoard
from tui.games.longcat.panels import LongcatInfo, LongcatStatus, count_word, stuck_regions
from tui.games.longcat.settings_modal import (
    BAND_LABELS,
    SETTINGS_KEY,
    LongcatSettings,
    LongcatSettingsModal,
)
from tui.screens.play.bindings import slide_bindings
from tui.screens.puzzle import Hint
from tui.sources import LevelRef, SourceKind
from tui.workers import Route, cancelled, finished, running

__all__ = ["SLIDE_STEP", "SOLUTION_STEP", "LongcatScreen"]

SLIDE_STEP = 0.025
"""Seconds per cell of the slide animation."""
SOLUTION_STEP = 0.5
"""Seconds between the moves of a shown solution."""
ANALYSIS_STATES = 10_000
"""Largest state graph analysed on screen for the difficulty (bigger: not shown)."""
SOLVER_TIME = 5.0
"""Seconds ``p`` may search for a solution."""
SOLUTION_GROUP = "longcat-solution"
"""The worker group of ``p``'s search for a solution."""
DEMO_GROUP = "longcat-demo"
"""The worker group of the solution being played, move by move."""
GENERATE_GROUP = "longcat-generate"
"""The worker group of ``g``'s new level."""


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
        *slide_bindings("longcat"),
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
                yield LongcatInfo("", id="lc-info")
                yield LongcatStatus("", id="lc-status")
                yield Static(
                    "move: arrows hjkl wasd\nt tip · p solution\n"
                    "g new level · o settings\nm keep in My levels",
                    id="lc-keys",
                )

    def render_state(self, session: Session) -> None:
        state: State = session.state
        level = state.level
        path = body_from_history(session.line_since_restart())
        picture = BoardPicture(
            level.width,
            level.height,
            frozenset(level.xy(i) for i in bits(level.walls)),
            [level.xy(i) for i in path],
            frozenset(level.xy(i) for i in bits(cut_off(level.board, state.filled))),
        )
        board = self.query_one(LongcatBoard)
        shown = board.picture
        grows = shown is not None and shown.grows_into(picture)
        if grows and shown is not None and self.settings.animate and self.is_mounted:
            board.grow(picture, len(shown.path), SLIDE_STEP)
        else:
            board.show(picture)
        status = self.query_one(LongcatStatus)
        # Said once, when a move makes the position dead (the panel keeps saying it).
        if is_dead(level.board, state.filled) and not _dead(status.session, level):
            regions = region_count(level.board, state.filled)
            self.say(
                f"The empty cells are split in {count_word(regions)}: this cannot "
                "be finished from here. u undoes.",
                "warning",
            )
        status.session = session
        info = self.query_one(LongcatInfo)
        info.difficulty = _difficulty_label(level)
        info.session = session

    @property
    def animating(self) -> bool:
        """True while a slide is being drawn."""
        return self.is_mounted and self.query_one(LongcatBoard).animating

    # -- moves ---------------------------------------------------------------------------------

    def action_move(self, direction: str) -> None:
        """Slide the cat; an illegal slide changes nothing (the message line says why)."""
        self.stop_solution()
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

    def loss_reason(self) -> str | None:
        state: State = self.state
        left = state.level.size - state.filled.bit_count()
        reason = f"The cat is stuck with {plural(left, 'empty cell')} left."
        if is_dead(state.level.board, state.filled):
            reason += f" The empty cells are split: {stuck_regions(region_count(state.level.board, state.filled))}."
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
        """Show the hinted slide as arrows over the cells it would fill (until the position
        is drawn again)."""
        state: State = self.state
        board = state.level.board
        moved = slide(board, state.head, state.filled, DIRECTIONS.index(move))
        if moved is None:
            return
        cells = tuple(state.level.xy(i) for i in bits(moved[1] & ~state.filled))
        self.query_one(LongcatBoard).highlight((move, cells))

    def action_solution(self) -> None:
        """Play a solution from here, one move at a time (``p`` again stops)."""
        if running(self, DEMO_GROUP) or running(self, SOLUTION_GROUP):
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
        self._solve(self.state)

    @work(thread=True, exclusive=True, group=SOLUTION_GROUP, exit_on_error=False)
    def _solve(self, state: State) -> tuple[State, Solution]:
        # p again cancels the worker; the search polls that flag (cancelled).
        return state, solution_from(state, time_limit=SOLVER_TIME, should_stop=cancelled)

    def _solution_found(self, found: tuple[State, Solution]) -> None:
        state, solution = found
        if state is not self.state:
            return  # the player moved meanwhile
        if solution.status == "unsolvable":
            self.say(
                "No solution from here: the position is lost. u undoes, R restarts.", "warning"
            )
        elif solution.status != "solved":
            self.say(f"No solution found within {SOLVER_TIME:g} s.", "warning")
        elif solution.moves:
            self.mark_autoplayed()  # a win from here goes to the autoplayed boards
            moves = tuple(solution.moves)
            self.say(
                f"The solution from here: {plural(len(moves), 'move')} "
                f"({solution_string(moves)}); p stops."
            )
            self.query_one(LongcatStatus).demo = True
            # The first move at once, the rest one by one.
            if self.play(moves[0]) and moves[1:]:
                self._play_solution(moves[1:])
            else:
                self._solution_over(None)

    @work(exclusive=True, group=DEMO_GROUP, exit_on_error=False)
    async def _play_solution(self, moves: tuple[str, ...]) -> None:
        """Play ``moves``, :data:`SOLUTION_STEP` apart; a slide being drawn, or a dialog
        over the screen, holds the next one back (p or any move cancels it)."""
        for move in moves:
            await asyncio.sleep(SOLUTION_STEP)
            while self.animating or self.app.screen is not self:
                await asyncio.sleep(SOLUTION_STEP)
            if not self.play(move):
                return

    def _solution_over(self, _: object) -> None:
        if self.is_mounted:
            self.query_one(LongcatStatus).demo = False

    def stop_solution(self) -> None:
        """Stop looking for and showing the solution (no-op when neither runs)."""
        self.workers.cancel_group(self, SOLUTION_GROUP)
        self.workers.cancel_group(self, DEMO_GROUP)
        self._solution_over(None)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """Solutions, their playing and generated levels end here; hints go to the base
        (Textual calls its handler too: this one must not call it)."""
        finished(
            self,
            event,
            {
                SOLUTION_GROUP: Route("The solver", self._solution_found, self._say_error),
                DEMO_GROUP: Route("Showing the solution", self._solution_over, self._demo_failed),
                GENERATE_GROUP: Route("Making a new level", self._open_generated, self._say_error),
            },
        )

    def _say_error(self, line: str) -> None:
        self.say(line, "error")

    def _demo_failed(self, line: str) -> None:
        self._solution_over(None)
        self.say(line, "error")

    # -- new levels ----------------------------------------------------------------------------

    def action_next_level(self) -> None:
        """On a generated level: a new one with the settings; else the pack's next level."""
        if self.ref is not None and self.ref.source.kind == SourceKind.GENERATOR:
            self.action_generate()
        else:
            super().action_next_level()

    def action_generate(self) -> None:
        """Generate a level with the settings' method, size and band, then play it."""
        if self.launcher is None:
            self.say("New levels can be made from the level list.")
            return
        if running(self, GENERATE_GROUP):
            self.say("Still generating…")
            return
        settings = self.settings
        source = self.launcher.sources.generator(settings.method)
        if source is None:  # pragma: no cover - every method has a source
            self.say(f"There is no {settings.method} generator.", "error")
            return
        self.stop_solution()
        band = BAND_LABELS.get(settings.band, settings.band).split(" (")[0].lower()
        self.say(f"Generating a {source.title} level ({settings.size}, {band})…")
        self._generate(source, source.new())

    @work(thread=True, exclusive=True, group=GENERATE_GROUP, exit_on_error=False)
    def _generate(self, source: Any, ref: LevelRef) -> LevelRef:
        source.level(ref.key)  # made here, then kept by the source for prepare()
        return ref

    def _open_generated(self, ref: LevelRef) -> None:
        if self.launcher is None or self.app.screen is not self:
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

        if self.ref is not None and self.ref.source.kind == SourceKind.MINE:
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
        super().action_back()


def _dead(session: Session | None, level: Level) -> bool:
    """Whether ``session`` is a dead position of ``level`` (None, another level: False)."""
    if session is None or session.state.level is not level:
        return False
    return is_dead(level.board, session.state.filled)


@lru_cache(maxsize=64)
def _difficulty_label(level: Level) -> str:
    """The level's one difficulty (:func:`core.longcat.difficulty.level_difficulty`) as its
    title and the level list show it (``easy 28``); ``no solution`` for a level that has
    none, ``difficulty ?`` when its graph is too large to tell (cached: it is analysed once)."""
    try:
        analysis = analyse(level, max_states=ANALYSIS_STATES)
    except AnalysisLimit:
        return difficulty_label(None)
    value = level_difficulty(analysis)
    return "no solution" if value is None else difficulty_label(value)
