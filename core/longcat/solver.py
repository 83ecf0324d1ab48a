"""The Longcat solver: is a level solvable, and one shortest solution.

Both searches run on raw ``(head, filled)`` pairs and prune positions that
:func:`core.longcat.prune.is_hopeless` proves unsolvable (connectivity, parity, dead ends).
Pruning is sound, so it never changes the yes/no answer or the length of the shortest
solution; counts (solutions, states) are computed without pruning in
:mod:`core.longcat.graph`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from core.longcat.level import DIRECTIONS, Board, Level
from core.longcat.prune import is_hopeless
from core.longcat.rules import slide, solution_string
from core.search import Interrupted, Watch, bfs

if TYPE_CHECKING:  # pragma: no cover
    from core.longcat.rules import State

__all__ = [
    "Solution",
    "is_solvable",
    "shortest_from",
    "shortest_solution",
    "solution_from",
    "solvable_from",
]

BLOCK = 256
"""Positions :func:`solvable_from` expands between two spends of a watch's budget (a
module value so that a test can make blocks small enough for short searches)."""


def is_solvable(
    level: Level,
    *,
    max_states: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    watch: Watch | None = None,
) -> bool | None:
    """Decide whether ``level`` can be won (depth-first, pruned, each position once).

    Args:
        level: The level.
        max_states: Give up (return None) after visiting this many positions (None: no limit).
        should_stop: Polled every 256 positions; returning True gives up (None).

    Returns:
        True or False, or None when a limit stopped the search first.
    """
    return solvable_from(
        level.board, level.start_index, max_states=max_states, should_stop=should_stop, watch=watch
    )


def solvable_from(
    board: Board,
    head: int,
    *,
    max_states: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    watch: Watch | None = None,
    native: bool | None = None,
) -> bool | None:
    """:func:`is_solvable` on raw values: the cat starts on cell ``head`` of ``board``.

    Args:
        board: The grid's geometry.
        head: Board index of the start cell (an empty cell).
        max_states: Position limit (None: none).
        should_stop: Cancellation poll.
        watch: Work budget (one state per position expanded, spent in blocks of 256 and
            the rest at the end: an answer that needed more than the budget is None too, so
            it is the same on every machine) and deadline; when either is hit the answer is
            None (the watch tells which: ``budget_left == 0``).
        native: The compiled search (:mod:`core.longcat.native`: same answer, same
            positions expanded): True to use it when numba is installed (compiling it on
            first use), False for the pure search, None (default) to use it once this
            process has warmed it up (:func:`core.longcat.native.warm_up`).

    Returns:
        True, False, or None when stopped by a limit.
    """
    start = (head, 1 << head)
    if start[1] == board.free:
        return True
    if is_hopeless(board, *start):
        return False
    if _use_native(native):
        return _solvable_native(board, start, max_states, should_stop, watch)
    seen = {start}
    stack = [start]
    expanded = 0
    answer: bool | None = False
    while stack:
        if len(seen) & 255 == 0 and should_stop is not None and should_stop():
            return None
        if expanded % BLOCK == 0 and expanded and watch is not None and not _spent(watch, BLOCK):
            return None
        head, filled = stack.pop()
        expanded += 1
        if _wins_next(board, head, filled, seen, stack):
            answer = True
            break
        if max_states is not None and len(seen) > max_states:
            return None
    if watch is not None and not _spent(watch, expanded % BLOCK):
        return None
    return answer


def _solvable_native(
    board: Board,
    start: tuple[int, int],
    max_states: int | None,
    should_stop: Callable[[], bool] | None,
    watch: Watch | None,
) -> bool | None:
    """:func:`solvable_from`'s search, compiled (the same answer and budget spent)."""
    from core.longcat import native as compiled

    answer, expanded = compiled.solvable_from(
        board,
        *start,
        max_states=max_states,
        should_stop=should_stop,
        watch=watch,
        spend=_spent,
        block=BLOCK,
    )
    if answer is not None and watch is not None and not _spent(watch, expanded % BLOCK):
        return None  # the last, partial block, spent as the pure search spends it
    return answer


def _use_native(native: bool | None) -> bool:
    """Whether :func:`solvable_from` takes the compiled search (see its ``native``)."""
    if native is False:
        return False
    from core.longcat import native as compiled

    if native is None:
        return compiled.warm()
    if not compiled.available():
        return False
    compiled.warm_up()
    return True


def _wins_next(
    board: Board, head: int, filled: int, seen: set[tuple[int, int]], stack: list
) -> bool:
    """Expand one position of :func:`solvable_from`: push its new, hopeful successors; True
    when one of them fills the board."""
    for d in range(4):
        moved = slide(board, head, filled, d)
        if moved is None or moved in seen:
            continue
        if moved[1] == board.free:
            return True
        seen.add(moved)
        if not is_hopeless(board, *moved):
            stack.append(moved)
    return False


def _spent(watch: Watch, positions: int) -> bool:
    """Spend ``positions`` of the watch's budget and poll it; False once it stops."""
    try:
        watch.spend(positions)
        watch.poll("solve")
    except Interrupted:
        return False
    return True


