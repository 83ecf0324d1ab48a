"""What the engine sees in a term: its rules, axioms, warnings and equivalence classes.

This is seed 000's ``FindValidRewrites`` rule collection and ``CalculateEquivalenceRelation``:

* **Rules**: every subterm named ``rewrite``; only those with exactly 2 children count, and a
  rule whose right-hand side has a variable not in its left-hand side is ignored.
* **Axioms**: every subterm named ``equiv``; only those with exactly 2 ground children count.
* **Closure**: the congruence closure (:class:`core.termcraft.closure.CongruenceClosure`) of all
  distinct ground subterms of the term plus the axioms' pairs.

Rules and axioms may sit anywhere in the term, nested in data or in each other.  Everything
ignored is reported as an :class:`~core.termcraft.state.Ignored` warning, never an error.
:func:`analyze` is cached per term (terms are hash-consed, so the cache key is O(1)).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from core.search import NO_WATCH, Watch, quiet_gc
from core.termcraft.closure import CongruenceClosure
from core.termcraft.links import path_of
from core.termcraft.terms import VAR, Term, format_path, free_vars, short_str

from .state import Axiom, Ignored, Rule

__all__ = [
    "AXIOM",
    "PLACEHOLDER",
    "RULE",
    "Analysis",
    "TermCache",
    "analyze",
    "axioms",
    "equivalence_class",
    "rules",
    "warnings",
]

RULE = "rewrite"
"""Constructor of rules."""
AXIOM = "equiv"
"""Constructor of axioms."""
PLACEHOLDER = "placeholder"
"""Name of the constant that marks a construct site."""


V = TypeVar("V")


class TermCache(Generic[V]):
    """A least-recently-used cache keyed by term that bounds the total *weight* it holds.

    A count bound alone is not enough: 64 analyses of million-node terms would hold tens of
    gigabytes.  Each value is weighed when stored (e.g. by the size of its closure) and the
    oldest entries go until the total fits; a value heavier than the bound is not kept.

    Args:
        max_entries: Most entries kept.
        max_weight: Most total weight kept.
    """

    def __init__(self, max_entries: int, max_weight: int):
        self.max_entries = max_entries
        self.max_weight = max_weight
        self._data: OrderedDict[Term, tuple[V, int]] = OrderedDict()
        self._weight = 0

    def get(self, term: Term) -> V | None:
        """The value stored for ``term`` (None when absent); marks it recently used."""
        hit = self._data.get(term)
        if hit is None:
            return None
        self._data.move_to_end(term)
        return hit[0]

    def put(self, term: Term, value: V, weight: int) -> None:
        """Store ``value`` for ``term`` with ``weight``, evicting the oldest entries."""
        if weight > self.max_weight:
            return
        old = self._data.pop(term, None)
        if old is not None:
            self._weight -= old[1]
        self._data[term] = (value, weight)
        self._weight += weight
        while len(self._data) > self.max_entries or self._weight > self.max_weight:
            _, (_, w) = self._data.popitem(last=False)
            self._weight -= w

    def clear(self) -> None:
        """Drop every entry."""
        self._data.clear()
        self._weight = 0

    def cached(
        self, term: Term, build: Callable[[], V], weigh: Callable[[V], int], cache: bool = True
    ) -> V:
        """The value for ``term``: the stored one, or ``build()`` (stored when ``cache``)."""
        value = self.get(term)
        if value is None:
            value = build()
            if cache:
                self.put(term, value, weigh(value))
        return value


CACHE_TERMS = 1_000_000
"""Analyses are cached per term up to this many closure terms in all (and 64 entries)."""


def _where(path: tuple[int, ...]) -> str:
    return "the root" if not path else "position " + format_path(path)


def _short(term: Term, limit: int = 60) -> str:
    return short_str(term, limit)


@dataclass(frozen=True, eq=False)
class Analysis:
    """The engine's reading of one term.

    Attributes:
        term: The analysed term.
        rules: Valid rules in pre-order of their position.
        axioms: Valid axioms in pre-order of their position.
        ignored: Ignored ``rewrite``/``equiv`` subterms with the reason.
        closure: Congruence closure of the ground subterms and the axioms.
    """

    term: Term
    """The analysed term."""
    rules: tuple[Rule, ...]
    """Valid rules, pre-order."""
    axioms: tuple[Axiom, ...]
    """Valid axioms, pre-order."""
    ignored: tuple[Ignored, ...]
    """Ignored rule/axiom subterms and why."""
    closure: CongruenceClosure
    """Congruence closure of the ground subterms plus the axioms."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """The ignored items' messages, in order."""
        return tuple(i.message for i in self.ignored)


