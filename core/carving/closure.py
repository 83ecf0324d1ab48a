"""The deductive closure ⟨F*, E_Ω⟩ = lfp(Γ) of seed 001 (definition 1.4), by semi-naive evaluation.

Γ adds, to a set F of formulas and a set P of operators:

* every Θ instance ``(∇(a,b,c), Δ(a,x,y), Δ(b,y,z), Δ(c,z,x), Δ(x,y,z))`` whose first four
  entries are in F, and every Ω instance ``(Δ(x,y,z), Δ(a,x,y), Δ(b,y,z), Δ(c,z,x), ∇(a,b,c))``
  whose first four entries are in F — provided the tuple is in U, i.e. its conclusion is
  well-typed (the premises, being in F, are);
* the conclusions of those operators;
* the cyclic rotations ``Δ(y,z,x)`` / ``∇(y,z,x)`` of formulas in F. F ⊆ 𝓕, so a rotation
  that is not well-typed is *not* added (docs/carving.md, Rules); it is reported for the linter.

The least fixpoint from ⟨A_Δ ∪ A_∇ ∪ axioms, ∅⟩ is computed one formula at a time (the
"delta" of semi-naive evaluation is a single formula): when a formula enters F it is joined,
in every premise position it can take, with the formulas already in F through hash indexes on
formula arguments. An instance is therefore found exactly when its last premise arrives, and
U is never enumerated. Every Θ/Ω instance shares the *triangle* ``Δ(a,x,y), Δ(b,y,z),
Δ(c,z,x)``; the joins find triangles through the index ``(y,z) -> [x]`` of Δ(x,y,z) by its
last two arguments.

Internally formulas are integers ``((kind·n + x)·n + y)·n + z`` over variable numbers, which
keeps the sets and indexes cheap; the result is decoded into :class:`Formula` /
:class:`Operator` values once, at the end.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from core.search import NO_WATCH, Watch

from .formula import DELTA, NABLA, Formula, Operator
from .level import Level

__all__ = ["DEFAULT_LIMIT", "Closure", "ClosureTooLarge", "compute_closure"]

DEFAULT_LIMIT = 200_000
"""Default bound on |F*| + |E_Ω|; a level whose closure is larger cannot be played."""


POLL_EVERY = 256
"""Formulas saturated between two polls of the watch's clock and cancel test."""


class ClosureTooLarge(ValueError):
    """The closure of a level exceeds the size limit (the level cannot be played)."""


@dataclass(frozen=True)
class Closure:
    """The least fixpoint ⟨F*, E_Ω⟩ and what the typing discarded on the way.

    Attributes:
        formulas: F*, the vertices of every hypergraph of the game.
        edges: E_Ω, the intrinsic hyperedges.
        dropped_rotations: Rotations of formulas in F* that are not well-typed (not added).
        dropped_conclusions: Conclusions Θ/Ω would have drawn from premises in F* but that
            are not well-typed (so the operator is not in U and is not added).
    """

    formulas: frozenset[Formula]
    """F*: the vertex set."""
    edges: frozenset[Operator]
    """E_Ω: the intrinsic (tree) edges."""
    dropped_rotations: frozenset[Formula]
    """Ill-typed rotations that were not added."""
    dropped_conclusions: frozenset[Formula]
    """Ill-typed Θ/Ω conclusions whose operators are not in U."""


