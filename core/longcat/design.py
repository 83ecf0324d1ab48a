"""What the level designer's bench says about a Longcat level (the live verdict's content).

:func:`assess` answers, within a bound on states and time, every question the level editor
shows while the designer paints: is the level solvable, how many solutions it has (both
counts: the seed's *success states* and the winning *move sequences*), the state graph's
size, its state classes and every metric of :mod:`core.longcat.graph`, the predicted
difficulty and its band (:mod:`core.longcat.difficulty`), whether the solution is unique,
and one shortest solution (to show it and to set the par).

"Unique solution" follows seed 003's definition of the number of solutions, the number of
success states ("成功状态的数量"): a level has a unique solution when exactly one won position
can be reached (in Longcat: one final head cell), however many move sequences reach it.
:attr:`Assessment.unique_paths` answers the stricter question (one winning move sequence).

When the full state graph is larger than the bound, the pruned solver
(:func:`core.longcat.solver.shortest_solution`, far fewer positions) still answers
solvable / unsolvable and the shortest solution, and the metrics are reported as unknown.
When that is out of bounds too, the answer is "unknown within the limit", and
:attr:`Assessment.why` says which bound was hit: ``"state limit"``, ``"work budget"`` (a
``budget`` of states counted over both searches, the same on every machine) or ``"time
limit"``. Pure: no I/O.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from core.longcat.difficulty import band, level_difficulty
from core.longcat.graph import WHY, Analysis, AnalysisLimit, Metrics, analyse
from core.longcat.level import MAX_SIZE, Level
from core.longcat.solver import shortest_solution
from core.search import Watch

__all__ = [
    "DESIGN_STATES",
    "DESIGN_TIME",
    "EDITS",
    "Assessment",
    "Cancelled",
    "assess",
    "edit_grid",
]

DESIGN_STATES = 200_000
"""Largest state graph the bench analyses in full (about a second in pure Python)."""

DESIGN_TIME = 3.0
"""Seconds the bench's analysis may take before it says "unknown within the limit"."""


