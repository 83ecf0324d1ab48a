"""The shortest solution of a puzzle: the fewest moves that strike every target (par).

A solution's moves are its card plays plus one strike per target, so the shortest solution
is the one playing the fewest cards. The solver's tables (:mod:`.solver`) hold, for every
set of pool values and every multiset of cards, the values reachable with *exactly* those
cards; so the fewest cards for a target assignment is a minimum over disjoint table entries,
found here by a depth-first branch and bound over the targets (at most
:data:`~core.algebrawl.puzzle.MAX_TARGETS` deep), cheapest candidates first.

The answer is exact when the tables were built completely; hitting a limit gives
``"unknown"``, and ``reason`` says which (``"work budget"``: ``max_entries`` or ``budget``, the
solver's units; ``"time limit"``; ``"cancelled"``). A hand holding a card that acts on monsters (``poison_wizard``, ``traitor``)
is outside these tables: its par comes from a breadth-first search over the game's own
moves (positions with the same future visited once, :func:`.solver._state_key`), which
proves it the same way: the first win found is the shortest, and a search that runs out of
positions proves the hand unsolvable.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from core.search import KeyVisited, Watch, bfs

from .ast import Ast
from .normal import DEFAULT_EQUIVALENCE
from .play import (
    Move,
    State,
    Strike,
    apply_move,
    initial_state,
    legal_moves,
    monster_values,
    status,
)
from .puzzle import Puzzle
from .solver import REASONS, _Limit, _state_key, _Tables, solution_moves, solve_state

__all__ = ["Line", "Shortest", "shortest", "shortest_state", "winning_line"]


@dataclass(frozen=True)
class Shortest:
    """The outcome of :func:`shortest_state`.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (a limit was hit).
        moves: The fewest moves (card plays + strikes) that win, when solved.
        cards: How many cards that solution plays.
        strikes: That solution: ``(target index, tree)`` per standing target.
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    moves: int | None = None
    """The fewest moves, when solved."""
    cards: int | None = None
    """Cards played by that solution."""
    strikes: tuple[tuple[int, Ast], ...] = ()
    """One shortest solution."""
    reason: str = ""
    """Which bound made it ``"unknown"`` (``"work budget"``, ``"time limit"``,
    ``"cancelled"``), or ``""``."""
    plan: tuple[Move, ...] = ()
    """The shortest solution's moves, for hands holding a card cast on the monsters (whose
    ``strikes`` index :func:`.play.monster_values` at the end); empty otherwise (use
    :func:`.solver.solution_moves`)."""


