"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from hypothesis import strategies as st

from core.termcraft.terms import compound, const, var

NAMES = st.sampled_from(["a", "b", "f", "g", "pair", "x1", "_"])
"""A few identifiers, so random terms often share constructors."""
VARS = st.sampled_from(["X", "Y", "Z"])
"""Variable names."""


def terms(allow_vars: bool = True, max_leaves: int = 12):
    """Random small terms (constants, variables, compounds incl. zero-arity).

    Args:
        allow_vars: Whether variables may occur.
        max_leaves: Bound on the number of leaves.

    Returns:
        A hypothesis strategy of terms.
    """
    leaves = NAMES.map(const)
    if allow_vars:
        leaves = leaves | VARS.map(var)
    return st.recursive(
        leaves,
        lambda kids: st.builds(compound, NAMES, st.lists(kids, max_size=3)),
        max_leaves=max_leaves,
    )
