"""Seed 002's generator: the random helpers, the reductions and the difficulty controls."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import (
    ADD,
    DIV,
    GAME,
    MUL,
    NEG,
    SPLIT,
    SQUARE,
    SUB,
    Leaf,
    generate,
    generate_hand,
    solution_moves,
    solve,
)
from core.algebrawl.ast import ast_cards, ast_leaves, postorder
from core.algebrawl.generator import (
    GenerationFailed,
    GeneratorConfig,
    Rejected,
    leaves_full_reduce,
    leaves_reduce,
    rand,
    rand_identity_pick,
    rand_list,
    rand_op,
    rand_op_list,
)
from core.algebrawl.hands import solvable24


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 50), max_size=12), st.integers(0, 12), st.integers(0, 2**32 - 1))
def test_pick_without_test_takes_exactly_n(items, n, seed):
    picked, rest = rand_identity_pick(random.Random(seed), items, n)
    assert len(picked) == min(n, len(items))
    assert Counter(picked) + Counter(rest) == Counter(items)
    assert _subsequence(picked, items) and _subsequence(rest, items)  # one pass keeps list order


def _subsequence(part, whole) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


def test_pick_is_uniform_over_subsets():
    rng = random.Random(7)
    counts = Counter(tuple(rand_identity_pick(rng, [0, 1, 2, 3], 2)[0]) for _ in range(6000))
    assert set(counts) == {(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)}
    assert all(900 < c < 1100 for c in counts.values())  # 1000 each expected


def test_pick_respects_the_rejection_test_and_retries():
    rng = random.Random(3)
    for _ in range(200):
        picked, rest = rand_identity_pick(
            rng, list(range(10)), 3, test=lambda x: x % 2 == 0, retry=3
        )
        assert all(x % 2 == 0 for x in picked)
        assert sorted(picked + rest) == list(range(10))
    # without retries a strict test often leaves the pick short; with them almost never
    short0 = sum(
        len(rand_identity_pick(rng, list(range(10)), 3, lambda x: x < 5, 0)[0]) < 3
        for _ in range(300)
    )
    short5 = sum(
        len(rand_identity_pick(rng, list(range(10)), 3, lambda x: x < 5, 5)[0]) < 3
        for _ in range(300)
    )
    assert short5 < short0


def test_rand_and_lists():
    rng = random.Random(1)
    assert all(3 <= rand(rng, 3, 10) < 10 for _ in range(200))
    assert len(rand_list(rng, 10, 3, 10)) == 10
    assert rand_op(rng, [ADD, SUB], test=lambda c: False, retry=2) is None
    weights = Counter(rand_op(rng, [ADD, MUL], weights=[9, 1]).name for _ in range(2000))
    assert weights["add"] > 6 * weights["mul"]
    with pytest.raises(Rejected):
        rand_op_list(rng, 3, [DIV], test=lambda c: c is not DIV)


def test_leaves_reduce_conses_the_new_tree():
    rng = random.Random(0)
    leaves = tuple(Leaf(F(v)) for v in (2, 3, 4))
    out = leaves_reduce(rng, leaves, ADD)
    assert len(out) == 2 and not isinstance(out[0], Leaf) and out[0].depth == 1
    assert out[0].value == sum(ast_leaves(out[0]))  # 2 + 3, 2 + 4 or 3 + 4
    assert sorted(ast_leaves(out[0]) + (out[1].value,)) == [2, 3, 4]
    full = leaves_full_reduce(random.Random(0), leaves, [ADD, MUL])
    assert len(full) == 1 and full[0].depth == 2 and sorted(ast_leaves(full[0])) == [2, 3, 4]
    with pytest.raises(Rejected):
        leaves_reduce(rng, (Leaf(F(1)),), ADD)  # not enough trees
    with pytest.raises(Rejected):
        leaves_reduce(rng, (Leaf(F(1)), Leaf(F(2))), ADD, accept=lambda node: False)


def test_division_by_zero_is_a_rejection():
    rng = random.Random(0)
    hits = 0
    for _ in range(50):
        try:
            leaves_reduce(rng, (Leaf(F(0)), Leaf(F(0))), DIV)
        except Rejected as error:
            hits += "division by zero" in str(error)
    assert hits == 50


def _check_generated(g, config):
    p = g.puzzle
    assert [t.value for t in g.solution] == list(p.targets)
    used = Counter(v for t in g.solution for v in ast_leaves(t))
    assert used == Counter(p.numbers)  # every number used once, no leftovers
    assert Counter(c for t in g.solution for c in ast_cards(t)) <= Counter(p.cards)
    for t in g.solution:
        assert max(config.min_depth, 1) <= t.depth <= (config.max_depth or 99)
        assert t.value not in p.numbers
        for node in postorder(t):
            if config.integer_only:
                assert node.value.denominator == 1
            if config.nonnegative:
                assert node.value >= 0
    state = GAME.initial(p)
    for move in solution_moves(state, tuple(enumerate(g.solution))):
        state = GAME.apply(state, move)
    assert GAME.status(state) == "won"


@pytest.mark.parametrize(
    "config",
    [
        GeneratorConfig(),
        GeneratorConfig(numbers=8, ops=6, max_depth=4, min_depth=2, spare_cards=2),
        GeneratorConfig(numbers=8, ops=6, max_depth=4, min_depth=3),
        GeneratorConfig(
            numbers=5,
            ops=4,
            cards=(ADD, SUB, MUL, DIV, NEG, SQUARE, SPLIT),
            integer_only=False,
            nonnegative=False,
            weights=(1, 1, 1, 1, 2, 2, 2),
        ),
        GeneratorConfig(numbers=6, ops=5, max_depth=None, min_depth=5, max_card_score=2),
    ],
)
def test_generated_puzzles_keep_their_promises(config):
    for seed in range(8):
        g = generate(config, seed)
        _check_generated(g, config)
        assert generate(config, seed) == g  # replayable from the seed
        if config.max_card_score is not None:
            assert all(config.score(c) <= config.max_card_score for c in g.puzzle.cards)


def test_generated_puzzles_are_solvable_by_the_solver():
    for seed in range(6):
        g = generate(GeneratorConfig(numbers=5, ops=3, min_depth=1), seed)
        assert solve(g.puzzle).status == "solved"


def test_score_range_and_failure():
    cfg = GeneratorConfig(ops=4, score_range=(4, 5))  # four +, or three + and a − or ×
    for seed in range(3):
        g = generate(cfg, seed)
        assert 4 <= sum(cfg.score(c) for c in g.puzzle.cards) <= 5 and 4 <= g.score <= 5
    with pytest.raises(GenerationFailed):
        generate(GeneratorConfig(numbers=3, ops=1, min_depth=3, max_attempts=30), 0)
    with pytest.raises(ValueError):
        GeneratorConfig(numbers=0)


def test_neutral_cards_are_rejected():
    for seed in range(20):
        g = generate(GeneratorConfig(low=1, high=3, numbers=6, ops=4), seed)
        for t in g.solution:
            for node in postorder(t):
                if not isinstance(node, Leaf) and node.card in (MUL, DIV):
                    assert node.children[1].value != 1
                    if node.card is MUL:
                        assert node.children[0].value != 1


def test_generate_hand_in_a_band():
    from core.algebrawl import predict_seconds

    for seed in range(3):
        easy = generate_hand((0, 12), seed)
        hard = generate_hand((40, 10_000), seed)
        for g, (lo, hi) in ((easy, (0, 12)), (hard, (40, 10_000))):
            hand = [int(v) for v in g.puzzle.numbers]
            assert solvable24(hand) and lo <= g.predicted_seconds <= hi
            assert g.predicted_seconds == pytest.approx(predict_seconds(hand))
            assert g.puzzle.use_all and g.solution[0].value == 24
    with pytest.raises(GenerationFailed):
        generate_hand((0, 0.001), 0, max_attempts=50)
