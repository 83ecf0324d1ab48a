"""The rewrite actions of a term: counted, listed lazily in engine order, or all at once.

An action is (rule, site, substitution): the rule's left-hand side matches a member of the
site's equivalence class under that substitution (seed 000 §3.3).  Engine order is rule
(pre-order of the rules' positions), then site (pre-order), then substitution: by the text
of the bound terms in variable-name order (ties between texts that agree on their first 64
characters are broken by where the terms first occur in the term, pre-order).

Everything goes through the classes, never through the actions:

1. **match**: each distinct left-hand side is matched once against the closure's classes
   (:func:`core.termcraft.matching.class_matches`), giving per class its distinct substitutions;
2. **count**: the actions of a rule number ``sum(substitutions(c) * positions(c))`` over
   the classes ``c`` it matches, where ``positions(c)`` counts the sites holding a member
   of ``c`` (:func:`core.termcraft.matching.class_positions`): near-linear in the term, however many
   actions there are;
3. **sites**: the sites of the matched classes in pre-order (:func:`core.termcraft.links.marked_positions`,
   skipping subtrees without a match);
4. **emit**: per site, its class's substitutions in order, one action each.

:meth:`RewriteMoves.iterate` is lazy: memory stays bounded by the term, whatever the number
of actions, and the first action comes after the first rule's matching and walk.  Small
terms (up to :data:`SHARED_WALK_MAX` positions) share one walk between all rules instead of
walking once per rule, which is what :meth:`RewriteMoves.all` always does.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from core.search import NO_WATCH, Watch, quiet_gc
from core.termcraft.closure import CongruenceClosure
from core.termcraft.links import collect_marked_links, marked_positions, path_of
from core.termcraft.matching import (
    HeadIndex,
    Matches,
    canonical_pattern,
    class_match_counts,
    class_matches,
    class_positions,
)
from core.termcraft.terms import Path, Term, short_str

from .analysis import Analysis, TermCache, analyze
from .state import RewriteAction, Rule, Substitution

__all__ = ["SHARED_WALK_MAX", "TEXT_KEY", "RewriteMoves", "moves_of"]

SHARED_WALK_MAX = 50_000
"""Terms with at most this many positions list their actions from one shared site table
(fast, memory linear in the sites); bigger ones walk once per rule (memory linear in the
depth)."""

TEXT_KEY = 64
"""Substitutions are ordered by the first this many characters of their terms' text."""

_new_tuple = tuple.__new__  # RewriteAction(...) without the NamedTuple constructor's call

_POLL = 4096


