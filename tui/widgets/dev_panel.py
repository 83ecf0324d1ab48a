"""TermCraft's developer panel (seed 000 §3.1), grown into a safe level editor.

Fields as in the seed: fuel, budget, the starting term and the target term (multi-line text
areas; all whitespace is removed before parsing, exactly like the seed's panel) and an error
line; beyond the seed: title, par and hint. The editor edits the *level*, not the game in
progress ("Current position" copies the game into the fields when that is what is wanted).
Play and Save keep the level in *My levels* (the store, so it is playable at once and works
in served mode); Export writes a level file through :mod:`tui.exporting` (full path shown,
never overwriting without asking). Solve / Lint run the engine's solver and linter in a
worker thread with a progress indicator and a Cancel button.

Parse errors are reported at the line and column of the text the designer typed (the error
position in the whitespace-free text is mapped back), with the line and a caret, and the
cursor jumps there.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, LoadingIndicator, Static, TextArea
from textual.worker import Worker, WorkerState

from core.search import Interrupted
from core.termcraft import Level, LintIssue, SolveResult, State, lint, solve
from core.termcraft.terms import COMPOUND, Term, to_str
from core.text import escape_controls
from grammar.errors import ParseError
from grammar.terms import parse_term, strip_whitespace
from tui.arcade import arcade_of
from tui.sources import LevelRef
from tui.store import DuplicateTitle
from tui.unsaved import HoldsUnsavedWork

__all__ = ["DevPanel", "describe_lint", "describe_solve", "format_term_for_editing", "parse_field"]

EDIT_WRAP = 70
"""Terms up to this many characters stay on one line; longer ones get one root child a line."""


def parse_field(raw: str, label: str) -> Term:
    """Parse a term typed in a (multi-line) field the way the seed does: strip, then parse.

    Args:
        raw: The field's text (any whitespace, newlines included).
        label: Name of the field, used as the error's "file name".

    Returns:
        The parsed term.

    Raises:
        ParseError: Located at the line and column of ``raw`` (not of the stripped text).
    """
    stripped = strip_whitespace(raw)
    try:
        return parse_term(stripped)
    except ParseError as err:
        line, column = _original_position(raw, max(err.column, 1) - 1)
        raise ParseError(
            err.message, text=raw, line=line, column=column, filename=label, expected=err.expected
        ) from None


def _original_position(raw: str, index: int) -> tuple[int, int]:
    """Map an index in the whitespace-free text back to (line, column) in ``raw`` (1-based)."""
    seen = -1
    last = None
    for pos, char in enumerate(raw):
        if char.isspace():
            continue
        seen += 1
        last = pos
        if seen == index:
            return _line_col(raw, pos)
    # Past the end: just after the last visible character.
    if last is None:
        return 1, 1
    line, col = _line_col(raw, last)
    return line, col + 1


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    start = text.rfind("\n", 0, pos) + 1
    return line, pos - start + 1


def format_term_for_editing(term: Term) -> str:
    """Lay out a term for the text area: small terms on one line, big ones one child a line.

    Only the root's children are broken onto lines, so the text stays close to the canonical
    form (``puzzle_state(`` / one rule or datum per line / ``)``), which is how the seed's
    sample level is written.

    Args:
        term: The term.

    Returns:
        Text that parses back to ``term``.
    """
    text = to_str(term)
    if len(text) <= EDIT_WRAP or not term.args or term.kind != COMPOUND:
        return text
    inner = ",\n".join("  " + to_str(arg) for arg in term.args)
    return f"{term.name}(\n{inner}\n)"


class DevPanel(HoldsUnsavedWork, ModalScreen["tuple[LevelRef, Level] | None"]):
    """The level editor (seed 000's developer panel): edit the *level*, keep it, test it.

    The fields start from the level being played (its starting fuel, budget and terms), not
    from the game in progress; "Current position" (F9) fills them from the game instead, if
    that is what the designer wants. Nothing is lost: Play and Save keep the level in *My
    levels* (the store), Export writes a file (asking before touching an existing one), and
    every way out with unsaved edits asks first (``escape``, ``ctrl+q``, the palette's
    commands: :mod:`tui.unsaved`). "Current position" is undone by ``ctrl+z`` (and redone by
    ``ctrl+y``) once the text areas' own typing history is used up.

    Keys: ``f2`` play (keeps the level in My levels, then plays it), ``f3`` save to My levels,
    ``f8`` export to a file, ``f4`` solve, ``f5`` lint, ``f9`` current position (``f6``/``f7``
    belong to the text areas: select line / all), ``ctrl+z``/``ctrl+y`` undo/redo, ``escape``
    cancel the running job or close, ``tab`` moves between fields.

    Args:
        level: The level to edit (fields are filled from it).
        state: The game in progress (for "Current position"), or None.
        mine_id: The level's id in My levels when it is one of the player's own (Save then
            replaces it), else None (Save adds a new own level).

    Dismisses with ``(ref, level)`` to play, or None.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "play", "Play", id="dev.apply"),
        Binding("f3", "save", "Save", id="dev.save"),
        Binding("f8", "export", "Export…", id="dev.export"),
        Binding("f4", "solve", "Solve", id="dev.solve"),
        Binding("f5", "lint", "Lint", id="dev.lint"),
        Binding("f9", "use_current", "Current position", id="dev.current"),
        # Priority: before the focused text area's own undo, which the actions defer to.
        Binding("ctrl+z", "undo", "Undo", id="dev.undo", priority=True, show=False),
        Binding("ctrl+y", "redo", "Redo", id="dev.redo", priority=True, show=False),
        Binding("escape", "close", "Close", id="dev.close", key_display="esc"),
    ]

    DEFAULT_CSS = """
    DevPanel { align: center middle; }
    #dev-panel {
        width: 100%;
        max-width: 120;
        height: 1fr;
        background: $surface;
        border: round $accent;
        border-title-style: bold;
        padding: 0 1;
    }
    #dev-fields, #dev-fields2 { height: 1; }
    #dev-fields Label, #dev-fields2 Label { padding: 0 1 0 0; }
    #dev-fields Input { margin-right: 1; }
    #dev-title-input, #dev-hint-input { width: 1fr; }
    #dev-fuel-input, #dev-budget-input, #dev-par-input { width: 8; }
    .dev-label { color: $text-muted; height: 1; }
    #dev-current-term-input { height: 1fr; min-height: 3; }
    #dev-target-term-input { height: 4; }
    #dev-error-message { height: auto; max-height: 4; color: $text-error; }
    #dev-error-message.-ok { color: $text-success; }
    #dev-buttons { height: 1; }
    #dev-buttons Button { margin-right: 1; min-width: 0; width: auto; }
    #dev-progress Button { min-width: 0; width: auto; }
    #dev-progress { height: 1; display: none; }
    #dev-progress.-running { display: block; }
    #dev-progress LoadingIndicator { width: 8; height: 1; }
    #dev-progress-text { width: 1fr; }
    #dev-result-scroll { height: auto; max-height: 6; }
    #dev-result { height: auto; }
    """

    def __init__(
        self, level: Level, state: State | None = None, mine_id: int | None = None
    ) -> None:
        super().__init__()
        self.level = level
        """The level the editor was opened on."""
        self.state = state
        """The game in progress ("Current position" copies it)."""
        self._stop = threading.Event()
        self._job: Worker[Any] | None = None
        self._saved_text: str | None = None
        self._undo: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        """Editor-level changes ("Current position") as (before, after) field values."""
        self._redo: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        self._mine_id = mine_id
        self.result_text = ""
        """Plain text of the last solve/lint result (for tests and copy)."""
        self.error_text = ""
        """Plain text of the error line ("" when there is no error)."""

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        level = self.level
        with Vertical(id="dev-panel") as panel:
            panel.border_title = "Level editor"
            with Horizontal(id="dev-fields"):
                yield Label("Title")
                yield Input(level.title, id="dev-title-input", compact=True)
                yield Label("Fuel")
                yield Input(
                    str(level.fuel),
                    id="dev-fuel-input",
                    compact=True,
                    type="integer",
                    restrict=r"[0-9]*",
                )
                yield Label("Budget")
                yield Input(
                    str(level.budget),
                    id="dev-budget-input",
                    compact=True,
                    type="integer",
                    restrict=r"[0-9]*",
                )
                yield Label("Par")
                yield Input(
                    "" if level.par is None else str(level.par),
                    id="dev-par-input",
                    compact=True,
                    restrict=r"[0-9]*",
                )
            with Horizontal(id="dev-fields2"):
                yield Label("Hint ")
                yield Input(level.hint, id="dev-hint-input", compact=True)
            yield Label("Starting term (whitespace and newlines are ignored)", classes="dev-label")
            yield TextArea(
                format_term_for_editing(level.current),
                id="dev-current-term-input",
                soft_wrap=True,
                tab_behavior="focus",
            )
            yield Label("Target term", classes="dev-label")
            yield TextArea(
                format_term_for_editing(level.target),
                id="dev-target-term-input",
                soft_wrap=True,
                tab_behavior="focus",
            )
            yield Static("", id="dev-error-message")
            with Horizontal(id="dev-buttons"):
                # Short labels: the seven fit in 80 columns; tooltips say the rest.
                yield Button(
                    "Play F2",
                    id="dev-play-button",
                    variant="primary",
                    compact=True,
                    tooltip="Save in My levels and play it",
                )
                yield Button(
                    "Save F3", id="dev-save-button", compact=True, tooltip="Save in My levels"
                )
                yield Button(
                    "Export F8",
                    id="dev-export-button",
                    compact=True,
                    tooltip="Write a level file (asks before replacing one)",
                )
                yield Button("Solve F4", id="dev-solve-button", compact=True)
                yield Button("Lint F5", id="dev-lint-button", compact=True)
                yield Button(
                    "Current F9",
                    id="dev-current-button",
                    compact=True,
                    disabled=self.state is None,
                    tooltip="Start the level from the current position (ctrl+z undoes)",
                )
                yield Button("Close", id="dev-close-button", compact=True, tooltip="Close (esc)")
            with Horizontal(id="dev-progress"):
                yield LoadingIndicator()
                yield Static("", id="dev-progress-text")
                yield Button("Cancel", id="dev-cancel-button", variant="warning", compact=True)
            with VerticalScroll(id="dev-result-scroll"):
                yield Static("", id="dev-result")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#dev-current-term-input", TextArea).focus()
        served = arcade_of(self).served
        self.query_one("#dev-export-button", Button).display = not served
        self._saved_text = self._fields_text()

    _INPUTS = ("title", "fuel", "budget", "par", "hint")
    _AREAS = ("current", "target")

    def _field_values(self) -> tuple[str, ...]:
        """Every field's text: the inputs, then the two term areas."""
        inputs = [self.query_one(f"#dev-{name}-input", Input).value for name in self._INPUTS]
        areas = [self.query_one(f"#dev-{name}-term-input", TextArea).text for name in self._AREAS]
        return (*inputs, *areas)

    def _set_field_values(self, values: tuple[str, ...]) -> None:
        """Put ``values`` (from :meth:`_field_values`) back into the fields."""
        names = len(self._INPUTS)
        for name, value in zip(self._INPUTS, values[:names], strict=True):
            self.query_one(f"#dev-{name}-input", Input).value = value
        for name, value in zip(self._AREAS, values[names:], strict=True):
            area = self.query_one(f"#dev-{name}-term-input", TextArea)
            if area.text != value:
                area.text = value  # clears the area's own history: this is a checkpoint

    def _fields_text(self) -> str:
        """Everything typed, to tell whether there are unsaved edits."""
        return "\x00".join(self._field_values())

    @property
    def edited(self) -> bool:
        """True when the fields differ from the last saved (or opened) level."""
        return self._saved_text is not None and self._fields_text() != self._saved_text

    def unsaved_work(self) -> str | None:
        """The question's first sentence when the fields hold unsaved edits (see
        :mod:`tui.unsaved`), else None."""
        if not self.edited:
            return None
        return "The level editor has unsaved edits (F3 saves them in My levels)."

    # -- reading the fields ------------------------------------------------------------------

    def read_level(self) -> Level | None:
        """Build a level from the fields, or show what is wrong and return None.

        Returns:
            The level, or None when a field is invalid (the error line says why).
        """
        values: dict[str, int | None] = {}
        for name, widget_id, optional in (
            ("Fuel", "#dev-fuel-input", False),
            ("Budget", "#dev-budget-input", False),
            ("Par", "#dev-par-input", True),
        ):
            raw = self.query_one(widget_id, Input).value.strip()
            if not raw and optional:
                values[name] = None
                continue
            if not raw.isdigit():
                self.show_error(f"{name} must be a non-negative integer.")
                self.query_one(widget_id, Input).focus()
                return None
            values[name] = int(raw)
        terms: dict[str, Term] = {}
        for name, widget_id in (
            ("current", "#dev-current-term-input"),
            ("target", "#dev-target-term-input"),
        ):
            area = self.query_one(widget_id, TextArea)
            try:
                terms[name] = parse_field(
                    area.text, f"{'starting' if name == 'current' else name} term"
                )
            except ParseError as err:
                self.show_error(err.render())
                area.focus()
                if err.line:
                    area.cursor_location = (err.line - 1, max(err.column - 1, 0))
                return None
        title = self.query_one("#dev-title-input", Input).value.strip() or "Custom level"
        hint = self.query_one("#dev-hint-input", Input).value.strip()
        try:
            level = Level(
                title,
                terms["current"],
                terms["target"],
                values["Fuel"] or 0,
                values["Budget"] or 0,
                par=values["Par"],
                description=self.level.description,
                hint=hint,
                author=self.level.author,
            )
        except (TypeError, ValueError) as err:
            self.show_error(str(err))
            return None
        self.show_error("")
        return level

    def show_error(self, message: str, ok: bool = False) -> None:
        """Show ``message`` on the error line ("" clears it)."""
        self.error_text = message
        box = self.query_one("#dev-error-message", Static)
        box.update(Text(escape_controls(message, keep_newlines=True)))
        box.set_class(ok, "-ok")

    # -- buttons -----------------------------------------------------------------------------

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {
            "dev-play-button": self.action_play,
            "dev-save-button": self.action_save,
            "dev-export-button": self.action_export,
            "dev-solve-button": self.action_solve,
            "dev-lint-button": self.action_lint,
            "dev-current-button": self.action_use_current,
            "dev-close-button": self.action_close,
            "dev-cancel-button": self.action_cancel_job,
        }
        handler = actions.get(event.button.id or "")
        if handler is not None:
            handler()

    def action_use_current(self) -> None:
        """Fill the starting term, fuel and budget from the game in progress (undoable)."""
        if self.state is None:
            return
        before = self._field_values()
        self.query_one("#dev-current-term-input", TextArea).text = format_term_for_editing(
            self.state.term
        )
        self.query_one("#dev-fuel-input", Input).value = str(self.state.fuel)
        self.query_one("#dev-budget-input", Input).value = str(self.state.budget)
        after = self._field_values()
        if after != before:
            self._undo.append((before, after))
            self._redo.clear()
        self.show_error(
            "The level now starts from the current position (not saved yet; ctrl+z undoes it).",
            ok=True,
        )

    def _focused_area(self) -> TextArea | None:
        focused = self.focused
        return focused if isinstance(focused, TextArea) else None

    def action_undo(self) -> None:
        """Undo typing in the focused term area, else the last "Current position"."""
        area = self._focused_area()
        if area is not None and area.history.undo_stack:
            area.action_undo()
        elif self._undo:
            before, after = self._undo.pop()
            self._set_field_values(before)
            self._redo.append((before, after))
            self.show_error(
                "Undone: the fields are as they were before Current position (ctrl+y redoes).",
                ok=True,
            )
        else:
            self.app.bell()

    def action_redo(self) -> None:
        """Redo in the focused term area, else the last undone "Current position"."""
        area = self._focused_area()
        if area is not None and area.history.redo_stack:
            area.action_redo()
        elif self._redo:
            before, after = self._redo.pop()
            self._set_field_values(after)
            self._undo.append((before, after))
            self.show_error("Redone: the level starts from the current position.", ok=True)
        else:
            self.app.bell()

    def action_save(self, then_play: bool = False) -> None:
        """Keep the edited level in My levels (replacing it when it is one of yours)."""
        level = self.read_level()
        if level is None:
            return
        store = arcade_of(self).store
        from tui.exporting import save_to_my_levels

        game = self.level_game

        def slot(level_id: int) -> str:
            return LevelRef("mine", str(level_id)).slot

        def keep(replace_id: int | None, confirmed: bool = False) -> None:
            if (
                replace_id is not None
                and not confirmed
                and store.load_game(game, slot(replace_id)) is not None
            ):
                ask(replace_id, "It has a game in progress, which would be deleted.")
                return
            try:
                item = save_to_my_levels(store, game, level, replace_id)
            except DuplicateTitle as duplicate:
                saved = store.load_game(game, slot(duplicate.existing_id)) is not None
                ask(
                    duplicate.existing_id, "Its game in progress would be deleted." if saved else ""
                )
                return
            except ValueError as error:
                self.show_error(str(error))
                return
            if item is None:
                self.show_error("Could not save the level (see the storage warning).")
                return
            if replace_id is not None:  # the old version's game no longer fits the level
                store.delete_game(game, slot(replace_id))
            self._mine_id = item.id
            self._saved_text = self._fields_text()
            self.show_error(f"Saved in My levels as “{level.title}”.", ok=True)
            if then_play:
                self.action_cancel_job()
                self.dismiss((LevelRef("mine", str(item.id)), level))

        def ask(existing_id: int, consequence: str) -> None:
            from tui.modals.choice import ChoiceModal

            def decided(answer: str | None) -> None:
                if answer == "replace":
                    keep(existing_id, confirmed=True)

            self.app.push_screen(
                ChoiceModal(
                    f"Replace your level “{level.title}” with this version? {consequence} "
                    "(Change the title to keep both.)",
                    [("cancel", "Cancel", "c"), ("replace", "Replace", "r")],
                ),
                decided,
            )

        keep(self._mine_id)

    def action_play(self) -> None:
        """Keep the edited level in My levels, then play it."""
        self.action_save(then_play=True)

    def action_export(self) -> None:
        """Write the edited level to a file (asks before touching an existing file)."""
        if arcade_of(self).served:
            self.show_error("Export to files is not available here: Save keeps the level.")
            return
        level = self.read_level()
        if level is None:
            return
        from tui.exporting import default_file_name
        from tui.modals.export import ExportModal

        def done(message: str | None) -> None:
            if message:
                self.show_error(message, ok=True)

        self.app.push_screen(
            ExportModal(self.level_game, level, default_file_name(level.title)), done
        )

    @property
    def level_game(self) -> str:
        """The game id of the edited level."""
        return "termcraft"

    def action_solve(self) -> None:
        """Run the solver on the edited level in a worker thread."""
        level = self.read_level()
        if level is not None:
            self._start_job("Solving", lambda: self._solve(level))

    def action_lint(self) -> None:
        """Run the linter on the edited level in a worker thread."""
        level = self.read_level()
        if level is not None:
            self._start_job("Linting", lambda: self._lint(level))

    def action_cancel_job(self) -> None:
        """Ask the running solver to stop (its result is then reported as unknown)."""
        self._stop.set()
        if self._job is not None and self._job.state == WorkerState.RUNNING:
            self._set_progress(None, "Cancelling…")

    def action_close(self) -> None:
        """Cancel a running job, or close (asking first when there are unsaved edits)."""
        if self._job is not None and self._job.state == WorkerState.RUNNING:
            self.action_cancel_job()
            return
        if not self.edited:
            self.dismiss(None)
            return
        from tui.modals.confirm import ConfirmModal

        def decided(discard: bool | None) -> None:
            if discard:
                self.dismiss(None)

        self.app.push_screen(
            ConfirmModal(
                "Close the editor and lose your unsaved edits? (F3 saves them in My levels.)",
                yes="Lose edits",
                no="Keep editing",
            ),
            decided,
        )

    # -- jobs --------------------------------------------------------------------------------

    def _start_job(self, what: str, job: Callable[[], str]) -> None:
        if self._job is not None and self._job.state == WorkerState.RUNNING:
            self.app.bell()
            return
        self._stop = threading.Event()
        self._set_progress(True, f"{what}…")
        self._job = self._run_job(job)

    @work(thread=True, exclusive=True, group="dev-panel", exit_on_error=False)
    def _run_job(self, job: Callable[[], str]) -> str:
        return job()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._job:
            return
        if event.state == WorkerState.SUCCESS:
            self._show_result(str(event.worker.result))
        elif event.state == WorkerState.ERROR:
            error = event.worker.error
            self._show_result(f"The job failed: {type(error).__name__}: {error}")
        elif event.state == WorkerState.CANCELLED:
            self._show_result("Cancelled.")

    def _show_result(self, text: str) -> None:
        self._set_progress(False, "")
        self.result_text = text
        self.query_one("#dev-result", Static).update(
            Text(escape_controls(text, keep_newlines=True))
        )

    def _set_progress(self, running: bool | None, text: str) -> None:
        progress = self.query_one("#dev-progress")
        if running is not None:
            progress.set_class(running, "-running")
        self.query_one("#dev-progress-text", Static).update(text)

    def _report_progress(self, explored: int, frontier: int, started: float) -> None:
        elapsed = time.monotonic() - started
        self.app.call_from_thread(
            self._set_progress,
            None,
            f"Solving… {explored:,} states explored, {frontier:,} waiting, {elapsed:.1f}s",
        )

    def _solve(self, level: Level) -> str:
        """Worker body: solve and describe the result."""
        started = time.monotonic()
        last = [0.0]

        def progress(explored: int, frontier: int) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.1:  # do not flood the UI thread
                last[0] = now
                self._report_progress(explored, frontier, started)

        result = solve(level, should_stop=self._stop.is_set, progress=progress)
        return describe_solve(result)

    def _lint(self, level: Level) -> str:
        """Worker body: lint and describe the issues (esc stops it, whatever the stage)."""
        started = time.monotonic()

        def progress(stage: str, done: int, total: int) -> None:
            share = f" {100 * done // total}%" if total else ""
            self.app.call_from_thread(
                self._set_progress,
                None,
                f"Linting… {stage}{share}, {time.monotonic() - started:.1f}s (esc cancels)",
            )

        try:
            issues = lint(level, should_stop=self._stop.is_set, progress=progress)
        except Interrupted:
            return "Cancelled."
        if self._stop.is_set():
            return "Cancelled."
        return describe_lint(issues)


