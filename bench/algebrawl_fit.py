"""Fit the Algebrawl difficulty predictor and write ``core/algebrawl/difficulty_model.py``.

Data: ``24-human-difficulty.csv`` (4nums.com's timings of the 1362 solvable 24-game hands
from 1-13, via princeton-nlp/tree-of-thought-llm, MIT). Target: ``log`` of the average solve
time ("AMT (s)"). Features: :func:`core.algebrawl.difficulty.features` (computed by the
solver). Model: ridge regression on standardised features, the penalty chosen by 5-fold
cross-validation on the training part only. The ridge fit is closed-form numpy (a base
dependency; :func:`ridge`), with an unpenalised intercept::

    Xc = X - mean(X),  yc = y - mean(y)
    w  = solve(Xc^T Xc + alpha I, Xc^T yc),  b = mean(y) - mean(X) . w

and the penalty is the one of :data:`ALPHAS` with the best mean R² over 5 unshuffled folds
(ties: the first): what scikit-learn's ``RidgeCV(alphas=ALPHAS, cv=5)`` does.

The hands are split once, with a fixed seed, into 75% training and 25% held out. The
shipped coefficients are the ones fitted on the training part, so the held-out Spearman
correlation printed (and stored in the module) is an honest estimate for exactly the model
that ships. Also printed: 5-fold cross-validated Spearman over all hands (mean and spread)
and each feature's own Spearman correlation.

Needs only numpy. Usage::

    python bench/algebrawl_fit.py [--data PATH] [--check] [--cross-check] [--out PATH]

``--check`` fits and compares with the shipped module instead of writing it;
``--cross-check`` also fits with scikit-learn's ``RidgeCV`` (the ``fit`` extra) and exits 1
when its penalty or coefficients differ (beyond 1e-9, relative).
"""

from __future__ import annotations

import argparse
import csv
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.algebrawl.difficulty import FEATURES, features  # noqa: E402

DATA = (
    Path(__file__).resolve().parents[1] / "tests" / "data" / "algebrawl" / "24-human-difficulty.csv"
)
OUT = ROOT / "core" / "algebrawl" / "difficulty_model.py"
SPLIT_SEED = 2024
TEST_FRACTION = 0.25
ALPHAS = [10 ** (k / 4) for k in range(-12, 13)]


def load(path: Path) -> tuple[list[tuple[int, ...]], list[float]]:
    """Hands and log solve times from the CSV."""
    hands, times = [], []
    with path.open(newline="") as f:
        for row in csv.DictReader(f):
            hands.append(tuple(int(x) for x in row["Puzzles"].split()))
            times.append(math.log(float(row["AMT (s)"])))
    return hands, times


def split(n: int) -> tuple[list[int], list[int]]:
    """The fixed training / held-out split of indices."""
    order = list(range(n))
    random.Random(SPLIT_SEED).shuffle(order)
    cut = round(n * (1 - TEST_FRACTION))
    return sorted(order[:cut]), sorted(order[cut:])


def ranks(a):
    """Average ranks (ties share the mean of their positions), as Spearman needs."""
    import numpy as np

    _values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
    first = np.cumsum(counts) - counts
    return (first + (counts - 1) / 2)[inverse]


def spearman(a, b) -> float:
    """Spearman's rank correlation (Pearson's on average ranks)."""
    import numpy as np

    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


class Ridge:
    """A fitted ridge model: ``intercept_``, ``coef_`` and the ``alpha_`` chosen (the names
    scikit-learn gives them, so :func:`module_text` reads either)."""

    def __init__(self, intercept: float, coef, alpha: float) -> None:
        self.intercept_, self.coef_, self.alpha_ = intercept, coef, alpha

    def predict(self, X):
        """Predictions for (standardised) feature rows ``X``."""
        return self.intercept_ + X @ self.coef_