class _Saturation:
    """Working state of the semi-naive evaluation over integer-coded formulas.

    Args:
        level: The level (variables, types, relations).
        limit: Bound on |F| + |P|.
        watch: Charged one unit per formula taken from the queue and polled every
            :data:`POLL_EVERY` of them (the joins of one formula are bounded by |F|², so the
            work between two polls is bounded too).
    """

    def __init__(self, level: Level, limit: int, watch: Watch = NO_WATCH):
        names = level.variable_names
        self.n = n = len(names)
        self.n3 = n * n * n
        type_index = {t: i for i, t in enumerate(level.types)}
        k = len(level.types)
        self.vtype = [type_index[level.type_of[v]] for v in names]
        self.ok = [
            {(type_index[a] * k + type_index[b]) * k + type_index[c] for a, b, c in rel}
            for rel in (level.r_delta, level.r_nabla)
        ]
        self.k = k
        self.limit = limit
        self.watch = watch
        self.formulas: set[int] = set()
        self.edges: set[tuple[int, ...]] = set()
        self.dropped_rot: set[int] = set()
        self.dropped_concl: set[int] = set()
        self.queue: list[int] = []
        self.queued: set[int] = set()
        # Indexes over the Δ formulas already in F, each entry carrying the formula's code.
        self.d23: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)  # y*n+z -> [(x, f)]
        self.d12: defaultdict[int, list[tuple[int, int]]] = defaultdict(list)  # x*n+y -> [(z, f)]
        self.d1: defaultdict[int, list[tuple[int, int, int]]] = defaultdict(
            list
        )  # x -> [(y, z, f)]
        self.d2: defaultdict[int, list[tuple[int, int, int]]] = defaultdict(
            list
        )  # y -> [(x, z, f)]

    def code(self, kind: int, x: int, y: int, z: int) -> int:
        """Integer code of a formula (kind 0 = Δ, 1 = ∇)."""
        return ((kind * self.n + x) * self.n + y) * self.n + z

    def typed(self, kind: int, x: int, y: int, z: int) -> bool:
        """Whether the formula is well-typed."""
        t, k = self.vtype, self.k
        return (t[x] * k + t[y]) * k + t[z] in self.ok[kind]

    def push(self, f: int) -> None:
        """Queue a formula for F unless it is already there or queued."""
        if f not in self.queued:
            self.queued.add(f)
            self.queue.append(f)

    def run(self) -> None:
        """Saturate: pop formulas until no new one appears."""
        n = self.n
        watch = self.watch
        while self.queue:
            # The 200k cap bounds memory; the watch bounds time and work (issue 28): a
            # closure near the cap takes seconds, which a command's limit must cover.
            watch.spend()
            if len(self.formulas) % POLL_EVERY == 0:
                watch.poll("closure", len(self.formulas), self.limit)
            f = self.queue.pop()
            kind, rest = divmod(f, self.n3)
            x, rest = divmod(rest, n * n)
            y, z = divmod(rest, n)
            self.formulas.add(f)
            if self.typed(kind, y, z, x):
                self.push(self.code(kind, y, z, x))
            else:
                self.dropped_rot.add(self.code(kind, y, z, x))
            if kind == 0:
                self._add_delta(f, x, y, z)
            else:
                self._add_nabla(x, y, z)
            if len(self.formulas) + len(self.edges) > self.limit:
                raise ClosureTooLarge(
                    f"the closure of this level has more than {self.limit} formulas and edges"
                )

    # -- joins -------------------------------------------------------------------------------
    #
    # A triangle is (a,b,c,x,y,z) with d1 = Δ(a,x,y), d2 = Δ(b,y,z), d3 = Δ(c,z,x) in F; the
    # loops below carry the premises' codes along so that nothing is re-encoded per match.

    def _add_delta(self, f: int, p: int, q: int, r: int) -> None:
        """Index Δ(p,q,r) (code ``f``), then find every instance it completes, in each
        premise position."""
        n = self.n
        d2, d23 = self.d2, self.d23
        d23[q * n + r].append((p, f))
        self.d12[p * n + q].append((r, f))
        self.d1[p].append((q, r, f))
        d2[q].append((p, r, f))
        found = self._triangle
        # As d1 = Δ(a,x,y): d2 = Δ(b,y,z), d3 = Δ(c,z,x).
        a, x, y = p, q, r
        for b, z, f2 in d2.get(y, ()):
            for c, f3 in d23.get(z * n + x, ()):
                found(a, b, c, x, y, z, f, f2, f3)
        # As d2 = Δ(b,y,z): d3 = Δ(c,z,x), d1 = Δ(a,x,y).
        b, y, z = p, q, r
        for c, x, f3 in d2.get(z, ()):
            for a, f1 in d23.get(x * n + y, ()):
                found(a, b, c, x, y, z, f1, f, f3)
        # As d3 = Δ(c,z,x): d1 = Δ(a,x,y), d2 = Δ(b,y,z).
        c, z, x = p, q, r
        for a, y, f1 in d2.get(x, ()):
            for b, f2 in d23.get(y * n + z, ()):
                found(a, b, c, x, y, z, f1, f2, f)
        # As the base d_b = Δ(x,y,z) of Ω: any triangle on (x,y,z).
        x, y, z = p, q, r
        bs, cs = d23.get(y * n + z), d23.get(z * n + x)
        if bs and cs:
            omega = self._omega
            for a, f1 in d23.get(x * n + y, ()):
                for b, f2 in bs:
                    for c, f3 in cs:
                        omega(a, b, c, f, f1, f2, f3)

    def _add_nabla(self, a: int, b: int, c: int) -> None:
        """Find every Θ instance whose ∇(a,b,c) premise just arrived."""
        n = self.n
        formulas, d12 = self.formulas, self.d12
        for x, y, f1 in self.d1.get(a, ()):
            for z, f2 in d12.get(b * n + y, ()):
                f3 = (c * n + z) * n + x  # Δ(c,z,x)
                if f3 in formulas:
                    self._theta(a, b, c, x, y, z, f1, f2, f3)

    def _triangle(
        self, a: int, b: int, c: int, x: int, y: int, z: int, f1: int, f2: int, f3: int
    ) -> None:
        """A triangle is in F: Θ when ∇(a,b,c) is in F, Ω when Δ(x,y,z) is."""
        n = self.n
        if self.n3 + (a * n + b) * n + c in self.formulas:
            self._theta(a, b, c, x, y, z, f1, f2, f3)
        base = (x * n + y) * n + z
        if base in self.formulas:
            self._omega(a, b, c, base, f1, f2, f3)

    def _theta(
        self, a: int, b: int, c: int, x: int, y: int, z: int, f1: int, f2: int, f3: int
    ) -> None:
        concl = (x * self.n + y) * self.n + z
        if not self.typed(0, x, y, z):
            self.dropped_concl.add(concl)
            return
        self.edges.add((self.n3 + (a * self.n + b) * self.n + c, f1, f2, f3, concl))
        self.push(concl)

    def _omega(self, a: int, b: int, c: int, base: int, f1: int, f2: int, f3: int) -> None:
        concl = self.n3 + (a * self.n + b) * self.n + c
        if not self.typed(1, a, b, c):
            self.dropped_concl.add(concl)
            return
        self.edges.add((base, f1, f2, f3, concl))
        self.push(concl)


