"""Operator cards: a name, parameters and an expression body (see :mod:`.expr`).

Every card, built-in or made by a player, is defined the same way, by an expression over its
arguments, so a level file or a save stores any card as text or data, never as code:

=========  ================================  ==========================================
card       definition                        notes
=========  ================================  ==========================================
add        ``add(a, b) = a + b``             shown as ``+``; commutative
sub        ``sub(a, b) = a - b``             shown as ``−``
mul        ``mul(a, b) = a * b``             shown as ``×``; commutative
div        ``div(a, b) = a / b``             shown as ``÷``; refused when ``b`` is 0
neg        ``neg(a) = -a``
square     ``square(a) = a^2``
split      ``split(a) = a / 2``              seed 002's slime that splits in two
poison     ``poison(a) = a - odd(a)``        −1 on an odd pool value (the project's reading)
=========  ================================  ==========================================

Two more cards act on the *monsters* rather than on pool values (seed 002's extra operators;
their body only names the pool value they consume, the effect is the game's, see
:mod:`.play`); they are played with a :class:`~core.algebrawl.play.Cast` move:

=============  ===========================  ==============================================
card           definition                   effect
=============  ===========================  ==============================================
poison_wizard  ``poison_wizard(dose) =      seed 002's 中毒巫师, "毒杀所有奇数怪物 (平等扣血)":
               dose``                       every standing monster with an odd whole HP
                                            loses ``dose`` HP, all the same amount
traitor        ``traitor(ally) = ally``     seed 002's 叛变的队友: the ally attacks one
                                            monster; if its HP was greater than the
                                            monster's it defects and stands as a new
                                            monster with the difference
=============  ===========================  ==============================================

:data:`DEFAULT_CARDS` is the classic ``+ − × ÷``; :data:`LIBRARY` names every built-in card.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .expr import (
    FUNCTIONS,
    Arg,
    BinOp,
    Call,
    EvalError,
    Expr,
    Neg,
    Num,
    check_expr,
    evaluate,
    expr_from_json,
    expr_to_json,
    to_text,
)

__all__ = [
    "ADD",
    "DEFAULT_CARDS",
    "DIV",
    "EFFECTS",
    "LIBRARY",
    "MAX_ARITY",
    "MUL",
    "NEG",
    "POISON",
    "POISON_WIZARD",
    "SPLIT",
    "SQUARE",
    "SUB",
    "TRAITOR",
    "card_from_json",
    "card_to_json",
]

EFFECTS = frozenset({"poison_wizard", "traitor"})
"""The effects of the cards that act on monsters (see :mod:`.play`)."""
MAX_ARITY = 4
"""Most arguments a card takes."""
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,23}")
"""Card and parameter names: ASCII identifiers of at most 24 characters."""


def _div(x: Fraction, y: Fraction) -> Fraction:
    if y == 0:
        raise EvalError("division by zero")
    return x / y


# Direct functions for the common bodies, so the solvers do not interpret ``a + b``.
_FAST = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y, "/": _div}


def _fast_path(params: tuple[str, ...], body: Expr) -> Callable[..., Fraction] | None:
    if (
        len(params) == 2
        and isinstance(body, BinOp)
        and body.op in _FAST
        and body.left == Arg(0, params[0])
        and body.right == Arg(1, params[1])
    ):
        return _FAST[body.op]
    if len(params) == 1 and body == Neg(Arg(0, params[0])):
        return lambda x: -x
    return None


@dataclass(frozen=True, slots=True)
class Card:
    """An operator card.

    Attributes:
        name: Identifier of the card (``"add"``, ``"avg"``).
        params: Names of its arguments (1 to :data:`MAX_ARITY`).
        body: The expression computing its result from the arguments.
        symbol: Infix symbol for binary cards written between their operands (``"+"``,
            ``"×"``); empty for cards written as calls (``avg(3, 5)``).
        commutative: True when swapping the arguments never changes the result (only one
            order of arguments is then offered as a move).
    """

    name: str
    """Identifier of the card."""
    params: tuple[str, ...]
    """Names of its arguments."""
    body: Expr
    """The expression over the arguments."""
    symbol: str = ""
    """Infix symbol, or empty for call-style cards."""
    commutative: bool = False
    """Whether the arguments can be swapped."""
    effect: str = ""
    """``""`` for an operator on pool values; ``"poison_wizard"`` or ``"traitor"`` for the
    built-in cards that act on the monsters (:data:`EFFECTS`)."""
    _fn: Callable[..., Fraction] | None = field(default=None, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not NAME.fullmatch(self.name):
            raise ValueError(
                f"a card name is an identifier of at most 24 characters: {self.name!r:.40}"
            )
        params = self.params
        if not isinstance(params, tuple) or not 1 <= len(params) <= MAX_ARITY:
            raise ValueError(f"a card takes 1 to {MAX_ARITY} arguments")
        for p in params:
            if not isinstance(p, str) or not NAME.fullmatch(p) or p in FUNCTIONS:
                raise ValueError(
                    f"bad parameter name {p!r:.40} (an identifier, not a function name)"
                )
        if len(set(params)) != len(params):
            raise ValueError("the parameters of a card must have different names")
        if (
            len(self.symbol) > 3
            or not self.symbol.isprintable()
            or (self.symbol and len(params) != 2)
        ):
            raise ValueError("an infix symbol has at most 3 characters and needs a binary card")
        if self.effect and (self.effect not in EFFECTS or len(params) != 1):
            raise ValueError(f"unknown card effect {self.effect!r:.40}")
        check_expr(self.body, len(params))
        _check_arg_names(self.body, params)
        object.__setattr__(self, "_fn", _fast_path(params, self.body))

    @property
    def arity(self) -> int:
        """How many pool values the card takes."""
        return len(self.params)

    def apply(self, args: Sequence[Fraction]) -> Fraction:
        """Compute the card's result.

        Args:
            args: Exactly :attr:`arity` values.

        Returns:
            The exact result.

        Raises:
            EvalError: Division by zero, value too large, wrong number of arguments...
        """
        if len(args) != len(self.params):
            raise EvalError(f"{self.name} takes {len(self.params)} values, not {len(args)}")
        if self._fn is not None:
            return self._fn(*args)
        return evaluate(self.body, args)

    def definition(self) -> str:
        """The card as text: ``"avg(a, b) = (a + b) / 2"`` (what the card grammar reads)."""
        return f"{self.name}({', '.join(self.params)}) = {to_text(self.body)}"

    @property
    def label(self) -> str:
        """Short label for a person: the symbol, else the name."""
        return self.symbol or self.name


def _check_arg_names(body: Expr, params: tuple[str, ...]) -> None:
    stack = [body]
    while stack:
        e = stack.pop()
        if isinstance(e, Arg) and params[e.index] != e.name:
            raise ValueError(f"argument {e.index} is named {params[e.index]!r}, not {e.name!r}")
        if isinstance(e, BinOp):
            stack += [e.left, e.right]
        elif isinstance(e, Neg):
            stack.append(e.operand)
        elif isinstance(e, Call):
            stack.extend(e.args)


def _binary(name: str, op: str, symbol: str, commutative: bool) -> Card:
    return Card(name, ("a", "b"), BinOp(op, Arg(0, "a"), Arg(1, "b")), symbol, commutative)


_A = Arg(0, "a")
ADD = _binary("add", "+", "+", True)
"""``a + b``."""
SUB = _binary("sub", "-", "−", False)
"""``a − b``."""
MUL = _binary("mul", "*", "×", True)
"""``a × b``."""
DIV = _binary("div", "/", "÷", False)
"""``a ÷ b`` (refused when b is 0)."""
NEG = Card("neg", ("a",), Neg(_A))
"""``−a``."""
SQUARE = Card("square", ("a",), BinOp("^", _A, Num(2)))
"""``a²``."""
SPLIT = Card("split", ("a",), BinOp("/", _A, Num(2)))
"""``a / 2``: seed 002's splitting slime."""
POISON = Card("poison", ("a",), BinOp("-", _A, Call("odd", (_A,))))
"""``a − 1`` on odd whole numbers, else ``a``: seed 002's poison wizard."""

