"""The expression language of operator cards: values, bounded evaluation, printing.

A card's function is an expression over its arguments (``avg(a, b) = (a + b) / 2``), never
Python code: the text is parsed by ``grammar/algebrawl_expr.py`` into the values defined
here, and :func:`evaluate` interprets them with exact fractions under hard limits:

* size: at most :data:`MAX_EXPR_NODES` nodes per expression (checked by :func:`check_expr`);
* magnitude: every intermediate numerator and denominator stays below
  2**:data:`MAX_EVAL_BITS`, and ``x ^ n`` is refused *before* it is computed when the result
  would not (so ``((a^64)^64)^64`` fails at once instead of hanging);
* time: a bounded number of operations on bounded numbers, so no time limit is needed.

Grammar of the text form (precedence from loose to tight; ``^`` is right-associative and its
exponent may be negative): ``+ -`` < ``* /`` < unary ``-`` < ``^`` < atoms (whole numbers,
argument names, ``fn(args)``, parentheses). :func:`to_text` prints with the fewest
parentheses that parse back to the same value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .trees import fold_up

__all__ = [
    "FUNCTIONS",
    "MAX_EVAL_BITS",
    "MAX_EXPONENT",
    "MAX_EXPR_NODES",
    "OPERATORS",
    "Arg",
    "BinOp",
    "Call",
    "EvalError",
    "Expr",
    "Neg",
    "Num",
    "check_expr",
    "evaluate",
    "expr_from_json",
    "expr_size",
    "expr_to_json",
    "to_text",
]

MAX_EXPR_NODES = 64
"""Most nodes in one card expression."""
MAX_EVAL_BITS = 256
"""Intermediate numerators and denominators stay below 2**MAX_EVAL_BITS."""
MAX_EXPONENT = 64
"""Largest exponent magnitude of ``^``."""
MAX_LITERAL = 10**6
"""Largest whole-number literal in an expression."""

OPERATORS = ("+", "-", "*", "/", "^")
"""The binary operators, loosest first within each precedence level."""


class EvalError(ValueError):
    """An expression could not be evaluated; ``str(error)`` is a sentence for the player."""


@dataclass(frozen=True, slots=True)
class Num:
    """A whole-number literal (fractions are written as divisions)."""

    value: int
    """The number, 0 ≤ value ≤ MAX_LITERAL."""


@dataclass(frozen=True, slots=True)
class Arg:
    """A reference to the card's argument number ``index`` (named ``name`` in the text)."""

    index: int
    """Position of the argument, from 0."""
    name: str
    """Its name in the card definition."""


@dataclass(frozen=True, slots=True)
class Neg:
    """Unary minus."""

    operand: Expr
    """The negated expression."""


@dataclass(frozen=True, slots=True)
class BinOp:
    """A binary operation ``left op right``."""

    op: str
    """One of :data:`OPERATORS`."""
    left: Expr
    """Left operand."""
    right: Expr
    """Right operand."""


@dataclass(frozen=True, slots=True)
class Call:
    """A call of a built-in function (see :data:`FUNCTIONS`)."""

    fn: str
    """The function name."""
    args: tuple[Expr, ...]
    """The arguments."""


Expr = Num | Arg | Neg | BinOp | Call
"""An expression of the card language."""


def _odd(x: Fraction) -> Fraction:
    return Fraction(1 if x.denominator == 1 and x.numerator % 2 else 0)


def _even(x: Fraction) -> Fraction:
    return Fraction(1 if x.denominator == 1 and not x.numerator % 2 else 0)


def _mod(x: Fraction, y: Fraction) -> Fraction:
    if y == 0:
        raise EvalError("mod by zero")
    return x - y * math.floor(x / y)


FUNCTIONS: dict[str, tuple[int, Callable[..., Fraction], str]] = {
    "abs": (1, abs, "absolute value"),
    "min": (2, min, "the smaller of two values"),
    "max": (2, max, "the larger of two values"),
    "floor": (1, lambda x: Fraction(math.floor(x)), "round down to a whole number"),
    "ceil": (1, lambda x: Fraction(math.ceil(x)), "round up to a whole number"),
    "mod": (2, _mod, "remainder of x divided by y (same sign as y)"),
    "odd": (1, _odd, "1 if x is an odd whole number, else 0"),
    "even": (1, _even, "1 if x is an even whole number, else 0"),
}
"""Built-in functions: name -> (arity, implementation, description)."""


