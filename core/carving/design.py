"""The level designer's verdict on a Triangle Carving level (issue 20): what the bench shows.

:func:`assess` answers, within a time and state limit, the questions a designer asks of a
level while editing it:

* how large the closure is (|F*| with its Δ/∇ split, |E_Ω|, the ill-typed formulas left
  out), or that it is too large to play (:class:`~core.carving.closure.ClosureTooLarge`);
* whether the level is solvable: ``"solved"`` (with a shortest plan, grouped into its time
  steps by :func:`plan_steps`), ``"unsolvable"`` or ``"unknown"`` within the limit;
* the reason when it is unsolvable before any search: the target needs more vertices than F*
  has, an edge with more Δ formulas than F* has (every edge of the game joins exactly one ∇
  and one to four Δ), or no edge can ever be constructed (U ∩ F*⁵ ⊆ E_Ω: lost at once).

Everything here is pure; the editor (:mod:`tui.games.carving.designer`) only renders it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from .closure import ClosureTooLarge
from .formula import Formula, Operator
from .game import Construct, Extend, Move, Succeed
from .level import Level, Target
from .solver import DEFAULT_BUDGET, DEFAULT_MAX_STATES, solve
from .state import initial_state
from .world import world_of

__all__ = [
    "LIVE_TIME_LIMIT",
    "PlanStep",
    "Verdict",
    "assess",
    "plan_steps",
]

LIVE_TIME_LIMIT = 2.0
"""Seconds the editor's live verdict gives the solver (the explicit Solve job gives more)."""


@dataclass(frozen=True)
class PlanStep:
    """One time step of a plan, for reading.

    Attributes:
        edge: e_new, the edge constructed.
        walk: The elimination path's vertices from the base point (empty when no legal path
            existed and the edge stayed as a virtual edge).
        base: The base point chosen at the succession, or None when there was none.
        crossed: What each edge of the walk is: ``"new"``, ``"T"`` or ``"V"``.
    """

    edge: Operator
    """e_new."""
    walk: tuple[Formula, ...]
    """P*'s vertices, the base point first (empty: the edge stayed virtual)."""
    base: Formula | None
    """The succession's choice (None: no succession in this step)."""
    crossed: tuple[str, ...] = ()
    """Per edge of P*: ``"new"`` (e_new), ``"T"`` (intrinsic) or ``"V"`` (virtual)."""


def plan_steps(level: Level, plan: tuple[Move, ...]) -> tuple[PlanStep, ...]:
    """Group a plan's moves into its time steps (each starts with a construct).

    Args:
        level: The level the plan starts from (its root is the first base point).
        plan: Game moves (:class:`~core.carving.game.Construct`, ``Extend``, ``Finish``,
            ``Succeed``), as the solver returns them from the level's start.

    Returns:
        One :class:`PlanStep` per time step.
    """
    out: list[PlanStep] = []
    base = level.root
    edge: Operator | None = None
    walk: list[Formula] = []
    crossed: list[str] = []
    chosen: Formula | None = None
    world = world_of(level)

    def close() -> None:
        if edge is not None:
            out.append(PlanStep(edge, tuple(walk), chosen, tuple(crossed)))

    for move in plan:
        if isinstance(move, Construct):
            close()
            edge, walk, crossed, chosen = move.edge, [], [], None
        elif isinstance(move, Extend):
            if not walk:
                walk.append(base)
            walk.append(move.to)
            crossed.append(
                "new" if move.edge == edge else "T" if world.is_intrinsic(move.edge) else "V"
            )
        elif isinstance(move, Succeed):
            chosen = base = move.vertex
    close()
    return tuple(out)


