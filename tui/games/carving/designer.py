"""Triangle Carving's level editor on the designer's bench (:mod:`tui.screens.designer`).

The level is edited as level-file text (every list-valued field: types, variables, the
relations R_Δ and R_∇, axioms, the root, the target), checked by the same loader as level
files, with structured controls where they help most:

* **Density** (a select) and **Par** (a number) above the text; changing one rewrites only
  that field's value in the text (comments and layout are kept), as an undoable change; typing
  in the text moves the controls along (the text is the level; while it has an error the
  controls wait);
* **Par = shortest** (``F5``) sets par to the shortest solution the bench found;
* a **Target H\\*** preview beside the text (the same incidence table as the game screen);
* a **live verdict** under the text, computed in the bench's worker after each change
  (:func:`core.carving.design.assess` with a 2 s limit): |F*| (or "too large"), solvable /
  unsolvable / unknown within the limit, the shortest solution as numbered steps, and par
  against the shortest;
* **Solve** (``F4``): the same with a 60 s limit, as a job with progress and Cancel.

"Current position" (``F9``) is off: a level always starts from the whole closure, every
intrinsic edge present, no virtual edge and a diagonal root, and a position of a game in
progress (edges removed, virtual edges, another base point) cannot be written as a level.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, ClassVar, cast

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Button, Input, Label, Select, Static

from core.carving import DENSITY_READINGS, Level
from core.carving.design import LIVE_TIME_LIMIT, Verdict, assess, plan_steps
from core.registry import GameInfo
from core.text import plural
from tui.games.carving.view import edge_label, target_text, vertex_label
from tui.modals.stale_metadata import MetadataUpdate
from tui.screens.designer import JobProgress, LevelTextDesigner
from tui.widgets.plain_fields import PlainInput, PlainTextArea

__all__ = ["SOLVE_MAX_STATES", "SOLVE_TIME_LIMIT", "CarvingDesigner", "describe_verdict"]

SOLVE_TIME_LIMIT = 60.0
"""Seconds the explicit Solve job (F4) gives the solver."""
SOLVE_MAX_STATES = 100_000
"""States the explicit Solve job may keep."""


def _solution_key(level: Level) -> Level:
    """What a level's solutions depend on: everything but par and its words."""
    return replace(level, par=None, title="", description="", hint="", author="")


def _par_note(par: int | None, verdict: Verdict) -> str:
    """Par against the shortest solution."""
    steps = verdict.steps
    if verdict.status == "solved" and steps is not None:
        if par is None:
            return f"no par yet (F5 sets it to {steps})"
        if par == steps:
            return f"par {par} = shortest ✓"
        if par > steps:
            return f"par {par} is above the shortest, {steps} (F5 lowers it)"
        if verdict.reason:  # the plan found is not proved shortest: par may still be right
            return f"par {par} not checked (the plan found takes {steps})"
        return f"par {par} is below the shortest, {steps}: no solution is that short (F5)"
    if par is None:
        return "no par"
    if verdict.status == "unsolvable":
        return f"par {par}, but there is no solution"
    return f"par {par} not checked"


def _step_line(number: int, step: Any, compact: bool) -> str:
    line = f"{number}. build {edge_label(step.edge, compact)}"
    if step.walk:
        hops = [vertex_label(step.walk[0], compact)]
        for kind, vertex in zip(step.crossed, step.walk[1:], strict=True):
            arrow = {"new": " ★→ ", "V": " V→ "}.get(kind, " → ")
            hops.append(arrow + vertex_label(vertex, compact))
        line += "; walk " + "".join(hops) + ", finish"
    else:
        line += " (no legal path: it stays, V)"
    if step.base is not None:
        line += f"; base {vertex_label(step.base, compact)}"
    return line


