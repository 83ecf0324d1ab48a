"""Elimination paths (seed 001 §III): the density automaton and searches over walks.

A path is a walk ``(v0, e1, v1, …, ek, vk)``, k ≥ 1, with ``v(i-1) ≠ vi`` both in ``V(ei)``;
vertices and edges may repeat. Vertices are formulas of F* only, so an edge holding fewer
than two of them (``new_edges well_typed``) is on no path. Φ_dense forbids, in the sequence of edge types (T for
intrinsic, V for virtual), a run ``V T…T V`` with at least two T's: as a subsequence (seed
001's 子序列, the default reading) or only as a contiguous run (the narrower ``contiguous``
option, which forbids less). A legal elimination path also
starts or ends at the base point ρ (Φ_root) and uses the new edge (Φ_inc).

**The automaton.** Both readings are recognised by five states: 0 = no V yet; 1 = a V and
no T after it; 2 = a V then one T; 3 = a V then two or more T's (one more V would be a
violation); 4 = dead (a violation: every extension is illegal too, so the predicate is
prefix-closed). Contiguous: a V after a single T goes back to 1; subsequence: it stays in 2,
because the earlier V and T still count. Every walk is searched as a walk in the product
(vertex, automaton state, new edge used), never by listing walks. The reverse of a legal walk
is legal (the forbidden pattern is a palindrome), so Φ_root is met by walks *starting* at ρ,
which is also how the player builds P*.

**Dominance.** From state 0 a walk can do everything it can from 1, from 1 everything it can
from 2, and from 2 everything it can from 3 (step by step, the successor states keep that
order). So the decision only needs, per vertex, the best state a walk from ρ can reach it in —
a monotone propagation where every vertex improves at most four times — and "a legal path
exists" is: some vertex of the new edge is reached in 0, 1 or 2 *before* the new edge is first
used, since one more V step from those states is never a violation. That makes the decision
O(Σ|V(e)|) for the whole graph and, once the levels of a state are known, one set test per
candidate edge.

The same reasoning backwards gives, per vertex, the worst state from which the new edge can
still be used legally (:func:`completion_levels`); the path builder offers exactly the steps
that keep this possible.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from .formula import Operator
from .world import World

__all__ = [
    "DEAD",
    "LAST_V",
    "Graph",
    "advance",
    "can_eliminate",
    "completion_levels",
    "forward_levels",
    "graph_of",
    "offered_steps",
    "removal_sets",
    "shortest_completion",
    "walk_position",
]

DEAD = 4
"""The dead automaton state (a density violation); also "unreached" in level arrays."""
LAST_V = 2
"""The worst state from which one more V step is still legal."""

# _DELTA[reading][q][is_virtual] -> next state.
_DELTA = {
    "contiguous": ((0, 1), (2, 1), (3, 1), (3, DEAD)),
    "subsequence": ((0, 1), (2, 1), (3, 2), (3, DEAD)),
}


def _back_table(reading: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per edge type and per completion level g of the far end (-1..2, index g+1), the
    worst state q that still completes: max{q : δ(q, σ) ≤ g}, or -1."""
    table = _DELTA[reading]
    return tuple(
        tuple(max([q for q in range(4) if table[q][sigma] <= g], default=-1) for g in range(-1, 3))
        for sigma in (0, 1)
    )  # type: ignore[return-value]


_BACK = {reading: _back_table(reading) for reading in _DELTA}


def advance(reading: str, q: int, virtual: bool) -> int:
    """One automaton step.

    Args:
        reading: ``"contiguous"`` or ``"subsequence"``.
        q: Current state (0-4).
        virtual: True for a V edge, False for a T edge.

    Returns:
        The next state (4 = dead).
    """
    return DEAD if q == DEAD else _DELTA[reading][q][virtual]


