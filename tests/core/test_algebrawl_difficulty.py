"""The difficulty predictor: solver features and the shipped model on held-out data."""

from __future__ import annotations

import csv
import math
import random

import pytest

from core.algebrawl import difficulty_model as model
from core.algebrawl.difficulty import FEATURES, features, predict_log_seconds, predict_seconds
from tests.shared_data import shared_data


def test_features_of_hand_worked_hands():
    easy = features([1, 1, 4, 6])  # 4 × 6 × 1 × 1, and so on
    assert easy["min_divisions"] == easy["min_subtractions"] == easy["min_fraction_steps"] == 0
    assert easy["product_split"] == 1 and easy["ones"] == 2 and easy["distinct"] == 3
    assert easy["log_min_peak"] == pytest.approx(math.log(24))
    assert easy["log_solutions"] == 0  # one solution up to neutral elements (yuuki15: 1)
    hard = features([3, 3, 8, 8])  # only 8 ÷ (3 − 8 ÷ 3)
    assert (hard["min_divisions"], hard["min_subtractions"], hard["min_fraction_steps"]) == (
        2,
        1,
        2,
    )
    assert hard["product_split"] == 0 and hard["log_ways"] == 0
    big = features([1, 7, 13, 13])  # only (13 × 13 − 1) ÷ 7: it passes through 169
    assert big["log_min_peak"] == pytest.approx(math.log(169))
    assert big["log_solutions_ac"] == 0 and big["min_divisions"] == 1
    with pytest.raises(ValueError, match="no solution"):
        features([1, 1, 1, 1])


def test_predictor_is_the_shipped_linear_model():
    assert tuple(model.FEATURES) == FEATURES
    f = features([1, 2, 3, 4])
    want = model.INTERCEPT + sum(
        c * (f[n] - m) / s
        for n, c, m, s in zip(model.FEATURES, model.COEFFICIENTS, model.MEANS, model.SCALES)
    )
    assert predict_log_seconds([1, 2, 3, 4]) == pytest.approx(want)
    assert predict_seconds([1, 2, 3, 4]) == pytest.approx(math.exp(want))
    assert predict_seconds([1, 1, 4, 6]) < predict_seconds([3, 3, 8, 8])


def _ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ranks = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2
        i = j + 1
    return ranks


def spearman(a, b) -> float:
    ra, rb = _ranks(a), _ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    return cov / math.sqrt(sum((x - ma) ** 2 for x in ra) * sum((y - mb) ** 2 for y in rb))


def test_held_out_spearman_of_the_shipped_model():
    """Re-create the fit's held-out split and check the shipped model on it (≥ 0.6)."""
    with shared_data("algebrawl/24-human-difficulty.csv").open(newline="") as f:
        rows = [
            (tuple(int(x) for x in r["Puzzles"].split()), float(r["AMT (s)"]))
            for r in csv.DictReader(f)
        ]
    assert len(rows) == 1362
    order = list(range(len(rows)))
    random.Random(model.SPLIT_SEED).shuffle(order)
    held_out = sorted(order[model.TRAIN_SIZE :])
    assert len(held_out) == model.TEST_SIZE
    predicted = [predict_log_seconds(rows[i][0]) for i in held_out]
    actual = [math.log(rows[i][1]) for i in held_out]
    rho = spearman(predicted, actual)
    assert rho == pytest.approx(model.HELD_OUT_SPEARMAN, abs=1e-3)
    assert rho >= 0.6
