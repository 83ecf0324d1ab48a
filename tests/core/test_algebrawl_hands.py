"""The 24 game: solvability, solutions and distinct solutions against references.

References: a naive exhaustive search written here (pick two values, combine, recurse), a
brute-force enumeration of every expression tree, and yuuki15's published distinct-solution
counts (``24-distinct-solutions-yuuki15.tsv``, CC0).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import ADD, DIV, MUL, SUB, Leaf, make_node, normal_form
from core.algebrawl.ast import ast_leaves, postorder
from core.algebrawl.hands import (
    all_hands,
    count_solutions24,
    solutions24,
    solvable24,
    solvable_with,
    solve24,
    splits,
)
from core.algebrawl.normal import EQUIVALENCES
from tests.shared_data import shared_data

OPS = (ADD, SUB, MUL, DIV)


def naive_solvable(values, target) -> bool:
    """The classic search: combine any two values in every way, recurse."""
    if len(values) == 1:
        return values[0] == target
    for i, j in combinations(range(len(values)), 2):
        a, b = values[i], values[j]
        rest = [v for k, v in enumerate(values) if k not in (i, j)]
        results = [a + b, a - b, b - a, a * b]
        results += [a / b] if b else []
        results += [b / a] if a else []
        if any(naive_solvable(rest + [r], target) for r in results):
            return True
    return False


def all_trees(values):
    """Every expression tree over the multiset ``values`` (each used once)."""
    items = [Leaf(F(v)) for v in values]

    def go(trees):
        if len(trees) == 1:
            yield trees[0]
            return
        for i, j in combinations(range(len(trees)), 2):
            rest = [t for k, t in enumerate(trees) if k not in (i, j)]
            for a, b in ((trees[i], trees[j]), (trees[j], trees[i])):
                for card in OPS:
                    if card is DIV and b.value == 0:
                        continue
                    yield from go(rest + [make_node(card, (a, b))])

    yield from go(items)


def test_splits_of_a_multiset():
    assert splits((1, 2, 3)) == (((1,), (2, 3)), ((2,), (1, 3)), ((1, 2), (3,)))
    assert splits((5, 5)) == (((5,), (5,)),)
    assert len(splits((1, 1, 2, 2))) == 4  # {1|122, 2|112, 11|22, 12|12}


def test_hand_worked_hands():
    assert not solvable24([1, 1, 1, 1])
    assert solve24([1, 1, 1, 1]) is None
    tree = solve24([3, 3, 8, 8])  # only 8 ÷ (3 − 8 ÷ 3)
    assert tree is not None and tree.value == 24
    assert sorted(ast_leaves(tree)) == [3, 3, 8, 8]
    assert not solvable_with([3, 3, 8, 8], 24, integers=True)
    assert solvable_with([1, 5, 5, 5], 24) and not solvable_with([1, 5, 5, 5], 24, "+-*")
    assert solvable_with([2, 3, 4], 24, "*") and not solvable_with([2, 3, 4], 24, "+-")
    assert solvable24([7], 7) and not solvable24([7], 8)
    assert solvable24([0, 0, 5], 0) and solvable24([4, 6], 24) and not solvable24([5, 6], 24)


def test_1362_of_1820_hands_are_solvable():
    solvable = [h for h in all_hands(1, 13, 4) if solvable24(h)]
    assert len(all_hands(1, 13, 4)) == 1820
    assert len(solvable) == 1362  # 4nums.com lists exactly 1362 (24-human-difficulty.csv)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=1, max_size=4), st.integers(-30, 60))
def test_solvability_equals_the_naive_search(numbers, target):
    assert solvable24(numbers, target) == naive_solvable([F(v) for v in numbers], F(target))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=1, max_size=4))
def test_solution_trees_are_real_solutions(numbers):
    tree = solve24(numbers)
    if tree is None:
        return
    assert tree.value == 24
    assert Counter(ast_leaves(tree)) == Counter(F(v) for v in numbers)
    for sol in solutions24(numbers):
        assert sol.tree.value == 24
        assert normal_form(sol.tree) == sol.normal_form
        assert Counter(ast_leaves(sol.tree)) == Counter(F(v) for v in numbers)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=2, max_size=4),
    st.integers(-10, 30),
    st.sampled_from(EQUIVALENCES),
)
def test_distinct_count_equals_brute_force(numbers, target, equivalence):
    """The DP's per-value normal-form sets give the same classes as normalising every tree."""
    if len(numbers) == 4:
        numbers = numbers[:3] + [numbers[3] % 4]  # keep 4-number hands quick
    want = {normal_form(t, equivalence) for t in all_trees(numbers) if t.value == target}
    assert count_solutions24(numbers, target, equivalence) == len(want)


