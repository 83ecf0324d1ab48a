"""Fit the Longcat difficulty predictor and write its coefficients module.

    python bench/longcat_fit.py [--data PATH] [--check]

Data: the 100 arduboy levels plus a seeded set of generated 8x8 levels (Solution-Down,
templates, fractal masks), every one analysed exactly. Label: the simulated player's
expected total moves (:func:`core.longcat.difficulty.expected_moves`). Features:
``(indeterminate_branches, success_states, solution_branches)`` (the seed's number of
solutions is the number of success states). Model: ridge regression with an intercept,
alpha 1, solved in closed form with numpy (a base dependency; :func:`ridge`)::

    Xc = X - mean(X),  yc = y - mean(y)            (the intercept is not penalised)
    w  = solve(Xc^T Xc + alpha I, Xc^T yc)          (the normal equations, ridge-penalised)
    b  = mean(y) - mean(X) . w

which is what scikit-learn's ``Ridge(alpha=1, solver="cholesky")`` computes. Prints R², MSE
and 5-fold cross-validated R² (scikit-learn's ``KFold(5, shuffle=True, random_state=0)``
folds, rebuilt with numpy), then writes ``core/longcat/coefficients.py`` (``--check``
compares instead of writing and exits 1 when a number differs by more than 1e-9, relative).
``--cross-check`` also fits with scikit-learn (the ``fit`` extra, ``pip install -e
'.[fit]'``) and exits 1 when the two disagree; nothing else here needs it, and the game
itself never does.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import sys
import textwrap
from pathlib import Path

from core.longcat import FEATURES, Level, analyse, expected_moves, generate
from core.longcat.difficulty import features

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "core" / "longcat" / "coefficients.py"
ALPHA = 1.0
GENERATED = (("sd", 200), ("template", 60), ("fractal", 60))
"""``(method, count)``: the generated part of the data set (seeds 0..count-1, 8x8)."""


def _bench_longcat():
    """bench/longcat.py, loaded by path (bench/ is not a package)."""
    path = Path(__file__).with_name("longcat.py")
    spec = importlib.util.spec_from_file_location("bench_longcat", path)
    assert spec is not None and spec.loader is not None  # the file is beside this one
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def dataset(data: Path | None = None) -> tuple[list[tuple[float, ...]], list[float], list[str]]:
    """The training set.

    Args:
        data: A level file to use instead of the bundled arduboy pack.

    Returns:
        ``(X, y, names)``: feature rows, labels, and a name per row.
    """
    levels: list[Level] = list(_bench_longcat().load_arduboy(data))
    for method, count in GENERATED:
        levels.extend(generate(method, seed, 8, 8) for seed in range(count))
    X: list[tuple[float, ...]] = []
    y: list[float] = []
    names: list[str] = []
    for level in levels:
        analysis = analyse(level)
        label = expected_moves(analysis)
        if math.isinf(label):
            continue  # unsolvable: no label (never happens with these sources)
        X.append(features(analysis.metrics))
        y.append(label)
        names.append(level.title)
    return X, y, names


def ridge(X, y, alpha: float = ALPHA) -> tuple[float, list[float]]:
    """Ridge regression with an unpenalised intercept, in closed form (module docstring).

    Args:
        X: Feature rows (n x k).
        y: Labels (n).
        alpha: The penalty on the squared coefficients.

    Returns:
        ``(intercept, coefficients)``.
    """
    import numpy as np

    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    x_mean, y_mean = X.mean(axis=0), y.mean()
    centred = X - x_mean  # centring takes the intercept out of the penalty
    gram = centred.T @ centred + alpha * np.eye(X.shape[1])
    # gram is symmetric positive definite (alpha > 0): solve() is exact to rounding
    coefficients = np.linalg.solve(gram, centred.T @ (y - y_mean))
    return float(y_mean - x_mean @ coefficients), [float(c) for c in coefficients]


def r2_score(y, pred) -> float:
    """The coefficient of determination, 1 - SS_res / SS_tot."""
    import numpy as np

    y, pred = np.asarray(y, dtype=float), np.asarray(pred, dtype=float)
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def kfold(n: int, folds: int = 5, seed: int = 0) -> list:
    """Test indices of ``folds`` shuffled folds: scikit-learn's ``KFold(folds, shuffle=True,
    random_state=seed)`` (a ``RandomState(seed)`` shuffle, then the first ``n % folds``
    folds one longer), so the cross-validated R² is the one scikit-learn reports."""
    import numpy as np

    order = np.arange(n)
    np.random.RandomState(seed).shuffle(order)
    sizes = [n // folds + (1 if i < n % folds else 0) for i in range(folds)]
    bounds = np.cumsum([0, *sizes])
    return [order[bounds[i] : bounds[i + 1]] for i in range(folds)]


def predict(X, intercept: float, coefficients: list[float]):
    """The model's predictions for feature rows ``X``."""
    import numpy as np

    return intercept + np.asarray(X, dtype=float) @ np.asarray(coefficients)


def fit(X, y) -> dict:
    """Ridge regression of ``y`` on ``X`` (numpy only).

    Args:
        X: Feature rows, in :data:`core.longcat.FEATURES` order.
        y: Labels (expected moves).

    Returns:
        ``intercept``, ``coefficients`` (by feature name), ``r2``, ``mse``, ``cv_r2``
        (5-fold, :func:`kfold`) and ``n``.
    """
    import numpy as np

    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    intercept, coefficients = ridge(X, y)
    pred = predict(X, intercept, coefficients)
    scores = []
    for test in kfold(len(y)):
        train = np.setdiff1d(np.arange(len(y)), test)
        b, w = ridge(X[train], y[train])
        scores.append(r2_score(y[test], predict(X[test], b, w)))
    return {
        "intercept": intercept,
        "coefficients": dict(zip(FEATURES, coefficients)),
        "r2": r2_score(y, pred),
        "mse": float(((y - pred) ** 2).mean()),
        "cv_r2": float(np.mean(scores)),
        "n": len(y),
    }


