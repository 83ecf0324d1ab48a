"""Bounded breadth-first search shared by the puzzle solvers.

:func:`bfs` finds a shortest sequence of actions from a start state to a goal, within a
node limit and a time limit, and can be cancelled.  It knows nothing about any game: the
caller passes a successor function and a goal test.  Duplicate states are dropped through a
*visited* policy: by default a plain set of ``key(state)``; :class:`ParetoVisited` also drops
states *dominated* by one already seen (same position, no more resources), which is sound
for breadth-first search whenever more resources never hurt.

Outcomes: ``"solved"`` (with a shortest plan), ``"exhausted"`` (every reachable state was
explored: no plan exists), ``"limit"`` (a node, weight or time limit was hit) or
``"cancelled"`` (``should_stop`` returned true).

Long computations anywhere in ``core`` take a :class:`Watch`: the one object that carries a
deadline, a work budget, a cancel test and a progress callback.  The budget counts work in
the computation's own unit (states, nodes, moves, terms) through :meth:`Watch.spend`, so an
answer cut short by it is the same on an idle and on a busy machine, where a deadline is not.  Loops call :meth:`Watch.poll` every few
thousand steps; it raises :class:`Interrupted` when the time is up or the caller cancelled,
so a closure over a million terms stops within milliseconds instead of running to the end.
:func:`bfs` polls the same watch between *and inside* expansions (once per successor), so a
state with a huge number of successors cannot overrun the time limit either.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "NO_WATCH",
    "QUIET_GC_FROM",
    "Interrupted",
    "KeyVisited",
    "ParetoVisited",
    "SearchResult",
    "Visited",
    "Watch",
    "bfs",
    "quiet_gc",
]

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True)
class SearchResult(Generic[S, A]):
    """The outcome of a search.

    Attributes:
        status: ``"solved"``, ``"exhausted"``, ``"limit"`` or ``"cancelled"``.
        plan: The actions from the start to the goal (empty unless solved).
        goal: The goal state reached (None unless solved).
        explored: How many states were expanded.
        generated: How many states were kept (start included).
        elapsed: Seconds spent.
    """

    status: str
    """``"solved"``, ``"exhausted"``, ``"limit"`` or ``"cancelled"``."""
    plan: tuple
    """Shortest action sequence (empty unless solved)."""
    goal: Any | None
    """The goal state reached."""
    explored: int
    """States expanded."""
    generated: int
    """States kept (start included)."""
    elapsed: float
    """Seconds spent."""


class Interrupted(Exception):
    """A computation stopped by its :class:`Watch`.

    Attributes:
        reason: ``"limit"`` (the deadline passed), ``"budget"`` (the work budget is spent) or
            ``"cancelled"`` (``should_stop``).
    """

    def __init__(self, reason: str):
        super().__init__(f"interrupted ({reason})")
        self.reason = reason


class Watch:
    """Deadline, cancellation and progress for long computations (polled, never a thread).

    Args:
        time_limit: Seconds from now until :meth:`poll` raises ``Interrupted("limit")``
            (None: no limit).
        should_stop: Called by :meth:`poll`; returning True raises
            ``Interrupted("cancelled")``.  It must be cheap (e.g. ``event.is_set``).
        progress: Called as ``progress(stage, done, total)`` by :meth:`poll`, at most every
            ``interval`` seconds; ``stage`` names the current step (e.g. ``"closure"``),
            ``done``/``total`` count its work (``total`` 0 when unknown).
        interval: Minimum seconds between two progress calls.
        deadline: An absolute :func:`time.monotonic` deadline instead of ``time_limit``.
        budget: Work units :meth:`spend` may count before it raises ``Interrupted("budget")``
            (None: no budget).
    """

    __slots__ = (
        "_next_report",
        "budget",
        "deadline",
        "interval",
        "progress",
        "should_stop",
        "spent",
        "started",
    )

    def __init__(
        self,
        time_limit: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        progress: Callable[[str, int, int], None] | None = None,
        interval: float = 0.1,
        deadline: float | None = None,
        budget: int | None = None,
    ):
        self.started = time.monotonic()
        """When the watch was made (monotonic seconds)."""
        if deadline is None and time_limit is not None:
            deadline = self.started + time_limit
        self.deadline = deadline
        """Monotonic time after which :meth:`poll` raises (None: never)."""
        self.should_stop = should_stop
        """The cancel test, or None."""
        self.progress = progress
        """The progress callback, or None."""
        self.interval = interval
        """Minimum seconds between progress calls."""
        self._next_report = self.started + interval
        self.budget = budget
        """Work units the computation may spend (None: no budget)."""
        self.spent = 0
        """Work units spent so far."""

    def spend(self, units: int = 1) -> None:
        """Count ``units`` of work; stop the computation when the budget is spent.

        Args:
            units: Work done since the last call (states expanded, nodes visited ...).

        Raises:
            Interrupted: ``"budget"`` when more than :attr:`budget` units have been spent.
        """
        self.spent += units
        if self.budget is not None and self.spent > self.budget:
            raise Interrupted("budget")

    @property
    def budget_left(self) -> int | None:
        """Work units left (None: no budget)."""
        return None if self.budget is None else max(self.budget - self.spent, 0)

    def poll(self, stage: str = "", done: int = 0, total: int = 0) -> None:
        """Stop the computation if it is cancelled or out of time; report progress.

        Args:
            stage: What is being computed (shown by progress displays).
            done: Work done in this stage.
            total: Work in this stage (0 when unknown).

        Raises:
            Interrupted: ``"cancelled"`` when ``should_stop()`` is true, ``"limit"`` when the
                deadline has passed.
        """
        if self.should_stop is not None and self.should_stop():
            raise Interrupted("cancelled")
        if self.deadline is None and self.progress is None:
            return
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise Interrupted("limit")
        if self.progress is not None and now >= self._next_report:
            self._next_report = now + self.interval
            self.progress(stage, done, total)

    @property
    def elapsed(self) -> float:
        """Seconds since the watch was made."""
        return time.monotonic() - self.started


NO_WATCH = Watch()
"""A watch that never interrupts and reports nothing (the default everywhere)."""


QUIET_GC_FROM = 100_000
"""Work (e.g. terms) from which :func:`quiet_gc` pauses the collector: below it, the one
collection that follows a pause costs more than the pause saves."""


class quiet_gc:
    """Pause Python's cyclic garbage collector around a bulk computation of ``work`` items.

    Building a closure over a million terms allocates millions of lists and tuples that all
    survive; each allocation burst triggers collections that re-scan everything alive, which
    measured 35-45 % of the time of analysing a 10 MB level.  Reference counting still frees
    memory as usual; only cycle detection waits until the block ends.  Nested or concurrent
    uses are harmless (the collector comes back when the outermost user that paused it ends).
    Not for generators: code run between their yields would run without it.  (A class, not
    a generator-based context manager: it is entered once per rule on small terms too.)

    Even so, what the block built is scanned once or twice more as it ages through the
    collector's generations (2.5 s of a 12 s count of a 10 MB term on the command line).  A
    one-shot process sets :attr:`freeze_after`: a paused block then ends with
    ``gc.freeze()``, which moves everything alive to the permanent generation, never scanned
    again (terms, tuples and closure arrays hold no cycles; reference counting still frees
    them).  A long-lived process (the app, the server) leaves it off, because freezing would
    also keep alive forever any reference cycle that exists at that moment.

    Args:
        work: The size of the computation (terms, candidates ...); small ones are not paused.
    """

    __slots__ = ("_paused",)

    freeze_after = False
    """Whether paused blocks end with ``gc.freeze()`` (set by the one-shot command line)."""

    def __init__(self, work: int = QUIET_GC_FROM):
        self._paused = work >= QUIET_GC_FROM

    def __enter__(self) -> None:
        self._paused = self._paused and gc.isenabled()
        if self._paused:
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._paused:
            if quiet_gc.freeze_after:
                gc.freeze()
            gc.enable()


class Visited(Protocol):
    """Policy deciding whether a newly generated state is worth keeping."""

    def add(self, state: Any) -> bool:
        """Record ``state``; return False when it (or something at least as good) was seen."""
        ...


class KeyVisited:
    """Keep a state unless a state with the same ``key`` was seen.

    Args:
        key: Hashable identity of a state (default: the state itself).
    """

    def __init__(self, key: Callable[[Any], Hashable] = lambda s: s):
        self._key = key
        self._seen: set = set()

    def add(self, state: Any) -> bool:
        k = self._key(state)
        if k in self._seen:
            return False
        self._seen.add(k)
        return True


class ParetoVisited:
    """Keep a state unless one with the same ``group`` and resources >= its own was seen.

    Args:
        group: The resource-free part of a state (e.g. the term).
        resources: A tuple of numbers where larger is better (e.g. (fuel, budget)).
    """

    def __init__(self, group: Callable[[Any], Hashable], resources: Callable[[Any], tuple]):
        self._group = group
        self._resources = resources
        self._front: dict[Hashable, list[tuple]] = {}

    def add(self, state: Any) -> bool:
        g = self._group(state)
        r = self._resources(state)
        front = self._front.get(g)
        if front is None:
            self._front[g] = [r]
            return True
        for other in front:
            if all(o >= x for o, x in zip(other, r)):
                return False
        # Drop entries the new one dominates so the frontier stays small.
        front[:] = [o for o in front if not all(x >= y for x, y in zip(r, o))]
        front.append(r)
        return True


def bfs(
    start: S,
    successors: Callable[[S], Iterable[tuple[A, S]]],
    is_goal: Callable[[S], bool],
    *,
    visited: Visited | None = None,
    max_states: int = 100_000,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    check_every: int = 64,
    watch: Watch | None = None,
    weight: Callable[[A, S], int] | None = None,
    max_weight: int | None = None,
) -> SearchResult[S, A]:
    """Breadth-first search for a shortest plan.

    Args:
        start: The initial state.
        successors: ``state -> iterable of (action, next_state)``; it may be lazy, and may
            raise :class:`Interrupted` (e.g. from polling ``watch`` itself).
        is_goal: Goal test (checked when a state is generated, so the plan is shortest).
        visited: Duplicate policy (default: a set of the states themselves).
        max_states: Stop with ``"limit"`` after keeping this many states.
        time_limit: Stop with ``"limit"`` after this many seconds (None: no limit); ignored
            when ``watch`` is given (the watch's deadline counts).
        should_stop: Polled regularly; True cancels (ignored when ``watch`` is given).
        progress: Called as ``progress(explored, frontier_size)`` every ``check_every``
            expansions.
        check_every: How often to call ``progress``.
        watch: Deadline and cancellation, polled before every expansion and for every
            successor (so one huge expansion cannot overrun them).
        weight: ``weight(action, next_state)``: what keeping a state costs, e.g. its new
            memory in bytes.
        max_weight: Stop with ``"limit"`` once the kept states weigh more than this.

    Returns:
        The :class:`SearchResult`.
    """
    if watch is None:
        watch = (
            Watch(time_limit, should_stop) if time_limit is not None or should_stop else NO_WATCH
        )
    t0 = time.monotonic()
    seen = visited if visited is not None else KeyVisited()
    seen.add(start)
    explored = 0
    generated = 1

    def result(status: str, plan: tuple = (), goal: Any = None) -> SearchResult:
        return SearchResult(status, plan, goal, explored, generated, time.monotonic() - t0)

    if is_goal(start):
        return result("solved", (), start)
    total_weight = 0
    # Parents are kept as (parent node, action) links: plans are rebuilt only once at the end.
    queue: deque[tuple[S, tuple | None]] = deque([(start, None)])
    try:
        while queue:
            watch.poll("search", explored, 0)
            if progress is not None and explored % check_every == 0:
                progress(explored, len(queue))
            state, link = queue.popleft()
            explored += 1
            for action, nxt in successors(state):
                watch.poll("search", explored, 0)
                if not seen.add(nxt):
                    continue
                generated += 1
                node_link = (link, action)
                if is_goal(nxt):
                    return result("solved", _plan(node_link), nxt)
                if generated >= max_states:
                    return result("limit")
                if weight is not None:
                    total_weight += weight(action, nxt)
                    if max_weight is not None and total_weight > max_weight:
                        return result("limit")
                queue.append((nxt, node_link))
    except Interrupted as stop:
        return result(stop.reason)
    if progress is not None:
        progress(explored, 0)
    return result("exhausted")


def _plan(link: tuple | None) -> tuple:
    """The actions along a chain of ``(parent link, action)`` links, first action first."""
    plan: list = []
    while link is not None:
        plan.append(link[1])
        link = link[0]
    plan.reverse()
    return tuple(plan)
