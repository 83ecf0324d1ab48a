"""An admissible lower bound on the time steps a Carving state still needs to win.

**The argument.** A step either keeps its new edge (no legal elimination path: E'' = E_t ∪
{e_new}) or eliminates, and an elimination removes e_new with the rest of P* (Φ_inc), so it
adds nothing. Call the first kind an *add* step and the second a *cut* step. Every edge of
the component C that finally matches the target H* is either present now and never removed
(an *old* edge) or added later by an add step of its own. The old edges of C keep their
vertex sets, and C's vertices correspond one to one to H*'s, so the old edges form a common
sub-hypergraph of the current hypergraph and H*: an injective vertex map φ and an injective
edge map with V(ψ(e)) = φ(V(e)). Hence

    steps still needed ≥ |E(H*)| − MCS,

MCS being the most edges such a common sub-hypergraph can have; and a state that is not won
needs at least one step. :func:`common_edges` computes MCS exactly by branch and bound over
the current vertex-set classes (parallel edges share a class and map to one target class);
when that search would pass its node cap it returns an upper bound instead (per edge size,
what the classes could give, capped by the target's edges of that size: the vertex map
ignored), which keeps the bound admissible. Every node is charged to the caller's work
budget. Both
numbers can only fall when edges are removed, so a cut step never lowers the bound, and an
add step lowers it by one at most: :class:`~core.carving.solver` uses that to skip whole
families of successors.

The bound is cheap next to an expansion and exact on the examples in the tests; it ignores
reachability (where new edges may go) and which edges a cut can remove.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from functools import lru_cache

from core.search import NO_WATCH, Watch

from .formula import Operator
from .level import Target
from .paths import graph_of
from .state import State

__all__ = ["NODE_CAP", "Bounds", "common_edges", "lower_bound", "target_classes"]

NODE_CAP = 4_000
"""Branch-and-bound nodes :func:`common_edges` visits before it settles for an upper bound."""

Classes = tuple[tuple[tuple[int, ...], int], ...]
"""Vertex-set classes: (sorted vertex ids, multiplicity), largest sets first."""


def _classes(edges: list[tuple[int, ...]]) -> Classes:
    counted = Counter(tuple(sorted(set(e))) for e in edges)
    # Larger sets, then larger multiplicities first: they score most, so the bound bites early.
    return tuple(sorted(counted.items(), key=lambda item: (-len(item[0]), -item[1], item[0])))


@lru_cache(maxsize=32)
def target_classes(target: Target) -> Classes:
    """The target's vertex-set classes, vertices as indices into ``target.vertices``.

    Args:
        target: The level's H*.

    Returns:
        ``(vertex indices, multiplicity)`` per class, largest sets first.
    """
    index = {v: i for i, v in enumerate(target.vertices)}
    return _classes([tuple(index[v] for v in e) for e in target.edges])


class _Common:
    """Branch and bound for the largest common sub-hypergraph (counted in edges).

    Args:
        mine: The current classes.
        theirs: The target's classes.
        cap: Nodes before giving up (:class:`OverflowError`).
        at_least: A score known to be reachable (only better ones are looked for).
        must: Index of a class that must be mapped (None: any may be left out).
        watch: Charged one unit per node (the solver's work budget).
    """

    def __init__(
        self,
        mine: Classes,
        theirs: Classes,
        cap: int,
        at_least: int,
        must: int | None,
        watch: Watch = NO_WATCH,
    ):
        self.mine, self.theirs, self.cap, self.must = mine, theirs, cap, must
        self.watch = watch
        self.nodes = 0
        self.best = at_least
        self.phi: dict[int, int] = {}  # current vertex -> target vertex
        self.image: set[int] = set()
        self.used = [False] * len(theirs)
        # The bound of a node: per size, the edges the classes still to place could give
        # (each capped by the largest target class of its size), but no more than the
        # unused target classes of that size hold.
        top = Counter[int]()
        self.avail = Counter[int]()
        for t, nu in theirs:
            top[len(t)] = max(top[len(t)], nu)
            self.avail[len(t)] += nu
        self.sizes = sorted(self.avail)
        self.totals = dict(self.avail)
        self.suffix: list[Counter[int]] = [Counter() for _ in range(len(mine) + 1)]
        for k in range(len(mine) - 1, -1, -1):
            s, mu = mine[k]
            self.suffix[k] = self.suffix[k + 1].copy()
            self.suffix[k][len(s)] += min(mu, top[len(s)])

    @property
    def best_hope(self) -> int:
        """The root's bound: per size, what the classes could give, capped by the target."""
        return sum(min(self.suffix[0][k], n) for k, n in self.totals.items())

    def _hope(self, i: int) -> int:
        rest, avail = self.suffix[i], self.avail
        return sum(min(rest[k], avail[k]) for k in self.sizes)

    def run(self, i: int = 0, score: int = 0) -> None:
        self.nodes += 1
        self.watch.spend()
        if self.nodes > self.cap:
            raise OverflowError
        if score > self.best and (self.must is None or self.must < i):
            self.best = score
        if i == len(self.mine) or score + self._hope(i) <= self.best:
            return
        s, mu = self.mine[i]
        for j, (t, nu) in enumerate(self.theirs):
            if not self.used[j] and len(t) == len(s):
                self.used[j] = True
                self.avail[len(t)] -= nu
                for _ in self._bijections(s, 0, t):  # φ holds the extension meanwhile
                    self.run(i + 1, score + min(mu, nu))
                self.avail[len(t)] += nu
                self.used[j] = False
        if i != self.must:
            self.run(i + 1, score)  # class i keeps none of its edges in C

    def _bijections(self, s: tuple[int, ...], k: int, t: tuple[int, ...]) -> Iterator[None]:
        """Extend φ so that φ(s) = t, once per way; each is undone when the caller resumes."""
        if k == len(s):
            yield None
            return
        v = s[k]
        if v in self.phi:
            if self.phi[v] in t:
                yield from self._bijections(s, k + 1, t)
            return
        for w in t:
            if w in self.image:
                continue
            self.phi[v] = w
            self.image.add(w)
            yield from self._bijections(s, k + 1, t)
            del self.phi[v]
            self.image.discard(w)


def common_edges(
    verts: list[tuple[int, ...]],
    target: Target,
    cap: int = NODE_CAP,
    *,
    parent: int | None = None,
    added: tuple[int, ...] | None = None,
    watch: Watch = NO_WATCH,
) -> tuple[int, bool]:
    """MCS: the most edges of ``verts`` that can be edges of ``target`` under one vertex map.

    Args:
        verts: V(e) of each current edge, as vertex ids (parallel edges repeated).
        target: H*.
        cap: Search nodes before settling for the matching bound (an upper bound on MCS).
        parent: The exact MCS of ``verts`` without the edge ``added`` (reuse: a common
            sub-hypergraph larger than the parent's must map the new edge's class, so only
            those are searched, and only for more than ``parent`` edges).
        added: V(e) of the edge added to the parent's edges (with ``parent``).
        watch: Charged one unit per search node.

    Returns:
        ``(value, exact)``: MCS and True, or an upper bound on it and False when the search
        would take more than ``cap`` nodes.
    """
    mine, theirs = _classes(verts), target_classes(target)
    must = None
    if parent is not None and added is not None:
        key = tuple(sorted(set(added)))
        at = next(i for i, (s, _) in enumerate(mine) if s == key)
        # Placed first, the new edge's class constrains φ from the start.
        mine, must = (mine[at], *mine[:at], *mine[at + 1 :]), 0
    search = _Common(mine, theirs, cap, parent or 0, must, watch)
    try:
        search.run()
    except OverflowError:
        return search.best_hope, False
    return search.best, True


Verts = tuple[tuple[int, ...], ...]


class Bounds:
    """:func:`lower_bound` and :func:`missing_edges` for one search, with its own cache.

    The cache lives as long as the search, so what a search spends on bounds (charged to
    its watch) does not depend on what other searches computed before it.

    Args:
        watch: Charged one unit per branch-and-bound node.
    """

    def __init__(self, watch: Watch = NO_WATCH):
        self.watch = watch
        self._known: dict[Verts, tuple[int, bool]] = {}

    def _mcs(self, verts: Verts, target: Target) -> tuple[int, bool]:
        found = self._known.get(verts)
        if found is None:
            found = self._known[verts] = common_edges(list(verts), target, watch=self.watch)
        return found

    def common_edges_of(self, verts: Verts, target: Target) -> int:
        """MCS of the edge sets ``verts`` (sorted), or an upper bound on it past the node cap.

        Args:
            verts: V(e) per edge, sorted as :func:`_edge_sets` sorts them.
            target: H*.

        Returns:
            The number (cached for the search's life).
        """
        return self._mcs(verts, target)[0]

    def _mcs_after(
        self, verts: Verts, target: Target, before: Verts, added: tuple[int, ...]
    ) -> int:
        """MCS of ``verts`` = ``before`` plus ``added``, reusing the MCS of ``before``."""
        found = self._known.get(verts)
        if found is not None:
            return found[0]
        value, exact = self._mcs(before, target)
        if not exact:
            return self._mcs(verts, target)[0]
        found = common_edges(list(verts), target, parent=value, added=added, watch=self.watch)
        self._known[verts] = found
        return found[0]

    def missing_edges(self, state: State) -> int:
        """|E(H*)| − MCS: the target edges no edge present now can become (each to be added
        by a step of its own). It never falls when edges are removed and falls by one at
        most when one is added, so a child can be won only when it is 0 (a cut) or at most 1
        (an add).

        Args:
            state: Any state (its current edges are used).

        Returns:
            The number.
        """
        target = state.level.target
        return len(target.edges) - self._mcs(_edge_sets(state), target)[0]

    def lower_bound(
        self, state: State, parent: State | None = None, added: Operator | None = None
    ) -> int:
        """Time steps still needed to win from ``state``, never more than the true number.

        Args:
            state: Any state.
            parent: A state whose edges are ``state``'s minus ``added`` (reuse: its MCS is
                the starting point, and only common sub-hypergraphs using the new edge are
                searched).
            added: The edge ``state`` has more than ``parent``.

        Returns:
            0 for a won state; for a lost one a number larger than any plan; else
            max(1, |E(H*)| − MCS) (see the module docstring), plus one in the
            ``succession`` phase, whose step is yet to be counted.
        """
        if state.phase == "won":
            return 0
        if state.phase == "lost":
            return 1 << 30
        target = state.level.target
        verts = _edge_sets(state)
        if parent is not None and added is not None:
            before = _edge_sets(parent)
            common = self._mcs_after(verts, target, before, state.world.verts_of(added))
        else:
            common = self._mcs(verts, target)[0]
        extra = 1 if state.phase == "succession" else 0
        return max(len(target.edges) - common, 1) + extra


def _edge_sets(state: State) -> Verts:
    graph = graph_of(state.world, state.tree, state.virtual)
    return tuple(sorted(graph.verts))


def lower_bound(state: State) -> int:
    """:meth:`Bounds.lower_bound` of one state (no budget, no cache kept).

    Args:
        state: Any state.

    Returns:
        A lower bound on the time steps still needed to win (0 when won).
    """
    return Bounds().lower_bound(state)
