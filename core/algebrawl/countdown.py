"""The Countdown numbers round: reach a target with some of six numbers.

Rules: each number is used at most once (any subset), ``+ − × ÷`` as often as needed, and
every intermediate result must be a positive whole number. The tiles are 20 small ones (two
each of 1-10) and four large ones (25, 50, 75, 100); targets run from 101 to 999.

:func:`countdown_reachable` answers "which targets in a range can this selection make?" —
the question behind the full solvability table (13,243 selections × 899 targets). It is a
subset dynamic programme on *multisets*, memoised across calls, in two layers:

* below the top, the complete set of values reachable from each sub-multiset (any subset of
  it), built pairwise from its splits with the usual prunings (no ``× 1``, ``÷ 1``, no zero
  or negative differences, only exact divisions) and stored compactly: a sorted array plus
  two Python big-integer bitsets of the values below :data:`CAP` (one of them reversed);
* at the top, only results inside the target range are produced, and never one pair at a
  time when a whole set can be handled at once: ``x + B`` is ``B << x``, ``x − B`` is the
  reversed bitset shifted, ``B − x`` is ``B >> x``; products and quotients look only at the
  window of the other set that can land in range (or, when fewer, test the still-missing
  targets one by one), and the work stops as soon as every target is reached.

:func:`countdown_solve` finds an expression (exact or closest) for one target, with a plain
witness-keeping subset DP.

:func:`countdown_solutions` takes a :class:`core.search.Watch`: its budget counts pairs of
values combined while the witness tables are built and normal forms combined while the
solutions are listed (nothing there is memoised across calls, so a hand always costs the
same units), and its deadline and cancel test are polled as often.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import combinations
from typing import NamedTuple

from core.search import NO_WATCH, Watch

from .ast import Ast, Leaf, make_node
from .cards import ADD, DIV, MUL, SUB
from .hands import splits

__all__ = [
    "CAP",
    "LARGE",
    "SMALL",
    "clear_caches",
    "countdown_reachable",
    "countdown_selections",
    "countdown_solutions",
    "countdown_solve",
    "countdown_witness",
]

LARGE = (25, 50, 75, 100)
"""The large tiles (one of each)."""
SMALL = tuple(range(1, 11))
"""The small tiles (two of each)."""
CAP = 1 << 14
"""Values below CAP are also kept as bitsets (the top level's target range must be below)."""
MAX_NUMBERS = 7
"""Most numbers in one query."""


class _Reach(NamedTuple):
    """Every value reachable from a sub-multiset (any subset of it)."""

    values: array
    """Sorted values."""
    low: int
    """Bit v set for each value v < CAP."""
    rev: int
    """Bit CAP-1-v set for each value v < CAP."""


def _pairs(xs: array, ys: array, out: set) -> None:
    """Add every Countdown-legal combination of x in xs and y in ys to ``out``.

    Works one x at a time on slices of the sorted ys (list comprehensions instead of one
    ``set.add`` per pair): y < x gives x − y and x ÷ y, y > x gives y − x and y ÷ x.
    """
    if len(xs) > len(ys):
        xs, ys = ys, xs
    two = bisect_left(ys, 2)
    for x in xs:
        k, k2 = bisect_left(ys, x), bisect_right(ys, x)
        below, above = ys[:k], ys[k2:]
        out.update([x + y for y in ys])
        out.update([x - y for y in below])
        out.update([y - x for y in above])
        if x > 1:
            out.update([x * y for y in ys[two:]])
            out.update([y // x for y in above if y % x == 0])
            out.update([x // y for y in ys[two:k] if x % y == 0])
            if k2 > k:
                out.add(1)


@lru_cache(maxsize=16384)
def _reach(ms: tuple[int, ...]) -> _Reach:
    """Values reachable from any non-empty subset of the sorted multiset ``ms``."""
    out = set(ms)
    for left, right in splits(ms):
        _pairs(_reach(left).values, _reach(right).values, out)
    values = array("q", sorted(out))
    low = rev = 0
    for v in values:
        if v >= CAP:
            break
        low |= 1 << v
        rev |= 1 << (CAP - 1 - v)
    return _Reach(values, low, rev)


def _window(values: array, lo: int, hi: int) -> tuple[int, int]:
    return bisect_left(values, lo), bisect_right(values, hi)


def _has(entry: _Reach, v: int) -> bool:
    if v < CAP:
        return bool(entry.low >> v & 1)
    i = bisect_left(entry.values, v)
    return i < len(entry.values) and entry.values[i] == v


def _bits(mask: int, lo: int) -> Iterator[int]:
    """The positions of the set bits of ``mask`` (all at ``lo`` or above)."""
    mask >>= lo
    pos = lo
    while mask:
        skip = (mask & -mask).bit_length() - 1
        mask >>= skip
        pos += skip
        yield pos
        mask >>= 1
        pos += 1


def _sums_and_differences(a: _Reach, b: _Reach, lo: int, hi: int) -> int:
    """Bitset of x + y, x − y, y − x (x in a, y in b) that lie in [lo, hi]."""
    found = 0
    b_small = b.low & ((1 << (hi + 1)) - 1)
    for x in a.values:
        if x < hi:
            found |= b_small << x
        if x < CAP:
            found |= b.rev >> (CAP - 1 - x)  # x − y for every y < x
        else:
            i, j = _window(b.values, x - hi, x - lo)
            for y in b.values[i:j]:
                found |= 1 << (x - y)
        if x + hi < CAP:
            found |= b.low >> x  # y − x for every y > x
        else:
            i, j = _window(b.values, max(x + lo, CAP), x + hi)
            for y in b.values[i:j]:
                found |= 1 << (y - x)
            found |= (b.low >> x) if x < CAP else 0
    return found


def _products_and_quotients(a: _Reach, b: _Reach, lo: int, hi: int, missing: int) -> int:
    """Bitset of the missing targets reached by x × y, x ÷ y or y ÷ x (x in a, y in b).

    For each x, each operation either walks the window of b that lands in range or, when the
    window holds more values than targets are still missing, tests those targets instead.
    """
    found = 0
    bv = b.values
    top = bv[-1]
    left = missing.bit_count()
    todo: list[int] | None = None
    for x in a.values:
        if x < 2:
            continue
        if 2 * x <= hi:  # x × y = t, y ≥ 2
            i, j = _window(bv, max(2, -(-lo // x)), hi // x)
            if j - i <= left:
                for y in bv[i:j]:
                    found |= 1 << (x * y)
            else:
                todo = todo if todo is not None else list(_bits(missing, lo))
                for t in todo:
                    if t % x == 0 and _has(b, t // x):
                        found |= 1 << t
        if x >= 2 * lo:  # x ÷ y = t, y ≥ 2
            i, j = _window(bv, max(2, -(-x // hi)), x // lo)
            if j - i <= left:
                for y in bv[i:j]:
                    if x % y == 0:
                        found |= 1 << (x // y)
            else:
                todo = todo if todo is not None else list(_bits(missing, lo))
                for t in todo:
                    if x % t == 0 and x // t >= 2 and _has(b, x // t):
                        found |= 1 << t
        if lo * x <= top:  # y ÷ x = t
            i, j = _window(bv, lo * x, hi * x)
            if j - i <= left:
                for y in bv[i:j]:
                    if y % x == 0:
                        found |= 1 << (y // x)
            else:
                todo = todo if todo is not None else list(_bits(missing, lo))
                for t in todo:
                    if _has(b, t * x):
                        found |= 1 << t
        if found & missing:
            missing &= ~found
            if not missing:
                break
            left, todo = missing.bit_count(), None
    return found


def _top(ms: tuple[int, ...], lo: int, hi: int) -> int:
    """Bitset of the targets in [lo, hi] reachable from the multiset ``ms``."""
    full = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
    found = 0
    for v in ms:
        if lo <= v <= hi:
            found |= 1 << v
    if len(ms) > 1:
        for sub in set(combinations(ms, len(ms) - 1)):
            found |= _reach(sub).low
    found &= full
    parts = [(_reach(left), _reach(right)) for left, right in splits(ms)] if len(ms) > 1 else []
    parts = [(a, b) if len(a.values) <= len(b.values) else (b, a) for a, b in parts]
    for a, b in parts:
        if found == full:
            return found
        found |= _sums_and_differences(a, b, lo, hi) & full
    for a, b in parts:
        if found == full:
            return found
        found |= _products_and_quotients(a, b, lo, hi, full & ~found) & full
    return found


def _numbers(numbers: Iterable[int]) -> tuple[int, ...]:
    ms = tuple(sorted(numbers))
    if not 1 <= len(ms) <= MAX_NUMBERS or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 10**6 for v in ms
    ):
        raise ValueError(f"Countdown takes 1 to {MAX_NUMBERS} whole numbers from 1 to 1,000,000")
    return ms


def countdown_reachable(numbers: Iterable[int], low: int = 101, high: int = 999) -> frozenset[int]:
    """The targets in ``[low, high]`` that some of ``numbers`` can make (Countdown rules).

    Args:
        numbers: The selection (whole numbers, 1 to :data:`MAX_NUMBERS` of them).
        low: Smallest target (at least 1).
        high: Largest target (below :data:`CAP`).

    Returns:
        The reachable targets.

    Raises:
        ValueError: Bad numbers or range.
    """
    ms = _numbers(numbers)
    if not 1 <= low <= high < CAP:
        raise ValueError(f"the target range must lie within 1..{CAP - 1}")
    return frozenset(_bits(_top(ms, low, high), low))


def countdown_selections() -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every distinct Countdown selection as ``(number of large tiles, sorted numbers)``.

    ``k`` large tiles (0-4, distinct) and ``6 − k`` small ones (each value at most twice):
    13,243 multisets in all.
    """
    small_tiles = [v for v in SMALL for _ in range(2)]
    for k in range(len(LARGE) + 1):
        for large in combinations(LARGE, k):
            for small in sorted(set(combinations(small_tiles, 6 - k))):
                yield k, tuple(sorted(small + large))


# -- one target, with an expression ----------------------------------------------------------

_CARD = {"+": ADD, "-": SUB, "*": MUL, "/": DIV}


def _witness_tables(ms: tuple[int, ...], watch: Watch = NO_WATCH) -> list[dict]:
    """For every mask of positions: value -> witness, using exactly those numbers (each
    pair of tables charged to ``watch`` before it is combined)."""
    n = len(ms)
    tables: list[dict] = [dict() for _ in range(1 << n)]
    for i, v in enumerate(ms):
        tables[1 << i][v] = v
    for mask in range(1, 1 << n):
        if mask & (mask - 1) == 0:
            continue
        out = tables[mask]
        sub = (mask - 1) & mask
        while sub:
            other = mask ^ sub
            if sub < other:
                watch.spend(len(tables[sub]) * len(tables[other]))
                watch.poll("countdown")
                for x, wx in tables[sub].items():
                    for y, wy in tables[other].items():
                        _witness_pairs(x, wx, y, wy, out)
            sub = (sub - 1) & mask
    return tables


def _witness_pairs(x: int, wx, y: int, wy, out: dict) -> None:
    if x < y:
        x, wx, y, wy = y, wy, x, wx
    out.setdefault(x + y, ("+", wx, wy))
    if x > y:
        out.setdefault(x - y, ("-", wx, wy))
    if y > 1:
        out.setdefault(x * y, ("*", wx, wy))
        if x % y == 0:
            out.setdefault(x // y, ("/", wx, wy))


def _tree(w) -> Ast:
    """Build a tree from a witness (depth at most the number of numbers)."""
    if isinstance(w, int):
        from fractions import Fraction

        return Leaf(Fraction(w))
    op, left, right = w
    return make_node(_CARD[op], (_tree(left), _tree(right)))


def countdown_solve(numbers: Iterable[int], target: int) -> tuple[int, Ast | None]:
    """An expression reaching ``target``, or the closest value reachable.

    Args:
        numbers: The selection.
        target: The target.

    Returns:
        ``(value, tree)``: the value reached (``target`` itself when possible, else the
        closest, the smaller one on a tie) and an expression for it.
    """
    ms = _numbers(numbers)
    best: tuple[int, int, object] | None = None
    for table in _witness_tables(ms)[1:]:
        for v, w in table.items():
            key = (abs(v - target), v)
            if best is None or key < best[:2]:
                best = (key[0], v, w)
    assert best is not None
    return best[1], _tree(best[2])


def countdown_witness(numbers: Iterable[int], target: int, watch: Watch = NO_WATCH) -> Ast | None:
    """One expression reaching ``target`` under Countdown rules, or None: the witness
    tables of :func:`countdown_solutions` without its pass over normal forms (what a caller
    that does not count needs; the same units for the tables).

    Args:
        numbers: The selection.
        target: The target.
        watch: The bounds (budget in pairs of values combined).

    Returns:
        A tree worth ``target`` using some of the numbers once each, or None when there is
        none.

    Raises:
        core.search.Interrupted: The watch's budget, deadline or cancel test stopped it.
    """
    tables = _witness_tables(_numbers(numbers), watch)
    for table in tables[1:]:
        if target in table:
            return _tree(table[target])
    return None


def _countdown_partners(x: int, v: int) -> Iterator[tuple[str, int, bool]]:
    """``(op, y, x_first)``: the values ``y`` that combine with ``x`` into ``v`` by a
    Countdown-legal step (``x_first``: ``x`` is the left operand), as :func:`_witness_pairs`
    allows them: no ``× 1`` or ``÷ 1``, positive differences, exact quotients."""
    if v - x >= 1:
        yield "+", v - x, True
    if x - v >= 1:
        yield "-", x - v, True  # x − y = v, y < x
    yield "-", x + v, False  # y − x = v
    if x > 1 and v % x == 0 and v // x > 1:
        yield "*", v // x, True
    if x % v == 0 and x // v > 1:
        yield "/", x // v, True  # x ÷ y = v (y = x when v is 1: both orders count)
    if x > 1 and v >= 1:
        yield "/", x * v, False  # y ÷ x = v


def countdown_solutions(
    numbers: Iterable[int], target: int, equivalence: str = "neutral", watch: Watch = NO_WATCH
) -> tuple[tuple[object, Ast], ...]:
    """Every distinct way to reach ``target`` under Countdown rules.

    Solutions are told apart by the normal form of :mod:`.normal` (``equivalence``), over
    every subset of the numbers; steps follow the rules of :func:`countdown_solve` (positive
    whole results, no ``× 1`` or ``÷ 1``, which cannot make a new solution). The work is a
    top-down pass over the witness tables: only values that lead to the target are expanded.

    Args:
        numbers: The selection.
        target: The target.
        equivalence: ``"ac"``, ``"signs"`` or ``"neutral"``.
        watch: The bounds (budget in pairs and normal forms combined; see the module
            docstring).

    Returns:
        ``(normal form, tree)`` pairs, sorted by normal form.

    Raises:
        core.search.Interrupted: The watch's budget, deadline or cancel test stopped it.
    """
    from fractions import Fraction

    from .normal import nf_binary, nf_leaf

    ms = _numbers(numbers)
    tables = _witness_tables(ms, watch)
    memo: dict = {}

    def forms(mask: int, v: int) -> dict:
        """{normal form: tree} of the expressions using exactly ``mask`` worth ``v``
        (recursion depth at most the number of numbers)."""
        key = (mask, v)
        if key in memo:
            return memo[key]
        out: dict = {}
        if mask & (mask - 1) == 0:
            out[nf_leaf(v)] = Leaf(Fraction(v))
        sub = (mask - 1) & mask
        while sub:
            other = mask ^ sub
            if sub < other:
                watch.spend(len(tables[sub]))
                for x in tables[sub]:
                    for op, y, x_first in _countdown_partners(x, v):
                        if y not in tables[other]:
                            continue
                        left, right = ((sub, x), (other, y)) if x_first else ((other, y), (sub, x))
                        first, second = forms(*left), forms(*right)
                        watch.spend(len(first) * len(second) + 1)
                        watch.poll("countdown")
                        for fa, ta in first.items():
                            for fb, tb in second.items():
                                nf = nf_binary(op, fa, fb, equivalence, v)
                                if nf not in out:
                                    out[nf] = make_node(_CARD[op], (ta, tb))
            sub = (sub - 1) & mask
        memo[key] = out
        return out

    found: dict = {}
    for mask in range(1, 1 << len(ms)):
        if target in tables[mask]:
            for nf, tree in forms(mask, target).items():
                found.setdefault(nf, tree)
    return tuple(sorted(found.items(), key=lambda kv: kv[0]))


def clear_caches() -> None:
    """Forget the memoised sub-multiset tables (pure; frees memory)."""
    _reach.cache_clear()
