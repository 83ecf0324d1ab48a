"""The TermCraft game screen, on the puzzle screen base.

:class:`TermCraftScreen` renders what :mod:`core.termcraft` says about the current state: the
term tree, the actions, fuel and budget, the target (with what still differs highlighted) and
the engine's warnings. It contains no game rule: every move goes through the engine (via the
base's :meth:`~tui.screens.puzzle.PuzzleScreen.play`), every list of moves comes from it.
Undo/redo, restart (an undoable move), saves per level, the outcome dialogs and the hint
worker come from the base.

Layout (fits 80×24): the base's header line; a status block (fuel, budget, the warnings
count, the target wrapped between arguments); the term tree on the left and the numbered
action list with the highlighted action's details on the right; the message line; the
footer. The level editor, the construct dialog, the warnings list and the full target are
dialogs.
"""

from __future__ import annotations

from typing import Any, ClassVar, Optional, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import OptionList, Static

from core.session import Session
from core.termcraft import (
    ConstructAction,
    IllegalMove,
    Level,
    RewriteAction,
    State,
    construct,
    loss_reason,
    placeholder_sites,
    rewrite_actions,
    solve,
    warnings,
)
from core.terms import Path, Term, differences, format_path
from core.text import plural
from tui.modals.construct import ConstructModal
from tui.screens.puzzle import Hint, PuzzleScreen
from tui.widgets.action_list import ActionDetails, ActionList, ConstructEntry
from tui.widgets.target_view import TargetView, term_text
from tui.widgets.term_tree import TermTree

__all__ = ["GAME_ID", "TermCraftScreen"]

GAME_ID = "termcraft"
"""The game id (store key, help page, level-file ``game``)."""