@dataclass(frozen=True)
class Verdict:
    """What the bench says about a level.

    Attributes:
        formulas: |F*| (None when the closure is too large).
        deltas: Δ formulas in F*.
        nablas: ∇ formulas in F*.
        intrinsic: |E_Ω|.
        left_out: Ill-typed rotations and conclusions the closure did not add.
        too_large: The :class:`ClosureTooLarge` message ("" when the closure fits).
        status: ``"solved"``, ``"unsolvable"``, ``"unknown"``, or ``""`` when the closure is
            too large (nothing can be played).
        steps: Time steps of a shortest plan (None unless solved).
        plan: A shortest plan's moves (empty unless solved).
        why: Why the level is unsolvable before any search, or ``""``.
        reason: Why unknown: the bound hit, ``"time limit"``, ``"work budget"``, ``"state
            limit"``, ``"cancelled"`` or ``"truncated"`` (:data:`core.carving.solver.REASONS`).
        explored: States the solver expanded.
        elapsed: Seconds spent.
        time_limit: The solver's time limit.
        budget: The solver's work budget.
    """

    formulas: int | None
    """|F*|."""
    deltas: int = 0
    """|F*_Δ|."""
    nablas: int = 0
    """|F*_∇|."""
    intrinsic: int = 0
    """|E_Ω|."""
    left_out: int = 0
    """Ill-typed formulas not added to F*."""
    too_large: str = ""
    """Why the closure cannot be played ("" when it can)."""
    status: str = ""
    """``solved`` / ``unsolvable`` / ``unknown`` / ``""``."""
    steps: int | None = None
    """Shortest plan's time steps."""
    plan: tuple[Move, ...] = ()
    """A shortest plan."""
    why: str = ""
    """Reason for an unsolvable verdict found without search."""
    reason: str = ""
    """Why unknown."""
    explored: int = 0
    """States expanded."""
    elapsed: float = 0.0
    """Seconds spent."""
    time_limit: float | None = None
    """The solver's time limit."""
    budget: int | None = None
    """The solver's work budget (state images, :func:`~core.carving.solver.solve`)."""


def _cannot_fit(target: Target, formulas: int, deltas: int) -> str:
    """Why no component of any position can be shaped like ``target`` ("" when it may)."""
    if len(target.vertices) > formulas:
        return (
            f"the target has {len(target.vertices)} vertices but F* only {formulas}: "
            "no component is that large"
        )
    widest = max((len(edge) for edge in target.edges), default=0)
    if widest - 1 > deltas:
        return (
            f"a target edge joins {widest} vertices, but an edge joins one ∇ and its Δ "
            f"formulas, and F* has only {deltas} Δ"
        )
    return ""


def assess(
    level: Level,
    *,
    time_limit: float | None = LIVE_TIME_LIMIT,
    max_states: int = DEFAULT_MAX_STATES,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    budget: int | None = DEFAULT_BUDGET,
) -> Verdict:
    """The closure's size, solvability and a shortest plan of ``level``, within limits.

    Args:
        level: The level.
        time_limit: The solver's bound in seconds (None: none).
        max_states: The solver's bound on states kept.
        should_stop: Polled by the solver; True stops it (the verdict is then unknown,
            reason ``"cancelled"``).
        progress: Passed to the solver: ``progress(explored, frontier)``.
        budget: The solver's work budget in state images (None: none); unlike the
            time limit, it gives the same verdict on a busy machine as on an idle one.

    Returns:
        The :class:`Verdict`.
    """
    t0 = time.monotonic()
    try:
        world = world_of(level)
    except ClosureTooLarge as error:
        return Verdict(None, too_large=str(error), elapsed=time.monotonic() - t0)
    closure = world.closure
    sizes = Verdict(
        formulas=len(world.vertices),
        deltas=len(world.deltas),
        nablas=len(world.nablas),
        intrinsic=len(world.intrinsic),
        left_out=len(closure.dropped_rotations | closure.dropped_conclusions),
        time_limit=time_limit,
        budget=budget,
    )
    why = _cannot_fit(level.target, len(world.vertices), len(world.deltas))
    if not why and initial_state(level).phase == "lost":
        why = "no edge can be constructed: every operator e_new may be is already in E_Ω"
    if why:
        return replace(sizes, status="unsolvable", why=why, elapsed=time.monotonic() - t0)
    result = solve(
        level,
        time_limit=time_limit,
        max_states=max_states,
        should_stop=should_stop,
        progress=progress,
        budget=budget,
    )
    return replace(
        sizes,
        status=result.status,
        steps=result.steps if result.status == "solved" else None,
        plan=result.plan,
        reason=result.reason,
        explored=result.explored,
        elapsed=time.monotonic() - t0,
    )
