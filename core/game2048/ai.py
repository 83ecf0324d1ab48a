"""Expectimax hints and autoplay for 2048.

Two searches share one entry point, :func:`hint`:

* **Fast path** (the standard game: 4×4 board, the ``standard`` merge rule, tiles that are
  powers of two up to 32768 and spawns that are powers of two): an expectimax over the
  packed 64-bit board of :mod:`core.game2048.fastboard`, after nneonneo's 2048 AI. Leaves
  are scored with a per-row heuristic table (empty cells, possible merges, monotonicity,
  a penalty on large tiles) summed over the four rows and the four columns. Chance nodes
  enumerate every empty cell and spawn value, but a branch whose probability of being
  reached falls below :data:`CPROB_THRESHOLD` is scored by the heuristic instead of being
  searched. A transposition table per hint shares work between move orders that reach the
  same board. The depth adapts to the board (see :func:`default_depth`). When numba is
  installed the same search runs compiled (:mod:`core.game2048.native`: the same scores,
  moves and node counts, 15-40× faster), and looks one spawn further by default, 7 on the
  boards that cascade into a large tile (:func:`default_depth`); ``native=False`` or
  ``TERMARCADE_PURE_AI=1`` keeps it in Python.
* **General path** (any other size, merge rule, tile values or spawn distribution): the
  same expectimax on the pure API (:func:`core.game2048.board.execute_move_on_board`) with a
  simple heuristic on the logarithms of the tiles; slower, so it searches less deeply.

Depth counts *spawns* looked ahead, as in nneonneo's program: depth ``d`` means
"my move, a spawn, my move, ..., a spawn, my move, heuristic" with ``d`` spawns and ``d + 1``
moves of mine.

Everything is deterministic: same state and arguments, same answer. With
``time_budget_ms`` the search deepens iteratively while the measured time says the next
iteration fits, so the answer then depends on the speed of the machine.

``time_limit`` (seconds) is a hard bound, on both paths: the search deepens from a one-move
look-ahead (depth 0, always completed: one heuristic per move) up to the requested depth,
checks the clock at every node, and when time is up drops the unfinished iteration and answers
with the deepest one that finished. A search that fits in the limit gives exactly the answer
it gives without one; a huge board (64×64) still answers within a fraction of a second of the
limit (the compiled search's one-time compile in a process runs before the clock starts).
:func:`hint_info` says how deep the answer's search went and whether the time limit
or the work budget cut it short.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import log2
from time import monotonic, perf_counter
from typing import Any

from core.game2048 import fastboard as fb
from core.game2048 import native as _native
from core.game2048.board import (
    DIRECTIONS,
    Board,
    execute_move_on_board,
    get_empty_cells,
)

__all__ = [
    "CPROB_THRESHOLD",
    "CUT_BUDGET",
    "CUT_TIME",
    "GENERAL_MAX_DEPTH",
    "MAX_DEPTH",
    "HintResult",
    "NodeBudget",
    "OutOfTime",
    "adaptive_depth",
    "autoplay",
    "best_move_fast",
    "best_move_general",
    "heuristic_fast",
    "hint",
    "hint_info",
    "is_fast_config",
    "move_scores_fast",
]

CPROB_THRESHOLD = 1e-4
"""Chance branches reached with a lower probability are scored by the heuristic."""

MAX_DEPTH = 8
"""Upper bound on any requested depth of the fast search (keeps the recursion shallow)."""

GENERAL_MAX_DEPTH = 2
"""Upper bound on the depth of the general search (it is ~100× slower per node)."""

# nneonneo's weights (2048-ai, heuristic table).
_LOST_PENALTY = 200000.0
_MONOTONICITY_POWER = 4.0
_MONOTONICITY_WEIGHT = 47.0
_SUM_POWER = 3.5
_SUM_WEIGHT = 11.0
_MERGES_WEIGHT = 700.0
_EMPTY_WEIGHT = 270.0


CUT_TIME = "time limit"
""":attr:`HintResult.cut` when the time limit stopped the deepening."""

CUT_BUDGET = "work budget"
""":attr:`HintResult.cut` when the work budget (nodes) stopped the deepening."""


@dataclass(frozen=True)
class HintResult:
    """A hint and how it was found.

    Attributes:
        move: The direction, or None when no move changes the board.
        depth: The deepest search that finished (spawns looked ahead; its scores chose
            ``move``).
        target: The depth the search was asked for (or chose); ``depth < target`` only when
            ``cut`` says why, or when a soft ``time_budget_ms`` predicted a deeper search
            would not fit.
        cut: None, :data:`CUT_TIME` or :data:`CUT_BUDGET`: what stopped the search early.
        engine: ``"native"`` (the compiled search), ``"pure"`` (the same search in Python)
            or ``"general"`` (any other board or rules).
    """

    move: str | None
    depth: int
    target: int
    cut: str | None
    engine: str


class OutOfTime(Exception):
    """Raised inside a search when its deadline has passed or its node budget is spent
    (caught by the deepening loop)."""


class NodeBudget:
    """The nodes one hint may still expand, shared by its deepening iterations.

    A budget bounds a search the same way on an idle and on a busy machine (a deadline does
    not), and bounds its memory: the transposition table holds at most one entry per node.

    Args:
        nodes: Nodes (chance and move nodes) the search may expand.
    """

    __slots__ = ("left",)

    def __init__(self, nodes: int):
        self.left = nodes
        """Nodes left; the search stops (:class:`OutOfTime`) when it falls below zero."""

    def spend(self) -> None:
        """Count one node.

        Raises:
            OutOfTime: When the budget is spent.
        """
        self.left -= 1
        if self.left < 0:
            raise OutOfTime


def _nodes(budget: int | None) -> NodeBudget | None:
    """A fresh :class:`NodeBudget` for ``budget`` nodes (None or 0: no budget)."""
    return NodeBudget(budget) if budget else None


def _check_clock(deadline: float | None) -> None:
    """Raise :class:`OutOfTime` once ``deadline`` (a ``perf_counter`` time) has passed."""
    if deadline is not None and perf_counter() > deadline:
        raise OutOfTime


def _line_heuristic(line: Sequence[float]) -> float:
    """nneonneo's score of one line of ranks (log2 of the tiles, 0 = empty).

    Args:
        line: The ranks of one row or column.

    Returns:
        ``LOST_PENALTY + EMPTY·empty + MERGES·merges − MONO·min(mono_left, mono_right)
        − SUM·Σ rank^3.5``; higher is better.
    """
    total = 0.0
    empty = 0
    merges = 0
    prev = 0.0
    counter = 0
    for rank in line:
        total += rank**_SUM_POWER
        if rank == 0:
            empty += 1
        else:
            if prev == rank:
                counter += 1
            elif counter > 0:
                merges += 1 + counter
                counter = 0
            prev = rank
    if counter > 0:
        merges += 1 + counter
    mono_left = 0.0
    mono_right = 0.0
    for i in range(1, len(line)):
        a = line[i - 1] ** _MONOTONICITY_POWER
        b = line[i] ** _MONOTONICITY_POWER
        if line[i - 1] > line[i]:
            mono_left += a - b
        else:
            mono_right += b - a
    return (
        _LOST_PENALTY
        + _EMPTY_WEIGHT * empty
        + _MERGES_WEIGHT * merges
        - _MONOTONICITY_WEIGHT * min(mono_left, mono_right)
        - _SUM_WEIGHT * total
    )


HEUR_TABLE: list[float] = [
    _line_heuristic([(row >> (4 * i)) & 0xF for i in range(4)]) for row in range(65536)
]
"""Heuristic of every 16-bit row (same for a row read as a column)."""


def heuristic_fast(board: int) -> float:
    """Heuristic of a packed board: the row table summed over rows and columns.

    Args:
        board: A packed 4×4 board.

    Returns:
        The score (higher is better).
    """
    h = HEUR_TABLE
    t = fb.transpose(board)
    return (
        h[board & 0xFFFF]
        + h[(board >> 16) & 0xFFFF]
        + h[(board >> 32) & 0xFFFF]
        + h[board >> 48]
        + h[t & 0xFFFF]
        + h[(t >> 16) & 0xFFFF]
        + h[(t >> 32) & 0xFFFF]
        + h[t >> 48]
    )


def _distinct_ranks(board: int) -> int:
    """Number of distinct non-zero ranks on a packed board."""
    seen = 0
    while board:
        seen |= 1 << (board & 0xF)
        board >>= 4
    return bin(seen >> 1).count("1")


def adaptive_depth(board: int) -> int:
    """The search depth used for a packed board when none is requested.

    Open boards are cheap to play well and expensive to search (every empty cell is a
    chance branch), crowded boards are where games are lost and have few branches; so
    the depth grows as the empty cells run out. Boards holding many different tiles (the
    late game) get one spawn more. The thresholds keep the mean time per move well under
    100 ms in CPython (see ``bench/game2048.py``).

    Args:
        board: A packed 4×4 board.

    Returns:
        2, 3 or 4 (spawns looked ahead).
    """
    empty = fb.count_empty(board)
    if empty <= 1:
        return 4
    if empty <= 5 or _distinct_ranks(board) >= 10:
        return 3
    return 2


def _spent_search(*_args: Any) -> float:
    """What a finished search's recursive closures are rebound to (breaking their cycle).

    Raises:
        RuntimeError: Always (nothing may call a finished search).
    """
    raise RuntimeError("this search has finished")


def _fast_searcher(
    spawns: tuple[tuple[int, float], ...], threshold: float
) -> Callable[[int, int], dict[str, float]]:
    """Build the fast expectimax for a spawn distribution.

    Args:
        spawns: ``(rank, probability)`` of each new tile value (probabilities sum to 1).
        threshold: Cumulative probability below which a chance branch is not expanded.

    Returns:
        ``scores(board, depth, deadline=None) -> {direction: expected heuristic}`` for the
        legal moves; with a ``deadline`` (a ``perf_counter`` time) it raises
        :class:`OutOfTime` once the deadline has passed, and with ``nodes`` (a
        :class:`NodeBudget`, counting chance nodes) once the budget is spent.
    """
    move_all = fb.move_all
    masks0, masks1, masks2, masks3 = fb.EMPTY_MASKS

    def scores(
        root: int, depth: int, deadline: float | None = None, nodes: NodeBudget | None = None
    ) -> dict[str, float]:
        tt: dict[int, tuple[int, float]] = {}
        tt_get = tt.get
        heur_cache: dict[int, float] = {}
        heur_get = heur_cache.get

        def chance(b: int, cprob: float, depth_left: int) -> float:
            # Expected value over every spawn (cell x value) after the move that made b.
            # The caller has checked depth_left > 0 and cprob >= threshold.
            if deadline is not None and perf_counter() > deadline:
                raise OutOfTime  # one clock read per chance node: under 1 % of its cost
            if nodes is not None:
                nodes.spend()
            entry = tt_get(b)
            if entry is not None and entry[0] >= depth_left:
                return entry[1]
            cells = (
                masks0[b & 0xFFFF]
                + masks1[(b >> 16) & 0xFFFF]
                + masks2[(b >> 32) & 0xFFFF]
                + masks3[b >> 48]
            )
            n = len(cells)
            cp = cprob / n
            nxt = depth_left - 1
            total = 0.0
            for m in cells:
                for rank, p in spawns:
                    child = b | (m * rank)
                    cpp = cp * p
                    leaf = nxt <= 0 or cpp < threshold
                    best = 0.0
                    # The four moves of the child share one transpose.
                    for nb in move_all(child):
                        if nb == child:
                            continue
                        if leaf:
                            v = heur_get(nb)
                            if v is None:
                                v = heur_cache[nb] = heuristic_fast(nb)
                        else:
                            v = chance(nb, cpp, nxt)
                        if v > best:
                            best = v
                    # best stays 0 when the child has no move: a lost game scores lowest.
                    total += p * best
            value = total / n
            tt[b] = (depth_left, value)
            return value

        result: dict[str, float] = {}
        try:
            for direction in fb.DIRECTIONS:
                nb = fb.move_board(root, direction)
                if nb == root:
                    continue
                if depth <= 0:
                    result[direction] = heuristic_fast(nb)
                else:
                    result[direction] = chance(nb, 1.0, depth)
        finally:
            # chance refers to itself through its closure cell: a reference cycle that would
            # keep this search's tables alive until the cycle collector runs (issue 32: peak
            # memory grew ~350 kB per autoplay move). Rebinding the name breaks the cycle.
            chance = _spent_search  # type: ignore[assignment]
        return result

    return scores


_STANDARD_SPAWNS: tuple[tuple[int, float], ...] = ((1, 0.9), (2, 0.1))
_Scores = Callable[..., dict[str, float]]
_SEARCHERS: dict[tuple[tuple[tuple[int, float], ...], float], _Scores] = {}


def _searcher(spawns: tuple[tuple[int, float], ...], threshold: float) -> _Scores:
    """Cached :func:`_fast_searcher` (the closures are pure; caching saves rebuilding)."""
    key = (spawns, threshold)
    fn = _SEARCHERS.get(key)
    if fn is None:
        fn = _SEARCHERS[key] = _fast_searcher(spawns, threshold)
    return fn


def use_native(native: bool | None = None) -> bool:
    """Whether the fast search runs compiled (:mod:`core.game2048.native`).

    Args:
        native: False forces the pure-Python search; None or True use the compiled one when
            numba is installed and ``TERMARCADE_PURE_AI`` is not set (else the pure one).

    Returns:
        True when the compiled search will run.
    """
    return native is not False and _native.available()


def move_scores_fast(
    board: int,
    depth: int,
    *,
    spawns: tuple[tuple[int, float], ...] = _STANDARD_SPAWNS,
    threshold: float = CPROB_THRESHOLD,
    deadline: float | None = None,
    nodes: NodeBudget | None = None,
    native: bool | None = None,
) -> dict[str, float]:
    """Expected heuristic value of each legal move of a packed board.

    Args:
        board: A packed 4×4 board.
        depth: Spawns to look ahead (0 = heuristic right after the move).
        spawns: ``(rank, probability)`` pairs of the new tiles (default 2: 0.9, 4: 0.1).
        threshold: Probability below which chance branches are not expanded.
        deadline: A ``perf_counter`` time after which the search gives up.
        nodes: A node budget (chance nodes) after which the search gives up; both engines
            count the same nodes.
        native: False forces the pure-Python search (see :func:`use_native`).

    Returns:
        ``{direction: value}`` for the moves that change the board (empty when none does).

    Raises:
        OutOfTime: When ``deadline`` passes or ``nodes`` runs out before the search is
            complete.
    """
    depth = max(0, min(int(depth), MAX_DEPTH))
    if not use_native(native):
        return _searcher(spawns, threshold)(board, depth, deadline, nodes)
    result, left = _native.scores(
        board, depth, spawns, threshold, deadline, None if nodes is None else nodes.left
    )
    if nodes is not None and left is not None:
        nodes.left = left
    if result is None:
        raise OutOfTime
    return result


def _pick(scores: dict[str, float]) -> str | None:
    """Best direction; ties go to the first in DIRECTIONS order (deterministic)."""
    best: str | None = None
    best_value = float("-inf")
    for d in DIRECTIONS:
        v = scores.get(d)
        if v is not None and v > best_value:
            best, best_value = d, v
    return best


def _deadline(time_limit: float | None) -> float | None:
    """The ``perf_counter`` time at which a search started now with ``time_limit`` must stop."""
    return None if time_limit is None else perf_counter() + max(0.0, time_limit)


NATIVE_DEPTH_BONUS = 1
"""Spawns the compiled search looks ahead beyond :func:`adaptive_depth` by default. It is
~15-40× faster (depths 2-4) and one more spawn costs ~5-10×: with one, a move took 20 ms of
CPU on average and 112 ms at most on 313 positions of a long game; with two, 86 ms on average
but up to 561 ms, past the 150 ms per move aimed at (``docs/2048.md``)."""


DEEP_DISTINCT = 10
"""Boards holding at least this many distinct tiles (a 2 up to a 1024, and more: the boards
on the way to, and cascading into, the next large tile, where the measured games were lost)
get :data:`DEEP_DEPTH` on the compiled search (:func:`default_depth`). From eleven on, 6 of
30 measured games were still lost there (``docs/2048.md``)."""

DEEP_DEPTH = 7
"""The default depth of the compiled search on those boards. nneonneo's program searches
max(3, distinct tiles - 2) spawns, 8 or more there; on the late-game boards measured in
``docs/2048.md`` an eighth spawn took 2.2 times the chance nodes of the seventh (the
probability cut slows the growth), and 7 keeps the heaviest of them within
:data:`DEFAULT_BUDGET`."""

DEFAULT_BUDGET = 1_000_000
"""Chance nodes one hint may expand by default (the CLI's ``--work-budget``, the app's
hints). The default depth is a wish the budget trims: an iteration predicted not to fit is
not begun (:func:`_deepen_info`), so the heaviest late-game move stops near this many nodes,
and a search's table never holds more entries than this."""


