"""The Triangle Carving game screen, on the puzzle screen base.

Every step of the game has up to three phases (seed 001 §IV), and the screen follows them:

1. **construct**: ``c`` (or enter on the one entry of the move list) opens the edge builder
   (:class:`tui.games.carving.edge_modal.EdgeBuilder`), which only puts together operators of U
   over F* and shows as you go whether the engine accepts the edge and whether it would force
   an elimination;
2. **path** (when a legal elimination path exists): the move list offers exactly the steps
   after which a legal path can still be completed, and ``finish`` once the path is legal
   (``f``); the graph marks the walk so far (``✂``), the new edge (``★``), the current vertex
   (``◎``) and the edges the offered steps go through (``›``);
3. **succession** (when the base point lost every generating intrinsic edge): the move list
   offers the vertices that may become the base point.

The board: a status line (phase, steps against par, the base point), the current hypergraph
by connected components on the left (:class:`~tui.games.carving.view.GraphView`), the
target H* as an incidence table on the right, the move list below. It holds no rule: moves go
through the base's :meth:`~tui.screens.puzzle.PuzzleScreen.play`, lists come from the engine.
Undo/redo, restart, saves, the outcome dialogs and the hint worker are the base's.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import OptionList, Static

from core.carving import GAME, Operator, State
from core.carving.draft import construct_verdict
from core.carving.game import Construct, Extend, Finish, Succeed
from core.session import Session
from core.text import escape_controls, plural
from tui.games.carving.actions import BuildEntry, CarvingActions
from tui.games.carving.view import (
    CarvingTargetView,
    GraphView,
    _compact,
    edge_label,
    vertex_label,
)
from tui.modals.outcome import par_verdict
from tui.screens.puzzle import Hint, PuzzleScreen

__all__ = ["CarvingScreen"]


PHASE_WORDS = {
    "construct": "1 construct",
    "path": "2 eliminate",
    "succession": "3 succession",
    "won": "won",
    "lost": "lost",
}
"""How the status line names each phase (the step's three phases are numbered)."""


class CarvingStatus(Static):
    """One line: the phase, steps against par, the base point, the new edge."""

    DEFAULT_CSS = """
    CarvingStatus { height: auto; max-height: 2; padding: 0 1; background: $boost; }
    """


class CarvingScreen(PuzzleScreen):
    """Play one Triangle Carving level (see the module docstring)."""

    NUMBERED_MOVES: ClassVar[bool] = True
    HINT_TIME_LIMIT: ClassVar[float] = 5.0
    CSS_PATH = "styles.tcss"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "build", "Build", id="carving.build"),
        Binding("f", "finish", "Finish", id="carving.finish"),
        Binding("g", "focus_graph", "Graph", show=False, id="carving.graph"),
        Binding("m", "focus_moves", "Moves", show=False, id="carving.moves"),
        # The editor is shown (issue 30: the footer always shows the keys that matter); the
        # level's facts (i) are in the help and the palette, to keep the footer in 80 columns.
        Binding("i", "level_info", "Level", show=False, id="carving.info"),
        Binding("E", "edit_level", "Editor", id="carving.editor"),
    ]

    def __init__(self, session: Session, **kwargs: Any) -> None:
        super().__init__(session, **kwargs)
        self.hinted: Any | None = None
        """The move of the last hint (the edge builder starts from a hinted construct)."""
        self.last_built: Operator | None = None
        """The last edge built (the builder starts from it)."""
        self.tip_stage = 0
        """0: no tip yet in this position; 1: the level's hint was shown."""

    # -- layout ------------------------------------------------------------------------------

    def compose_board(self) -> ComposeResult:
        yield CarvingStatus(id="cv-status")
        with Horizontal(id="cv-main"):
            graph = GraphView(id="cv-graph")
            graph.border_title = "Hypergraph (F*, E)"
            yield graph
            with VerticalScroll(id="cv-target-box") as box:
                box.border_title = "Target H*"
                yield CarvingTargetView(id="cv-target")
        moves = CarvingActions(id="cv-moves")
        moves.border_title = "Moves"
        yield moves

    def after_mount(self) -> None:
        self.query_one(CarvingActions).focus()

    # -- rendering ---------------------------------------------------------------------------

    @property
    def compact(self) -> bool:
        """Vertex labels without commas (every variable name is one character)."""
        return _compact(self.level if self.level is not None else self.state.level)

    def render_state(self, session: Session) -> None:
        state: State = session.state
        highlight = [self.hinted.edge] if isinstance(self.hinted, (Construct, Extend)) else []
        self.query_one(GraphView).show(state, highlight)
        self.query_one(CarvingTargetView).show(state.level.target)
        moves = self.query_one(CarvingActions)
        keep = self.hinted if self.hinted is not None else moves.current_entry
        moves.show_moves(
            state,
            GAME.moves(state) if state.phase in ("path", "succession") else (),
            self.compact,
            keep=keep,
        )
        moves.set_class(state.phase in ("path", "succession"), "-listing")
        moves.border_title = {
            "construct": "Moves: build an edge (c)",
            "path": "Moves: the elimination path (f finishes)",
            "succession": "Moves: choose the new base point",
        }.get(state.phase, "Moves")
        self.query_one(CarvingStatus).update(self.status_text(state))
        self.refresh_bindings()  # c and f are shown in their own phase only

    _PHASE_OF_ACTION: ClassVar[dict[str, str]] = {"build": "construct", "finish": "path"}
    """Keys that act in one phase only: the 80-column footer shows them in that phase."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        phase = self._PHASE_OF_ACTION.get(action)
        if phase is not None and self.session is not None:
            return self.state.phase == phase and not self.session.finished
        return super().check_action(action, parameters)

    def status_text(self, state: State) -> Text:
        """The status line: phase, steps (par), base point, the new edge and the walk."""
        text = Text(no_wrap=False, overflow="fold")
        text.append("Phase ")
        text.append(PHASE_WORDS.get(state.phase, state.phase), "bold")
        par = state.level.par
        text.append("   Step ")
        text.append(str(state.steps), "bold")
        text.append(f" (par {par})" if par is not None else "")
        text.append("   Base ")
        text.append("◉" + vertex_label(state.base, self.compact), "bold")
        if state.phase == "path" and state.pending is not None:
            text.append("   New ")
            text.append("★" + edge_label(state.pending, self.compact), "bold")
        return text

    MOVE_WORD = "action"
    """The header counts actions (every construct, path step and choice: what u undoes) ..."""
    RESULT_WORD = "step"
    """... while par, the status line and a win's result count steps (seed 001)."""

    @property
    def par(self) -> int | None:
        """None: the base header counts actions (every construct, path step and choice), while
        par counts steps, which the status line shows against it."""
        return None

    def on_level_changed(self) -> None:
        self.hinted = None
        self.last_built = None
        self.tip_stage = 0

    def watch_session(self, old: Session | None, new: Session | None) -> None:
        # A hint is about the position it was asked in.
        if old is not None and new is not None and old.state is not new.state:
            self.hinted = None
            self.tip_stage = 0
        super().watch_session(old, new)

    def loss_reason(self) -> str | None:
        if self.state.phase == "lost":
            return "No edge can be constructed: every operator over F* is already intrinsic."
        return None

    def outcome_detail(self, kind: str) -> str:
        if kind == "lost":
            return super().outcome_detail(kind)
        return "A component is isomorphic to the target: " + par_verdict(
            self.state.steps, self.state.level.par, self.RESULT_WORD
        )

    def record_win(self, session: Session) -> None:
        # The level list compares the best result with par, and par counts steps, not the
        # moves (constructs, path steps, choices) the base would record.
        # A game the computer played is not the player's solve (see PuzzleScreen.record_win).
        if self.ref is not None and not self.autoplayed:
            self.arcade.store.mark_solved(
                self.info.id, self.ref.source, self.ref.key, session.state.steps
            )

    # -- moves -------------------------------------------------------------------------------

    def numbered_moves(self) -> Sequence[Any]:
        """The path phase's and succession phase's moves, numbered as the engine lists them."""
        state = self.state
        return GAME.moves(state) if state.phase in ("path", "succession") else ()

    @on(OptionList.OptionSelected, "#cv-moves")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entry = self.query_one(CarvingActions).current_entry
        if isinstance(entry, BuildEntry):
            self.action_build()
        elif entry is not None:
            self.play_move(entry)

    def play_move(self, move: Any) -> bool:
        """Play ``move`` and say what happened (phase changes are the interesting part)."""
        before: State = self.state
        if not self.play(move):
            return False
        after: State = self.state
        self.say(self.describe_outcome(before, move, after))
        return True

    def describe_outcome(self, before: State, move: Any, after: State) -> str:
        """A sentence about what ``move`` did (shown on the message line)."""
        if after.phase == "won":
            return "≅ A component matches the target: won!"
        if isinstance(move, Construct):
            if after.phase == "path":
                return "Walk from ◉ through ★: only steps that can still finish are offered."
            if after.phase == "succession":
                return (
                    "The new edge stays as a virtual edge (no legal path reaches it). The "
                    "base point lost its generating edges: choose a new one."
                )
            return "No legal elimination path reaches it: the new edge stays as a virtual edge (V)."
        if isinstance(move, Extend):
            return (
                "The path can be finished (f), or go on."
                if after.path and self._can_finish(after)
                else f"Path: {plural(len(after.path), 'step')}; keep going towards the new edge ★."
            )
        if isinstance(move, Finish):
            removed = len({e for e, _ in before.path})
            tail = (
                " The base point lost its generating edges: choose the new one."
                if after.phase == "succession"
                else ""
            )
            return f"Removed {plural(removed, 'edge')}.{tail}"
        if isinstance(move, Succeed):
            return f"The base point is now {vertex_label(move.vertex, self.compact)}."
        return GAME.describe_move(before, move)

    @staticmethod
    def _can_finish(state: State) -> bool:
        from core.carving import can_finish

        return can_finish(state)

    def pick(self, move: Any, number: int) -> None:
        """Digits highlight the numbered move, then play it."""
        moves = self.query_one(CarvingActions)
        if move in moves.entries:
            moves.highlighted = moves.entries.index(move)
        if self.play_move(move):
            self.last_message = f"Move {number}: " + self.last_message
            self.say(self.last_message)

    def action_finish(self) -> None:
        """Finish the elimination path (when it is legal)."""
        state: State = self.state
        if state.phase != "path":
            self.app.bell()
            self.say("There is no elimination path to finish now.", "warning")
            return
        self.play_move(Finish())

    def action_build(self) -> None:
        """Open the edge builder (construct phase)."""
        state: State = self.state
        if self.session.finished:
            self.app.bell()
            self.say("The game is over: u undoes, R restarts, esc goes back.", "warning")
            return
        if state.phase != "construct":
            self.app.bell()
            self.say(
                f"An edge is built in phase 1; finish the {PHASE_WORDS[state.phase][2:]} "
                "phase first.",
                "warning",
            )
            return
        from tui.games.carving.edge_modal import EdgeBuilder

        world = state.world
        start = self._builder_start()

        def check(op: Operator | None) -> tuple[bool, str]:
            return construct_verdict(state, op)

        def done(op: Operator | None) -> None:
            if op is not None and self.state is state:
                self.last_built = op
                self.play_move(Construct(op))

        deltas = [world.vertices[i] for i in world.deltas]
        nablas = [world.vertices[i] for i in world.nablas]
        self.app.push_screen(EdgeBuilder(deltas, nablas, check, start, self.compact), done)

    def _builder_start(self) -> Operator | None:
        """The edge the builder opens on: a hinted construct's, else the last one built."""
        return self.hinted.edge if isinstance(self.hinted, Construct) else self.last_built

    # -- the keys of a move ------------------------------------------------------------------

    def keys_for(self, move: Any) -> Sequence[str]:
        """The keys of each phase: ``c`` and the edge builder's keys for a construct, ``f``
        to finish the path, and a path step's or a base point's number in the move list.

        Args:
            move: A legal move of the current state.

        Returns:
            The keys, in order.
        """
        if isinstance(move, Construct):
            return self._builder_keys(move.edge)
        if isinstance(move, Finish):
            return (self.binding_key("carving.finish"),)
        return super().keys_for(move)

    def _builder_keys(self, edge: Operator) -> list[str]:
        """``c``, then the edge builder's keys that turn its first edge into ``edge``, then
        ``enter``.

        The builder opens with the focus on its kind row and the edge of
        :meth:`_builder_start` (else θ with each slot's first formula); ``right`` and
        ``left`` turn the focused row to its next or previous choice, round the list (on the
        kind row: θ and ω swap the ∇ and the base Δ), ``down`` focuses the next row. This follows
        :class:`~tui.games.carving.edge_modal.EdgeBuilder`'s model; the generic screen test
        drives the real dialog with these keys, so the two cannot drift apart unnoticed.
        """
        from core.carving.formula import THETA
        from tui.games.carving.edge_modal import EdgeBuilder, SlotRow

        world = self.state.world
        deltas = [world.vertices[i] for i in world.deltas]
        nablas = [world.vertices[i] for i in world.nablas]

        def choices(kind: str, index: int) -> list[Any]:
            return nablas if index == (0 if kind == THETA else 4) else deltas

        start = self._builder_start()
        if start is not None and start.kind is not None:
            kind, entries = start.kind, list(start)
        else:
            kind = THETA
            entries = [(choices(kind, i) or [None])[0] for i in range(5)]
        turn = self.binding_key("carving_edge.next", SlotRow)
        keys = [self.binding_key("carving.build")]
        if edge.kind != kind:  # the kind row has the focus
            keys.append(turn)
            first, *middle, last = entries
            kind, entries = str(edge.kind), [last, *middle, first]
        downs = 0
        for index, wanted in enumerate(edge):
            downs += 1  # the row of slot ``index`` is one further down
            if entries[index] == wanted:
                continue
            options = choices(kind, index)
            keys += [self.binding_key("carving_edge.down", SlotRow)] * downs
            downs = 0
            if entries[index] not in options:  # the first turn shows the first choice
                keys.append(turn)
                entries[index] = options[0]
            ahead = (options.index(wanted) - options.index(entries[index])) % len(options)
            if ahead <= len(options) - ahead:
                keys += [turn] * ahead
            else:  # shorter the other way round
                back = self.binding_key("carving_edge.previous", SlotRow)
                keys += [back] * (len(options) - ahead)
        keys.append(self.binding_key("carving_edge.build", EdgeBuilder))
        return keys

    def action_focus_graph(self) -> None:
        """Move the focus to the hypergraph (arrows then scroll it)."""
        self.query_one(GraphView).focus()

    def action_focus_moves(self) -> None:
        """Move the focus to the move list."""
        self.query_one(CarvingActions).focus()

    def action_level_info(self) -> None:
        """The level's language, closure and target, in a dialog."""
        from tui.modals.text_view import TextModal

        # The title is the level author's text: it goes in the body (a Text), not in the
        # dialog's heading, which is read as markup.
        body = Text("Level: ", "bold")
        body.append(self.level_title or "untitled")
        body.append("\n\n")
        body.append_text(level_info(self.state))
        self.app.push_screen(TextModal("Level", body))

    # -- tip ---------------------------------------------------------------------------------

    def action_tip(self) -> None:
        """First ``t``: the level's hint. Then: the solver's next move (in the hint worker)."""
        level = self.state.level
        if self.tip_stage == 0 and level.hint and not self.session.finished:
            self.tip_stage = 1
            self.say(f"Hint: {level.hint}  (t again: the next move)")
            return
        super().action_tip()

    def compute_hint(self, state: State, should_stop: Any, time_limit: float) -> Hint:
        from core.carving import solve

        result = solve(state, time_limit=time_limit, should_stop=should_stop)
        if result.status == "unsolvable":
            return Hint("From here the level cannot be won: undo (u) or restart (R).")
        if result.status != "solved" or not result.plan:
            return Hint("The solver found no way within its limits.")
        move = result.plan[0]
        steps = plural(result.steps, "more step")
        if isinstance(move, Construct):
            return Hint(f"Next ({steps}): build {move.edge} — c opens the builder with it.", move)
        return Hint(f"Next ({steps}): {GAME.describe_move(state, move)}.", move)

    def highlight_move(self, move: Any) -> None:
        self.hinted = move
        moves = self.query_one(CarvingActions)
        if move in moves.entries:
            moves.highlighted = moves.entries.index(move)
            moves.focus()
        edges = [move.edge] if isinstance(move, (Construct, Extend)) else []  # moves with an edge
        self.query_one(GraphView).show(self.state, edges)


