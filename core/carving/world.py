"""Everything fixed by a level: F*, E_Ω, integer ids, generators and the construct space.

A :class:`World` is derived from a :class:`Level` once (:func:`world_of` caches it) and shared
by every state of a game. Vertices (the formulas of F*) and intrinsic edges (E_Ω) get dense
integer ids in sorted order, so the path searches run on lists, and every listing built from
them is in a stable order (never in the hash order of a set of strings, which changes from
process to process).

The construct space is U restricted to F*: Θ tuples ``(n, d1, d2, d3, d4)`` and Ω tuples
``(d1, d2, d3, d4, n)`` with ``n`` a ∇ and the ``d`` Δ formulas of F*. It has
``2·|F*_∇|·|F*_Δ|^4`` elements; :meth:`World.construct_at` decodes the j-th one, so the
space can be sampled evenly without being listed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache

from .closure import Closure, compute_closure
from .formula import Formula, Operator
from .level import Level

__all__ = ["World", "world_of"]


@dataclass(frozen=True, eq=False)
class World:
    """The level plus everything derived from it (equal and hashed by the level alone).

    Attributes:
        level: The level.
        closure: ⟨F*, E_Ω⟩ and the typing report.
        vertices: F*, sorted; a vertex id is an index into it.
        vid: Formula -> vertex id.
        intrinsic: E_Ω, sorted; an intrinsic edge id is an index into it.
        eid: Intrinsic operator -> its id.
        edge_verts: Per intrinsic id, V(e) as vertex ids.
        generators: Per vertex id, the intrinsic ids whose conclusion it is (Gen over E_Ω).
        deltas: Vertex ids of the Δ formulas of F*.
        nablas: Vertex ids of the ∇ formulas of F*.
        root: Vertex id of ρ0.
    """

    level: Level
    """The level."""
    closure: Closure = field(repr=False)
    """⟨F*, E_Ω⟩."""
    vertices: tuple[Formula, ...] = field(repr=False)
    """F*, sorted."""
    vid: Mapping[Formula, int] = field(repr=False)
    """Formula -> vertex id."""
    intrinsic: tuple[Operator, ...] = field(repr=False)
    """E_Ω, sorted."""
    eid: Mapping[Operator, int] = field(repr=False)
    """Intrinsic operator -> id."""
    edge_verts: tuple[tuple[int, ...], ...] = field(repr=False)
    """V(e) of each intrinsic edge, as vertex ids."""
    generators: tuple[tuple[int, ...], ...] = field(repr=False)
    """Per vertex, the intrinsic edges concluding it."""
    deltas: tuple[int, ...] = field(repr=False)
    """Vertex ids of Δ formulas."""
    nablas: tuple[int, ...] = field(repr=False)
    """Vertex ids of ∇ formulas."""
    root: int = field(repr=False)
    """Vertex id of ρ0."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, World) and (self is other or self.level == other.level)

    def __hash__(self) -> int:
        return hash(self.level)

    @staticmethod
    def build(level: Level, closure: Closure) -> World:
        """Derive the world of ``level`` from its closure.

        Args:
            level: The level.
            closure: Its closure.

        Returns:
            The world.
        """
        vertices = tuple(sorted(closure.formulas))
        vid = {f: i for i, f in enumerate(vertices)}
        intrinsic = tuple(sorted(closure.edges))
        edge_verts = tuple(tuple(dict.fromkeys(vid[f] for f in e)) for e in intrinsic)
        gens: list[list[int]] = [[] for _ in vertices]
        for i, e in enumerate(intrinsic):
            gens[vid[e.f5]].append(i)
        return World(
            level=level,
            closure=closure,
            vertices=vertices,
            vid=vid,
            intrinsic=intrinsic,
            eid={e: i for i, e in enumerate(intrinsic)},
            edge_verts=edge_verts,
            generators=tuple(map(tuple, gens)),
            deltas=tuple(i for i, f in enumerate(vertices) if f.is_delta),
            nablas=tuple(i for i, f in enumerate(vertices) if not f.is_delta),
            root=vid[level.root],
        )

    # -- edges ------------------------------------------------------------------------------

    def verts_of(self, op: Operator) -> tuple[int, ...]:
        """V(e) of any operator over F*, as vertex ids (first appearance order).

        Raises:
            KeyError: When an entry is not in F*.
        """
        i = self.eid.get(op)
        if i is not None:
            return self.edge_verts[i]
        vid = self.vid
        return tuple(dict.fromkeys(vid[f] for f in op))

    def is_intrinsic(self, op: Operator) -> bool:
        """True when ``op`` ∈ E_Ω."""
        return op in self.eid

    def construct_problem(self, op: object) -> str | None:
        """Why ``op`` cannot be constructed (None when it can).

        A constructed edge must be an operator 5-tuple in U (Θ or Ω shape) whose five formulas
        are all in F*, and must not be in E_Ω (docs/carving.md, Rules).

        Args:
            op: The candidate.

        Returns:
            A sentence for the player, or None.
        """
        if not isinstance(op, Operator) or op.kind is None:
            return "an edge must be a theta(N,D,D,D,D) or omega(D,D,D,D,N) operator"
        for f in op:
            if f not in self.vid:
                return f"{f} is not a vertex: it is not in the closure F*"
        if op in self.eid:
            return f"{op} is an intrinsic edge (in E_Ω); construct a new one"
        return None

    # -- the construct space ----------------------------------------------------------------

    @property
    def construct_space(self) -> int:
        """|U ∩ F*^5|: how many 5-tuples the construct phase ranges over (E_Ω included)."""
        return 2 * len(self.nablas) * len(self.deltas) ** 4

    def construct_at(self, j: int) -> Operator:
        """The ``j``-th element of U ∩ F*^5 (Θ tuples first, then Ω; mixed-radix order).

        Args:
            j: Index in ``range(self.construct_space)``.

        Returns:
            The operator (it may be intrinsic).
        """
        nd = len(self.deltas)
        half = len(self.nablas) * nd**4
        kind, j = divmod(j, half)
        j, d4 = divmod(j, nd)
        j, d3 = divmod(j, nd)
        j, d2 = divmod(j, nd)
        n, d1 = divmod(j, nd)
        v, ds = self.vertices, [self.vertices[self.deltas[i]] for i in (d1, d2, d3, d4)]
        nabla = v[self.nablas[n]]
        d1_, d2_, d3_, d4_ = ds
        return (
            Operator(nabla, d1_, d2_, d3_, d4_)
            if kind == 0
            else Operator(d1_, d2_, d3_, d4_, nabla)
        )


@lru_cache(maxsize=32)
def world_of(level: Level) -> World:
    """The (cached) world of ``level``.

    Args:
        level: The level.

    Returns:
        Its world.

    Raises:
        ClosureTooLarge: (a ValueError) when the closure is too large to play.
    """
    return World.build(level, compute_closure(level))
