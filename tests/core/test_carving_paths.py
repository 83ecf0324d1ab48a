"""Elimination paths against brute-force walk listing on tiny hypergraphs (seed 001 §III).

The references here read the definitions literally: a walk is listed vertex by vertex, Φ_dense
is checked on the whole type sequence (contiguous runs, or subsequences), Φ_root at either
end, Φ_inc by membership. The engine never lists walks: it searches the product of vertices
and a density automaton.
"""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.carving.paths import (
    DEAD,
    Graph,
    advance,
    can_eliminate,
    completion_levels,
    forward_levels,
    offered_steps,
    removal_sets,
    shortest_completion,
)

READINGS = ("contiguous", "subsequence")
K = 5
"""Longest walk the brute force lists."""


# -- references ------------------------------------------------------------------------------


def dense_ok(kinds: list[bool], reading: str) -> bool:
    """Φ_dense on a type sequence (True = V): no V, T^n, V with n >= 2."""
    n = len(kinds)
    if reading == "contiguous":
        for i in range(n):
            for j in range(i + 3, n):
                if kinds[i] and kinds[j] and not any(kinds[i + 1 : j]):
                    return False
        return True
    for i, j, k, m in combinations(range(n), 4):
        if kinds[i] and not kinds[j] and not kinds[k] and kinds[m]:
            return False
    return True


def walks(graph: Graph, n_vertices: int, max_len: int, reading: str, starts=None):
    """Every walk (v0, [(e1, v1), ...]) of length 1..max_len whose prefixes satisfy Φ_dense.

    Φ_dense is prefix-closed (a violation in a prefix is one in the walk), so pruning on it
    loses no legal walk.
    """
    stack = [(v, ()) for v in (range(n_vertices) if starts is None else starts)]
    while stack:
        v0, steps = stack.pop()
        if steps:
            yield v0, steps
        if len(steps) == max_len:
            continue
        here = steps[-1][1] if steps else v0
        for e, vs in enumerate(graph.verts):
            if here not in vs:
                continue
            for w in vs:
                kinds = [graph.virtual[x] for x, _ in steps] + [graph.virtual[e]]
                if w != here and dense_ok(kinds, reading):
                    stack.append((v0, steps + ((e, w),)))


def legal(v0, steps, rho, new, reading, graph) -> bool:
    """R(G, e_new) membership, literally (walk shape checked too)."""
    here = v0
    for e, w in steps:
        if here == w or here not in graph.verts[e] or w not in graph.verts[e]:
            return False
        here = w
    root = v0 == rho or steps[-1][1] == rho
    used = any(e == new for e, _ in steps)
    return root and used and dense_ok([graph.virtual[e] for e, _ in steps], reading)


def product_reach(graph: Graph, start: tuple[int, int, bool], new: int, reading: str) -> set:
    """Exact breadth-first search of the product (vertex, automaton state, new edge used):
    the textbook construction, with no dominance shortcut (that is what is under test)."""
    seen, frontier = {start}, [start]
    while frontier:
        v, q, used = frontier.pop()
        for e, vs in enumerate(graph.verts):
            if v not in vs:
                continue
            q2 = advance(reading, q, graph.virtual[e])
            for w in vs:
                node = (w, q2, used or e == new)
                if w != v and q2 != DEAD and node not in seen:
                    seen.add(node)
                    frontier.append(node)
    return seen


# -- tiny random hypergraphs -----------------------------------------------------------------


def _hypergraph(draw, min_edge: int):
    """(graph E', vertex count, ρ, new edge id): 2-4 vertices, 1-3 edges of ``min_edge``-3
    vertices plus e_new (virtual), random T/V types; shared by :func:`tiny` and :func:`loose`."""
    n = draw(st.integers(2, 4))
    vertex = st.integers(0, n - 1)
    edge = st.lists(vertex, min_size=min_edge, max_size=3, unique=True)
    verts = draw(st.lists(edge, min_size=1, max_size=3))
    virtual = draw(st.lists(st.booleans(), min_size=len(verts), max_size=len(verts)))
    new = draw(edge)
    graph = Graph.from_parts(n, verts + [new], virtual + [True])
    return graph, n, draw(vertex), len(verts)


@st.composite
def tiny(draw):
    """(graph E', vertex count, ρ, new edge id): 2-4 vertices, 1-3 edges of size 2-3 plus
    e_new (virtual), random T/V types."""
    return _hypergraph(draw, 2)


def without(graph: Graph, n: int, edge: int) -> Graph:
    keep = [e for e in range(len(graph.verts)) if e != edge]
    return Graph.from_parts(n, [graph.verts[e] for e in keep], [graph.virtual[e] for e in keep])


# -- the automaton ---------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.booleans(), max_size=12), st.sampled_from(READINGS))
def test_automaton_recognises_phi_dense(kinds, reading):
    q = 0
    for k in kinds:
        q = advance(reading, q, k)
    assert (q != DEAD) == dense_ok(kinds, reading)


