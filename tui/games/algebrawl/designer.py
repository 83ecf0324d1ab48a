"""The level editor of Algebrawl on the designer's bench (:mod:`tui.screens.designer`).

Structured fields replace the level text (at 80x24 they show every field of the format at
once, which a text area of six lines could not): title and par, the numbers and the monsters
(space-separated numbers, fractions such as ``7/2`` too), the card picker (every built-in
card, on or off, with its copies) above the card list (the level file's ``cards`` without
brackets: built-in cards by symbol or name and custom cards by definition, ``avg(a, b) = (a +
b) / 2``), the two house rules, author, hint and description. Each field is read by the level
format's own grammar (:func:`grammar.algebrawl.parse_numbers`,
:func:`grammar.algebrawl.parse_cards`), so errors carry the loader's messages and carets.

Every change is undoable (``ctrl+z``/``ctrl+y``): typing in a field is one step per burst
(until the field loses focus), a picked card, a rule, "Use par" and "Current position" one
step each.

The live verdict (:func:`core.algebrawl.design.design_verdict`, bounded by
:data:`core.algebrawl.design.LIVE_TIME_LIMIT` seconds) says whether the level is solvable, its
par, how many distinct solutions it has, a shortest solution and its predicted difficulty;
Solve (F4) runs the same without the live limit (cancellable) and lists the distinct solutions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Click
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Checkbox, Input, Label

from core.algebrawl.cards import LIBRARY, Card
from core.algebrawl.design import (
    LIVE_BUDGET,
    LIVE_TIME_LIMIT,
    Verdict,
    design_verdict,
    level_from_state,
)
from core.algebrawl.level import Level, level_of
from core.algebrawl.play import State
from core.algebrawl.values import format_value
from core.levelpack import LevelFieldError
from core.registry import GameInfo
from core.text import plural
from grammar.algebrawl import cards_text, parse_cards, parse_numbers
from grammar.errors import ParseError
from tui.screens.designer import DesignerScreen, MetadataUpdate, Values
from tui.widgets.plain_fields import PlainInput

__all__ = ["AlgebrawlDesigner", "CardPicker", "describe_solve", "describe_verdict"]

PICKER_LABELS: dict[str, str] = {"add": "+", "sub": "−", "mul": "×", "div": "÷"}
"""How the picker shows a built-in card (the others by name)."""
SOLVE_TIME_LIMIT = 120.0
"""Seconds Solve (F4) may take (it can be cancelled)."""
LISTED = 20
"""Distinct solutions Solve lists."""


class CardPicker(Widget, can_focus=True):
    """Every built-in card on one line, on (with its copies) or off.

    ``space``/``enter``/click turns the card under the cursor on (one copy) or off (every
    copy); ``+``/``-`` add or remove one copy. The picker changes nothing itself: it posts
    :class:`CardPicker.Picked` and the editor rewrites the card list.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Previous card", show=False, id="algebrawl_editor.card_left"),
        Binding("right", "move(1)", "Next card", show=False, id="algebrawl_editor.card_right"),
        Binding("space,enter", "pick", "Card on/off", id="algebrawl_editor.card_toggle"),
        Binding(
            "plus,equals_sign",
            "copies(1)",
            "+1 copy",
            show=False,
            id="algebrawl_editor.card_more",
        ),
        Binding("minus", "copies(-1)", "−1 copy", show=False, id="algebrawl_editor.card_fewer"),
    ]

    DEFAULT_CSS = """
    CardPicker { height: auto; width: 1fr; }
    """

    cursor: reactive[int] = reactive(0)

    class Picked(Message):
        """Change the copies of a built-in card: ``delta`` more (or fewer), or toggle
        (``delta`` None: off when dealt, else one copy)."""

        def __init__(self, name: str, delta: int | None) -> None:
            super().__init__()
            self.name = name
            self.delta = delta

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names = list(LIBRARY)
        self.counts: dict[str, int] = {}
        self._spans: list[tuple[int, int]] = []

    def set_counts(self, counts: dict[str, int]) -> None:
        """Show how many copies of each built-in card the list deals."""
        self.counts = counts
        self.refresh()

    def render(self) -> Text:
        text = Text(no_wrap=False)
        self._spans = []
        for i, name in enumerate(self.names):
            count = self.counts.get(name, 0)
            label = PICKER_LABELS.get(name, name) + (f"×{count}" if count > 1 else "")
            style = "bold reverse" if count else "dim"
            if i == self.cursor and self.has_focus:  # the cursor: underlined, never dim
                style = "bold reverse underline" if count else "bold underline"
            start = len(text.plain)
            text.append(f" {label} ", style=style)
            self._spans.append((start, len(text.plain)))
        return text

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, step: int) -> None:
        """Move the cursor to the previous or next card."""
        self.cursor = (self.cursor + step) % len(self.names)

    def action_pick(self) -> None:
        """Turn the card under the cursor on or off."""
        self.post_message(self.Picked(self.names[self.cursor], None))

    def action_copies(self, delta: int) -> None:
        """Deal one more (or one fewer) copy of the card under the cursor."""
        self.post_message(self.Picked(self.names[self.cursor], delta))

    def on_click(self, event: Click) -> None:
        width = max(self.size.width, 1)
        offset = event.y * width + event.x  # the line wraps at the widget's width
        for i, (start, end) in enumerate(self._spans):
            if start <= offset < end:
                self.cursor = i
                self.action_pick()
                return