def describe_verdict(level: Level, verdict: Verdict) -> str:
    """The bench's text for ``verdict`` on ``level``: the closure line, the verdict line, then
    the shortest solution's time steps, numbered.

    Args:
        level: The level assessed.
        verdict: What :func:`core.carving.design.assess` returned.

    Returns:
        Lines of text.
    """
    if verdict.formulas is None:
        return f"F*: too large to play ({verdict.too_large})."
    closure = (
        f"F*: {plural(verdict.formulas, 'formula')} ({verdict.deltas} ▲, {verdict.nablas} ▼), "
        f"E_Ω: {plural(verdict.intrinsic, 'intrinsic edge')}"
    )
    if verdict.left_out:
        closure += f"; {verdict.left_out} ill-typed left out"
    lines = [closure + "."]
    par = _par_note(level.par, verdict)
    cost = plural(verdict.explored, "state")  # no seconds: the same level reads the same
    if verdict.status == "solved":
        steps_text = plural(verdict.steps or 0, "step")
        if verdict.reason:  # a plan that wins, but shorter ones were not ruled out (issue 29)
            lines.append(
                f"Solvable: in {steps_text}, not proved shortest ({verdict.reason}); "
                f"{par} ({cost})."
            )
        else:
            lines.append(f"Solvable: shortest {steps_text}; {par} ({cost}).")
        compact = all(len(v) == 1 for v in level.variable_names)
        steps = plan_steps(level, verdict.plan)
        lines += [_step_line(i, step, compact) for i, step in enumerate(steps, start=1)]
    elif verdict.status == "unsolvable":
        why = verdict.why or f"every position explored ({cost})"
        lines.append(f"Unsolvable: {why}; {par}.")
    else:
        limit = verdict.time_limit
        within = "cancelled" if verdict.reason == "cancelled" else "unknown within"
        bound = f" the {limit:g} s limit" if limit is not None else " the limits"
        if verdict.reason in ("work budget", "state limit"):  # the bound hit, not the clock
            bound = f" the {verdict.reason}"
        if verdict.reason == "cancelled":
            lines.append(f"Solvable? Cancelled ({cost}); {par}.")
        else:
            lines.append(f"Solvable? {within}{bound} ({cost}; F4 tries longer); {par}.")
    return "\n".join(lines)


def _field_edit(text: str, key: str, value: str | None) -> str | None:
    """``text`` with the level field ``key`` set to ``value`` (None: removed), changing only
    that field (comments and layout stay); None when the text cannot be edited in place."""
    from grammar import envelope
    from grammar.envelope import ParsedBlock
    from grammar.levels import format_for

    try:
        items = envelope.parse_items(format_for("carving"), text)
    except Exception:  # any failure: the caller rewrites the whole level
        return None
    blocks = [item for item in items if isinstance(item, ParsedBlock)]
    if len(blocks) != 1:
        return None
    fields = {str(field.key): field for field in blocks[0].fields}
    field = fields.get(key)
    if field is not None:
        start, end = field.key.start_pos, _value_end(text, field)
        if start is None or end is None:
            return None
        if value is not None:
            return text[:start] + f"{key} {value}" + text[end:]
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end
        if text[line_start:start].strip() or text[end:line_end].strip():
            return text[:start] + text[end:]
        return text[:line_start] + text[line_end + 1 :]
    if value is None:
        return text
    game = fields.get("game")
    end = getattr(game.value.data, "end_pos", None) if game is not None else None
    if end is None:
        return None
    line_start = text.rfind("\n", 0, end) + 1
    rest = text[line_start:]
    indent = rest[: len(rest) - len(rest.lstrip(" \t"))]
    # A new field goes last, on its own line before the block's closing brace when that brace
    # stands alone on its line (as the printer writes it), else right after the game field.
    lines = text.split("\n")
    closing = [i for i, line in enumerate(lines) if line.strip() == "}"]
    if closing:
        at = closing[-1]
        return "\n".join([*lines[:at], f"{indent}{key} {value}", *lines[at:]])
    return text[:end] + f"\n{indent}{key} {value}" + text[end:]


def _value_end(text: str, field: Any) -> int | None:
    """Where a simple field value ends in ``text``: a token's end, or for a word the parser
    built without positions (``density``), the end of the word after the key."""
    data = field.value.data
    end = getattr(data, "end_pos", None)
    if end is not None or not isinstance(getattr(data, "text", None), str):
        return end
    i, n = field.key.end_pos or 0, len(text)
    while i < n and (text[i] in " \t\r\n\f" or text[i] == ";"):
        if text[i] == ";":
            i = text.find("\n", i)
            i = n if i < 0 else i
        else:
            i += 1
    word = re.match(r"[A-Za-z0-9_]+", text[i:])
    return i + word.end() if word is not None and word.group() == data.text else None