class Graph:
    """Incidence index of a hypergraph whose vertices are the world's vertex ids.

    Edges are numbered: intrinsic ones first (by intrinsic id), then virtual ones (by the
    vertex ids of their five entries), so every listing derived from a graph is stable.

    Args:
        world: The world (vertex ids, intrinsic edges).
        tree: The intrinsic edges present (E_T).
        virtual: The virtual edges present (E_V).

    Attributes:
        edges: The operators, by edge id.
        verts: V(e) per edge id, as vertex ids.
        virtual: Per edge id, whether it is a V edge.
        inc: Per vertex id, the ids of the edges containing it.
    """

    __slots__ = ("_index", "edges", "inc", "verts", "virtual")

    def __init__(self, world: World, tree: Iterable[Operator], virtual: Iterable[Operator]):
        tree_ids = sorted(world.eid[e] for e in tree)
        vid = world.vid
        # Entries outside F* are not vertices (new_edges well_typed): V(e) ∩ F* is kept.
        coded = sorted((tuple(vid[f] for f in op if f in vid), op) for op in virtual)
        self.edges: tuple[Operator, ...] = tuple(
            [world.intrinsic[i] for i in tree_ids] + [op for _, op in coded]
        )
        self.verts: tuple[tuple[int, ...], ...] = tuple(
            [world.edge_verts[i] for i in tree_ids] + [tuple(dict.fromkeys(c)) for c, _ in coded]
        )
        self.virtual: tuple[bool, ...] = (False,) * len(tree_ids) + (True,) * len(coded)
        inc: list[list[int]] = [[] for _ in world.vertices]
        for e, vs in enumerate(self.verts):
            for v in vs:
                inc[v].append(e)
        self.inc = inc
        self._index: dict[Operator, int] | None = None

    @classmethod
    def from_parts(
        cls, n_vertices: int, verts: Sequence[Sequence[int]], virtual: Sequence[bool]
    ) -> Graph:
        """A graph straight from edge lists (no world): for tests, benchmarks and tools.

        Args:
            n_vertices: Vertices are ``0..n_vertices-1``.
            verts: V(e) per edge id, distinct vertex ids each.
            virtual: Per edge id, whether it is a V edge.

        Returns:
            The graph; its ``edges`` are the edge ids themselves.
        """
        graph = cls.__new__(cls)
        graph.verts = tuple(tuple(vs) for vs in verts)
        graph.virtual = tuple(bool(v) for v in virtual)
        graph.edges = tuple(range(len(graph.verts)))  # type: ignore[arg-type]  # edge ids stand in for operators
        inc: list[list[int]] = [[] for _ in range(n_vertices)]
        for e, vs in enumerate(graph.verts):
            for v in vs:
                inc[v].append(e)
        graph.inc = inc
        graph._index = None
        return graph

    def index(self, op: Operator) -> int | None:
        """The edge id of ``op``, or None when it is not in the graph."""
        if self._index is None:
            self._index = {e: i for i, e in enumerate(self.edges)}
        return self._index.get(op)


@lru_cache(maxsize=64)
def graph_of(world: World, tree: frozenset[Operator], virtual: frozenset[Operator]) -> Graph:
    """The (cached) :class:`Graph` of the edge set ``tree ∪ virtual``."""
    return Graph(world, tree, virtual)


# -- deciding -------------------------------------------------------------------------------


def forward_levels(
    graph: Graph, start: int, reading: str, q0: int = 0, targets: Sequence[int] | None = None
) -> list[int] | bool:
    """Best automaton state in which a walk from ``(start, q0)`` reaches each vertex.

    Args:
        graph: The hypergraph.
        start: Vertex id the walks start at.
        reading: Density reading.
        q0: Automaton state at the start.
        targets: When given, stop as soon as one of these vertices is reached.

    Returns:
        Per vertex id the least state in 0..3 (4 = unreached); with ``targets``, a bool
        saying whether one of them is reached in a state that may still take a V step
        (0..2).
    """
    table = _DELTA[reading]
    inc, verts, virtual = graph.inc, graph.verts, graph.virtual
    level = [DEAD] * len(inc)
    active = [DEAD] * len(verts)  # best state each edge has been left in so far
    goal = frozenset(targets) if targets is not None else frozenset()
    level[start] = q0
    if start in goal and q0 <= LAST_V:
        return True
    stack = [start]
    while stack:
        u = stack.pop()
        row = table[level[u]]
        for e in inc[u]:
            qo = row[virtual[e]]
            if qo >= active[e]:
                continue
            active[e] = qo
            # Every vertex of e, the entry u included: u itself is reached in qo by going
            # out and back through e whenever qo beats its own state (a V step from 2).
            for w in verts[e]:
                if qo < level[w]:
                    if qo <= LAST_V and w in goal:
                        return True
                    level[w] = qo
                    stack.append(w)
    return False if targets is not None else level


