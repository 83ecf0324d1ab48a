"""Solver and hints for small levels: fewest time steps to a win.

The search is breadth-first over *steps* (:func:`core.search.bfs`; level by level it finds
what iterative deepening over the step count finds, a shortest plan, and its visited set does
the de-duplication). One step is expanded into every distinct outcome:

* **Constructs by vertex set.** A virtual edge matters only through V(e) (incidence, walks)
  and through its identity when it is named again. So per vertex set S (one ∇ and one to four
  Δ of F*) the solver tries one *fresh* tuple realising S (the smallest not in E_Ω and not
  present) and, if a virtual edge with V(e) = S is present, naming that one again. Parallel
  virtual edges with equal V(e) are interchangeable, so this loses nothing.
* **Elimination.** Every distinct edge set E(P*) of a legal path, each with a witness walk
  (:func:`core.carving.paths.removal_sets`, bounded by ``max_walk_states`` per elimination).
* **Succession.** Every candidate base point.

States are identified up to the level's symmetries (:mod:`.symmetry`: type-preserving
variable renamings that keep F*), with virtual edges compared by vertex sets. A plan is a
sequence of :mod:`.game` moves ready to replay.

Statuses: ``"solved"`` (shortest plan), ``"unsolvable"`` (the whole state space was explored
and no elimination enumeration was cut short), ``"unknown"`` (a bound was hit, the search was
cancelled, or an enumeration was cut short). The state space is finite but grows very fast;
this is a tool for small levels (a handful of variables, few steps).

Bounds (issue 28): a **work budget** counted in state images (every successor an expansion
yields, duplicates included, once per renaming its key tries: what the search's time
follows; a level without symmetries pays one a state, one with 120 renamings 120), a bound on
the states kept, a deadline and a cancel test, all carried by one :class:`core.search.Watch`
that is polled for every vertex set and every successor. An unknown result's ``reason`` names
the bound that stopped it (:data:`REASONS`). The budget gives the same answer on a busy
machine as on an idle one; the deadline does not, so tests use the budget.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from core.search import Interrupted, KeyVisited, Watch, bfs

from .formula import Operator
from .game import Construct, Extend, Finish, Move, Succeed
from .level import Level
from .paths import LAST_V, forward_levels, graph_of, removal_sets, walk_position
from .state import (
    State,
    choose_base,
    completion_table,
    construct,
    end_elimination,
    finish,
    initial_state,
    path_graph,
    succession_candidates,
)
from .symmetry import DEFAULT_CAP, Symmetry, canonical_key, symmetries
from .world import World

__all__ = [
    "DEFAULT_BUDGET",
    "REASONS",
    "SolveResult",
    "hint",
    "realisations",
    "solve",
    "vertex_sets",
]

DEFAULT_MAX_STATES = 20_000
"""Default bound on the states the solver keeps."""
DEFAULT_TIME_LIMIT = 10.0
"""Default bound on the solver's running time, in seconds."""
DEFAULT_WALK_STATES = 5_000
"""Default bound on the product states of one removal-set enumeration."""
DEFAULT_BUDGET = 2_000_000
"""Default work budget in state images. The bundled levels need at most 391,374 (``Long
Division``, measured: 2.5 s of CPU); an image costs 6 to 75 µs, so the budget ends a search
within some 15 to 150 s of CPU on any machine, while the default time limit still ends it first
on an idle one (today's answers). Memory is bounded by ``max_states``, not by the budget."""

REASONS = {
    "limit": "time limit",
    "budget": "work budget",
    "states": "state limit",
    "cancelled": "cancelled",
    "truncated": "truncated",
}
"""Why a result is unknown, by the search's word for the bound: the words results carry."""


