"""Algebrawl: arithmetic puzzles with operator cards (seed 002, Super Algebrawl).

A puzzle deals numbers, operator cards and targets (monsters). Playing a card on values of
the pool replaces them with the result, a tree; a value equal to a target strikes it. All
targets struck wins. Everything here is pure: immutable values in, new values out, exact
fractions throughout, randomness only from explicit seeds.

Values and cards
    ``Puzzle(numbers, targets, cards=DEFAULT_CARDS, integer_only=False, use_all=False)``,
    ``Puzzle.of([3, 4, 5], 35)``; ``Card(name, params, body, symbol="", commutative=False)``
    with ``.apply(values)``, ``.definition()``; built-ins ``ADD SUB MUL DIV NEG SQUARE SPLIT
    POISON``, ``DEFAULT_CARDS``, ``LIBRARY``; card bodies are :mod:`.expr` values
    (``Num Arg Neg BinOp Call``, ``evaluate``, ``to_text``; text parsed by
    ``grammar.algebrawl_expr``). Trees: ``Leaf``, ``Node``, ``make_node``, ``to_infix``,
    ``ast_depth`` ... (:mod:`.ast`). Bounds: :mod:`.values`.

Play (:mod:`.play`, :mod:`.game`)
    ``GAME`` (the :class:`core.game.Game` engine, id ``"algebrawl"``), ``State``,
    ``PlayCard(card, args)``, ``Strike(value, target)``, ``initial_state``, ``legal_moves``,
    ``apply_move``, ``status``, ``describe_move``.

Levels
    ``Level(title, puzzle, par=None, description="", hint="", author="")``, ``level_of``
    (:mod:`.level`); the generators of the registry, ``GENERATORS`` (:mod:`.generators`:
    ``brawl`` by card score, ``24`` by predicted seconds, ``casts`` a brawl with a poison
    wizard or a traitor).

Solvers
    Puzzles: ``solve(puzzle, count=False, ...) -> SolveResult``, ``solve_state``, ``hint``,
    ``solution_moves`` (:mod:`.solver`); ``shortest(puzzle) -> Shortest`` (the fewest
    moves, :mod:`.par`). The 24 game: ``solvable24``, ``solve24``,
    ``solutions24``, ``count_solutions24``, ``solvable_with`` (:mod:`.hands`). Countdown:
    ``countdown_reachable``, ``countdown_solve``, ``countdown_solutions``,
    ``countdown_selections`` (:mod:`.countdown`).

Designing levels: ``design_verdict(level) -> Verdict`` (solvable, par, distinct solutions, a
shortest solution, predicted difficulty, within a time limit) and ``level_from_state``
(:mod:`.design`, the level editor's verdict and "Current position").

Distinct solutions: ``normal_form(tree, equivalence)``, ``nf_text``, ``EQUIVALENCES``
(:mod:`.normal`, whose docstring defines the normal form); with cards cast on the monsters,
``solve(count=True)`` counts forms (:mod:`.castcount`: ``count_with_casts``,
``form_of_play``, ``form_text``).

Generation and difficulty
    ``generate(GeneratorConfig(...), seed) -> Generated`` and the seed's ``leaves_reduce``,
    ``leaves_full_reduce``, ``rand_identity_pick``, ``rand_op`` ... (:mod:`.generator`);
    ``generate_hand(band, seed)``; ``features``, ``predict_seconds`` (:mod:`.difficulty`).

Graphviz: ``ast_to_dot``, ``leaves_to_dot``, ``solution_to_dot`` (:mod:`.graphviz`).
"""

from __future__ import annotations

