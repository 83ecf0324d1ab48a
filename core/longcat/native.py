"""Longcat's yes/no solver compiled to machine code with numba (optional).

Profiling (``docs/longcat.md``, "Native speed") put Longcat's time in the solver that
validates generated candidates (:func:`core.longcat.solver.solvable_from`: about half of
generation's CPU, most of it in its pruning tests), not in the state graph: a slide fills a
whole line, so the graphs stay small (at most a few hundred positions on the bundled and
generated levels) and :func:`core.longcat.graph.build_graph` takes well under a millisecond
per level. This module compiles that solver: the same depth-first search, node for node (the
same pop order, the same "seen" set, the same pruning: parity, dead ends, split region), so it
gives the same answer after the same number of expanded positions, and a work budget or a
state limit stops it at the same position as the pure search.

Why numba, as for 2048 (:mod:`core.game2048.native`): it installs from wheels alone, so no
compiler is needed; the pure-Python search stays the reference and the fallback (numba
missing, :data:`PURE_ENV` set, ``native=False``). The compiled loop is in
:mod:`core.longcat.native_kernel`, imported only on first use (importing numba takes about a
second) and cached on disk by numba like ``.pyc`` files (:func:`cache_enabled`).

Positions are held in compact form: the board's empty cells numbered from 0, a set of cells
as int64 words, a position as one row ``[head + 1, words...]``; the "seen" set is an
open-addressed table of such rows that grows (twice as large, re-hashed) when half full, so
memory grows with the positions seen only. The compiled loop cannot call Python: it stops
every 256 expanded positions (:data:`core.longcat.solver.BLOCK`) when there is a watch or a
cancel test, and the
wrapper spends the budget and polls the watch's deadline there, exactly where the pure search
does.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from time import perf_counter
from typing import TYPE_CHECKING, Any

from core import jit

if TYPE_CHECKING:  # pragma: no cover
    from core.longcat.level import Board
    from core.search import Watch

__all__ = [
    "CACHE_ENV",
    "PURE_ENV",
    "available",
    "cache_enabled",
    "geometry",
    "solvable_from",
    "warm_up",
]

PURE_ENV = "TERMARCADE_PURE_AI"
"""Set this environment variable to 1 to force the pure-Python searches (2048's too)."""

CACHE_ENV = jit.CACHE_ENV
"""Set this environment variable to 1 to keep numba from caching the compiled code."""

TRUE, FALSE, LIMIT, PAUSE, FULL = 0, 1, 2, 3, 4
"""Status codes of the compiled search."""

_MIN_ROWS = 1 << 8
"""Rows of the smallest table of seen positions."""

numba: Any = None
np: Any = None
_MISSING = [False]
_CACHE_REFUSED = [False]
_COMPILED: Any = None
_WARM = [False]
_GEOMETRY: dict[tuple[int, int, int], Any] = {}
_GEOMETRY_KEEP = 64
"""Boards whose compact geometry is kept (a generator tries many starts on one board)."""


def cache_enabled() -> bool:
    """Whether numba may cache the compiled code on disk (as :mod:`core.game2048.native`).

    Returns:
        False under ``python -B`` / ``PYTHONDONTWRITEBYTECODE``, with :data:`CACHE_ENV` set,
        or when numba found nowhere to write; else True.
    """
    return jit.cache_enabled(_CACHE_REFUSED)


def _forced_pure() -> bool:
    return os.environ.get(PURE_ENV, "") not in ("", "0")


def available() -> bool:
    """Whether the compiled solver can be used (numba importable, :data:`PURE_ENV` unset).

    Returns:
        True when :func:`solvable_from` may be called; the first call imports numba.
    """
    global numba, np
    if _forced_pure() or _MISSING[0]:
        return False
    if numba is None:
        try:
            import numba as numba_module
            import numpy as numpy_module
        except (ImportError, OSError):  # optional (OSError: llvmlite's library will not load)
            _MISSING[0] = True
            return False
        numba, np = numba_module, numpy_module
    return True


def warm() -> bool:
    """Whether :func:`warm_up` has compiled (or loaded) the solver in this process and it
    may be used now (the solver's automatic choice: a process that never asked pays nothing).

    Returns:
        True when the compiled solver is ready and not forced off.
    """
    return _WARM[0] and not _forced_pure()


def _kernel() -> Any:
    """The compiled module (compiled, or loaded from numba's cache, on first use)."""
    global _COMPILED
    if _COMPILED is None:
        _COMPILED = jit.import_kernel("core.longcat.native_kernel", _CACHE_REFUSED)
    return _COMPILED


def geometry(board: Board) -> tuple[dict[int, int], Any, Any, Any]:
    """The compact geometry of ``board`` (kept for the last boards asked).

    Args:
        board: The level's geometry.

    Returns:
        ``(cell of each empty board index, neighbours [4, cells] (-1: wall or edge),
        colour of each cell (1: black), the words of the set of every cell)``.
    """
    key = (board.width, board.height, board.free)
    got = _GEOMETRY.get(key)
    if got is not None:
        return got
    from core.longcat.level import bits

    order = list(bits(board.free))
    cell = {i: c for c, i in enumerate(order)}
    s = board.stride
    nb = np.full((4, max(1, len(order))), -1, dtype=np.int64)
    for c, i in enumerate(order):
        for d, j in enumerate((i - s, i + s, i - 1, i + 1)):  # DIRECTIONS order
            nb[d, c] = cell.get(j, -1)
    black = np.array([board.black >> i & 1 for i in order] or [0], dtype=np.int8)
    free = _words((1 << len(order)) - 1, _n_words(len(order)))
    if len(_GEOMETRY) >= _GEOMETRY_KEEP:
        _GEOMETRY.pop(next(iter(_GEOMETRY)))
    got = (cell, nb, black, free)
    _GEOMETRY[key] = got
    return got


def _n_words(cells: int) -> int:
    return max(1, (cells + 63) // 64)


def _words(mask: int, n: int) -> Any:
    """A compact cell set as ``n`` int64 words (bit 63 stored as the word's sign)."""
    out = np.zeros(n, dtype=np.int64)
    for w in range(n):
        part = mask >> (64 * w) & 0xFFFFFFFFFFFFFFFF
        out[w] = part - (1 << 64) if part >> 63 else part
    return out


def _start_row(cell: dict[int, int], head: int, filled: int, n: int) -> Any:
    """The row of a position given in board indices."""
    compact = 0
    if filled == 1 << head:  # a start (every call of the generators): one cell
        compact = 1 << cell[head]
    else:
        for i, c in cell.items():
            if filled >> i & 1:
                compact |= 1 << c
    row = np.empty(n + 1, dtype=np.int64)
    row[0] = cell[head] + 1
    row[1:] = _words(compact, n)
    return row


def solvable_from(
    board: Board,
    head: int,
    filled: int,
    *,
    max_states: int | None = None,
    should_stop: Callable[[], bool] | None = None,
    watch: Watch | None = None,
    spend: Callable[[Watch, int], bool],
    block: int = 256,
) -> tuple[bool | None, int]:
    """The search of :func:`core.longcat.solver.solvable_from` after its first tests (the
    start is neither won nor hopeless), compiled.

    Args:
        board: The grid's geometry.
        head: Board index of the head (an empty cell of the board).
        filled: Mask of the filled cells (board indices).
        max_states: Position limit (None: none), as the pure search counts it.
        should_stop: Cancellation test, polled every ``block`` expanded positions.
        watch: Work budget and deadline, spent and polled where the pure search does.
        spend: The pure search's ``spend(watch, positions) -> still going``.
        block: Positions between two spends (the pure search's block).

    Returns:
        ``(answer, expanded)``: True, False or None (a limit stopped it), and the positions
        expanded.
    """
    kernel = _kernel()
    cell, nb, black, free = geometry(board)
    rows = _MIN_ROWS
    keys = np.zeros((rows, free.shape[0] + 1), dtype=np.int64)
    stack = np.zeros_like(keys)
    start = _start_row(cell, head, filled, free.shape[0])
    keys[kernel._slot(keys, start)] = start
    stack[0] = start
    pause = block if watch is not None or should_stop is not None else 0
    st = np.array([1, 1, 0, pause, -1], dtype=np.int64)
    limit = -1 if max_states is None else max_states
    while True:
        status = kernel.solvable(nb, black, free, keys, stack, st, limit)
        if status == FULL:
            rows *= 2
            bigger = np.zeros((rows, keys.shape[1]), dtype=np.int64)
            kernel.rehash(keys, bigger)
            stack = np.concatenate((stack, np.zeros_like(stack)))
            keys = bigger
            continue
        if status != PAUSE:
            break
        if should_stop is not None and should_stop():
            return None, int(st[2])
        if watch is not None and not spend(watch, block):
            return None, int(st[2])
    expanded = int(st[2])
    if status == LIMIT:
        return None, expanded
    return status == TRUE, expanded


def warm_up() -> float:
    """Compile the solver (or load it from numba's cache) now, once per process; from then
    on :func:`core.longcat.solver.solvable_from` uses it by itself.

    Returns:
        Seconds spent (0 when already done, or when numba is not available).
    """
    if _WARM[0] or not available():
        return 0.0
    from core.longcat.level import Level

    t0 = perf_counter()
    level = Level(3, 2, 0, (0, 0))  # solvable: every part of the loop runs
    solvable_from(level.board, level.start_index, 1 << level.start_index, spend=lambda w, n: True)
    # The table's growth too (a search of more than 128 positions): compiled now, not
    # inside the first large search.
    _kernel().rehash(np.zeros((2, 2), dtype=np.int64), np.zeros((4, 2), dtype=np.int64))
    _WARM[0] = True
    return perf_counter() - t0
