"""The fast 2048 expectimax compiled to machine code with numba (optional).

This is the loop of :func:`core.game2048.ai._fast_searcher`, node for node: the same move
tables (:mod:`core.game2048.fastboard`), the same heuristic table, the same chance nodes,
the same probability cut, the same transposition table semantics (an entry is reused when
it was searched at least as deep; nothing is ever evicted) and the same node budget (one
unit per chance node entered, the search stops when fewer than zero are left). Float sums
are taken in the same order, so both paths give the same scores, bit for bit in practice
(the tests allow a float tolerance) and the same moves.

Why numba: it installs from wheels alone (CPython 3.11-3.13 on Linux, macOS and Windows), so
``pip install termarcade`` needs no compiler; a C extension would need one on every platform
without a prebuilt wheel. The price is the install (numba + llvmlite: about 45 MB of wheels,
~210 MB installed) and a JIT compile the first time a process searches (see
``docs/2048.md``). The compiled code is *not* cached on disk (``cache=False``): core does no
I/O, and numba's cache would write next to the installed source or, when that is read-only
(a served or system install), into the user's cache directory.

When numba is missing (or ``TERMARCADE_PURE_AI=1`` is set) :func:`available` is False and
the AI uses the pure-Python search.

The hash tables are open-addressed arrays keyed by the packed board (key 0 is "empty": a
chance node is always reached by a move, so its board is never empty). A table that fills
past half its size stops the search with :data:`FULL`; :func:`scores` then runs the same
search again with tables twice as large, so the answer never depends on the table size.
"""

from __future__ import annotations

import os
from time import perf_counter
from typing import Any

__all__ = ["CUT", "FULL", "OK", "PURE_ENV", "available", "scores", "warm_up"]

PURE_ENV = "TERMARCADE_PURE_AI"
"""Set this environment variable to 1 to force the pure-Python search."""

OK, CUT, FULL = 0, 1, 2
"""Status codes of the compiled search: done, stopped (budget or clock), a table is full."""

_CLOCK_EVERY = 1024
"""Chance nodes between two reads of the clock (a read leaves compiled code: ~1 µs)."""

_MIN_BITS = 12
"""log2 of the smallest hash table (4,096 slots)."""

numba: Any = None
np: Any = None


def _load() -> bool:
    """Import numba and numpy on first use (importing numba takes about a second, which a
    command that never searches should not pay).

    Returns:
        Whether the compiled search can be used in this process.
    """
    global numba, np
    if numba is not None:
        return True
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return False
    try:
        import numba as numba_module
        import numpy as numpy_module
    except ImportError:  # numba is optional: the pure search is the fallback
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


