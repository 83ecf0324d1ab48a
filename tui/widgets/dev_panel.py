"""TermCraft's developer panel (seed 000 §3.1): edit the level, apply it, save it, solve, lint.

Fields as in the seed: fuel, budget, the current term and the target term (multi-line text
areas; all whitespace is removed before parsing, exactly like the seed's panel), an error
line, and Apply, which restarts the game with the edited level. Beyond the seed: the level's
title and par, "Save level…" (a level file written through a temporary file and a rename),
and Solve / Lint buttons that run the engine's solver and linter in a worker thread with a
progress indicator and a Cancel button.

Parse errors are reported at the line and column of the text the designer typed (the error
position in the whitespace-free text is mapped back), with the line and a caret, and the
cursor jumps there.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Callable, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, LoadingIndicator, Static, TextArea
from textual.worker import Worker, WorkerState

from core.termcraft import Level, LintIssue, SolveResult, lint, solve
from core.terms import COMPOUND, Term, to_str
from grammar.errors import ParseError
from grammar.terms import parse_term, strip_whitespace

__all__ = ["DevPanel", "SaveLevelModal", "parse_field", "format_term_for_editing"]

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
        raise ParseError(err.message, text=raw, line=line, column=column, filename=label,
                         expected=err.expected) from None


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


class SaveLevelModal(ModalScreen["str | None"]):
    """Ask for the file to save a level to; dismisses with the path text or None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="save_level.cancel", key_display="esc"),
    ]

    DEFAULT_CSS = """
    SaveLevelModal { align: center middle; }
    #save-dialog { width: 70; max-width: 100%; height: auto; border: thick $accent;
                   background: $surface; padding: 0 1; }
    #save-buttons { height: auto; align-horizontal: right; }
    #save-buttons Button { margin-left: 1; }
    """

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default
        """The path offered first."""

    def compose(self) -> ComposeResult:
        with Vertical(id="save-dialog"):
            yield Label("Save level to file (a .levels pack with this one level):")
            yield Input(self.default, id="save-path")
            with Horizontal(id="save-buttons"):
                yield Button("Save", id="save-ok", variant="primary", compact=True)
                yield Button("Cancel (esc)", id="save-cancel", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip() or None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "save-ok":
            self.dismiss(self.query_one(Input).value.strip() or None)
        else:
            self.dismiss(None)

    def action_cancel(self) -> None:
        """Close without saving."""
        self.dismiss(None)


class DevPanel(ModalScreen["Level | None"]):
    """The developer panel; dismisses with the edited :class:`Level` (Apply) or None.

    Keys: ``f2`` apply, ``f3`` save level…, ``f4`` solve, ``f5`` lint, ``escape`` cancel the
    running job or close, ``tab`` moves between fields.

    Args:
        level: The level to edit (fields are filled from it).
        state_term: The current term of the game in progress (what "current" starts with,
            as the seed fills the panel from the running game state); None uses the level's.
        fuel: Current fuel (None: the level's).
        budget: Current budget (None: the level's).
        save: Writes a level to a path (text) and returns a message; None hides "Save".
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "apply", "Apply", id="dev.apply"),
        Binding("f3", "save", "Save…", id="dev.save"),
        Binding("f4", "solve", "Solve", id="dev.solve"),
        Binding("f5", "lint", "Lint", id="dev.lint"),
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
    #dev-fields { height: 1; }
    #dev-fields Label { padding: 0 1 0 0; }
    #dev-fields Input { margin-right: 1; }
    #dev-title-input { width: 1fr; }
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
        self,
        level: Level,
        state_term: Term | None = None,
        fuel: int | None = None,
        budget: int | None = None,
        save: Callable[[str, Level], str] | None = None,
        default_path: str = "my-level.levels",
    ) -> None:
        super().__init__()
        self.level = level
        """The level the panel was opened on."""
        self._term = state_term if state_term is not None else level.current
        self._fuel = level.fuel if fuel is None else fuel
        self._budget = level.budget if budget is None else budget
        self._save = save
        self._default_path = default_path
        self._stop = threading.Event()
        self._job: Worker[Any] | None = None
        self.result_text = ""
        """Plain text of the last solve/lint result (for tests and copy)."""
        self.error_text = ""
        """Plain text of the error line ("" when there is no error)."""

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="dev-panel") as panel:
            panel.border_title = "Developer panel"
            with Horizontal(id="dev-fields"):
                yield Label("Title")
                yield Input(self.level.title, id="dev-title-input", compact=True)
                yield Label("Fuel")
                yield Input(str(self._fuel), id="dev-fuel-input", compact=True,
                            type="integer", restrict=r"[0-9]*")
                yield Label("Budget")
                yield Input(str(self._budget), id="dev-budget-input", compact=True,
                            type="integer", restrict=r"[0-9]*")
                yield Label("Par")
                yield Input("" if self.level.par is None else str(self.level.par),
                            id="dev-par-input", compact=True, restrict=r"[0-9]*")
            yield Label("Current term (whitespace and newlines are ignored)", classes="dev-label")
            yield TextArea(format_term_for_editing(self._term), id="dev-current-term-input",
                           soft_wrap=True, tab_behavior="focus")
            yield Label("Target term", classes="dev-label")
            yield TextArea(format_term_for_editing(self.level.target),
                           id="dev-target-term-input", soft_wrap=True, tab_behavior="focus")
            yield Static("", id="dev-error-message")
            with Horizontal(id="dev-buttons"):
                yield Button("Apply (F2)", id="dev-apply-button", variant="primary", compact=True)
                yield Button("Save level… (F3)", id="dev-save-button", compact=True,
                             disabled=self._save is None)
                yield Button("Solve (F4)", id="dev-solve-button", compact=True)
                yield Button("Lint (F5)", id="dev-lint-button", compact=True)
                yield Button("Close (esc)", id="dev-close-button", compact=True)
            with Horizontal(id="dev-progress"):
                yield LoadingIndicator()
                yield Static("", id="dev-progress-text")
                yield Button("Cancel", id="dev-cancel-button", variant="warning", compact=True)
            with VerticalScroll(id="dev-result-scroll"):
                yield Static("", id="dev-result")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#dev-current-term-input", TextArea).focus()

    # -- reading the fields ------------------------------------------------------------------

    def read_level(self) -> Level | None:
        """Build a level from the fields, or show what is wrong and return None.

        Returns:
            The level, or None when a field is invalid (the error line says why).
        """
        values: dict[str, int | None] = {}
        for name, widget_id, optional in (("Fuel", "#dev-fuel-input", False),
                                          ("Budget", "#dev-budget-input", False),
                                          ("Par", "#dev-par-input", True)):
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
        for name, widget_id in (("current", "#dev-current-term-input"),
                                ("target", "#dev-target-term-input")):
            area = self.query_one(widget_id, TextArea)
            try:
                terms[name] = parse_field(area.text, f"{name} term")
            except ParseError as err:
                self.show_error(err.render())
                area.focus()
                if err.line:
                    area.cursor_location = (err.line - 1, max(err.column - 1, 0))
                return None
        title = self.query_one("#dev-title-input", Input).value.strip() or "Custom level"
        try:
            level = Level(title, terms["current"], terms["target"], values["Fuel"] or 0,
                          values["Budget"] or 0, par=values["Par"], description=self.level.description,
                          hint=self.level.hint, author=self.level.author)
        except (TypeError, ValueError) as err:
            self.show_error(str(err))
            return None
        self.show_error("")
        return level

    def show_error(self, message: str, ok: bool = False) -> None:
        """Show ``message`` on the error line ("" clears it)."""
        self.error_text = message
        box = self.query_one("#dev-error-message", Static)
        box.update(Text(message))
        box.set_class(ok, "-ok")

    # -- buttons -----------------------------------------------------------------------------

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        actions = {
            "dev-apply-button": self.action_apply,
            "dev-save-button": self.action_save,
            "dev-solve-button": self.action_solve,
            "dev-lint-button": self.action_lint,
            "dev-close-button": self.action_close,
            "dev-cancel-button": self.action_cancel_job,
        }
        handler = actions.get(event.button.id or "")
        if handler is not None:
            handler()

    def action_apply(self) -> None:
        """Parse the fields and restart the game with the edited level."""
        level = self.read_level()
        if level is not None:
            self.action_cancel_job()
            self.dismiss(level)

    def action_close(self) -> None:
        """Cancel a running job, or close the panel without applying."""
        if self._job is not None and self._job.state == WorkerState.RUNNING:
            self.action_cancel_job()
            return
        self.dismiss(None)

    def action_save(self) -> None:
        """Ask for a path and write the edited level there."""
        if self._save is None:
            return
        level = self.read_level()
        if level is None:
            return
        save = self._save

        def chosen(path: str | None) -> None:
            if not path:
                return
            self._default_path = path
            try:
                message = save(path, level)
            except Exception as err:  # any I/O or encoding problem: report, never crash
                self.show_error(f"Could not save to {path}: {err}")
                return
            self.show_error(message, ok=True)

        self.app.push_screen(SaveLevelModal(self._default_path), chosen)

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
        self.query_one("#dev-result", Static).update(Text(text))

    def _set_progress(self, running: bool | None, text: str) -> None:
        progress = self.query_one("#dev-progress")
        if running is not None:
            progress.set_class(running, "-running")
        self.query_one("#dev-progress-text", Static).update(text)

    def _report_progress(self, explored: int, frontier: int, started: float) -> None:
        elapsed = time.monotonic() - started
        self.app.call_from_thread(
            self._set_progress, None,
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
        """Worker body: lint and describe the issues."""
        issues = lint(level)
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
        lines = [f"Solvable: shortest plan has {len(result.plan)} move(s) "
                 f"({result.explored:,} states, {result.elapsed:.2f}s)."]
        lines += [f"{i}. {action}" for i, action in enumerate(result.plan, start=1)]
        return "\n".join(lines)
    if result.status == "unsolvable":
        return (f"Unsolvable (with rewrites and constructs of target subterms): "
                f"{result.explored:,} states explored, {result.elapsed:.2f}s.")
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
    return "\n".join(f"{marks.get(i.severity, '·')} {i.severity}: {i.message} [{i.code}]"
                     for i in issues)


def default_level_path(title: str) -> str:
    """A file name for a level, from its title (``My level`` -> ``my-level.levels``)."""
    slug = "".join(ch.lower() if ch.isalnum() else "-" for ch in title).strip("-")
    while "--" in slug:
        slug = slug.replace("--", "-")
    return str(Path(slug or "level").with_suffix(".levels"))