def default_depth(board: int, native: bool) -> int:
    """The depth used when none is requested: :func:`adaptive_depth`, plus
    :data:`NATIVE_DEPTH_BONUS` on the compiled search, which searches :data:`DEEP_DEPTH`
    spawns on boards of at least :data:`DEEP_DISTINCT` distinct tiles.

    Args:
        board: A packed 4×4 board.
        native: Whether the compiled search runs.

    Returns:
        Spawns to look ahead.
    """
    depth = adaptive_depth(board)
    if not native:
        return depth
    if _distinct_ranks(board) >= DEEP_DISTINCT:
        return max(depth + NATIVE_DEPTH_BONUS, DEEP_DEPTH)
    return depth + NATIVE_DEPTH_BONUS


def search_fast(
    board: int,
    *,
    depth: int | None = None,
    time_budget_ms: float | None = None,
    time_limit: float | None = None,
    spawns: tuple[tuple[int, float], ...] = _STANDARD_SPAWNS,
    budget: int | None = None,
    native: bool | None = None,
) -> HintResult:
    """Best move on a packed 4×4 board, with the depth reached and what cut it.

    Args: as :func:`best_move_fast`.

    Returns:
        The :class:`HintResult`.
    """
    compiled = use_native(native)
    if compiled:
        _native.warm_up()  # the process's one-time compile: before the hint's clock starts
    deadline = _deadline(time_limit)
    nodes = _nodes(budget)
    engine = "native" if compiled else "pure"

    def search(d: int, limit: float | None) -> dict[str, float]:
        return move_scores_fast(
            board, d, spawns=spawns, deadline=limit, nodes=nodes, native=compiled
        )

    if time_budget_ms is not None and depth is None:
        scores, reached, cut = _deepen_info(
            search, MAX_DEPTH, deadline=deadline, budget_ms=time_budget_ms, nodes=nodes
        )
        target = reached if cut is None else MAX_DEPTH
        return HintResult(_pick(scores), reached, target, cut, engine)
    if depth is None:
        target = min(default_depth(board, compiled), MAX_DEPTH)
    else:
        target = max(0, min(depth, MAX_DEPTH))
    if deadline is None and nodes is None:
        scores = search(target, None)
        return HintResult(_pick(scores), target, target, None, engine)
    # The default depth is a wish that the budget trims; an asked depth is tried to the end.
    scores, reached, cut = _deepen_info(
        search, target, deadline=deadline, nodes=nodes, predict=depth is None
    )
    return HintResult(_pick(scores), reached, target, cut, engine)