class ResourceLine(Static):
    """Fuel and budget against the level's start, and how many warnings there are."""

    DEFAULT_CSS = """
    ResourceLine { height: 1; padding: 0 1; background: $boost; }
    """

    def show(self, state: State, level: Level, warning_count: int) -> None:
        """Render the figures (each with a word, so nothing depends on colour)."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append("Fuel ")
        text.append(str(state.fuel), "bold")
        text.append(f"/{level.fuel}   Budget ")
        text.append(str(state.budget), "bold")
        text.append(f"/{level.budget}")
        if warning_count:
            text.append(f"   ⚠ {plural(warning_count, 'warning')} (W lists them)", "bold")
        self.update(text)


class TermCraftScreen(PuzzleScreen):
    """Play one TermCraft level (see the module docstring)."""

    GAME_ID: ClassVar[str] = GAME_ID
    HELP_TOPIC: ClassVar[str] = GAME_ID
    NUMBERED_MOVES: ClassVar[bool] = True
    CSS_PATH = "../styles/termcraft.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "apply", "Apply", id="termcraft.apply", key_display="⏎"),
        Binding("c", "construct", "Construct", id="termcraft.construct"),
        Binding("E", "dev_panel", "Editor", id="termcraft.dev"),
        Binding("W", "warnings", "Warnings", show=False, id="termcraft.warnings"),
        Binding("T", "show_target", "Target", show=False, id="termcraft.target"),
    ]

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.tip_stage = 0
        """0: no tip yet in this position; 1: the level's hint was shown (then the solver)."""
        self._placeholders: tuple[Path, ...] = ()
        self._shown_term: Optional[Term] = None

    # -- layout ------------------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        yield ResourceLine(id="tc-resources")
        with Horizontal(id="tc-target-row"):
            yield Static("Target", id="tc-target-label")
            yield TargetView(id="tc-target")
        with Horizontal(id="tc-main"):
            tree = TermTree(id="tc-tree")
            tree.border_title = "Term"
            yield tree
            with Vertical(id="tc-side") as side:
                side.border_title = "Actions"
                yield ActionList(id="tc-actions")
                yield ActionDetails(id="tc-details")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(ActionList).focus()

    # -- rendering ---------------------------------------------------------------------------

    def render_state(self, session: Session) -> None:
        state: State = session.state
        new_term = state.term is not self._shown_term
        self._shown_term = state.term
        self._placeholders = placeholder_sites(state.term)
        status = session.status
        listing = self.query_one(ActionList)
        keep = None if new_term else listing.current_entry
        empty = {"won": "Solved! N: next level · esc: levels",
                 "lost": "No move left. u: undo · R: restart"}.get(status, "No action available.")
        listing.show_actions(state.term, rewrite_actions(state), self._placeholders,
                             state.budget, keep=keep, empty=empty)
        found = warnings(state.term)
        self.query_one(ResourceLine).show(state, self.level, len(found))
        self.query_one(TargetView).show(state.target, differences(state.term, state.target))
        tree = self.query_one(TermTree)
        if new_term:
            tree.show_term(state.term, keep_view=True)
            self.tip_stage = 0
        self._show_highlighted()

    def on_level_changed(self) -> None:
        self._shown_term = None
        self.tip_stage = 0

    def _show_highlighted(self) -> None:
        """Mark the highlighted action's site and rule in the tree; describe it."""
        entry = self.query_one(ActionList).current_entry
        tree = self.query_one(TermTree)
        if isinstance(entry, RewriteAction):
            tree.set_marks(entry.site, entry.rule.path, self._placeholders)
        elif isinstance(entry, ConstructEntry):
            tree.set_marks(entry.site, None, self._placeholders)
        else:
            tree.set_marks(None, None, self._placeholders)
        self.query_one(ActionDetails).show_entry(self.state.term, entry, self.state.fuel,
                                                 self.state.budget)

    @on(OptionList.OptionHighlighted, "#tc-actions")
    def _highlighted(self, event: OptionList.OptionHighlighted) -> None:
        self._show_highlighted()

    def loss_reason(self) -> Optional[str]:
        return loss_reason(self.state)

    # -- moves -------------------------------------------------------------------------------

    def numbered_moves(self) -> Sequence[Any]:
        """The rewrites, numbered from 1 as in ``termarcade termcraft actions``."""
        return rewrite_actions(self.state)

    def pick(self, move: Any, number: int) -> None:
        """Digits highlight the numbered action first, then play it."""
        listing = self.query_one(ActionList)
        if move in listing.entries:
            listing.highlighted = listing.entries.index(move)
        super().pick(move, number)

    @on(OptionList.OptionSelected, "#tc-actions")
    def _action_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_apply()

    @on(TermTree.Chosen)
    def _chosen(self, event: TermTree.Chosen) -> None:
        """Enter on a tree node: construct on a placeholder, else go to its actions."""
        event.stop()
        if event.path in self._placeholders:
            self._open_construct(event.path)
            return
        listing = self.query_one(ActionList)
        for index, entry in enumerate(listing.entries):
            if isinstance(entry, RewriteAction) and entry.site == event.path:
                listing.highlighted = index
                listing.focus()
                return
        node = self.query_one(TermTree).cursor_node
        if node is not None and node.allow_expand:
            node.toggle()
        else:
            self.say(f"No action at {format_path(event.path)}.")

    def action_apply(self) -> None:
        """Apply the highlighted action (on a construct entry: open the construct dialog)."""
        if isinstance(self.focused, TermTree):
            self.focused.action_choose()
            return
        entry = self.query_one(ActionList).current_entry
        if entry is None:
            self.app.bell()
            self.say("No action is highlighted.", "warning")
            return
        if isinstance(entry, ConstructEntry):
            self._open_construct(entry.site)
            return
        self.play(entry)

    def action_construct(self) -> None:
        """Open the construct dialog for the selected placeholder."""
        entry = self.query_one(ActionList).current_entry
        cursor = self.query_one(TermTree).cursor_path
        if isinstance(entry, ConstructEntry):
            self._open_construct(entry.site)
        elif cursor is not None and cursor in self._placeholders:
            self._open_construct(cursor)
        elif self._placeholders:
            self._open_construct(self._placeholders[0])
        else:
            self.say("There is no placeholder to construct at.")

    def _open_construct(self, site: Path) -> None:
        if self.session.finished:
            self.app.bell()
            self.say("The game is over: u undoes, R restarts, esc goes back.", "warning")
            return
        state = self.state

        def check(term: Term) -> Optional[str]:
            try:
                construct(state, site, term)
            except IllegalMove as err:
                return str(err)[:1].upper() + str(err)[1:] + "."
            return None

        def done(term: Optional[Term]) -> None:
            if term is not None and self.state is state:
                self.play(ConstructAction(site, term))

        self.app.push_screen(ConstructModal(site, state.budget, check), done)

    def action_focus_tree(self) -> None:
        """Move the focus to the term tree."""
        self.query_one(TermTree).focus()

    # -- dialogs -----------------------------------------------------------------------------

    def action_warnings(self) -> None:
        """List every warning about the current term (ignored rules and axioms)."""
        from tui.modals.text_view import TextModal

        found = warnings(self.state.term)
        body = "\n".join(f"⚠ {w}" for w in found) or "No warnings: every rule and axiom is used."
        self.app.push_screen(TextModal(f"Warnings ({len(found)})", body))

    def action_show_target(self) -> None:
        """The whole target, with what still differs from the current term highlighted."""
        from tui.modals.text_view import TextModal

        state = self.state
        marked = differences(state.term, state.target)
        body = term_text(state.target, marked, limit=200_000)
        self.app.push_screen(TextModal(
            f"Target ({plural(len(marked), 'difference')} from the current term, underlined)",
            body))

    # -- tip ---------------------------------------------------------------------------------

    def action_tip(self) -> None:
        """First ``t``: the level's hint. Then: the solver's next move (in the hint worker)."""
        if self.tip_stage == 0 and self.level.hint and not self.session.finished:
            self.tip_stage = 1
            self.say(f"Hint: {self.level.hint}  (t again: the next move)")
            return
        super().action_tip()

    def compute_hint(self, state: State, should_stop: Any, time_limit: float) -> Hint:
        result = solve(state, time_limit=time_limit, should_stop=should_stop)
        if result.status == "unsolvable":
            return Hint("From here the level cannot be won (within the solver's construct "
                        "moves): undo (u) or restart (R).")
        if result.status != "solved" or not result.plan:
            return Hint("The solver could not find a way in time.")
        move = result.plan[0]
        return Hint(f"Next move ({plural(len(result.plan), 'move')} to go): "
                    f"{self.game.describe_move(state, move)}", move)

    def highlight_move(self, move: Any) -> None:
        listing = self.query_one(ActionList)
        target = ConstructEntry(move.site) if isinstance(move, ConstructAction) else move
        if target in listing.entries:
            listing.highlighted = listing.entries.index(target)
            listing.focus()

    # -- level editor ------------------------------------------------------------------------

    def action_dev_panel(self) -> None:
        """Open the level editor on this level (or, if chosen there, the current position)."""
        from tui.widgets.dev_panel import DevPanel

        mine = self.ref is not None and self.ref.source == "mine"
        self.app.push_screen(DevPanel(self.level, self.state,
                                      mine_id=int(self.ref.key) if mine else None),
                             self._edited)

    def _edited(self, result: Any) -> None:
        """The editor closed: play the edited level if it asked to."""
        if result is None or self.launcher is None:
            return
        ref, level = result
        opened = self.launcher.prepare(ref)
        self.switch_level(opened[0], level, opened[2])
        self.say(f"Playing the edited level “{self.level_title}”.")
