"""Everything fixed by a level: F*, E_Ω, integer ids, generators and the construct space.

A :class:`World` is derived from a :class:`Level` once (:func:`world_of` caches it) and shared
by every state of a game. Vertices (the formulas of F*) and intrinsic edges (E_Ω) get dense
integer ids in sorted order, so the path searches run on lists, and every listing built from
them is in a stable order (never in the hash order of a set of strings, which changes from
process to process).

The construct space is U (seed 001, phase 1: ``e_new ∈ U``): Θ tuples ``(n, d1, d2, d3, d4)``
and Ω tuples ``(d1, d2, d3, d4, n)`` with ``n`` a ∇ and the ``d`` Δ formulas of 𝓕, every
well-typed formula over the level's variables (``new_edges well_typed``, the default), or of
F* only (``new_edges closure``). It has ``2·|∇|·|Δ|^4`` elements; :meth:`World.construct_at`
decodes the j-th one (a formula of 𝓕 is decoded from its index too, never listed), so the
space can be sampled evenly without being listed.

The hypergraph's vertices are F* whatever the rule (H_t = (F*, E_t)): an entry of e_new
outside F* is not a vertex, so no path stands on it and no component holds it; V(e) as
vertex ids (:meth:`World.verts_of`) lists only the entries in F*. Such an edge joins fewer
vertices (two Δ and no ∇, one formula, or none at all), which no edge over F* can.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from itertools import combinations, product

from .closure import Closure, compute_closure
from .formula import DELTA, NABLA, Formula, Operator
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
        """The vertices of an operator: its entries in F*, as vertex ids (first appearance
        order); entries outside F* are not vertices of the hypergraph (F*, E_t)."""
        i = self.eid.get(op)
        if i is not None:
            return self.edge_verts[i]
        vid = self.vid
        return tuple(dict.fromkeys(vid[f] for f in op if f in vid))

    def is_intrinsic(self, op: Operator) -> bool:
        """True when ``op`` ∈ E_Ω."""
        return op in self.eid

    def construct_problem(self, op: object) -> str | None:
        """Why ``op`` cannot be constructed (None when it can).

        A constructed edge must be an operator 5-tuple in U (Θ or Ω shape) whose five formulas
        are well-typed formulas of the level (``new_edges closure``: formulas of F*), and
        must not be in E_Ω (docs/carving.md, Rules).

        Args:
            op: The candidate.

        Returns:
            A sentence for the player, or None.
        """
        if not isinstance(op, Operator) or op.kind is None:
            return "an edge must be a theta(N,D,D,D,D) or omega(D,D,D,D,N) operator"
        closure = self.level.new_edges == "closure"
        for f in op:
            if f in self.vid:
                continue
            if closure:
                return f"{f} is not a vertex: it is not in the closure F*"
            if not self.level.well_typed(f):
                return f"{f} is not a formula of this level (unknown variable, or ill-typed)"
        if op in self.eid:
            return f"{op} is an intrinsic edge (in E_Ω); construct a new one"
        return None

    # -- the construct space ----------------------------------------------------------------

    @cached_property
    def _typed_triples(self) -> dict[str, tuple[tuple[tuple[str, ...], ...], ...]]:
        """Per head, the variables of each position of each well-typed type triple."""
        by_type: dict[str, list[str]] = {}
        for name, t in self.level.variables:
            by_type.setdefault(t, []).append(name)
        out = {}
        for head, rel in ((DELTA, self.level.r_delta), (NABLA, self.level.r_nabla)):
            out[head] = tuple(tuple(tuple(by_type.get(t, ())) for t in triple) for triple in rel)
        return out

    def formula_count(self, head: str) -> int:
        """How many formulas of this head e_new may hold: |𝓕_Δ| or |𝓕_∇| (of F* under
        ``new_edges closure``).

        Args:
            head: ``"D"`` or ``"N"``.

        Returns:
            The count.
        """
        if self.level.new_edges == "closure":
            return len(self.deltas if head == DELTA else self.nablas)
        return sum(len(a) * len(b) * len(c) for a, b, c in self._typed_triples[head])

    def formula_at(self, head: str, i: int) -> Formula:
        """The ``i``-th formula of this head e_new may hold (F*'s in vertex order under
        ``new_edges closure``; else type triple by triple, variables in the level's order).

        Args:
            head: ``"D"`` or ``"N"``.
            i: Index in ``range(self.formula_count(head))``.

        Returns:
            The formula.
        """
        if self.level.new_edges == "closure":
            return self.vertices[(self.deltas if head == DELTA else self.nablas)[i]]
        for a, b, c in self._typed_triples[head]:
            size = len(a) * len(b) * len(c)
            if i < size:
                i, z = divmod(i, len(c))
                x, y = divmod(i, len(b))
                return Formula(head, a[x], b[y], c[z])
            i -= size
        raise IndexError("formula index out of range")

    def outside(self, head: str) -> Iterator[Formula]:
        """The formulas of this head e_new may hold that are not vertices (not in F*),
        lazily (none under ``new_edges closure``)."""
        vid = self.vid
        for i in range(self.formula_count(head)):
            f = self.formula_at(head, i)
            if f not in vid:
                yield f

    @cached_property
    def has_outside(self) -> tuple[bool, bool]:
        """Whether e_new may hold a Δ, a ∇ outside F*."""
        return (
            next(self.outside(DELTA), None) is not None,
            next(self.outside(NABLA), None) is not None,
        )

    @property
    def construct_space(self) -> int:
        """|U|: how many 5-tuples the construct phase ranges over (E_Ω included)."""
        return 2 * self.formula_count(NABLA) * self.formula_count(DELTA) ** 4

    def construct_at(self, j: int) -> Operator:
        """The ``j``-th element of U (Θ tuples first, then Ω; mixed-radix order).

        Args:
            j: Index in ``range(self.construct_space)``.

        Returns:
            The operator (it may be intrinsic).
        """
        nd = self.formula_count(DELTA)
        half = self.formula_count(NABLA) * nd**4
        kind, j = divmod(j, half)
        j, d4 = divmod(j, nd)
        j, d3 = divmod(j, nd)
        j, d2 = divmod(j, nd)
        n, d1 = divmod(j, nd)
        d1_, d2_, d3_, d4_ = (self.formula_at(DELTA, i) for i in (d1, d2, d3, d4))
        nabla = self.formula_at(NABLA, n)
        return (
            Operator(nabla, d1_, d2_, d3_, d4_)
            if kind == 0
            else Operator(d1_, d2_, d3_, d4_, nabla)
        )

    # -- the construct space by vertex set (the solver's view) -------------------------------

    def edge_vertex_sets(self) -> Iterator[tuple[int, ...]]:
        """Every vertex set (V(e) ∩ F*) a constructed edge can have, sorted ids, lazily.

        Over F*: one ∇ and one to four Δ. With formulas outside F* (``new_edges
        well_typed``) also: no ∇ (when a ∇ outside F* exists), no Δ (when a Δ outside F*
        exists), or neither. Edges with the same set are interchangeable in the game (the
        same incidences), so a search needs one per set.

        Yields:
            Sorted vertex-id tuples.
        """
        out_delta, out_nabla = self.has_outside
        for n in self.nablas:
            for k in range(1, 5):
                for ds in combinations(self.deltas, k):
                    yield tuple(sorted((n, *ds)))
        if out_delta:
            yield from ((n,) for n in self.nablas)
        if out_nabla:
            for k in range(0 if out_delta else 1, 5):
                for ds in combinations(self.deltas, k):
                    yield tuple(sorted(ds))

    def realisations(self, vset: tuple[int, ...]) -> Iterator[Operator]:
        """Operators whose entries in F* are exactly ``vset``: every one over F* (Θ, then Ω),
        then, when ``vset`` needs or allows entries outside F*, a lazily listed supply of
        them: each ∇ (and each Δ) outside F* filling the free slots (Θ and Ω for each).

        Args:
            vset: A set from :meth:`edge_vertex_sets`.

        Yields:
            Distinct operators in a fixed order.
        """
        vertices = self.vertices
        nablas = [vertices[v] for v in vset if not vertices[v].is_delta]
        deltas = [vertices[v] for v in vset if vertices[v].is_delta]
        if nablas and deltas:
            fours = [p for p in product(deltas, repeat=4) if len(set(p)) == len(deltas)]
            for p in fours:
                yield Operator(nablas[0], p[0], p[1], p[2], p[3])
            for p in fours:
                yield Operator(p[0], p[1], p[2], p[3], nablas[0])
        for nabla, (d1, d2, d3, d4) in self._outside_fills(nablas, deltas):
            yield Operator(nabla, d1, d2, d3, d4)
            yield Operator(d1, d2, d3, d4, nabla)

    def _outside_fills(
        self, nablas: list[Formula], deltas: list[Formula]
    ) -> Iterator[tuple[Formula, tuple[Formula, Formula, Formula, Formula]]]:
        """(∇, four Δ) fillings of ``vset`` that use formulas outside F*, lazily."""
        if nablas and len(deltas) < 4:  # pad the Δ slots with one outside Δ
            for o in self.outside(DELTA):
                yield nablas[0], _four([*deltas, *[o] * (4 - len(deltas))])
        elif not nablas:
            for o_n in self.outside(NABLA):
                if deltas:  # repeat the last Δ in the free slots
                    yield o_n, _four([*deltas, *[deltas[-1]] * (4 - len(deltas))])
                else:
                    for o in self.outside(DELTA):
                        yield o_n, (o, o, o, o)
                        break  # one outside Δ per outside ∇ is supply enough


def _four(fs: list[Formula]) -> tuple[Formula, Formula, Formula, Formula]:
    return fs[0], fs[1], fs[2], fs[3]


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
