"""How hard is a hand for a person? A predictor of human solve time for 24-game hands.

The model is a ridge regression of ``log(solve time)`` on features the solver computes,
fitted on 4nums.com's timings of the 1362 solvable hands from 1-13
(``24-human-difficulty.csv``) by ``bench/algebrawl_fit.py``, which writes the coefficients to
:mod:`.difficulty_model`; nothing here needs scikit-learn.

Features (all from :func:`features`; the "easiest solution" ones are minima over *every*
expression reaching the target, computed by a dynamic programme over sub-multisets that keeps,
for each reachable value, the best figure of each kind separately):

``log_solutions``       log of the number of distinct solutions (``"neutral"`` normal form)
``log_solutions_ac``    log of the number under the weakest equivalence (``"ac"``)
``log_ways``            log of the number of derivations the solver meets (expression trees,
                        ``+`` and ``×`` counted once per pair of operands)
``min_divisions``       fewest ``÷`` any solution needs
``min_subtractions``    fewest ``−`` any solution needs
``min_fraction_steps``  fewest non-whole intermediate results any solution needs
``log_min_peak``        log of the smallest "largest intermediate value" of a solution
``ones``                how many 1s the hand holds
``distinct``            how many different numbers it holds
``product_split``       1 when some solution ends with ``a × b`` where ``a`` is a number of the
                        hand (people look for factor pairs of 24 first)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache

from core.search import Watch

from .hands import (
    _METER,
    _combine,
    _multiset,
    _num,
    _partners,
    _poll,
    count_solutions24,
    metered,
    solvable24,
    splits,
)
from .values import Number, as_value

__all__ = ["FEATURES", "features", "predict_log_seconds", "predict_seconds"]

FEATURES = (
    "log_solutions",
    "log_solutions_ac",
    "log_ways",
    "min_divisions",
    "min_subtractions",
    "min_fraction_steps",
    "log_min_peak",
    "ones",
    "distinct",
    "product_split",
)
"""The feature names, in the model's order."""

# Per reachable value: (ways, min ÷, min −, min fraction steps, min negative steps, min peak).
_Stats = tuple


def _step(op: str, v, sx: _Stats, sy: _Stats) -> _Stats:
    return (
        sx[0] * sy[0],
        sx[1] + sy[1] + (op == "/"),
        sx[2] + sy[2] + (op == "-"),
        sx[3] + sy[3] + (type(v) is not int),
        sx[4] + sy[4] + (v < 0),
        max(sx[5], sy[5], abs(v)),
    )


def _merge(old: _Stats | None, new: _Stats) -> _Stats:
    if old is None:
        return new
    return (old[0] + new[0],) + tuple(min(a, b) for a, b in zip(old[1:], new[1:]))


@lru_cache(maxsize=4096)
def _stats(ms: tuple) -> dict:
    """Value -> stats for every value reachable from the whole multiset ``ms``."""
    if len(ms) == 1:
        return {ms[0]: (1, 0, 0, 0, 0, abs(ms[0]))}
    out: dict = {}
    for left, right in splits(ms):
        sl, sr = _stats(left), _stats(right)
        for x, sx in sl.items():
            for y, sy in sr.items():
                for op, swapped, v in _combine(x, y):
                    st = _step(op, v, sy, sx) if swapped else _step(op, v, sx, sy)
                    out[v] = _merge(out.get(v), st)
    return out


def _charged_stats(ms: tuple) -> dict:
    """:func:`_stats`, charged to the running :func:`.hands.metered` block: each table, once
    per block, the pairs of values it combines, before it is built (memoised or not, so a
    hand costs the same units whatever was predicted before it)."""
    meter = _METER.get()
    if meter is not None and len(ms) > 1 and ("s", ms) not in meter.charged:
        meter.charged.add(("s", ms))
        for left, right in splits(ms):
            meter.spend(len(_charged_stats(left)) * len(_charged_stats(right)))
    _poll()
    return _stats(ms)


def _target_stats(ms: tuple, t) -> tuple[_Stats | None, bool]:
    """Stats of the expressions equal to ``t`` and whether one ends with ``number × rest``."""
    best, product_split = None, False
    for left, right in splits(ms):
        sl, sr = _charged_stats(left), _charged_stats(right)
        for x, sx in sl.items():
            for op, x_left, y in _partners(x, t):
                sy = sr.get(y)
                if sy is None or (op == "/" and x_left and y == 0):
                    continue
                st = _step(op, t, sx, sy) if x_left else _step(op, t, sy, sx)
                best = _merge(best, st)
                if op == "*" and (len(left) == 1 or len(right) == 1):
                    product_split = True
    return best, product_split


def features(
    numbers: Sequence[Number], target: Number = 24, *, watch: Watch | None = None
) -> dict[str, float]:
    """The predictor's features for a hand (see the module docstring).

    Args:
        numbers: The hand (every number used once, operators reusable).
        target: The value to reach.
        watch: Bounds the work (combinations, as :func:`.hands.metered` counts them, for
            the solver's tables and the predictor's own); None: unbounded.

    Returns:
        ``{name: value}`` in :data:`FEATURES` order.

    Raises:
        ValueError: When the hand cannot reach the target (no solve time to predict).
        Interrupted: When ``watch`` runs out.
    """
    if watch is not None:
        with metered(watch):
            return _features(numbers, target)
    return _features(numbers, target)


def _features(numbers: Sequence[Number], target: Number) -> dict[str, float]:
    ms, t = _multiset(numbers), _num(as_value(target))
    if not solvable24(ms, t):
        raise ValueError("the hand has no solution")
    stats: _Stats | None
    if len(ms) == 1:
        stats, product_split = (1, 0, 0, 0, 0, abs(t)), False
    else:
        stats, product_split = _target_stats(ms, t)
    assert stats is not None
    return {
        "log_solutions": math.log(count_solutions24(ms, t)),
        "log_solutions_ac": math.log(count_solutions24(ms, t, "ac")),
        "log_ways": math.log(stats[0]),
        "min_divisions": float(stats[1]),
        "min_subtractions": float(stats[2]),
        "min_fraction_steps": float(stats[3]),
        "log_min_peak": math.log(max(1.0, float(stats[5]))),
        "ones": float(ms.count(1)),
        "distinct": float(len(set(ms))),
        "product_split": float(product_split),
    }


def predict_log_seconds(
    numbers: Sequence[Number], target: Number = 24, *, watch: Watch | None = None
) -> float:
    """``log`` of the predicted human solve time in seconds (see :func:`predict_seconds`)."""
    from . import difficulty_model as model

    f = features(numbers, target, watch=watch)
    z = sum(
        c * (f[name] - m) / s
        for name, c, m, s in zip(model.FEATURES, model.COEFFICIENTS, model.MEANS, model.SCALES)
    )
    return model.INTERCEPT + z


def predict_seconds(
    numbers: Sequence[Number], target: Number = 24, *, watch: Watch | None = None
) -> float:
    """Predicted average time a person needs to solve the hand, in seconds.

    Fitted on 24-game hands from 1-13 with target 24; for other hands or targets it is an
    extrapolation (still useful to rank hands against each other).

    Args:
        numbers: The hand.
        target: The value to reach.
        watch: Bounds the work (see :func:`features`); None: unbounded.

    Raises:
        ValueError: When the hand has no solution.
        Interrupted: When ``watch`` runs out (its budget, deadline or cancel test).
    """
    return math.exp(predict_log_seconds(numbers, target, watch=watch))