class RuleBox(Checkbox):
    """A checkbox whose mark is blank when off, so it reads without colour (``NO_COLOR``)."""

    @property  # a class constant in Textual, a state here
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # read-only here
        return "X" if self.value else " "


def describe_verdict(level: Level, verdict: Verdict) -> str:
    """The live verdict as lines of text for the bench."""
    limit = f"{verdict.time_limit:g} s"
    if verdict.status == "unknown":
        # Say which bound cut the search: unknown is never shown as unsolvable.
        why = (
            "the solver used up its work budget"
            if verdict.reason == "work budget"
            else "the solver was stopped"
            if verdict.reason == "cancelled"
            else "the solver ran out of time"
        )
        return (
            f"? Unknown within {limit}: {why}. Solve (F4) tries for "
            f"{SOLVE_TIME_LIMIT:g} s; fewer numbers or cards make it quicker."
        )
    if verdict.status == "unsolvable":
        rule = " and use every number" if level.puzzle.use_all else ""
        return f"✗ Unsolvable: these cards cannot strike every monster{rule}."
    lines = []
    count = verdict.count
    if count is not None:
        solutions = plural(count, "distinct solution")
        counted = (
            solutions
            if verdict.count_complete
            else f"at least {solutions} (not all counted within {limit})"
        )
    else:
        counted = f"distinct solutions {verdict.count_note}"
    lines.append(f"✓ Solvable · par {verdict.par} moves · {counted}")
    lines.append("Shortest: " + "; ".join(verdict.solution))
    difficulty = f"Difficulty: card score {verdict.card_score} ({verdict.score_band})"
    if verdict.predicted_seconds is not None:
        note = f", {verdict.predictor_note}" if verdict.predictor_note else ""
        difficulty += (
            f" · a person needs about {verdict.predicted_seconds:.0f} s "
            f"({verdict.seconds_band}; 24-game predictor{note})"
        )
    lines.append(difficulty)
    if level.par is None:
        lines.append(f"No par set: “Use par” sets {verdict.par}.")
    elif level.par != verdict.par:
        lines.append(
            f"Par {level.par} is not the shortest solution's {verdict.par} moves "
            "(“Use par” sets it)."
        )
    return "\n".join(lines)


def describe_solve(level: Level, verdict: Verdict) -> str:
    """Solve's (F4) result: the verdict's first line, then the distinct solutions."""
    lines = [f"Solve, up to {verdict.time_limit:g} s: " + describe_verdict(level, verdict)]
    if verdict.distinct:
        lines.append("Distinct solutions:")
        lines += [f"{i}. {s}" for i, s in enumerate(verdict.distinct[:LISTED], 1)]
        more = (verdict.count or 0) - LISTED
        if more > 0:
            lines.append(f"… and {more} more (termarcade algebrawl solve FILE lists them)")
    return "\n".join(lines)