class RewriteMoves:
    """Everything needed to count and list the rewrite actions of one term.

    Parts are computed on first use and kept (the matches of the most recent left-hand
    side only, so memory stays linear in the term).  Fuel is not considered here.

    Args:
        term: The current term.
        analysis: Its analysis.
    """

    def __init__(self, term: Term, analysis: Analysis):
        self.term = term
        self.analysis = analysis
        self._roots: list[int] | None = None
        self._heads: HeadIndex | None = None
        self._positions: dict[int, int] | None = None
        self._ranks: dict[int, int] | None = None
        self._count: int | None = None
        self._rule_counts: dict[int, int] = {}  # LHS id -> its number of actions
        # LHS id -> its matches: all of them for a small term, else only the latest (the
        # matches of one LHS can be as big as the closure).
        self._matches: dict[int, Matches] = {}

    # -- parts ------------------------------------------------------------------------------
    @property
    def closure(self) -> CongruenceClosure:
        """The analysis's congruence closure."""
        return self.analysis.closure

    def roots(self) -> list[int]:
        """The class root of every closure term, by dense index."""
        if self._roots is None:
            self._roots = self.closure.root_indices()
        return self._roots

    def matches(self, lhs: Term, watch: Watch = NO_WATCH) -> Matches:
        """Class root -> {substitution: matched member} for a left-hand side (step 1)."""
        found = self._matches.get(lhs.id)
        if found is None:
            with quiet_gc(len(self.closure)):
                found = class_matches(lhs, self.closure, self.roots(), self.heads(watch), watch)
            if self.term.size > SHARED_WALK_MAX:
                self._matches.clear()  # and each class is sorted when first emitted
            else:  # small: sort every class now, in one loop (all will be emitted)
                key = self._substitution_key
                for root, subs in found.items():
                    found[root] = (
                        sorted(subs.items(), key=key)  # type: ignore[assignment]
                        if len(subs) > 1
                        else list(subs.items())
                    )
            self._matches[lhs.id] = found
        return found

    def heads(self, watch: Watch = NO_WATCH) -> HeadIndex:
        """The head index of the closure for the rules' left-hand sides."""
        if self._heads is None:
            with quiet_gc(len(self.closure)):
                self._heads = HeadIndex(self.closure, [r.lhs for r in self.analysis.rules], watch)
        return self._heads

    def positions(self, watch: Watch = NO_WATCH) -> dict[int, int]:
        """Class root -> the number of sites holding a member of the class."""
        if self._positions is None:
            with quiet_gc(len(self.closure)):
                self._positions = class_positions(self.term, self.closure, self.roots(), watch)
        return self._positions

    # -- counting ---------------------------------------------------------------------------
    def rule_count(self, rule: Rule, watch: Watch = NO_WATCH) -> int:
        """How many actions ``rule`` has (step 2; kept per left-hand side, so that paging
        through a long list skips earlier rules without matching them again)."""
        n = self._rule_counts.get(rule.lhs.id)
        if n is None:
            found = self.matches(rule.lhs, watch)
            sites = self.positions(watch) if found else {}
            n = sum([len(subs) * sites.get(root, 0) for root, subs in found.items()])
            self._rule_counts[rule.lhs.id] = n
        return n

    def count(self, watch: Watch = NO_WATCH) -> int:
        """How many rewrite actions the term has, without listing them.

        Args:
            watch: Polled throughout.

        Returns:
            The number of actions :meth:`iterate` would yield.
        """
        if self._count is None:
            # Left-hand sides equal up to renaming their variables: one match.
            per_lhs: dict[Term, int] = {}
            total = 0
            for rule in self.analysis.rules:
                lhs = canonical_pattern(rule.lhs)
                if lhs not in per_lhs:
                    with quiet_gc(len(self.closure)):
                        found = class_match_counts(
                            rule.lhs, self.closure, self.roots(), self.heads(watch), watch
                        )
                    sites = self.positions(watch) if found else {}
                    per_lhs[lhs] = sum([n * sites.get(root, 0) for root, n in found.items()])
                total += per_lhs[lhs]
            self._count = total  # only once complete (an interrupted count leaves nothing)
        return self._count

    def any(self, watch: Watch = NO_WATCH) -> bool:
        """Whether the term has a rewrite action (every class member occurs as a site)."""
        return any(self.matches(rule.lhs, watch) for rule in self.analysis.rules)

    # -- listing ----------------------------------------------------------------------------
    def iterate(
        self, start: int = 0, watch: Watch = NO_WATCH, shared_walk_max: int = SHARED_WALK_MAX
    ) -> Iterator[RewriteAction]:
        """The actions in engine order, lazily, from the ``start``-th (0-based) on.

        Whole rules, then whole sites, before ``start`` are skipped by counting, not by
        listing.  Parts are computed as the iteration reaches them, so stopping early
        stops the work (at most one site's actions are made ahead).

        Args:
            start: How many actions to skip.
            watch: Polled throughout (between sites too).
            shared_walk_max: Positions up to which all rules share one site walk.

        Yields:
            :class:`~core.termcraft.state.RewriteAction` values.
        """
        for chunk in self._site_chunks(start, watch, shared_walk_max):
            yield from chunk

    def all(self, watch: Watch = NO_WATCH) -> tuple[RewriteAction, ...]:
        """Every action in engine order, materialised (for small terms: use
        :meth:`iterate` or :meth:`count` when the number of actions may be huge)."""
        out: list[RewriteAction] = []
        for chunk in self._site_chunks(0, watch, max(SHARED_WALK_MAX, self.term.size), True):
            out.extend(chunk)
        return tuple(out)

    def _site_chunks(
        self, start: int, watch: Watch, shared_walk_max: int, per_rule: bool = False
    ) -> Iterator[list[RewriteAction]]:
        """Steps 3 and 4: per rule, its sites in pre-order; per site, its actions as one
        list (or, with ``per_rule``, per rule: fewer steps when everything is wanted)."""
        table = None
        new, cls, ordered_of = _new_tuple, RewriteAction, self._ordered
        for rule in self.analysis.rules:
            if start:
                n = self.rule_count(rule, watch)
                if start >= n:
                    start -= n
                    continue
            found = self.matches(rule.lhs, watch)
            if not found:
                continue
            if table is None and self.term.size <= shared_walk_max:
                table = _SiteTable(self, watch)
            sites = table.sites(found) if table is not None else self._walk(found, watch)
            chunk: list[RewriteAction] = []
            add, more = chunk.append, chunk.extend
            for path, root in sites:
                # A class's substitutions: a dict until first met, then a sorted list in place.
                subs: Any = found[root]
                if subs.__class__ is not list:  # sorted when first met, then kept sorted
                    subs = ordered_of(found, root)
                if start:  # still skipping: whole sites by their number of substitutions
                    if start >= len(subs):
                        start -= len(subs)
                        continue
                    subs, start = subs[start:], 0
                if len(subs) == 1:  # the usual case: (rule, path) + (sigma, member)
                    add(new(cls, (rule, path) + subs[0]))
                else:
                    more([new(cls, (rule, path) + pair) for pair in subs])
                if not per_rule:
                    yield chunk
                    chunk = []
                    add, more = chunk.append, chunk.extend
                    watch.poll("actions", 0, 0)
            if chunk:
                yield chunk

    # -- helpers ----------------------------------------------------------------------------
    def marks(self, matched: set[int] | dict, watch: Watch = NO_WATCH) -> dict[int, object]:
        """The marks a site walk goes by (see :func:`core.termcraft.links.marked_positions`): term id
        -> its class root for the members of the ``matched`` classes, -> None for the terms
        with such a member below them (one pass, children first)."""
        terms, roots = self.closure.terms, self.roots()
        marks: dict[int, object] = {}
        with quiet_gc(len(terms)):
            for i, (t, r) in enumerate(zip(terms, roots)):
                if r in matched:
                    marks[t.id] = r
                else:
                    for a in t.args:
                        if a.id in marks:
                            marks[t.id] = None
                            break
                if not i % _POLL:
                    watch.poll("sites", i, len(terms))
        return marks

    def _walk(self, found: Matches, watch: Watch) -> Iterator[tuple[Path, int]]:
        """The sites of the classes in ``found`` in pre-order, walking for this rule only."""
        poll = lambda: watch.poll("sites", 0, 0)  # noqa: E731 - a hook, not a function
        for path, _, root in marked_positions(self.term, self.marks(found, watch), poll):
            yield path, root  # type: ignore[misc]

    def _ordered(self, found: Matches, root: int) -> list[tuple[Substitution, Term]]:
        """A class's substitutions in engine order (sorted once, then kept in ``found``)."""
        subs = found[root]
        if isinstance(subs, list):
            return subs
        ordered = list(subs.items())
        if len(ordered) > 1:
            ordered.sort(key=self._substitution_key)
        found[root] = ordered  # type: ignore[assignment]
        return ordered

    def _substitution_key(self, item: tuple[Substitution, Term]) -> tuple:
        return tuple([self._text_key(t) for _, t in item[0]])

    def _text_key(self, t: Term) -> tuple[str, int]:
        """Text order, decided by the first TEXT_KEY characters (O(TEXT_KEY), not O(size)),
        then by first occurrence for the long texts that agree on those."""
        text = short_str(t, TEXT_KEY + 1)
        if len(text) <= TEXT_KEY:
            return (text, 0)
        if self._ranks is None:
            self._ranks = {u.id: rank for rank, u in enumerate(_preorder(self.term), 1)}
        return (text[:TEXT_KEY], self._ranks[t.id])


