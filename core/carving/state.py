"""Game states and the rules of one time step (seed 001 §II, §IV, §V).

A step has three phases; the state records which one it is in, so every move is small:

``construct``
    The player names a new edge e_new: an operator 5-tuple of Θ or Ω shape over the level's
    well-typed formulas (over F* under ``new_edges closure``), not in E_Ω (an edge already
    present as a virtual edge may be named again: E' = E_t then). Its entries outside F* are
    not vertices: an edge with fewer than two vertices is never on a path, so it stays.
    If a legal elimination path exists the state moves to ``path``; otherwise e_new stays as a
    virtual edge (E'' = E') and the step goes on to succession.
``path``
    The player builds P* from the base point, one (edge, vertex) step at a time; only steps
    after which a legal path can still be completed are accepted. Once the walk has used e_new
    it may be finished (or extended further); finishing removes every edge of P*, e_new
    included.
``succession``
    Entered when the base point has no generating intrinsic edge left (Gen(ρ, E'') = ∅): the
    player picks a vertex with no generating intrinsic edge, ρ itself included.
``won`` / ``lost``
    Won when, at the end of a step, a connected component of (F*, E) is isomorphic to H*.
    The test is made as soon as E'' is known: if it holds the game ends there and succession
    is skipped (the base point no longer matters). Lost when no move is possible: no edge can be
    constructed (U ⊆ E_Ω), or a succession with no candidate (which the rules make
    impossible, since ρ itself is always one, but it is checked).

``steps`` counts completed time steps (the score against the level's par).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from core.game import IllegalMove
from core.search import Watch

from .closure import compute_closure
from .formula import Formula, Operator
from .hypergraph import Shape, components, find_isomorphic, target_shape
from .level import Level, Target
from .paths import (
    DEAD,
    Graph,
    can_eliminate,
    completion_levels,
    graph_of,
    offered_steps,
    shortest_completion,
    walk_position,
)
from .world import World, world_of

__all__ = [
    "PHASES",
    "State",
    "can_finish",
    "choose_base",
    "completion_table",
    "component_listing",
    "construct",
    "end_elimination",
    "extend",
    "finish",
    "initial_state",
    "path_graph",
    "path_steps",
    "succession_candidates",
    "suggest_path",
    "winning_component",
]

PHASES = ("construct", "path", "succession", "won", "lost")
"""The phases a state can be in."""

Step = tuple[Operator, Formula]


@dataclass(frozen=True)
class State:
    """A position of Triangle Carving.

    Attributes:
        world: The level and its closure.
        tree: E_T, the intrinsic edges still present.
        virtual: E_V, the virtual edges present.
        base: ρ, the base point.
        phase: One of :data:`PHASES`.
        pending: e_new while the path is being built (phase ``path``), else None.
        path: The steps (edge, vertex) of P* so far, from the base point.
        steps: Completed time steps.
    """

    world: World
    """The level and its closure."""
    tree: frozenset[Operator]
    """E_T ⊆ E_Ω."""
    virtual: frozenset[Operator]
    """E_V (disjoint from E_Ω)."""
    base: Formula
    """ρ."""
    phase: str = "construct"
    """``construct``, ``path``, ``succession``, ``won`` or ``lost``."""
    pending: Operator | None = None
    """e_new during the ``path`` phase."""
    path: tuple[Step, ...] = ()
    """P* so far."""
    steps: int = 0
    """Completed time steps."""

    @property
    def level(self) -> Level:
        """The level being played."""
        return self.world.level

    @property
    def edges(self) -> frozenset[Operator]:
        """E_t = E_T ∪ E_V."""
        return self.tree | self.virtual


@lru_cache(maxsize=32)
def _target(target: Target) -> Shape:
    return target_shape(target)


def _graph(state: State) -> Graph:
    return graph_of(state.world, state.tree, state.virtual)


def path_graph(state: State) -> Graph:
    """The graph of E' = E_t ∪ {e_new} of a state in the ``path`` phase."""
    assert state.pending is not None
    return graph_of(state.world, state.tree, state.virtual | {state.pending})


def _require(state: State, phase: str, doing: str) -> None:
    if state.phase != phase:
        if state.phase in ("won", "lost"):
            raise IllegalMove(f"the game is over ({state.phase}); no move can be played")
        raise IllegalMove(f"cannot {doing} now: the step is in its {state.phase} phase")


def can_construct_any(world: World) -> bool:
    """Whether some edge can be constructed at all: U ⊄ E_Ω (E_Ω lies inside U)."""
    return world.construct_space > len(world.intrinsic)


def initial_state(level: Level, watch: Watch | None = None) -> State:
    """The state at t = 0: all of E_Ω, no virtual edge, base point ρ0.

    Args:
        level: The level.
        watch: When given, the closure is computed under it (budget, deadline, cancel:
            issue 28) instead of taken from the shared cache.

    Returns:
        The initial state (phase ``lost`` when nothing can ever be constructed).

    Raises:
        ClosureTooLarge: (a ValueError) when the level's closure is too large to play.
        Interrupted: When ``watch`` stops the closure computation.
    """
    if watch is None:
        world = world_of(level)
    else:
        world = World.build(level, compute_closure(level, watch=watch))
    phase = "construct" if can_construct_any(world) else "lost"
    return State(world, frozenset(world.intrinsic), frozenset(), level.root, phase)