def _define() -> Any:
    """Compile-on-first-call definitions (only when numba imported).

    Returns:
        The ``_root`` function: ``(root, depth, tables..., state) -> status``.
    """
    njit = numba.njit
    mult = np.uint64(0x9E3779B97F4A7C15)

    @njit(cache=False, nogil=True, error_model="numpy")
    def _slot(keys: Any, key: Any) -> Any:  # pragma: no cover - compiled
        # Multiplicative hashing of the board (high bits folded down); linear probing.
        mask = np.uint64(keys.shape[0] - 1)
        h = key * mult
        i = np.int64((h ^ (h >> np.uint64(32))) & mask)
        while keys[i] != 0 and keys[i] != key:
            i = (i + 1) & (keys.shape[0] - 1)
        return i

    @njit(cache=False, nogil=True, error_model="numpy")
    def _transpose(x: Any) -> Any:  # pragma: no cover - compiled
        a1 = x & np.uint64(0xF0F00F0FF0F00F0F)
        a2 = x & np.uint64(0x0000F0F00000F0F0)
        a3 = x & np.uint64(0x0F0F00000F0F0000)
        a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
        b1 = a & np.uint64(0xFF00FF0000FF00FF)
        b2 = a & np.uint64(0x00FF00FF00000000)
        b3 = a & np.uint64(0x00000000FF00FF00)
        return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))

    @njit(cache=False, nogil=True, error_model="numpy")
    def _heur(b: Any, h: Any) -> Any:  # pragma: no cover - compiled
        m = np.uint64(0xFFFF)
        t = _transpose(b)
        return (
            h[b & m]
            + h[(b >> np.uint64(16)) & m]
            + h[(b >> np.uint64(32)) & m]
            + h[b >> np.uint64(48)]
            + h[t & m]
            + h[(t >> np.uint64(16)) & m]
            + h[(t >> np.uint64(32)) & m]
            + h[t >> np.uint64(48)]
        )

    @njit(cache=False, nogil=True, error_model="numpy")
    def _clock() -> float:  # pragma: no cover - compiled
        with numba.objmode(now="float64"):
            now = perf_counter()
        return now

    @njit(cache=False, nogil=True, error_model="numpy")
    def _chance(
        b, cprob, depth_left, tabs, heur, ranks, probs, threshold, tt, st, deadline
    ):  # pragma: no cover
        # st: [nodes left (or -1: no budget), status, tt entries, moves made, clock count]
        if deadline > 0.0:
            st[4] += 1
            if st[4] >= _CLOCK_EVERY:
                st[4] = 0
                if _clock() > deadline:
                    st[1] = CUT
                    return 0.0
        if st[0] >= 0:
            st[0] -= 1
            if st[0] < 0:
                st[1] = CUT
                return 0.0
        tt_keys, tt_depth, tt_val = tt
        i = _slot(tt_keys, b)
        if tt_keys[i] == b and tt_depth[i] >= depth_left:
            return tt_val[i]
        left_t, right_t, up_t, down_t = tabs
        m16 = np.uint64(0xFFFF)
        nxt = depth_left - 1
        n = 0
        for cell in range(16):
            if (b >> np.uint64(4 * cell)) & np.uint64(0xF) == 0:
                n += 1
        cp = cprob / n
        total = 0.0
        for cell in range(16):
            shift = np.uint64(4 * cell)
            if (b >> shift) & np.uint64(0xF) != 0:
                continue
            for k in range(ranks.shape[0]):
                p = probs[k]
                child = b | (np.uint64(ranks[k]) << shift)
                cpp = cp * p
                leaf = nxt <= 0 or cpp < threshold
                r0 = child & m16
                r1 = (child >> np.uint64(16)) & m16
                r2 = (child >> np.uint64(32)) & m16
                r3 = child >> np.uint64(48)
                t = _transpose(child)
                c0 = t & m16
                c1 = (t >> np.uint64(16)) & m16
                c2 = (t >> np.uint64(32)) & m16
                c3 = t >> np.uint64(48)
                best = 0.0
                st[3] += 4  # moves made (the bench's moves per second)
                for d in range(4):
                    if d == 0:
                        nb = (
                            up_t[c0]
                            | (up_t[c1] << np.uint64(4))
                            | (up_t[c2] << np.uint64(8))
                            | (up_t[c3] << np.uint64(12))
                        )
                    elif d == 1:
                        nb = (
                            down_t[c0]
                            | (down_t[c1] << np.uint64(4))
                            | (down_t[c2] << np.uint64(8))
                            | (down_t[c3] << np.uint64(12))
                        )
                    elif d == 2:
                        nb = (
                            left_t[r0]
                            | (left_t[r1] << np.uint64(16))
                            | (left_t[r2] << np.uint64(32))
                            | (left_t[r3] << np.uint64(48))
                        )
                    else:
                        nb = (
                            right_t[r0]
                            | (right_t[r1] << np.uint64(16))
                            | (right_t[r2] << np.uint64(32))
                            | (right_t[r3] << np.uint64(48))
                        )
                    if nb == child:
                        continue
                    if leaf:
                        # The pure search memoises this; recomputing it is cheaper here
                        # than a probe, and gives the same value.
                        v = _heur(nb, heur)
                    else:
                        v = _chance(
                            nb, cpp, nxt, tabs, heur, ranks, probs, threshold, tt, st, deadline
                        )
                        if st[1] != OK:
                            return 0.0
                    if v > best:
                        best = v
                total += p * best
        value = total / n
        # The slot may have moved since the probe: children inserted entries.
        i = _slot(tt_keys, b)
        if tt_keys[i] != b:
            tt_keys[i] = b
            st[2] += 1
            if 2 * st[2] > tt_keys.shape[0]:
                st[1] = FULL
                return 0.0
        tt_depth[i] = depth_left
        tt_val[i] = value
        return value

    @njit(cache=False, nogil=True, error_model="numpy")
    def _root(
        root, depth, tabs, heur, ranks, probs, threshold, tt, st, deadline, out
    ):  # pragma: no cover
        # out[d] = score of direction d (up, down, left, right), NaN when illegal.
        left_t, right_t, up_t, down_t = tabs
        m16 = np.uint64(0xFFFF)
        r0 = root & m16
        r1 = (root >> np.uint64(16)) & m16
        r2 = (root >> np.uint64(32)) & m16
        r3 = root >> np.uint64(48)
        t = _transpose(root)
        c0 = t & m16
        c1 = (t >> np.uint64(16)) & m16
        c2 = (t >> np.uint64(32)) & m16
        c3 = t >> np.uint64(48)
        for d in range(4):
            if d == 0:
                nb = up_t[c0] | (up_t[c1] << np.uint64(4)) | (up_t[c2] << np.uint64(8))
                nb = nb | (up_t[c3] << np.uint64(12))
            elif d == 1:
                nb = down_t[c0] | (down_t[c1] << np.uint64(4)) | (down_t[c2] << np.uint64(8))
                nb = nb | (down_t[c3] << np.uint64(12))
            elif d == 2:
                nb = left_t[r0] | (left_t[r1] << np.uint64(16)) | (left_t[r2] << np.uint64(32))
                nb = nb | (left_t[r3] << np.uint64(48))
            else:
                nb = right_t[r0] | (right_t[r1] << np.uint64(16)) | (right_t[r2] << np.uint64(32))
                nb = nb | (right_t[r3] << np.uint64(48))
            if nb == root:
                out[d] = np.nan
            elif depth <= 0:
                out[d] = _heur(nb, heur)
            else:
                out[d] = _chance(
                    nb, 1.0, depth, tabs, heur, ranks, probs, threshold, tt, st, deadline
                )
                if st[1] != OK:
                    return st[1]
        return OK

    return _root