def _preorder(term: Term) -> Iterator[Term]:
    """The distinct subterms in the order a pre-order walk first meets them (a subtree
    already met is not entered again: everything in it was met then)."""
    seen: set[int] = set()
    stack = [term]
    while stack:
        t = stack.pop()
        if t.id in seen:
            continue
        seen.add(t.id)
        yield t
        stack.extend(reversed(t.args))


class _SiteTable:
    """The sites of every class some rule matches, found by one walk (small terms)."""

    def __init__(self, moves: RewriteMoves, watch: Watch):
        matched: set[int] = set()
        for rule in moves.analysis.rules:
            matched.update(moves.matches(rule.lhs, watch))
        poll = lambda: watch.poll("sites", 0, 0)  # noqa: E731 - a hook, not a function
        # Every site's link and class root, in pre-order (a site's order is its index); a path
        # is made only for a site handed out (all paths of a deep chain are quadratic).
        links, roots = collect_marked_links(moves.term, moves.marks(matched, watch), poll)
        self.links = links
        self.roots = cast(list[int], roots)  # the marks are the class roots (ints)
        self.by_class: dict[int, list[int]] = {}  # class root -> its sites' orders, ascending
        by_class = self.by_class
        for o, root in enumerate(self.roots):
            lst = by_class.get(root)
            if lst is None:
                by_class[root] = [o]
            else:
                lst.append(o)

    def sites(self, found: Matches) -> Iterator[tuple[Path, int]]:
        """The sites of the classes in ``found``, in pre-order (C-level iterators)."""
        if len(found) == 1:  # one class: its sites are already in pre-order
            orders: list[int] = self.by_class.get(next(iter(found)), [])
        else:  # several classes: merge their sites back into pre-order (plain ints)
            by_class = self.by_class
            orders = sorted([o for root in found for o in by_class.get(root, ())])
        paths = map(path_of, map(self.links.__getitem__, orders))
        return zip(paths, map(self.roots.__getitem__, orders))


_MOVES: TermCache[RewriteMoves] = TermCache(16, 1_000_000)


def moves_of(term: Term, watch: Watch = NO_WATCH, cache: bool = True) -> RewriteMoves:
    """The (cached) :class:`RewriteMoves` of ``term``.

    Args:
        term: The current term.
        watch: Polled while analysing (may raise ``core.search.Interrupted``).
        cache: Keep the analysis and the moves for later calls.

    Returns:
        The moves object (shared between callers).
    """
    return _MOVES.cached(
        term,
        lambda: RewriteMoves(term, analyze(term, watch, cache)),
        lambda m: len(m.closure),
        cache,
    )


moves_of.cache_clear = _MOVES.clear  # type: ignore[attr-defined]