# -- construct -------------------------------------------------------------------------------


def construct(state: State, op: Operator) -> State:
    """Phase 1 (and 2 when no legal path exists): add e_new.

    Args:
        state: A state in the ``construct`` phase.
        op: The new edge.

    Returns:
        The state in the ``path`` phase when a legal elimination path exists, else the state
        after the step's end with e_new kept as a virtual edge.

    Raises:
        IllegalMove: When the phase is wrong or ``op`` cannot be constructed.
    """
    _require(state, "construct", "construct an edge")
    problem = state.world.construct_problem(op)
    if problem is not None:
        raise IllegalMove(problem)
    world = state.world
    if can_eliminate(_graph(state), world.vid[state.base], world.verts_of(op), state.level.density):
        return State(world, state.tree, state.virtual, state.base, "path", op, (), state.steps)
    return end_elimination(state, state.tree, state.virtual | {op})


def elimination_possible(state: State, op: Operator) -> bool:
    """Whether constructing ``op`` now would force an elimination (R(G_t, op) ≠ ∅).

    Args:
        state: A state in the ``construct`` phase.
        op: A constructible edge.

    Returns:
        The decision.
    """
    world = state.world
    return can_eliminate(
        _graph(state), world.vid[state.base], world.verts_of(op), state.level.density
    )


# -- path ------------------------------------------------------------------------------------


def _position(state: State) -> tuple[Graph, int, int, int, bool]:
    graph = path_graph(state)
    vid = state.world.vid
    new = graph.index(state.pending)  # type: ignore[arg-type]
    steps = [(graph.index(e), vid[w]) for e, w in state.path]
    u, q, used = walk_position(graph, vid[state.base], steps, new, state.level.density)  # type: ignore[arg-type]
    return graph, new, u, q, used  # type: ignore[return-value]


@lru_cache(maxsize=64)
def completion_table(
    world: World, tree: frozenset, virtual: frozenset, pending: Operator
) -> tuple[int, ...]:
    """Cached :func:`~core.carving.paths.completion_levels` of e_new = ``pending`` in E'."""
    graph = graph_of(world, tree, virtual | {pending})
    return tuple(completion_levels(graph, world.verts_of(pending), world.level.density))


def path_steps(state: State) -> tuple[Step, ...]:
    """The steps that extend P* and still allow a legal elimination path.

    Args:
        state: A state (empty unless in the ``path`` phase).

    Returns:
        ``(edge, vertex)`` pairs in a stable order.
    """
    if state.phase != "path":
        return ()
    graph, new, u, q, used = _position(state)
    good = completion_table(state.world, state.tree, state.virtual, state.pending)
    vertices = state.world.vertices
    return tuple(
        (graph.edges[e], vertices[w])
        for e, w in offered_steps(graph, u, q, used, new, good, state.level.density)
    )


def can_finish(state: State) -> bool:
    """Whether P* as built so far is a legal elimination path (it used e_new, k ≥ 1)."""
    if state.phase != "path":
        return False
    _, _, _, q, used = _position(state)
    return used and q != DEAD


def extend(state: State, edge: Operator, to: Formula) -> State:
    """Add the step (edge, to) to P*.

    Args:
        state: A state in the ``path`` phase.
        edge: An edge of E' containing the current vertex.
        to: Another vertex of that edge.

    Returns:
        The state with the longer path.

    Raises:
        IllegalMove: When the step is not a walk step, breaks Φ_dense, or leaves no way to
            complete a legal path.
    """
    _require(state, "path", "extend the path")
    if (edge, to) not in path_steps(state):
        raise IllegalMove(_step_problem(state, edge, to))
    return State(
        state.world,
        state.tree,
        state.virtual,
        state.base,
        "path",
        state.pending,
        state.path + ((edge, to),),
        state.steps,
    )


def _step_problem(state: State, edge: Operator, to: Formula) -> str:
    graph, _new, u, _q, _used = _position(state)
    e = graph.index(edge)
    here = state.world.vertices[u]
    if e is None:
        return f"{edge} is not an edge of the hypergraph"
    if here not in edge:
        return f"{edge} does not contain the current vertex {here}"
    if to == here or to not in edge:
        return f"the step must go to another vertex of {edge}"
    return f"stepping through {edge} to {to} leaves no legal elimination path (Φ_dense)"


