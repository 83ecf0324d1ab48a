"""Normal forms of expressions: when are two solutions "the same"?

Seed 002 asks whether a puzzle can have several solutions; counting them needs a notion of
two solutions being equal. Counting raw expression trees is useless (``a + b`` and
``b + a`` would be two solutions), and equality of values is too coarse (every solution of a
puzzle has the same value). The normal form below is built bottom-up, so the solvers can
compute it for every sub-expression they generate, and comes in three nested strengths
(:data:`EQUIVALENCES`); each identifies more expressions than the one before.

``"ac"`` — commutativity and associativity, with subtraction and division folded in
    A chain of ``+`` and ``−`` is one *sum*: a multiset of signed terms, none of which is a
    sum itself (``a − (b − c)`` = ``a + c − b`` = ``(a + c) − b``). A chain of ``×`` and
    ``÷`` is one *product*: a multiset of factors with exponent ±1, none a product
    (``a ÷ (b ÷ c)`` = ``a × c ÷ b``). Terms and factors are sorted, so order and grouping
    disappear. These are exactly yuuki15's rewriting rules "BA=>AB", "B(AC)=>A(BC)",
    "(AB)C=>A(BC)", "A+(B-C)=>(A+B)-C", "(A-B)-C=>A-(B+C)" and their ``×``/``÷``
    counterparts. Nothing else is identified: ``(a + b) × c`` and ``a × c + b × c`` stay
    different (distributivity changes what a player computes).

``"signs"`` — also moving minus signs
    ``(a − b) × (c − d)`` = ``(b − a) × (d − c)`` and ``e − (a − b) × c`` =
    ``e + (b − a) × c``: a sum is always oriented so that its value is not negative (a
    zero-valued sum takes the smaller of its two orientations); the sign that this pulls
    out of a sum flows into the enclosing sum's term or the enclosing product's sign. This
    is the "ignoring sign" equivalence of OEIS A247982 that yuuki15 enumerates, with the
    value-based orientation of yuuki15's rules "A+B=>B-(-A)", "A-B=>A+(-B)",
    "AB=>(-A)(-B)".

``"neutral"`` (the default) — also neutral elements
    Multiplying or dividing by something equal to 1, or adding and subtracting two equal
    things, does not make a new solution, wherever in the tree it is done:

    * a *unit* is a factor whose value is 1 (``1``, ``(3 − 2)``); ``× u`` and ``÷ u`` are the
      same (yuuki15's "A/1=>A*1"), and units float out of their product to the root
      (yuuki15's "(A*1).B=>1*(A.B)");
    * a *neutral pair* is a positive term and a negative term of a sum with equal values
      (``+ x − y``), or a numerator factor and a denominator factor of a product with equal
      values (``× x ÷ y``); both kinds are the same pair ``(x, y)`` (yuuki15's
      "(A*X)/X=>(A+X)-X" and its variants) and float to the root
      ("((A+X)-X).B=>((A.B)+X)-X");
    * two units make a neutral pair ("(A*1)*1=>(A+1)-1").

    Pairs are taken greedily in sorted order, and a sum or product always keeps at least
    one positive term or numerator factor (so ``1 ÷ 2`` keeps its ``1``). The normal form is
    then ``(sign, core, neutral pieces)`` with the pieces as a sorted multiset.

Agreement with yuuki15's published counts (``24-distinct-solutions-yuuki15.tsv``, the 1362
solvable hands from 1-13, 3017 solutions): ``"neutral"`` agrees on all 1362 hands (3017 in
all); ``"signs"`` on 1131 (4078 in all: the 231 other hands differ only by neutral
elements); ``"ac"`` on 867 (4469 in all: 264 more hands differ only by signs). yuuki15 also
treats 0 specially (``a − 0 = a + 0``, ``0 × 0 = 0 + 0``, a product with a zero factor keeps
only the numbers of its other factor); those rules are not part of this normal form, so hands
containing 0, outside the 24 game's 1-13, count more solutions here.

Representation: nested tuples (hashable, totally ordered, cheap to build). A *core* is
``(0, v)`` for a number, ``(1, v, terms)`` for a sum (``terms`` a sorted tuple of
``(sign, core)``), ``(2, v, factors)`` for a product (sorted ``(exponent, core)``) and
``(3, v, card_name, args)`` for any other card (``args`` a tuple of ``(sign, core)``, sorted
for commutative cards); ``v`` is the core's value. A full normal form is
``(sign, core, pieces)`` where a piece is ``("p", x, y)`` or ``("u", x)``. Depth is bounded by
the number of cards of a puzzle.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from .ast import Ast, fold
from .cards import Card
from .expr import Arg, BinOp
from .values import format_value

__all__ = [
    "DEFAULT_EQUIVALENCE",
    "EQUIVALENCES",
    "NF",
    "arithmetic_op",
    "nf_apply",
    "nf_binary",
    "nf_leaf",
    "nf_text",
    "nf_value",
    "normal_form",
]

EQUIVALENCES = ("ac", "signs", "neutral")
"""The equivalences, weakest first."""
DEFAULT_EQUIVALENCE = "neutral"
"""The equivalence used unless another is asked for."""

NF = tuple
"""A normal form ``(sign, core, pieces)`` (see the module docstring)."""

_ONE = Fraction(1)
_FLAGS = {"ac": (False, False), "signs": (True, False), "neutral": (True, True)}


def _flags(equivalence: str) -> tuple[bool, bool]:
    try:
        return _FLAGS[equivalence]
    except KeyError:
        raise ValueError(
            f"unknown equivalence {equivalence!r}; one of {', '.join(EQUIVALENCES)}"
        ) from None


def nf_leaf(value: Fraction | int) -> NF:
    """The normal form of a number."""
    return (1, (0, value), ())


def nf_value(nf: NF) -> Fraction:
    """The value of the expressions with normal form ``nf``."""
    return nf[0] * nf[1][1]


def _terms(core: tuple) -> tuple:
    return core[2] if core[0] == 1 else ((1, core),)


def _factors(core: tuple) -> tuple:
    return core[2] if core[0] == 2 else ((1, core),)


def _pair(x: tuple, y: tuple) -> tuple:
    """The piece of a neutral pair ``+ x − y`` (``× x ÷ y``). Pairs worth 1 have no direction
    (``× u ÷ v`` is ``× u × v``: two units), so they are stored sorted."""
    return ("p", min(x, y), max(x, y)) if x[1] == 1 else ("p", x, y)


def _take_pairs(items: list, pieces: list) -> list:
    """Move (+x, −y) pairs of equal value from ``items`` (sign, core) into ``pieces``,
    keeping at least one positive item."""
    pos = sorted(c for s, c in items if s > 0)
    rest: list = []
    for c in sorted(c for s, c in items if s < 0):
        for i, p in enumerate(pos):
            if len(pos) > 1 and p[1] == c[1]:
                pieces.append(_pair(p, c))
                del pos[i]
                break
        else:
            rest.append((-1, c))
    return [(1, p) for p in pos] + rest


def _make_sum(terms: list, pieces: list, signs: bool, neutral: bool, value) -> tuple[tuple, int]:
    if neutral:
        terms = _take_pairs(terms, pieces)
        if len(terms) == 1:
            return terms[0][1], 1
    if value is None:
        value = sum(s * c[1] for s, c in terms)
    terms.sort()
    if signs and value <= 0:
        flipped = sorted((-s, c) for s, c in terms)
        if value < 0 or flipped < terms:
            return (1, -value, tuple(flipped)), -1
    return (1, value, tuple(terms)), 1


def _make_product(factors: list, pieces: list, neutral: bool, value) -> tuple:
    if neutral:
        units = [c for e, c in factors if c[1] == 1]
        others = [(e, c) for e, c in factors if c[1] != 1]
        if not any(e > 0 for e, _ in others):
            # Keep one unit as the numerator (1 ÷ 2 is not "÷ 2 with a spare 1").
            keep = min(c for e, c in factors if e > 0 and c[1] == 1)
            units.remove(keep)
            others.append((1, keep))
        pieces.extend(("u", u) for u in units)
        factors = _take_pairs(others, pieces)
        if len(factors) == 1:
            return factors[0][1]
    if value is None:
        value = _ONE
        for e, c in factors:
            value = value * c[1] if e > 0 else value / c[1]
    return (2, value, tuple(sorted(factors)))


def _pieces(pieces: list) -> tuple:
    """Sort the pieces; two units make a neutral pair."""
    units = sorted(p[1] for p in pieces if p[0] == "u")
    out = [p for p in pieces if p[0] != "u"]
    while len(units) >= 2:
        out.append(_pair(units.pop(0), units.pop(0)))
    out += [("u", u) for u in units]
    return tuple(sorted(out))


def nf_binary(op: str, a: NF, b: NF, equivalence: str = DEFAULT_EQUIVALENCE, value=None) -> NF:
    """The normal form of ``a op b`` from the normal forms of ``a`` and ``b``.

    Args:
        op: ``"+"``, ``"-"``, ``"*"`` or ``"/"``.
        a: Normal form of the left operand.
        b: Normal form of the right operand.
        equivalence: One of :data:`EQUIVALENCES`.
        value: The value of ``a op b`` when the caller knows it (saves recomputing it; the
            neutral pieces do not change a value, so it is also the core's value up to sign).

    Returns:
        The normal form of the combination.
    """
    signs, neutral = _flags(equivalence)
    sa, ca, pa = a
    sb, cb, pb = b
    # A pair (+x − y, × x ÷ y) of the right operand of − or ÷ turns round in the result.
    if op in "-/":
        pb = tuple(_pair(p[2], p[1]) if p[0] == "p" else p for p in pb)
    pieces = list(pa) + list(pb)
    if op in "+-":
        sb = sb if op == "+" else -sb
        terms = [(s * sa, t) for s, t in _terms(ca)] + [(s * sb, t) for s, t in _terms(cb)]
        if neutral:
            # Neutral pairs found lower down are put back as terms (+x − y) and paired again
            # over the whole sum, so the pairs chosen depend on the sum's terms only, not on
            # how the sum was grouped (pairing greedily at each level is not associative).
            terms += [t for p in pieces if p[0] == "p" for t in ((1, p[1]), (-1, p[2]))]
            pieces = [p for p in pieces if p[0] != "p"]
        core, sign = _make_sum(terms, pieces, signs, neutral, value)
    else:
        eb = 1 if op == "*" else -1
        factors = list(_factors(ca)) + [(e * eb, t) for e, t in _factors(cb)]
        if neutral:
            # Likewise units (× u) and pairs (× x ÷ y) found lower down are put back as
            # factors and taken out again over the whole product.
            for p in pieces:
                factors += [(1, p[1])] if p[0] == "u" else [(1, p[1]), (-1, p[2])]
            pieces = []
        sign = sa * sb
        core = _make_product(factors, pieces, neutral, None if value is None else value * sign)
    return (sign, core, _pieces(pieces) if pieces else ())


_ARITH: dict[Card, str | None] = {}


def arithmetic_op(card: Card) -> str | None:
    """``"+"``, ``"-"``, ``"*"`` or ``"/"`` when ``card`` computes exactly ``a op b`` of its two
    arguments (whatever its name), else None."""
    if card not in _ARITH:
        body = card.body
        op = None
        if (
            card.arity == 2
            and isinstance(body, BinOp)
            and body.op in "+-*/"
            and body.left == Arg(0, card.params[0])
            and body.right == Arg(1, card.params[1])
        ):
            op = body.op
        _ARITH[card] = op
    return _ARITH[card]


def nf_apply(
    card: Card, args: Sequence[NF], value: Fraction, equivalence: str = DEFAULT_EQUIVALENCE
) -> NF:
    """The normal form of ``card`` applied to arguments with normal forms ``args``.

    Arithmetic cards combine as sums and products; any other card is an opaque node whose
    arguments keep their signs (a sign cannot be moved through an arbitrary function) while
    their neutral pieces still float to the root.

    Args:
        card: The card.
        args: Normal forms of its arguments.
        value: The card's result (computed by the caller).
        equivalence: One of :data:`EQUIVALENCES`.

    Returns:
        The normal form.
    """
    op = arithmetic_op(card)
    if op is not None:
        return nf_binary(op, args[0], args[1], equivalence, value)
    _flags(equivalence)
    inner = [(s, c) for s, c, _ in args]
    if card.commutative:
        inner.sort()
    pieces = [p for _, _, ps in args for p in ps]
    return (1, (3, value, card.name, tuple(inner)), _pieces(pieces) if pieces else ())


def normal_form(ast: Ast, equivalence: str = DEFAULT_EQUIVALENCE) -> NF:
    """The normal form of a tree (computed bottom-up, iteratively).

    Args:
        ast: The tree.
        equivalence: One of :data:`EQUIVALENCES`.

    Returns:
        Its normal form: equal for trees that are the same solution under ``equivalence``.
    """
    return fold(
        ast,
        lambda a: nf_leaf(a.value),
        lambda a, args: nf_apply(a.card, args, a.value, equivalence),
    )


# -- text ----------------------------------------------------------------------------------


def _core_text(core: tuple) -> str:
    kind = core[0]
    if kind == 0:
        text = format_value(core[1])
        return f"({text})" if core[1] < 0 else text
    if kind == 3:
        args = ", ".join(("-" if s < 0 else "") + _core_text(c) for s, c in core[3])
        return f"{core[2]}({args})"
    if kind == 1:
        pos = [_core_text(c) for s, c in core[2] if s > 0]
        neg = [_core_text(c) for s, c in core[2] if s < 0]
        return (
            " + ".join(pos) + "".join(" - " + t for t in neg)
            if pos
            else "0" + "".join(" - " + t for t in neg)
        )
    num = [_factor_text(c) for e, c in core[2] if e > 0]
    den = [_factor_text(c) for e, c in core[2] if e < 0]
    return " * ".join(num or ["1"]) + "".join(" / " + t for t in den)


def _factor_text(core: tuple) -> str:
    text = _core_text(core)
    return f"({text})" if core[0] == 1 or (core[0] == 2 and len(core[2]) > 1) else text


def nf_text(nf: NF) -> str:
    """Write a normal form as text: terms and factors in their sorted order, negative terms
    and denominators last, neutral pieces after the core (``"2 * 12 [+ 1 - 1]"``).

    Args:
        nf: A normal form.

    Returns:
        The text (ASCII operators).
    """
    sign, core, pieces = nf
    text = _core_text(core)
    if sign < 0:
        text = f"-({text})"
    extra = [
        f"* {_factor_text(p[1])}"
        if p[0] == "u"
        else f"+ {_factor_text(p[1])} - {_factor_text(p[2])}"
        for p in pieces
    ]
    return text + (" [" + ", ".join(extra) + "]" if extra else "")


def distinct(asts: Iterable[Ast], equivalence: str = DEFAULT_EQUIVALENCE) -> dict:
    """Group trees by normal form: ``{normal form: first tree with it}``."""
    out: dict = {}
    for a in asts:
        out.setdefault(normal_form(a, equivalence), a)
    return out
