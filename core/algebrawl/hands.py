"""The 24 game and its relatives: use every number once, operators ``+ − × ÷`` as often as
needed, reach the target.

Subset dynamic programming over the hand's numbers: the values reachable from a multiset of
numbers are the combinations of the values of its two halves, for every split into two
sub-multisets. Three things make it fast enough to classify all 1820 hands from 1-13 in well
under a second:

* tables are memoised per *sorted multiset of values*, so the 455 triples from 1-13 are
  solved once and shared by every hand that contains them (and a hand with repeated numbers
  has fewer distinct splits);
* every table de-duplicates by value (``dict`` keyed by the exact fraction), which is what
  makes this a dynamic programme rather than a search over expressions;
* the top level is output-sensitive: instead of combining everything, for each value ``x``
  of one half it looks up the six values of the other half that would give the target
  (``t − x``, ``x − t``, ``t + x``, ``t / x``, ``x / t``, ``t · x``).

Distinct solutions use the same tables with, for each value, the set of normal forms
(:mod:`.normal`) of the expressions reaching it; the top level only builds normal forms for
the pairs that hit the target.

Work is bounded by a :class:`core.search.Watch` given to :func:`metered` (a *work budget*
in combinations, and a time limit): every table is charged, before it is built, the number
of combinations it makes (``|left| × |right|`` values per split; for the counting tables,
six operators times the normal forms of each side), and charged the same when it comes from the memo, once per metered
block. So a hand costs the same units whatever was solved before it, and an answer cut by
the budget is the same on an idle and on a busy machine.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement

from core.search import Watch

from .ast import Ast, Leaf, make_node
from .cards import ADD, DIV, MUL, SUB, Card
from .normal import DEFAULT_EQUIVALENCE, NF, _flags, nf_binary, nf_leaf
from .values import Number, as_value

__all__ = [
    "MAX_HAND",
    "HandSolution",
    "all_hands",
    "clear_caches",
    "count_solutions24",
    "metered",
    "solutions24",
    "solvable24",
    "solvable_with",
    "solve24",
    "splits",
    "witness_to_ast",
]

MAX_HAND = 7
"""Most numbers in a hand (the tables grow fast beyond that)."""

_CARDS: dict[str, Card] = {"+": ADD, "-": SUB, "*": MUL, "/": DIV}

Witness = object
"""How a value was reached: a number of the hand or ``(op, left, right)``."""


class _Meter:
    """The watch of one metered block and the tables already charged in it."""

    __slots__ = ("charged", "watch")

    def __init__(self, watch: Watch):
        self.watch = watch
        self.charged: set = set()

    def spend(self, units: int) -> None:
        self.watch.spend(units)
        self.watch.poll("hand")


_METER: ContextVar[_Meter | None] = ContextVar("algebrawl_hand_meter", default=None)
"""The running block's meter (a context variable: each thread of the app has its own)."""


@contextmanager
def metered(watch: Watch) -> Iterator[None]:
    """Bound the solvers called inside the block by ``watch``.

    Its budget counts combinations (see the module docstring); its deadline and cancel test
    are polled between rows of every table. Past either, the solver raises
    :class:`core.search.Interrupted`; a table interrupted half-way is not memoised.

    Args:
        watch: The bounds; one block charges each table once.

    Yields:
        Nothing.
    """
    token = _METER.set(_Meter(watch))
    try:
        yield
    finally:
        _METER.reset(token)


def _poll() -> None:
    """Poll the running block's watch (time and cancel; the budget was charged before)."""
    meter = _METER.get()
    if meter is not None:
        meter.watch.poll("hand")


def _values(ms: tuple) -> dict:
    """:func:`_table`, charged to the running block (see :func:`metered`).

    The tables below ``ms`` are charged smallest first, each before it is built (its cost
    needs only the smaller tables it combines), in one flat loop: the same units, in
    total at every table, as charging them split by split, without walking the splits
    again for every hand (the batch path's overhead).
    """
    meter = _METER.get()
    if meter is not None and len(ms) > 1 and ("v", ms) not in meter.charged:
        charged = meter.charged
        for sub in _below(ms):
            if ("v", sub) not in charged:
                charged.add(("v", sub))
                meter.spend(_split_cost(sub))
    return _table(ms)


@lru_cache(maxsize=8192)
def _below(ms: tuple) -> tuple[tuple, ...]:
    """``ms`` and every sub-multiset its table is built from (two numbers or more),
    smallest first: each one's parts come before it."""
    found: set = set()
    stack = [ms]
    while stack:
        sub = stack.pop()
        if len(sub) > 1 and sub not in found:
            found.add(sub)
            stack.extend(part for pair in splits(sub) for part in pair)
    return tuple(sorted(found, key=lambda sub: (len(sub), sub)))


