"""The simulated player (the difficulty label), the shipped predictor, its reproducible fit,
and the purity of the Longcat core."""

from __future__ import annotations

import ast
import importlib.util
import math
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings

from core.longcat import (
    BANDS,
    FEATURES,
    Level,
    analyse,
    band,
    coefficients,
    expected_moves,
    predict_difficulty,
)
from core.longcat.difficulty import attempt_odds
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import HAND, brute, hand_level

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_worked_labels(name: str) -> None:
    assert expected_moves(hand_level(name)) == pytest.approx(HAND[name].expected_moves)


def test_one_attempt_on_the_indeterminate_level() -> None:
    """Up (forced win in 6) or left (indeterminate, every move dead: restart after 1)."""
    p, m = attempt_odds(analyse(hand_level("indeterminate")))
    assert (p, m) == pytest.approx((0.5, 3.5))


def test_a_forced_corridor_scores_its_length() -> None:
    snake = Level.from_rows(["@.....", "#####.", "......", ".#####", "......"])
    assert expected_moves(snake) == pytest.approx(5.0)  # R D L D R, no choice


@settings(max_examples=120, deadline=None)
@given(small_levels())
def test_label_equals_the_tree_walk_of_the_reference(level: Level) -> None:
    """DAG dynamic programming == summing over every move sequence (exact fractions)."""
    got = expected_moves(level)
    want = brute(level).expected_moves
    assert got == want if math.isinf(want) else got == pytest.approx(want, rel=1e-12)


def test_predictor_is_the_shipped_linear_model() -> None:
    analysis = analyse(hand_level("indeterminate"))  # features (1, 1, 1)
    want = coefficients.INTERCEPT + sum(coefficients.COEFFICIENTS[f] for f in FEATURES)
    assert predict_difficulty(analysis) == pytest.approx(want)
    assert (
        predict_difficulty(analysis.metrics)
        == predict_difficulty(analysis.level)
        == predict_difficulty(analysis)
    )


def test_fitted_signs_match_the_paper() -> None:
    """More solutions make a level easier; more wrong turns make it harder."""
    c = coefficients.COEFFICIENTS
    assert c["success_states"] < 0 < c["indeterminate_branches"] and c["solution_branches"] > 0


def test_bands() -> None:
    assert [band(v) for v in (-3, 0, 19.9, 20, 49.9, 50, 80, 199, 200, math.inf)] == [
        "trivial",
        "trivial",
        "trivial",
        "easy",
        "easy",
        "hard",
        "very hard",
        "very hard",
        "extreme",
        "extreme",
    ]
    assert [b[1] for b in BANDS[:-1]] == [b[0] for b in BANDS[1:]]  # no gap, no overlap


def _longcat_fit():
    """bench/longcat_fit.py, loaded by path (bench/ is not a package)."""
    spec = importlib.util.spec_from_file_location("longcat_fit", ROOT / "bench" / "longcat_fit.py")
    fit = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(fit)  # type: ignore[union-attr]
    return fit


