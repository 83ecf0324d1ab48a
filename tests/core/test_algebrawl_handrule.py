"""A hand under a rule (core.algebrawl.handrule): hand-worked answers, and what is said when
the caller's time limit fires before or during the count."""

from __future__ import annotations

from contextlib import contextmanager
from fractions import Fraction as F

import pytest

from core.algebrawl.ast import ast_eval
from core.algebrawl.cards import ADD, DIV, MUL, SUB
from core.algebrawl.handrule import HandAnswer, HandRule, TimeUp


def hand(*values: int) -> list[F]:
    return [F(v) for v in values]


@contextmanager
def fires_at_once(seconds: float):
    raise TimeUp
    yield  # pragma: no cover - never reached


def test_24_rule_hand_worked() -> None:
    # 4 7 8 8 -> 24: 7×8 − 4×8, 4×(7 − 8÷8), 8×(4 + 7 − 8); nothing else up to the
    # equivalence of yuuki15's solver.
    answer = HandRule().solve(hand(4, 7, 8, 8), F(24), 10)
    assert (answer.solvable, answer.distinct, answer.complete) == (True, 3, True)
    assert [ast_eval(tree) for tree in answer.trees] == [24, 24, 24]
    assert HandRule().solve(hand(1, 1, 1, 1), F(24), 10) == HandAnswer(False, 0, True, [])


def test_countdown_and_cards_hand_worked() -> None:
    answer = HandRule(countdown=True).solve(hand(2, 2), F(4), 10)  # 2 + 2 and 2 × 2
    assert (answer.solvable, answer.distinct) == (True, 2)
    # Only + (twice): 1 + 2 + 3, one solution whatever the order; with × too, 1 × 2 × 3.
    assert HandRule(cards=(ADD,)).solve(hand(1, 2, 3), F(6), 10).distinct == 1
    assert HandRule(cards=(ADD, MUL)).solve(hand(1, 2, 3), F(6), 10).distinct == 2
    assert HandRule(cards=(ADD,)).solve(hand(1, 2, 3), F(7), 10).solvable is False


def test_a_limit_that_fires_at_once_leaves_the_hand_unknown() -> None:
    for rule in (HandRule(), HandRule(countdown=True)):
        assert rule.solve(hand(4, 7, 8, 8), F(24), 10, fires_at_once) == HandAnswer(
            None, None, False, [], "time limit"
        )


def test_time_up_while_counting_keeps_the_hand_solvable(monkeypatch) -> None:
    import core.algebrawl.hands as hands

    def out_of_time(*args, **options):
        raise TimeUp

    monkeypatch.setattr(hands, "solutions24", out_of_time)
    answer = HandRule().solve(hand(4, 7, 8, 8), F(24), 10)
    assert (answer.solvable, answer.distinct, answer.complete) == (True, None, False)
    [tree] = answer.trees
    assert ast_eval(tree) == 24


@pytest.mark.parametrize(
    ("rule", "numbers", "target", "why"),
    [
        (HandRule(), [], 24, "a hand has 1 to 7 numbers, not 0"),
        (HandRule(countdown=True), [F(1, 2), F(3)], 24, "Countdown takes whole numbers"),
        (HandRule(countdown=True), hand(1, 2), 0, "Countdown takes whole numbers"),
        # each card once per combination: 6 combinations × 4 cards = 24, the most a hand holds
        (HandRule(cards=(ADD, SUB, MUL, DIV)), hand(*range(1, 8)), 24, None),
        (HandRule(cards=(ADD, SUB, MUL, DIV, ADD)), hand(*range(1, 8)), 24, None),
    ],
)
def test_the_rule_refuses_hands_it_cannot_take(rule, numbers, target, why) -> None:
    if why is None:  # at the bound (a repeated card counts once): accepted
        rule.check(numbers, F(target))
        return
    with pytest.raises(ValueError, match=why):
        rule.check(numbers, F(target))


def test_a_hand_needing_more_cards_than_a_hand_holds_is_refused() -> None:
    from core.algebrawl.cards import NEG

    with pytest.raises(
        ValueError, match=r"7 numbers with 5 cards need 30 cards in hand \(at most 24\)"
    ):
        HandRule(cards=(ADD, SUB, MUL, DIV, NEG)).check(hand(*range(1, 8)), F(24))