def best_move_fast(
    board: int,
    *,
    depth: int | None = None,
    time_budget_ms: float | None = None,
    time_limit: float | None = None,
    spawns: tuple[tuple[int, float], ...] = _STANDARD_SPAWNS,
    budget: int | None = None,
    native: bool | None = None,
) -> str | None:
    """Best move on a packed 4×4 board.

    Args:
        board: A packed board.
        depth: Spawns to look ahead; None = :func:`default_depth`.
        time_budget_ms: When given (and ``depth`` is None), deepen iteratively from depth
            1 while the next iteration is predicted to fit in the budget.
        time_limit: Hard bound in seconds (see the module docstring).
        spawns: ``(rank, probability)`` pairs of the new tiles.
        budget: Chance nodes the whole hint may expand (None or 0: no budget); like
            ``time_limit``, a search cut short answers with the deepest one that finished.
        native: False forces the pure-Python search (see :func:`use_native`).

    Returns:
        A direction, or None when no move changes the board.
    """
    return search_fast(
        board,
        depth=depth,
        time_budget_ms=time_budget_ms,
        time_limit=time_limit,
        spawns=spawns,
        budget=budget,
        native=native,
    ).move


def _deepen_info(
    search: Callable[[int, float | None], dict[str, float]],
    max_depth: int,
    *,
    deadline: float | None = None,
    budget_ms: float | None = None,
    nodes: NodeBudget | None = None,
    predict: bool = False,
) -> tuple[dict[str, float], int, str | None]:
    """Iterative deepening under a hard deadline and/or a soft time budget.

    Depth 0 (one heuristic per move) always runs to the end, so there is always an answer;
    then depths 1, 2, ... up to ``max_depth``. An iteration cut by the deadline is dropped.
    With ``budget_ms``, depth 1 always runs and a deeper one only when the time measured so
    far predicts that it fits in the budget. With ``predict`` (and ``nodes``) an iteration
    is not begun when the chance nodes the last one took, times their growth
    (:func:`_node_growth`), exceed the nodes left: the work it would spend before the budget
    cut it is saved, and the answer still depends only on the board and the budget.

    Args:
        search: ``(depth, deadline) -> scores``, raising :class:`OutOfTime` at the deadline.
        max_depth: The deepest iteration.
        deadline: ``perf_counter`` time at which to stop, or None.
        budget_ms: Milliseconds available, or None.
        nodes: The search's node budget, if any (to tell a spent budget from the clock).
        predict: Skip an iteration the node budget is predicted not to cover (it is then
            reported as cut by the work budget).

    Returns:
        ``(scores, depth, cut)``: the scores of the deepest iteration that finished, its
        depth, and None, :data:`CUT_TIME` or :data:`CUT_BUDGET` when an iteration was cut.
    """
    start = perf_counter()
    scores = search(0, None)  # depth 0 expands no chance node: the budget cannot cut it
    depth = 0
    last = 0.0
    growth = 20.0  # a first guess of how much longer one more spawn of look-ahead takes
    seen: list[int] = []  # chance nodes each finished iteration took (for ``predict``)
    while scores and depth < max_depth:
        if budget_ms is not None and depth >= 1:
            elapsed_ms = (perf_counter() - start) * 1000.0
            if elapsed_ms + last * growth * 1000.0 > budget_ms:
                break
        if predict and nodes is not None and seen and seen[-1] * _node_growth(seen) > nodes.left:
            return scores, depth, CUT_BUDGET  # the next depth would not fit: not begun
        before = 0 if nodes is None else nodes.left
        t0 = perf_counter()
        try:
            deeper = search(depth + 1, deadline)
        except OutOfTime:
            spent = nodes is not None and nodes.left < 0
            return scores, depth, CUT_BUDGET if spent else CUT_TIME
        took = perf_counter() - t0
        if depth >= 1 and last > 0:
            growth = max(growth, took / last)
        last = took
        if nodes is not None:
            seen.append(before - nodes.left)
        scores = deeper
        depth += 1
    return scores, depth, None


