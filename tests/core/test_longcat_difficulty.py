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


def test_fit_reproduces_the_shipped_coefficients() -> None:
    pytest.importorskip("sklearn")
    spec = importlib.util.spec_from_file_location("longcat_fit", ROOT / "bench" / "longcat_fit.py")
    fit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fit)  # type: ignore[union-attr]
    X, y, _ = fit.dataset()  # the bundled arduboy pack and the seeded generated levels
    result = fit.fit(X, y)
    assert result["n"] == coefficients.FIT["n"]
    assert result["intercept"] == pytest.approx(coefficients.INTERCEPT, rel=1e-9)
    for name in FEATURES:
        assert result["coefficients"][name] == pytest.approx(
            coefficients.COEFFICIENTS[name], rel=1e-9
        )
    assert result["r2"] == pytest.approx(coefficients.FIT["r2"], rel=1e-9)


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