def test_fit_reproduces_the_shipped_coefficients(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fit needs numpy only (issue 30: scikit-learn left the test extra); it ran only
    where scikit-learn was installed, and is now made to fail if it imports it."""
    monkeypatch.setitem(sys.modules, "sklearn", None)  # any `import sklearn...` raises
    fit = _longcat_fit()
    X, y, _ = fit.dataset()  # the bundled arduboy pack and the seeded generated levels
    result = fit.fit(X, y)
    assert result["n"] == coefficients.FIT["n"]
    assert result["intercept"] == pytest.approx(coefficients.INTERCEPT, rel=1e-9)
    for name in FEATURES:
        assert result["coefficients"][name] == pytest.approx(
            coefficients.COEFFICIENTS[name], rel=1e-9
        )
    for score in ("r2", "mse", "cv_r2"):
        assert result[score] == pytest.approx(coefficients.FIT[score], rel=1e-9)
    assert fit.differences(result, fit.shipped()) == []


def test_the_closed_form_ridge_on_a_hand_worked_example() -> None:
    """x = 0, 1, 2 and y = 0, 1, 2, alpha 1: centred x = -1, 0, 1, so w = sum(x y) /
    (sum(x²) + alpha) = 2 / 3 and b = mean(y) - w mean(x) = 1 - 2/3 = 1/3 (the intercept is
    not shrunk). Two features: the penalty adds alpha to the diagonal of Xc^T Xc."""
    fit = _longcat_fit()
    intercept, [w] = fit.ridge([[0.0], [1.0], [2.0]], [0.0, 1.0, 2.0], alpha=1.0)
    assert (intercept, w) == (pytest.approx(1 / 3), pytest.approx(2 / 3))
    # x1 = -1, 0, 1 and x2 = 1, 0, 1 (centred: 1/3, -2/3, 1/3), y = x1 + x2 centred as y:
    # Xc^T Xc = [[2, 0], [0, 2/3]]; Xc^T yc = [2, 2/3]; + I: w = (2/3, (2/3)/(5/3) = 2/5)
    intercept, ws = fit.ridge([[-1, 1], [0, 0], [1, 1]], [0.0, 0.0, 2.0], alpha=1.0)
    assert ws == [pytest.approx(2 / 3), pytest.approx(2 / 5)]
    assert intercept == pytest.approx(2 / 3 - 2 / 5 * 2 / 3)


def test_the_folds_partition_the_rows() -> None:
    fit = _longcat_fit()
    folds = fit.kfold(12, 5, seed=0)
    assert [len(f) for f in folds] == [3, 3, 2, 2, 2]  # the first n % 5 folds one longer
    assert sorted(int(i) for f in folds for i in f) == list(range(12))


def test_the_fit_agrees_with_scikit_learn() -> None:
    """The optional cross-check (the fit extra): same coefficients, scores and folds."""
    pytest.importorskip("sklearn")
    from sklearn.model_selection import KFold

    fit = _longcat_fit()
    rows = [(i % 7, (i * 5) % 11, (i * i) % 13) for i in range(40)]
    labels = [3 + 2 * a - b + 0.5 * c + (i % 3) for i, (a, b, c) in enumerate(rows)]
    assert fit.differences(fit.fit(rows, labels), fit.sklearn_fit(rows, labels)) == []
    theirs = [list(test) for _, test in KFold(5, shuffle=True, random_state=0).split(rows)]
    assert [sorted(f) for f in fit.kfold(len(rows))] == theirs  # sklearn lists them sorted


# -- purity ----------------------------------------------------------------------------------

FORBIDDEN_MODULES = (
    "grammar",
    "tui",
    "textual",
    "click",
    "rich",
    "sklearn",
    "torch",
    "stable_baselines3",
    "matplotlib",
    "levels",
)
"""numpy is allowed since issue 18 (a base dependency: the learned generator's forward pass in
core.longcat.policy, pure array arithmetic); training's torch and stable-baselines3 never."""
ONLY_IN = {"gymnasium": ("sdenv.py",)}
"""Modules one file may import: gymnasium only in the RL environment (the test extra)."""
FORBIDDEN_CALLS = ("open", "print", "input")


@pytest.mark.parametrize(
    "path", sorted((ROOT / "core" / "longcat").glob("*.py")), ids=lambda p: p.name
)
def test_core_longcat_is_pure(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            names = []
        for name in names:
            top = name.split(".")[0]
            assert top not in FORBIDDEN_MODULES, f"{path.name} imports {name}"
            assert path.name in ONLY_IN.get(top, (path.name,)), f"{path.name} imports {name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            assert node.func.id not in FORBIDDEN_CALLS, f"{path.name} calls {node.func.id}"
        # Only seeded random.Random instances: never the module's global functions.
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "random"
        ):
            assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


def test_importing_the_core_loads_no_heavy_module() -> None:
    code = (
        "import sys, core.longcat; bad = [m for m in ('sklearn', 'numpy', 'textual', "
        "'click', 'rich', 'lark') if m in sys.modules]; print(bad); sys.exit(bool(bad))"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