NODE_GROWTH_FLOOR = 2.0
"""The least growth in chance nodes :func:`_deepen_info` predicts for one more spawn."""


def _node_growth(seen: list[int]) -> float:
    """How many times more chance nodes the next deepening iteration is predicted to take:
    the growth between the last two iterations (the probability cut slows it down as the
    search deepens, so the latest ratio is the best guess), at least
    :data:`NODE_GROWTH_FLOOR`.

    Args:
        seen: Chance nodes each finished iteration took, from depth 1 on.

    Returns:
        The predicted factor.
    """
    if len(seen) < 2 or seen[-2] <= 0:
        return NODE_GROWTH_FLOOR
    return max(NODE_GROWTH_FLOOR, seen[-1] / seen[-2])


# ---------------------------------------------------------------------------
# General path (any size, merge rule, values, distribution)
# ---------------------------------------------------------------------------


def _level(v: int) -> float:
    """A tile's "size" for the general heuristic (log2 of the value, 0 when empty)."""
    return log2(v) + 1.0 if v > 0 else 0.0


def heuristic_general(
    board: Sequence[Sequence[int]], merge_logic: Callable[[int, int], Any]
) -> float:
    """A simple heuristic for any board and merge rule.

    The nneonneo ingredients on each row and column, computed directly: empty cells,
    neighbouring pairs that ``merge_logic`` would merge, a monotonicity penalty and a
    penalty on large tiles, both on ``log2`` of the values (so it is defined for any
    positive tile value).

    Args:
        board: Rows of tile values (0 = empty).
        merge_logic: The merge rule.

    Returns:
        The score (higher is better).
    """
    lines = [tuple(r) for r in board] + [tuple(c) for c in zip(*board)]
    score = 0.0
    for line in lines:
        levels = [_level(v) for v in line]
        empty = 0
        merges = 0
        prev = 0
        for v in line:
            if v == 0:
                empty += 1
                continue
            if prev and (merge_logic(prev, v) is not None or merge_logic(v, prev) is not None):
                merges += 1
            prev = v
        mono_left = 0.0
        mono_right = 0.0
        for i in range(1, len(levels)):
            a = levels[i - 1] ** 2
            b = levels[i] ** 2
            if a > b:
                mono_left += a - b
            else:
                mono_right += b - a
        score += (
            10.0 * empty
            + 8.0 * merges
            - 1.0 * min(mono_left, mono_right)
            - 0.1 * sum(x**2 for x in levels)
        )
    return score


