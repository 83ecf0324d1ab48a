"""What the engine sees in a term: its rules, axioms, warnings and equivalence classes.

This is seed 000's ``FindValidRewrites`` rule collection and ``CalculateEquivalenceRelation``:

* **Rules**: every subterm named ``rewrite``; only those with exactly 2 children count, and a
  rule whose right-hand side has a variable not in its left-hand side is ignored.
* **Axioms**: every subterm named ``equiv``; only those with exactly 2 ground children count.
* **Closure**: the congruence closure (:class:`core.closure.CongruenceClosure`) of all
  distinct ground subterms of the term plus the axioms' pairs.

Rules and axioms may sit anywhere in the term, nested in data or in each other.  Everything
ignored is reported as an :class:`~core.termcraft.state.Ignored` warning, never an error.
:func:`analyze` is cached per term (terms are hash-consed, so the cache key is O(1)).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from core.closure import CongruenceClosure
from core.terms import VAR, Term, free_vars, to_str

from .links import Link, path_of
from .state import Axiom, Ignored, Rule

__all__ = ["Analysis", "analyze", "rules", "axioms", "warnings", "equivalence_class",
           "RULE", "AXIOM", "PLACEHOLDER"]

RULE = "rewrite"
"""Constructor of rules."""
AXIOM = "equiv"
"""Constructor of axioms."""
PLACEHOLDER = "placeholder"
"""Name of the constant that marks a construct site."""


def _where(path: tuple[int, ...]) -> str:
    return "the root" if not path else "position " + "/".join(map(str, path))


def _short(term: Term, limit: int = 60) -> str:
    text = to_str(term)
    return text if len(text) <= limit else text[: limit - 1] + "…"


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
    heads: dict = field(repr=False, default_factory=dict)
    """(kind, name, arity) -> dense closure indices of the terms with that head."""

    @property
    def warnings(self) -> tuple[str, ...]:
        """The ignored items' messages, in order."""
        return tuple(i.message for i in self.ignored)


def _collect(term: Term) -> tuple[tuple[Rule, ...], tuple[Axiom, ...], tuple[Ignored, ...]]:
    found_rules: list[Rule] = []
    found_axioms: list[Axiom] = []
    ignored: list[Ignored] = []
    stack: list[tuple[Link, Term]] = [(None, term)]
    while stack:  # pre-order, iterative; paths only for the nodes reported
        link, t = stack.pop()
        args = t.args
        for i in range(len(args) - 1, -1, -1):
            stack.append(((link, i), args[i]))
        if t.kind == VAR or t.name not in (RULE, AXIOM):
            continue
        path = path_of(link)
        if t.name == RULE:
            if len(args) != 2:
                ignored.append(Ignored(path, "rule-arity",
                    f"ignored rule at {_where(path)}: {_short(t)} has {len(args)} argument(s); "
                    "rewrite needs exactly 2 (LHS, RHS)"))
                continue
            lhs, rhs = args
            unbound = free_vars(rhs) - free_vars(lhs)
            if unbound:
                names = ", ".join(f"var({n})" for n in sorted(unbound))
                ignored.append(Ignored(path, "rule-unbound-vars",
                    f"ignored rule at {_where(path)}: {_short(t)} - its right-hand side "
                    f"introduces {names}, not bound by the left-hand side"))
                continue
            found_rules.append(Rule(path, lhs, rhs))
        else:
            if len(args) != 2:
                ignored.append(Ignored(path, "axiom-arity",
                    f"ignored axiom at {_where(path)}: {_short(t)} has {len(args)} argument(s); "
                    "equiv needs exactly 2"))
                continue
            if not (args[0].ground and args[1].ground):
                ignored.append(Ignored(path, "axiom-not-ground",
                    f"ignored axiom at {_where(path)}: {_short(t)} contains variables; "
                    "equiv only relates ground terms"))
                continue
            found_axioms.append(Axiom(path, args[0], args[1]))
    return tuple(found_rules), tuple(found_axioms), tuple(ignored)


@lru_cache(maxsize=64)
def analyze(term: Term) -> Analysis:
    """Analyse ``term``: rules, axioms, warnings and the congruence closure (cached).

    Args:
        term: The current term.

    Returns:
        The analysis (shared between callers: treat it as read-only).
    """
    found_rules, found_axioms, ignored = _collect(term)
    closure = CongruenceClosure([term], [(a.left, a.right) for a in found_axioms])
    heads: dict[tuple[int, str, int], list[int]] = {}
    for i, t in enumerate(closure.terms):
        heads.setdefault((t.kind, t.name, len(t.args)), []).append(i)
    return Analysis(term, found_rules, found_axioms, ignored, closure, heads)


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
