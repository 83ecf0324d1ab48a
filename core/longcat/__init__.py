"""Longcat (seed 003): a cat slides through a grid and must fill every empty cell.

The pure core: levels (:mod:`.level`), rules and states (:mod:`.rules`), the
:class:`core.game.Game` engine (:mod:`.game`), the solver (:mod:`.solver`), the state graph
and its metrics (:mod:`.graph`), generators (:mod:`.generate`) and the difficulty model
(:mod:`.difficulty`), and seed 003's ``validatePath`` (:mod:`.validate`).
"""

from core.longcat.difficulty import (
    BANDS,
    FEATURES,
    band,
    expected_moves,
    predict_difficulty,
)
from core.longcat.game import GAME, level_from_json, level_to_json
from core.longcat.generate import GENERATORS, GenerationError, generate
from core.longcat.graph import (
    CLASSES,
    KINDS,
    Analysis,
    AnalysisLimit,
    Metrics,
    StateGraph,
    analyse,
    build_graph,
    to_dot,
)
from core.longcat.level import DIRECTIONS, LETTERS, MAX_SIZE, GridError, Level
from core.longcat.rules import (
    State,
    apply_move,
    initial,
    legal_moves,
    parse_moves,
    solution_string,
    status,
)
from core.longcat.solver import Solution, is_solvable, shortest_solution
from core.longcat.validate import PathCheck, validate_path

__all__ = [
    "BANDS",
    "CLASSES",
    "DIRECTIONS",
    "FEATURES",
    "GAME",
    "GENERATORS",
    "KINDS",
    "LETTERS",
    "MAX_SIZE",
    "Analysis",
    "AnalysisLimit",
    "GenerationError",
    "GridError",
    "Level",
    "Metrics",
    "PathCheck",
    "Solution",
    "State",
    "StateGraph",
    "analyse",
    "apply_move",
    "band",
    "build_graph",
    "expected_moves",
    "generate",
    "initial",
    "is_solvable",
    "legal_moves",
    "level_from_json",
    "level_to_json",
    "parse_moves",
    "predict_difficulty",
    "shortest_solution",
    "solution_string",
    "status",
    "to_dot",
    "validate_path",
]
