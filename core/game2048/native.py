"""The fast 2048 expectimax compiled to machine code with numba (optional).

This is the loop of :func:`core.game2048.ai._fast_searcher`, node for node: the same move
tables (:mod:`core.game2048.fastboard`), the same heuristic table, the same chance nodes,
the same probability cut, the same transposition table semantics (an entry is reused when
it was searched at least as deep; nothing is ever evicted) and the same node budget (one
unit per chance node entered, the search stops when fewer than zero are left). Float sums
are taken in the same order, so both paths give the same scores, bit for bit in practice
(the tests allow a float tolerance) and the same moves.

Why numba: it installs from wheels alone (Linux, macOS and Windows), so ``pip install
termarcade`` needs no compiler; a C extension would need one on every platform without a
prebuilt wheel. The price is the install (numba 3.8 MB + llvmlite 60 MB of wheels, ~210 MB
installed) and a JIT compile the first time a process searches, done before the hint's clock
starts (:func:`warm_up`; figures in ``docs/2048.md``). The loop itself is in
:mod:`core.game2048.native_kernel`, imported only then. numba caches the compiled code on
disk like Python's ``.pyc`` files and under the same switch (:func:`cache_enabled`): this
package opens no file itself; numba writes next to the installed source or, where that is
read-only (a system or served install), into the user's cache directory.

When numba is missing (or ``TERMARCADE_PURE_AI=1`` is set) :func:`available` is False and
the AI uses the pure-Python search.

The hash tables are open-addressed arrays keyed by the packed board (key 0 is "empty": a
chance node is always reached by a move, so its board is never empty). A table that fills
past half its size stops the search with :data:`FULL`; :func:`scores` then runs the same
search again with tables twice as large, so the answer never depends on the table size.
"""

from __future__ import annotations

import os
import threading
from functools import lru_cache
from time import perf_counter
from typing import Any

from core import jit
from core.game2048.fastboard import DIRECTIONS

__all__ = [
    "CACHE_ENV",
    "CUT",
    "FULL",
    "OK",
    "PURE_ENV",
    "available",
    "cache_enabled",
    "read_clock",
    "scores",
    "warm_up",
]

PURE_ENV = "TERMARCADE_PURE_AI"
"""Set this environment variable to 1 to force the pure-Python search."""

OK, CUT, FULL = 0, 1, 2
"""Status codes of the compiled search: done, stopped (budget or clock), a table is full."""

CLOCK_EVERY = 1024
"""Chance nodes between two reads of the clock (a read leaves compiled code: ~1 µs)."""

CACHE_ENV = jit.CACHE_ENV
"""Set this environment variable to 1 to keep numba from caching the compiled search."""

_CACHE_REFUSED = [False]
"""Set when numba found no writable place for its cache (the next import compiles only)."""


def cache_enabled() -> bool:
    """Whether numba may cache the compiled search on disk (``cache=True``).

    Like Python's own bytecode cache, and off when that is (``python -B``,
    ``PYTHONDONTWRITEBYTECODE``) or when :data:`CACHE_ENV` is set. numba writes it next to
    the installed module (``__pycache__``) or, where that is read-only (a system or served
    install), in the user's cache directory (``NUMBA_CACHE_DIR`` overrides both).

    Returns:
        True to cache.
    """
    return jit.cache_enabled(_CACHE_REFUSED)


_MIN_BITS = 12
"""log2 of the smallest hash table (4,096 slots)."""

numba: Any = None
np: Any = None
_MISSING = [False]
"""Set when importing numba failed (the process does not try again)."""


def _load() -> bool:
    """Import numba and numpy on first use (importing numba takes about a second, which a
    command that never searches should not pay).

    Returns:
        Whether the compiled search can be used in this process.
    """
    global numba, np
    if numba is not None:
        return True
    if _MISSING[0] or os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False
    try:
        import numba as numba_module
        import numpy as numpy_module
    except (ImportError, OSError):  # optional (OSError: llvmlite's library will not load)
        _MISSING[0] = True  # not again at every hint
        return False
    numba, np = numba_module, numpy_module
    return True


def available() -> bool:
    """Whether the compiled search can be used (numba importable, not forced off).

    Returns:
        True when :func:`scores` may be called; the first call imports numba.
    """
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False
    return _load()


def read_clock() -> float:
    """``perf_counter()``, looked up when called (the compiled code freezes the globals it
    names; this indirection lets a test substitute a deterministic clock).

    Returns:
        The clock's reading in seconds.
    """
    return perf_counter()


RESTARTS = [0]
"""Searches run again with a larger table in this process (see :func:`scores`)."""

MOVES_MADE = [0]
"""Moves the compiled search has made in this process (the bench's moves per second)."""

_WARM = [False]
"""Whether :func:`warm_up` has run in this process."""

_COMPILED: Any = None
_TABLES: Any = None
_SIZE_BITS = [_MIN_BITS]
"""log2 of the table size the next search starts with (see the end of :func:`scores`)."""


def _tables() -> Any:
    """The move tables and heuristic table as numpy arrays (built once per process)."""
    global _TABLES
    if _TABLES is None:
        from core.game2048 import ai
        from core.game2048 import fastboard as fb

        # 16-bit rows (as nneonneo's program keeps them): up and down spread the moved
        # column back with shifts, so the tables take 256 kB of cache rather than 2 MB.
        tabs = tuple(np.array(t, dtype=np.uint16) for t in (fb.ROW_LEFT, fb.ROW_RIGHT))
        _TABLES = (tabs, np.array(ai.HEUR_TABLE, dtype=np.float64))
    return _TABLES


def _compiled() -> Any:
    """The compiled search (compiled, or loaded from numba's cache, on the first call)."""
    global _COMPILED
    if _COMPILED is None:
        _COMPILED = jit.import_kernel("core.game2048.native_kernel", _CACHE_REFUSED).root
    return _COMPILED


