"""Symmetries of a level: variable renamings that preserve types and the closure.

A permutation σ of the variables that keeps every variable's type maps well-typed formulas
to well-typed formulas and commutes with Γ (the rules only compare variables for equality).
If it also maps every axiom into F*, then σ(F*) = F* and σ(E_Ω) = E_Ω: the least fixpoint
from σ(initial) ⊆ F* lies inside the closed set F*, and σ is a bijection on a finite set.
H* and the density reading are abstract, so such a σ maps every game state to an equivalent
one (same outcome, same number of steps to win). The solver identifies states up to these
renamings through :func:`canonical_key`.

Only the first ``cap`` renamings are used when there are more. That is still sound: two
states get the same key only if some composition of used renamings maps one to the other.
The renamings are enumerated lazily, so the work and memory spent here grow with ``cap``,
never with the n! orderings of a type's n variables.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice, permutations

from core.search import NO_WATCH, Watch

from .formula import Formula, Operator
from .world import World

__all__ = ["Symmetry", "canonical_key", "symmetries"]

DEFAULT_CAP = 120
"""Most renamings used (5! for five interchangeable variables)."""


@dataclass(frozen=True)
class Symmetry:
    """One renaming, acting on vertex ids and intrinsic edge ids.

    Attributes:
        vmap: Vertex id -> vertex id.
        emap: Intrinsic edge id -> intrinsic edge id.
    """

    vmap: tuple[int, ...]
    """Image of each vertex id."""
    emap: tuple[int, ...]
    """Image of each intrinsic edge id."""


def _rename(f: Formula, sigma: dict[str, str]) -> Formula:
    return Formula(f.head, sigma[f.x], sigma[f.y], sigma[f.z])


def _orderings(groups: Sequence[Sequence[str]]) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Every choice of one ordering per group, lazily.

    ``itertools.product`` would first turn each group's ``permutations`` into a tuple of all
    n! orderings; this walks them one at a time (the recursion is one level per type).
    """
    if not groups:
        yield ()
        return
    for head in permutations(groups[0]):
        for rest in _orderings(groups[1:]):
            yield (head, *rest)


def _renamings(world: World, cap: int) -> Iterable[dict[str, str]]:
    by_type: dict[str, list[str]] = {}
    for v, t in world.level.variables:
        by_type.setdefault(t, []).append(v)
    groups = list(by_type.values())
    for choice in islice(_orderings(groups), max(cap, 0)):
        yield {v: w for g, p in zip(groups, choice, strict=True) for v, w in zip(g, p, strict=True)}


def symmetries(
    world: World, cap: int = DEFAULT_CAP, watch: Watch = NO_WATCH
) -> tuple[Symmetry, ...]:
    """The type-preserving renamings that map the axioms into F* (identity first).

    Args:
        world: The world.
        cap: Most renamings to consider.
        watch: Polled once per renaming: each maps all of F* and E_Ω (up to the closure's
            200,000), so the cap's 120 can take seconds the caller's deadline must cover.

    Returns:
        The renamings as :class:`Symmetry` values.

    Raises:
        Interrupted: When ``watch`` says the time is up or the caller cancelled.
    """
    out = []
    for done, sigma in enumerate(_renamings(world, cap)):
        watch.poll("symmetries", done, cap)
        if any(_rename(f, sigma) not in world.vid for f in world.level.axioms):
            continue
        vmap = tuple(world.vid[_rename(f, sigma)] for f in world.vertices)
        emap = tuple(world.eid[Operator(*(_rename(f, sigma) for f in e))] for e in world.intrinsic)
        out.append(Symmetry(vmap, emap))
    return tuple(out)


def canonical_key(
    world: World,
    syms: tuple[Symmetry, ...],
    tree: frozenset[Operator],
    virtual: frozenset[Operator],
    base: Formula,
    phase: str,
) -> tuple:
    """The least image of a state's essentials under the renamings.

    Virtual edges enter only through their vertex sets: parallel virtual edges are
    interchangeable, so their tuples do not matter (only how many there are).

    Args:
        world: The world.
        syms: :func:`symmetries` of the world.
        tree: E_T.
        virtual: E_V.
        base: ρ.
        phase: The phase (states of different phases are never merged).

    Returns:
        A hashable key; equal keys mean equivalent states.
    """
    tree_ids = [world.eid[e] for e in tree]
    vsets = [world.verts_of(op) for op in virtual]
    b = world.vid[base]
    best = None
    for s in syms:
        vm, em = s.vmap, s.emap
        key = (
            sum(1 << em[i] for i in tree_ids),
            tuple(sorted(tuple(sorted(vm[v] for v in vs)) for vs in vsets)),
            vm[b],
        )
        if best is None or key < best:
            best = key
    return (phase, best)