_COMPILED: Any = None
_TABLES: Any = None
_SIZE_BITS = [_MIN_BITS]
"""log2 of the table size the last search needed (the next one starts there)."""


def _tables() -> Any:
    """The move tables and heuristic table as numpy arrays (built once per process)."""
    global _TABLES
    if _TABLES is None:
        from core.game2048 import ai
        from core.game2048 import fastboard as fb

        tabs = tuple(
            np.array(t, dtype=np.uint64)
            for t in (fb.ROW_LEFT, fb.ROW_RIGHT, fb.COL_UP, fb.COL_DOWN)
        )
        _TABLES = (tabs, np.array(ai.HEUR_TABLE, dtype=np.float64))
    return _TABLES


def _compiled() -> Any:
    """The compiled search (compiled on the first call in a process)."""
    global _COMPILED
    if _COMPILED is None:
        _COMPILED = _define()
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
    from core.game2048.fastboard import DIRECTIONS

    root_fn = _compiled()
    tabs, heur = _tables()
    ranks = np.array([r for r, _ in spawns], dtype=np.int64)
    probs = np.array([p for _, p in spawns], dtype=np.float64)
    out = np.zeros(4, dtype=np.float64)
    start_nodes = -1 if nodes_left is None else max(0, nodes_left)
    while True:
        tt = (
            np.zeros(1 << _SIZE_BITS[0], dtype=np.uint64),
            np.zeros(1 << _SIZE_BITS[0], dtype=np.int64),
            np.zeros(1 << _SIZE_BITS[0], dtype=np.float64),
        )
        st = np.array([start_nodes, OK, 0, 0, 0], dtype=np.int64)
        status = root_fn(
            np.uint64(board),
            depth,
            tabs,
            heur,
            ranks,
            probs,
            threshold,
            tt,
            st,
            -1.0 if deadline is None else deadline,
            out,
        )
        if status != FULL:
            break
        # A full table: grow the one that filled and search again from the same budget.
        _SIZE_BITS[0] += 1
    left = None if nodes_left is None else int(st[0])
    if status == CUT:
        return None, left
    result = {d: float(out[i]) for i, d in enumerate(DIRECTIONS) if out[i] == out[i]}
    return result, left


def warm_up() -> float:
    """Compile the search now (a served app can do this before the first hint).

    Returns:
        Seconds spent (0 when numba is not available).
    """
    if not available():
        return 0.0
    t0 = perf_counter()
    scores(0x1 | (0x1 << 4), 1, ((1, 0.9), (2, 0.1)), 1e-4, None, None)
    return perf_counter() - t0
