"""bench/algebrawl_fit.py fits with numpy alone (issue 30: scikit-learn left the test extra).

The full fit (features of 1362 hands) takes minutes, so it is run by hand
(``python bench/algebrawl_fit.py --check --cross-check``); here its parts are checked on small
inputs: the closed-form ridge on a hand-worked example, the penalty chosen by cross-validation
against a brute-force reading of the definition, scikit-learn's ``RidgeCV`` when installed,
and ``--check``'s comparison by value.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fit(monkeypatch: pytest.MonkeyPatch):
    """bench/algebrawl_fit.py, loaded by path, with scikit-learn made unimportable."""
    monkeypatch.setitem(sys.modules, "sklearn", None)
    spec = importlib.util.spec_from_file_location(
        "algebrawl_fit", ROOT / "bench" / "algebrawl_fit.py"
    )
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def _data(n: int = 30) -> tuple[np.ndarray, np.ndarray]:
    X = np.array([[i % 5, (i * 7) % 11, (i * i) % 3] for i in range(n)], dtype=float)
    y = X @ np.array([0.5, -0.2, 1.0]) + np.array([(i * 13) % 7 / 7 for i in range(n)])
    return X, y


def test_ridge_on_a_hand_worked_example(fit) -> None:
    """x = 0, 1, 2 and y = 0, 1, 2, alpha 1: w = sum(xc yc) / (sum(xc²) + 1) = 2/3, and the
    unpenalised intercept b = mean(y) - w mean(x) = 1/3."""
    model = fit.ridge(np.array([[0.0], [1.0], [2.0]]), np.array([0.0, 1.0, 2.0]), 1.0)
    assert model.coef_[0] == pytest.approx(2 / 3) and model.intercept_ == pytest.approx(1 / 3)
    assert model.predict(np.array([[3.0]]))[0] == pytest.approx(1 / 3 + 2)


def test_ridge_cv_takes_the_penalty_with_the_best_mean_fold_score(fit) -> None:
    """Brute force of the definition: for each alpha, the mean R² over 5 unshuffled folds."""
    X, y = _data()
    folds = np.array_split(np.arange(len(y)), 5)  # 30 rows: 6 each, in order
    assert [list(f) for f in fit.kfold(len(y))] == [list(f) for f in folds]

    def score(alpha: float) -> float:
        total = 0.0
        for test in folds:
            train = np.setdiff1d(np.arange(len(y)), test)
            pred = fit.ridge(X[train], y[train], alpha).predict(X[test])
            total += 1 - ((y[test] - pred) ** 2).sum() / ((y[test] - y[test].mean()) ** 2).sum()
        return total / 5

    best = max(fit.ALPHAS, key=score)  # max keeps the first of equal scores
    model = fit.ridge_cv(X, y)
    assert model.alpha_ == best
    assert list(model.coef_) == pytest.approx(list(fit.ridge(X, y, best).coef_), rel=1e-12)


def test_ridge_cv_agrees_with_scikit_learn(fit, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(sys.modules, "sklearn")
    pytest.importorskip("sklearn")  # the fit extra's optional cross-check
    X, y = _data(41)  # 41 rows: folds of 9, 8, 8, 8, 8
    ours = fit.ridge_cv(X, y)
    assert fit.disagreement(ours, fit.sklearn_ridge_cv(X, y)) == []


def test_check_compares_the_modules_by_value(fit) -> None:
    """The shipped module is ruff-formatted: the same constants, laid out otherwise, agree."""
    shipped = (ROOT / "core" / "algebrawl" / "difficulty_model.py").read_text(encoding="utf-8")
    from core.algebrawl import difficulty_model as model

    stats = {k.lower(): getattr(model, k) for k in ("TRAIN_SIZE", "TEST_SIZE")}
    stats |= {
        k.lower(): getattr(model, k)
        for k in ("HELD_OUT_SPEARMAN", "HELD_OUT_PEARSON", "CV_SPEARMAN")
    }
    parts = fit.Ridge(model.INTERCEPT, np.array(model.COEFFICIENTS), model.ALPHA)
    text = fit.module_text(np.array(model.MEANS), np.array(model.SCALES), parts, stats)
    assert text != shipped and fit.module_differences(text, shipped) == []
    moved = text.replace(f"INTERCEPT = {model.INTERCEPT:.6g}", "INTERCEPT = 2.29387")
    assert fit.module_differences(moved, shipped) == ["INTERCEPT"]
