"""Algorithmic masks (seed 003, method C): cellular automata, BSP dungeons, grid carving,
random fractal subdivision and the flood-fill notch generator.

Every function takes a seeded ``random.Random`` and returns a :data:`core.longcat.masks.Mask`
(``mask[y][x]`` True for an empty cell); all traversals are iterative. The start cell is
chosen later by the solver (:mod:`core.longcat.generate`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from core.longcat.level import Board, bits
from core.longcat.masks import Mask, largest_component

__all__ = ["bsp_mask", "ca_mask", "carve_mask", "fractal_mask", "notch_mask"]


def _freeze(canvas: list[list[bool]]) -> Mask:
    return tuple(tuple(r) for r in canvas)


def ca_mask(
    rng: random.Random, width: int, height: int, fill: float = 0.55, steps: int = 1
) -> Mask:
    """Cellular automaton caves: random cells, then smoothing, then the largest region.

    Each cell starts empty with probability ``fill``. A smoothing step makes a cell empty
    when at least 5 of the 9 cells of its 3x3 block are empty (outside counts as wall),
    and a wall otherwise (the usual 4-5 cave rule).

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        fill: Initial probability of an empty cell.
        steps: Smoothing steps.

    Returns:
        The largest 4-connected region of the result.
    """
    grid = [[rng.random() < fill for _ in range(width)] for _ in range(height)]
    for _ in range(steps):
        nxt = [[False] * width for _ in range(height)]
        for y in range(height):
            for x in range(width):
                count = sum(
                    grid[ny][nx]
                    for ny in range(max(0, y - 1), min(height, y + 2))
                    for nx in range(max(0, x - 1), min(width, x + 2))
                )
                nxt[y][x] = count >= 5
        grid = nxt
    return largest_component(_freeze(grid))


def bsp_mask(rng: random.Random, width: int, height: int, min_leaf: int = 4) -> Mask:
    """A BSP dungeon: split the grid into leaves, put a room in each, join sibling rooms.

    The grid rectangle is split along its longer side (at a random position leaving at
    least ``min_leaf`` cells each side) until no side can be split; each leaf gets a room
    (a random rectangle inside it) and the two halves of every split are joined by an
    L-shaped corridor between random cells of a room on each side.

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        min_leaf: Smallest side of a leaf (>= 1).

    Returns:
        The mask (connected by construction).
    """
    grid = [[False] * width for _ in range(height)]
    min_leaf = max(1, min_leaf)
    rooms: dict[int, list[tuple[int, int]]] = {}
    # Nodes: (x, y, w, h, parent); splits are recorded to be joined after the rooms exist.
    nodes = [(0, 0, width, height)]
    children: dict[int, tuple[int, int]] = {}
    stack = [0]
    while stack:
        k = stack.pop()
        x, y, w, h = nodes[k]
        vertical = w > h if w != h else rng.random() < 0.5
        side = w if vertical else h
        if side < 2 * min_leaf:
            vertical = not vertical
            side = w if vertical else h
        if side < 2 * min_leaf:
            rooms[k] = _room(rng, grid, x, y, w, h)
            continue
        cut = rng.randint(min_leaf, side - min_leaf)
        a = (x, y, cut, h) if vertical else (x, y, w, cut)
        b = (x + cut, y, w - cut, h) if vertical else (x, y + cut, w, h - cut)
        children[k] = (len(nodes), len(nodes) + 1)
        nodes.extend((a, b))
        stack.extend(children[k])
    # Join bottom-up: a parent's cells are the union of its children's room cells.
    for k in sorted(children, reverse=True):
        left, right = children[k]
        _corridor(rng, grid, rng.choice(rooms[left]), rng.choice(rooms[right]))
        rooms[k] = rooms[left] + rooms[right]
    return _freeze(grid)


def _room(rng: random.Random, grid: list[list[bool]], x: int, y: int, w: int, h: int):
    rw, rh = rng.randint(max(1, w // 2), w), rng.randint(max(1, h // 2), h)
    rx, ry = x + rng.randint(0, w - rw), y + rng.randint(0, h - rh)
    cells = [(cx, cy) for cy in range(ry, ry + rh) for cx in range(rx, rx + rw)]
    for cx, cy in cells:
        grid[cy][cx] = True
    return cells


def _corridor(
    rng: random.Random, grid: list[list[bool]], a: tuple[int, int], b: tuple[int, int]
) -> None:
    (ax, ay), (bx, by) = a, b
    corner = (bx, ay) if rng.random() < 0.5 else (ax, by)
    for (x0, y0), (x1, y1) in ((a, corner), (corner, b)):
        for x in range(min(x0, x1), max(x0, x1) + 1):
            for y in range(min(y0, y1), max(y0, y1) + 1):
                grid[y][x] = True


def carve_mask(rng: random.Random, width: int, height: int, density: float = 0.45) -> Mask:
    """Grid carving: start from a grid of empty cells and carve walls into it one at a time.

    A random cell becomes a wall only if the empty cells stay one 4-connected region and at
    most two of them have fewer than two empty neighbours (a Hamiltonian path has two ends:
    more dead ends can never be filled). Cells are tried in random order, pass after pass,
    until ``density`` of the grid is walls or no cell can go. Then, while the two
    chessboard colours differ by more than one cell (the path alternates colours, so a
    larger difference is unsolvable), cells of the surplus colour are carved under the same
    rule, pass after pass in the same order; when none can go, the mask is returned
    unbalanced (and no start will solve it).

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        density: Target fraction of wall cells.

    Returns:
        The mask.
    """
    board = Board.build(width, height, 0)
    order = list(bits(board.free))
    rng.shuffle(order)
    cells = width * height - int(density * width * height)
    free = _carve_until(
        board, board.free, order, lambda f: f.bit_count() <= cells, lambda f, i: True
    )
    return _balanced_mask(board, free, order, width, height)


def _balanced_mask(board: Board, free: int, order: list[int], width: int, height: int) -> Mask:
    """The mask of ``free`` after walling cells of the larger chessboard colour (pass after
    pass, in ``order``, as :func:`_carve` allows) while the colours differ by more than one
    (a solution alternates colours)."""

    def balance(f: int) -> int:
        return 2 * (f & board.black).bit_count() - f.bit_count()

    free = _carve_until(
        board,
        free,
        order,
        lambda f: abs(balance(f)) <= 1,
        lambda f, i: bool(board.black >> i & 1) == (balance(f) > 0),
    )
    return tuple(
        tuple(bool(free >> (y * board.stride + x) & 1) for x in range(width)) for y in range(height)
    )


def _carve_until(
    board: Board,
    free: int,
    order: list[int],
    done: Callable[[int], bool],
    eligible: Callable[[int, int], bool],
) -> int:
    """Carve eligible cells (pass after pass, in ``order``) until ``done`` or no change."""
    before = -1
    while free != before and not done(free):
        before = free
        for i in order:
            if done(free):
                break
            if free >> i & 1 and eligible(free, i):
                free = _carve(board, free, i)
    return free


def _carve(board: Board, free: int, i: int) -> int:
    """``free`` without cell ``i`` when that keeps it connected with at most two dead ends."""
    trial = free & ~(1 << i)
    if trial and board.is_connected(trial) and _dead_ends(board, trial) <= 2:
        return trial
    return free


def _dead_ends(board: Board, free: int) -> int:
    """Empty cells with fewer than two empty 4-neighbours."""
    s = board.stride
    a, b, c, d = free << 1, free >> 1, free << s, free >> s
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return (free & ~two).bit_count()


def fractal_mask(
    rng: random.Random,
    width: int,
    height: int,
    depth: int = 3,
    split_prob: float = 0.7,
    fill: float = 0.65,
) -> Mask:
    """Random fractal subdivision: split rectangles into four quadrants at random points,
    level by level; each final rectangle is empty with probability ``fill``.

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        depth: Most levels of subdivision.
        split_prob: Probability that a rectangle (of at least 2x2) is split again.
        fill: Probability that a final rectangle is empty.

    Returns:
        The largest 4-connected region of the result.
    """
    grid = [[False] * width for _ in range(height)]
    stack = [(0, 0, width, height, 0)]
    while stack:
        x, y, w, h, level = stack.pop()
        if level < depth and w >= 2 and h >= 2 and (level == 0 or rng.random() < split_prob):
            cx, cy = rng.randint(1, w - 1), rng.randint(1, h - 1)
            stack.extend(
                (
                    (x, y, cx, cy, level + 1),
                    (x + cx, y, w - cx, cy, level + 1),
                    (x, y + cy, cx, h - cy, level + 1),
                    (x + cx, y + cy, w - cx, h - cy, level + 1),
                )
            )
        elif rng.random() < fill:
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    grid[yy][xx] = True
    return largest_component(_freeze(grid))


def notch_mask(
    rng: random.Random,
    width: int,
    height: int,
    density: float = 0.45,
    size: int = 6,
    straight: float = 0.9,
    tries: int = 200,
) -> Mask:
    """The flood-fill notch generator (seed 003's "Flood-fill 型凹槽产生器"): notches grown
    into an open grid from its rim by a random flood fill.

    Start with every cell empty. A notch starts at a random rim cell (an empty cell on the
    grid's edge or next to a wall: notches cut in from the outside or widen earlier ones)
    and grows as a random flood fill up to ``size`` cells: each step walls an empty neighbour
    of the notch, the cell straight on from the last one with probability ``straight`` (so
    notches are grooves), else a random one. A notch is kept only while the empty cells stay one 4-connected
    region with at most two dead ends (cells with fewer than two empty neighbours: a
    solution has two ends); otherwise it is undone from its last cell until that holds.
    Notches are grown until ``density`` of the grid is walls or ``tries`` notches were
    tried; then, as :func:`carve_mask` does, cells of the larger chessboard colour are walled
    (same rule) while the colours differ by more than one (a solution alternates colours).

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        density: Target share of wall cells.
        size: Most cells of one notch.
        straight: Probability that a notch grows straight on.
        tries: Most notches tried.

    Returns:
        The mask (always one connected region).
    """
    board = Board.build(width, height, 0)
    free = board.free
    goal = width * height - int(density * width * height)
    for _ in range(tries):
        if free.bit_count() <= goal:
            break
        rim = [i for i in bits(free) if _on_rim(board, free, i)]
        grown = [rng.choice(rim)]
        notch = 1 << grown[0]
        step = 0
        while len(grown) < size:
            nxt = [
                j
                for i in grown
                for j in _neighbours(board, i)
                if free >> j & 1 and not notch >> j & 1
            ]
            if not nxt:
                break
            ahead = grown[-1] + step
            # A groove: mostly straight on from its last cell, sometimes anywhere around it.
            j = ahead if step and ahead in nxt and rng.random() < straight else rng.choice(nxt)
            step = j - grown[-1] if j in _neighbours(board, grown[-1]) else 0
            grown.append(j)
            notch |= 1 << j
        trial = free & ~notch
        while grown and not (trial and board.is_connected(trial) and _dead_ends(board, trial) <= 2):
            trial |= 1 << grown.pop()
        free = trial

    order = list(bits(free))
    rng.shuffle(order)
    return _balanced_mask(board, free, order, width, height)


def _neighbours(board: Board, i: int) -> list[int]:
    """Board indices of the in-grid 4-neighbours of cell ``i``."""
    s = board.stride
    y, x = divmod(i, s)
    return [
        j
        for j, ok in (
            (i - 1, x > 0),
            (i + 1, x < board.width - 1),
            (i - s, y > 0),
            (i + s, y < board.height - 1),
        )
        if ok
    ]


def _on_rim(board: Board, free: int, i: int) -> bool:
    """Cell ``i`` is on the grid's edge or next to a wall."""
    near = _neighbours(board, i)
    return len(near) < 4 or any(not free >> j & 1 for j in near)
