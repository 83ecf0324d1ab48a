"""Fit the Longcat difficulty predictor and write its coefficients module.

    python bench/longcat_fit.py [--data PATH] [--check]

Data: the 100 arduboy levels plus a seeded set of generated 8x8 levels (Solution-Down,
templates, fractal masks), every one analysed exactly. Label: the simulated player's
expected total moves (:func:`core.longcat.difficulty.expected_moves`). Features:
``(indeterminate_branches, success_states, solution_branches)`` (the seed's number of
solutions is the number of success states). Model: scikit-learn ``Ridge``
(alpha 1, Cholesky solver, with intercept). Prints R², MSE and 5-fold cross-validated R²,
then writes ``core/longcat/coefficients.py`` (``--check`` compares instead of writing and
exits 1 on a difference). Needs scikit-learn (``pip install -e '.[fit]'``); the game itself
never does.
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


def fit(X, y) -> dict:
    """Ridge regression of ``y`` on ``X``; returns intercept, coefficients and the scores."""
    import numpy as np
    from sklearn.linear_model import Ridge
    from sklearn.metrics import mean_squared_error, r2_score
    from sklearn.model_selection import KFold, cross_val_score

    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    model = Ridge(alpha=ALPHA, solver="cholesky").fit(X, y)
    pred = model.predict(X)
    cv = cross_val_score(
        Ridge(alpha=ALPHA, solver="cholesky"),
        X,
        y,
        scoring="r2",
        cv=KFold(5, shuffle=True, random_state=0),
    )
    return {
        "intercept": float(model.intercept_),
        "coefficients": {name: float(c) for name, c in zip(FEATURES, model.coef_)},
        "r2": float(r2_score(y, pred)),
        "mse": float(mean_squared_error(y, pred)),
        "cv_r2": float(cv.mean()),
        "n": len(y),
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
    text = module_text(result)
    if args.check:
        same = MODULE.read_text(encoding="utf-8") == text
        print("shipped coefficients", "match" if same else "DIFFER")
        return 0 if same else 1
    MODULE.write_text(text, encoding="utf-8")
    print(f"wrote {MODULE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
