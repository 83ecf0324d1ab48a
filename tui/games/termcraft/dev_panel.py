"""TermCraft's developer panel (seed 000 §3.1), grown into a safe level editor.

Fields as in the seed: fuel, budget, the starting term and the target term (multi-line text
areas; all whitespace is removed before parsing, exactly like the seed's panel) and an error
line; beyond the seed: title, par and hint. The editor edits the *level*, not the game in
progress ("Current position" copies the game into the fields when that is what is wanted).
Play and Save keep the level in *My levels* (the store, so it is playable at once and works
in served mode); Export writes a level file through :mod:`tui.exporting` (full path shown,
never overwriting without asking). Solve / Lint run the engine's solver and linter in a
worker thread with a progress indicator and a Cancel button.  A **live verdict** (solvable in
N moves, proved unsolvable, or unknown and why) is computed by the bench's live worker after
each edit (the next edit cancels it), bounded by :data:`LIVE_BUDGET` term nodes of work.

Parse errors are reported at the line and column of the text the designer typed (the error
position in the whitespace-free text is mapped back), with the line and a caret, and the
cursor jumps there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Button, Input, Label, TextArea

from core.search import Interrupted
from core.termcraft import Level, LintIssue, SolveResult, State, lint, solve
from core.termcraft.terms import COMPOUND, Term, to_str
from core.text import plural
from grammar.errors import ParseError
from grammar.terms import parse_term, strip_whitespace
from tui.modals.stale_metadata import MetadataUpdate
from tui.screens.designer import DesignerScreen, JobProgress
from tui.widgets.plain_fields import PlainInput, PlainTextArea

__all__ = [
    "LIVE_BUDGET",
    "LIVE_TIME_LIMIT",
    "DevPanel",
    "describe_lint",
    "describe_solve",
    "describe_verdict",
    "format_term_for_editing",
    "parse_field",
]

LIVE_BUDGET = 300_000
"""Work budget of the live verdict, in term nodes (the bundled levels spend at most 46,078):
the bound that ends a live search, the same on a busy machine as on an idle one."""
LIVE_TIME_LIMIT = 5.0
"""Seconds after which a live search stops whatever its budget (a safety net for slow
machines; F4 searches without it)."""

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


class DevPanel(DesignerScreen):
    """TermCraft's level editor (seed 000's developer panel) on the designer's bench.

    Fields as in the seed: fuel, budget, the starting term and the target term (multi-line
    text areas; whitespace is ignored) and an error line; beyond the seed: title, par and
    hint. Solve (F4) and Lint (F5) run the engine's solver and linter as jobs; everything
    else (Play, Save, Export, Current position, undo, closing) is the bench's
    (:class:`tui.screens.designer.DesignerScreen`).

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
        Binding("f4", "solve", "Solve", id="dev.solve"),
        Binding("f5", "lint", "Lint", id="dev.lint"),
    ]

    DEFAULT_CSS = """
    #dev-title-input, #dev-hint-input { width: 1fr; }
    #dev-fuel-input, #dev-budget-input, #dev-par-input { width: 8; }
    #dev-current-term-input { height: 1fr; min-height: 3; }
    #dev-target-term-input { height: 4; }
    """

    level: Level
    state: State | None
    _verdict: tuple[Level, SolveResult] | None = None
    """The last live verdict and the level it is of (set by the live worker)."""

    # -- layout ------------------------------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        level = self.level
        with Horizontal(id="dev-fields"):
            yield Label("Title")
            yield PlainInput(level.title, id="dev-title-input", compact=True)
            yield Label("Fuel")
            yield _count_input(level.fuel, "dev-fuel-input")
            yield Label("Budget")
            yield _count_input(level.budget, "dev-budget-input")
            yield Label("Par")
            yield _count_input(level.par, "dev-par-input", optional=True)
        with Horizontal(id="dev-fields2"):
            yield Label("Hint ")
            yield PlainInput(level.hint, id="dev-hint-input", compact=True)
        yield from _term_field(
            "Starting term (whitespace and newlines are ignored)",
            level.current,
            "dev-current-term-input",
        )
        yield from _term_field("Target term", level.target, "dev-target-term-input")

    def extra_buttons(self) -> Iterable[Button]:
        yield Button("Solve F4", id="dev-solve-button", compact=True)
        yield Button("Lint F5", id="dev-lint-button", compact=True)

    def button_actions(self) -> dict[str, Callable[[], None]]:
        return {"dev-solve-button": self.action_solve, "dev-lint-button": self.action_lint}

    def on_mount(self) -> None:
        # Textual runs the base classes' on_mount too (after this one): no super() call.
        self.query_one("#dev-current-term-input", TextArea).focus()

    # -- reading the fields ------------------------------------------------------------------

    def read_level(self, quiet: bool = False) -> Level | None:
        """Build a level from the fields, or show what is wrong and return None.

        Args:
            quiet: Leave the focus and cursor alone (a live check while typing).

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
                if not quiet:
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
                self.show_parse_error(err, area, quiet)
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
        self.clear_error()
        return level

    def live_verdict(self, level: Level, should_stop: Callable[[], bool]) -> str | None:
        """The solver's verdict on the edited level, bounded by :data:`LIVE_BUDGET` (runs in
        the bench's live worker; None when a newer edit cancelled it)."""
        result = solve(
            level, time_limit=LIVE_TIME_LIMIT, should_stop=should_stop, budget=LIVE_BUDGET
        )
        if should_stop():
            return None
        self._verdict = (level, result)  # one assignment: the UI thread reads it whole
        return describe_verdict(result, level.par)

    def derived_metadata(self, level: Level) -> list[MetadataUpdate]:
        """Par, when the live verdict for this very level found the shortest plan (the search
        is breadth-first and complete for the budget: its plan is a proof of the par)."""
        known = self._verdict
        if known is None or known[0] != level or known[1].status != "solved":
            return []
        shortest = len(known[1].plan)
        if level.par is None or level.par == shortest:
            return []
        return [MetadataUpdate("par", level.par, shortest, "the verdict's shortest plan")]

    def show_metadata(self, level: Level) -> None:
        """Title and par into their fields (one undoable change)."""
        before = self.field_values()
        self.query_one("#dev-title-input", Input).value = level.title
        self.query_one("#dev-par-input", Input).value = "" if level.par is None else str(level.par)
        self.record_change(before)

    def fill_from_state(self, state: State) -> None:
        """Fill the starting term, fuel and budget from the game in progress."""
        self.query_one("#dev-current-term-input", TextArea).text = format_term_for_editing(
            state.term
        )
        self.query_one("#dev-fuel-input", Input).value = str(state.fuel)
        self.query_one("#dev-budget-input", Input).value = str(state.budget)

    # -- jobs --------------------------------------------------------------------------------

    def action_solve(self) -> None:
        """Run the solver on the edited level in a worker thread."""
        self.start_level_job("Solving", self._solve)

    def action_lint(self) -> None:
        """Run the linter on the edited level in a worker thread."""
        self.start_level_job("Linting", self._lint)

    def _solve(self, level: Level, stop: Callable[[], bool]) -> str:
        """Worker body: solve and describe the result."""
        report = JobProgress(self)

        def progress(explored: int, frontier: int) -> None:
            report(
                f"Solving… {explored:,} states explored, {frontier:,} waiting, "
                f"{report.elapsed:.1f}s"
            )

        result = solve(level, should_stop=stop, progress=progress)
        return describe_solve(result)

    def _lint(self, level: Level, stop: Callable[[], bool]) -> str:
        """Worker body: lint and describe the issues (esc stops it, whatever the stage)."""
        report = JobProgress(self)

        def progress(stage: str, done: int, total: int) -> None:
            share = f" {100 * done // total}%" if total else ""
            report(f"Linting… {stage}{share}, {report.elapsed:.1f}s (esc cancels)")

        try:
            issues = lint(level, should_stop=stop, progress=progress)
        except Interrupted:
            return "Cancelled."
        if stop():
            return "Cancelled."
        return describe_lint(issues)