class AlgebrawlDesigner(DesignerScreen):
    """Algebrawl's level editor: structured fields, a card picker, a live verdict.

    Keys: the bench's (``f2`` play, ``f3`` save, ``f8`` export, ``f9`` current position,
    ``ctrl+z``/``ctrl+y`` undo/redo, ``escape`` close), ``f4`` solve without the live
    limit, and in the card picker ``left``/``right``, ``space`` (on/off), ``+``/``-``
    (copies); ``tab`` moves between fields.
    """

    EDITOR_TITLE = "Algebrawl level editor"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f4", "solve", "Solve", id="algebrawl_editor.solve"),
    ]

    DEFAULT_CSS = """
    AlgebrawlDesigner .alg-row { height: auto; }
    AlgebrawlDesigner .alg-row Label { width: 9; color: $text-muted; }
    AlgebrawlDesigner .alg-row Input { width: 1fr; }
    AlgebrawlDesigner #dev-fields Label { width: auto; }
    AlgebrawlDesigner #dev-title-input { width: 1fr; }
    AlgebrawlDesigner #dev-par-input { width: 5; }
    AlgebrawlDesigner #alg-use-par { min-width: 0; width: auto; margin-left: 1; }
    AlgebrawlDesigner #alg-monsters-label { width: auto; padding: 0 1; }
    AlgebrawlDesigner #alg-author-label { width: auto; padding: 0 1 0 2; }
    AlgebrawlDesigner Checkbox { width: auto; margin-right: 2; }
    AlgebrawlDesigner #dev-verdict { max-height: 7; color: $text; }
    """

    level: Level
    state: State | None

    def __init__(
        self,
        level: Level,
        state: State | None = None,
        mine_id: int | None = None,
        *,
        info: GameInfo,
    ) -> None:
        super().__init__(level, state, mine_id, info=info)
        self._last_values: Values = ()
        self._burst: tuple[str, Values] | None = None
        """(input id, values before) of the typing not yet made an undo step."""
        self._verdict: tuple[Level, Verdict] | None = None
        try:
            self._current = level_from_state(level, state) if state is not None else None
        except ValueError:
            self._current = None  # the position does not map to a level (won, ...)

    # -- layout ------------------------------------------------------------------------------

    def compose_fields(self) -> ComposeResult:
        level, puzzle = self.level, self.level.puzzle
        with Horizontal(id="dev-fields"):
            yield Label("Title ")
            yield PlainInput(level.title, id="dev-title-input", compact=True)
            yield Label(" Par ")
            yield PlainInput(
                "" if level.par is None else str(level.par),
                id="dev-par-input",
                compact=True,
                restrict=r"[0-9]*",
                max_length=2,
            )
            yield Button(
                "Use par",
                id="alg-use-par",
                compact=True,
                tooltip="Set par to the shortest solution's moves (from the verdict)",
            )
        with Horizontal(classes="alg-row"):
            yield Label("Numbers")
            yield PlainInput(
                " ".join(format_value(v) for v in puzzle.numbers),
                id="alg-numbers",
                compact=True,
                placeholder="3 4 5 7/2",
            )
            yield Label("Monsters", id="alg-monsters-label")
            yield PlainInput(
                " ".join(format_value(v) for v in puzzle.targets),
                id="alg-monsters",
                compact=True,
                placeholder="24",
            )
        with Horizontal(classes="alg-row"):
            yield Label("Cards")
            yield CardPicker(id="alg-picker")
        with Horizontal(classes="alg-row"):
            yield Label("")
            yield PlainInput(
                cards_text(puzzle.cards),
                id="alg-cards",
                compact=True,
                placeholder="+ - * / and custom cards: avg(a, b) = (a + b) / 2",
                tooltip="The cards dealt, as a level file writes them (custom cards by "
                "definition); the picker above edits the built-in ones",
            )
        with Horizontal(classes="alg-row"):
            yield Label("Rules")
            yield RuleBox(
                "whole numbers only", puzzle.integer_only, id="alg-integer-only", compact=True
            )
            yield RuleBox("use every number", puzzle.use_all, id="alg-use-all", compact=True)
            yield Label("Author", id="alg-author-label")
            yield PlainInput(level.author, id="alg-author", compact=True)
        with Horizontal(classes="alg-row"):
            yield Label("Hint")
            yield PlainInput(level.hint, id="dev-hint-input", compact=True)
        with Horizontal(classes="alg-row"):
            yield Label("About")
            yield PlainInput(
                level.description,
                id="alg-description",
                compact=True,
                placeholder="description shown before playing",
            )

    def extra_buttons(self) -> Iterable[Button]:
        yield Button(
            "Solve F4",
            id="alg-solve-button",
            compact=True,
            tooltip=f"Solve without the live limit (up to {SOLVE_TIME_LIMIT:g} s) and list "
            "the distinct solutions",
        )
        yield Button("Text", id="alg-text-button", compact=True, tooltip="The level as text")

    def button_actions(self) -> dict[str, Callable[[], None]]:
        return {
            "alg-solve-button": self.action_solve,
            "alg-text-button": self.action_show_text,
            "alg-use-par": self.action_use_par,
        }

    def on_mount(self) -> None:
        # Textual runs the base classes' on_mount too (after this one): no super() call.
        self._last_values = self.field_values()
        self._update_picker()
        self.query_one("#alg-numbers", Input).focus()

    # -- values and undo -----------------------------------------------------------------------

    def _input(self, widget_id: str) -> Input:
        return self.query_one(f"#{widget_id}", Input)

    def extra_values(self) -> Values:
        return (
            self.query_one("#alg-integer-only", Checkbox).value,
            self.query_one("#alg-use-all", Checkbox).value,
        )

    def set_extra_values(self, values: Values) -> None:
        if len(values) == 2:
            self.query_one("#alg-integer-only", Checkbox).value = values[0]
            self.query_one("#alg-use-all", Checkbox).value = values[1]

    def record_change(self, before: Values) -> None:
        super().record_change(before)
        self._last_values = self.field_values()
        self._update_picker()

    def set_field_values(self, values: Values) -> None:
        self._burst = None
        super().set_field_values(values)
        self._last_values = self.field_values()
        self._update_picker()

    def _flush_typing(self) -> None:
        """Make the typing burst in progress one undo step."""
        if self._burst is not None:
            before = self._burst[1]
            self._burst = None
            self.record_change(before)

    def _edited(self, source: str, typing: bool) -> None:
        """A field changed (typing, or a checkbox): note the undo step."""
        now = self.field_values()
        if now == self._last_values:
            return  # a change the editor made and recorded itself (undo, a pick ...)
        if typing and self._burst is not None and self._burst[0] == source:
            self._last_values = now
        elif typing:
            # A new burst; one in another field still open becomes part of this step.
            before = self._burst[1] if self._burst is not None else self._last_values
            self._burst = (source, before)
            self._last_values = now
        else:
            before = self._burst[1] if self._burst is not None else self._last_values
            self._burst = None
            self.record_change(before)
        if source == "alg-cards":
            self._update_picker()

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        self._edited(event.input.id or "", typing=True)

    @on(Input.Blurred)
    def _left_field(self, event: Input.Blurred) -> None:
        self._flush_typing()

    @on(Checkbox.Changed)
    def _rule_changed(self, event: Checkbox.Changed) -> None:
        self._edited(event.checkbox.id or "", typing=False)
        self.changed()

    def action_undo(self) -> None:
        self._flush_typing()
        super().action_undo()

    def action_redo(self) -> None:
        self._flush_typing()
        super().action_redo()

    # -- the card picker -----------------------------------------------------------------------

    def _cards(self) -> tuple[Card, ...]:
        """The card list (raises ParseError)."""
        text = self._input("alg-cards").value
        return parse_cards(text, filename="cards") if text.strip() else ()

    def _update_picker(self) -> None:
        try:
            cards = self._cards()
        except ParseError:
            return  # the error line says what is wrong; the picker keeps the last counts
        counts = {name: sum(1 for c in cards if c == card) for name, card in LIBRARY.items()}
        self.query_one(CardPicker).set_counts(counts)

    @on(CardPicker.Picked)
    def _picked(self, event: CardPicker.Picked) -> None:
        card = LIBRARY[event.name]
        try:
            cards = list(self._cards())
        except ParseError as error:
            self.show_error("Mend the card list first: " + error.render())
            self.app.bell()
            return
        dealt = sum(1 for c in cards if c == card)
        toggled = 0 if dealt else 1
        want = toggled if event.delta is None else max(0, dealt + event.delta)
        if want > dealt:
            cards += [card] * (want - dealt)
        else:
            for _ in range(dealt - want):  # the last copies go first
                cards.pop(max(i for i, c in enumerate(cards) if c == card))
        if want == dealt:
            self.app.bell()
            return
        self._flush_typing()
        before = self.field_values()
        self._input("alg-cards").value = cards_text(cards)
        self.record_change(before)

    # -- reading the level ---------------------------------------------------------------------

    def _field_error(self, widget_id: str, message: str, quiet: bool, column: int = 0) -> None:
        self.show_error(message)
        if not quiet:
            widget = self._input(widget_id)
            widget.focus()
            if column:
                widget.cursor_position = column - 1

    def read_level(self, quiet: bool = False) -> Level | None:
        """Build the level from the fields, or show what is wrong and return None."""
        values: dict[str, Any] = {}
        for key, widget_id, name in (
            ("numbers", "alg-numbers", "numbers"),
            ("targets", "alg-monsters", "monsters"),
        ):
            try:
                values[key] = parse_numbers(self._input(widget_id).value, filename=name)
            except ParseError as error:
                self._field_error(widget_id, error.render(), quiet, error.column)
                return None
        try:
            cards = self._cards()
        except ParseError as error:
            self._field_error("alg-cards", error.render(), quiet, error.column)
            return None
        par_text = self._input("dev-par-input").value.strip()
        title = self._input("dev-title-input").value.strip() or "Custom level"
        fields = {
            "title": "dev-title-input",
            "numbers": "alg-numbers",
            "targets": "alg-monsters",
            "cards": "alg-cards",
            "par": "dev-par-input",
            "hint": "dev-hint-input",
            "description": "alg-description",
            "author": "alg-author",
        }
        try:
            level = level_of(
                title,
                numbers=values["numbers"],
                targets=values["targets"],
                cards=cards,
                integer_only=self.query_one("#alg-integer-only", Checkbox).value,
                use_all=self.query_one("#alg-use-all", Checkbox).value,
                par=int(par_text) if par_text else None,
                hint=self._input("dev-hint-input").value.strip(),
                description=self._input("alg-description").value.strip(),
                author=self._input("alg-author").value.strip(),
            )
        except LevelFieldError as error:
            shown = "monsters" if error.field == "targets" else error.field
            self._field_error(fields.get(error.field, "alg-numbers"), f"{shown}: {error}", quiet)
            return None
        except (TypeError, ValueError) as error:
            self.show_error(str(error))
            return None
        self.clear_error()
        return level

    # -- the verdict ---------------------------------------------------------------------------

    def live_verdict(self, level: Level, should_stop: Callable[[], bool]) -> str | None:
        verdict = design_verdict(
            level, time_limit=LIVE_TIME_LIMIT, should_stop=should_stop, budget=LIVE_BUDGET
        )
        if should_stop():
            return None
        self._verdict = (level, verdict)
        return describe_verdict(level, verdict)

    def derived_metadata(self, level: Level) -> list[MetadataUpdate]:
        """Par, when the verdict for this very level proved a shortest solution."""
        known = self._verdict
        if known is None or known[0] != level or known[1].status != "solved":
            return []
        par = known[1].par
        if level.par is None or par is None or level.par == par:
            return []
        return [MetadataUpdate("par", level.par, par, "the verdict's shortest solution")]

    def show_metadata(self, level: Level) -> None:
        """Title, par and description into their fields (one undoable change)."""
        self._flush_typing()
        before = self.field_values()
        self._input("dev-title-input").value = level.title
        self._input("dev-par-input").value = "" if level.par is None else str(level.par)
        self._input("alg-description").value = level.description
        self.record_change(before)

    def action_use_par(self) -> None:
        """Set par to the shortest solution's moves (undoable)."""
        level = self.read_level()
        if level is None:
            return
        known = self._verdict
        if known is None or known[0] != level or known[1].par is None:
            self.show_error("No par known yet: wait for the verdict (or Solve, F4).")
            self.app.bell()
            return
        self._flush_typing()
        before = self.field_values()
        self._input("dev-par-input").value = str(known[1].par)
        self.record_change(before)
        self.show_error(f"Par set to {known[1].par} (ctrl+z undoes).", ok=True)

    def action_solve(self) -> None:
        """Solve without the live limit (a cancellable job) and list the distinct solutions."""
        self.start_level_job(f"Solving (up to {SOLVE_TIME_LIMIT:g} s, esc cancels)", self._solve)

    def _solve(self, level: Level, stop: Callable[[], bool]) -> str:
        """The job: the verdict without the live limit, kept for "Use par" (esc cancels)."""
        verdict = design_verdict(
            level, time_limit=SOLVE_TIME_LIMIT, should_stop=stop, budget=LIVE_BUDGET
        )
        if stop():
            return "Cancelled."
        self._verdict = (level, verdict)
        return describe_solve(level, verdict)

    def action_show_text(self) -> None:
        """Show the level as a level file writes it."""
        level = self.read_level()
        if level is not None:
            from grammar.levels import dump_level

            self.show_result(dump_level(level, self.info.id))

    # -- current position ----------------------------------------------------------------------

    @property
    def can_use_current(self) -> bool:
        return self._current is not None

    def action_use_current(self) -> None:
        self._flush_typing()
        super().action_use_current()

    def fill_from_state(self, state: State) -> None:
        """Numbers, monsters, cards and rules from the game in progress; par cleared."""
        made = self._current
        if made is None:
            return
        puzzle = made.puzzle
        self._input("alg-numbers").value = " ".join(format_value(v) for v in puzzle.numbers)
        self._input("alg-monsters").value = " ".join(format_value(v) for v in puzzle.targets)
        self._input("alg-cards").value = cards_text(puzzle.cards)
        self._input("dev-par-input").value = ""
        self.set_extra_values((puzzle.integer_only, puzzle.use_all))
