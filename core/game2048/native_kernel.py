"""The compiled loop of :mod:`core.game2048.native` (imported only when numba is installed).

Module-level functions, so that numba's on-disk cache can find them again in the next
process (closures get a new identity each time and miss the cache); see
:mod:`core.game2048.native` for the design and the cache policy.
"""

# Compiled code: numba infers the types, so the signatures carry none (mypy skips them).
# mypy: ignore-errors

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba import njit

from core.game2048 import native as _host

CACHE = _host.cache_enabled()
"""Whether compiled code is cached on disk (see :func:`core.game2048.native.cache_enabled`)."""

OK, CUT, FULL = _host.OK, _host.CUT, _host.FULL
_CLOCK_EVERY = _host.CLOCK_EVERY
_MULT = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=CACHE, error_model="numpy")
def _slot(keys: Any, key: Any) -> Any:  # pragma: no cover - compiled
    # Multiplicative hashing of the board (high bits folded down); linear probing.
    mask = np.uint64(keys.shape[0] - 1)
    h = key * _MULT
    i = np.int64((h ^ (h >> np.uint64(32))) & mask)
    while keys[i] != 0 and keys[i] != key:
        i = (i + 1) & (keys.shape[0] - 1)
    return i


@njit(cache=CACHE, error_model="numpy")
def _transpose(x: Any) -> Any:  # pragma: no cover - compiled
    a1 = x & np.uint64(0xF0F00F0FF0F00F0F)
    a2 = x & np.uint64(0x0000F0F00000F0F0)
    a3 = x & np.uint64(0x0F0F00000F0F0000)
    a = a1 | (a2 << np.uint64(12)) | (a3 >> np.uint64(12))
    b1 = a & np.uint64(0xFF00FF0000FF00FF)
    b2 = a & np.uint64(0x00FF00FF00000000)
    b3 = a & np.uint64(0x00000000FF00FF00)
    return b1 | (b2 >> np.uint64(24)) | (b3 << np.uint64(24))


@njit(cache=CACHE, error_model="numpy")
def _spread(row: Any) -> Any:  # pragma: no cover - compiled
    # A moved column (a 16-bit row of the left/right table) put back into column 0.
    x = np.uint64(row)
    return (
        (x & np.uint64(0xF))
        | ((x & np.uint64(0xF0)) << np.uint64(12))
        | ((x & np.uint64(0xF00)) << np.uint64(24))
        | ((x & np.uint64(0xF000)) << np.uint64(36))
    )


@njit(cache=CACHE, error_model="numpy")
def _moves(b: Any, left_t: Any, right_t: Any) -> Any:  # pragma: no cover - compiled
    # The board after each move, in the order up, down, left, right (the pure search's
    # DIRECTIONS): rows through the left/right tables, columns through them transposed.
    m16 = np.uint64(0xFFFF)
    r0 = b & m16
    r1 = (b >> np.uint64(16)) & m16
    r2 = (b >> np.uint64(32)) & m16
    r3 = b >> np.uint64(48)
    t = _transpose(b)
    c0 = t & m16
    c1 = (t >> np.uint64(16)) & m16
    c2 = (t >> np.uint64(32)) & m16
    c3 = t >> np.uint64(48)
    up = (
        _spread(left_t[c0])
        | (_spread(left_t[c1]) << np.uint64(4))
        | (_spread(left_t[c2]) << np.uint64(8))
        | (_spread(left_t[c3]) << np.uint64(12))
    )
    down = (
        _spread(right_t[c0])
        | (_spread(right_t[c1]) << np.uint64(4))
        | (_spread(right_t[c2]) << np.uint64(8))
        | (_spread(right_t[c3]) << np.uint64(12))
    )
    left = (
        np.uint64(left_t[r0])
        | (np.uint64(left_t[r1]) << np.uint64(16))
        | (np.uint64(left_t[r2]) << np.uint64(32))
        | (np.uint64(left_t[r3]) << np.uint64(48))
    )
    right = (
        np.uint64(right_t[r0])
        | (np.uint64(right_t[r1]) << np.uint64(16))
        | (np.uint64(right_t[r2]) << np.uint64(32))
        | (np.uint64(right_t[r3]) << np.uint64(48))
    )
    return (up, down, left, right)


