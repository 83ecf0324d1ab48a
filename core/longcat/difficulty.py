"""Difficulty of Longcat levels: a simulated player (the label) and a ridge-regression
predictor on three graph metrics (the paper's final model).

The simulated player
--------------------
Without player data, levels are labelled by the exact expected behaviour of a simple player
on the state graph (:mod:`core.longcat.graph`):

* in every position it picks uniformly at random among the moves that do not lead to a
  ``dead`` position (it sees at a glance that the empty cells were split in two);
* on reaching a ``fail`` position, or a position whose every move leads to a dead one, it
  restarts from the start (a restart costs no move);
* it stops at the first ``success`` position.

Each attempt from the start is an absorbing Markov chain on the DAG: with ``p`` the chance
that an attempt wins and ``m`` the expected number of moves of an attempt (won or not), the
number of attempts is geometric and, by Wald's identity, the expected total number of moves
is ``m / p``. That is :func:`expected_moves`, the difficulty label (``inf`` when unsolvable,
0 for a level already won at the start). Its unit is one move; a level with one forced
route of ``n`` moves scores ``n``.

The predictor
-------------
:func:`predict_difficulty` is ``intercept + Σ coefficient × feature`` on the features
``(indeterminate_branches, success_states, solution_branches)`` (:data:`FEATURES`), with the
ridge-regression coefficients fitted by ``python bench/longcat_fit.py`` against
:func:`expected_moves` and shipped in :mod:`core.longcat.coefficients` (no training and no
scikit-learn at run time). It estimates the label in the same unit (expected moves).

Bands
-----
The paper's difficulty bands (0–20, 20–50, 50–80, 80–200) are on its predictor's scale,
fitted to player completion times. :data:`BANDS` puts the same edges on the expected-moves
scale, reading one expected move as one unit of the paper's scale: a nominal
correspondence, not a calibration (no player data links the two).
"""

from __future__ import annotations

import math

from core.longcat import coefficients
from core.longcat.graph import Analysis, Metrics, analyse
from core.longcat.level import Level

__all__ = [
    "BANDS",
    "DEFAULT_PREDICTOR",
    "FEATURES",
    "PREDICTORS",
    "attempt_odds",
    "band",
    "difficulty_label",
    "difficulty_text",
    "expected_moves",
    "features",
    "level_difficulty",
    "predict_difficulty",
]

FEATURES: tuple[str, ...] = ("indeterminate_branches", "success_states", "solution_branches")
"""The predictor's inputs, names of :class:`Metrics` attributes. The number of solutions is
the seed's: ``success_states`` ("成功状态的数量"), not the winning move sequences
(``solution_paths``), which the predictor used before issue 21."""

LEGACY_FEATURES: tuple[str, ...] = ("indeterminate_branches", "solution_paths", "solution_branches")
"""The inputs of the predictor shipped before issue 21 (the winning move sequences)."""

LEGACY_INTERCEPT = 10.312574233757559
LEGACY_COEFFICIENTS = {
    "indeterminate_branches": 6.384905709240854,
    "solution_paths": -2.647445846566706,
    "solution_branches": 4.652888695483916,
}
"""The frozen coefficients of that predictor (same data and fit; R² 0.6994, 5-fold CV R²
0.6432). The bundled packs' titles carry its figures: a pack level's title is its key in
saves and results, so those titles stay as they were made."""

PREDICTORS: dict[str, tuple[float, dict[str, float], tuple[str, ...]]] = {
    "success-states": (coefficients.INTERCEPT, coefficients.COEFFICIENTS, FEATURES),
    "solution-paths": (LEGACY_INTERCEPT, LEGACY_COEFFICIENTS, LEGACY_FEATURES),
}
"""``name: (intercept, coefficients, features)``: ``success-states`` is the seed's count and
the default; ``solution-paths`` is the predictor before issue 21, kept so that the bundled
packs (titled with it) are reproduced exactly by the command in their description."""

DEFAULT_PREDICTOR = "success-states"
"""The predictor used unless one is named."""

BANDS: tuple[tuple[float, float, str], ...] = (
    (-math.inf, 20.0, "trivial"),
    (20.0, 50.0, "easy"),
    (50.0, 80.0, "hard"),
    (80.0, 200.0, "very hard"),
    (200.0, math.inf, "extreme"),
)
"""``(low, high, name)``: a value ``v`` is in the band with ``low <= v < high``; "trivial" is
the paper's 0–20 band (negative predictions included), "extreme" is beyond its scale."""