from .ast import (
    Ast,
    Leaf,
    Node,
    ast_cards,
    ast_depth,
    ast_depth_max,
    ast_eval,
    ast_leaves,
    leaf,
    leaf_p,
    make_node,
    node_children,
    postorder,
    to_infix,
)
from .cards import (
    ADD,
    DEFAULT_CARDS,
    DIV,
    LIBRARY,
    MUL,
    NEG,
    POISON,
    POISON_WIZARD,
    SPLIT,
    SQUARE,
    SUB,
    TRAITOR,
    Card,
    card_from_json,
    card_to_json,
)
from .countdown import (
    countdown_reachable,
    countdown_selections,
    countdown_solutions,
    countdown_solve,
)
from .difficulty import FEATURES, features, predict_seconds
from .expr import Arg, BinOp, Call, EvalError, Expr, Neg, Num, evaluate, to_text
from .game import GAME, AlgebrawlGame
from .generator import (
    DEFAULT_SCORES,
    Generated,
    GenerationFailed,
    GeneratorConfig,
    generate,
    generate_hand,
    leaves_full_reduce,
    leaves_reduce,
    rand_identity_pick,
    rand_op,
    rand_op_list,
)
from .graphviz import ast_to_dot, leaves_to_dot, solution_to_dot
from .hands import count_solutions24, solutions24, solvable24, solvable_with, solve24
from .level import MAX_PAR, Level, level_of
from .normal import DEFAULT_EQUIVALENCE, EQUIVALENCES, nf_text, normal_form
from .par import Shortest, shortest, shortest_state
from .play import (
    Cast,
    Move,
    PlayCard,
    State,
    Strike,
    apply_move,
    describe_move,
    initial_state,
    legal_moves,
    monster_values,
    status,
)
from .puzzle import Puzzle, puzzle_from_json, puzzle_to_json
from .solver import SolveResult, hint, solution_moves, solve, solve_state
from .values import MAX_INPUT, MAX_VALUE, format_value, parse_value

__all__ = [
    "ADD",
    "DEFAULT_CARDS",
    "DEFAULT_EQUIVALENCE",
    "DEFAULT_SCORES",
    "DIV",
    "EQUIVALENCES",
    "FEATURES",
    "GAME",
    "LIBRARY",
    "MAX_INPUT",
    "MAX_PAR",
    "MAX_VALUE",
    "MUL",
    "NEG",
    "POISON",
    "POISON_WIZARD",
    "SPLIT",
    "SQUARE",
    "SUB",
    "TRAITOR",
    "AlgebrawlGame",
    "Arg",
    "Ast",
    "BinOp",
    "Call",
    "Card",
    "Cast",
    "EvalError",
    "Expr",
    "Generated",
    "GenerationFailed",
    "GeneratorConfig",
    "Leaf",
    "Level",
    "Move",
    "Neg",
    "Node",
    "Num",
    "PlayCard",
    "Puzzle",
    "Shortest",
    "SolveResult",
    "State",
    "Strike",
    "apply_move",
    "ast_cards",
    "ast_depth",
    "ast_depth_max",
    "ast_eval",
    "ast_leaves",
    "ast_to_dot",
    "card_from_json",
    "card_to_json",
    "count_solutions24",
    "countdown_reachable",
    "countdown_selections",
    "countdown_solutions",
    "countdown_solve",
    "describe_move",
    "evaluate",
    "features",
    "format_value",
    "generate",
    "generate_hand",
    "hint",
    "initial_state",
    "leaf",
    "leaf_p",
    "leaves_full_reduce",
    "leaves_reduce",
    "leaves_to_dot",
    "legal_moves",
    "level_of",
    "make_node",
    "monster_values",
    "nf_text",
    "node_children",
    "normal_form",
    "parse_value",
    "postorder",
    "predict_seconds",
    "puzzle_from_json",
    "puzzle_to_json",
    "rand_identity_pick",
    "rand_op",
    "rand_op_list",
    "shortest",
    "shortest_state",
    "solution_moves",
    "solution_to_dot",
    "solutions24",
    "solvable24",
    "solvable_with",
    "solve",
    "solve24",
    "solve_state",
    "status",
    "to_infix",
    "to_text",
]