def ridge(X, y, alpha: float) -> Ridge:
    """Ridge regression with an unpenalised intercept, in closed form (module docstring).

    Args:
        X: Feature rows (a numpy array, n x k).
        y: Targets (n).
        alpha: The penalty on the squared coefficients (> 0).

    Returns:
        The fitted model.
    """
    import numpy as np

    x_mean, y_mean = X.mean(axis=0), y.mean()
    centred = X - x_mean  # centring takes the intercept out of the penalty
    coef = np.linalg.solve(
        centred.T @ centred + alpha * np.eye(X.shape[1]), centred.T @ (y - y_mean)
    )
    return Ridge(float(y_mean - x_mean @ coef), coef, alpha)


def r2(y, pred) -> float:
    """The coefficient of determination (the score RidgeCV maximises)."""
    return float(1 - ((y - pred) ** 2).sum() / ((y - y.mean()) ** 2).sum())


def kfold(n: int, folds: int = 5, seed: int | None = None) -> list:
    """Test indices of ``folds`` folds, as scikit-learn's ``KFold`` makes them: in order
    (``seed`` None) or after a ``RandomState(seed)`` shuffle; the first ``n % folds`` folds
    are one longer."""
    import numpy as np

    order = np.arange(n)
    if seed is not None:
        np.random.RandomState(seed).shuffle(order)
    sizes = [n // folds + (1 if i < n % folds else 0) for i in range(folds)]
    bounds = np.cumsum([0, *sizes])
    return [order[bounds[i] : bounds[i + 1]] for i in range(folds)]


def ridge_cv(X, y) -> Ridge:
    """Ridge with the penalty of :data:`ALPHAS` that has the best mean 5-fold R², refitted on
    all of ``X`` (the first of equal scores, as ``RidgeCV(alphas=ALPHAS, cv=5)`` chooses)."""
    import numpy as np

    folds = [(np.setdiff1d(np.arange(len(y)), test), test) for test in kfold(len(y))]
    scores = [
        np.mean([r2(y[te], ridge(X[tr], y[tr], alpha).predict(X[te])) for tr, te in folds])
        for alpha in ALPHAS
    ]
    return ridge(X, y, ALPHAS[int(np.argmax(scores))])


def fit(X, y, train, cv=ridge_cv):
    """Standardise on the training rows, choose alpha by CV, fit ridge; return the parts.

    Args:
        X: Feature rows (numpy).
        y: Log solve times.
        train: The training rows' indices.
        cv: The cross-validated ridge: :func:`ridge_cv`, or :func:`sklearn_ridge_cv`.

    Returns:
        ``(means, scales, model, coefficients)``.
    """
    import numpy as np

    Xt, yt = X[train], y[train]
    means, scales = Xt.mean(axis=0), Xt.std(axis=0)
    scales[scales == 0] = 1.0
    model = cv((Xt - means) / scales, yt)
    return means, scales, model, np.asarray(model.coef_)


def sklearn_ridge_cv(X, y):
    """scikit-learn's ``RidgeCV`` (the ``fit`` extra): the cross-check of :func:`ridge_cv`."""
    from sklearn.linear_model import RidgeCV

    return RidgeCV(alphas=ALPHAS, cv=5).fit(X, y)


def disagreement(model, other) -> list[str]:
    """How two fitted models differ (penalty, intercept, coefficients; 1e-9 relative)."""
    mine = [model.alpha_, model.intercept_, *model.coef_]
    theirs = [other.alpha_, other.intercept_, *other.coef_]
    names = ["alpha", "intercept", *FEATURES]
    return [
        f"{name}: {a!r} != {b!r}"
        for name, a, b in zip(names, mine, theirs)
        if not math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    ]


def module_text(means, scales, model, stats: dict) -> str:
    """The generated module."""

    def floats(xs):
        return "(" + ", ".join(f"{float(x):.6g}" for x in xs) + ",)"

    lines = [
        '"""Fitted coefficients of the difficulty predictor (generated by bench/algebrawl_fit.py;',
        "do not edit by hand: run ``python bench/algebrawl_fit.py`` to regenerate).",
        "",
        "log(seconds) = INTERCEPT + sum(COEFFICIENTS[i] * (feature[i] - MEANS[i]) / SCALES[i])",
        '"""',
        "",
        f"FEATURES = {tuple(FEATURES)!r}",
        f"MEANS = {floats(means)}",
        f"SCALES = {floats(scales)}",
        f"COEFFICIENTS = {floats(model.coef_)}",
        f"INTERCEPT = {float(model.intercept_):.6g}",
        f"ALPHA = {float(model.alpha_):.6g}",
        f"SPLIT_SEED = {SPLIT_SEED}",
    ]
    lines += [f"{k.upper()} = {v!r}" for k, v in stats.items()]
    return "\n".join(lines) + "\n"


def module_differences(text: str, shipped: str) -> list[str]:
    """The constants of two model modules that differ: compared by value, since the shipped
    module is ruff-formatted (both print the numbers to the same 6 digits, so equal fits
    give equal values).

    Args:
        text: The module this fit writes.
        shipped: The module in the tree.

    Returns:
        ``NAME`` for each constant that differs; empty when they agree.
    """
    mine: dict = {}
    theirs: dict = {}
    exec(text, mine)  # both are generated by module_text: plain constants
    exec(shipped, theirs)
    names = {n for n in (*mine, *theirs) if n.isupper()}
    return sorted(n for n in names if mine.get(n) != theirs.get(n))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="compare with the shipped model")
    parser.add_argument(
        "--cross-check", action="store_true", help="also fit with scikit-learn (the fit extra)"
    )
    args = parser.parse_args()
    import numpy as np

    hands, times = load(args.data)
    start = time.perf_counter()
    X = np.array([[features(h)[f] for f in FEATURES] for h in hands])
    y = np.array(times)
    print(f"{len(hands)} hands, features in {time.perf_counter() - start:.1f} s")
    train, test = split(len(hands))
    means, scales, model, _ = fit(X, y, train)
    pred = model.predict((X[test] - means) / scales)
    rho = spearman(pred, y[test])
    r = float(np.corrcoef(pred, y[test])[0, 1])
    cv = []
    for te in kfold(len(y), seed=SPLIT_SEED):
        tr = np.setdiff1d(np.arange(len(y)), te)
        m, s, mdl, _ = fit(X, y, tr)
        cv.append(spearman(mdl.predict((X[te] - m) / s), y[te]))
    print(
        f"held-out ({len(test)} hands): Spearman {rho:.3f}, Pearson {r:.3f} (log time); alpha {model.alpha_:.3g}"
    )
    print(f"5-fold CV Spearman: mean {np.mean(cv):.3f}, min {min(cv):.3f}, max {max(cv):.3f}")
    print(f"{'feature':20} {'spearman':>9} {'coef':>8}")
    for i, name in enumerate(FEATURES):
        own = spearman(X[:, i], y) if X[:, i].std() else float("nan")
        print(f"{name:20} {own:9.3f} {model.coef_[i]:8.3f}")
    stats = {
        "train_size": len(train),
        "test_size": len(test),
        "held_out_spearman": round(rho, 4),
        "held_out_pearson": round(r, 4),
        "cv_spearman": round(float(np.mean(cv)), 4),
    }
    if args.cross_check:
        differ = disagreement(model, fit(X, y, train, cv=sklearn_ridge_cv)[2])
        print(f"scikit-learn {'agrees' if not differ else 'DISAGREES'}", *differ, sep="\n  ")
        if differ:
            return 1
    text = module_text(means, scales, model, stats)
    if args.check:
        same = args.out.exists() and not module_differences(text, args.out.read_text())
        print("shipped model is up to date" if same else "shipped model differs from this fit")
        return 0 if same else 1
    args.out.write_text(text)
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