def _general_scores(
    board: Board,
    merge_logic: Callable[[int, int], Any],
    spawns: tuple[tuple[int, float], ...],
    depth: int,
    deadline: float | None,
    nodes: NodeBudget | None = None,
) -> dict[str, float]:
    """Expectimax value of each legal move on the pure API (see :func:`best_move_general`).

    Raises:
        OutOfTime: When ``deadline`` passes or ``nodes`` runs out first (the clock is read
            at every node: one node costs a whole move and heuristic on the board, far more
            than the clock).
    """
    tt: dict[Board, tuple[int, float]] = {}

    def max_node(b: Board, depth_left: int) -> float:
        _check_clock(deadline)
        if nodes is not None:
            nodes.spend()
        best = 0.0
        found = False
        for d in DIRECTIONS:
            new_board, _, changed = execute_move_on_board(b, d, merge_logic)
            if changed:
                v = chance(new_board, depth_left)
                if not found or v > best:
                    best, found = v, True
        # No legal move: the game is lost; score it below every live position.
        return best if found else -1e12

    def chance(b: Board, depth_left: int) -> float:
        _check_clock(deadline)
        if depth_left <= 0:
            return heuristic_general(b, merge_logic)
        entry = tt.get(b)
        if entry is not None and entry[0] >= depth_left:
            return entry[1]
        cells = get_empty_cells(b)
        if not cells:
            return heuristic_general(b, merge_logic)
        total = 0.0
        for cell in cells:
            r, c = cell
            row = b[r]
            for value, p in spawns:
                nb = b[:r] + (row[:c] + (value,) + row[c + 1 :],) + b[r + 1 :]
                total += p * max_node(nb, depth_left - 1)
        value_ = total / len(cells)
        tt[b] = (depth_left, value_)
        return value_

    scores: dict[str, float] = {}
    try:
        for d in DIRECTIONS:
            new_board, _, changed = execute_move_on_board(board, d, merge_logic)
            if changed:
                scores[d] = chance(new_board, depth)
    finally:
        # They refer to each other: break the cycle so the tables are freed now (see above).
        max_node = chance = _spent_search  # type: ignore[assignment]
    return scores