def level_info(state: State) -> Text:
    """The level's language and closure as text (the ``i`` dialog)."""
    level = state.level
    world = state.world
    compact = _compact(level)
    out = Text()
    if level.description:
        # The level author's text: its control characters are shown, never sent raw.
        out.append(escape_controls(level.description, keep_newlines=True) + "\n\n")
    out.append("Types ", "bold")
    out.append(", ".join(level.types) + "\n")
    out.append("Variables ", "bold")
    out.append(", ".join(f"{v}: {t}" for v, t in level.variables) + "\n")
    out.append("R_Δ ", "bold")
    out.append(", ".join(f"({', '.join(t)})" for t in level.r_delta) or "none")
    out.append("\nR_∇ ", "bold")
    out.append(", ".join(f"({', '.join(t)})" for t in level.r_nabla) or "none")
    out.append("\nAxioms ", "bold")
    out.append(
        ", ".join(str(f) for f in level.axioms) or "none (the closure is the diagonal formulas)"
    )
    out.append("\nDensity ", "bold")
    out.append(level.density)
    out.append(f"\n\nF*: {len(world.vertices)} formulas\n", "bold")
    out.append("  " + "  ".join(f"{vertex_label(f, compact)} {f}" for f in world.vertices) + "\n")
    dropped = sorted(world.closure.dropped_rotations | world.closure.dropped_conclusions)
    if dropped:
        out.append("Not well-typed, so not in F*: ", "bold")
        out.append(", ".join(map(str, dropped)) + "\n")
    out.append(f"E_Ω: {len(world.intrinsic)} intrinsic edges\n", "bold")
    for op in world.intrinsic:
        out.append(f"  {edge_label(op, compact)}   {op}\n")
    out.rstrip()
    return out