@dataclass(frozen=True)
class SolveResult:
    """What the solver found.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"``.
        plan: The moves of a shortest plan (empty unless solved).
        steps: The number of time steps the plan completes (its length in par units).
        explored: States expanded.
        reason: When unknown, the bound that stopped the search: ``"time limit"``, ``"work
            budget"``, ``"state limit"`` (``max_states``), ``"cancelled"`` or
            ``"truncated"`` (a removal-set enumeration was cut at ``max_walk_states``);
            else ``""``.
        elapsed: Seconds spent.
        generated: Work spent in state images: states generated, duplicates included, times
            the renamings tried (what the budget counts).
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    plan: tuple[Move, ...]
    """A shortest plan, as game moves."""
    steps: int
    """Time steps the plan completes."""
    explored: int
    """States expanded."""
    reason: str = ""
    """Why unknown."""
    elapsed: float = 0.0
    """Seconds spent."""
    generated: int = 0
    """Work spent, in state images (the budget's unit)."""


def vertex_sets(world: World) -> Iterator[tuple[int, ...]]:
    """Every vertex set a constructed edge can have (:meth:`World.edge_vertex_sets`: one ∇
    and one to four Δ of F*, and under ``new_edges well_typed`` the sets that entries outside
    F* leave).

    Args:
        world: The world.

    Yields:
        Sorted vertex-id tuples (lazily: the count grows as |F*_∇|·|F*_Δ|^4).
    """
    return world.edge_vertex_sets()


def realisations(world: World, vset: tuple[int, ...]) -> Iterator[Operator]:
    """The operators whose entries in F* cover exactly ``vset`` (:meth:`World.realisations`).

    Args:
        world: The world.
        vset: A set from :func:`vertex_sets`.

    Yields:
        Operators in a fixed order.
    """
    return world.realisations(vset)


class _Search:
    """Successor generation for one solve call (options, symmetries, bounds).

    Actions are kept compact while searching — ``(e_new or None, walk steps or None, base or
    None)`` — and turned into game moves only for the plan found.

    Args:
        world: The world.
        use_symmetry: Identify states up to variable renamings.
        walk_states: Bound on each removal-set enumeration.
        watch: Deadline, work budget and cancel test: polled for every vertex set and
            charged one unit per successor and renaming (raising
            :class:`~core.search.Interrupted`).
    """

    def __init__(self, world: World, use_symmetry: bool, walk_states: int, watch: Watch):
        self.world = world
        self.watch = watch
        self.syms: tuple[Symmetry, ...] = symmetries(
            world, cap=DEFAULT_CAP if use_symmetry else 1, watch=watch
        )
        self.walk_states = walk_states
        self.truncated = False

    def key(self, state: State) -> tuple:
        return canonical_key(
            self.world, self.syms, state.tree, state.virtual, state.base, state.phase
        )

    def successors(self, state: State) -> Iterator[tuple[tuple, State]]:
        """Every outcome of one step from ``state``, each charged to the work budget."""
        spend, cost = self.watch.spend, len(self.syms)
        for found in self._outcomes(state):
            # Keying a state costs one image per renaming: what the CPU time follows (a
            # level with 120 renamings keys 120 times slower than one without).
            spend(cost)  # raises Interrupted("budget"): bfs turns it into its status
            yield found

    def _outcomes(self, state: State) -> Iterator[tuple[tuple, State]]:
        if state.phase == "construct":
            yield from self._constructs(state)
        elif state.phase == "path":
            yield from self._eliminations(state, None)
        elif state.phase == "succession":
            yield from self._settle(state, None, None)

    def _constructs(self, state: State) -> Iterator[tuple[tuple, State]]:
        world = self.world
        graph = graph_of(world, state.tree, state.virtual)
        levels = forward_levels(graph, world.vid[state.base], world.level.density)
        present: dict[tuple[int, ...], Operator] = {}
        for op in sorted(state.virtual):
            present.setdefault(tuple(sorted(world.verts_of(op))), op)
        for done, vset in enumerate(vertex_sets(world)):
            # Many vertex sets yield nothing new: poll here too, not only per successor.
            self.watch.poll("search", done)
            fresh = next(
                (
                    op
                    for op in realisations(world, vset)
                    if op not in world.eid and op not in state.virtual
                ),
                None,
            )
            for found in (fresh, present.get(vset)):
                if found is None:
                    continue
                op = found
                # A path crosses e_new between two of its vertices (an edge with fewer,
                # new_edges well_typed, is never eliminated).
                if len(vset) > 1 and any(levels[v] <= LAST_V for v in vset):  # type: ignore[index]
                    started = State(
                        world, state.tree, state.virtual, state.base, "path", op, (), state.steps
                    )
                    yield from self._eliminations(started, op)
                else:
                    after = end_elimination(state, state.tree, state.virtual | {op})
                    yield from self._settle(after, op, None)

    def _eliminations(self, state: State, op: Operator | None) -> Iterator[tuple[tuple, State]]:
        world = self.world
        graph = path_graph(state)
        vid = world.vid
        new = graph.index(state.pending)  # type: ignore[arg-type]
        walked = [(graph.index(e), vid[w]) for e, w in state.path]
        pos = walk_position(graph, vid[state.base], walked, new, world.level.density)  # type: ignore[arg-type]
        mask = 0
        for e, _ in walked:
            mask |= 1 << e  # type: ignore[operator]
        good = completion_table(world, state.tree, state.virtual, state.pending)
        sets, complete = removal_sets(
            graph,
            pos,
            new,  # type: ignore[arg-type]
            good,
            world.level.density,
            self.walk_states,
            mask,
        )
        self.truncated |= not complete
        assert state.pending is not None  # a path phase always has its new edge
        edge_set = state.virtual | {state.pending}
        for removed_mask, steps in sets.items():
            removed = {graph.edges[e] for e in range(len(graph.edges)) if removed_mask >> e & 1}
            after = end_elimination(state, state.tree - removed, edge_set - removed)
            yield from self._settle(after, op, tuple(steps))

    def _settle(
        self, state: State, op: Operator | None, steps: tuple | None
    ) -> Iterator[tuple[tuple, State]]:
        if state.phase != "succession":
            yield (op, steps, None), state
            return
        for v in succession_candidates(state):
            yield (op, steps, v), choose_base(state, v)

    def moves(self, start: State, plan: tuple) -> tuple[Move, ...]:
        """Turn the compact actions of a plan into game moves (walks by edge/vertex ids)."""
        out: list[Move] = []
        state = start
        for op, steps, base in plan:
            if op is not None:
                out.append(Construct(op))
                state = construct(state, op)
            if steps is not None:
                graph = path_graph(state)
                for e, w in steps:
                    out.append(Extend(graph.edges[e], self.world.vertices[w]))
                out.append(Finish())
                state = finish(
                    State(
                        state.world,
                        state.tree,
                        state.virtual,
                        state.base,
                        "path",
                        state.pending,
                        state.path
                        + tuple((graph.edges[e], self.world.vertices[w]) for e, w in steps),
                        state.steps,
                    )
                )
            if base is not None:
                out.append(Succeed(base))
                state = choose_base(state, base)
        return tuple(out)


def solve(
    start: Level | State,
    *,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    symmetry: bool = True,
    max_walk_states: int = DEFAULT_WALK_STATES,
    budget: int | None = DEFAULT_BUDGET,
    deadline: float | None = None,
) -> SolveResult:
    """Find a plan with the fewest time steps from a level's start or from any state.

    Args:
        start: A level (solved from its initial state) or a state (any phase).
        max_states: Bound on the states kept.
        time_limit: Bound on the seconds spent (None: none).
        should_stop: Polled regularly; True cancels.
        progress: Called as ``progress(explored, frontier)``.
        symmetry: Identify states up to the level's variable renamings.
        max_walk_states: Bound on each removal-set enumeration.
        budget: Work budget in state images: states generated, duplicates included, times
            the renamings keying them (None: none). The bound whose answer does not depend
            on the machine's load.
        deadline: An absolute :func:`time.monotonic` deadline (e.g. when the command
            began plus its limit); used instead of ``time_limit`` when given.

    Returns:
        The :class:`SolveResult`; an unknown one names the bound hit in ``reason``.
    """
    t0 = time.monotonic()
    if deadline is None and time_limit is not None:
        deadline = t0 + time_limit
    watch = Watch(should_stop=should_stop, deadline=deadline, budget=budget)
    try:
        watch.poll("search")  # a command's loading may have spent its whole limit already
        state = initial_state(start) if isinstance(start, Level) else start
        if state.phase in ("won", "lost"):
            status = "solved" if state.phase == "won" else "unsolvable"
            return SolveResult(status, (), 0, 0, "", time.monotonic() - t0)
        search = _Search(state.world, symmetry, max_walk_states, watch)  # polls per renaming
    except Interrupted as stop:
        return SolveResult("unknown", (), 0, 0, REASONS[stop.reason], time.monotonic() - t0)
    result = bfs(
        state,
        search.successors,
        lambda s: s.phase == "won",
        visited=KeyVisited(search.key),
        max_states=max_states,
        progress=progress,
        check_every=1,
        watch=watch,
    )
    elapsed = time.monotonic() - t0

    def unknown(reason: str) -> SolveResult:
        return SolveResult("unknown", (), 0, result.explored, reason, elapsed, watch.spent)

    if result.status == "solved":
        plan = search.moves(state, result.plan)
        assert result.goal is not None  # a solved search has its goal state
        steps = result.goal.steps - state.steps
        return SolveResult("solved", plan, steps, result.explored, "", elapsed, watch.spent)
    if result.status == "exhausted":
        # Explored everything, but an elimination enumeration cut at max_walk_states may
        # have hidden a way: unknown, "truncated".
        if search.truncated:
            return unknown(REASONS["truncated"])
        return SolveResult("unsolvable", (), 0, result.explored, "", elapsed, watch.spent)
    if result.status == "limit" and result.generated >= max_states:
        return unknown(REASONS["states"])  # bfs says "limit" for max_states too
    return unknown(REASONS[result.status])


def hint(state: State, **limits: object) -> Move | None:
    """The next move of a shortest plan from ``state``, or None when none was found.

    Args:
        state: Any state.
        **limits: Passed to :func:`solve`.

    Returns:
        A move, or None.
    """
    result = solve(state, **limits)  # type: ignore[arg-type]
    return result.plan[0] if result.status == "solved" and result.plan else None
