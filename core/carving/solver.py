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

**Proving par** (issue 29). :mod:`.bound` gives an admissible lower bound on the steps left;
by default the search deepens on it (passes for plans of at most d steps, d from the start's
bound up, dropping every state whose steps plus bound exceed d), and with a known plan (the
generator's play-out) it only looks for a shorter one. A cut step never lowers the bound and
an add step lowers it by one at most, so whole families of outcomes are skipped before they
are enumerated (:meth:`_Search._hopeless`), and a child's bound is computed from its parent's.
Outcomes of one expansion that are equal states are built and keyed once.

Statuses: ``"solved"`` (a plan that replays; :attr:`SolveResult.proved` when it is shortest),
``"unsolvable"`` (the whole state space was explored and no elimination enumeration was cut
short), ``"unknown"`` (a bound was hit, the search was cancelled, or an enumeration was cut
short). :attr:`SolveResult.verdict` says it in words. The state space is finite but grows
very fast; this is a tool for small levels (a handful of variables, few steps).

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from core.search import Interrupted, KeyVisited, Watch, bfs

from .bound import Bounds
from .formula import Operator
from .game import GAME, Construct, Extend, Finish, Move, Succeed
from .level import Level
from .paths import LAST_V, Graph, forward_levels, graph_of, removal_sets, walk_position
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
        proved: For ``"solved"``: no shorter plan exists (every shorter one was ruled out:
            no removal-set enumeration was cut short before the plan was found). False for
            a plan that wins but may not be shortest (``reason`` says why). Always True for
            ``"unsolvable"``, False for ``"unknown"``.
        pruned: States dropped by the lower bound against a known plan.
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
    proved: bool = False
    """Whether the plan is proved shortest (solved) or the proof is complete (unsolvable)."""
    pruned: int = 0
    """States the lower bound dropped."""

    @property
    def verdict(self) -> str:
        """The answer in words: ``solved in N steps (shortest)``, ``solved in N steps (not
        proved shortest: REASON)``, ``proved unsolvable`` or ``unknown (REASON)``."""
        if self.status == "solved":
            steps = f"{self.steps} step{'' if self.steps == 1 else 's'}"
            if self.proved:
                return f"solved in {steps} (shortest)"
            return f"solved in {steps} (not proved shortest: {self.reason})"
        if self.status == "unsolvable":
            return "proved unsolvable"
        return f"unknown ({self.reason})"


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
        tighten: Prune walk enumerations by the lower bound (:meth:`_cut_filter`) and
            build their step lists once (False: as before, the benchmark's baseline).
    """

    def __init__(
        self,
        world: World,
        use_symmetry: bool,
        walk_states: int,
        watch: Watch,
        tighten: bool = True,
    ):
        self.world = world
        self.watch = watch
        self.tighten = tighten
        self.syms: tuple[Symmetry, ...] = symmetries(
            world, cap=DEFAULT_CAP if use_symmetry else 1, watch=watch
        )
        self.walk_states = walk_states
        self.truncated = False
        self.bound: tuple[int, int] | None = None
        """(steps of the start, limit): only plans of fewer than ``limit`` steps are sought."""
        self.pruned = 0
        self.bounds = Bounds(watch)
        # Per expansion: the end of step (win test included) of each distinct E''. Many
        # vertex sets and walks remove the same edges; the win test is the costly part.
        self._ends: dict[tuple[frozenset, frozenset], State] = {}

    def key(self, state: State) -> tuple:
        return canonical_key(
            self.world, self.syms, state.tree, state.virtual, state.base, state.phase
        )

    def successors(self, state: State) -> Iterator[tuple[tuple, State]]:
        """Every distinct outcome of one step from ``state``, each charged to the work budget.

        Outcomes equal to one already given by this expansion are dropped (one unit each):
        the visited set would drop them anyway, after keying them. With a bound (a known
        plan of ``limit`` steps), an outcome that cannot lead to a shorter plan — its steps
        so far plus :func:`~core.carving.bound.lower_bound` reach the limit — is dropped as well.
        """
        spend, cost = self.watch.spend, len(self.syms)
        self._ends.clear()
        given: set[tuple] = set()
        for found in self._outcomes(state):
            (op, walk, _), nxt = found
            essentials = (nxt.tree, nxt.virtual, nxt.base, nxt.phase)
            if essentials in given:
                spend(1)
                continue
            given.add(essentials)
            if nxt.phase == "lost":  # a dead end: no plan goes through it
                spend(1)
                continue
            if self.bound is not None:
                first, limit = self.bound
                spend(1)
                # An add (a new edge, no walk) reuses this state's bound computation.
                added = op if op is not None and walk is None else None
                if nxt.steps - first + self.bounds.lower_bound(nxt, state, added) >= limit:
                    self.pruned += 1
                    continue
            # Keying a state costs one image per renaming: what the CPU time follows (a
            # level with 120 renamings keys 120 times slower than one without).
            spend(cost)  # raises Interrupted("budget"): bfs turns it into its status
            yield found

    def _end(self, state: State, tree: frozenset, virtual: frozenset) -> State:
        """:func:`end_elimination`, once per distinct edge set within an expansion."""
        done = self._ends.get((tree, virtual))
        if done is None:
            done = self._ends[(tree, virtual)] = end_elimination(state, tree, virtual)
        return done

    def _outcomes(self, state: State) -> Iterator[tuple[tuple, State]]:
        if state.phase == "construct":
            yield from self._constructs(state)
        elif state.phase == "path":
            yield from self._eliminations(state, None)
        elif state.phase == "succession":
            yield from self._settle(state, None, None)

    def _hopeless(self, state: State) -> tuple[bool, bool]:
        """Whether every add outcome, and every cut outcome, of ``state`` would be pruned.

        A cut step only removes edges, so a cut child misses at least the target edges the
        parent misses; an add step adds one edge, so an add child misses at least one fewer
        (:meth:`~core.carving.bound.Bounds.missing_edges`), and either child's bound is at least
        what it misses. Skipping the cuts skips their removal-set
        enumerations, the costly part of an expansion.
        """
        if self.bound is None or state.phase != "construct":
            return False, False
        first, limit = self.bound
        done, missing = state.steps - first, self.bounds.missing_edges(state)
        # A child may be won (bound 0): no floor of one here.
        return done + 1 + max(missing - 1, 0) >= limit, done + 1 + missing >= limit

    def _constructs(self, state: State) -> Iterator[tuple[tuple, State]]:
        no_adds, no_cuts = self._hopeless(state)
        if no_adds or no_cuts:  # some outcomes are cut away: the pass is not exhaustive
            self.pruned += 1
        if no_adds and no_cuts:
            return
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
                    if no_cuts:
                        continue
                    started = State(
                        world, state.tree, state.virtual, state.base, "path", op, (), state.steps
                    )
                    yield from self._eliminations(started, op)
                elif not no_adds:
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
            self._cut_filter(state, graph, new),  # type: ignore[arg-type]
            self.tighten,
        )
        self.truncated |= not complete
        assert state.pending is not None  # a path phase always has its new edge
        edge_set = state.virtual | {state.pending}
        for removed_mask, steps in sets.items():
            removed = {graph.edges[e] for e in range(len(graph.edges)) if removed_mask >> e & 1}
            after = self._end(state, state.tree - removed, edge_set - removed)
            yield from self._settle(after, op, tuple(steps))

    def _cut_filter(self, state: State, graph: Graph, new: int) -> Callable[[int], bool] | None:
        """The walks worth enumerating for a cut from ``state``, under a bound (None: all).

        A cut child is kept only when its steps plus its lower bound stay under the limit;
        its bound is at least the target edges its edges miss (:meth:`Bounds.missing_edges`),
        and removing more edges never lowers that. So a walk whose edges (the new edge's
        with them: every legal path crosses it) already remove too much cannot lead to a
        kept child, nor can any walk extending it: :func:`removal_sets` drops it at once,
        instead of enumerating its extensions (exponentially many) only for the bound to
        prune them one by one afterwards, or for the enumeration to be cut at its bound
        (then the par is unproved).
        """
        if self.bound is None or not self.tighten:
            return None
        first, limit = self.bound
        target = state.level.target
        # A child misses at most room - 1 target edges: it counts one step more than state.
        room = limit - (state.steps - first) - 1
        need = len(target.edges) - room + 1  # the common edges a kept child must have
        if need <= 0:
            return None
        verts, always = graph.verts, 1 << new
        mcs = self.bounds.common_edges_of
        known: dict[int, bool] = {}

        def keep(mask: int) -> bool:
            mask |= always
            ok = known.get(mask)
            if ok is None:
                rest = tuple(sorted(vs for e, vs in enumerate(verts) if not mask >> e & 1))
                ok = known[mask] = mcs(rest, target) >= need
            if not ok:  # outcomes cut away: a pass that drops some is not exhaustive
                self.pruned += 1
            return ok

        return keep

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
    known: Sequence[Move] | None = None,
    deepen: bool = True,
    tighten: bool = True,
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
            the renamings keying them, and one unit per closure formula (None: none). The
            bound whose answer does not depend on the machine's load.
        deadline: An absolute :func:`time.monotonic` deadline (e.g. when the command
            began plus its limit); used instead of ``time_limit`` when given.
        known: Moves that win from ``start`` (e.g. the generator's play-out): the search
            then only looks for a shorter plan, dropping every state whose steps plus
            :func:`~core.carving.bound.lower_bound` reach the known plan's; when it finds none, the known plan
            is the answer, proved shortest if nothing was cut short.
        deepen: Without ``known``: iterative deepening on :func:`~core.carving.bound.lower_bound` (the
            default); False for one plain breadth-first search (the baseline).
        tighten: Prune walk enumerations by the lower bound, build their step lists once,
            and retry an unproved pass against ``known`` with lower limits (issue 29; the
            default). False: the search as it was before, the benchmark's baseline.

    Returns:
        The :class:`SolveResult`; an unknown one names the bound hit in ``reason``.

    Raises:
        ValueError: When ``known`` does not win from ``start``, or the closure is too large.
    """
    t0 = time.monotonic()
    if deadline is None and time_limit is not None:
        deadline = t0 + time_limit
    watch = Watch(should_stop=should_stop, deadline=deadline, budget=budget)
    try:
        watch.poll("search")  # a command's loading may have spent its whole limit already
        state = initial_state(start, watch) if isinstance(start, Level) else start
        if state.phase in ("won", "lost"):
            status = "solved" if state.phase == "won" else "unsolvable"
            return SolveResult(status, (), 0, 0, "", time.monotonic() - t0, watch.spent, True)
        limit = None if known is None else _known_steps(state, known)
        search = _Search(state.world, symmetry, max_walk_states, watch, tighten)  # polls
    except Interrupted as stop:
        elapsed = time.monotonic() - t0
        return SolveResult("unknown", (), 0, 0, REASONS[stop.reason], elapsed, watch.spent)
    run = _Run(search, state, max_states, progress)
    if known is not None:
        assert limit is not None
        found = run.shorter_than(limit)
        if found.status == "none" and found.reason:  # a bound hit: the known plan stands
            found = _Found("solved", tuple(known), limit, found.reason, False)
        elif found.status == "none":  # nothing shorter exists: the known plan is shortest
            found = _Found("solved", tuple(known), limit, "", True)
        if tighten and found.status == "solved" and found.reason in _RETRY:
            found = run.prove(found, limit)
    elif deepen:
        found = run.deepening()
    else:
        found = run.shorter_than(None)
    return SolveResult(
        found.status,
        found.plan,
        found.steps,
        run.explored,
        found.reason,
        time.monotonic() - t0,
        watch.spent,
        found.proved,
        search.pruned,
    )


def _known_steps(state: State, known: Sequence[Move]) -> int:
    """The steps ``known`` takes to win from ``state`` (replayed through the rules)."""
    from core.game import IllegalMove

    end = state
    try:
        for move in known:
            end = GAME.apply(end, move)
    except IllegalMove as error:
        raise ValueError(f"the known plan is not legal: {error}") from error
    if end.phase != "won":
        raise ValueError("the known plan does not win")
    return end.steps - state.steps


_RETRY = (REASONS["truncated"], REASONS["states"])
"""Why a pass against a known plan may be retried with lower limits (:meth:`_Run.prove`):
its own bounds, not the caller's time, budget or cancel."""


@dataclass(frozen=True)
class _Found:
    """One search's answer: ``status`` is ``solved``, ``unsolvable``, ``unknown`` or, for a
    search bounded by a limit, ``none`` (no plan under the limit; ``reason`` empty when
    that is proved)."""

    status: str
    plan: tuple[Move, ...] = ()
    steps: int = 0
    reason: str = ""
    proved: bool = False


class _Run:
    """The breadth-first searches of one :func:`solve` call (shared symmetries and watch)."""

    def __init__(
        self,
        search: _Search,
        state: State,
        max_states: int,
        progress: Callable[[int, int], None] | None,
    ):
        self.search, self.state, self.max_states, self.progress = (
            search,
            state,
            max_states,
            progress,
        )
        self.explored = 0

    def shorter_than(self, limit: int | None) -> _Found:
        """A shortest plan of fewer than ``limit`` steps (None: any), by one bounded BFS.

        Returns:
            ``solved`` (proved shortest unless an enumeration was cut short), ``none`` (no
            plan under the limit; with a reason when a bound stopped the search),
            ``unsolvable`` (no limit, whole space seen) or ``unknown``.
        """
        search, state = self.search, self.state
        search.bound = None if limit is None else (state.steps, limit)
        result = bfs(
            state,
            search.successors,
            lambda s: s.phase == "won",
            visited=KeyVisited(search.key),
            max_states=self.max_states,
            progress=self.progress,
            check_every=1,
            watch=search.watch,
        )
        self.explored += result.explored
        # A removal-set enumeration cut at max_walk_states may have hidden a shorter plan.
        why = REASONS["truncated"] if search.truncated else ""
        if result.status == "solved":
            assert result.goal is not None  # a solved search has its goal state
            plan = search.moves(state, result.plan)
            steps = result.goal.steps - state.steps
            if steps <= search.bounds.lower_bound(state):  # as short as any plan can be
                return _Found("solved", plan, steps, "", True)
            return _Found("solved", plan, steps, why, not search.truncated)
        stopped = "none" if limit is not None else "unknown"
        if result.status == "exhausted":
            if limit is not None:
                return _Found("none", reason=why)
            return _Found(stopped, reason=why) if why else _Found("unsolvable", proved=True)
        if result.status == "limit" and result.generated >= self.max_states:
            return _Found(stopped, reason=REASONS["states"])  # bfs: "limit" for max_states too
        return _Found(stopped, reason=REASONS[result.status])

    def prove(self, best: _Found, tried: int) -> _Found:
        """Prove a plan shortest that one pass against a known plan left unproved.

        That pass looked for anything shorter than the known plan, and an enumeration cut
        at its bound or the states kept stopped it. Passes for plans of at most d steps,
        d from the start's lower bound up to one less than ``best``'s, prune far harder
        (the lower the limit, the more of the target a cut must keep: see
        :meth:`_Search._cut_filter`), so they often finish where it could not. The first
        plan such a pass finds is shortest when every pass before it finished; when every
        pass finishes without one, ``best`` is. A pass stopped by a bound of the caller's
        (time, work budget, cancel), or cut short again, ends the attempt: ``best`` stands,
        unproved.

        Args:
            best: The solved, unproved answer of the first pass.
            tried: That pass's limit (a pass with it would end the same way: not rerun).

        Returns:
            A proved answer, or ``best``.
        """
        search = self.search
        try:
            d = search.bounds.lower_bound(self.state)
        except Interrupted:
            return best
        while d < best.steps:
            if d + 1 >= tried:  # the first pass itself, which did not finish
                return best
            search.truncated = False  # each pass must finish on its own
            found = self.shorter_than(d + 1)
            if found.status == "solved" and not search.truncated:
                return _Found("solved", found.plan, found.steps, "", True)
            if found.status != "none" or found.reason:
                return best
            d += 1
        return _Found("solved", best.plan, best.steps, "", True)

    def deepening(self) -> _Found:
        """Iterative deepening on the bound: look for plans of at most d steps, d from
        :func:`~core.carving.bound.lower_bound` of the start up, each pass dropping every state whose steps
        plus bound exceed d. The first plan found is shortest (the passes before proved
        that none is shorter); a pass that pruned nothing saw the whole space."""
        try:
            d = self.search.bounds.lower_bound(self.state)
        except Interrupted as stop:
            return _Found("unknown", reason=REASONS[stop.reason])
        while True:
            before, clean = self.search.pruned, not self.search.truncated
            found = self.shorter_than(d + 1)
            if found.status == "solved" and clean:  # the passes before ruled out < d
                return _Found("solved", found.plan, found.steps, "", True)
            if found.status != "none":
                return found
            cut_short = found.reason == REASONS["truncated"]
            if found.reason and not cut_short:  # a bound of the caller's: stop here
                return _Found("unknown", reason=found.reason)
            if self.search.pruned == before:  # nothing cut away: no plan at any length
                if cut_short:  # but an enumeration was cut: not a proof
                    return _Found("unknown", reason=found.reason)
                return _Found("unsolvable", proved=True)
            # A truncated pass goes on too: a plan found later wins, though not proved
            # shortest (search.truncated stays set).
            d += 1


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