@lru_cache(maxsize=8192)
def _split_cost(ms: tuple) -> int:
    """The combinations the table of ``ms`` makes: ``|left| x |right|`` per split (the
    parts' tables are built here, so charge them first: :func:`_values`)."""
    return sum(len(_table(left)) * len(_table(right)) for left, right in splits(ms))


def _forms(ms: tuple, equivalence: str) -> dict:
    """:func:`_nf_table`, charged to the running block (normal forms combined)."""
    meter = _METER.get()
    if meter is not None and len(ms) > 1 and ("f", ms) not in meter.charged:
        meter.charged.add(("f", ms))
        for left, right in splits(ms):
            _forms(left, equivalence)  # charge the parts first, memoised or not
            _forms(right, equivalence)
            # Six operators per pair of values, each combining every pair of their forms.
            meter.spend(6 * _form_count(left, equivalence) * _form_count(right, equivalence))
    return _nf_table(ms, equivalence)


@lru_cache(maxsize=8192)
def _form_count(ms: tuple, equivalence: str) -> int:
    """How many (value, normal form) pairs the counting table of ``ms`` holds."""
    return sum(len(bucket) for bucket in _nf_table(ms, equivalence).values())


def _num(v: Fraction):
    """An exact value as an ``int`` when whole (ints hash and add much faster than
    Fractions, and ``3 == Fraction(3)`` with equal hashes, so both can key one table)."""
    return v.numerator if v.denominator == 1 else v


def _q(x, y):
    """``x / y`` exactly, as an int when whole (``y`` is not 0)."""
    if type(x) is int and type(y) is int:
        return x // y if x % y == 0 else Fraction(x, y)
    return _num(Fraction(x) / y)


def _key(x: Number):
    """A hand's number as a table key (:func:`_num`); ints and Fractions without a copy
    (a batch reads thousands of hands), anything else checked by :func:`as_value`."""
    kind = type(x)
    if kind is int:
        return x
    if kind is Fraction:
        return x.numerator if x.denominator == 1 else x
    return _num(as_value(x))


def _multiset(numbers: Iterable[Number]) -> tuple:
    ms = tuple(sorted(_key(x) for x in numbers))
    if not 1 <= len(ms) <= MAX_HAND:
        raise ValueError(f"a hand has 1 to {MAX_HAND} numbers")
    return ms