POISON_WIZARD = Card("poison_wizard", ("dose",), Arg(0, "dose"), effect="poison_wizard")
"""Seed 002's poison wizard: every odd monster loses ``dose`` HP (cast on a pool value)."""
TRAITOR = Card("traitor", ("ally",), Arg(0, "ally"), effect="traitor")
"""Seed 002's traitor ally: attacks one monster, defects when it was the stronger."""

DEFAULT_CARDS: tuple[Card, ...] = (ADD, SUB, MUL, DIV)
"""The classic four operations."""
LIBRARY: dict[str, Card] = {
    c.name: c for c in (ADD, SUB, MUL, DIV, NEG, SQUARE, SPLIT, POISON, POISON_WIZARD, TRAITOR)
}
"""Every built-in card by name."""


def card_to_json(card: Card) -> object:
    """JSON form of a card: ``{"card": name}`` for a built-in one, else its full definition."""
    if LIBRARY.get(card.name) == card:
        return {"card": card.name}
    data = {"name": card.name, "params": list(card.params), "body": expr_to_json(card.body)}
    if card.symbol:
        data["symbol"] = card.symbol
    if card.commutative:
        data["commutative"] = True
    return data


def card_from_json(data: object) -> Card:
    """Rebuild a card from :func:`card_to_json`'s value.

    Raises:
        ValueError: When the data is malformed or names an unknown built-in card.
    """
    if not isinstance(data, dict):
        raise ValueError("a card is a JSON object")
    if "card" in data:
        card = LIBRARY.get(data["card"]) if isinstance(data["card"], str) else None
        if card is None:
            raise ValueError(f"unknown card {data['card']!r:.40}")
        return card
    params = data.get("params")
    if not isinstance(params, list) or not all(isinstance(p, str) for p in params):
        raise ValueError("a card's params is a list of names")
    symbol, commutative = data.get("symbol", ""), data.get("commutative", False)
    if not isinstance(symbol, str) or not isinstance(commutative, bool):
        raise ValueError("malformed card")
    body = expr_from_json(data.get("body"), len(params))
    return Card(str(data.get("name")), tuple(params), body, symbol, commutative)