def _children(e: Expr) -> tuple:
    if isinstance(e, BinOp):
        return (e.left, e.right)
    if isinstance(e, Neg):
        return (e.operand,)
    if isinstance(e, Call):
        return e.args
    return ()


def expr_size(expr: Expr, limit: int | None = None) -> int:
    """Count the nodes of ``expr`` (iteratively).

    Args:
        expr: The expression.
        limit: Stop counting once the count exceeds this (the result is then ``limit + 1``).

    Returns:
        The number of nodes.
    """
    count, stack = 0, [expr]
    while stack:
        count += 1
        if limit is not None and count > limit:
            return count
        stack.extend(_children(stack.pop()))
    return count


def check_expr(expr: Expr, arity: int) -> None:
    """Check that ``expr`` is a well-formed card body for ``arity`` arguments.

    Args:
        expr: The body.
        arity: Number of arguments of the card.

    Raises:
        ValueError: Too many nodes, an unknown operator or function, a wrong number of
            function arguments, an argument index out of range or a literal out of range.
    """
    if expr_size(expr, MAX_EXPR_NODES) > MAX_EXPR_NODES:
        raise ValueError(f"a card expression has at most {MAX_EXPR_NODES} operations and numbers")
    stack = [expr]
    while stack:
        e = stack.pop()
        if isinstance(e, Num):
            if (
                isinstance(e.value, bool)
                or not isinstance(e.value, int)
                or not 0 <= e.value <= MAX_LITERAL
            ):
                raise ValueError(f"a number in a card is a whole number from 0 to {MAX_LITERAL}")
        elif isinstance(e, Arg):
            if not (isinstance(e.index, int) and 0 <= e.index < arity):
                raise ValueError(f"argument {e.name!r} is not a parameter of the card")
        elif isinstance(e, BinOp):
            if e.op not in OPERATORS:
                raise ValueError(f"unknown operator {e.op!r}")
        elif isinstance(e, Call):
            spec = FUNCTIONS.get(e.fn)
            if spec is None:
                raise ValueError(f"unknown function {e.fn!r}")
            if len(e.args) != spec[0]:
                raise ValueError(f"{e.fn}() takes {spec[0]} argument{'s' if spec[0] != 1 else ''}")
        elif not isinstance(e, Neg):
            raise ValueError(f"not an expression: {type(e).__name__}")
        stack.extend(_children(e))


def _bits(x: Fraction) -> int:
    return max(abs(x.numerator).bit_length(), x.denominator.bit_length())


def _checked(x: Fraction) -> Fraction:
    if _bits(x) > MAX_EVAL_BITS:
        raise EvalError("value too large")
    return x


def _power(base: Fraction, exponent: Fraction) -> Fraction:
    if exponent.denominator != 1:
        raise EvalError("the exponent of ^ must be a whole number")
    n = exponent.numerator
    if abs(n) > MAX_EXPONENT:
        raise EvalError(f"the exponent of ^ is at most {MAX_EXPONENT}")
    if base == 0 and n < 0:
        raise EvalError("division by zero")
    # Refuse before computing: the result has about bits(base) * |n| bits.
    if (_bits(base) - 1) * abs(n) > MAX_EVAL_BITS:
        raise EvalError("value too large")
    return base**n


def _binary(op: str, x: Fraction, y: Fraction) -> Fraction:
    if op == "+":
        return x + y
    if op == "-":
        return x - y
    if op == "*":
        return x * y
    if op == "/":
        if y == 0:
            raise EvalError("division by zero")
        return x / y
    return _power(x, y)


def evaluate(expr: Expr, args: Sequence[Fraction]) -> Fraction:
    """Evaluate ``expr`` with exact fractions (iteratively, within the module's limits).

    Args:
        expr: A checked expression (see :func:`check_expr`).
        args: The argument values, by index.

    Returns:
        The value.

    Raises:
        EvalError: Division by zero, a value too large, a bad exponent, a missing argument.
    """
    values: list[Fraction] = []
    stack: list = [(expr, False)]
    while stack:
        e, done = stack.pop()
        if isinstance(e, Num):
            values.append(Fraction(e.value))
        elif isinstance(e, Arg):
            if e.index >= len(args):
                raise EvalError(f"missing argument {e.name!r}")
            values.append(Fraction(args[e.index]))
        elif not done:
            stack.append((e, True))
            stack.extend((c, False) for c in reversed(_children(e)))
        elif isinstance(e, Neg):
            values.append(-values.pop())
        elif isinstance(e, BinOp):
            y, x = values.pop(), values.pop()
            values.append(_checked(_binary(e.op, x, y)))
        else:
            n = len(e.args)
            operands = values[len(values) - n :]
            del values[len(values) - n :]
            values.append(_checked(FUNCTIONS[e.fn][1](*operands)))
    return values[0]


