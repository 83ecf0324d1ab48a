"""Symmetry enumeration is lazy and capped: its work and memory follow the cap, not n!."""

from __future__ import annotations

import tracemalloc
from itertools import permutations, product

from hypothesis import given
from hypothesis import strategies as st

from core.carving import Level, Target, world_of
from core.carving.symmetry import _orderings, symmetries
from tests.core.helpers import one_type_carving


def one_type(count: int) -> Level:
    """``count`` interchangeable variables of one type (the fork target of the solver tests)."""
    fork = Target(("a", "b", "c"), (("a", "b"), ("a", "b"), ("b", "c")))
    return one_type_carving([f"v{i}" for i in range(count)], fork, "v0")


def test_many_interchangeable_variables_cost_no_more_than_the_cap():
    # 12 variables of one type: 12! = 479,001,600 orderings. Building them first (the old
    # itertools.product over permutations) takes gigabytes; the cap is 120.
    world = world_of(one_type(12))
    tracemalloc.start()
    try:
        syms = symmetries(world, cap=120)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(syms) == 120  # 12! renamings keep F*: the cap is reached, exactly
    assert syms[0].vmap == tuple(range(len(syms[0].vmap)))  # the identity comes first
    assert peak < 20 * 2**20


def test_under_the_cap_every_renaming_of_one_type_is_a_symmetry():
    # Four interchangeable variables: all 4! = 24 renamings keep F* (hand count), none more.
    syms = symmetries(world_of(one_type(4)), cap=10**6)
    assert len(syms) == 24
    assert len({s.vmap for s in syms}) == 24


@given(st.lists(st.integers(min_value=0, max_value=3), min_size=0, max_size=3))
def test_lazy_orderings_equal_the_product_of_permutations(sizes):
    groups = [[f"g{i}_{j}" for j in range(n)] for i, n in enumerate(sizes)]
    assert list(_orderings(groups)) == list(product(*(permutations(g) for g in groups)))
