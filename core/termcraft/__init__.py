"""TermCraft: rewrite a term into a target with rules, axioms, fuel and budget (seed 000).

Public API (everything is pure; states are immutable values):

Values (:mod:`.state`, :mod:`.level`)
    ``Level(title, current, target, fuel, budget, par=None, description="", hint="", author="")``
    ``State(term, target, fuel, budget)``, ``State.from_level(level)``
    ``Rule(path, lhs, rhs)``, ``Axiom(path, left, right)``, ``Ignored(path, code, message)``
    ``RewriteAction(rule, site, sigma, matched)`` (named tuple; ``.replacement`` property),
    ``ConstructAction(site, term)``
    ``IllegalMove`` (a ``ValueError`` whose text is a message for the player)

Analysis of a term (:mod:`.analysis`, cached per term)
    ``analyze(term) -> Analysis`` with ``.rules``, ``.axioms``, ``.ignored``, ``.warnings``,
    ``.closure`` (a :class:`core.closure.CongruenceClosure`: ``find``, ``same``,
    ``class_of``, ``classes``); shortcuts ``rules(term)``, ``axioms(term)``,
    ``warnings(term)``, ``equivalence_class(term, subterm)``.

Moves and outcome (:mod:`.engine`)
    ``rewrite_actions(state)`` (empty when fuel is 0), ``placeholder_sites(term)``,
    ``ground_sites(term)``, ``result_of(state, action) -> Term`` (preview),
    ``apply(state, action) -> State`` (rewrite or construct), ``construct(state, site, term)``,
    ``can_construct(state)``, ``status(state) -> "won" | "lost" | "playing"``,
    ``loss_reason(state) -> str | None``, ``size(term)``.

Designer tools
    ``solve(level_or_state, max_states=..., time_limit=..., should_stop=None, progress=None)
    -> SolveResult(status, plan, explored)`` (:mod:`.solver`);
    ``lint(level, ...) -> tuple[LintIssue(severity, code, message, path), ...]`` (:mod:`.lint`).
"""

from __future__ import annotations

from .analysis import Analysis, analyze, axioms, equivalence_class, rules, warnings
from .engine import (
    REWRITE_FUEL,
    apply,
    can_construct,
    construct,
    ensure_not_won,
    ground_sites,
    loss_reason,
    next_state,
    placeholder_sites,
    result_of,
    rewrite_actions,
    size,
    status,
)
from .level import Level
from .lint import LintIssue, lint
from .solver import SolveResult, replay, solve
from .state import (
    Action,
    Axiom,
    ConstructAction,
    IllegalMove,
    Ignored,
    RewriteAction,
    Rule,
    State,
    Substitution,
)

__all__ = [
    "REWRITE_FUEL",
    "Action",
    "Analysis",
    "Axiom",
    "ConstructAction",
    "IllegalMove",
    "Ignored",
    "Level",
    "LintIssue",
    "RewriteAction",
    "Rule",
    "SolveResult",
    "State",
    "Substitution",
    "analyze",
    "apply",
    "axioms",
    "can_construct",
    "construct",
    "ensure_not_won",
    "equivalence_class",
    "ground_sites",
    "lint",
    "loss_reason",
    "next_state",
    "placeholder_sites",
    "replay",
    "result_of",
    "rewrite_actions",
    "rules",
    "size",
    "solve",
    "status",
    "warnings",
]
