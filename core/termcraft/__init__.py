"""TermCraft: rewrite a term into a target with rules, axioms, fuel and budget (seed 000).

Public API (everything is pure; states are immutable values).  Long computations take a
``core.search.Watch`` (deadline, cancel test, progress callback) and raise
``core.search.Interrupted`` when it says stop:

Values (:mod:`.state`, :mod:`.level`)
    ``Level(title, current, target, fuel, budget, par=None, description="", hint="", author="")``
    ``State(term, target, fuel, budget)``, ``State.from_level(level)``
    ``Rule(path, lhs, rhs)``, ``Axiom(path, left, right)``, ``Ignored(path, code, message)``
    ``RewriteAction(rule, site, sigma, matched)`` (named tuple; ``.replacement`` property),
    ``ConstructAction(site, term)``
    ``IllegalMove`` (a ``ValueError`` whose text is a message for the player)

Analysis of a term (:mod:`.analysis`, cached per term within a size budget)
    ``analyze(term, watch=NO_WATCH, cache=True) -> Analysis`` with ``.rules``, ``.axioms``, ``.ignored``, ``.warnings``,
    ``.closure`` (a :class:`core.termcraft.closure.CongruenceClosure`: ``find``, ``same``,
    ``class_of``, ``classes``); shortcuts ``rules(term)``, ``axioms(term)``,
    ``warnings(term)``, ``equivalence_class(term, subterm)``.

Moves and outcome (:mod:`.engine`; how rewrites are found: :mod:`.actions`)
    ``rewrite_actions(state)`` (materialised; empty when fuel is 0),
    ``iter_rewrite_actions(state, start=0, watch=NO_WATCH)`` (lazy, same order),
    ``count_rewrite_actions(state, watch)``, ``nth_rewrite_action(state, n, watch)``,
    ``has_rewrite_action(state, watch)``, ``is_available(state, action)``,
    ``placeholder_sites(term)``,
    ``ground_sites(term)``, ``result_of(state, action) -> Term`` (preview),
    ``apply(state, action) -> State`` (rewrite or construct), ``construct(state, site, term)``,
    ``can_construct(state)``, ``status(state) -> "won" | "lost" | "playing"``,
    ``loss_reason(state) -> str | None``, ``size(term)``.

Designer tools
    ``solve(level_or_state, max_states=..., time_limit=..., should_stop=None, progress=None,
    max_memory=..., watch=None) -> SolveResult(status, plan, explored, reason, elapsed)``
    (:mod:`.solver`): ``"solved"``, ``"unsolvable"`` (a proof: constructs range over every
    term of the level's alphabet, :mod:`.constructs`) or ``"unknown"`` and why;
    ``lint(level, ..., should_stop=None, progress=None) -> tuple[LintIssue(severity, code,
    message, path), ...]`` (:mod:`.lint`).

For front ends (a worker thread with a progress display and a cancel button):
    ``watch = Watch(should_stop=event.is_set, progress=lambda stage, done, total: ...)``;
    ``count_rewrite_actions(state, watch)`` and ``iter_rewrite_actions(state, start, watch)``
    raise ``Interrupted("cancelled")`` soon after ``event.set()``; a page of a long list is
    ``islice(iter_rewrite_actions(state, start=offset), page)``; nothing half-built is cached.
"""

from __future__ import annotations

from .analysis import Analysis, analyze, axioms, equivalence_class, rules, warnings
from .engine import (
    REWRITE_FUEL,
    apply,
    can_construct,
    construct,
    count_rewrite_actions,
    ensure_not_won,
    ground_sites,
    has_rewrite_action,
    is_available,
    iter_rewrite_actions,
    loss_reason,
    next_state,
    nth_rewrite_action,
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
    Ignored,
    IllegalMove,
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
    "Ignored",
    "IllegalMove",
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
    "count_rewrite_actions",
    "ensure_not_won",
    "equivalence_class",
    "ground_sites",
    "has_rewrite_action",
    "is_available",
    "iter_rewrite_actions",
    "lint",
    "loss_reason",
    "next_state",
    "nth_rewrite_action",
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
