"""The terms a construct may put at a placeholder, enumerated from the level's alphabet.

Seed 000 lets the player construct *any* ground term whose Size fits the budget, over any
identifiers.  The solver cannot try infinitely many names; it tries every ground term over
the level's **alphabet**: the constants and the function symbols (name and arity, the
zero-argument compounds such as ``t()`` included) that occur in the current term or in the
target (the rules and axioms live in the current term).  This loses no plan:

*Why the alphabet suffices.*  Take any plan that constructs terms holding symbols outside
the alphabet ("fresh" ones).  Replace, in every state of the plan, each maximal subterm whose
root symbol is fresh by the constant ``placeholder`` (map ``h``).  ``placeholder`` is in the
alphabet whenever a construct is possible at all (a placeholder can only come from the
level's own terms).  Fresh subterms are ground (constructs are ground and rewrites insert
ground terms), so ``h`` keeps every rule's variables and commutes with matching and with
substitution; it maps equalities of the congruence closure to equalities of the closure of
the image; it keeps the target (which has no fresh symbol) and never increases a Size.  So
every move of the plan is legal, at the same cost or less, in the image, and the image of
the winning state is the target: a plan of the same length (or a shorter one, if an image
wins earlier) uses alphabet terms only.  The search over alphabet terms is therefore complete
for the level's fuel and budget, and "unsolvable" is a proof.

*Where it does not hold.*  A compound named ``var`` (any case) with one argument prints like a
variable when its argument is a constant (``var(a)`` reads back as the variable ``a``), so
the player cannot type it and the enumeration skips it; ``h`` may however turn a typable
``var(zz(a))`` into that untypable shape.  For a level whose alphabet holds such a symbol,
:attr:`Alphabet.restriction` says so, and the solver reports "unknown (search space
restricted to ...)" instead of "unsolvable".

*Pruning.*  Terms are hash-consed, so each distinct term is made once; the solver drops a
state whose term was reached before with at least as much fuel and budget.  Constructs that
are merely *equal under the congruence closure* are **not** merged: the win test is
syntactic, so with ``equiv(a,b)`` and target ``d(b)``, constructing ``a`` at ``d(placeholder)``
does not win where ``b`` does; merging them would be unsound.

Enumeration is lazy and by Size (every term of Size 1, then of Size 2 ...), each Size built
once from the smaller ones and kept while it is small (:data:`MAX_CACHED` terms); every term
made spends one unit of the watch's work budget (term nodes), and the clock is polled.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import product

from core.search import NO_WATCH, Watch

from .terms import CONST, VAR, Term, compound, unique_subterms

__all__ = ["MAX_CACHED", "Alphabet", "Constructible", "alphabet_of"]

MAX_CACHED = 200_000
"""Terms kept for reuse by one search, all Sizes together (about 40 MB); a Size made once
this many are kept is rebuilt, and paid for again, each time it is needed."""

POLL_EVERY = 256
"""Terms made between two polls of the watch's clock and cancel test."""


@dataclass(frozen=True)
class Alphabet:
    """The symbols constructs are built from.

    Attributes:
        leaves: The terms of Size 1: every constant and zero-argument compound, sorted.
        functions: ``(name, arity)`` of every compound symbol with arguments, sorted.
    """

    leaves: tuple[Term, ...]
    """Constants and zero-argument compounds (Size 1)."""
    functions: tuple[tuple[str, int], ...]
    """Compound symbols with at least one argument."""

    @property
    def restriction(self) -> str:
        """Why a search over this alphabet may miss a plan (``""``: it cannot, see the module
        docstring)."""
        if any(name.lower() == "var" and arity == 1 for name, arity in self.functions):
            return "terms over the level's symbols, without var(constant) shapes"
        return ""


