"""Algebrawl play rules: puzzles, moves, outcomes and the Game protocol."""

from __future__ import annotations

import json
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
    PlayCard,
    Puzzle,
    Strike,
    to_infix,
)
from core.algebrawl.values import MAX_INPUT
from core.game import IllegalMove, replay_moves
from tests.game_protocol import check_game


def play(puzzle, *moves):
    state = GAME.initial(puzzle)
    for m in moves:
        state = GAME.apply(state, m)
    return state


def values(state):
    return [t.value for t in state.pool]


# -- puzzles -------------------------------------------------------------------------------


def test_puzzle_bounds_are_checked():
    with pytest.raises(ValueError):
        Puzzle.of([], 3)
    with pytest.raises(ValueError):
        Puzzle.of([1] * 13, 3)
    with pytest.raises(ValueError):
        Puzzle.of([1, 2], [3, 4, 5])  # more targets than numbers
    with pytest.raises(ValueError):
        Puzzle.of([MAX_INPUT + 1], 3)
    with pytest.raises(ValueError):
        Puzzle.of([F(1, MAX_INPUT + 1)], 3)
    with pytest.raises(TypeError):
        Puzzle.of([1.5], 3)
    with pytest.raises(ValueError):
        Puzzle.of([F(1, 2)], 3, integer_only=True)
    Puzzle.of([MAX_INPUT, F(-7, 2)], F(1, MAX_INPUT))  # the extremes are fine


def test_two_different_cards_cannot_share_a_name():
    from core.algebrawl import Card
    from core.algebrawl.expr import Arg, BinOp

    fake = Card("add", ("a", "b"), BinOp("-", Arg(0, "a"), Arg(1, "b")))
    with pytest.raises(ValueError, match="named 'add'"):
        Puzzle.of([1, 2], 3, [ADD, fake])


# -- a hand-worked game --------------------------------------------------------------------


def test_hand_worked_game_with_two_targets():
    # 3, 4, 5, 6 with + − × ÷ against monsters 35 and 6: (3 + 4) × 5 = 35, and 6 strikes 6.
    p = Puzzle.of([3, 4, 5, 6], [35, 6])
    s = GAME.initial(p)
    assert GAME.status(s) == "playing"
    s = GAME.apply(s, PlayCard(0, (0, 1)))  # 3 + 4
    assert values(s) == [7, 5, 6]  # the result takes the place of the leftmost argument
    assert s.hand == (1, 2, 3)
    s = GAME.apply(s, PlayCard(2, (0, 1)))  # 7 × 5
    assert values(s) == [35, 6]
    assert to_infix(s.pool[0]) == "(3 + 4) × 5"
    s = GAME.apply(s, Strike(0, 0))
    assert s.standing == (1,) and GAME.status(s) == "playing"
    s = GAME.apply(s, Strike(0, 1))
    assert GAME.status(s) == "won" and GAME.finished(s)
    assert GAME.moves(s) == ()
    assert [t for t, _ in s.struck] == [0, 1]


def test_lost_when_no_move_is_left():
    # 1 and 2 with a single + make 3, never 4: after playing + nothing is left.
    s = play(Puzzle.of([1, 2], 4, [ADD]), PlayCard(0, (0, 1)))
    assert values(s) == [3]
    assert GAME.status(s) == "lost" and GAME.moves(s) == ()
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(s, Strike(0, 0))


def test_each_card_is_played_once():
    s = play(Puzzle.of([1, 2, 3], 100, [ADD, MUL]), PlayCard(0, (0, 1)))
    with pytest.raises(IllegalMove, match="already been played"):
        GAME.apply(s, PlayCard(0, (0, 1)))
    with pytest.raises(IllegalMove, match="no such card"):
        GAME.apply(s, PlayCard(7, (0, 1)))


def test_division_by_zero_is_refused_with_a_message():
    p = Puzzle.of([5, 3, 3], 1, [SUB, DIV])
    s = play(p, PlayCard(0, (1, 2)))  # 3 − 3 = 0
    assert values(s) == [5, 0]
    with pytest.raises(IllegalMove, match="division by zero"):
        GAME.check(s, PlayCard(1, (0, 1)))
    with pytest.raises(IllegalMove, match="division by zero"):
        GAME.apply(s, PlayCard(1, (0, 1)))
    assert PlayCard(1, (0, 1)) not in GAME.moves(s)
    assert PlayCard(1, (1, 0)) in GAME.moves(s)  # 0 ÷ 5 is fine
    assert "division by zero" in GAME.describe_move(s, PlayCard(1, (0, 1)))