@njit(cache=CACHE, error_model="numpy")
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


@njit(cache=CACHE, error_model="numpy")
def _count_empty(x: Any) -> Any:  # pragma: no cover - compiled
    # Empty cells (zero nibbles) by bit tricks, as nneonneo's count_empty: each nibble
    # becomes 1 when it was 0, then the nibbles are summed (a board is never all empty).
    x |= (x >> np.uint64(2)) & np.uint64(0x3333333333333333)
    x |= x >> np.uint64(1)
    x = ~x & np.uint64(0x1111111111111111)
    x += x >> np.uint64(32)
    x += x >> np.uint64(16)
    x += x >> np.uint64(8)
    x += x >> np.uint64(4)
    return np.int64(x & np.uint64(0xF))


@njit(cache=CACHE, error_model="numpy")
def _clock() -> float:  # pragma: no cover - compiled
    with numba.objmode(now="float64"):
        now = _host.read_clock()
    return now


@njit(cache=CACHE, error_model="numpy")
def chance(
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
    tt_keys, tt_depth, tt_val = tt[0], tt[1], tt[2]
    i = _slot(tt_keys, b)
    if tt_keys[i] == b and tt_depth[i] >= depth_left:
        return tt_val[i]
    left_t, right_t = tabs
    nxt = depth_left - 1
    n = _count_empty(b)
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
            best = 0.0
            st[3] += 4  # moves made (the bench's moves per second)
            moved = _moves(child, left_t, right_t)
            for d in range(4):
                nb = moved[d]
                if nb == child:
                    continue
                if leaf:
                    # The pure search memoises this; recomputing it is cheaper here
                    # than a probe, and gives the same value.
                    v = _heur(nb, heur)
                else:
                    v = chance(nb, cpp, nxt, tabs, heur, ranks, probs, threshold, tt, st, deadline)
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
        tt[3][st[2]] = i  # remembered, so that root can empty the table slot by slot
        st[2] += 1
        if 2 * st[2] > tt_keys.shape[0]:
            st[1] = FULL
            return 0.0
    tt_depth[i] = depth_left
    tt_val[i] = value
    return value


@njit(cache=CACHE, error_model="numpy")
def _search(
    root, depth, tabs, heur, ranks, probs, threshold, tt, st, deadline, out
):  # pragma: no cover
    # out[d] = score of direction d (up, down, left, right), NaN when illegal.
    left_t, right_t = tabs
    moved = _moves(root, left_t, right_t)
    for d in range(4):
        nb = moved[d]
        if nb == root:
            out[d] = np.nan
        elif depth <= 0:
            out[d] = _heur(nb, heur)
        else:
            out[d] = chance(nb, 1.0, depth, tabs, heur, ranks, probs, threshold, tt, st, deadline)
            if st[1] != OK:
                return st[1]
    return OK


@njit(cache=CACHE, error_model="numpy")
def root(
    board,
    depth,
    left_t,
    right_t,
    heur,
    ranks,
    probs,
    threshold,
    keys,
    depths,
    values,
    used,
    st,
    deadline,
    out,
):  # pragma: no cover
    # Arrays come one by one, not in tuples: numba checks a tuple's type in Python at every
    # call, an array's in C (a shallow search is over in a few microseconds).
    tabs = (left_t, right_t)
    tt = (keys, depths, values, used)
    status = _search(board, depth, tabs, heur, ranks, probs, threshold, tt, st, deadline, out)
    # The table is emptied slot by slot (used lists the slots filled): the next search
    # reuses it without zeroing every slot, which costs more than a shallow search itself.
    for k in range(st[2]):
        keys[used[k]] = 0
    return status