def alphabet_of(terms: Iterable[Term], watch: Watch = NO_WATCH) -> Alphabet:
    """The alphabet of some terms: their constants and compound symbols (variables excluded).

    Args:
        terms: The level's current term and target (or any terms).
        watch: Spends one unit per distinct subterm visited.

    Returns:
        The :class:`Alphabet`.
    """
    leaves: set[Term] = set()
    functions: set[tuple[str, int]] = set()
    counting = watch is not NO_WATCH  # the shared do-nothing watch counts nothing
    for term in terms:
        for t in unique_subterms(term):
            if counting:
                watch.spend(1)
            if t.kind == VAR:
                continue
            if t.kind == CONST:
                leaves.add(t)
            elif t.args:
                functions.add((t.name, len(t.args)))
            else:
                leaves.add(compound(t.name, ()))
    return Alphabet(
        tuple(sorted(leaves, key=lambda t: (t.kind, t.name))),
        tuple(sorted(functions)),
    )


def _compositions(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as an ordered sum of ``parts`` positive integers."""
    if parts == 1:
        yield (total,)
        return
    for first in range(1, total - parts + 2):
        for rest in _compositions(total - first, parts - 1):
            yield (first, *rest)


def _typable(name: str, kids: tuple[Term, ...]) -> bool:
    """False for ``var(c)`` with a constant ``c``: it reads back as a variable."""
    return not (len(kids) == 1 and kids[0].kind == CONST and name.lower() == "var")


class Constructible:
    """Every ground term over an alphabet, by Size, made lazily and shared by a whole search.

    Args:
        source: The alphabet, or the terms to read it from (the level's current term and
            target) when it is first needed, spending the watch then.
    """

    def __init__(self, source: Alphabet | Iterable[Term]):
        self._source = source if isinstance(source, Alphabet) else tuple(source)
        self._by_size: dict[int, tuple[Term, ...]] = {}
        self._made = 0
        self._kept = 0

    def alphabet(self, watch: Watch = NO_WATCH) -> Alphabet:
        """The symbols terms are made of (read from the terms on first use).

        Args:
            watch: Spends one unit per distinct subterm read, the first time.

        Returns:
            The :class:`Alphabet`.
        """
        if not isinstance(self._source, Alphabet):
            self._source = alphabet_of(self._source, watch)
            self._by_size[1] = self._source.leaves
        return self._source

    def up_to(self, budget: int, watch: Watch = NO_WATCH) -> Iterator[Term]:
        """Every term of Size 1 to ``budget``, smaller first (deterministic order).

        Args:
            budget: The largest Size wanted.
            watch: Spends one unit per term made (not per term reused); polled.

        Yields:
            Ground terms; none twice.
        """
        for n in range(1, budget + 1):
            yield from self.of_size(n, watch)

    def of_size(self, n: int, watch: Watch = NO_WATCH) -> Iterator[Term]:
        """Every term of Size exactly ``n`` (lazily; kept for reuse when small).

        Args:
            n: The Size (>= 1).
            watch: Spends one unit per term made; polled.

        Yields:
            Ground terms of Size ``n``.
        """
        alphabet = self.alphabet(watch)
        known = alphabet.leaves if n == 1 else self._by_size.get(n)
        if known is not None:
            yield from known
            return
        made: list[Term] | None = []
        for term in self._make(n, watch):
            if made is not None:
                made.append(term)
                if self._kept + len(made) > MAX_CACHED:
                    made = None
            yield term
        if made is not None:
            self._by_size[n] = tuple(made)
            self._kept += len(made)

    def _pool(self, n: int, watch: Watch) -> tuple[Term, ...]:
        """The terms of Size ``n`` as a tuple (children pools for a larger Size)."""
        known = self._by_size.get(n)
        return known if known is not None else tuple(self.of_size(n, watch))

    def _make(self, n: int, watch: Watch) -> Iterator[Term]:
        """Build the terms of Size ``n`` > 1 from the smaller ones."""
        counting = watch is not NO_WATCH  # the shared do-nothing watch counts nothing
        for name, arity in self.alphabet(watch).functions:
            if arity > n - 1:
                continue
            for sizes in _compositions(n - 1, arity):
                pools = [self._pool(m, watch) for m in sizes]
                for kids in product(*pools):
                    if not _typable(name, kids):
                        continue
                    if counting:
                        watch.spend(1)
                    self._made += 1
                    if self._made % POLL_EVERY == 0:
                        watch.poll("constructs")
                    yield compound(name, kids)