def _card_count(used: int, tables: _Tables) -> int:
    """How many cards the packed count ``used`` holds (digits in radix ``2 c + 1``)."""
    total = 0
    for radix, count in zip(tables.radix, tables.counts):
        total += (used // radix) % (2 * count + 1)
    return total


def shortest_state(
    state: State,
    *,
    max_entries: int = 300_000,
    time_limit: float | None = 10.0,
    should_stop: Callable[[], bool] | None = None,
    budget: int | None = None,
    watch: Watch | None = None,
) -> Shortest:
    """The fewest moves that win from ``state``.

    Args:
        state: The position.
        max_entries: Most values stored before giving up (``"unknown"``).
        time_limit: Seconds before giving up (``"unknown"``; None: no time limit).
        should_stop: Called now and then; returning True cancels (``"unknown"``).
        budget: Work units (the solver's: candidate values computed) before giving up.
        watch: The bounds as one watch, instead of ``time_limit``, ``should_stop`` and
            ``budget``.

    Returns:
        A :class:`Shortest`.
    """
    puzzle = state.puzzle
    if not state.standing and not (puzzle.use_all and state.pool):
        return Shortest("solved", 0, 0)
    if not state.standing:
        return Shortest("unsolvable")  # every target struck, values left in a use_all game
    if watch is None:
        watch = Watch(time_limit, should_stop, budget=budget)
    if any(puzzle.cards[c].effect for c in state.hand):
        line = _shortest_with_casts(state, watch, max_entries)  # outside the tables
        if line.status != "solved":
            return Shortest(line.status, reason=line.reason)
        plays = sum(1 for m in line.moves if not isinstance(m, Strike))
        return Shortest("solved", len(line.moves), plays, line.strikes, plan=line.moves)
    tables = _Tables(state, False, DEFAULT_EQUIVALENCE, max_entries, 0.0, None, watch)
    monsters = monster_values(state)
    targets = [(t, monsters[t]) for t in state.standing]
    full = (1 << len(state.pool)) - 1 if puzzle.use_all else None
    arity = max((c.arity for c in tables.types), default=1)
    found: list = [None]  # (cards, chosen) of the best assignment so far

    def on_level(k: int) -> bool:
        # Once every target has a candidate, search the entries built so far. A cheaper
        # solution than the best one (C cards) uses entries of at most C - 1 cards, whose
        # size (values + cards) is at most (C - 1) * arity + 1: when every entry of that
        # size exists, the best assignment is final and the remaining levels are skipped.
        if not all(any(v in tbl for tbl in tables.entries.values()) for _, v in targets):
            return False
        found[0] = _cheapest(tables, targets, full) or found[0]
        return found[0] is not None and k >= (found[0][0] - 1) * arity + 1

    try:
        tables.build(on_level)
    except _Limit as stop:
        return Shortest("unknown", reason=stop.reason)
    if found[0] is None:
        return Shortest("unsolvable")
    cards, chosen = found[0]
    strikes = tuple(
        sorted(((t, tables.tree(key, value)) for t, value, key in chosen), key=lambda p: p[0])
    )
    return Shortest("solved", cards + len(targets), cards, strikes)


def _cheapest(tables: _Tables, targets: list, full: int | None) -> tuple | None:
    """The assignment of disjoint entries to targets with the fewest cards, or None."""
    candidates = []
    for t, value in targets:
        keys = sorted(
            (_card_count(key[1], tables), key)
            for key, table in tables.entries.items()
            if value in table
        )
        if not keys:
            return None
        candidates.append((t, value, keys))
    candidates.sort(key=lambda c: len(c[2]))
    cheapest = [c[2][0][0] for c in candidates]
    rest_min = [sum(cheapest[i:]) for i in range(len(cheapest) + 1)]
    best: list = [None, None]  # [cost, chosen]
    # Iterative depth-first branch and bound (a stack of (depth, mask, used, cost, chosen)).
    stack: list[tuple[int, int, int, int, tuple]] = [(0, 0, 0, 0, ())]
    while stack:
        depth, mask, used, cost, chosen = stack.pop()
        if best[0] is not None and cost + rest_min[depth] >= best[0]:
            continue
        if depth == len(candidates):
            if full is None or mask == full:
                best[0], best[1] = cost, chosen
            continue
        t, value, keys = candidates[depth]
        later = []
        for count, key in keys:
            if best[0] is not None and cost + count + rest_min[depth + 1] >= best[0]:
                break  # keys are sorted by cost: no cheaper one follows
            if key[0] & mask or used + key[1] not in tables.valid:
                continue
            later.append(
                (depth + 1, mask | key[0], used + key[1], cost + count, chosen + ((t, value, key),))
            )
        stack.extend(reversed(later))  # cheapest explored first
    return None if best[0] is None else (best[0], best[1])


def shortest(puzzle: Puzzle, **options) -> Shortest:
    """The fewest moves that win ``puzzle`` from its start (options as
    :func:`shortest_state`)."""
    return shortest_state(initial_state(puzzle), **options)


@dataclass(frozen=True)
class Line:
    """The outcome of :func:`winning_line`.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (a limit was hit).
        moves: The moves that win from the position (empty unless solved).
        shortest: Whether ``moves`` are the fewest (False when any win had to do).
        strikes: ``(target index, tree)`` of each strike those moves make, in order.
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    moves: tuple[Move, ...] = ()
    """The winning moves."""
    shortest: bool = False
    """Whether they are the fewest."""
    strikes: tuple[tuple[int, Ast], ...] = ()
    """The strikes they make."""
    reason: str = ""
    """Which bound made it ``"unknown"``, or stopped the search for the shortest (then
    ``shortest`` is False): ``"work budget"``, ``"time limit"``, ``"cancelled"``; or ``""``."""


def winning_line(
    state: State,
    *,
    time_limit: float | None = 10.0,
    max_entries: int = 300_000,
    should_stop: Callable[[], bool] | None = None,
    budget: int | None = None,
    deadline: float | None = None,
) -> Line:
    """The shortest win from ``state`` when one is found in time, else any win.

    The solver's tables do not model cards cast on the monsters: a hand holding one is
    searched over the game's own moves, breadth first (positions with the same future are
    visited once), which gives the shortest win too. Otherwise the tables give the shortest
    win; when they give up (a limit), the solver's search may still find a win in the time
    left: that win, not marked shortest.

    Args:
        state: The position.
        time_limit: Seconds for all of it (None: no clock, the budget alone bounds it).
        max_entries: Most values the tables hold (positions, for the breadth-first search).
        should_stop: Called now and then; returning True cancels (``"unknown"``).
        budget: Work units for all of it (the solver's units; moves tried by the
            breadth-first search), None for no budget.
        deadline: An absolute :func:`time.monotonic` deadline instead of ``time_limit``.

    Returns:
        A :class:`Line`.
    """
    if deadline is None and time_limit is not None:
        deadline = time.monotonic() + time_limit
    watch = Watch(should_stop=should_stop, deadline=deadline, budget=budget)
    if any(state.puzzle.cards[c].effect for c in state.hand):
        return _shortest_with_casts(state, watch, max_entries)
    best = shortest_state(state, max_entries=max_entries, watch=watch)
    if best.status == "solved":
        return Line("solved", solution_moves(state, best.strikes), True, best.strikes)
    if best.status == "unsolvable":
        return Line("unsolvable")
    # Any win, on what is left of the same bounds (the budget is shared, not renewed).
    found = solve_state(state, max_entries=max_entries, watch=watch)
    if found.status != "solved":
        return Line(found.status, reason=found.reason)
    line = _played(state, solution_moves(state, found.strikes), shortest=False)
    return Line(line.status, line.moves, False, line.strikes, best.reason)


def _shortest_with_casts(state: State, watch: Watch, max_states: int) -> Line:
    """The fewest of the game's moves that win (:func:`core.search.bfs`); positions with
    equal :func:`.solver._state_key` have the same future and are visited once."""
    found = bfs(
        state,
        lambda here: _successors(here, watch),
        lambda here: status(here) == "won",
        visited=KeyVisited(_state_key),
        max_states=max_states,
        watch=watch,
    )
    if found.status == "solved":
        return _played(state, tuple(found.plan), shortest=True)
    if found.status == "exhausted":
        return Line("unsolvable")
    return Line("unknown", reason=_bfs_reason(found.status, watch))


def _successors(here: State, watch: Watch):
    """The positions one move away, each charged one unit of the budget."""
    for move in legal_moves(here):
        watch.spend(1)
        yield move, apply_move(here, move)


def _bfs_reason(status: str, watch: Watch) -> str:
    """Why :func:`core.search.bfs` stopped (its ``"limit"`` covers states and time)."""
    if status in ("cancelled", "budget"):
        return REASONS[status]
    if watch.deadline is not None and time.monotonic() > watch.deadline:
        return REASONS["limit"]
    return REASONS["budget"]


def _played(state: State, moves: tuple[Move, ...], *, shortest: bool) -> Line:
    """A win's line: its moves and the strikes they make (casts change the monsters, so the
    strikes are read from the play)."""
    end = state
    for move in moves:
        end = apply_move(end, move)
    return Line("solved", moves, shortest, end.struck[len(state.struck) :])