def attempt_odds(analysis: Analysis) -> tuple[float, float]:
    """One attempt of the simulated player from the start.

    Args:
        analysis: The level's analysis.

    Returns:
        ``(p, m)``: the probability that the attempt wins, and its expected number of moves.
    """
    graph = analysis.graph
    kinds = analysis.kinds
    n = len(graph)
    win = [0.0] * n
    moves = [0.0] * n
    for k in graph.topological_order():
        kind = kinds[k]
        if kind == "success":
            win[k] = 1.0
            continue
        options = [c for _, c in graph.edges[k] if kinds[c] != "dead"]
        if kind == "fail" or not options:
            continue  # restart: this attempt is lost, no further move
        share = 1.0 / len(options)
        win[k] = sum(win[c] for c in options) * share
        moves[k] = 1.0 + sum(moves[c] for c in options) * share
    return win[0], moves[0]


def expected_moves(level_or_analysis: Level | Analysis) -> float:
    """The difficulty label: expected total moves of the simulated player until it wins.

    Args:
        level_or_analysis: A level (analysed here) or its analysis.

    Returns:
        ``m / p`` (see the module docstring); ``math.inf`` when the level is unsolvable.
    """
    analysis = _analysis(level_or_analysis)
    p, m = attempt_odds(analysis)
    return m / p if p > 0 else math.inf


def features(metrics: Metrics) -> tuple[float, float, float]:
    """The predictor's inputs (:data:`FEATURES`) of a level's metrics."""
    return tuple(float(getattr(metrics, name)) for name in FEATURES)  # type: ignore[return-value]


def predict_difficulty(
    value: Level | Analysis | Metrics, predictor: str = DEFAULT_PREDICTOR
) -> float:
    """Predicted difficulty (expected moves of the simulated player) from the shipped
    ridge coefficients.

    Args:
        value: A level (analysed here), its analysis, or its metrics.
        predictor: A name of :data:`PREDICTORS` (default: the seed's success states).

    Returns:
        ``intercept + Σ coefficient × feature`` (may be slightly negative for trivial levels).

    Raises:
        KeyError: An unknown predictor.
    """
    metrics = value if isinstance(value, Metrics) else _analysis(value).metrics
    intercept, weights, names = PREDICTORS[predictor]
    total = intercept
    for name in names:
        total += weights[name] * float(getattr(metrics, name))
    return total


def level_difficulty(
    value: Level | Analysis | Metrics, predictor: str = DEFAULT_PREDICTOR
) -> float | None:
    """A level's one difficulty, the figure every place shows (issue 30): the level list and
    title (a described level's title ends with it), the game's side panel, the level bench,
    the description and the command line all take it from here.

    It is :func:`predict_difficulty`, never below 0 (the regression can dip below zero for
    trivial levels, and an expected number of moves cannot), and None for an unsolvable
    level, which has no difficulty to predict.

    Args:
        value: A level (analysed here), its analysis, or its metrics.
        predictor: A name of :data:`PREDICTORS`.

    Returns:
        The difficulty in expected moves, or None when the level cannot be won.
    """
    metrics = value if isinstance(value, Metrics) else _analysis(value).metrics
    if metrics.success_states == 0:
        return None
    return max(0.0, predict_difficulty(metrics, predictor))


def difficulty_label(value: float | None) -> str:
    """The short form of a difficulty, for titles, lists and the side panel: ``"easy 31"``
    (its band and the value rounded; ``"difficulty ?"`` when unknown).

    Args:
        value: A :func:`level_difficulty`, or None.

    Returns:
        The label.
    """
    if value is None or math.isnan(value):
        return "difficulty ?"
    return f"{band(value)} {max(0, round(value))}"


def difficulty_text(value: float) -> str:
    """The long form of a difficulty, for descriptions and the level bench: ``"30.6
    (easy)"``, the same value as :func:`difficulty_label` with one decimal.

    Args:
        value: A :func:`level_difficulty`.

    Returns:
        The text.
    """
    return f"{max(0.0, value):.1f} ({band(value)})"


def band(value: float) -> str:
    """The name of the :data:`BANDS` entry holding ``value``."""
    for low, high, name in BANDS:
        if low <= value < high:
            return name
    return BANDS[-1][2]  # inf or nan


def _analysis(value: Level | Analysis) -> Analysis:
    return value if isinstance(value, Analysis) else analyse(value)