def test_classic_hands():
    assert count_solutions24([1, 2, 3, 4]) == 3  # (1+2+3)×4, 1×2×3×4, (1+3)×(2+4)
    assert count_solutions24([3, 3, 8, 8]) == 1
    assert count_solutions24([1, 3, 4, 6]) == 1  # 6 ÷ (1 − 3 ÷ 4)
    trees = {sol.tree.value for sol in solutions24([1, 3, 4, 6])}
    assert trees == {24}


# -- yuuki15's distinct solutions ------------------------------------------------------------


def yuuki15() -> dict:
    path = shared_data("algebrawl/24-distinct-solutions-yuuki15.tsv")
    out = {}
    for line in path.read_text().splitlines():
        cells = line.split("\t")
        hand = tuple(int(x) for x in cells[0].split())
        if 0 not in hand:
            out[hand] = int(cells[1])
    return out


# Hands from 1-13 whose count under each weaker equivalence still differs from yuuki15's,
# by what removes the difference (see core.algebrawl.normal): "signs" = moving minus signs,
# "neutral" = neutral elements (units, + x − x, × x ÷ x). Each number is a count of hands.
DIFFERENCES = {
    "ac": {"signs": 264, "neutral": 231},
    "signs": {"neutral": 231},
    "neutral": {},
}


def test_yuuki15_agreement():
    data = yuuki15()
    assert len(data) == 1362 and sum(data.values()) == 3017
    counts = {eq: {h: count_solutions24(h, 24, eq) for h in all_hands()} for eq in EQUIVALENCES}
    # The default equivalence agrees on every hand, solvable or not.
    assert all(counts["neutral"][h] == data.get(h, 0) for h in all_hands())
    assert sum(counts["neutral"].values()) == 3017
    for eq in ("ac", "signs"):
        kinds = Counter()
        for h in all_hands():
            want = data.get(h, 0)
            if counts[eq][h] != want:
                assert counts[eq][h] > want  # a weaker equivalence only splits classes
                fixed_by = next(
                    e for e in EQUIVALENCES[EQUIVALENCES.index(eq) + 1 :] if counts[e][h] == want
                )
                kinds[fixed_by] += 1
        assert dict(kinds) == DIFFERENCES[eq]
    assert sum(counts["ac"].values()) == 4469 and sum(counts["signs"].values()) == 4078


def test_a_neutral_difference_explained():
    # 1 1 3 8: yuuki15 lists one solution, (1 + 3 × 8) − 1. Without neutral elements
    # 3 × 8 × 1 × 1, 3 × 8 × 1 ÷ 1, (8 + 1 − 1) × 3 ... are all different.
    assert count_solutions24([1, 1, 3, 8]) == 1
    assert count_solutions24([1, 1, 3, 8], 24, "signs") == 6
    # 1 1 3 13 (yuuki15: (13 − 1) × (3 − 1)) splits only by sign: (1 − 13) × (1 − 3).
    assert count_solutions24([1, 1, 3, 13], 24, "ac") == 2
    assert count_solutions24([1, 1, 3, 13], 24, "signs") == 1


def test_no_tree_with_a_deep_card_chain_is_needed():
    # solutions24 trees have depth at most 3 for four numbers
    for sol in solutions24([1, 2, 3, 4], 24, "ac"):
        assert max(a.depth for a in postorder(sol.tree)) <= 3
