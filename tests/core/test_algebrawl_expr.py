"""Card expressions: bounded evaluation, validation, printing and JSON."""

from __future__ import annotations

import json
import time
from fractions import Fraction as F

import pytest

from core.algebrawl import GAME, LIBRARY, SQUARE, Card, PlayCard, Puzzle
from core.algebrawl.cards import card_from_json, card_to_json
from core.algebrawl.expr import (
    MAX_EXPR_NODES,
    Arg,
    BinOp,
    Call,
    EvalError,
    Neg,
    Num,
    check_expr,
    evaluate,
    expr_from_json,
    expr_to_json,
    to_text,
)
from core.game import IllegalMove

A, B = Arg(0, "a"), Arg(1, "b")


def ev(expr, *args):
    return evaluate(expr, [F(x) for x in args])


def test_arithmetic_is_exact():
    avg = BinOp("/", BinOp("+", A, B), Num(2))
    assert ev(avg, 3, 4) == F(7, 2)
    assert ev(BinOp("^", A, Neg(Num(2))), 2) == F(1, 4)
    assert ev(BinOp("^", A, B), F(2, 3), 3) == F(8, 27)
    assert ev(BinOp("-", A, Call("odd", (A,))), 7) == 6
    assert ev(BinOp("-", A, Call("odd", (A,))), 8) == 8
    assert ev(Call("mod", (A, B)), -7, 3) == 2
    assert ev(Call("floor", (A,)), F(-7, 2)) == -4 and ev(Call("ceil", (A,)), F(-7, 2)) == -3
    assert ev(Call("min", (A, B)), 2, 5) == 2 and ev(Call("max", (A, B)), 2, 5) == 5
    assert ev(Call("abs", (A,)), -3) == 3 and ev(Call("even", (A,)), 4) == 1


@pytest.mark.parametrize(
    "expr, args, message",
    [
        (BinOp("/", A, B), (1, 0), "division by zero"),
        (Call("mod", (A, B)), (1, 0), "mod by zero"),
        (BinOp("^", A, B), (0, -1), "division by zero"),
        (BinOp("^", A, B), (2, F(1, 2)), "whole number"),
        (BinOp("^", A, B), (2, 65), "at most 64"),
        (BinOp("^", A, B), (10**6, 64), "too large"),
        (BinOp("^", BinOp("^", BinOp("^", A, Num(64)), Num(64)), Num(64)), (3,), "too large"),
    ],
)
def test_evaluation_limits(expr, args, message):
    start = time.perf_counter()
    with pytest.raises(EvalError, match=message):
        ev(expr, *args)
    # Refused before computing, not after: computing the largest would not end (3^64^64^64
    # has more digits than atoms in the universe), so only a computation reaches this bound.
    assert time.perf_counter() - start < 30


def test_repeated_squaring_stops_at_the_value_bound():
    p = Puzzle.of([10], 1, [SQUARE] * 6 + [LIBRARY["neg"]])
    s = GAME.initial(p)
    for expected in (100, 10**4, 10**8):
        s = GAME.apply(s, PlayCard(s.hand[0], (0,)))
        assert s.pool[0].value == expected
    with pytest.raises(IllegalMove, match="too large"):
        GAME.apply(s, PlayCard(s.hand[0], (0,)))  # 10**16 > 10**12


def test_check_expr():
    check_expr(BinOp("+", A, B), 2)
    deep = A
    for _ in range(MAX_EXPR_NODES):
        deep = Neg(deep)
    with pytest.raises(ValueError, match="at most"):
        check_expr(deep, 1)
    for bad, arity in (
        (Arg(2, "c"), 2),
        (Call("sqrt", (A,)), 1),
        (Call("min", (A,)), 1),
        (BinOp("%", A, A), 1),
        (Num(-1), 1),
        (Num(10**7), 1),
        ("a", 1),
    ):
        with pytest.raises(ValueError):
            check_expr(bad, arity)


def test_cards_are_validated():
    for name, params, body in (
        ("2x", ("a",), A),
        ("f", (), A),
        ("f", ("a", "a"), A),
        ("f", ("a", "b", "c", "d", "e"), A),
        ("f", ("min",), Arg(0, "min")),
        ("f", ("a",), Arg(0, "b")),
        ("f" * 25, ("a",), A),
    ):
        with pytest.raises(ValueError):
            Card(name, params, body)
    with pytest.raises(ValueError):
        Card("f", ("a",), A, symbol="+")  # infix symbols are for binary cards
    with pytest.raises(EvalError, match="takes 2 values"):
        LIBRARY["add"].apply([F(1)])


def test_definitions_print():
    assert LIBRARY["poison"].definition() == "poison(a) = a - odd(a)"
    assert LIBRARY["square"].definition() == "square(a) = a^2"
    e = BinOp("-", A, BinOp("-", B, Neg(BinOp("^", A, BinOp("^", B, Num(2))))))
    assert to_text(e) == "a - (b - -a^b^2)"
    assert to_text(BinOp("^", Neg(A), Neg(B))) == "(-a)^-b"
    assert to_text(BinOp("*", BinOp("/", A, B), BinOp("/", A, B))) == "a / b * (a / b)"


def test_json_round_trip():
    e = BinOp("/", Call("max", (A, Neg(B))), Num(3))
    assert expr_from_json(json.loads(json.dumps(expr_to_json(e))), 2) == e
    for card in list(LIBRARY.values()) + [
        Card("avg", ("x", "y"), BinOp("/", BinOp("+", Arg(0, "x"), Arg(1, "y")), Num(2)))
    ]:
        assert card_from_json(json.loads(json.dumps(card_to_json(card)))) == card
    assert card_to_json(LIBRARY["add"]) == {"card": "add"}
    for bad in (
        {"card": "nope"},
        [],
        {"name": "f", "params": ["a"], "body": ["arg", 3, "a"]},
        {"name": "f", "params": ["a"], "body": ["%", 1, 2]},
    ):
        with pytest.raises(ValueError):
            card_from_json(bad)
    deep: object = ["arg", 0, "a"]
    for _ in range(10_000):
        deep = ["neg", deep]
    with pytest.raises(ValueError):
        expr_from_json(deep, 1)