def best_move_general(
    board: Sequence[Sequence[int]],
    merge_logic: Callable[[int, int], Any],
    distribution: Sequence[tuple[int, float]],
    *,
    depth: int = 1,
    time_limit: float | None = None,
    budget: int | None = None,
) -> str | None:
    """Expectimax on the pure API, for any board and rules.

    Args: as :func:`search_general`.

    Returns:
        A direction, or None when no move changes the board.
    """
    return search_general(
        board, merge_logic, distribution, depth=depth, time_limit=time_limit, budget=budget
    ).move


def search_general(
    board: Sequence[Sequence[int]],
    merge_logic: Callable[[int, int], Any],
    distribution: Sequence[tuple[int, float]],
    *,
    depth: int = 1,
    time_limit: float | None = None,
    budget: int | None = None,
) -> HintResult:
    """Expectimax on the pure API, for any board and rules, with how deep it got.

    Args:
        board: Rows of tile values.
        merge_logic: The merge rule.
        distribution: ``(value, weight)`` pairs of new tiles.
        depth: Spawns to look ahead (default 1: my move, a spawn, my move, heuristic),
            capped at :data:`GENERAL_MAX_DEPTH`.
        time_limit: Hard bound in seconds (see the module docstring).
        budget: Move nodes the whole hint may expand (None or 0: no budget).

    Returns:
        The :class:`HintResult` (engine ``"general"``).
    """
    total_w = float(sum(w for _, w in distribution))
    spawns = tuple((v, w / total_w) for v, w in distribution if w > 0)
    depth = max(0, min(int(depth), GENERAL_MAX_DEPTH))
    rows = tuple(tuple(row) for row in board)
    deadline = _deadline(time_limit)
    nodes = _nodes(budget)

    def search(d: int, limit: float | None) -> dict[str, float]:
        return _general_scores(rows, merge_logic, spawns, d, limit, nodes)

    if deadline is None and nodes is None:
        return HintResult(_pick(search(depth, None)), depth, depth, None, "general")
    scores, reached, cut = _deepen_info(search, depth, deadline=deadline, nodes=nodes)
    return HintResult(_pick(scores), reached, depth, cut, "general")


