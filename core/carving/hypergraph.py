"""Connected components and hypergraph isomorphism (seed 001 §V): the win test.

Two hypergraphs are isomorphic when bijections on vertices and on edges preserve incidence.
That is exactly an isomorphism of their bipartite *incidence graphs* (one node per vertex,
one per edge, a link when the vertex lies in the edge) that maps vertex nodes to vertex nodes;
parallel edges are separate edge nodes, so they count. networkx's VF2++ matcher (iterative,
so a large target cannot exhaust the recursion limit) decides it, after cheap invariants
(counts, edge sizes, vertex degrees) have ruled most candidates out.
Components are found with a union-find (no recursion); a vertex in no edge is a component of
its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx
from networkx.algorithms.isomorphism import vf2pp_is_isomorphic

from .level import Target

__all__ = ["Shape", "components", "find_isomorphic", "isomorphic", "shape_of", "target_shape"]


@dataclass(frozen=True)
class Shape:
    """A hypergraph prepared for isomorphism tests.

    Attributes:
        n_vertices: Number of vertices.
        edges: Each edge as a tuple of vertex indices ``0..n_vertices-1``.
        signature: Invariants compared before any matching (counts, sorted edge sizes,
            sorted vertex degrees).
    """

    n_vertices: int
    """Number of vertices."""
    edges: tuple[tuple[int, ...], ...]
    """Edges over vertex indices."""
    signature: tuple
    """Cheap invariants."""

    def incidence(self) -> nx.Graph:
        """The bipartite incidence graph (node attribute ``side``: 0 vertex, 1 edge)."""
        g = nx.Graph()
        g.add_nodes_from(((0, v) for v in range(self.n_vertices)), side=0)
        g.add_nodes_from(((1, e) for e in range(len(self.edges))), side=1)
        g.add_edges_from(((0, v), (1, e)) for e, vs in enumerate(self.edges) for v in vs)
        return g


def shape_of(n_vertices: int, edges: Sequence[Sequence[int]]) -> Shape:
    """Prepare a hypergraph on vertices ``0..n_vertices-1``.

    Args:
        n_vertices: Number of vertices.
        edges: Edges as sequences of distinct vertex indices.

    Returns:
        Its :class:`Shape`.
    """
    degree = [0] * n_vertices
    for vs in edges:
        for v in vs:
            degree[v] += 1
    signature = (
        n_vertices,
        len(edges),
        tuple(sorted(len(vs) for vs in edges)),
        tuple(sorted(degree)),
    )
    return Shape(n_vertices, tuple(tuple(vs) for vs in edges), signature)


def target_shape(target: Target) -> Shape:
    """The :class:`Shape` of a level's target H*."""
    index = {v: i for i, v in enumerate(target.vertices)}
    return shape_of(len(target.vertices), [[index[v] for v in e] for e in target.edges])


def isomorphic(a: Shape, b: Shape) -> bool:
    """Whether two hypergraphs are isomorphic (vertex and edge bijections keeping incidence).

    Args:
        a: One hypergraph.
        b: The other.

    Returns:
        True when they are isomorphic.
    """
    if a.signature != b.signature:
        return False
    return vf2pp_is_isomorphic(a.incidence(), b.incidence(), node_label="side")


def components(
    n_vertices: int, edge_verts: Sequence[Sequence[int]]
) -> list[tuple[list[int], list[int]]]:
    """Connected components of a hypergraph on vertices ``0..n_vertices-1``.

    Args:
        n_vertices: Number of vertices.
        edge_verts: V(e) of each edge, as vertex indices.

    Returns:
        ``(vertex ids, edge ids)`` per component, isolated vertices included, ordered by their
        smallest vertex.
    """
    parent = list(range(n_vertices))

    def find(v: int) -> int:
        while parent[v] != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for vs in edge_verts:
        if not vs:  # an edge with no vertex (every entry outside F*) joins nothing
            continue
        root = find(vs[0])
        for v in vs[1:]:
            r = find(v)
            if r != root:
                parent[r] = root
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for v in range(n_vertices):
        groups.setdefault(find(v), ([], []))[0].append(v)
    for e, vs in enumerate(edge_verts):
        if vs:  # an edge with no vertex belongs to no component
            groups[find(vs[0])][1].append(e)
    return sorted(groups.values(), key=lambda g: g[0][0])


def find_isomorphic(
    n_vertices: int, edge_verts: Sequence[Sequence[int]], target: Shape
) -> tuple[list[int], list[int]] | None:
    """The first component (by smallest vertex) isomorphic to ``target``.

    Args:
        n_vertices: Number of vertices.
        edge_verts: V(e) of each edge.
        target: The target's shape.

    Returns:
        ``(vertex ids, edge ids)`` of the component, or None.
    """
    nv, ne = target.n_vertices, len(target.edges)
    for vertices, edges in components(n_vertices, edge_verts):
        if len(vertices) != nv or len(edges) != ne:
            continue
        local = {v: i for i, v in enumerate(vertices)}
        shape = shape_of(nv, [[local[v] for v in edge_verts[e]] for e in edges])
        if isomorphic(shape, target):
            return vertices, edges
    return None
