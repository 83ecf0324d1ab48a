"""The TermCraft game screen and its starter.

:func:`start` loads the bundled level packs, shows the level select and then the game; a game
left in progress (saved in the store after every move as the level and its move list) is
resumed straight away.

:class:`TermCraftScreen` holds a :class:`core.history.History` of engine states and renders
what :mod:`core.termcraft` says about the current one: the term tree, the actions, the
resources, the warnings, won or lost. It contains no game rule: every move goes through
``core.termcraft.apply``/``construct``, every list of moves comes from the engine.

Layout (fits 80×24): a status panel on top (fuel, budget, moves and par, the target,
warnings), the term tree on the left, the action list with the highlighted action's details
on the right, the footer with the keys at the bottom. The developer panel, the construct
dialog and the win/loss messages are modal screens.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, OptionList
from textual.worker import Worker, WorkerState

from core.history import History
from core.levelpack import LevelPack
from core.termcraft import (
    ConstructAction,
    IllegalMove,
    Level,
    RewriteAction,
    SolveResult,
    State,
    apply,
    construct,
    loss_reason,
    placeholder_sites,
    rewrite_actions,
    solve,
    status,
    warnings,
)
from core.terms import Path, Term, subterm_at, to_str
from grammar.errors import ParseError
from grammar.terms import parse_term
from tui.modals.construct import ConstructModal
from tui.modals.outcome import OutcomeModal, par_verdict
from tui.widgets.action_list import ActionDetails, ActionList, ConstructEntry
from tui.widgets.dev_panel import DevPanel, default_level_path
from tui.widgets.resources import ResourceBar, ResourceView
from tui.widgets.term_tree import TermTree
from core.terms import format_path, short_str

__all__ = [
    "GAME_ID",
    "SAVE_SLOT",
    "TermCraftScreen",
    "Step",
    "start",
    "pack_infos",
    "move_to_json",
    "level_to_json",
    "level_from_json",
]

GAME_ID = "termcraft"
"""The game id (store key, help page, level-file ``game``)."""

SAVE_SLOT = "current"
"""Store slot of the game in progress."""

TIP_TIME_LIMIT = 5.0
"""Seconds the solver may think for a tip."""

LevelRef = tuple[str, int]
"""``(pack_id, level_index)`` of a bundled level."""


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of the history: an engine state and the move that led to it."""

    state: State
    """The engine state."""
    move: dict[str, Any] | None = None
    """The move as saved in the store (None for the initial state)."""


# -- (de)serialising levels and moves for the store ----------------------------------------------


def move_to_json(action: RewriteAction | ConstructAction) -> dict[str, Any]:
    """Describe a move so it can be saved and replayed later.

    Args:
        action: A rewrite or construct action.

    Returns:
        ``{"rule": [...], "site": [...], "sigma": [[name, term], ...]}`` for a rewrite,
        ``{"construct": [...], "term": "..."}`` for a construct.
    """
    if isinstance(action, ConstructAction):
        return {"construct": list(action.site), "term": to_str(action.term)}
    return {
        "rule": list(action.rule.path),
        "site": list(action.site),
        "sigma": [[name, to_str(term)] for name, term in action.sigma],
    }


def replay_move(state: State, move: dict[str, Any]) -> State:
    """Play a saved move again, through the engine.

    Args:
        state: The state before the move.
        move: What :func:`move_to_json` produced.

    Returns:
        The state after the move.

    Raises:
        IllegalMove, ParseError, KeyError, TypeError: When the move does not fit the state.
    """
    if "construct" in move:
        return construct(state, tuple(move["construct"]), parse_term(move["term"]))
    rule, site = tuple(move["rule"]), tuple(move["site"])
    sigma = [tuple(pair) for pair in move["sigma"]]
    for action in rewrite_actions(state):
        if action.rule.path == rule and action.site == site and [
            (name, to_str(term)) for name, term in action.sigma
        ] == sigma:
            return apply(state, action)
    raise IllegalMove("a saved move is not available any more")


def level_to_json(level: Level) -> dict[str, Any]:
    """Save a level's fields as JSON-ready values (terms as canonical text)."""
    return {
        "title": level.title,
        "current": to_str(level.current),
        "target": to_str(level.target),
        "fuel": level.fuel,
        "budget": level.budget,
        "par": level.par,
        "description": level.description,
        "hint": level.hint,
        "author": level.author,
    }


