"""Longcat (seed 003): a cat slides through a grid and must fill every empty cell.

The pure core: levels (:mod:`.level`), rules and states (:mod:`.rules`), the
:class:`core.game.Game` engine (:mod:`.game`), the solver (:mod:`.solver`) and the state
graph with its metrics (:mod:`.graph`).
"""

from core.longcat.game import GAME, level_from_json, level_to_json
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

__all__ = [
    "CLASSES", "DIRECTIONS", "GAME", "KINDS", "LETTERS", "MAX_SIZE", "Analysis",
    "AnalysisLimit", "GridError", "Level", "Metrics", "Solution", "State", "StateGraph",
    "analyse", "apply_move", "build_graph", "initial", "is_solvable", "legal_moves",
    "level_from_json", "level_to_json", "parse_moves", "shortest_solution", "solution_string",
    "status", "to_dot",
]