def can_eliminate(graph: Graph, base: int, new_verts: Sequence[int], reading: str) -> bool:
    """Whether a legal elimination path exists for a new edge (R(G, e_new) ≠ ∅).

    Args:
        graph: The current hypergraph (E_t, without the new edge).
        base: Vertex id of ρ.
        new_verts: V(e_new) as vertex ids.
        reading: Density reading.

    Returns:
        True when some walk from ρ, legal so far, reaches a vertex of the new edge (and can
        then cross it). Never for an edge with fewer than two vertices (entries outside F*
        are not vertices): a path step joins two distinct vertices of its edge.
    """
    if len(set(new_verts)) < 2:
        return False
    return bool(forward_levels(graph, base, reading, targets=new_verts))


def completion_levels(graph: Graph, new_verts: Sequence[int], reading: str) -> list[int]:
    """Per vertex, the worst automaton state from which the new edge can still be used legally.

    Args:
        graph: The hypergraph E' (the new edge included or not: its vertices are seeds).
        new_verts: V(e_new).
        reading: Density reading.

    Returns:
        Per vertex id g in -1..2: from (v, q) a legal continuation through the new edge exists
        iff q ≤ g (-1: from no state; never from 3, which cannot take the V step).
    """
    back = _BACK[reading]
    inc, verts, virtual = graph.inc, graph.verts, graph.virtual
    good = [-1] * len(inc)
    stack: list[int] = []
    if len(set(new_verts)) < 2:  # no step can cross an edge of one vertex or none
        return good
    for v in new_verts:
        good[v] = 2
        stack.append(v)
    while stack:
        w = stack.pop()
        gw = good[w] + 1
        for e in inc[w]:
            cand = back[virtual[e]][gw]
            if cand < 0:
                continue
            for v in verts[e]:
                if cand > good[v] and v != w:
                    good[v] = cand
                    stack.append(v)
    return good


# -- building a path ------------------------------------------------------------------------


def walk_position(
    graph: Graph, base: int, steps: Sequence[tuple[int, int]], new: int, reading: str
) -> tuple[int, int, bool]:
    """Where a partial walk from the base point stands.

    Args:
        graph: The hypergraph E'.
        base: Vertex id of ρ.
        steps: The walk so far as (edge id, vertex id) pairs.
        new: Edge id of e_new.
        reading: Density reading.

    Returns:
        ``(current vertex, automaton state, new edge used)``.
    """
    u, q, used = base, 0, False
    for e, w in steps:
        u, q, used = w, advance(reading, q, graph.virtual[e]), used or e == new
    return u, q, used


def offered_steps(
    graph: Graph, u: int, q: int, used: bool, new: int, good: Sequence[int], reading: str
) -> list[tuple[int, int]]:
    """The steps (edge id, vertex id) from ``(u, q, used)`` after which a legal path can still
    be completed.

    Args:
        graph: The hypergraph E'.
        u: Current vertex.
        q: Automaton state.
        used: Whether the new edge was used.
        new: Edge id of e_new.
        good: :func:`completion_levels` of the new edge.
        reading: Density reading.

    Returns:
        The steps, by edge id then vertex id.
    """
    if q == DEAD:
        return []
    row = _DELTA[reading][q]
    out: list[tuple[int, int]] = []
    for e in graph.inc[u]:
        qo = row[graph.virtual[e]]
        if qo == DEAD:
            continue
        done = used or e == new
        out.extend((e, w) for w in graph.verts[e] if w != u and (done or good[w] >= qo))
    out.sort()
    return out