class Cancelled(Exception):
    """The caller asked :func:`assess` to stop (the level changed meanwhile)."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """The bench's verdict on one level.

    Attributes:
        level: The level assessed.
        status: ``"solvable"``, ``"unsolvable"`` or ``"unknown"`` (the limit was reached
            before an answer).
        solution: One shortest solution (moves), when solvable; ``()`` for a level won at
            the start; None when unknown or unsolvable.
        metrics: Every metric of the full state graph; None when the graph exceeded the
            limit.
        classes: States per display class (``start`` first, see
            :data:`core.longcat.graph.CLASSES`), summing to ``metrics.states``; None with
            the metrics.
        difficulty: The level's one difficulty
            (:func:`core.longcat.difficulty.level_difficulty`: the default predictor, never
            below 0), the figure its title, the game and the CLI show; None without metrics
            or when unsolvable.
        limit: ``(max_states, seconds)``: the bound the assessment ran under.
        analysis: The full analysis (for what the metrics do not hold, such as the
            solution's letters or expected moves); None with the metrics.
        why: Which bound stopped the full state graph, or the whole verdict when
            ``status`` is ``"unknown"``: ``"state limit"``, ``"work budget"`` or ``"time
            limit"``; ``""`` when nothing did.
    """

    level: Level
    """The level assessed."""
    status: str
    """``"solvable"``, ``"unsolvable"`` or ``"unknown"``."""
    solution: tuple[str, ...] | None
    """One shortest solution, when solvable."""
    metrics: Metrics | None
    """The metrics of the full state graph (None: beyond the limit)."""
    classes: dict[str, int] | None
    """States per display class (None with the metrics)."""
    difficulty: float | None
    """Predicted difficulty (None: unknown or unsolvable)."""
    limit: tuple[int, float]
    """``(max_states, seconds)`` of the bound."""
    analysis: Analysis | None = field(default=None, compare=False, repr=False)
    """The full state graph's analysis the verdict came from (None: beyond the limit)."""
    why: str = ""
    """Which bound was hit (``""``: none)."""

    @property
    def solvable(self) -> bool | None:
        """True, False, or None when unknown within the limit."""
        return None if self.status == "unknown" else self.status == "solvable"

    @property
    def shortest(self) -> int | None:
        """Moves of the shortest solution (None: unsolvable or unknown)."""
        return None if self.solution is None else len(self.solution)

    @property
    def band(self) -> str | None:
        """The difficulty band's name (``"easy"``...), or None."""
        return None if self.difficulty is None else band(self.difficulty)

    @property
    def unique(self) -> bool | None:
        """Exactly one success state (the seed's number of solutions is 1); None when the
        counts are unknown. False for an unsolvable level."""
        return None if self.metrics is None else self.metrics.success_states == 1

    @property
    def unique_paths(self) -> bool | None:
        """Exactly one winning move sequence; None when the counts are unknown."""
        return None if self.metrics is None else self.metrics.solution_paths == 1

    @property
    def par_matches(self) -> bool | None:
        """Whether the level's par equals the shortest solution (None: no par or unknown)."""
        if self.level.par is None or self.shortest is None:
            return None
        return self.level.par == self.shortest


def assess(
    level: Level,
    *,
    max_states: int = DESIGN_STATES,
    time_limit: float = DESIGN_TIME,
    should_stop: Callable[[], bool] | None = None,
    budget: int | None = None,
    deadline: float | None = None,
) -> Assessment:
    """The bench's verdict on ``level``, within ``max_states`` states and ``time_limit``.

    Args:
        level: The level.
        max_states: Largest full state graph analysed; also the pruned solver's bound.
        time_limit: Seconds for the whole assessment.
        should_stop: Polled regularly; True raises :class:`Cancelled`.
        budget: States both searches may expand together (None: no budget): the state graph's
            nodes, then the pruned solver's positions.
        deadline: A ``time.monotonic()`` time to stop at instead of ``time_limit`` from
            now (a command's limit counted from its start).

    Returns:
        The :class:`Assessment`.

    Raises:
        Cancelled: ``should_stop`` turned True.
    """
    if deadline is None:
        deadline = time.monotonic() + time_limit
    watch = Watch(deadline=deadline, budget=budget)

    def stop() -> bool:
        if should_stop is not None and should_stop():
            raise Cancelled
        return time.monotonic() > deadline

    limit = (max_states, time_limit)
    try:
        analysis = analyse(level, max_states=max_states, should_stop=stop, watch=watch)
    except AnalysisLimit as stopped:
        # Too large (or too slow): the pruned solver may still answer.
        why = stopped.why if stopped.reason != "cancelled" else WHY["time"]
    else:
        metrics = analysis.metrics
        solvable = metrics.success_states > 0
        return Assessment(
            level,
            "solvable" if solvable else "unsolvable",
            analysis.solution if solvable else None,
            metrics,
            analysis.class_counts(),
            level_difficulty(metrics),
            limit,
            analysis,
        )
    left = deadline - time.monotonic()
    if left <= 0 or watch.budget_left == 0:
        return Assessment(level, "unknown", None, None, None, None, limit, None, why)
    found = shortest_solution(level, max_states=max_states, should_stop=stop, watch=watch)
    if found.status == "solved":
        return Assessment(level, "solvable", found.moves, None, None, None, limit, None, why)
    if found.status == "unsolvable":
        return Assessment(level, "unsolvable", None, None, None, None, limit, None, why)
    why = {"budget": WHY["budget"], "cancelled": WHY["time"]}.get(found.reason, why)
    if found.reason == "limit" and time.monotonic() > deadline:
        why = WHY["time"]
    return Assessment(level, "unknown", None, None, None, None, limit, None, why)


EDITS: tuple[str, ...] = (
    "toggle",
    "wall",
    "empty",
    "start",
    "wider",
    "narrower",
    "taller",
    "shorter",
    "all_walls",
    "all_empty",
)
"""The level editor's grid edits (:func:`edit_grid`)."""


def edit_grid(level: Level, name: str, cell: tuple[int, int]) -> Level:
    """One edit of a level's grid, as the level editor paints it.

    Args:
        level: The level (title, par and the other fields are kept).
        name: One of :data:`EDITS`: ``toggle`` a wall, make the cell a ``wall`` or ``empty``,
            put the ``start`` there, add or remove the last column (``wider``/``narrower``) or
            row (``taller``/``shorter``; new cells are walls, which the edge counts as
            anyway), or make every other cell a wall or empty (``all_walls``/``all_empty``).
        cell: ``(x, y)`` of the painted cell.

    Returns:
        The edited level (equal to ``level`` when the edit changes nothing).

    Raises:
        ValueError: Why the edit is refused, in words for the designer.
    """
    rows = [list(row) for row in level.rows()]
    x, y = cell
    if name in ("toggle", "wall", "empty"):
        wall = rows[y][x] == "#"
        if rows[y][x] == "@":
            raise ValueError("The start cannot be a wall: put the start elsewhere first (s).")
        if name == "toggle" or (name == "wall") != wall:
            rows[y][x] = "." if wall else "#"
    elif name == "start":
        sx, sy = level.start
        rows[sy][sx] = "."
        rows[y][x] = "@"
    elif name in ("all_walls", "all_empty"):
        fill = "#" if name == "all_walls" else "."
        rows = [[fill if ch != "@" else ch for ch in row] for row in rows]
    elif name == "wider":
        if level.width >= MAX_SIZE:
            raise ValueError(f"A Longcat grid has at most {MAX_SIZE} columns.")
        for row in rows:
            row.append("#")
    elif name == "narrower":
        if level.width == 1:
            raise ValueError("The grid needs at least one column.")
        if level.start[0] == level.width - 1:
            raise ValueError("The start is in the last column: move it first (s).")
        for row in rows:
            row.pop()
    elif name == "taller":
        if level.height >= MAX_SIZE:
            raise ValueError(f"A Longcat grid has at most {MAX_SIZE} rows.")
        rows.append(["#"] * level.width)
    elif name == "shorter":
        if level.height == 1:
            raise ValueError("The grid needs at least one row.")
        if level.start[1] == level.height - 1:
            raise ValueError("The start is in the last row: move it first (s).")
        rows.pop()
    else:
        raise ValueError(f"unknown edit {name!r}")
    return Level.from_rows(
        ["".join(row) for row in rows],
        title=level.title,
        description=level.description,
        hint=level.hint,
        author=level.author,
        par=level.par,
    )
