"""Level linter: what a designer should fix before shipping a TermCraft level.

Checks (code: severity):

* ``rule-arity``, ``rule-unbound-vars``, ``axiom-arity``, ``axiom-not-ground`` (warning):
  ``rewrite``/``equiv`` subterms the engine ignores, with the reason.
* ``placeholder-compound`` / ``placeholder-var`` (warning): ``placeholder()`` or
  ``var(placeholder)`` are not construct sites (only the constant ``placeholder`` is).
* ``already-won`` (error): the current term already is the target.
* ``no-actions`` (error): the level is lost before the first move.
* ``budget-unused`` (warning): budget > 0 but no placeholder to spend it on.
* ``placeholder-no-budget`` (warning): a placeholder but budget 0.
* ``fuel-unused`` (warning): fuel > 0 but no valid rule.
* ``unsolvable`` (error), ``solver-unknown`` (info), ``solvable`` (info): the solver's verdict.
  ``unsolvable`` is only ever a proof (the search covered every move the fuel and budget
  allow, constructs of every term over the level's alphabet included, see :mod:`.constructs`);
  a search that did not finish is ``solver-unknown``, which says why (time limit, work budget,
  state or memory limit, or the search space restricted to ...).
* ``par-too-low`` (warning) / ``par-above-optimal`` (info): ``par`` against the shortest plan.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.search import Watch
from core.termcraft.links import distinct_subterms, marked_below, marked_positions
from core.termcraft.terms import COMPOUND, CONST, Path, Term, format_path

from .analysis import PLACEHOLDER, analyze
from .engine import can_construct, has_rewrite_action, placeholder_sites
from .level import Level
from .solver import DEFAULT_BUDGET, DEFAULT_MAX_MEMORY, DEFAULT_MAX_STATES, solve
from .state import State

__all__ = ["LintIssue", "lint"]

SEVERITIES = ("error", "warning", "info")
"""Severities, most serious first."""


@dataclass(frozen=True, slots=True)
class LintIssue:
    """One finding of the linter.

    Attributes:
        severity: ``"error"``, ``"warning"`` or ``"info"``.
        code: Stable machine-readable code (see the module docstring).
        message: Human-readable explanation.
        path: Position in the current term the issue is about, if any.
    """

    severity: str
    """``"error"``, ``"warning"`` or ``"info"``."""
    code: str
    """Stable machine-readable code."""
    message: str
    """Human-readable explanation."""
    path: Path | None = None
    """Position in the current term, if any."""


def _misused(t: Term) -> bool:
    """A compound named var (any case), or a placeholder that is not a constant."""
    return (t.kind == COMPOUND and t.name.lower() == "var") or (
        t.name == PLACEHOLDER and t.kind != CONST
    )


def _may_misuse(term: Term, ground: list[Term]) -> bool:
    """Whether ``term`` can hold a misused name at all: a cheap test on the names of its
    compounds and variables (``ground``: its distinct ground subterms), so that big levels
    without any are not walked."""
    names = {t.name for t in ground if t.kind == COMPOUND}
    stack = [term]
    while stack:  # the non-ground part: variables and the compounds above them
        t = stack.pop()
        if not t.ground:
            names.add(t.name)
            stack.extend(t.args)
    return PLACEHOLDER in names or any(name.lower() == "var" for name in names)


def _misused_placeholders(term: Term, ground: list[Term]) -> list[LintIssue]:
    if not _may_misuse(term, ground):
        return []
    # Only the subtrees holding a misused name are walked (found once per distinct subterm).
    marks = marked_below(distinct_subterms(term), _misused)
    out: list[LintIssue] = []
    for path, t, _ in marked_positions(term, marks):
        where = format_path(path)
        if t.kind == COMPOUND and t.name.lower() == "var":
            # var(f(x)) is a compound named var, but once a rewrite turns it into
            # var(x) its canonical text reads back as the variable x.
            out.append(
                LintIssue(
                    "warning",
                    "var-compound",
                    f"at {where}: a compound named {t.name} prints like "
                    "a variable when its argument is a bare identifier; use another name",
                    path,
                )
            )
        if t.name != PLACEHOLDER or t.kind == CONST:
            continue
        if t.kind == COMPOUND:
            out.append(
                LintIssue(
                    "warning",
                    "placeholder-compound",
                    f"at {where}: placeholder(...) is a compound, not a construct site; "
                    "write the constant placeholder",
                    path,
                )
            )
        else:
            out.append(
                LintIssue(
                    "warning",
                    "placeholder-var",
                    f"at {where}: var(placeholder) is a variable, not a construct site; "
                    "write the constant placeholder",
                    path,
                )
            )
    return out


def lint(
    level: Level,
    *,
    run_solver: bool = True,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = 5.0,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    budget: int | None = DEFAULT_BUDGET,
    deadline: float | None = None,
) -> tuple[LintIssue, ...]:
    """Check a level and report issues, most serious first.

    Args:
        level: The level.
        run_solver: Also run the solver (unsolvable / par checks).
        max_states: Solver state limit.
        time_limit: Solver time limit in seconds (the checks before it have none).
        max_memory: Solver memory limit in bytes (estimated, see ``solver.state_bytes``).
        should_stop: Polled throughout; returning True stops the solver (a
            ``solver-unknown`` issue) or, before it, raises ``core.search.Interrupted``.
        progress: Called as ``progress(stage, done, total)`` while the level is analysed.
        budget: Work budget in term nodes (the analysis spends the level's Size, the solver
            the Size of each state it expands; None or 0: none).
        deadline: An absolute :func:`time.monotonic` deadline for the whole check (the
            analysis included) instead of ``time_limit`` for the solver alone.

    Raises:
        core.search.Interrupted: When ``deadline``, ``budget`` or ``should_stop`` stops the
            checks before the solver (the solver's own stop is a ``solver-unknown`` issue).

    Returns:
        The issues, errors first, then warnings, then infos (stable within a severity).
    """
    issues: list[LintIssue] = []
    watch = Watch(None, should_stop, progress, deadline=deadline, budget=budget or None)
    watch.spend(level.current.size)  # the analysis is linear in the term
    an = analyze(level.current, watch)
    for ig in an.ignored:
        issues.append(LintIssue("warning", ig.code, ig.message, ig.path))
    issues.extend(_misused_placeholders(level.current, an.closure.terms))
    sites = placeholder_sites(level.current)
    if level.budget > 0 and not sites:
        issues.append(
            LintIssue(
                "warning",
                "budget-unused",
                f"budget is {level.budget} but the current term has no placeholder to construct at",
            )
        )
    if sites and level.budget == 0:
        issues.append(
            LintIssue(
                "warning",
                "placeholder-no-budget",
                f"{len(sites)} placeholder(s) but budget is 0: nothing can be constructed",
            )
        )
    if level.fuel > 0 and not an.rules:
        issues.append(
            LintIssue(
                "warning",
                "fuel-unused",
                f"fuel is {level.fuel} but the current term has no valid rewrite rule",
            )
        )
    start = State.from_level(level)
    if start.term is start.target:
        issues.append(
            LintIssue(
                "error",
                "already-won",
                "the current term already equals the target: the level is won before any move",
            )
        )
    elif not can_construct(start) and not has_rewrite_action(start, watch):
        issues.append(
            LintIssue(
                "error",
                "no-actions",
                "no valid action at the start: the level is lost before any move",
            )
        )
    elif run_solver:
        result = solve(
            level,
            max_states=max_states,
            time_limit=time_limit,
            should_stop=should_stop,
            max_memory=max_memory,
            budget=max(watch.budget_left or 0, 1) if budget else None,
            deadline=deadline,
        )
        if result.status == "unsolvable":
            issues.append(
                LintIssue(
                    "error",
                    "unsolvable",
                    f"proved: no plan reaches the target (every move the fuel and budget "
                    f"allow was searched: {result.explored} states)",
                )
            )
        elif result.status == "unknown":
            issues.append(
                LintIssue(
                    "info",
                    "solver-unknown",
                    f"unknown ({result.why}, {result.explored} states searched): the level "
                    "is neither proved solvable nor proved unsolvable",
                )
            )
        else:
            n = len(result.plan)
            issues.append(LintIssue("info", "solvable", f"solvable in {n} move(s)"))
            if level.par is not None and level.par < n:
                issues.append(
                    LintIssue(
                        "warning",
                        "par-too-low",
                        f"par is {level.par} but the shortest plan needs {n} move(s)",
                    )
                )
            elif level.par is not None and level.par > n:
                issues.append(
                    LintIssue(
                        "info",
                        "par-above-optimal",
                        f"par is {level.par} but a {n}-move plan exists",
                    )
                )
    order = {s: i for i, s in enumerate(SEVERITIES)}
    return tuple(sorted(issues, key=lambda i: order[i.severity]))
