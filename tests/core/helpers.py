"""Data and references shared by tests/core (and tests/cli): seed 000's worked TermCraft example,
naive term references, Carving and Longcat fixtures, each declared once."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from core.carving import Formula, Target
from core.carving import Level as CarvingLevel
from core.termcraft.terms import CONST, VAR, Term

TERMCRAFT_SAMPLE = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),rewrite(red,blue),"
    "equiv(apple,red),data(pair(apple,green)),data(placeholder))"
)
"""Seed 000's starting term: solved in three moves (two rewrites and a construct)."""

TERMCRAFT_SAMPLE_TARGET = (
    "puzzle_state(rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X))),"
    "rewrite(red,blue),equiv(apple,red),data(rev_pair(green,blue)),data(done))"
)
"""The target term of :data:`TERMCRAFT_SAMPLE`."""


LONGCAT_METHODS = ("sd", "pu", "template", "ca", "bsp", "carve", "fractal", "shapes", "notch", "rl")
"""Longcat's level-generation methods, in the order the registry offers them."""


# -- naive recursive references over TermCraft terms, shared by the oracles of several test files.
# Written independently of core.termcraft.terms (plain recursion on small terms), so the tests
# that compare against them check the iterative implementations rather than echo them.


def ref_str(t: Term) -> str:
    """The seed's canonical text of ``t``, by plain recursion.

    Args:
        t: any term.

    Returns:
        ``name``, ``var(name)`` or ``name(arg,...)``.
    """
    if t.kind == CONST:
        return t.name
    if t.kind == VAR:
        return f"var({t.name})"
    return t.name + "(" + ",".join(ref_str(a) for a in t.args) + ")"


def ref_positions(t: Term, path: tuple[int, ...] = ()) -> Iterator[tuple[tuple[int, ...], Term]]:
    """Every (path, subterm) of ``t``, pre-order, the root first.

    Args:
        t: the term to walk.
        path: the position of ``t`` itself.

    Returns:
        An iterator of (argument-index path, subterm) pairs.
    """
    yield path, t
    for i, a in enumerate(t.args):
        yield from ref_positions(a, path + (i,))


def ref_vars(t: Term) -> set[str]:
    """The names of the variables occurring in ``t``.

    Args:
        t: any term.

    Returns:
        The set of variable names (empty for a ground term).
    """
    if t.kind == VAR:
        return {t.name}
    return set().union(*(ref_vars(a) for a in t.args)) if t.args else set()


def ref_match(p: Term, t: Term, sigma: dict[str, Term]) -> dict[str, Term] | None:
    """One-way matching of pattern ``p`` against ``t``, extending ``sigma``.

    Args:
        p: the pattern (may hold variables).
        t: the term matched.
        sigma: the bindings so far (not mutated).

    Returns:
        The extended bindings, or None when ``p`` does not match ``t`` under ``sigma``.
    """
    if p.kind == VAR:
        if p.name in sigma:
            return sigma if ref_str(sigma[p.name]) == ref_str(t) else None
        return {**sigma, p.name: t}
    if p.kind != t.kind or p.name != t.name or len(p.args) != len(t.args):
        return None
    for pa, ta in zip(p.args, t.args):
        found = ref_match(pa, ta, sigma)
        if found is None:
            return None
        sigma = found
    return sigma


def one_type_carving(
    names: Iterable[str], target: Target, root: str, **fields: Any
) -> CarvingLevel:
    """A Carving level whose variables are all of the one type ``t`` (so interchangeable).

    Args:
        names: the variables' names, all of type ``t``.
        target: the level's target structure.
        root: the variable of the root formula ``D(root, root, root)``.
        **fields: any other :class:`core.carving.Level` fields (title, density, ...).

    Returns:
        The level, with one ``D`` and one ``N`` rule on ``t``.
    """
    return CarvingLevel(
        types=("t",),
        variables=tuple((v, "t") for v in names),
        r_delta=(("t", "t", "t"),),
        r_nabla=(("t", "t", "t"),),
        root=Formula("D", root, root, root),
        target=target,
        **fields,
    )