def describe_solve(result: SolveResult) -> str:
    """Describe a solver result for the panel.

    Args:
        result: What :func:`core.termcraft.solve` returned.

    Returns:
        Lines of text: the verdict, then the plan, one move a line.
    """
    if result.status == "solved":
        lines = [
            f"Solvable: shortest plan has {len(result.plan)} move(s) "
            f"({result.explored:,} states, {result.elapsed:.2f}s)."
        ]
        lines += [f"{i}. {action}" for i, action in enumerate(result.plan, start=1)]
        return "\n".join(lines)
    if result.status == "unsolvable":
        return (
            f"Unsolvable (with rewrites and constructs of target subterms): "
            f"{result.explored:,} states explored, {result.elapsed:.2f}s."
        )
    why = "cancelled" if result.reason == "cancelled" else "search limits reached"
    return f"Unknown: {why} after {result.explored:,} states, {result.elapsed:.2f}s."


def describe_lint(issues: tuple[LintIssue, ...]) -> str:
    """Describe linter findings for the panel.

    Args:
        issues: What :func:`core.termcraft.lint` returned.

    Returns:
        One line per issue, or a line saying there is none.
    """
    if not issues:
        return "Lint: no issues."
    marks = {"error": "✗", "warning": "⚠", "info": "·"}
    return "\n".join(
        f"{marks.get(i.severity, '·')} {i.severity}: {i.message} [{i.code}]" for i in issues
    )