@dataclass(frozen=True, slots=True)
class Solution:
    """The answer of :func:`shortest_solution`.

    Attributes:
        status: ``"solved"``, ``"unsolvable"`` or ``"unknown"`` (a limit or cancellation
            stopped the search).
        moves: A shortest solution (empty unless solved, or when the start is already won).
        explored: Positions expanded by the search.
        reason: ``""``, ``"limit"`` or ``"cancelled"``.
    """

    status: str
    """``"solved"``, ``"unsolvable"`` or ``"unknown"``."""
    moves: tuple[str, ...]
    """A shortest solution (fewest moves)."""
    explored: int
    """Positions expanded."""
    reason: str = ""
    """Why the status is unknown (``"limit"`` or ``"cancelled"``)."""

    @property
    def letters(self) -> str:
        """The moves as a ``UDLR`` string."""
        return solution_string(self.moves)


def shortest_solution(
    level: Level,
    *,
    max_states: int = 1_000_000,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    progress: Callable[[int, int], None] | None = None,
    watch: Watch | None = None,
) -> Solution:
    """Find a solution with the fewest moves (breadth-first through :func:`core.search.bfs`).

    Args:
        level: The level.
        max_states: Stop with ``"unknown"`` after keeping this many positions.
        time_limit: Stop with ``"unknown"`` after this many seconds (None: none).
        should_stop: Polled regularly; True cancels (``"unknown"``, reason ``"cancelled"``).
        progress: ``progress(explored, frontier)``, called regularly.
        watch: Work budget (one state per position expanded: ``"unknown"``, reason
            ``"budget"``) and deadline (reason ``"limit"``); ``time_limit`` is then ignored.

    Returns:
        The :class:`Solution`.
    """
    head = level.start_index
    return _shortest(
        level.board, head, 1 << head, max_states, time_limit, should_stop, progress, watch
    )


def shortest_from(
    state: State,
    *,
    max_states: int = 1_000_000,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Solution:
    """:func:`shortest_solution` from a position in the middle of a game.

    Args:
        state: The position.
        max_states: Position limit.
        time_limit: Seconds (None: none).
        should_stop: Cancellation poll.

    Returns:
        The :class:`Solution` (``"solved"`` with no moves for a won position).
    """
    return _shortest(
        state.level.board, state.head, state.filled, max_states, time_limit, should_stop, None
    )


def _shortest(
    board: Board,
    head: int,
    filled: int,
    max_states: int,
    time_limit: float | None,
    should_stop: Callable[[], bool] | None,
    progress: Callable[[int, int], None] | None,
    watch: Watch | None = None,
) -> Solution:
    start = (head, filled)
    if start[1] != board.free and is_hopeless(board, *start):
        return Solution("unsolvable", (), 0)

    def successors(pos: tuple[int, int]):
        if watch is not None:
            # bfs polls a given watch but not should_stop: poll it here, once per expansion.
            watch.spend(1)
            if should_stop is not None and should_stop():
                raise Interrupted("cancelled")
        for d in range(4):
            moved = slide(board, pos[0], pos[1], d)
            if moved is not None and not is_hopeless(board, *moved):
                yield DIRECTIONS[d], moved

    result = bfs(
        start,
        successors,
        lambda pos: pos[1] == board.free,
        max_states=max_states,
        time_limit=time_limit,
        should_stop=should_stop,
        progress=progress,
        watch=watch,
    )
    if result.status == "solved":
        return Solution("solved", tuple(result.plan), result.explored)
    if result.status == "exhausted":
        return Solution("unsolvable", (), result.explored)
    return Solution("unknown", (), result.explored, result.status)


def solution_from(
    state: State,
    *,
    max_states: int | None = 1_000_000,
    time_limit: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> Solution:
    """Find *a* solution from a position, usually much faster than the shortest one.

    Depth-first, pruned, every position once (as :func:`solvable_from`), keeping a parent
    link per position so the moves can be read back. Hints and "show the solution" use it:
    any solution answers "what next?".

    Args:
        state: The position.
        max_states: Give up (``"unknown"``, reason ``"limit"``) after this many positions.
        time_limit: Give up after this many seconds (reason ``"limit"``).
        should_stop: Polled every 256 positions; True gives up (reason ``"cancelled"``).

    Returns:
        The :class:`Solution`: ``"solved"`` with the moves (none for a won position),
        ``"unsolvable"``, or ``"unknown"``.
    """
    board = state.level.board
    start = (state.head, state.filled)
    if start[1] == board.free:
        return Solution("solved", (), 0)
    if is_hopeless(board, *start):
        return Solution("unsolvable", (), 0)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    parent: dict[tuple[int, int], tuple[tuple[int, int], int] | None] = {start: None}
    stack = [start]
    explored = 0
    while stack:
        if explored & 255 == 0:
            if should_stop is not None and should_stop():
                return Solution("unknown", (), explored, "cancelled")
            if deadline is not None and time.monotonic() > deadline:
                return Solution("unknown", (), explored, "limit")
        pos = stack.pop()
        explored += 1
        for d in range(4):
            moved = slide(board, pos[0], pos[1], d)
            if moved is None or moved in parent:
                continue
            parent[moved] = (pos, d)
            if moved[1] == board.free:
                return Solution("solved", _moves_to(parent, moved), explored)
            if not is_hopeless(board, *moved):
                stack.append(moved)
        if max_states is not None and len(parent) > max_states:
            return Solution("unknown", (), explored, "limit")
    return Solution("unsolvable", (), explored)


def _moves_to(parent: dict, pos: tuple[int, int]) -> tuple[str, ...]:
    moves = []
    link = parent[pos]
    while link is not None:
        pos, d = link
        moves.append(DIRECTIONS[d])
        link = parent[pos]
    return tuple(reversed(moves))