def test_exact_fractions():
    s = play(Puzzle.of([1, 3, 3], 1, [DIV, MUL]), PlayCard(0, (0, 1)), PlayCard(1, (0, 1)))
    assert values(s) == [F(1)]  # (1 ÷ 3) × 3 is exactly 1
    assert (
        GAME.status(
            play(
                Puzzle.of([1, 3, 3], 1, [DIV, MUL]),
                PlayCard(0, (0, 1)),
                PlayCard(1, (0, 1)),
                Strike(0, 0),
            )
        )
        == "won"
    )


def test_integer_only_refuses_fractions():
    p = Puzzle.of([7, 2], 14, [DIV, MUL], integer_only=True)
    s = GAME.initial(p)
    with pytest.raises(IllegalMove, match="whole numbers"):
        GAME.apply(s, PlayCard(0, (0, 1)))
    assert PlayCard(0, (0, 1)) not in GAME.moves(s)
    assert GAME.apply(s, PlayCard(1, (0, 1))).pool[0].value == 14


def test_strike_needs_an_equal_value():
    s = GAME.initial(Puzzle.of([5, 6], [6]))
    with pytest.raises(IllegalMove, match="5 does not match the target 6"):
        GAME.apply(s, Strike(0, 0))
    with pytest.raises(IllegalMove):
        GAME.apply(s, Strike(9, 0))


def test_use_all_needs_an_empty_pool():
    # The 24 game: every number must be used. 2 × 12 strikes 24 but strands 1 and 1.
    cards = tuple(c for c in DEFAULT_CARDS for _ in range(3))
    p = Puzzle.of([1, 1, 2, 12], 24, cards, use_all=True)
    s = play(p, PlayCard(6, (2, 3)), Strike(2, 0))
    assert values(s) == [1, 1] and not s.standing
    assert GAME.status(s) == "lost"
    s = play(p, PlayCard(6, (0, 1)), PlayCard(7, (0, 1)), PlayCard(8, (0, 1)), Strike(0, 0))
    assert GAME.status(s) == "won"  # ((1 × 1) × 2) × 12


def test_unary_and_special_cards():
    p = Puzzle.of([7, 5, 3], 1, [NEG, SQUARE, SPLIT, POISON])
    assert GAME.apply(GAME.initial(p), PlayCard(0, (0,))).pool[0].value == -7
    assert GAME.apply(GAME.initial(p), PlayCard(1, (1,))).pool[1].value == 25
    assert GAME.apply(GAME.initial(p), PlayCard(2, (2,))).pool[2].value == F(3, 2)
    assert GAME.apply(GAME.initial(p), PlayCard(3, (0,))).pool[0].value == 6  # poison: odd − 1
    s = GAME.apply(GAME.initial(p), PlayCard(2, (0,)))  # 7/2 is not odd: poison leaves it
    assert GAME.apply(s, PlayCard(3, (0,))).pool[0].value == F(7, 2)


def test_results_beyond_the_bound_are_refused():
    p = Puzzle.of([MAX_INPUT, MAX_INPUT, MAX_INPUT], 1, [MUL, MUL, SUB])
    s = play(p, PlayCard(0, (0, 1)))  # 10**12 is the largest value allowed
    assert s.pool[0].value == 10**12
    with pytest.raises(IllegalMove, match="too large"):
        GAME.apply(s, PlayCard(1, (0, 1)))
    assert [m.card for m in GAME.moves(s)] == [2, 2]  # only the two subtractions remain


def test_moves_are_deduplicated():
    # Equal cards, equal numbers and the two orders of + are offered once; − in both orders.
    p = Puzzle.of([2, 2, 3], 100, [ADD, ADD, SUB])
    moves = GAME.moves(GAME.initial(p))
    adds = [m for m in moves if m.card in (0, 1)]
    subs = [m for m in moves if m.card == 2]
    assert adds == [PlayCard(0, (0, 1)), PlayCard(0, (0, 2))]  # 2+2, 2+3
    assert subs == [PlayCard(2, (0, 1)), PlayCard(2, (0, 2)), PlayCard(2, (2, 0))]