def shortest_completion(
    graph: Graph, u: int, q: int, used: bool, new: int, reading: str
) -> list[tuple[int, int]] | None:
    """A shortest continuation of a walk at ``(u, q, used)`` into a legal elimination path.

    Args:
        graph: The hypergraph E'.
        u: Current vertex.
        q: Automaton state.
        used: Whether the new edge was used already (then the answer is ``[]``).
        new: Edge id of e_new.
        reading: Density reading.

    Returns:
        The steps (edge id, vertex id) to add, or None when none exists.
    """
    if q == DEAD:
        return None
    if used:
        return []
    if q > LAST_V or len(graph.verts[new]) < 2:  # e_new cannot be crossed
        return None
    table = _DELTA[reading]
    target = graph.verts[new]
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {(u, q): None}
    queue = deque([(u, q)])
    while queue:
        node = queue.popleft()
        v, s = node
        if v in target:  # every queued state may still take a V step
            walk = [(new, next(w for w in target if w != v))]
            link = parent[node]
            while link is not None:
                walk.append((link[1], node[0]))
                node = link[0]
                link = parent[node]
            walk.reverse()
            return walk
        row = table[s]
        for e in graph.inc[v]:
            so = row[graph.virtual[e]]
            if so > LAST_V or e == new:
                continue
            for w in graph.verts[e]:
                if w != v and (w, so) not in parent:
                    parent[(w, so)] = (node, e)
                    queue.append((w, so))
    return None


def removal_sets(
    graph: Graph,
    start: tuple[int, int, bool],
    new: int,
    good: Sequence[int],
    reading: str,
    max_states: int = 20_000,
    prefix_mask: int = 0,
    keep: Callable[[int], bool] | None = None,
    reuse_steps: bool = True,
) -> tuple[dict[int, list[tuple[int, int]]], bool]:
    """Every edge set E(P*) a legal elimination path can remove, each with a witness walk.

    Breadth-first over (vertex, automaton state, new edge used, edges used so far); a set is
    recorded whenever the walk could be finished there. Exponential in the worst case, so it
    is bounded: meant for the solver on small levels.

    Args:
        graph: The hypergraph E'.
        start: ``(vertex, automaton state, used)`` of the walk so far.
        new: Edge id of e_new.
        good: :func:`completion_levels` of the new edge.
        reading: Density reading.
        max_states: Stop after keeping this many product states.
        prefix_mask: Edge ids (as bits) the walk so far has used.
        keep: ``keep(mask)``: False when no walk whose edge set contains ``mask`` matters to
            the caller (it must stay False for every superset: the solver's lower bound on
            the child a removal makes only grows with what is removed). A walk is dropped as
            soon as its edges fail it, so neither it nor its extensions count against
            ``max_states``; the sets kept, their order and their witnesses are unchanged.
        reuse_steps: Build the steps offered at each (vertex, state, used) once (the
            default); False rebuilds them for every walk, as before (a benchmark baseline;
            the answer is the same).

    Returns:
        ``(sets, complete)``: bit mask of edge ids -> the steps after ``start`` that remove
        exactly that set; ``complete`` is False when ``max_states`` cut the search short.
    """
    first = (*start, prefix_mask)
    parent: dict[tuple, tuple[tuple, tuple[int, int]] | None] = {first: None}
    queue = deque([first])
    found: dict[int, list[tuple[int, int]]] = {}
    # The steps offered depend on (vertex, state, used) alone, which far fewer walks differ
    # in than in their edge sets: each list is built once per enumeration, not per walk.
    moves: dict[tuple[int, int, bool], list[tuple[int, int, int, bool, int]]] = {}
    while queue:
        node = queue.popleft()
        u, q, used, mask = node
        if used and mask not in found:
            found[mask] = _unwind(parent, node)
        here = moves.get((u, q, used))
        if here is None:
            here = [
                (e, w, advance(reading, q, graph.virtual[e]), used or e == new, 1 << e)
                for e, w in offered_steps(graph, u, q, used, new, good, reading)
            ]
            if reuse_steps:
                moves[(u, q, used)] = here
        for e, w, q_next, used_next, bit in here:
            nxt = (w, q_next, used_next, mask | bit)
            if nxt in parent:
                continue
            if keep is not None and not keep(nxt[3]):
                continue
            if len(parent) >= max_states:
                return found, False
            parent[nxt] = (node, (e, w))
            queue.append(nxt)
    return found, True


def _unwind(parent: dict, node: tuple) -> list[tuple[int, int]]:
    steps = []
    link = parent[node]
    while link is not None:
        node, step = link
        steps.append(step)
        link = parent[node]
    steps.reverse()
    return steps
