"""The compiled loop of :mod:`core.longcat.native` (imported only when numba is installed).

Cells are numbered compactly (the board's empty cells, lowest board index first), a set of
cells is ``words`` 64-bit words, and a position is a row of ``words + 1`` int64 values: the
head's cell plus one, then the filled cells. See :mod:`core.longcat.native` for the design.
Module-level functions, so that numba's on-disk cache finds them again in the next process.
"""

# Compiled code: numba infers the types, so the signatures carry none (mypy skips them).
# mypy: ignore-errors

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from core.longcat import native as _host

CACHE = _host.cache_enabled()
"""Whether compiled code is cached on disk (see :func:`core.longcat.native.cache_enabled`)."""

TRUE, FALSE, LIMIT, PAUSE, FULL = _host.TRUE, _host.FALSE, _host.LIMIT, _host.PAUSE, _host.FULL


@njit(cache=CACHE)
def _has(row: Any, cell: Any) -> Any:  # pragma: no cover - compiled
    return (row[1 + (cell >> 6)] >> (cell & 63)) & 1


@njit(cache=CACHE)
def _slide(row: Any, d: Any, nb: Any, out: Any) -> Any:  # pragma: no cover - compiled
    # The head slides in direction d while the next cell is empty; False when it cannot
    # advance one cell. ``out`` gets the new position.
    h = row[0] - 1
    nxt = nb[d, h]
    if nxt < 0 or _has(row, nxt):
        return False
    for w in range(row.shape[0]):
        out[w] = row[w]
    while nxt >= 0 and not _has(out, nxt):
        out[1 + (nxt >> 6)] |= np.int64(1) << (nxt & 63)
        h = nxt
        nxt = nb[d, h]
    out[0] = h + 1
    return True


@njit(cache=CACHE)
def _won(row: Any, free: Any) -> Any:  # pragma: no cover - compiled
    # A loop, not all() over a generator: numba compiles plain loops.
    for w in range(free.shape[0]):  # noqa: SIM110 - numba compiles no generator
        if row[1 + w] != free[w]:
            return False
    return True


@njit(cache=CACHE)
def _hopeless(
    row: Any, nb: Any, black: Any, cells: Any, queue: Any, mark: Any
) -> Any:  # pragma: no cover - compiled
    # prune.is_hopeless in compact cells: parity, dead ends, split empty region.
    head = row[0] - 1
    diff = 0  # cells of the head's colour minus the others, over {head} ∪ empty
    lone = 0  # empty cells with fewer than two neighbours in {head} ∪ empty
    first = -1
    empty = 0
    head_black = black[head]
    for c in range(cells):
        if c != head and _has(row, c):
            continue
        diff += 1 if black[c] == head_black else -1
        if c == head:
            continue
        empty += 1
        if first < 0:
            first = c
        near = 0
        for d in range(4):
            n = nb[d, c]
            if n >= 0 and (n == head or not _has(row, n)):
                near += 1
        if near < 2:
            lone += 1
    if empty == 0:
        return False  # won: never hopeless
    if diff < 0 or diff > 1 or lone > 1:
        return True
    # Flood the empty cells from the first one (the head is filled: no connection).
    mark[:] = 0
    mark[first] = 1
    queue[0] = first
    top = 1
    seen = 1
    while top:
        top -= 1
        c = queue[top]
        for d in range(4):
            n = nb[d, c]
            if n >= 0 and n != head and not mark[n] and not _has(row, n):
                mark[n] = 1
                seen += 1
                queue[top] = n
                top += 1
    return seen != empty


@njit(cache=CACHE)
def _slot(keys: Any, row: Any) -> Any:  # pragma: no cover - compiled
    # Open addressing (linear probing); key column 0 is the head plus one, 0 = empty slot.
    h = np.uint64(row[0]) * np.uint64(0x9E3779B97F4A7C15)
    for w in range(1, row.shape[0]):
        h = (h ^ np.uint64(row[w])) * np.uint64(0x9E3779B97F4A7C15)
    mask = keys.shape[0] - 1
    i = np.int64((h ^ (h >> np.uint64(29))) & np.uint64(mask))
    while True:
        if keys[i, 0] == 0:
            return i
        same = True
        for w in range(row.shape[0]):
            if keys[i, w] != row[w]:
                same = False
                break
        if same:
            return i
        i = (i + 1) & mask


@njit(cache=CACHE)
def solvable(
    nb: Any, black: Any, free: Any, keys: Any, stack: Any, st: Any, max_states: Any
) -> Any:  # pragma: no cover - compiled
    """The depth-first search of ``core.longcat.solver.solvable_from``, resumable.

    ``st``: [seen, stack top, expanded, pause]; the search returns PAUSE at the top of the
    loop when ``expanded`` reaches a positive multiple of ``pause`` (0: never), TRUE, FALSE,
    LIMIT (more than ``max_states`` seen, -1: no limit) or FULL (the table would be more
    than half full after the next expansion; the caller grows it and calls again).
    """
    cells = nb.shape[1]
    queue = np.empty(cells, dtype=np.int64)
    mark = np.empty(cells, dtype=np.int8)
    moved = np.empty(keys.shape[1], dtype=np.int64)
    row = np.empty(keys.shape[1], dtype=np.int64)
    half = keys.shape[0] >> 1
    seen, top, expanded, pause = st[0], st[1], st[2], st[3]
    answer = FALSE
    while top:
        if pause and expanded and expanded % pause == 0 and st[4] != expanded:
            st[4] = expanded  # paused here once: the caller resumes past this check
            answer = PAUSE
            break
        if seen + 4 > half:  # one expansion adds up to four positions: grow first
            answer = FULL
            break
        top -= 1
        row[:] = stack[top]  # a copy: the pushes below reuse its slot
        expanded += 1
        won = False
        for d in range(4):
            if not _slide(row, d, nb, moved):
                continue
            i = _slot(keys, moved)
            if keys[i, 0] != 0:
                continue
            if _won(moved, free):
                won = True
                break
            keys[i, :] = moved
            seen += 1
            if not _hopeless(moved, nb, black, cells, queue, mark):
                stack[top, :] = moved
                top += 1
        if won:
            answer = TRUE
            break
        if max_states >= 0 and seen > max_states:
            answer = LIMIT
            break
    st[0], st[1], st[2] = seen, top, expanded
    return answer


@njit(cache=CACHE)
def rehash(old: Any, new: Any) -> None:  # pragma: no cover - compiled
    """Put every position of the table ``old`` into the larger empty table ``new``."""
    for i in range(old.shape[0]):
        if old[i, 0] != 0:
            new[_slot(new, old[i]), :] = old[i]
