"""Matching patterns against the classes of a congruence closure, and counting positions.

A rewrite engine working *modulo* a congruence needs, for a pattern ``p`` and every class
``c`` of a :class:`~core.termcraft.closure.CongruenceClosure`, the distinct substitutions under which
``p`` matches some member of ``c``.  :func:`class_matches` computes them with each member
matched at most once per pattern: candidates come from a :class:`HeadIndex` (terms grouped
by the heads the patterns need), are narrowed by the pattern's ground arguments (through
the closure's parent lists, an identity test thanks to hash-consing) and its compound
arguments' heads, and patterns whose arguments are all variables skip the general matcher.

:func:`class_positions` counts, for every class, how many positions of a term hold a member
of it (without walking the positions: counts flow down the term's DAG of distinct
subterms), so that the number of (pattern, position, substitution) triples is a sum over
classes, never an enumeration.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter

from core.search import NO_WATCH, Watch
from core.termcraft.closure import POLL, CongruenceClosure
from core.termcraft.terms import VAR, Term, free_vars, match, substitute, var

__all__ = [
    "HeadIndex",
    "Matches",
    "Substitution",
    "canonical_pattern",
    "class_match_counts",
    "class_matches",
    "class_positions",
]

Substitution = tuple[tuple[str, Term], ...]
"""A substitution as ``((variable name, term), ...)`` sorted by variable name."""

Matches = dict[int, dict[Substitution, Term]]
"""Class root -> {substitution: the first member (in universe order) that gives it}."""

_first = itemgetter(0)

_NARROW_FROM = 8
"""Narrowing candidates through a ground argument's parents pays off from this many on."""


class HeadIndex:
    """Dense indices of a closure's terms grouped by head ``(kind, name, arity)``.

    Only the heads of the given patterns are indexed (one pass over the universe, one dict
    probe per term), instead of grouping every term by its head.

    Args:
        closure: The closure whose universe is indexed.
        patterns: The patterns that will be matched (variables and ground ones need no
            head and are skipped).
        watch: Polled every few thousand terms.
    """

    def __init__(
        self, closure: CongruenceClosure, patterns: Sequence[Term], watch: Watch = NO_WATCH
    ):
        compounds = [p for p in patterns if p.kind != VAR and not p.ground]
        terms = closure.terms
        by_name: dict[str, list[int]] = {p.name: [] for p in compounds}
        get = by_name.get
        for i, t in enumerate(terms):
            lst = get(t.name)
            if lst is not None:
                lst.append(i)
            if not i % POLL:
                watch.poll("index", i, len(terms))
        self._heads: dict[tuple[int, str, int], list[int]] = {}
        for p in compounds:
            key = (p.kind, p.name, len(p.args))
            if key not in self._heads:
                kind, n = p.kind, len(p.args)
                self._heads[key] = [
                    i for i in by_name[p.name] if terms[i].kind == kind and len(terms[i].args) == n
                ]

    def candidates(self, pattern: Term, closure: CongruenceClosure) -> Sequence[int]:
        """Dense indices of the terms that can match ``pattern`` (a superset), ascending.

        Args:
            pattern: A pattern given to the constructor.
            closure: The indexed closure.

        Returns:
            Every term for a variable; the pattern itself for a ground pattern; otherwise
            the terms of the pattern's head, narrowed by its ground and compound arguments.
        """
        terms, index = closure.terms, closure.index_map
        if pattern.kind == VAR:
            return range(len(terms))
        if pattern.ground:  # a ground pattern matches only itself
            return (index[pattern.id],) if pattern.id in index else ()
        found: Sequence[int] = self._heads[(pattern.kind, pattern.name, len(pattern.args))]
        name, n = pattern.name, len(pattern.args)
        for j, arg in enumerate(pattern.args):
            if not arg.ground or len(found) < _NARROW_FROM:
                continue
            if arg.id not in index:  # that argument occurs nowhere: nothing matches
                return ()
            users = closure.parents(arg)
            if len(users) < len(found):
                # Hash-consing: "arg is the j-th child" is an identity test.
                found = sorted(
                    {
                        i
                        for i in users
                        if len(terms[i].args) == n
                        and terms[i].args[j] is arg
                        and terms[i].name == name
                    }
                )
        # A compound argument with variables (h(var(X), f(var(Y)))): keep only the terms
        # with that argument's head there, before the general matcher.
        for j, p in enumerate(pattern.args):
            if p.kind != VAR and not p.ground:
                name, n, kind = p.name, len(p.args), p.kind
                found = [
                    i
                    for i in found
                    if terms[i].args[j].name == name
                    and len(terms[i].args[j].args) == n
                    and terms[i].args[j].kind == kind
                ]
        return found


