"""The Countdown numbers round against a naive reference and the known solvability table."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl.ast import ast_leaves, postorder
from core.algebrawl.countdown import (
    CAP,
    countdown_reachable,
    countdown_selections,
    countdown_solve,
)


def naive_values(numbers: tuple[int, ...]) -> set[int]:
    """Every value reachable by the rules, by plain search over lists of values (no pruning
    except the rules themselves: positive whole intermediate results); a list of values seen
    before (in any order) is not searched again."""
    out: set[int] = set(numbers)
    seen: set[tuple[int, ...]] = set()

    def go(values: list[int]) -> None:
        key = tuple(sorted(values))
        if key in seen:
            return
        seen.add(key)
        for i in range(len(values)):
            for j in range(len(values)):
                if i == j:
                    continue
                a, b = values[i], values[j]
                rest = [v for k, v in enumerate(values) if k not in (i, j)]
                for r in (a + b, a - b, a * b, a // b if a % b == 0 else 0):
                    if r > 0:
                        out.add(r)
                        go(rest + [r])

    go(list(numbers))
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 50, 75, 100]), min_size=1, max_size=4
    ),
    st.integers(1, 300),
    st.integers(0, 700),
)
def test_reachable_equals_the_naive_search(numbers, low, width):
    high = low + width
    want = {v for v in naive_values(tuple(numbers)) if low <= v <= high}
    assert countdown_reachable(numbers, low, high) == want


def test_reachable_on_six_numbers_against_the_naive_search():
    numbers = (1, 3, 7, 10, 25, 50)
    want = {v for v in naive_values(numbers) if 101 <= v <= 999}
    assert countdown_reachable(numbers) == want


def test_selections():
    sels = list(countdown_selections())
    assert len(sels) == 13_243 == len({s for _, s in sels})
    assert Counter(k for k, _ in sels) == {0: 2850, 1: 5808, 2: 3690, 3: 840, 4: 55}
    for _, s in sels[::97]:
        assert len(s) == 6 and max(Counter(v for v in s if v <= 10).values(), default=0) <= 2


def test_the_four_large_table():
    """Known result: with all four large numbers, 43,710 of the 55 × 899 games are solvable."""
    total = sum(len(countdown_reachable(s)) for k, s in countdown_selections() if k == 4)
    assert total == 43_710


def test_solve_finds_exact_and_closest():
    value, tree = countdown_solve([25, 50, 75, 100, 3, 6], 952)  # the famous 1997 game
    assert value == 952 and tree.value == 952
    value, tree = countdown_solve([1, 1, 1, 1, 1, 1], 101)
    assert value == 9 and tree.value == 9  # (1 + 1 + 1) × (1 + 1 + 1)
    for numbers, target in (((2, 3, 7, 9, 50, 100), 813), ((1, 2, 3, 4, 5, 6), 999)):
        value, tree = countdown_solve(numbers, target)
        assert tree.value == value
        leaves = Counter(int(v) for v in ast_leaves(tree))
        assert not leaves - Counter(numbers)  # each number at most once
        for node in postorder(tree):  # every intermediate result a positive whole number
            assert node.value > 0 and node.value.denominator == 1
        assert (value == target) == (target in countdown_reachable(numbers, target, target))


def test_bad_input_is_refused():
    for bad in ([], [0, 5], [1.5], [True], list(range(1, 9))):
        with pytest.raises(ValueError):
            countdown_reachable(bad)
    with pytest.raises(ValueError):
        countdown_reachable([1, 2], 10, CAP)