class CarvingDesigner(LevelTextDesigner):
    """The level as level-file text, with density and par controls, a target preview, a live
    verdict and a solver job (see the module docstring).

    Keys: ``f4`` solve (60 s, cancel with ``esc``), ``f5`` par = the shortest solution, and
    the bench's own (``f2`` play, ``f3`` save, ``f8`` export, ``ctrl+z``/``ctrl+y``, ``esc``).
    """

    EDITOR_TITLE = "Triangle Carving level editor"
    LIVE_TIME_LIMIT: ClassVar[float] = LIVE_TIME_LIMIT
    """Seconds the live verdict gives the solver."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f4", "solve", "Solve", id="carving_editor.solve"),
        Binding("f5", "par_to_shortest", "Par=shortest", id="carving_editor.par"),
    ]

    DEFAULT_CSS = """
    #carving-controls { height: 1; }
    #carving-controls Label { padding: 0 1 0 0; color: $text-muted; }
    #carving-density { width: 17; margin-right: 2; }
    #carving-par { width: 7; margin-right: 2; }
    #carving-par-button { min-width: 0; width: auto; }
    #carving-body { height: 1fr; min-height: 4; }
    #carving-body #dev-level-text { width: 1fr; height: 1fr; }
    #carving-target-scroll { width: 28; height: 1fr; padding: 0 0 0 1; border-left: vkey $accent 40%; }
    CarvingDesigner #dev-verdict { max-height: 8; overflow-y: auto; }
    """

    level: Level

    def __init__(
        self, level: Level, state: Any = None, mine_id: int | None = None, *, info: GameInfo
    ) -> None:
        super().__init__(level, state, mine_id, info=info)
        self._shortest: tuple[Level, int] | None = None
        """(the level without par and words, its shortest solution's steps) when known."""
        self._preview_level: Level | None = None
        """The last level the text held (the target preview shows it while the text is
        broken)."""
        self._applied: dict[str, Any] = {}
        """The value each control (by id) last wrote into the text, or was moved to from it:
        a control holding anything else has an edit of the player's on its way."""

    # -- layout ------------------------------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        from grammar.levels import dump_level

        level = self.level
        par = "" if level.par is None else str(level.par)
        self._applied = {"carving-density": level.density, "carving-par": par}
        with Horizontal(id="carving-controls"):
            yield Label("Density")
            yield Select(
                [(reading, reading) for reading in DENSITY_READINGS],
                value=level.density,
                allow_blank=False,
                compact=True,
                id="carving-density",
                tooltip="The reading of Φ_dense: contiguous (the default) or subsequence",
            )
            yield Label("Par")
            yield PlainInput(
                par,
                id="carving-par",
                compact=True,
                restrict=r"[0-9]*",
                max_length=4,  # up to 9999: always a valid par
                tooltip="The designer's step count (empty: no par)",
            )
            yield Button(
                "Par = shortest F5",
                id="carving-par-button",
                compact=True,
                tooltip="Set par to the shortest solution found",
            )
        with Horizontal(id="carving-body"):
            yield PlainTextArea(
                dump_level(level, self.info.id),
                id="dev-level-text",
                soft_wrap=True,
                tab_behavior="focus",
                show_line_numbers=True,
                compact=True,
                tooltip=self.TEXT_LABEL,
            )
            with VerticalScroll(id="carving-target-scroll"):
                yield Static(self._target_preview(level), id="carving-target")

    def extra_buttons(self) -> Iterable[Button]:
        yield Button(
            "Solve F4",
            id="carving-solve-button",
            compact=True,
            tooltip=f"Solve with a {SOLVE_TIME_LIMIT:g} s limit (esc cancels)",
        )

    def button_actions(self) -> dict[str, Callable[[], None]]:
        return {
            "carving-solve-button": self.action_solve,
            "carving-par-button": self.action_par_to_shortest,
        }

    @staticmethod
    def _target_preview(level: Level, stale: bool = False) -> Text:
        out = Text("Target H*", style="bold")
        if stale:
            out.append(" (last valid)", style="dim")
        out.append("\n")
        out.append_text(target_text(level.target, max_columns=8))
        return out

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # "Current position" cannot apply (see the module docstring): keep it off the footer.
        if action == "use_current" and not self.can_use_current:
            return False
        return super().check_action(action, parameters)

    # -- the text and the controls ---------------------------------------------------------

    def read_level(self, quiet: bool = False) -> Level | None:
        """The level in the text (as the loader reads it); the controls and the target
        preview follow it."""
        level = super().read_level(quiet)
        preview = self.query_one("#carving-target", Static)
        if level is None:
            if self._preview_level is not None:
                preview.update(self._target_preview(self._preview_level, stale=True))
            return None
        self._preview_level = level
        preview.update(self._target_preview(level))
        density = self.query_one("#carving-density", Select)
        if density.value != level.density:
            self._follow_text(density, level.density)
        par = self.query_one("#carving-par", Input)
        if self._par_value(par.value) != level.par:
            self._follow_text(par, "" if level.par is None else str(level.par))
        return level

    def _follow_text(self, control: Input | Select[str], value: str) -> None:
        """Move a control to what the text says, unless the player's edit of it has not
        reached the text yet.

        A key changes an input's value at once, but the text follows only when its
        ``Changed`` message arrives; the live verdict's re-read may come in between (a busy
        machine). Moving the control back then would drop the key ("12" back to "1", the next
        key making "21"); left alone, its ``Changed`` writes the text and the verdict follows.
        """
        key = control.id or ""
        if control.value != self._applied.get(key, control.value):
            return
        self._applied[key] = value
        control.value = value

    @staticmethod
    def _par_value(raw: str) -> int | None:
        raw = raw.strip()
        return int(raw) if raw.isdigit() else None

    def _text_level(self) -> Level | None:
        """The level in the text, quietly: no message, the controls left alone (None when the
        text has an error, which the live check shows)."""
        return cast("Level | None", self.text_level())

    @on(Select.Changed, "#carving-density")
    def _density_changed(self, event: Select.Changed) -> None:
        self._applied["carving-density"] = event.value
        if isinstance(event.value, str):
            self._control_changed(event.select, "density", event.value)

    @on(Input.Changed, "#carving-par")
    def _par_changed(self, event: Input.Changed) -> None:
        self._applied["carving-par"] = event.value
        self._control_changed(event.input, "par", self._par_value(event.value))

    def _control_changed(self, widget: Any, field: str, value: Any) -> None:
        """A control was changed: write its value into the text (undoable); nothing to do
        when the text already says so (the controls were moved to follow the text)."""
        level = self._text_level()
        if level is None or getattr(level, field) == value:
            return
        old = level.par if field == "par" else level.density
        before = list(self.field_values())
        before[self._editables().index(widget)] = (
            ("" if old is None else str(old)) if field == "par" else old
        )
        self._write_field(level, field, value, tuple(before))

    def _write_field(self, level: Level, field: str, value: Any, before: tuple) -> bool:
        """Set ``field`` of the level in the text to ``value`` (an undoable change), editing
        only that field when it can; False (with the reason shown) when the level refuses it."""
        from grammar.levels import dump_level

        try:
            wanted = replace(level, **{field: value})
        except (TypeError, ValueError) as error:
            self.show_error(str(error))
            return False
        area = self.text_area
        # No par leaves the field out; a density reading is always written, as every level
        # text names it (leaving it out would mean the default, issue 29).
        text = _field_edit(area.text, field, None if value is None else str(value))
        if text is None or self._loads_to(text) != wanted:
            text = dump_level(wanted, self.info.id)
        cursor = area.cursor_location
        area.text = text
        lines = text.split("\n")
        row = min(cursor[0], len(lines) - 1)
        area.cursor_location = (row, min(cursor[1], len(lines[row])))
        self.record_change(before)
        return True

    @staticmethod
    def _loads_to(text: str) -> Any:
        from grammar.errors import ParseError
        from grammar.levels import load_pack

        try:
            pack = load_pack(text, filename="<editor>")
        except ParseError:
            return None
        return pack.levels[0] if len(pack.levels) == 1 else None

    def action_par_to_shortest(self) -> None:
        """Set par to the shortest solution the bench found (undoable)."""
        level = self.read_level()
        if level is None:
            return
        known = self._shortest
        if known is None or known[0] != _solution_key(level):
            self.show_error(
                "The shortest solution is not known yet: wait for the verdict, or Solve (F4)."
            )
            return
        steps = known[1]
        if level.par == steps:
            self.show_error(f"Par is already the shortest, {steps}.", ok=True)
            return
        if self._write_field(level, "par", steps, self.field_values()):
            self.read_level(quiet=True)  # the par input follows at once
            self.show_error(f"Par set to the shortest solution, {steps}.", ok=True)

    # -- verdict and solver ----------------------------------------------------------------

    def _assess(self, level: Level, **limits: Any) -> str:
        verdict = assess(level, **limits)
        # Only a proved shortest plan is par (issue 29): a plan found with a bound hit is not.
        if verdict.status == "solved" and verdict.steps is not None and not verdict.reason:
            self._shortest = (_solution_key(level), verdict.steps)
        return describe_verdict(level, verdict)

    def derived_metadata(self, level: Level) -> list[MetadataUpdate]:
        """Par, when the verdict for this very level proved the shortest solution."""
        known = self._shortest
        if known is None or known[0] != _solution_key(level):
            return []
        if level.par is None or level.par == known[1]:
            return []
        return [MetadataUpdate("par", level.par, known[1], "the verdict's shortest solution")]

    def live_verdict(self, level: Level, should_stop: Callable[[], bool]) -> str | None:
        return self._assess(level, time_limit=self.LIVE_TIME_LIMIT, should_stop=should_stop)

    def action_solve(self) -> None:
        """Solve the edited level with the longer limit, as a job (esc cancels)."""
        self.start_level_job("Solving", self._solve)

    def _solve(self, level: Level, stop: Callable[[], bool]) -> str:
        report = JobProgress(self)

        def progress(explored: int, frontier: int) -> None:
            report(
                f"Solving… {explored:,} states, {frontier:,} waiting, "
                f"{report.elapsed:.1f} s (esc cancels)"
            )

        return f"Solve (F4, {SOLVE_TIME_LIMIT:g} s limit): " + self._assess(
            level,
            time_limit=SOLVE_TIME_LIMIT,
            max_states=SOLVE_MAX_STATES,
            should_stop=stop,
            progress=progress,
        )