# ---------------------------------------------------------------------------
# Entry points on GameState
# ---------------------------------------------------------------------------


def _merge_fn(config: Any) -> tuple[Callable[[int, int], Any], str | None]:
    """The merge function of a config and its preset name (None for a custom function)."""
    rule = getattr(config, "merge_rule", None)
    custom = getattr(config, "custom_merge_logic", None)
    logic = (
        custom
        if custom is not None
        else rule
        if isinstance(rule, str)
        else getattr(config, "merge_logic", "standard")
    )
    if isinstance(logic, str):
        from core.game2048.merge import resolve_merge_logic

        return resolve_merge_logic(logic), logic
    from core.game2048.merge import MERGE_PRESETS

    for name, fn in MERGE_PRESETS.items():
        if fn is logic:
            return fn, name
    return logic, None


def _distribution(config: Any) -> tuple[tuple[int, float], ...]:
    """``(value, weight)`` pairs of a config's tile distribution, whatever their shape."""
    out = []
    for item in getattr(config, "tile_value_distribution", ((2, 9), (4, 1))):
        if isinstance(item, dict):
            out.append((item["value"], item["weight"]))
        elif hasattr(item, "value") and hasattr(item, "weight"):
            out.append((item.value, item.weight))
        else:
            value, weight = item
            out.append((value, weight))
    return tuple(out)


def _fast_spawns(distribution: Sequence[tuple[int, float]]) -> tuple[tuple[int, float], ...] | None:
    """Spawn ranks and probabilities when every spawn value is a power of two ≤ 32768."""
    total = float(sum(w for _, w in distribution))
    if total <= 0:
        return None
    out = []
    for v, w in distribution:
        if w <= 0:
            continue
        if not isinstance(v, int) or v < 2 or v > fb.MAX_TILE or v & (v - 1):
            return None
        out.append((v.bit_length() - 1, w / total))
    return tuple(out) or None


def is_fast_config(board: Sequence[Sequence[int]], config: Any) -> bool:
    """Whether the fast packed-board search plays this board exactly.

    Args:
        board: The current board.
        config: The game's configuration.

    Returns:
        True for a 4×4 board of powers of two up to 32768 with the ``standard`` merge rule
        and spawns that are powers of two.
    """
    _, name = _merge_fn(config)
    return (
        name == "standard"
        and fb.is_representable(board)
        and _fast_spawns(_distribution(config)) is not None
    )