def sklearn_fit(X, y) -> dict:
    """The same fit by scikit-learn (the ``fit`` extra), to cross-check :func:`fit`.

    Returns:
        The keys of :func:`fit`.
    """
    import numpy as np
    from sklearn.linear_model import Ridge
    from sklearn.metrics import mean_squared_error
    from sklearn.metrics import r2_score as sk_r2
    from sklearn.model_selection import KFold, cross_val_score

    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    model = Ridge(alpha=ALPHA, solver="cholesky").fit(X, y)
    pred = model.predict(X)
    folds = KFold(5, shuffle=True, random_state=0)
    cv = cross_val_score(Ridge(alpha=ALPHA, solver="cholesky"), X, y, scoring="r2", cv=folds)
    return {
        "intercept": float(model.intercept_),
        "coefficients": {name: float(c) for name, c in zip(FEATURES, model.coef_)},
        "r2": float(sk_r2(y, pred)),
        "mse": float(mean_squared_error(y, pred)),
        "cv_r2": float(cv.mean()),
        "n": len(y),
    }


def differences(result: dict, reference: dict, rel: float = 1e-9) -> list[str]:
    """The numbers of ``result`` that differ from ``reference``'s by more than ``rel``.

    Args:
        result: A :func:`fit` result.
        reference: Another (the shipped module's, or scikit-learn's).
        rel: Relative tolerance: the two differ only by floating-point rounding.

    Returns:
        ``name: mine != theirs`` lines; empty when they agree.
    """
    flat = dict(result["coefficients"], **{k: result[k] for k in (*_SCORES, "intercept")})
    other = dict(reference["coefficients"], **{k: reference[k] for k in (*_SCORES, "intercept")})
    out = [f"n: {result['n']} != {reference['n']}"] if result["n"] != reference["n"] else []
    for name, value in flat.items():
        if not math.isclose(value, other[name], rel_tol=rel, abs_tol=0.0):
            out.append(f"{name}: {value!r} != {other[name]!r}")
    return out


_SCORES = ("r2", "mse", "cv_r2")


def shipped() -> dict:
    """What ``core/longcat/coefficients.py`` holds, in :func:`fit`'s shape."""
    from core.longcat import coefficients

    return {
        "intercept": coefficients.INTERCEPT,
        "coefficients": dict(coefficients.COEFFICIENTS),
        **{k: coefficients.FIT[k] for k in (*_SCORES, "n")},
    }


def module_text(result: dict) -> str:
    """The Python source of ``core/longcat/coefficients.py`` for a fit result."""
    sources = " + ".join(f"{m} x{n}" for m, n in GENERATED)
    coefficients = "".join(
        f"    {name!r}: {value!r},\n" for name, value in result["coefficients"].items()
    )
    summary = textwrap.fill(
        f"Regenerate with ``python bench/longcat_fit.py``: ridge regression (alpha {ALPHA}) "
        "of the simulated player's expected total moves on (indeterminate branches, "
        "success states, solution branches), over the 100 arduboy levels and seeded 8x8 levels "
        f"({sources}): {result['n']} levels. Training R² {result['r2']:.4f}, MSE "
        f"{result['mse']:.2f}, 5-fold cross-validated R² {result['cv_r2']:.4f}.",
        92,
    )
    return f'''"""Fitted coefficients of the Longcat difficulty predictor (generated: do not edit).

{summary}
"""

INTERCEPT = {result["intercept"]!r}
"""Predicted expected moves when every feature is 0."""

COEFFICIENTS = {{
{coefficients}}}
"""Expected moves added per unit of each feature."""

FIT = {{"alpha": {ALPHA!r}, "n": {result["n"]}, "r2": {result["r2"]!r},
       "mse": {result["mse"]!r}, "cv_r2": {result["cv_r2"]!r}}}
"""How the coefficients were fitted, and how well."""
'''


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data", type=Path, help="a level file instead of the bundled arduboy pack"
    )
    parser.add_argument(
        "--check", action="store_true", help="compare with the shipped module instead of writing it"
    )
    parser.add_argument(
        "--cross-check",
        action="store_true",
        help="also fit with scikit-learn (the fit extra) and fail when it disagrees",
    )
    args = parser.parse_args(argv)
    X, y, _ = dataset(args.data)
    result = fit(X, y)
    print(
        f"levels {result['n']}  R² {result['r2']:.4f}  MSE {result['mse']:.2f}  "
        f"5-fold CV R² {result['cv_r2']:.4f}"
    )
    print(
        f"difficulty = {result['intercept']:.4f} + "
        + " + ".join(f"{c:.4f} x {n}" for n, c in result["coefficients"].items())
    )
    if args.cross_check:
        disagree = differences(result, sklearn_fit(X, y))
        verdict = "agrees" if not disagree else "DISAGREES"
        print(f"scikit-learn {verdict}", *disagree, sep="\n  ")
        if disagree:
            return 1
    if args.check:
        differ = differences(result, shipped())
        print(f"shipped coefficients {'match' if not differ else 'DIFFER'}", *differ, sep="\n  ")
        return 1 if differ else 0
    MODULE.write_text(module_text(result), encoding="utf-8")
    print(f"wrote {MODULE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