def _initial(level: Level, sat: _Saturation) -> list[int]:
    """Codes of A_Δ ∪ A_∇ (well-typed diagonals) and the axioms."""
    index = {v: i for i, v in enumerate(level.variable_names)}
    start = [
        sat.code(kind, i, i, i) for i in range(sat.n) for kind in (0, 1) if sat.typed(kind, i, i, i)
    ]
    start += [
        sat.code(0 if f.is_delta else 1, index[f.x], index[f.y], index[f.z]) for f in level.axioms
    ]
    return start


def compute_closure(
    level: Level, *, limit: int = DEFAULT_LIMIT, watch: Watch = NO_WATCH
) -> Closure:
    """Compute ⟨F*, E_Ω⟩ = lfp(Γ) for ``level`` (semi-naive, indexed joins).

    Args:
        level: The level (its axioms, if any, join the diagonal formulas at the start).
        limit: Bound on |F*| + |E_Ω|.
        watch: Work budget (one unit per formula of F*), deadline and cancel test.

    Returns:
        The :class:`Closure`.

    Raises:
        ClosureTooLarge: When the closure exceeds ``limit``.
        Interrupted: When ``watch`` runs out of budget or time, or is cancelled.
    """
    sat = _Saturation(level, limit, watch)
    for f in _initial(level, sat):
        sat.push(f)
    sat.run()
    names = level.variable_names
    n, n3 = sat.n, sat.n3
    cache: dict[int, Formula] = {}

    def decode(f: int) -> Formula:
        out = cache.get(f)
        if out is None:
            kind, rest = divmod(f, n3)
            x, rest = divmod(rest, n * n)
            y, z = divmod(rest, n)
            out = cache[f] = Formula(DELTA if kind == 0 else NABLA, names[x], names[y], names[z])
        return out

    formulas = frozenset(map(decode, sat.formulas))
    # Every entry of an edge is in F*, so it is in the cache already.
    make, get = Operator._make, cache.__getitem__
    edges = frozenset([make(map(get, e)) for e in sat.edges])
    return Closure(
        formulas,
        edges,
        frozenset(map(decode, sat.dropped_rot)),
        frozenset(map(decode, sat.dropped_concl)),
    )
