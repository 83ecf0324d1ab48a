"""Congruence closure over hash-consed ground terms (union-find + signature table + use lists).

Seed 000's ``CalculateEquivalenceRelation`` collects every distinct ground subterm of the
current term, unions the two sides of every ground ``equiv(a,b)``, then merges compound
terms with the same signature ``(constructor, arity, child classes)`` until nothing changes.
The original repeats a full pass over all terms until a fixpoint (quadratic or worse).
This module computes the same relation with the classic algorithm (Downey-Sethi-Tarjan /
Nelson-Oppen, organised like egg's ``EGraph::rebuild``):

* **Union-find** over dense term indices, with path halving; a union keeps as root the
  class with the longer *use list*, so the smaller list is the one that moves.
* **Use lists**: for every class root, the compound terms that have a child in the class.
  When a class stops being a root, exactly its use list holds the terms whose signature
  changed; they go onto a *pending* list.
* **Signature table**: ``(name, child roots...) -> term``; the entries of the terms added
  before the first union are implicit (found through hash-consing, see ``_lookup``), so the
  bulk build stores no key per term.  ``rebuild`` re-canonicalises each pending term;
  meeting a different class under the same signature means the two are congruent, so they
  are unioned (which may queue more pending terms).  Entries keyed by a non-root are stale
  but harmless: lookups always use roots.

Each term is re-signatured only when one of its children's classes is the smaller side of a
union, so the total work is ``O(A log n)`` signature computations for total arity ``A``
(near ``O(n log n)``), instead of a pass over every term per round.

Classes are kept as circular linked lists of members, so listing a class costs its size and
a union splices two lists in O(1).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain, islice
from operator import attrgetter

from core.search import NO_WATCH, Watch
from core.termcraft.terms import COMPOUND, Term, lookup

__all__ = ["CongruenceClosure", "ground_subterms"]

_by_id = attrgetter("id")
_args_of = attrgetter("args")

POLL = 4096
"""Long loops here poll their :class:`~core.search.Watch` once every this many steps."""


def ground_subterms(roots: Iterable[Term], watch: Watch = NO_WATCH) -> list[Term]:
    """List the distinct ground subterms of ``roots``, children before parents.

    A non-ground node is skipped but its ground descendants are included.

    Args:
        roots: The terms to scan.
        watch: Polled every few thousand steps (may raise ``Interrupted``).

    Returns:
        Every distinct ground subterm once, children before parents (by term id).
    """
    # A child is always built before its parent, so term ids are a topological order:
    # collect with a plain DFS, then sort by id (cheaper than an explicit post-order).
    seen: set[int] = set()
    found: list[Term] = []
    stack = list(roots)
    pop, push, add = stack.pop, stack.extend, seen.add
    steps = 0
    while stack:
        t = pop()
        if t.id in seen:
            continue
        add(t.id)
        if t.ground:
            found.append(t)
        push(t.args)
        steps += 1
        if not steps % POLL:
            watch.poll("collect", steps, 0)
    found.sort(key=_by_id)
    return found


class CongruenceClosure:
    """The congruence closure of a set of ground terms and equations between them.

    Build it once; then query :meth:`find`, :meth:`same`, :meth:`class_of`, :meth:`classes`.
    :meth:`union` followed by :meth:`rebuild` adds equations incrementally.

    Args:
        terms: Terms whose distinct ground subterms make up the universe.
        equations: Pairs of ground terms to identify; their subterms are added to the
            universe if missing.
        watch: Polled during the build (it may raise ``Interrupted``: then the closure is
            unusable and should be dropped).
    """

    __slots__ = (
        "_count",
        "_fresh",
        "_index",
        "_kids",
        "_next",
        "_parent",
        "_pending",
        "_table",
        "_unions",
        "_use",
        "terms",
    )

    def __init__(
        self,
        terms: Iterable[Term] = (),
        equations: Iterable[tuple[Term, Term]] = (),
        watch: Watch = NO_WATCH,
    ):
        self.terms: list[Term] = []
        """Every term of the universe, by dense index."""
        self._index: dict[int, int] = {}  # term id -> dense index
        self._kids: list[tuple[int, ...]] = []  # dense children indices, by dense index
        self._parent: list[int] = []  # union-find forest
        self._use: list[list[int]] = []  # root -> parents having a child in the class
        self._next: list[int] = []  # circular member lists
        self._count: list[int] = []  # root -> class size
        self._fresh = 0  # terms [0, _fresh) were added before any union
        self._table: dict[tuple, int] = {}  # signature -> a term with it (see _lookup)
        self._pending: list[int] = []  # terms whose signature may have changed
        self._unions = 0
        equations = list(equations)
        for a, b in equations:
            if not (a.ground and b.ground):
                raise ValueError("congruence closure only relates ground terms")
        self.add_all(list(terms) + [t for pair in equations for t in pair], watch)
        index = self._index
        for a, b in equations:  # both sides are in the universe now: no add_all per pair
            self._union(index[a.id], index[b.id])
        self.rebuild(watch)

    # -- building -------------------------------------------------------------------------
    def add_all(self, roots: Iterable[Term], watch: Watch = NO_WATCH) -> None:
        """Add the distinct ground subterms of ``roots`` to the universe.

        Args:
            roots: Terms to add (non-ground parts are skipped).
            watch: Polled every few thousand terms.
        """
        index = self._index
        new = ground_subterms([r for r in roots if r.id not in index], watch)
        if index:
            new = [t for t in new if t.id not in index]
        if not new:
            return
        terms, use = self.terms, self._use
        n0, n1 = len(terms), len(terms) + len(new)
        # Bulk-extend the per-term arrays (C-level loops): every new term is its own root,
        # alone in its circular member list, with an empty use list.
        terms.extend(new)
        index.update(zip(map(_by_id, new), range(n0, n1)))
        self._parent.extend(range(n0, n1))
        self._next.extend(range(n0, n1))
        self._count.extend([1] * (n1 - n0))
        use.extend([[] for _ in range(n0, n1)])
        # Dense children, read once here (every later pass over the edges - use lists,
        # rebuild, position counts - then reads small tuples instead of term ids and the
        # index dict): all children's indices in one C-level pass, cut per term by arity.
        # Children are ground and built before their parent, so they already have an index.
        arities = list(map(len, map(_args_of, new)))
        flat = iter(
            list(map(index.__getitem__, map(_by_id, chain.from_iterable(map(_args_of, new)))))
        )
        kids = [tuple(islice(flat, n)) if n else () for n in arities]
        self._kids.extend(kids)
        watch.poll("closure", 0, n1 - n0)
        # A use list belongs to a class root: before any union every term is one.
        find, fresh = self._find, self._unions == 0
        i = n0
        for ks in kids:
            for k in ks:  # a repeated child is listed twice: harmless
                use[k if fresh else find(k)].append(i)
            i += 1
            if not i % POLL:
                watch.poll("closure", i - n0, n1 - n0)
        if self._unions == 0:
            # Before any union the signature table needs no entries: every term is its own
            # root, and the term with signature (name, child roots) is the hash-consed term
            # name(child terms) itself, which _lookup finds without a table (no key to build
            # and keep per term; distinct hash-consed terms cannot collide either).
            self._fresh = n1
            return
        find, table = self._find, self._table
        for t, i, ks in zip(new, range(n0, n1), kids):
            if ks:
                sig = (t.name,) + tuple([find(k) for k in ks])
                other = self._lookup(sig)
                if other is None:
                    table[sig] = i
                elif find(other) != find(i):
                    self._pending.append(i)  # congruent to an existing term: rebuild merges

    def _lookup(self, sig: tuple) -> int | None:
        """The term recorded under signature ``sig`` = (name, child root indices), if any.

        The table holds the entries made after the first union, plus, implicitly, the
        signature of every term added before it: (name, its children's indices).  Such a
        term is the hash-consed ``name(terms[roots]...)``, which :func:`lookup` finds.
        """
        q = self._table.get(sig)
        if q is None:
            terms = self.terms
            u = lookup(COMPOUND, sig[0], tuple([terms[r] for r in sig[1:]]))
            if u is not None:
                q = self._index.get(u.id)
                if q is not None and q >= self._fresh:
                    q = None  # added after a union: only its explicit entry counts
        return q

    def _find(self, i: int) -> int:
        parent = self._parent
        while parent[i] != i:
            parent[i] = parent[parent[i]]  # path halving
            i = parent[i]
        return i

    def _union(self, a: int, b: int) -> bool:
        ra, rb = self._find(a), self._find(b)
        if ra == rb:
            return False
        use = self._use
        ua, ub = use[ra], use[rb]
        if len(ua) > len(ub):  # the root keeps the longer use list; the shorter one moves
            ra, rb, ua, ub = rb, ra, ub, ua
        self._parent[ra] = rb
        self._count[rb] += self._count[ra]
        nxt = self._next
        nxt[ra], nxt[rb] = nxt[rb], nxt[ra]  # splice the circular member lists
        self._pending.extend(ua)  # their signatures mention ra, which is no longer a root
        ub.extend(ua)
        use[ra] = None  # type: ignore[call-overload]  # a non-root keeps no use list
        self._unions += 1
        return True

    def union(self, a: Term, b: Term) -> bool:
        """Declare ``a`` and ``b`` equal (call :meth:`rebuild` before querying).

        Args:
            a: A ground term (added to the universe if missing).
            b: Another ground term.

        Returns:
            True when two different classes were merged.
        """
        if not (a.ground and b.ground):
            raise ValueError("congruence closure only relates ground terms")
        index = self._index
        if a.id not in index or b.id not in index:
            self.add_all((a, b))
        return self._union(index[a.id], index[b.id])

    def rebuild(self, watch: Watch = NO_WATCH) -> None:
        """Restore congruence: merge terms whose signatures became equal (egg's rebuild).

        Args:
            watch: Polled every few thousand re-signatured terms.
        """
        pending, table, terms, kids = self._pending, self._table, self.terms, self._kids
        parent, find, lookup_sig, union = self._parent, self._find, self._lookup, self._union
        steps = 0
        while pending:
            p = pending.pop()
            # Each child's root: most children point straight at their root (no call).
            sig = (terms[p].name,) + tuple(
                [r if parent[r := parent[k]] == r else find(k) for k in kids[p]]
            )
            q = table.get(sig)
            if q is None:
                q = lookup_sig(sig)
                if q is None:
                    table[sig] = p
                    continue
            if find(q) != find(p):
                union(p, q)
            steps += 1
            if not steps % POLL:
                watch.poll("closure", steps, 0)

    # -- queries --------------------------------------------------------------------------
    @property
    def kids(self) -> list[tuple[int, ...]]:
        """Dense child indices of every term, by dense index (read-only: do not modify)."""
        return self._kids

    def parents(self, term: Term) -> list[int]:
        """Dense indices of the terms having a child in ``term``'s class (may repeat).

        Args:
            term: A term of the universe.

        Returns:
            The class's use list (a superset of the terms having ``term`` as a child).
        """
        return self._use[self._find(self._index[term.id])]

    def ancestors(self, seeds: Iterable[int]) -> set[int]:
        """Dense indices of ``seeds`` and of every term having one of them below it.

        Exact before any union; afterwards a superset (use lists are kept per class).

        Args:
            seeds: Dense indices of terms of the universe.

        Returns:
            The seeds and their ancestors in the universe.
        """
        use, find = self._use, self._find
        out = set(seeds)
        stack = list(out)
        while stack:
            for p in use[find(stack.pop())]:
                if p not in out:
                    out.add(p)
                    stack.append(p)
        return out

    @property
    def index_map(self) -> dict[int, int]:
        """Term id -> dense index (read-only: do not modify)."""
        return self._index

    def __contains__(self, term: Term) -> bool:
        return term.id in self._index

    def __len__(self) -> int:
        return len(self.terms)

    def index_of(self, term: Term) -> int:
        """Dense index of ``term`` (KeyError when it is not in the universe)."""
        return self._index[term.id]

    def root_indices(self) -> list[int]:
        """The class root index of every term, by dense index (one pass, O(n α))."""
        find, parent = self._find, self._parent
        # The root of i is the root of parent[i]; most terms are alone in their class (or
        # point straight at their root), which this answers without a call.
        return [p if parent[p] == p else find(p) for p in parent]

    def find(self, term: Term) -> Term:
        """Return the representative of ``term``'s class (``term`` itself when unknown).

        Args:
            term: Any term.

        Returns:
            One fixed member of the class.
        """
        i = self._index.get(term.id)
        return term if i is None else self.terms[self._find(i)]

    def same(self, a: Term, b: Term) -> bool:
        """Tell whether ``a`` and ``b`` are in the same class (a term is always equal to itself).

        Args:
            a: A term.
            b: A term.

        Returns:
            True when equivalent.
        """
        if a is b:
            return True
        ia, ib = self._index.get(a.id), self._index.get(b.id)
        return ia is not None and ib is not None and self._find(ia) == self._find(ib)

    def _members(self, root: int) -> Iterator[int]:
        nxt = self._next
        i = root
        while True:
            yield i
            i = nxt[i]
            if i == root:
                return

    def class_of(self, term: Term) -> tuple[Term, ...]:
        """Return the members of ``term``'s class, in the order terms were added.

        Args:
            term: Any term; one outside the universe is alone in its class.

        Returns:
            The members (``term`` included).
        """
        i = self._index.get(term.id)
        if i is None:
            return (term,)
        terms = self.terms
        return tuple(terms[j] for j in sorted(self._members(self._find(i))))

    @property
    def sizes(self) -> list[int]:
        """Class sizes by dense index, meaningful at class roots (read-only: do not modify)."""
        return self._count

    def class_size(self, term: Term) -> int:
        """Number of members of ``term``'s class (1 for a term outside the universe)."""
        i = self._index.get(term.id)
        return 1 if i is None else self._count[self._find(i)]

    def classes(self) -> list[tuple[Term, ...]]:
        """Return every class, each as its members in insertion order, classes ordered by
        their first member.

        Returns:
            The partition of the universe.
        """
        groups: dict[int, list[Term]] = {}
        terms = self.terms
        for i, r in enumerate(self.root_indices()):
            groups.setdefault(r, []).append(terms[i])
        return [tuple(g) for g in groups.values()]