def class_matches(
    pattern: Term,
    closure: CongruenceClosure,
    roots: Sequence[int],
    heads: HeadIndex,
    watch: Watch = NO_WATCH,
) -> Matches:
    """The distinct substitutions under which ``pattern`` matches members of each class.

    Args:
        pattern: The pattern (e.g. a rule's left-hand side).
        closure: The closure.
        roots: The class root of every term, by dense index (``closure.root_indices()``).
        heads: A head index of ``closure`` built with ``pattern`` among its patterns.
        watch: Polled every few thousand candidates.

    Returns:
        Class root -> {substitution: first member giving it}, for the classes with a match.
    """
    terms = closure.terms
    found: Matches = {}
    keys_of = _key_reader(pattern)
    candidates = heads.candidates(pattern, closure)
    for start in range(0, len(candidates), POLL):  # chunks: the keys are read in bulk
        chunk = candidates[start : start + POLL] if len(candidates) > POLL else candidates
        for i, key in zip(chunk, keys_of([terms[i] for i in chunk])):
            if key is not None:
                subs = found.get(roots[i])
                if subs is None:
                    found[roots[i]] = {key: terms[i]}
                elif key not in subs:
                    subs[key] = terms[i]
        watch.poll("match", start, len(candidates))
    return found


@lru_cache(maxsize=1024)  # per pattern: rules recur from state to state
def _key_reader(pattern: Term) -> Callable[[list[Term]], list[Substitution | None]]:
    """A function giving the substitution (or None) of ``pattern`` for each of a list of
    candidates of its head: list comprehensions for the common shapes (one call per chunk
    instead of one per candidate), the general matcher otherwise."""
    if pattern.kind == VAR:
        only = pattern.name
        return lambda ts: [((only, t),) for t in ts]
    reader = _argument_reader(pattern)
    if reader is None:
        return lambda ts: [_general_key(pattern, t) for t in ts]
    names = sorted({a.name for a in pattern.args})
    if len(names) == 1 and len(pattern.args) == 1:
        only = names[0]
        return lambda ts: [((only, t.args[0]),) for t in ts]
    if len(names) == 2 == len(pattern.args):  # f(var(X), var(Y)), the commonest shape
        (n0, j0), (n1, j1) = sorted((a.name, j) for j, a in enumerate(pattern.args))
        return lambda ts: [((n0, t.args[j0]), (n1, t.args[j1])) for t in ts]
    return lambda ts: [reader(t) for t in ts]


def class_match_counts(
    pattern: Term,
    closure: CongruenceClosure,
    roots: Sequence[int],
    heads: HeadIndex,
    watch: Watch = NO_WATCH,
) -> dict[int, int]:
    """How many distinct substitutions ``pattern`` has in each class (no substitution kept).

    Same answer as ``{root: len(subs) for root, subs in class_matches(...).items()}``, with
    far less allocation: a member alone in its class contributes one substitution if it
    matches, and only classes with several members keep their keys to de-duplicate them.

    Args:
        pattern: The pattern.
        closure: The closure.
        roots: The class root of every term, by dense index.
        heads: A head index of ``closure`` built with ``pattern`` among its patterns.
        watch: Polled every few thousand candidates.

    Returns:
        Class root -> number of distinct substitutions, for the classes with a match.
    """
    terms, sizes = closure.terms, closure.sizes
    counts: dict[int, int] = {}
    shared: dict[int, set] = {}  # class root -> keys seen, for classes of several members
    reader = _argument_reader(pattern)
    # var(X) or f(var(X), var(Y)) with distinct variables: every candidate matches.
    always = reader is not None and (
        pattern.kind == VAR or len(free_vars(pattern)) == len(pattern.args)
    )
    for step, i in enumerate(heads.candidates(pattern, closure), 1):
        r = roots[i]
        if always and sizes[r] == 1:
            counts[r] = 1
        else:
            t = terms[i]
            key = reader(t) if reader is not None else _general_key(pattern, t)
            if key is not None:
                if sizes[r] == 1:
                    counts[r] = 1
                else:
                    seen = shared.setdefault(r, set())
                    if key not in seen:
                        seen.add(key)
                        counts[r] = len(seen)
        if not step % POLL:
            watch.poll("match", step, 0)
    return counts