def finish(state: State) -> State:
    """Phase 2 ends: remove every edge of P* (e_new included).

    Args:
        state: A state in the ``path`` phase whose path is legal.

    Returns:
        The state after elimination (and the win test; maybe in ``succession``).

    Raises:
        IllegalMove: When the path is not yet a legal elimination path.
    """
    _require(state, "path", "finish the path")
    if not can_finish(state):
        raise IllegalMove("the path does not use the new edge yet")
    removed = {e for e, _ in state.path}
    assert state.pending is not None  # _require: the path phase has its new edge
    virtual = (state.virtual | {state.pending}) - removed
    return end_elimination(state, state.tree - removed, virtual)


def suggest_path(state: State) -> tuple[Step, ...] | None:
    """A shortest way to complete P* from where it stands (``()`` when it can be finished).

    Args:
        state: A state in the ``path`` phase.

    Returns:
        The remaining steps, or None outside the ``path`` phase.
    """
    if state.phase != "path":
        return None
    graph, new, u, q, used = _position(state)
    steps = shortest_completion(graph, u, q, used, new, state.level.density)
    if steps is None:  # cannot happen: only completable steps are accepted
        return None
    vertices = state.world.vertices
    return tuple((graph.edges[e], vertices[w]) for e, w in steps)


# -- end of step -----------------------------------------------------------------------------


def winning_component(state: State) -> tuple[frozenset[Formula], frozenset[Operator]] | None:
    """A connected component of (F*, E_t) isomorphic to H*, if any.

    Args:
        state: Any state (its E_t is tested, whatever the phase).

    Returns:
        ``(vertices, edges)`` of the first such component, or None.
    """
    graph = _graph(state)
    found = find_isomorphic(len(state.world.vertices), graph.verts, _target(state.level.target))
    if found is None:
        return None
    vertices, edges = found
    return (
        frozenset(state.world.vertices[v] for v in vertices),
        frozenset(graph.edges[e] for e in edges),
    )


def component_listing(state: State) -> tuple[tuple[tuple[Formula, ...], tuple[Operator, ...]], ...]:
    """The connected components a player sees: of E_t, and of E' (e_new included) while the
    elimination path is being built.

    Args:
        state: Any state.

    Returns:
        ``(vertices, edges)`` per component, isolated vertices included; components ordered
        by their smallest vertex, vertices in vertex order, edges intrinsic first (by id) then
        virtual ones.
    """
    graph = path_graph(state) if state.phase == "path" else _graph(state)
    vertices = state.world.vertices
    return tuple(
        (tuple(vertices[v] for v in vs), tuple(graph.edges[e] for e in es))
        for vs, es in components(len(vertices), graph.verts)
    )


def _gen_empty(world: World, tree: frozenset[Operator], v: int) -> bool:
    """Gen(v, E) = ∅: no intrinsic edge still present concludes v."""
    intrinsic = world.intrinsic
    return not any(intrinsic[i] in tree for i in world.generators[v])


def succession_candidates(state: State) -> tuple[Formula, ...]:
    """The vertices that may become the base point: those with Gen(v, E'') = ∅.

    Args:
        state: Any state (its current edges are used).

    Returns:
        The candidates in vertex order (ρ is one whenever succession is due).
    """
    concluded = {e.f5 for e in state.tree}
    return tuple(f for f in state.world.vertices if f not in concluded)


def end_elimination(state: State, tree: frozenset[Operator], virtual: frozenset[Operator]) -> State:
    """Close phase 2 with the edge set E'' = tree ∪ virtual: win test, then succession.

    Args:
        state: The state the step started from (its base point and step count are used).
        tree: E_T after elimination.
        virtual: E_V after elimination.

    Returns:
        The ``won`` state, the ``succession`` state, or the start of the next step.
    """
    world = state.world
    after = State(world, tree, virtual, state.base, "construct", None, (), state.steps)
    if winning_component(after) is not None:
        return State(world, tree, virtual, state.base, "won", None, (), state.steps + 1)
    if _gen_empty(world, tree, world.vid[state.base]):
        if not succession_candidates(after):
            return State(world, tree, virtual, state.base, "lost", None, (), state.steps + 1)
        return State(world, tree, virtual, state.base, "succession", None, (), state.steps)
    return _next_step(after, state.base)


def _next_step(state: State, base: Formula) -> State:
    phase = "construct" if can_construct_any(state.world) else "lost"
    return State(state.world, state.tree, state.virtual, base, phase, None, (), state.steps + 1)


def choose_base(state: State, vertex: Formula) -> State:
    """Phase 3: pick the new base point.

    Args:
        state: A state in the ``succession`` phase.
        vertex: A vertex with no generating intrinsic edge (ρ itself is allowed).

    Returns:
        The state at the start of the next step.

    Raises:
        IllegalMove: When the phase is wrong or ``vertex`` is not a candidate.
    """
    _require(state, "succession", "choose a base point")
    vid = state.world.vid.get(vertex)
    if vid is None:
        raise IllegalMove(f"{vertex} is not a vertex: it is not in the closure F*")
    if not _gen_empty(state.world, state.tree, vid):
        raise IllegalMove(f"{vertex} still has a generating intrinsic edge; pick one that has none")
    return _next_step(state, vertex)
