"""Bounded breadth-first search shared by the puzzle solvers.

:func:`bfs` finds a shortest sequence of actions from a start state to a goal, within a
node limit and a time limit, and can be cancelled.  It knows nothing about any game: the
caller passes a successor function and a goal test.  Duplicate states are dropped through a
*visited* policy: by default a plain set of ``key(state)``; :class:`ParetoVisited` also drops
states *dominated* by one already seen (same position, no more resources), which is sound
for breadth-first search whenever more resources never hurt.

Outcomes: ``"solved"`` (with a shortest plan), ``"exhausted"`` (every reachable state was
explored: no plan exists), ``"limit"`` (a node/time limit was hit) or ``"cancelled"``
(``should_stop`` returned true).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from typing import Any, Generic, Optional, Protocol, TypeVar

__all__ = ["SearchResult", "Visited", "KeyVisited", "ParetoVisited", "bfs"]

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
    goal: Optional[Any]
    """The goal state reached."""
    explored: int
    """States expanded."""
    generated: int
    """States kept (start included)."""
    elapsed: float
    """Seconds spent."""


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
    visited: Optional[Visited] = None,
    max_states: int = 100_000,
    time_limit: Optional[float] = None,
    should_stop: Optional[Callable[[], bool]] = None,
    progress: Optional[Callable[[int, int], None]] = None,
    check_every: int = 64,
) -> SearchResult[S, A]:
    """Breadth-first search for a shortest plan.

    Args:
        start: The initial state.
        successors: ``state -> iterable of (action, next_state)``.
        is_goal: Goal test (checked when a state is generated, so the plan is shortest).
        visited: Duplicate policy (default: a set of the states themselves).
        max_states: Stop with ``"limit"`` after keeping this many states.
        time_limit: Stop with ``"limit"`` after this many seconds (None: no limit).
        should_stop: Polled every ``check_every`` expansions; True cancels.
        progress: Called as ``progress(explored, frontier_size)`` every ``check_every``
            expansions.
        check_every: How often to poll ``should_stop``/``progress`` and the clock.

    Returns:
        The :class:`SearchResult`.
    """
    t0 = time.monotonic()
    deadline = None if time_limit is None else t0 + time_limit
    seen = visited if visited is not None else KeyVisited()
    seen.add(start)

    def result(status: str, plan: tuple = (), goal: Any = None) -> SearchResult:
        return SearchResult(status, plan, goal, explored, generated, time.monotonic() - t0)

    explored = 0
    generated = 1
    if is_goal(start):
        return result("solved", (), start)
    # Parents are kept as (parent node, action) links: plans are rebuilt only once at the end.
    queue: deque[tuple[S, Optional[tuple]]] = deque([(start, None)])
    while queue:
        if explored % check_every == 0:
            if should_stop is not None and should_stop():
                return result("cancelled")
            if progress is not None:
                progress(explored, len(queue))
            if deadline is not None and time.monotonic() > deadline:
                return result("limit")
        state, link = queue.popleft()
        explored += 1
        for action, nxt in successors(state):
            if not seen.add(nxt):
                continue
            generated += 1
            node_link = (link, action)
            if is_goal(nxt):
                plan: list = []
                cur: Optional[tuple] = node_link
                while cur is not None:
                    plan.append(cur[1])
                    cur = cur[0]
                plan.reverse()
                return result("solved", tuple(plan), nxt)
            if generated >= max_states:
                return result("limit")
            queue.append((nxt, node_link))
    if progress is not None:
        progress(explored, 0)
    return result("exhausted")