def level_from_json(data: dict[str, Any]) -> Level:
    """Rebuild a level saved by :func:`level_to_json`.

    Raises:
        ParseError, KeyError, TypeError, ValueError: On damaged data.
    """
    return Level(
        str(data["title"]),
        parse_term(data["current"]),
        parse_term(data["target"]),
        int(data["fuel"]),
        int(data["budget"]),
        par=None if data.get("par") is None else int(data["par"]),
        description=str(data.get("description", "")),
        hint=str(data.get("hint", "")),
        author=str(data.get("author", "")),
    )


# -- the screen ----------------------------------------------------------------------------------


class TermCraftScreen(Screen[LevelRef | None]):
    """Play one TermCraft level; dismisses with the level ref to highlight in the level list.

    Args:
        level: The level to play.
        ref: Where it comes from (``(pack_id, index)``), or None for an edited level.
        packs: The bundled packs (for "next level").
        moves: Saved moves to replay (resuming a game in progress).
    """

    HELP_TOPIC = GAME_ID
    CSS_PATH = "../styles/termcraft.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "apply", "Apply", id="termcraft.apply", key_display="⏎"),
        Binding("c", "construct", "Construct", id="termcraft.construct"),
        Binding("u,ctrl+z", "undo", "Undo", id="termcraft.undo", key_display="u"),
        Binding("U,ctrl+y", "redo", "Redo", id="termcraft.redo", key_display="U"),
        Binding("R", "restart", "Restart", id="termcraft.restart"),
        Binding("t", "tip", "Tip", id="termcraft.tip"),
        Binding("E", "dev_panel", "Dev", id="termcraft.dev"),
        Binding("escape,q", "back", "Back", id="termcraft.back", key_display="esc"),
        Binding("n", "next_level", "Next", show=False, id="termcraft.next"),
    ]

    def __init__(
        self,
        level: Level,
        ref: LevelRef | None = None,
        packs: list[tuple[str, LevelPack]] | None = None,
        moves: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__()
        self.packs = list(packs or [])
        """The bundled packs (for the next level)."""
        self.level = level
        """The level being played."""
        self.ref = ref
        """Where the level comes from, or None for an edited level."""
        self.history: History[Step] = History.start(Step(State.from_level(level)))
        """The states played so far (undo/redo move the cursor)."""
        self.tip_stage = 0
        """0: no tip yet in this position; 1: the hint was shown (next t asks the solver)."""
        self.outcome_shown = False
        """The win/loss modal was shown for the current position (not shown twice)."""
        self._pending_moves = list(moves or [])
        self._tip_stop = threading.Event()
        self._tip_job: Worker[SolveResult] | None = None
        self._placeholders: tuple[Path, ...] = ()

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ResourceBar(id="tc-resources")
        with Horizontal(id="tc-main"):
            tree = TermTree(id="tc-tree")
            tree.border_title = "Term"
            yield tree
            with Vertical(id="tc-side") as side:
                side.border_title = "Actions"
                yield ActionList(id="tc-actions")
                yield ActionDetails(id="tc-details")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        if self._pending_moves:
            self._replay(self._pending_moves)
            self._pending_moves = []
        self._refresh_view(new_level=True)
        self.query_one(ActionList).focus()

    def _replay(self, moves: list[dict[str, Any]]) -> None:
        history = self.history
        for number, move in enumerate(moves, start=1):
            try:
                state = replay_move(history.current.state, move)
            except (IllegalMove, ParseError, KeyError, TypeError, ValueError, IndexError):
                self.notify(f"Saved game: move {number} could not be replayed; "
                            f"resumed after move {number - 1}.", severity="warning")
                break
            history = history.push(Step(state, move))
        self.history = history

    # -- properties ----------------------------------------------------------------------------

    @property
    def state(self) -> State:
        """The current engine state."""
        return self.history.current.state

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The moves from the level's start to the current state."""
        return [step.move for step in self.history if step.move is not None]

    # -- rendering -----------------------------------------------------------------------------

    def _refresh_view(self, new_level: bool = False) -> None:
        """Show the current state: resources, tree, actions, details."""
        state = self.state
        game_status = status(state)
        self._placeholders = placeholder_sites(state.term)
        actions = rewrite_actions(state)
        listing = self.query_one(ActionList)
        keep = None if new_level else listing.current_entry
        empty = {
            "won": "Solved! n: next level · esc: levels",
            "lost": "No move left. u: undo · R: restart",
        }.get(game_status, "No action available.")
        listing.show_actions(state.term, actions, self._placeholders, state.budget, keep=keep,
                             empty=empty)
        self.query_one(ResourceBar).show(ResourceView(
            title=self.level.title + ("" if self.ref is not None else " (edited)"),
            fuel=state.fuel, fuel_start=self.level.fuel,
            budget=state.budget, budget_start=self.level.budget,
            moves=self.history.moves, par=self.level.par, target=state.target,
            warnings=warnings(state.term), status=game_status,
        ))
        tree = self.query_one(TermTree)
        tree.show_term(state.term, keep_view=not new_level)
        self._show_highlighted()
        in_progress = game_status == "playing" and self.history.moves > 0
        if hasattr(self.app, "game_in_progress"):
            self.app.game_in_progress = in_progress  # type: ignore[attr-defined]

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

    # -- moves -----------------------------------------------------------------------------------

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
        tree = self.query_one(TermTree)
        node = tree.cursor_node
        if node is not None and node.allow_expand:
            node.toggle()
        else:
            self.notify(f"No action at {format_path(event.path)}.", timeout=3)

    def action_apply(self) -> None:
        """Apply the highlighted action (on a construct entry: open the construct dialog)."""
        if isinstance(self.focused, TermTree):
            self.focused.action_choose()
            return
        entry = self.query_one(ActionList).current_entry
        if entry is None:
            self.app.bell()
            return
        if isinstance(entry, ConstructEntry):
            self._open_construct(entry.site)
            return
        if not self._playing("apply a rule"):
            return
        try:
            new_state = apply(self.state, entry)
        except IllegalMove as err:
            self.notify(str(err), severity="error")
            return
        self._push(new_state, entry)

    def action_construct(self) -> None:
        """Open the construct dialog for the selected placeholder."""
        entry = self.query_one(ActionList).current_entry
        if isinstance(entry, ConstructEntry):
            self._open_construct(entry.site)
            return
        tree = self.query_one(TermTree)
        cursor = tree.cursor_path
        if cursor is not None and cursor in self._placeholders:
            self._open_construct(cursor)
            return
        if self._placeholders:
            self._open_construct(self._placeholders[0])
            return
        self.notify("There is no placeholder to construct at.", timeout=3)

    def _open_construct(self, site: Path) -> None:
        if not self._playing("construct"):
            return
        state = self.state

        def check(term: Term) -> str | None:
            try:
                construct(state, site, term)
            except IllegalMove as err:
                return str(err)[:1].upper() + str(err)[1:] + "."
            return None

        def done(term: Term | None) -> None:
            if term is None or self.state is not state:
                return
            try:
                new_state = construct(state, site, term)
            except IllegalMove as err:
                self.notify(str(err), severity="error")
                return
            self._push(new_state, ConstructAction(site, term))

        self.app.push_screen(ConstructModal(site, state.budget, check), done)

    def _playing(self, what: str) -> bool:
        game_status = status(self.state)
        if game_status == "playing":
            return True
        if game_status == "won":
            self.notify(f"The level is solved; nothing left to {what}. "
                        "u undoes, R restarts, esc goes back.", timeout=4)
        else:
            self.notify("No move left: u undoes, R restarts.", timeout=4)
        return False

    def _push(self, new_state: State, action: RewriteAction | ConstructAction) -> None:
        self._cancel_tip()
        self.history = self.history.push(Step(new_state, move_to_json(action)))
        self.tip_stage = 0
        self.outcome_shown = False
        self._refresh_view()
        self._save_progress()
        self._check_outcome()

    def _check_outcome(self) -> None:
        """Show the win or loss modal when the current state is over (once per position)."""
        game_status = status(self.state)
        if game_status == "playing" or self.outcome_shown:
            return
        self.outcome_shown = True
        moves = self.history.moves
        if game_status == "won":
            store = getattr(self.app, "store", None)
            if store is not None:
                if self.ref is not None:
                    store.mark_solved(GAME_ID, self.ref[0], self.level.title, moves)
                store.delete_game(GAME_ID, SAVE_SLOT)
            modal = OutcomeModal(True, self.level.title, par_verdict(moves, self.level.par),
                                 has_next=self._next_ref() is not None)
        else:
            reason = loss_reason(self.state) or "No valid action is left."
            modal = OutcomeModal(False, self.level.title, reason)
        self.app.push_screen(modal, self._outcome_chosen)

    def _outcome_chosen(self, choice: str | None) -> None:
        if choice == "next":
            self.action_next_level()
        elif choice == "undo":
            self.action_undo()
        elif choice == "restart":
            self.action_restart()
        elif choice == "levels":
            self.action_back()

    # -- undo, redo, restart ---------------------------------------------------------------------

    def action_undo(self) -> None:
        """Take back the last move."""
        if not self.history.can_undo:
            self.notify("Nothing to undo.", timeout=2)
            return
        self._cancel_tip()
        self.history = self.history.undo()
        self._after_jump()

    def action_redo(self) -> None:
        """Play again a move taken back."""
        if not self.history.can_redo:
            self.notify("Nothing to redo.", timeout=2)
            return
        self._cancel_tip()
        self.history = self.history.redo()
        self._after_jump()
        self._check_outcome()

    def action_restart(self) -> None:
        """Start the level again from its first position."""
        self._cancel_tip()
        self.history = History.start(Step(State.from_level(self.level)))
        self._after_jump()

    def _after_jump(self) -> None:
        self.tip_stage = 0
        self.outcome_shown = False
        self._refresh_view()
        self._save_progress()

    # -- tip ---------------------------------------------------------------------------------------

    def action_tip(self) -> None:
        """First ``t``: the level's hint. Then: the solver's next move (in a worker thread)."""
        if self.tip_stage == 0 and self.level.hint:
            self.tip_stage = 1
            self.notify(self.level.hint, title="Hint (t again: next move)", timeout=10)
            return
        if status(self.state) != "playing":
            self._playing("hint at")
            return
        if self._tip_job is not None and self._tip_job.state == WorkerState.RUNNING:
            self.notify("Still thinking…", timeout=2)
            return
        self.tip_stage = 1
        self._tip_stop = threading.Event()
        self.notify("Thinking about the next move…", timeout=2)
        self._tip_job = self._solve_tip(self.state, self._tip_stop)

    @work(thread=True, exclusive=True, group="termcraft-tip", exit_on_error=False)
    def _solve_tip(self, state: State, stop: threading.Event) -> SolveResult:
        return solve(state, time_limit=TIP_TIME_LIMIT, should_stop=stop.is_set)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._tip_job or self._tip_stop.is_set():
            return
        if event.state == WorkerState.SUCCESS:
            self._show_tip(event.worker.result)
        elif event.state == WorkerState.ERROR:
            self.notify(f"The solver failed: {event.worker.error}", severity="error")

    def _show_tip(self, result: SolveResult | None) -> None:
        if result is None:
            return
        if result.status == "unsolvable":
            self.notify("From here the level cannot be won (within the solver's construct "
                        "moves): undo (u) or restart (R).", title="Tip", severity="warning",
                        timeout=8)
            return
        if result.status != "solved" or not result.plan:
            self.notify("The solver could not find a way in time.", title="Tip", timeout=6)
            return
        move = result.plan[0]
        listing = self.query_one(ActionList)
        if isinstance(move, ConstructAction):
            target = ConstructEntry(move.site)
            text = f"construct {to_str(move.term)[:60]} at {format_path(move.site)}"
        else:
            target = move
            here = short_str(subterm_at(self.state.term, move.site), 40)
            text = (f"rewrite {here} ⇒ {short_str(move.replacement, 40)} at "
                    f"{format_path(move.site)} (highlighted: press enter)")
        if target in listing.entries:
            listing.highlighted = listing.entries.index(target)
            listing.focus()
        self.notify(f"Next move ({len(result.plan)} to go): {text}", title="Tip", timeout=10)

    def _cancel_tip(self) -> None:
        self._tip_stop.set()

    # -- developer panel -----------------------------------------------------------------------

    def action_dev_panel(self) -> None:
        """Open the developer panel on the current position."""
        state = self.state

        def applied(level: Level | None) -> None:
            if level is not None:
                self.start_level(level, None)
                self.notify("Level applied: the game restarted with it.", timeout=3)

        self.app.push_screen(
            DevPanel(self.level, state.term, state.fuel, state.budget, save=self._save_level,
                     default_path=default_level_path(self.level.title)),
            applied,
        )

    def _save_level(self, path: str, level: Level) -> str:
        """Write ``level`` as a one-level pack to ``path`` (temp file + rename)."""
        from grammar.levels import dump_pack
        from tui.store import atomic_write_text

        pack = LevelPack(title=level.title, author=level.author, levels=(level,), game=GAME_ID)
        atomic_write_text(path, dump_pack(pack))
        return f"Saved to {path}."

    # -- levels ----------------------------------------------------------------------------------

    def start_level(self, level: Level, ref: LevelRef | None) -> None:
        """Replace the level being played and start it from its first position."""
        self._cancel_tip()
        self.level = level
        self.ref = ref
        self.history = History.start(Step(State.from_level(level)))
        self.tip_stage = 0
        self.outcome_shown = False
        self._refresh_view(new_level=True)
        self._save_progress()
        self.query_one(ActionList).focus()

    def _next_ref(self) -> LevelRef | None:
        if self.ref is None:
            return None
        ids = [pack_id for pack_id, _ in self.packs]
        if self.ref[0] not in ids:
            return None
        p = ids.index(self.ref[0])
        if self.ref[1] + 1 < len(self.packs[p][1].levels):
            return (self.ref[0], self.ref[1] + 1)
        for later in range(p + 1, len(self.packs)):
            if self.packs[later][1].levels:
                return (self.packs[later][0], 0)
        return None

    def action_next_level(self) -> None:
        """Go to the next level (only once this one is solved)."""
        if status(self.state) != "won":
            return
        ref = self._next_ref()
        if ref is None:
            self.notify("That was the last level.", timeout=3)
            return
        pack = dict(self.packs)[ref[0]]
        self.start_level(pack.levels[ref[1]], ref)

    def action_back(self) -> None:
        """Back to the level list (the game in progress stays saved)."""
        self._cancel_tip()
        if hasattr(self.app, "game_in_progress"):
            self.app.game_in_progress = False  # type: ignore[attr-defined]
        self.dismiss(self.ref)

    def action_focus_tree(self) -> None:
        """Move the focus to the term tree."""
        self.query_one(TermTree).focus()

    # -- saving ------------------------------------------------------------------------------------

    def _save_progress(self) -> None:
        """Save the level and its moves so the game can be resumed (not once won)."""
        store = getattr(self.app, "store", None)
        if store is None:
            return
        if status(self.state) == "won":
            store.delete_game(GAME_ID, SAVE_SLOT)
            return
        store.save_game(GAME_ID, SAVE_SLOT, {
            "version": 1,
            "ref": list(self.ref) if self.ref is not None else None,
            "level": level_to_json(self.level),
            "moves": self.moves,
        })


# -- starting the game -----------------------------------------------------------------------------


def pack_infos(packs: list[tuple[str, LevelPack]]) -> list[Any]:
    """Describe the packs for the level select (level ids are the titles, unique per pack)."""
    from tui.screens.level_select import PackInfo

    return [
        PackInfo(pack_id, pack.title, [(level.title, level.title) for level in pack.levels])
        for pack_id, pack in packs
    ]


def load_saved(store: Any) -> tuple[Level, LevelRef | None, list[dict[str, Any]]] | None:
    """Read the game in progress from the store, or None (damaged saves are dropped).

    Args:
        store: The app's store.

    Returns:
        ``(level, ref, moves)`` or None.
    """
    data = store.load_game(GAME_ID, SAVE_SLOT)
    if not isinstance(data, dict):
        return None
    try:
        level = level_from_json(data["level"])
        ref = data.get("ref")
        ref = (str(ref[0]), int(ref[1])) if ref else None
        moves = list(data.get("moves") or [])
    except (ParseError, KeyError, TypeError, ValueError, IndexError):
        store.delete_game(GAME_ID, SAVE_SLOT)
        return None
    return level, ref, moves


def start(app: Any) -> None:
    """Start TermCraft: level select, then the game; resume a game in progress if any.

    Args:
        app: The running :class:`tui.app.ArcadeApp` (uses ``app.store``).
    """
    from grammar.levels import bundled_packs
    from tui.screens.level_select import LevelSelectScreen

    packs = bundled_packs(GAME_ID)
    infos = pack_infos(packs)

    def show_levels(select: LevelRef | None = None) -> None:
        app.push_screen(LevelSelectScreen(GAME_ID, infos, select=select), chosen)

    def chosen(ref: LevelRef | None) -> None:
        if ref is None:
            return
        pack = dict(packs).get(ref[0])
        if pack is None or not 0 <= ref[1] < len(pack.levels):
            return
        play(pack.levels[ref[1]], ref)

    def play(level: Level, ref: LevelRef | None,
             moves: list[dict[str, Any]] | None = None) -> None:
        app.push_screen(TermCraftScreen(level, ref, packs, moves), show_levels)

    saved = load_saved(app.store) if getattr(app, "store", None) is not None else None
    if saved is None:
        show_levels()
        return
    level, ref, moves = saved
    # The level select sits below the game, so "back" from the resumed game lands there.
    app.push_screen(LevelSelectScreen(GAME_ID, infos, select=ref), chosen)
    app.push_screen(TermCraftScreen(level, ref, packs, moves), lambda _ref: None)
    app.notify(f"Resumed your game of “{level.title}” ({len(moves)} moves).", timeout=4)