def canonical_pattern(pattern: Term) -> Term:
    """``pattern`` with its variables renamed ``_0``, ``_1``... in order of first occurrence
    (pre-order): patterns equal up to renaming get the same term, and the same match counts.

    Args:
        pattern: A pattern.

    Returns:
        The renamed pattern (``pattern`` itself when ground).
    """
    if pattern.ground:
        return pattern
    names: dict[str, Term] = {}
    stack = [pattern]
    while stack:  # pre-order, iterative
        t = stack.pop()
        if t.kind == VAR:
            if t.name not in names:
                names[t.name] = var(f"_{len(names)}")
        elif not t.ground:
            stack.extend(reversed(t.args))
    return substitute(pattern, names)


def _general_key(pattern: Term, t: Term) -> Substitution | None:
    sigma = match(pattern, t)
    if sigma is None:
        return None
    return tuple(sorted(sigma.items(), key=_first))


@lru_cache(maxsize=1024)
def _argument_reader(pattern: Term):
    """For ``var(X)`` or ``f(var(X), var(Y), var(X)...)`` (every argument a variable): a
    function reading the substitution straight off a candidate (None for other patterns).

    A candidate of the right head matches iff the arguments under a repeated variable are
    the same term (hash-consed: identity), so no general matching is needed.
    """
    if pattern.kind == VAR:  # matches every term, binding it whole
        only = pattern.name
        return lambda t: ((only, t),)
    if not pattern.args or any(a.kind != VAR for a in pattern.args):
        return None
    first: dict[str, int] = {}
    for j, a in enumerate(pattern.args):
        first.setdefault(a.name, j)
    names = sorted(first)  # substitutions are sorted by variable name
    order = [first[name] for name in names]
    repeats = [(j, first[a.name]) for j, a in enumerate(pattern.args) if first[a.name] != j]
    if len(names) == 1 and not repeats:
        name, j0 = names[0], order[0]
        return lambda t: ((name, t.args[j0]),)

    def read(t: Term) -> Substitution | None:
        args = t.args
        for j, f in repeats:
            if args[j] is not args[f]:
                return None
        return tuple(zip(names, [args[j] for j in order]))

    return read


def class_positions(
    term: Term, closure: CongruenceClosure, roots: Sequence[int], watch: Watch = NO_WATCH
) -> dict[int, int]:
    """How many positions of ``term`` hold a member of each class.

    Counts flow from the root down the DAG of distinct subterms (a subterm occurs as often
    as the sum of its parents' occurrences, once per argument slot), so the cost is linear
    in the distinct subterms however many positions there are (they can be exponentially
    many when subterms are shared).

    Args:
        term: The term whose positions are counted; its ground subterms must all be in
            ``closure`` (as in a TermCraft analysis).
        closure: The closure.
        roots: The class root of every term, by dense index.
        watch: Polled every few thousand terms.

    Returns:
        Class root -> number of positions (classes with none are absent).
    """
    index, kids = closure.index_map, closure.kids
    occ = [0] * len(kids)
    if term.ground:
        occ[index[term.id]] = 1
    else:
        _spread_non_ground(term, occ, index, watch)
    # Dense indices are a topological order (a child's is always smaller than its
    # parent's), so one descending pass hands every count down to the children.
    for i in range(len(occ) - 1, -1, -1):
        c = occ[i]
        if c:
            for k in kids[i]:
                occ[k] += c
        if not i % POLL:
            watch.poll("positions", len(occ) - i, len(occ))
    counts: dict[int, int] = {}
    cget = counts.get
    for r, c in zip(roots, occ):
        if c:
            counts[r] = cget(r, 0) + c
    return counts


def _spread_non_ground(term: Term, occ: list[int], index: dict[int, int], watch: Watch) -> None:
    """Hand the occurrences of the non-ground part of ``term`` down to its ground children."""
    seen: dict[int, Term] = {}
    stack = [term]
    while stack:  # the distinct non-ground subterms (ground ones hold no variable: skipped)
        t = stack.pop()
        if t.id not in seen:
            seen[t.id] = t
            stack.extend(a for a in t.args if not a.ground)
    counts = {term.id: 1}
    for step, t in enumerate(sorted(seen.values(), key=lambda u: -u.id), 1):
        c = counts.get(t.id, 0)
        for a in t.args:
            if a.ground:
                occ[index[a.id]] += c
            else:
                counts[a.id] = counts.get(a.id, 0) + c
        if not step % POLL:
            watch.poll("positions", step, len(seen))