def test_the_two_readings_differ_on_v_t_v_t_v():
    kinds = [True, False, True, False, True]
    assert dense_ok(kinds, "contiguous") and not dense_ok(kinds, "subsequence")
    q = dict.fromkeys(READINGS, 0)
    for r in READINGS:
        for k in kinds:
            q[r] = advance(r, q[r], k)
    assert q["contiguous"] != DEAD and q["subsequence"] == DEAD


# -- the decision and the suggested path -----------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(tiny(), st.sampled_from(READINGS))
def test_decision_matches_walk_listing(case, reading):
    graph, n, rho, new = case
    fast = can_eliminate(without(graph, n, new), rho, graph.verts[new], reading)
    suggestion = shortest_completion(graph, rho, 0, False, new, reading)
    assert fast == (suggestion is not None)
    exact = any(used for _, _, used in product_reach(graph, (rho, 0, False), new, reading))
    assert fast == exact
    # Walks may start or end at ρ: list them from every vertex.
    lengths = [
        len(s) for v0, s in walks(graph, n, K, reading) if legal(v0, s, rho, new, reading, graph)
    ]
    if suggestion is None:
        assert not lengths
    else:
        assert legal(rho, tuple(suggestion), rho, new, reading, graph)
        if len(suggestion) <= K:
            assert min(lengths) == len(suggestion)  # it is a shortest legal path
        else:
            assert not lengths


@settings(max_examples=150, deadline=None)
@given(tiny(), st.sampled_from(READINGS), st.integers(0, 3))
def test_levels_are_the_best_automaton_states(case, reading, q0):
    graph, n, rho, new = case
    best = [DEAD] * n
    for v, q, _ in product_reach(graph, (rho, q0, False), new, reading):
        best[v] = min(best[v], q)
    assert forward_levels(graph, rho, reading, q0) == best


# -- building P* -----------------------------------------------------------------------------


def completable(graph, v, q, used, new, reading) -> bool:
    """Reference: from (v, q, used) some walk can still use e_new with Φ_dense intact."""
    return q != DEAD and any(u for _, _, u in product_reach(graph, (v, q, used), new, reading))


@settings(max_examples=80, deadline=None)
@given(tiny(), st.sampled_from(READINGS), st.integers(0, 3), st.booleans())
def test_offered_steps_are_exactly_the_completable_ones(case, reading, q, used):
    graph, _n, rho, new = case
    good = completion_levels(graph, graph.verts[new], reading)
    offered = set(offered_steps(graph, rho, q, used, new, good, reading))
    for e, vs in enumerate(graph.verts):
        if rho not in vs:
            continue
        for w in vs:
            if w == rho:
                continue
            q2 = advance(reading, q, graph.virtual[e])
            used2 = used or e == new
            assert ((e, w) in offered) == completable(graph, w, q2, used2, new, reading)
            rest = shortest_completion(graph, w, q2, used2, new, reading)
            assert (rest is not None) == ((e, w) in offered)


@settings(max_examples=80, deadline=None)
@given(tiny(), st.sampled_from(READINGS))
def test_removal_sets_match_walk_listing(case, reading):
    graph, n, rho, new = case
    good = completion_levels(graph, graph.verts[new], reading)
    found, complete = removal_sets(graph, (rho, 0, False), new, good, reading)
    assert complete
    for mask, steps in found.items():
        assert legal(rho, tuple(steps), rho, new, reading, graph)
        assert sum(1 << e for e in {e for e, _ in steps}) == mask
    listed = {
        sum(1 << e for e in {e for e, _ in steps})
        for v0, steps in walks(graph, n, K, reading, starts=[rho])
        if legal(v0, steps, rho, new, reading, graph)
    }
    # Witnesses are shortest per set, so the sets reachable within K steps coincide.
    assert listed == {mask for mask, steps in found.items() if len(steps) <= K}


# -- issue 29: edges with entries outside F* (new_edges well_typed) --------------------------


@st.composite
def loose(draw):
    """Like :func:`tiny`, but an edge may join 0 to 3 vertices: entries outside F* are not
    vertices, so the seed's e_new ∈ U can join two Δ, one formula or none."""
    return _hypergraph(draw, 0)


@settings(max_examples=150, deadline=None)
@given(loose(), st.sampled_from(READINGS))
def test_decision_matches_walk_listing_for_edges_of_any_size(case, reading):
    graph, n, rho, new = case
    fast = can_eliminate(without(graph, n, new), rho, graph.verts[new], reading)
    suggestion = shortest_completion(graph, rho, 0, False, new, reading)
    assert fast == (suggestion is not None)
    assert fast == any(u for _, _, u in product_reach(graph, (rho, 0, False), new, reading))
    listed = [s for v0, s in walks(graph, n, K, reading) if legal(v0, s, rho, new, reading, graph)]
    if len(graph.verts[new]) < 2:  # a path step joins two distinct vertices of its edge
        assert not fast and not listed
        assert completion_levels(graph, graph.verts[new], reading) == [-1] * n
    if suggestion is None:
        assert not listed
    else:
        assert legal(rho, tuple(suggestion), rho, new, reading, graph)
        assert not listed or min(map(len, listed)) == len(suggestion)
