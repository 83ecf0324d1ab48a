"""Level solver: shortest plans by bounded breadth-first search over (term, fuel, budget).

Moves searched:

* every rewrite action (:func:`~core.termcraft.engine.rewrite_actions`), 1 fuel each;
* every construct the budget allows: each ground term over the level's alphabet (its
  constants and function symbols, see :mod:`.constructs`) whose Size fits the remaining
  budget, at every placeholder site, made lazily by Size.  :mod:`.constructs` shows that no
  plan needs a symbol outside the alphabet, so the search is **complete** for the fuel and
  budget: ``"unsolvable"`` is a proof (the whole space was searched), ``"solved"`` plans are
  real, legal, shortest plans, and anything else is ``"unknown"`` with the reason.

Every move spends fuel or budget, so the state space is finite and the search always ends;
limits make it end sooner with ``"unknown"``: a number of states, an estimate of the memory
the kept states take (a successor of a wide or deep term costs more than one of a small
term: see :func:`state_bytes`), and a time limit that holds whatever the state's shape (the
clock is checked while a state is analysed and between its successors, which are produced
lazily), and a **work budget** counted in term nodes: expanding a state spends its term's
Size (the analysis of a state is linear in it), each successor the nodes it rebuilds (its
site's depth, plus one), and each construct term made one node, so a run cut short by the
budget gives the same answer on an idle and on a busy machine (issue 28).  A state is dropped
when the same term was already reached with at least as much fuel and budget (more
resources never hurt, so plans stay shortest).  The one level shape the completeness
argument does not cover (a compound named ``var`` of one argument in the level) turns a
searched-out space into ``"unknown"``, why ``"search space restricted to ..."``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache

from core.search import NO_WATCH, ParetoVisited, Watch, bfs
from core.termcraft.closure import ground_subterms
from core.termcraft.terms import Term, to_str

from .constructs import Constructible
from .engine import apply, iter_rewrite_actions, next_state, placeholder_sites
from .level import Level
from .state import Action, ConstructAction, RewriteAction, State

__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_MAX_MEMORY",
    "DEFAULT_MAX_STATES",
    "DEFAULT_TIME_LIMIT",
    "SolveResult",
    "construct_candidates",
    "replay",
    "solve",
    "state_bytes",
    "successors",
]

DEFAULT_MAX_STATES = 200_000
"""Default bound on the number of states the solver keeps."""
DEFAULT_TIME_LIMIT = 10.0
"""Default bound on the solver's running time, in seconds."""
DEFAULT_MAX_MEMORY = 256 * 1024 * 1024
"""Default bound on the estimated memory of the kept states, in bytes (see state_bytes)."""

DEFAULT_BUDGET = 5_000_000
"""Default work budget, in term nodes (the Size of every state expanded, and the path length
plus one of every successor made).  Measured on a shared 2-core machine: the bundled levels
spend at most 19,907; a search spends 80,000 to 150,000 nodes a second, so the default time
limit (10 s), not the budget, still ends a long search on an idle machine, as before."""

WHY = {
    "limit": "time limit",
    "budget": "work budget",
    "cancelled": "cancelled",
    "states": "state limit",
    "memory": "memory limit",
    "restricted": "search space restricted to ",
}
"""What :attr:`SolveResult.why` says for each :attr:`SolveResult.reason`."""

NODE_BYTES = 200
"""Estimated bytes of one new hash-consed term node (object, intern-table entry, key)."""
SLOT_BYTES = 8
"""Bytes of one child slot of a new node."""
STATE_BYTES = 400
"""Estimated bytes of the bookkeeping for one kept state (state, queue and visited entries)."""