def scores(
    board: int,
    depth: int,
    spawns: tuple[tuple[int, float], ...],
    threshold: float,
    deadline: float | None,
    nodes_left: int | None,
) -> tuple[dict[str, float] | None, int | None]:
    """Expected heuristic value of each legal move (the compiled search).

    Args:
        board: A packed 4×4 board.
        depth: Spawns to look ahead (already clamped by the caller).
        spawns: ``(rank, probability)`` of each new tile.
        threshold: Probability below which a chance branch is scored by the heuristic.
        deadline: A ``perf_counter`` time after which the search gives up, or None.
        nodes_left: Chance nodes the search may still enter, or None for no budget.

    Returns:
        ``(scores, nodes_left)``: the scores by direction (as the pure search returns them)
        or None when the deadline or the budget cut the search, and the nodes left after it
        (None when there was no budget).
    """
    root_fn = _compiled()
    (left_t, right_t), heur = _tables()
    ranks, probs = _spawn_arrays(spawns)
    space = _workspace()
    st, out = space.st, space.out
    start_nodes = -1 if nodes_left is None else max(0, nodes_left)
    if deadline is None:
        deadline = -1.0
    elif read_clock() > deadline:
        return None, nodes_left  # out of time before it starts (e.g. compiling took it)
    packed = np.uint64(board)
    while True:
        # The clock count starts one short of a read: the first chance node reads the clock.
        st[:] = (start_nodes, OK, 0, 0, CLOCK_EVERY - 1)
        keys, depths, values, used = space.table(_SIZE_BITS[0])
        status = root_fn(
            packed, depth, left_t, right_t, heur, ranks, probs, threshold,
            keys, depths, values, used, st, deadline, out,
        )  # fmt: skip
        if status != FULL:
            break
        # A full table: grow the one that filled and search again from the same budget.
        _SIZE_BITS[0] += 1
        RESTARTS[0] += 1
    left, _, entries, moves, _ = st.tolist()
    MOVES_MADE[0] += moves
    # The next search (most likely the next move's, of a similar size) starts with a table
    # a quarter full at this one's size: not the largest ever needed, whose slots a small
    # search would then spread over more of the cache.
    _SIZE_BITS[0] = max(_MIN_BITS, (4 * entries).bit_length())
    if nodes_left is None:
        left = None
    if status == CUT:
        return None, left
    return {d: v for d, v in zip(DIRECTIONS, out.tolist()) if v == v}, left


class _Workspace(threading.local):
    """One thread's arrays for the compiled search, reused from search to search.

    A shallow search costs a few microseconds; allocating and zeroing its arrays cost more.
    So each thread keeps them: the status and score arrays, and a transposition table of
    each size it has needed (the compiled search empties the slots it filled before it
    returns). Per thread, because two threads' searches (a served app's hint and its
    autoplay) must not share arrays; the tables are bounded by the largest search's (and so
    by its work budget) and freed with the thread.
    """

    def __init__(self) -> None:
        self.st = np.zeros(5, dtype=np.int64)
        """Nodes left, status, table entries, moves made, clock count (see the kernel)."""
        self.out = np.zeros(4, dtype=np.float64)
        """The moves' scores (NaN for an illegal move)."""
        self.tables: dict[int, tuple[Any, ...]] = {}
        """Empty transposition tables by log2 of their size: keys, depths, values, and the
        list of slots filled (at most half the slots: a fuller table stops the search)."""

    def table(self, bits: int) -> tuple[Any, ...]:
        """An empty transposition table of ``2**bits`` slots.

        Args:
            bits: log2 of the number of slots.

        Returns:
            ``(keys, depths, values, filled)``: the arrays the compiled search takes.
        """
        found = self.tables.get(bits)
        if found is None:
            size = 1 << bits
            found = (
                np.zeros(size, dtype=np.uint64),
                np.zeros(size, dtype=np.int64),
                np.zeros(size, dtype=np.float64),
                np.zeros(size // 2 + 1, dtype=np.int64),
            )
            self.tables[bits] = found
        return found


_WORKSPACE: list[Any] = []
"""The :class:`_Workspace` (a thread-local object), made on the first search."""


def _workspace() -> _Workspace:
    """This thread's arrays for the compiled search (see :class:`_Workspace`)."""
    if not _WORKSPACE:
        _WORKSPACE.append(_Workspace())
    return _WORKSPACE[0]


@lru_cache(maxsize=16)
def _spawn_arrays(spawns: tuple[tuple[int, float], ...]) -> tuple[Any, Any]:
    """The new tiles' ranks and probabilities as the compiled search takes them.

    Args:
        spawns: ``(rank, probability)`` of each new tile (a game rule's few, so cached).

    Returns:
        ``(ranks, probabilities)``: read-only numpy arrays.
    """
    ranks = np.array([r for r, _ in spawns], dtype=np.int64)
    probs = np.array([p for _, p in spawns], dtype=np.float64)
    ranks.flags.writeable = probs.flags.writeable = False
    return ranks, probs


def warm_up() -> float:
    """Compile the search (or load it from numba's cache) now, once per process.

    :func:`core.game2048.ai.search_fast` calls it before it starts a hint's clock: the
    compile is the process's set-up, not the hint's search, and counting it would cut the
    first hint of every process short (a served app's first hint in particular).

    Returns:
        Seconds spent (0 when already done, or when numba is not available).
    """
    if _WARM[0] or not available():
        return 0.0
    t0 = perf_counter()
    scores(0x1 | (0x1 << 4), 1, ((1, 0.9), (2, 0.1)), 1e-4, None, None)
    _WARM[0] = True
    return perf_counter() - t0
