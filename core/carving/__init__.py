"""Triangle Carving (seed 001): carve a target hypergraph out of a typed deductive closure.

Public API (pure; every value is immutable):

Values
    ``Formula(head, x, y, z)``, ``Operator(f1..f5)`` (:mod:`.formula`; canonical ``str()``,
    ``formula_from_str``, ``operator_from_str``);
    ``Level(types, variables, r_delta, r_nabla, root, target, axioms=(), density=…, par=…)``,
    ``Target(vertices, edges)``, ``level_from_json`` / ``level_to_json`` (errors:
    ``LevelJSONError`` with the key path) (:mod:`.level`).
Closure
    ``compute_closure(level) -> Closure(formulas, edges, dropped_rotations,
    dropped_conclusions)`` (:mod:`.closure`); ``world_of(level) -> World`` (:mod:`.world`).
Rules
    ``initial_state``, ``construct``, ``component_listing``, ``elimination_possible``, ``path_steps``, ``extend``,
    ``can_finish``, ``finish``, ``suggest_path``, ``succession_candidates``, ``choose_base``,
    ``winning_component`` (:mod:`.state`); ``GAME`` (:mod:`.game`).
Designer tools
    ``generate`` (:mod:`.generator`), ``solve`` / ``hint`` (:mod:`.solver`); ``assess`` (the
    level editor's verdict: closure size, solvable within a limit, shortest plan by time
    step) and ``plan_steps`` (:mod:`.design`).
"""

from __future__ import annotations

from .closure import Closure, ClosureTooLarge, compute_closure
from .formula import Formula, Operator, formula_from_str, operator_from_str
from .game import GAME
from .generator import Generated, NoProvedLevel, generate
from .level import DENSITY_READINGS, Level, LevelJSONError, Target, level_from_json, level_to_json
from .solver import SolveResult, hint, solve
from .state import (
    PHASES,
    State,
    can_finish,
    choose_base,
    component_listing,
    construct,
    elimination_possible,
    extend,
    finish,
    initial_state,
    path_steps,
    succession_candidates,
    suggest_path,
    winning_component,
)
from .world import World, world_of

__all__ = [
    "DENSITY_READINGS",
    "GAME",
    "PHASES",
    "Closure",
    "ClosureTooLarge",
    "Formula",
    "Generated",
    "Level",
    "LevelJSONError",
    "NoProvedLevel",
    "Operator",
    "SolveResult",
    "State",
    "Target",
    "World",
    "can_finish",
    "choose_base",
    "component_listing",
    "compute_closure",
    "construct",
    "elimination_possible",
    "extend",
    "finish",
    "formula_from_str",
    "generate",
    "hint",
    "initial_state",
    "level_from_json",
    "level_to_json",
    "operator_from_str",
    "path_steps",
    "solve",
    "succession_candidates",
    "suggest_path",
    "winning_component",
    "world_of",
]