def hint(
    state: Any,
    *,
    depth: int | None = None,
    time_budget_ms: float | None = None,
    time_limit: float | None = None,
    budget: int | None = None,
    native: bool | None = None,
    report: Callable[[HintResult], None] | None = None,
) -> str | None:
    """Suggest a move for a 2048 game state.

    Args:
        state: A :class:`core.game2048.GameState` (uses ``board`` and ``config``).
        depth: Spawns to look ahead (capped at :data:`MAX_DEPTH`, or
            :data:`GENERAL_MAX_DEPTH` on the general path); None picks one:
            :func:`default_depth` on the fast path, 1 on the general path.
        time_budget_ms: Optional time budget for iterative deepening (fast path only,
            ignored by the general path; the answer then depends on the machine's speed).
        time_limit: Optional hard bound in seconds, on both paths: the answer comes from
            the deepest search that finished in time (see the module docstring).
        budget: Optional work bound: the nodes the search may expand (chance nodes on the
            fast path, move nodes on the general one; None or 0: none). Like ``time_limit``
            it keeps the deepest search that finished, but the answer is the same on any
            machine, and the transposition table never holds more than ``budget`` entries.
        native: False forces the pure-Python fast search (see :func:`use_native`).
        report: Called with the :class:`HintResult` (how deep the search got, what cut it):
            callers that want more than the move pass it through :func:`core.game2048.hint`
            and autoplay, which tests and tools replace by other strategies.

    Returns:
        ``"up"``, ``"down"``, ``"left"`` or ``"right"``, or None when no move changes the
        board (the game is over).
    """
    found = hint_info(
        state,
        depth=depth,
        time_budget_ms=time_budget_ms,
        time_limit=time_limit,
        budget=budget,
        native=native,
    )
    if report is not None:
        report(found)
    return found.move


def hint_info(
    state: Any,
    *,
    depth: int | None = None,
    time_budget_ms: float | None = None,
    time_limit: float | None = None,
    budget: int | None = None,
    native: bool | None = None,
) -> HintResult:
    """:func:`hint` with the depth the search reached and what cut it short, if anything.

    Args: as :func:`hint`.

    Returns:
        The :class:`HintResult`.
    """
    board = state.board
    config = state.config
    merge_logic, _ = _merge_fn(config)
    distribution = _distribution(config)
    if is_fast_config(board, config):
        spawns = _fast_spawns(distribution)
        assert spawns is not None
        return search_fast(
            fb.from_rows(board),
            depth=depth,
            time_budget_ms=time_budget_ms,
            time_limit=time_limit,
            spawns=spawns,
            budget=budget,
            native=native,
        )
    return search_general(
        board,
        merge_logic,
        distribution,
        depth=1 if depth is None else depth,
        time_limit=time_limit,
        budget=budget,
    )


def autoplay(
    state: Any,
    max_moves: int | None = None,
    *,
    depth: int | None = None,
    time_budget_ms: float | None = None,
    time_limit: float | None = None,
    deadline: float | None = None,
    should_stop: Callable[[], bool] | None = None,
    budget: int | None = None,
    stop_at_goal: bool = False,
    native: bool | None = None,
    on_hint: Callable[[HintResult], None] | None = None,
) -> Iterator[Any]:
    """Let the AI play: yield each new state until the game ends.

    Args:
        state: The starting :class:`core.game2048.GameState` (not yielded).
        max_moves: Stop after this many moves (None = play until no move is possible).
        depth: Passed to :func:`hint`.
        time_budget_ms: Passed to :func:`hint`.
        time_limit: Passed to :func:`hint` (a bound per move).
        deadline: A ``time.monotonic()`` time: play stops there, and each hint may think
            until then (only the end of the budget cuts a search short, so a run that ends in
            time does not depend on the machine's speed).
        should_stop: Polled before each move; True stops play.
        budget: Passed to :func:`hint` (nodes per move).
        stop_at_goal: Stop once the game is won (its config's goal tile is on the board).
        native: Passed to :func:`hint`.
        on_hint: Passed to :func:`hint` as ``report``: called with each move's
            :class:`HintResult` (how deep each search got, and whether a limit cut it).

    Yields:
        The state after each move.
    """
    from core.game2048 import has_won
    from core.game2048 import move as game_move

    played = 0
    while max_moves is None or played < max_moves:
        if getattr(state, "is_game_over", False):
            return
        if stop_at_goal and has_won(state):
            return
        if should_stop is not None and should_stop():
            return
        per_move = time_limit
        if deadline is not None:
            left = deadline - monotonic()
            if left <= 0:
                return
            per_move = left if per_move is None else min(per_move, left)
        # Through hint (not hint_info): it is the hook other strategies replace; the new
        # keywords go only when used, so a replacement need not know them.
        extra: dict[str, Any] = {}
        if native is not None:
            extra["native"] = native
        if on_hint is not None:
            extra["report"] = on_hint
        direction = hint(
            state,
            depth=depth,
            time_budget_ms=time_budget_ms,
            time_limit=per_move,
            budget=budget,
            **extra,
        )
        if direction is None:
            return
        nxt = game_move(state, direction)
        if nxt is state:  # cannot happen for a hinted move; guards against an endless loop
            return
        state = nxt
        played += 1
        yield state