def _collect(
    term: Term, inside: set[int], watch: Watch = NO_WATCH
) -> tuple[tuple[Rule, ...], tuple[Axiom, ...], tuple[Ignored, ...]]:
    """Rules, axioms and ignored items of ``term``, in pre-order.

    Args:
        term: The current term.
        inside: Ids of the ground subterms that are or contain a ``rewrite``/``equiv`` node
            (a superset is fine): the walk skips every other ground subtree whole.
        watch: Polled every few thousand nodes.
    """
    found_rules: list[Rule] = []
    found_axioms: list[Axiom] = []
    ignored: list[Ignored] = []
    special = (RULE, AXIOM)
    # Stack entries (parent link, child index, subterm) are themselves the links (one tuple
    # per node instead of two); the root's entry stands for the link None.
    stack: list[tuple] = [(None, None, term)]
    push, pop = stack.append, stack.pop
    steps = 0
    while stack:  # pre-order, iterative; paths only for the nodes reported
        entry = pop()
        steps += 1
        if not steps % 4096:
            watch.poll("rules", steps, 0)
        t = entry[2]
        link = entry if entry[1] is not None else None
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            a = args[i]
            if a.ground:
                if a.id in inside:  # most ground data holds no rule or axiom: skipped whole
                    push((link, i, a))
            elif a.args:  # a variable (the only non-ground leaf) is never reported
                push((link, i, a))
        if t.kind == VAR or t.name not in special:
            continue
        if t.name == RULE and len(args) == 2 and free_vars(args[1]) <= free_vars(args[0]):
            # A valid rule keeps its link: a path for each of 20,000 nested rules is quadratic.
            found_rules.append(Rule(None, args[0], args[1], link))
            continue
        path = path_of(link)
        if t.name == RULE:
            if len(args) != 2:
                ignored.append(
                    Ignored(
                        path,
                        "rule-arity",
                        f"ignored rule at {_where(path)}: {_short(t)} has {len(args)} argument(s); "
                        "rewrite needs exactly 2 (LHS, RHS)",
                    )
                )
                continue
            lhs, rhs = args
            unbound = free_vars(rhs) - free_vars(lhs)
            if unbound:
                names = ", ".join(f"var({n})" for n in sorted(unbound))
                ignored.append(
                    Ignored(
                        path,
                        "rule-unbound-vars",
                        f"ignored rule at {_where(path)}: {_short(t)} - its right-hand side "
                        f"introduces {names}, not bound by the left-hand side",
                    )
                )
                continue
            found_rules.append(Rule(path, lhs, rhs))
        else:
            if len(args) != 2:
                ignored.append(
                    Ignored(
                        path,
                        "axiom-arity",
                        f"ignored axiom at {_where(path)}: {_short(t)} has {len(args)} argument(s); "
                        "equiv needs exactly 2",
                    )
                )
                continue
            if not (args[0].ground and args[1].ground):
                ignored.append(
                    Ignored(
                        path,
                        "axiom-not-ground",
                        f"ignored axiom at {_where(path)}: {_short(t)} contains variables; "
                        "equiv only relates ground terms",
                    )
                )
                continue
            found_axioms.append(Axiom(path, args[0], args[1]))
    return tuple(found_rules), tuple(found_axioms), tuple(ignored)


_ANALYSES: TermCache[Analysis] = TermCache(64, CACHE_TERMS)


def analyze(term: Term, watch: Watch = NO_WATCH, cache: bool = True) -> Analysis:
    """Analyse ``term``: rules, axioms, warnings and the congruence closure (cached).

    Args:
        term: The current term.
        watch: Polled during the analysis (raises ``core.search.Interrupted`` when it
            says so; nothing is cached then).
        cache: Keep the analysis for later calls (the solver, which analyses each state
            once, does not).

    Returns:
        The analysis (shared between callers: treat it as read-only).
    """
    return _ANALYSES.cached(term, lambda: _analyze(term, watch), lambda an: len(an.closure), cache)


def _analyze(term: Term, watch: Watch) -> Analysis:
    with quiet_gc(term.size):  # a closure is millions of long-lived objects: see quiet_gc
        return _build_analysis(term, watch)


analyze.cache_clear = _ANALYSES.clear  # type: ignore[attr-defined]  # as with lru_cache


def _build_analysis(term: Term, watch: Watch) -> Analysis:
    # The closure's universe is built first (before any union its use lists are exact
    # parent lists), so that the rule/axiom walk can skip the ground subtrees holding no
    # rewrite/equiv node; then the axioms are added, in the same order as before.
    closure = CongruenceClosure([term], watch=watch)
    terms = closure.terms
    special = (RULE, AXIOM)
    inside = closure.ancestors([i for i, t in enumerate(terms) if t.name in special])
    found_rules, found_axioms, ignored = _collect(term, {terms[i].id for i in inside}, watch)
    for a in found_axioms:
        closure.union(a.left, a.right)
    closure.rebuild(watch)
    return Analysis(term, found_rules, found_axioms, ignored, closure)


def rules(term: Term) -> tuple[Rule, ...]:
    """The valid rules of ``term`` (pre-order)."""
    return analyze(term).rules


def axioms(term: Term) -> tuple[Axiom, ...]:
    """The valid axioms of ``term`` (pre-order)."""
    return analyze(term).axioms


def warnings(term: Term) -> tuple[str, ...]:
    """Messages for every ignored ``rewrite``/``equiv`` subterm of ``term``."""
    return analyze(term).warnings


def equivalence_class(term: Term, subterm: Term) -> tuple[Term, ...]:
    """The members of ``subterm``'s class in the closure of ``term``.

    Args:
        term: The current term (whose closure is used).
        subterm: A ground subterm of it (any other term is alone in its class).

    Returns:
        The class members, ``subterm`` included.
    """
    return analyze(term).closure.class_of(subterm)