def _count_input(value: int | None, widget_id: str, *, optional: bool = False) -> PlainInput:
    """A field for a whole number of the level (only digits can be typed).

    Args:
        value: The number shown; None: empty.
        widget_id: The field's id.
        optional: The field may be left empty, which an ``integer`` Input would refuse.

    Returns:
        The field.
    """
    return PlainInput(
        "" if value is None else str(value),
        id=widget_id,
        compact=True,
        type="text" if optional else "integer",
        restrict=r"[0-9]*",
    )


def _term_field(label: str, term: Term, widget_id: str) -> ComposeResult:
    """A term's label and its text area (laid out for editing; tab moves the focus on).

    Args:
        label: The line above the area.
        term: The term shown.
        widget_id: The area's id.

    Returns:
        The label, then the area.
    """
    yield Label(label, classes="dev-label")
    yield PlainTextArea(
        format_term_for_editing(term), id=widget_id, soft_wrap=True, tab_behavior="focus"
    )


def describe_solve(result: SolveResult) -> str:
    """Describe a solver result for the panel.

    Args:
        result: What :func:`core.termcraft.solve` returned.

    Returns:
        Lines of text: the verdict, then the plan, one move a line.
    """
    if result.status == "solved":
        lines = [
            f"Solvable: shortest plan has {plural(len(result.plan), 'move')} "
            f"({result.explored:,} states, {result.elapsed:.2f}s)."
        ]
        lines += [f"{i}. {action}" for i, action in enumerate(result.plan, start=1)]
        return "\n".join(lines)
    if result.status == "unsolvable":
        return (
            "Unsolvable (proved: every rewrite and every construct the fuel and budget allow "
            f"was searched): {result.explored:,} states, {result.elapsed:.2f}s."
        )
    why = result.why or "search limits reached"
    return (
        f"Unknown ({why}): neither solved nor proved unsolvable after "
        f"{result.explored:,} states, {result.elapsed:.2f}s."
    )


def describe_verdict(result: SolveResult, par: int | None) -> str:
    """The live verdict's line: solvable (and par against the shortest plan), proved
    unsolvable, or unknown and why.

    Args:
        result: What :func:`core.termcraft.solve` returned.
        par: The level's par, if any.

    Returns:
        One line of text.
    """
    if result.status == "solved":
        n = len(result.plan)
        text = f"Verdict: solvable, shortest plan {plural(n, 'move')}"
        if par is not None and par != n:
            text += f" (par {par} is not the shortest {n})"
        return text + "."
    if result.status == "unsolvable":
        return "Verdict: unsolvable (proved: every move the fuel and budget allow was searched)."
    why = result.why or "stopped"
    return (
        f"Verdict: unknown ({why}, {result.explored:,} states): neither solved nor proved "
        "unsolvable; Solve (F4) searches longer."
    )


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
