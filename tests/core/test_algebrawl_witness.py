"""Issue 32: a hand's solver asked only for what is wanted. Without the count, the 24 rule
stops at the first solution (or at ``wanted`` distinct ones): checked against a naive search
written here, brute-force enumeration of every tree, and the counting path."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import hands as hand_solvers
from core.algebrawl import normal_form
from core.algebrawl.ast import ast_leaves
from core.algebrawl.handrule import HandAnswer, HandRule
from core.search import Watch
from tests.core.test_algebrawl_hands import all_trees, naive_solvable


def units(numbers: tuple[int, ...], count: bool) -> int:
    """Units the 24 solvers spend on a hand with no budget (cold memo): one witness
    (``count`` False) or the solvability then every distinct solution."""
    hand_solvers.clear_caches()
    watch = Watch()
    with hand_solvers.metered(watch):
        if count:
            hand_solvers.solvable24(numbers)
            hand_solvers.solutions24(numbers)
        else:
            hand_solvers.solve24(numbers)
    return watch.spent


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 13), min_size=1, max_size=4), st.integers(-30, 60))
def test_the_witness_path_decides_as_the_naive_search(numbers: list[int], target: int) -> None:
    hand = [F(v) for v in numbers]
    answer = HandRule().solve(hand, F(target), None, count=False, wanted=1)
    assert answer.solvable is naive_solvable(hand, F(target))
    assert answer.reason == ""
    if answer.solvable:
        # Not counted (not asked), one real solution using every number once.
        assert (answer.distinct, answer.complete, len(answer.trees)) == (None, False, 1)
        (tree,) = answer.trees
        assert tree.value == target and Counter(ast_leaves(tree)) == Counter(hand)
    else:  # the whole search ran: no solution is proved, so the count is known
        assert answer == HandAnswer(False, 0, True, [])
    counted = HandRule().solve(hand, F(target), None)
    assert counted.solvable is answer.solvable


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=2, max_size=4),
    st.integers(-10, 30),
    st.integers(1, 6),
)
def test_at_most_n_distinct_solutions_are_real_and_distinct(
    numbers: list[int], target: int, wanted: int
) -> None:
    if len(numbers) == 4:
        numbers = numbers[:3] + [numbers[3] % 4]  # keep the brute force quick
    every = {normal_form(t) for t in all_trees(numbers) if t.value == target}
    some = hand_solvers.solutions24(numbers, target, at_most=wanted)
    assert len(some) == min(wanted, len(every))
    forms = [s.normal_form for s in some]
    assert len(set(forms)) == len(forms) and set(forms) <= every
    for solution in some:
        assert solution.tree.value == target and normal_form(solution.tree) == solution.normal_form
    answer = HandRule().solve([F(v) for v in numbers], F(target), None, count=False, wanted=wanted)
    assert len(answer.trees) == min(wanted, len(every))
    assert answer.distinct == (0 if not every else None)


def test_no_count_stops_at_the_first_solution() -> None:
    """The witness costs less than the count, and a budget of exactly its units is enough:
    the counting path, given that budget, stops short (1 5 7 9 12: 5 numbers)."""
    numbers = (1, 5, 7, 9, 12)
    witness, counting = units(numbers, count=False), units(numbers, count=True)
    assert 0 < witness < counting
    hand = [F(v) for v in numbers]
    for warm in (False, True):  # memoised tables cost the same units
        if not warm:
            hand_solvers.clear_caches()
        one = HandRule().solve(hand, F(24), None, budget=witness, count=False, wanted=1)
        assert (one.solvable, one.distinct, one.reason, len(one.trees)) == (True, None, "", 1)
        assert one.trees[0].value == 24
    short = HandRule().solve(hand, F(24), None, budget=witness - 1, count=False, wanted=1)
    assert (short.solvable, short.reason) == (None, "work budget")
    full = HandRule().solve(hand, F(24), None, budget=witness)
    assert (full.distinct, full.reason) == (None, "work budget")  # counting needs more


def test_n_solutions_cost_less_than_the_count() -> None:
    """Stopping at two distinct solutions spends fewer units than counting them all
    (1 2 3 4 has three), and the two are among the counted ones."""
    numbers = (1, 2, 3, 4)
    every = hand_solvers.solutions24(numbers)
    assert len(every) == 3  # (1+2+3)×4, 1×2×3×4, (1+3)×(2+4)
    hand_solvers.clear_caches()
    some, all_ = Watch(), Watch()
    with hand_solvers.metered(some):
        two = hand_solvers.solutions24(numbers, at_most=2)
    with hand_solvers.metered(all_):
        hand_solvers.solutions24(numbers)
    assert some.spent < all_.spent
    assert len(two) == 2 and {s.normal_form for s in two} <= {s.normal_form for s in every}


def test_other_rules_without_the_count() -> None:
    """Countdown and other cards still answer (their count is simply not shown)."""
    countdown = HandRule(countdown=True).solve(
        [F(v) for v in (25, 50, 75, 100, 3, 6)], F(952), None, count=False, wanted=1
    )
    assert (countdown.solvable, countdown.distinct, len(countdown.trees)) == (True, None, 1)
    assert countdown.trees[0].value == 952
    from core.algebrawl.cards import ADD, MUL

    cards = HandRule(cards=(ADD, MUL)).solve(
        [F(v) for v in (1, 2, 3, 4)], F(24), None, count=False, wanted=1
    )
    assert (cards.solvable, cards.distinct, len(cards.trees)) == (True, None, 1)
    assert cards.trees[0].value == 24
    none = HandRule(cards=(ADD,)).solve([F(1), F(2)], F(24), None, count=False, wanted=1)
    assert none == HandAnswer(False, 0, True, [])


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.sampled_from((1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 25, 50, 75, 100)), min_size=1, max_size=5
    ),
    st.integers(1, 400),
)
def test_countdown_witness_decides_as_the_reachability_table(
    numbers: list[int], target: int
) -> None:
    """One Countdown expression or none, as the independent reachability solver says; the
    expression follows the rules (some of the numbers once each, whole positive steps)."""
    from core.algebrawl.ast import Node, postorder
    from core.algebrawl.countdown import countdown_reachable, countdown_witness

    tree = countdown_witness(numbers, target)
    assert (tree is not None) is (target in countdown_reachable(numbers, target, target))
    if tree is not None:
        assert tree.value == target
        assert not Counter(ast_leaves(tree)) - Counter(F(v) for v in numbers)
        steps = [a.value for a in postorder(tree) if isinstance(a, Node)]
        assert all(v.denominator == 1 and v >= 1 for v in steps)
    answer = HandRule(countdown=True).solve(
        [F(v) for v in numbers], F(target), None, count=False, wanted=1
    )
    assert answer.solvable is (tree is not None)
    assert answer.distinct == (None if tree is not None else 0)


def test_countdown_without_the_count_spends_only_the_tables() -> None:
    """952 from 25 50 75 100 3 6: the witness costs the tables' units, counting more, so a
    budget of exactly the tables answers without the count and cuts the count."""
    from core.algebrawl.countdown import countdown_solutions, countdown_witness

    numbers = [25, 50, 75, 100, 3, 6]
    tables, counting = Watch(), Watch()
    assert countdown_witness(numbers, 952, watch=tables) is not None
    countdown_solutions(numbers, 952, watch=counting)
    assert 0 < tables.spent < counting.spent
    hand = [F(v) for v in numbers]
    one = HandRule(countdown=True).solve(
        hand, F(952), None, budget=tables.spent, count=False, wanted=1
    )
    assert (one.solvable, one.reason, one.trees[0].value) == (True, "", 952)
    full = HandRule(countdown=True).solve(hand, F(952), None, budget=tables.spent)
    assert (full.solvable, full.reason) == (None, "work budget")