def test_describe_move():
    s = GAME.initial(Puzzle.of([3, 4, 7], [7], [ADD, SPLIT]))
    assert GAME.describe_move(s, PlayCard(0, (0, 1))) == "3 + 4 = 7"
    assert GAME.describe_move(s, PlayCard(1, (2,))) == "split(7) = 7/2"
    assert GAME.describe_move(s, Strike(2, 0)) == "strike 7"
    s = GAME.apply(s, PlayCard(0, (0, 1)))
    assert GAME.describe_move(s, Strike(0, 0)) == "strike 7 with 3 + 4"


# -- codec ---------------------------------------------------------------------------------


def test_state_codec_round_trip_and_validation():
    p = Puzzle.of([3, 4, 5, F(1, 2)], [35, F(1, 2)], [ADD, SUB, MUL, DIV, SQUARE])
    s = play(p, PlayCard(0, (0, 1)), PlayCard(2, (0, 1)), Strike(0, 0))
    data = json.loads(json.dumps(GAME.state_to_json(s)))
    assert GAME.state_from_json(data) == s
    forged = json.loads(json.dumps(data))
    forged["pool"][0] = "7"  # a number that the puzzle never had
    with pytest.raises(ValueError):
        GAME.state_from_json(forged)
    forged = json.loads(json.dumps(data))
    forged["hand"] = [0, 1, 3, 4]  # claims + was not played, but the tree uses it
    with pytest.raises(ValueError):
        GAME.state_from_json(forged)
    forged = json.loads(json.dumps(data))
    forged["struck"][0][1] = {"card": "sub", "args": ["3", "4"]}
    with pytest.raises(ValueError):
        GAME.state_from_json(forged)
    with pytest.raises(ValueError):
        GAME.state_from_json({"puzzle": data["puzzle"], "pool": [{"card": "add"}]})


def test_move_codec():
    s = GAME.initial(Puzzle.of([1, 2], 3))
    for m in (PlayCard(0, (1, 0)), Strike(1, 0)):
        assert GAME.move_from_json(s, json.loads(json.dumps(GAME.move_to_json(m)))) == m
    for bad in (
        None,
        3,
        {"play": "x", "args": []},
        {"strike": True, "value": 0},
        {"play": 0, "args": [1.5]},
    ):
        with pytest.raises(ValueError):
            GAME.move_from_json(s, bad)


def test_deep_state_json_is_refused_cleanly():
    p = Puzzle.of([1, 2], 3)
    deep: object = "1"
    for _ in range(100_000):
        deep = {"card": "neg", "args": [deep]}
    data = GAME.state_to_json(GAME.initial(p))
    data["pool"][0] = deep
    with pytest.raises(ValueError):
        GAME.state_from_json(data)


# -- the shared protocol ---------------------------------------------------------------------

PUZZLES = [
    Puzzle.of([3, 4, 5, 6], [35, 6]),
    Puzzle.of([1, 2, 3, 4], 24, tuple(c for c in DEFAULT_CARDS for _ in range(3)), use_all=True),
    Puzzle.of([7, 5, 3, 2, 0], [2, 9], [ADD, SUB, MUL, DIV, NEG, SQUARE, SPLIT, POISON]),
    Puzzle.of([6, 4, 9, 3], [2, 3], [DIV, DIV, SUB], integer_only=True),
]


@pytest.mark.parametrize("puzzle", PUZZLES)
def test_game_protocol(puzzle):
    check_game(GAME, puzzle, seeds=range(6))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 9), min_size=1, max_size=4), st.integers(0, 2**32 - 1))
def test_random_playouts_replay(numbers, seed):
    p = Puzzle.of(numbers, numbers[0] + 1, [ADD, SUB, MUL, DIV, NEG])
    check_game(GAME, p, seeds=(seed,))


def test_replay_reports_the_bad_move():
    p = Puzzle.of([1, 2], 3)
    start = GAME.initial(p)
    with pytest.raises(IllegalMove, match="move 2"):
        replay_moves(GAME, start, [{"play": 0, "args": [0, 1]}, {"play": 0, "args": [0, 1]}])