@dataclass(frozen=True)
class SolveResult:
    """What the solver found.

    Attributes:
        status: ``"solved"`` (``plan`` is a shortest plan), ``"unsolvable"`` (proved: every
            move the fuel and budget allow was searched) or ``"unknown"`` (a limit was hit,
            the search was cancelled, or the space searched was restricted).
        plan: The actions of a shortest plan (empty unless solved, or already won).
        explored: How many states were expanded.
        reason: ``"limit"`` (time, states or memory), ``"budget"``, ``"cancelled"`` or
            ``"restricted"`` when unknown, else ``""``.
        elapsed: Seconds spent.
        why: Which bound ended an unknown search, for a person: ``"time limit"``,
            ``"work budget"``, ``"state limit"``, ``"memory limit"``, ``"cancelled"`` or
            ``"search space restricted to ..."``.
        spent: Work spent, in term nodes (see :data:`DEFAULT_BUDGET`).
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    plan: tuple[Action, ...]
    """A shortest plan (empty unless solved)."""
    explored: int
    """States expanded."""
    reason: str = ""
    """Why unknown: ``"limit"``, ``"budget"``, ``"cancelled"`` or ``"restricted"``."""
    elapsed: float = 0.0
    """Seconds spent."""
    why: str = ""
    """Which bound ended an unknown search (``"time limit"``, ``"work budget"`` ...)."""
    spent: int = 0
    """Work spent, in term nodes."""


def construct_candidates(target: Term, budget: int) -> tuple[Term, ...]:
    """A sample of constructs for people (the game's move list): ground subterms of
    ``target`` with Size <= ``budget``, smallest first.  The solver tries every term over the
    level's alphabet instead (:mod:`.constructs`).

    Args:
        target: The target term.
        budget: The remaining budget.

    Returns:
        Candidate terms.
    """
    return tuple(t for t in _target_subterms(target) if t.size <= budget)


@lru_cache(maxsize=8)
def _target_subterms(target: Term) -> tuple[Term, ...]:
    found = ground_subterms([target])
    found.sort(key=lambda t: (t.size, to_str(t)))  # deterministic across runs
    return tuple(found)


def successors(
    state: State, watch: Watch = NO_WATCH, constructs: Constructible | None = None
) -> Iterator[tuple[Action, State]]:
    """Every move the solver considers from ``state`` with the state it leads to, lazily.

    Args:
        state: A game state.
        watch: Polled while the state is analysed and between its actions.
        constructs: The terms constructs may use (default: every term over the alphabet of
            ``state``'s term and target; a search passes one shared by all its states).

    Yields:
        ``(action, next_state)`` pairs: rewrites first, then constructs, smaller terms first.
    """
    # Each state is expanded once: its analysis is not worth caching.  Its analysis is linear
    # in its Size: that is the work the budget counts.
    if watch is not NO_WATCH:  # the shared do-nothing watch counts nothing
        watch.spend(state.term.size)  # (a state with millions of successors spends each)
    counting = watch is not NO_WATCH
    for action in iter_rewrite_actions(state, watch=watch, cache=False):
        if counting:  # a successor rebuilds the nodes on its site's path
            watch.spend(1 + len(action.site))
        yield action, next_state(state, action)
    if state.budget <= 0:
        return
    sites = placeholder_sites(state.term)
    if not sites:
        return
    if constructs is None:
        constructs = Constructible((state.term, state.target))
    for new in constructs.up_to(state.budget, watch):
        for site in sites:
            construct = ConstructAction(site, new)
            if counting:
                watch.spend(1 + len(site))
            yield construct, next_state(state, construct)


def state_bytes(action: Action, state: State) -> int:
    """Estimated memory a kept successor costs: its new nodes and its bookkeeping.

    A move rebuilds the nodes on the path to its site (each with all its child slots: a
    successor of a 20,000-wide root costs 160 kB) and adds the nodes of what it puts there
    (at most its Size; shared ones are counted anyway).

    Args:
        action: The move that led to ``state``.
        state: The successor.

    Returns:
        Bytes, roughly.
    """
    new = action.replacement if isinstance(action, RewriteAction) else action.term
    total = STATE_BYTES + NODE_BYTES * new.size
    t = state.term
    for i in action.site:
        total += NODE_BYTES + SLOT_BYTES * len(t.args)
        t = t.args[i]
    return total


def solve(
    level_or_state: Level | State,
    max_states: int = DEFAULT_MAX_STATES,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    max_memory: int | None = DEFAULT_MAX_MEMORY,
    watch: Watch | None = None,
    budget: int | None = DEFAULT_BUDGET,
    deadline: float | None = None,
) -> SolveResult:
    """Find a shortest plan (fewest moves) from a level's start or from a state.

    Constructs range over every ground term of the level's alphabet that fits the budget
    (see the module docstring), so ``"unsolvable"`` is a proof.  The time limit and
    cancellation are honoured within milliseconds whatever the states look like.

    Args:
        level_or_state: A level (its initial state is used) or a state.
        max_states: Give up with ``"unknown"`` after keeping this many states.
        time_limit: Give up with ``"unknown"`` after this many seconds (None: no limit).
        should_stop: Polled very often (keep it cheap); returning True cancels (status
            ``"unknown"``, reason ``"cancelled"``).
        progress: Called as ``progress(explored, frontier_size)`` now and then.
        max_memory: Give up with ``"unknown"`` once the kept states are estimated to take
            more than this many bytes (:func:`state_bytes`; None: no limit).
        watch: Use this watch (its deadline, budget, cancel test and stage progress) instead
            of ``time_limit``, ``deadline``, ``budget`` and ``should_stop``.
        budget: Give up with ``"unknown"`` (reason ``"budget"``) once the expanded states'
            Sizes add up to more than this many term nodes (None or 0: no budget).
        deadline: An absolute :func:`time.monotonic` deadline instead of ``time_limit``
            (a command's limit counts from its start, loading included).

    Returns:
        The :class:`SolveResult`.
    """
    start = (
        State.from_level(level_or_state) if isinstance(level_or_state, Level) else level_or_state
    )
    target = start.target
    if watch is None:
        watch = Watch(time_limit, should_stop, deadline=deadline, budget=budget or None)
    # read the alphabet when the first construct is tried (the search pays for it then)
    constructs = Constructible((start.term, target))
    found = bfs(
        start,
        lambda s: successors(s, watch, constructs),
        lambda s: s.term is target,
        visited=ParetoVisited(lambda s: s.term, lambda s: (s.fuel, s.budget)),
        max_states=max_states,
        progress=progress,
        watch=watch,
        weight=state_bytes,
        max_weight=max_memory,
    )
    if found.status == "solved":
        return SolveResult("solved", found.plan, found.explored, "", found.elapsed, "", watch.spent)
    if found.status == "exhausted":
        restriction = constructs.alphabet().restriction
        return _searched_out(start, restriction, found.explored, found.elapsed, watch)
    why = _why(found.status, found.generated, max_states, watch)
    return SolveResult("unknown", (), found.explored, found.status, found.elapsed, why, watch.spent)


def _searched_out(
    start: State, restriction: str, explored: int, elapsed: float, watch: Watch
) -> SolveResult:
    """The verdict when every state was searched: a proof, unless constructs were possible
    and the alphabet's restriction (see :mod:`.constructs`) may have hidden a plan."""
    if restriction and start.budget > 0:
        why = WHY["restricted"] + restriction
        return SolveResult("unknown", (), explored, "restricted", elapsed, why, watch.spent)
    return SolveResult("unsolvable", (), explored, "", elapsed, "", watch.spent)


def _why(status: str, generated: int, max_states: int, watch: Watch) -> str:
    """Which bound ended a search (bfs says ``"limit"`` for time, states and memory alike)."""
    if status != "limit":
        return WHY.get(status, status)
    if generated >= max_states:
        return WHY["states"]
    if watch.deadline is not None and time.monotonic() > watch.deadline:
        return WHY["limit"]
    return WHY["memory"]


def replay(level_or_state: Level | State, plan: tuple[Action, ...]) -> tuple[State, ...]:
    """Play ``plan`` with full legality checks.

    Args:
        level_or_state: Where to start.
        plan: The actions.

    Returns:
        Every state from the start to the end (``len(plan) + 1`` states).

    Raises:
        IllegalMove: When an action is not legal where it is played.
    """
    state = (
        State.from_level(level_or_state) if isinstance(level_or_state, Level) else level_or_state
    )
    states = [state]
    for action in plan:
        state = apply(state, action)
        states.append(state)
    return tuple(states)
