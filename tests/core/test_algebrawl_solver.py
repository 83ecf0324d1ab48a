"""The puzzle solver against an exhaustive search of the game itself."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import (
    ADD,
    DEFAULT_CARDS,
    DIV,
    GAME,
    MUL,
    NEG,
    POISON,
    SPLIT,
    SQUARE,
    SUB,
    Card,
    PlayCard,
    Puzzle,
    Strike,
    count_solutions24,
    hint,
    normal_form,
    solution_moves,
    solve,
    solve_state,
)
from core.algebrawl.expr import Arg, BinOp, Num

AVG = Card("avg", ("a", "b"), BinOp("/", BinOp("+", Arg(0, "a"), Arg(1, "b")), Num(2)))
CARDS = [ADD, SUB, MUL, DIV, NEG, SQUARE, SPLIT, POISON, AVG]
TWENTY_FOUR = tuple(c for c in DEFAULT_CARDS for _ in range(3))


def game_search(puzzle, equivalence="neutral"):
    """Every won position reachable by playing the game: the set of solutions, each the
    sorted (target value, normal form) pairs of its strikes."""
    found, seen = set(), set()
    stack = [GAME.initial(puzzle)]
    while stack:
        state = stack.pop()
        if state in seen:
            continue
        seen.add(state)
        if GAME.status(state) == "won":
            found.add(
                tuple(
                    sorted(
                        (puzzle.targets[t], normal_form(tree, equivalence))
                        for t, tree in state.struck
                    )
                )
            )
            continue
        stack.extend(GAME.apply(state, m) for m in GAME.moves(state))
    return found


@st.composite
def small_puzzles(draw):
    numbers = draw(st.lists(st.integers(-3, 9), min_size=2, max_size=4))
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=3))
    n_targets = draw(st.integers(1, min(2, len(numbers))))
    targets = draw(st.lists(st.integers(-6, 30), min_size=n_targets, max_size=n_targets))
    # Make about half the puzzles solvable: some targets are values of random trees.
    if draw(st.booleans()) and cards:
        targets[0] = _some_value(numbers, cards, draw(st.integers(0, 10**6)))
    return Puzzle.of(
        numbers, targets, cards, integer_only=draw(st.booleans()), use_all=draw(st.booleans())
    )


def _some_value(numbers, cards, seed):
    import random

    rng = random.Random(seed)
    state = GAME.initial(Puzzle.of(numbers, [numbers[0]], cards))
    for _ in range(rng.randint(1, 3)):
        moves = [m for m in GAME.moves(state) if isinstance(m, PlayCard)]
        if not moves:
            break
        state = GAME.apply(state, rng.choice(moves))
    value = rng.choice(state.pool).value
    return value if value.denominator == 1 and abs(value) <= 10**6 else numbers[0]


@settings(max_examples=120, deadline=None)
@given(small_puzzles())
def test_solvability_equals_the_game_search(puzzle):
    want = game_search(puzzle)
    result = solve(puzzle)
    assert result.status == ("solved" if want else "unsolvable")
    if want:
        _assert_plays_and_wins(puzzle, result.strikes)


@settings(max_examples=60, deadline=None)
@given(small_puzzles(), st.sampled_from(["ac", "neutral"]))
def test_distinct_solutions_equal_the_game_search(puzzle, equivalence):
    want = game_search(puzzle, equivalence)
    result = solve(puzzle, count=True, equivalence=equivalence)
    assert result.count == len(want)
    assert result.complete


def _assert_plays_and_wins(puzzle, strikes):
    state = GAME.initial(puzzle)
    for move in solution_moves(state, strikes):
        state = GAME.apply(state, move)
    assert GAME.status(state) == "won"


def test_hand_worked_puzzle():
    p = Puzzle.of([3, 4, 5, 6], [35, 6])
    result = solve(p)
    assert result.status == "solved"
    assert {t: tree.value for t, tree in result.strikes} == {0: 35, 1: 6}
    _assert_plays_and_wins(p, result.strikes)
    assert solve(Puzzle.of([3, 4, 5, 6], [1000])).status == "unsolvable"


def test_the_24_game_as_a_puzzle():
    for hand in ([1, 2, 3, 4], [3, 3, 8, 8], [1, 1, 1, 1], [4, 7, 8, 8]):
        p = Puzzle.of(hand, 24, TWENTY_FOUR, use_all=True)
        result = solve(p, count=True)
        assert result.count == count_solutions24(hand)
    whole = Puzzle.of([3, 3, 8, 8], 24, TWENTY_FOUR, use_all=True, integer_only=True)
    assert solve(whole).status == "unsolvable"  # 8 ÷ (3 − 8 ÷ 3) needs 8/3


def test_a_card_is_never_used_more_often_than_dealt():
    # Found by hypothesis: a card's copy plus two children that each used it once summed to
    # a carry in the packed card counts, so (0 + 0) + (0 + 0) "used" one + card three times.
    # By hand: use_all with four numbers needs all three cards, so ÷ must be played, and
    # every value is 0, so every ÷ is a refused division by zero.
    p = Puzzle.of([0, 0, 0, 0], [0], [ADD, SUB, DIV], use_all=True)
    assert game_search(p) == set()
    assert solve(p).status == "unsolvable"
    assert solve(Puzzle.of([0, 0, 0, 0], [0], [ADD, SUB, SUB], use_all=True)).status == "solved"


def test_hint_leads_towards_a_win():
    p = Puzzle.of([2, 3, 4, 5, 7], [14, 20], [ADD, MUL, MUL, SUB])
    state = GAME.initial(p)
    for _ in range(10):
        if GAME.status(state) != "playing":
            break
        move = hint(state)
        assert move is not None and move in GAME.moves(state)
        state = GAME.apply(state, move)
    assert GAME.status(state) == "won"


def test_hint_from_a_losing_position_is_none():
    # 14 = (3 + 4) × 2 = 3 × 4 + 2; after 2 × 3 only 6 and 4 are left, with a + card.
    p = Puzzle.of([2, 3, 4], [14], [ADD, MUL])
    state = GAME.apply(GAME.initial(p), PlayCard(1, (0, 1)))
    assert solve_state(state).status == "unsolvable"
    assert hint(state) is None
    first = hint(GAME.initial(p))
    assert first in (PlayCard(0, (1, 2)), PlayCard(1, (1, 2)))
    assert solve_state(GAME.apply(GAME.initial(p), first)).status == "solved"


def test_limits_give_unknown():
    p = Puzzle.of([1, 2, 3, 4, 5, 6, 7, 8], [9999], [ADD, SUB, MUL, DIV] * 2)
    assert solve(p, max_entries=500).status == "unknown"
    assert solve(p, should_stop=lambda: True).status == "unknown"
    assert solve(p, time_limit=0).status == "unknown"
    # a count cut short by a limit is not complete, even when some solution was found
    easy = Puzzle.of([1, 2, 3, 4, 5], 15, [ADD] * 4 + [MUL] * 4)
    calls = []
    partial = solve(easy, count=True, should_stop=lambda: len(calls) > 40 or calls.append(1))
    assert partial.status in ("solved", "unknown") and not partial.complete


def test_already_won_and_struck_positions():
    p = Puzzle.of([5, 6], [6])
    s = GAME.apply(GAME.initial(p), Strike(1, 0))
    assert solve_state(s).status == "solved" and solve_state(s).strikes == ()


def test_counting_limit():
    p = Puzzle.of([1, 2, 3, 4], 10, TWENTY_FOUR, use_all=True)
    full = solve(p, count=True)
    capped = solve(p, count=True, max_count=3)
    assert full.count > 3 and capped.count == 3 and not capped.complete


def test_unknown_equivalence():
    with pytest.raises(ValueError):
        solve(Puzzle.of([1], 1), equivalence="nope")


def test_solution_values_are_exact():
    p = Puzzle.of([1, 3], [F(1, 3)], [DIV])
    assert solve(p).strikes[0][1].value == F(1, 3)