# -- printing ------------------------------------------------------------------------------

_PREC = {"+": 1, "-": 1, "*": 2, "/": 2, "^": 4}
_NEG, _ATOM = 3, 5


def _prec(e: Expr) -> int:
    if isinstance(e, BinOp):
        return _PREC[e.op]
    return _NEG if isinstance(e, Neg) else _ATOM


def _wrap(text: str, yes: bool) -> str:
    return f"({text})" if yes else text


def to_text(expr: Expr) -> str:
    """Print ``expr`` with the fewest parentheses that parse back to the same expression.

    Args:
        expr: The expression.

    Returns:
        Text such as ``"(a + b) / 2"``.
    """
    return fold_up(expr, _children, _written)


def _written(e: Expr, args: list[str]) -> str:
    # The text of ``e`` from its operands' texts (for :func:`to_text`).
    if isinstance(e, Num):
        return str(e.value)
    if isinstance(e, Arg):
        return e.name
    if isinstance(e, Neg):
        return "-" + _wrap(args[0], _prec(e.operand) < _NEG)
    if isinstance(e, BinOp):
        left, right = args
        p = _PREC[e.op]
        if e.op == "^":  # the base is an atom, the exponent a unary expression
            left_paren, right_paren = _prec(e.left) < _ATOM, _prec(e.right) < _NEG
        else:  # left-associative: a right operand of the same level needs parentheses
            left_paren, right_paren = _prec(e.left) < p, _prec(e.right) <= p
        sep = "^" if e.op == "^" else f" {e.op} "
        return _wrap(left, left_paren) + sep + _wrap(right, right_paren)
    return f"{e.fn}({', '.join(args)})"


# -- JSON ----------------------------------------------------------------------------------


def expr_to_json(expr: Expr) -> object:
    """Convert an expression to a JSON-safe value (prefix lists: ``["+", ["arg", 0], 2]``).

    Args:
        expr: The expression.

    Returns:
        Whole numbers as ints, arguments as ``["arg", index, name]``, the rest as
        ``[operator or "neg" or "call:fn", operands...]``.
    """
    return fold_up(expr, _children, _json_of)


def _json_of(e: Expr, args: list[object]) -> object:
    # The JSON of ``e`` from its operands' (for :func:`expr_to_json`).
    if isinstance(e, Num):
        return e.value
    if isinstance(e, Arg):
        return ["arg", e.index, e.name]
    head = "neg" if isinstance(e, Neg) else e.op if isinstance(e, BinOp) else "call:" + e.fn
    return [head, *args]


def _node_from_json(head: object, args: list) -> Expr:
    if head == "neg" and len(args) == 1:
        return Neg(args[0])
    if head in OPERATORS and len(args) == 2:
        return BinOp(head, args[0], args[1])
    if isinstance(head, str) and head.startswith("call:"):
        return Call(head[5:], tuple(args))
    raise ValueError(f"not an expression node: {head!r:.40}")


def expr_from_json(data: object, arity: int) -> Expr:
    """Rebuild (and check) an expression from :func:`expr_to_json`'s value, iteratively.

    Args:
        data: The JSON value.
        arity: The card's number of arguments.

    Returns:
        The checked expression.

    Raises:
        ValueError: When ``data`` is malformed or the expression breaks a limit.
    """
    out: list[Expr] = []
    stack: list = [(data, False)]
    nodes = 0
    while stack:
        d, visited = stack.pop()
        nodes += 1
        if nodes > 4 * MAX_EXPR_NODES:
            raise ValueError("card expression too large")
        if isinstance(d, int) and not isinstance(d, bool):
            out.append(Num(d))
        elif isinstance(d, list) and len(d) == 3 and d[0] == "arg":
            if not isinstance(d[1], int) or not isinstance(d[2], str):
                raise ValueError("malformed argument reference")
            out.append(Arg(d[1], d[2]))
        elif isinstance(d, list) and d and not visited:
            stack.append((d, True))
            stack.extend((c, False) for c in reversed(d[1:]))
        elif isinstance(d, list) and d:
            n = len(d) - 1
            args = out[len(out) - n :]
            del out[len(out) - n :]
            out.append(_node_from_json(d[0], args))
        else:
            raise ValueError(f"not an expression: {d!r:.40}")
    expr = out[0]
    check_expr(expr, arity)
    return expr