@lru_cache(maxsize=256)
def _split_patterns(
    pattern: tuple[int, ...],
) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Index splits for a multiset whose equal elements are marked by equal ``pattern``
    entries (``(0, 0, 1, 2)`` for ``a a b c``): one split per distinct pair of parts."""
    n, seen, out = len(pattern), set(), []
    for mask in range(1, (1 << n) - 1):
        left = tuple(i for i in range(n) if mask >> i & 1)
        right = tuple(i for i in range(n) if not mask >> i & 1)
        key = tuple(sorted((tuple(pattern[i] for i in left), tuple(pattern[i] for i in right))))
        if key not in seen:
            seen.add(key)
            out.append((left, right))
    return tuple(out)


@lru_cache(maxsize=16384)
def splits(ms: tuple) -> tuple[tuple[tuple, tuple], ...]:
    """The distinct ways to split a sorted multiset into two non-empty sorted parts.

    Each unordered split appears once.

    Args:
        ms: A sorted tuple.

    Returns:
        ``((left, right), ...)``.
    """
    first: dict = {}
    pattern = tuple(first.setdefault(v, len(first)) for v in ms)
    return tuple(
        (tuple(ms[i] for i in a), tuple(ms[i] for i in b)) for a, b in _split_patterns(pattern)
    )


def _combine(x, y):
    """``(op, swapped, value)`` for the six ways to combine two values."""
    if type(x) is int and type(y) is int:
        yield "+", False, x + y
        yield "*", False, x * y
        yield "-", False, x - y
        yield "-", True, y - x
    else:
        yield "+", False, _num(Fraction(x) + y)
        yield "*", False, _num(Fraction(x) * y)
        yield "-", False, _num(Fraction(x) - y)
        yield "-", True, _num(Fraction(y) - x)
    if y:
        yield "/", False, _q(x, y)
    if x:
        yield "/", True, _q(y, x)


@lru_cache(maxsize=8192)
def _table(ms: tuple) -> dict:
    """Every value reachable from the whole multiset ``ms`` -> one witness."""
    if len(ms) == 1:
        return {ms[0]: ms[0]}
    out: dict = {}
    for left, right in splits(ms):
        tl, tr = _table(left), _table(right)
        for x, wx in tl.items():
            _poll()
            for y, wy in tr.items():
                for op, swapped, v in _combine(x, y):
                    if v not in out:
                        out[v] = (op, wy, wx) if swapped else (op, wx, wy)
    return out


@lru_cache(maxsize=8192)
def _restricted(ms: tuple, ops: str, integers: bool, nonnegative: bool) -> frozenset:
    """Values reachable from the whole multiset with only ``ops``, optionally keeping every
    intermediate result whole and/or non-negative."""
    if len(ms) == 1:
        return frozenset(ms)
    out = set()
    for left, right in splits(ms):
        tr = _restricted(right, ops, integers, nonnegative)
        for x in _restricted(left, ops, integers, nonnegative):
            for y in tr:
                for op, _, v in _combine(x, y):
                    if (
                        op in ops
                        and not (integers and type(v) is not int)
                        and not (nonnegative and v < 0)
                    ):
                        out.add(v)
    return frozenset(out)


def solvable_with(
    numbers: Sequence[Number],
    target: Number = 24,
    ops: str = "+-*/",
    integers: bool = False,
    nonnegative: bool = False,
) -> bool:
    """Like :func:`solvable24` with only some operators, or with every intermediate result
    whole and/or non-negative (the difficulty features of :mod:`.difficulty`).

    Args:
        numbers: The hand.
        target: The value to reach.
        ops: The allowed operators among ``"+-*/"``.
        integers: Every intermediate result must be a whole number.
        nonnegative: No intermediate result may be negative.

    Returns:
        Whether the restricted game is solvable.
    """
    if not set(ops) <= set("+-*/"):
        raise ValueError("ops is a string of + - * /")
    ops = "".join(sorted(set(ops)))
    return _num(as_value(target)) in _restricted(_multiset(numbers), ops, integers, nonnegative)


def _partners(x, t):
    """``(op, x_on_left, y)``: the values ``y`` such that ``x op y`` or ``y op x`` is ``t``."""
    whole = type(x) is int and type(t) is int
    if whole:
        yield "+", True, t - x
        yield "-", True, x - t
        yield "-", False, t + x
    else:
        yield "+", True, _num(Fraction(t) - x)
        yield "-", True, _num(Fraction(x) - t)
        yield "-", False, _num(Fraction(t) + x)
    if x:
        yield "*", True, _q(t, x)
        yield "/", False, t * x if whole else _num(Fraction(t) * x)
    if t:
        yield "/", True, _q(x, t)


@lru_cache(maxsize=1 << 16)
def _partner_list(x, t) -> tuple:
    """:func:`_partners`, memoised: a batch of hands meets the same values again and again
    (fractions among them, whose arithmetic is the slow part of the witness search)."""
    return tuple(_partners(x, t))


def _hit(tl: dict, tr: dict, t: Fraction):
    """Yield ``(op, left witness, right witness)`` for pairs combining to ``t``."""
    for x, wx in tl.items():
        for op, x_left, y in _partner_list(x, t):
            if y in tr and not (op == "/" and x_left and y == 0):
                yield (op, wx, tr[y]) if x_left else (op, tr[y], wx)
        # x * y = t = 0 and x / y = 0 hold for every y when x is 0.
        if x == 0 and t == 0 and tr:
            y = next(iter(tr))
            yield ("*", wx, tr[y])


def _find(ms: tuple, t: Fraction) -> Witness | None:
    if len(ms) == 1:
        return ms[0] if ms[0] == t else None
    meter = _METER.get()
    for left, right in splits(ms):
        tl, tr = _values(left), _values(right)
        if len(tr) < len(tl):
            tl, tr = tr, tl
        if meter is not None:
            meter.spend(len(tl))
        for w in _hit(tl, tr, t):
            return w
    return None


def witness_to_ast(w: Witness) -> Ast:
    """Build the tree a witness describes (depth is at most the hand size)."""
    if not isinstance(w, tuple):
        assert isinstance(w, (int, Fraction))  # a leaf witness is the number itself
        return Leaf(Fraction(w))
    op, left, right = w
    return make_node(_CARDS[op], (witness_to_ast(left), witness_to_ast(right)))


def solvable24(numbers: Sequence[Number], target: Number = 24) -> bool:
    """Can ``target`` be made from all of ``numbers`` with ``+ − × ÷``?

    Args:
        numbers: The hand (1 to :data:`MAX_HAND` numbers).
        target: The value to reach.

    Returns:
        True when some expression using each number exactly once equals ``target``.
    """
    return _find(_multiset(numbers), _num(as_value(target))) is not None


def solve24(numbers: Sequence[Number], target: Number = 24) -> Ast | None:
    """One solution of the hand, or None (see :func:`solvable24`)."""
    w = _find(_multiset(numbers), _num(as_value(target)))
    return None if w is None else witness_to_ast(w)


# -- distinct solutions ------------------------------------------------------------------


class HandSolution(tuple):
    """A distinct solution: ``(normal_form, tree)`` (a tuple, so it sorts and compares)."""

    __slots__ = ()

    @property
    def normal_form(self) -> NF:
        """The normal form shared by every expression of this solution."""
        return self[0]

    @property
    def tree(self) -> Ast:
        """One expression of the solution (the first found)."""
        return witness_to_ast(self[1])


@lru_cache(maxsize=8192)
def _nf_table(ms: tuple, equivalence: str) -> dict:
    """Value -> {normal form: witness} for the whole multiset ``ms``."""
    if len(ms) == 1:
        return {ms[0]: {nf_leaf(ms[0]): ms[0]}}
    out: dict = {}
    for left, right in splits(ms):
        tl, tr = _nf_table(left, equivalence), _nf_table(right, equivalence)
        for x, nx in tl.items():
            _poll()
            for y, ny in tr.items():
                for op, swapped, v in _combine(x, y):
                    bucket = out.setdefault(v, {})
                    a, b = (ny, nx) if swapped else (nx, ny)
                    _fill(bucket, op, a, b, equivalence, v)
    return out


def _fill(bucket: dict, op: str, a: dict, b: dict, equivalence: str, value) -> None:
    for fa, wa in a.items():
        for fb, wb in b.items():
            nf = nf_binary(op, fa, fb, equivalence, value)
            if nf not in bucket:
                bucket[nf] = (op, wa, wb)


def solutions24(
    numbers: Sequence[Number],
    target: Number = 24,
    equivalence: str = DEFAULT_EQUIVALENCE,
    *,
    at_most: int | None = None,
) -> tuple[HandSolution, ...]:
    """The distinct solutions of a hand (each number once, operators reusable).

    Args:
        numbers: The hand.
        target: The value to reach.
        equivalence: When two expressions are the same solution (see :mod:`.normal`).
        at_most: Stop once this many distinct solutions are found (None: find them all).
            The top level then stops early, so the ones returned are the first found, not
            the first in normal-form order, and their number is no count of the hand's.

    Returns:
        One :class:`HandSolution` per normal form, sorted by normal form.
    """
    _flags(equivalence)
    ms, t = _multiset(numbers), _num(as_value(target))
    if len(ms) == 1:
        return (HandSolution((nf_leaf(t), t)),) if ms[0] == t else ()
    found: dict = {}
    for left, right in splits(ms):
        if _top_forms(found, left, right, t, equivalence, at_most):
            break
    items = list(found.items())[:at_most] if at_most is not None else list(found.items())
    return tuple(HandSolution(item) for item in sorted(items, key=lambda kv: kv[0]))


def _top_forms(
    found: dict, left: tuple, right: tuple, t, equivalence: str, at_most: int | None
) -> bool:
    """Add to ``found`` the normal forms of one split's pairs that reach ``t``.

    Args:
        found: Normal form -> witness, filled in place.
        left: One part of the split.
        right: The other part.
        t: The target.
        equivalence: See :func:`solutions24`.
        at_most: Stop once ``found`` holds this many (None: never).

    Returns:
        Whether ``found`` reached ``at_most`` (the caller stops).
    """
    meter = _METER.get()
    tl, tr = _forms(left, equivalence), _forms(right, equivalence)
    for x, nx in tl.items():
        for op, x_left, y in _partners(x, t):
            if y in tr and not (op == "/" and x_left and y == 0):
                a, b = (nx, tr[y]) if x_left else (tr[y], nx)
                if meter is not None:
                    meter.spend(len(a) * len(b))
                _fill(found, op, a, b, equivalence, t)
        if x == 0 and t == 0:  # 0 × y and 0 ÷ y are 0 for every y
            if meter is not None:
                meter.spend(len(nx) * _form_count(right, equivalence))
            for y, ny in tr.items():
                _fill(found, "*", nx, ny, equivalence, t)
                if y:
                    _fill(found, "/", nx, ny, equivalence, t)
        # Checked per value of the left part: the units spent before the stop are the
        # same on every run (the tables' order is fixed), so a budget binds alike.
        if at_most is not None and len(found) >= at_most:
            return True
    return False


def count_solutions24(
    numbers: Sequence[Number], target: Number = 24, equivalence: str = DEFAULT_EQUIVALENCE
) -> int:
    """How many distinct solutions the hand has (see :func:`solutions24`)."""
    return len(solutions24(numbers, target, equivalence))


def clear_caches() -> None:
    """Forget the memoised tables (they are pure; this only frees memory)."""
    for f in (
        _split_patterns,
        splits,
        _below,
        _split_cost,
        _table,
        _nf_table,
        _restricted,
        _form_count,
        _partner_list,
    ):
        f.cache_clear()


def all_hands(low: int = 1, high: int = 13, size: int = 4) -> tuple[tuple[int, ...], ...]:
    """Every hand of ``size`` numbers from ``low`` to ``high`` (with repetition), sorted."""
    return tuple(combinations_with_replacement(range(low, high + 1), size))
