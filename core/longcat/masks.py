"""Mask templates (seed 003, method B) and the transforms applied to them.

A *mask* here is a tuple of rows of booleans, ``mask[y][x]`` True for an empty (walkable)
cell. Templates draw one shape of random proportions at a random place; the transforms
mirror, rotate and squeeze it. The start cell is chosen later by the solver
(:mod:`core.longcat.generate`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping

__all__ = [
    "TEMPLATES",
    "Mask",
    "largest_component",
    "mask_walls",
    "mirror",
    "rotate",
    "squeeze",
    "template_mask",
]

Mask = tuple[tuple[bool, ...], ...]
"""``mask[y][x]``: True for an empty cell."""

Canvas = list[list[bool]]


def _canvas(width: int, height: int) -> Canvas:
    return [[False] * width for _ in range(height)]


def _rect(canvas: Canvas, x0: int, y0: int, w: int, h: int, value: bool = True) -> None:
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            canvas[y][x] = value


def _frame(rng: random.Random, width: int, height: int, min_w: int, min_h: int):
    """A random rectangle of at least ``min_w`` x ``min_h`` on the canvas: (x0, y0, w, h)."""
    w = rng.randint(min(min_w, width), width)
    h = rng.randint(min(min_h, height), height)
    return rng.randint(0, width - w), rng.randint(0, height - h), w, h


def _filled_frame(
    rng: random.Random, width: int, height: int, min_w: int, min_h: int
) -> tuple[Canvas, tuple[int, int, int, int]]:
    """A canvas with a random :func:`_frame` filled in, and that frame (the start of most
    templates: their notches and holes are cut into it).

    Returns:
        ``(canvas, (x0, y0, w, h))``.
    """
    c = _canvas(width, height)
    frame = _frame(rng, width, height, min_w, min_h)
    _rect(c, *frame)
    return c, frame


def rectangle_with_hole(rng: random.Random, width: int, height: int) -> Canvas:
    """A rectangle with a rectangular hole strictly inside it."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, 3, 3)
    if w >= 3 and h >= 3:
        hw, hh = rng.randint(1, w - 2), rng.randint(1, h - 2)
        _rect(c, x0 + rng.randint(1, w - 1 - hw), y0 + rng.randint(1, h - 1 - hh), hw, hh, False)
    return c


def u_shape(rng: random.Random, width: int, height: int) -> Canvas:
    """A rectangle with a notch cut down from its top edge between two arms."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, 3, 3)
    if w >= 3 and h >= 2:
        nw, depth = rng.randint(1, w - 2), rng.randint(1, h - 1)
        _rect(c, x0 + rng.randint(1, w - 1 - nw), y0, nw, depth, False)
    return c


def s_shape(rng: random.Random, width: int, height: int) -> Canvas:
    """A rectangle with a notch from the right, then one from the left below it (an S)."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, 3, 5)
    if w >= 2 and h >= 5:
        # Rows: band, right notch, band, left notch, band; every band at least one row.
        cut1 = y0 + rng.randint(1, h - 4)
        cut2 = rng.randint(cut1 + 2, y0 + h - 2)
        reach = rng.randint(1, w - 1)
        _rect(c, x0 + w - reach, cut1, reach, 1, False)
        _rect(c, x0, cut2, reach, 1, False)
    return c


def offset_square(rng: random.Random, width: int, height: int) -> Canvas:
    """Two equal squares, the second shifted diagonally so that they overlap."""
    c = _canvas(width, height)
    k = rng.randint(min(2, width, height), max(1, min(width, height) - 1))
    dx = rng.randint(1, max(1, min(k - 1, width - k)))
    dy = rng.randint(1, max(1, min(k - 1, height - k)))
    x0, y0 = rng.randint(0, max(0, width - k - dx)), rng.randint(0, max(0, height - k - dy))
    _rect(c, x0, y0, min(k, width - x0), min(k, height - y0))
    x1, y1 = min(x0 + dx, width - 1), min(y0 + dy, height - 1)
    _rect(c, x1, y1, min(k, width - x1), min(k, height - y1))
    return c


def chair(rng: random.Random, width: int, height: int) -> Canvas:
    """A chair seen from the side: a back, a seat at mid height, and a front leg."""
    c = _canvas(width, height)
    x0, y0, w, h = _frame(rng, width, height, 3, 4)
    t = rng.randint(1, max(1, min(2, w // 3, h // 4)))
    seat = y0 + rng.randint(1, max(1, h - t - 1))
    _rect(c, x0, y0, t, h)  # back and back leg
    _rect(c, x0, seat, w, min(t, y0 + h - seat))  # seat
    _rect(c, x0 + w - t, seat, t, y0 + h - seat)  # front leg
    return c


def spiral(rng: random.Random, width: int, height: int) -> Canvas:
    """A spiral corridor one cell wide, walls one cell thick between its turns."""
    c = _canvas(width, height)
    x0, y0, w, h = _frame(rng, width, height, 3, 3)
    x, y, d = x0, y0, 0
    steps = ((1, 0), (0, 1), (-1, 0), (0, -1))
    c[y][x] = True

    def open_ahead(x: int, y: int, d: int) -> bool:
        nx, ny = x + steps[d][0], y + steps[d][1]
        if not (x0 <= nx < x0 + w and y0 <= ny < y0 + h) or c[ny][nx]:
            return False
        # The corridor never touches itself: the new cell's only path neighbour is (x, y).
        return not any(
            c[ay][ax]
            for ax, ay in ((nx + 1, ny), (nx - 1, ny), (nx, ny + 1), (nx, ny - 1))
            if (ax, ay) != (x, y) and 0 <= ax < width and 0 <= ay < height
        )

    turned = 0
    while turned < 2:
        if open_ahead(x, y, d):
            x, y = x + steps[d][0], y + steps[d][1]
            c[y][x] = True
            turned = 0
        else:
            d = (d + 1) % 4
            turned += 1
    return c


TEMPLATES: dict[str, Callable[[random.Random, int, int], Canvas]] = {
    "rect_hole": rectangle_with_hole,
    "u": u_shape,
    "s": s_shape,
    "offset_square": offset_square,
    "chair": chair,
    "spiral": spiral,
}
"""Template name -> drawing function ``(rng, width, height) -> canvas``."""


def mirror(mask: Mask, horizontal: bool, vertical: bool) -> Mask:
    """Flip left-right (``horizontal``) and/or top-bottom (``vertical``)."""
    rows = [tuple(reversed(r)) if horizontal else tuple(r) for r in mask]
    return tuple(reversed(rows)) if vertical else tuple(rows)


def rotate(mask: Mask, quarter_turns: int) -> Mask:
    """Rotate clockwise by ``quarter_turns`` x 90°: an odd count swaps width and height."""
    for _ in range(quarter_turns % 4):
        mask = tuple(zip(*mask[::-1]))
    return mask


def squeeze(mask: Mask, rng: random.Random) -> Mask:
    """Delete one random row or column crossing the shape and pad with a wall row/column at
    the far side, so the shape gets one cell thinner and the mask keeps its size."""
    height, width = len(mask), len(mask[0])
    if rng.random() < 0.5 and height > 1:
        y = rng.randrange(height)
        return mask[:y] + mask[y + 1 :] + ((False,) * width,)
    if width > 1:
        x = rng.randrange(width)
        return tuple(r[:x] + r[x + 1 :] + (False,) for r in mask)
    return mask


def template_mask(
    rng: random.Random,
    width: int,
    height: int,
    shape: str = "any",
    transform: bool = True,
    squeeze_prob: float = 0.3,
    table: Mapping[str, Callable[[random.Random, int, int], Canvas]] | None = None,
) -> Mask:
    """Draw a template and transform it.

    Args:
        rng: The random source.
        width: Columns of the result.
        height: Rows of the result.
        shape: A name of :data:`TEMPLATES`, or ``"any"`` for a random one.
        transform: Apply a random rotation (quarter turns when the grid is square, half turns
            otherwise) and mirroring.
        squeeze_prob: Probability of one :func:`squeeze`.
        table: The templates to draw from (default :data:`TEMPLATES`, the classic six).

    Returns:
        The mask (``height`` rows of ``width`` cells).

    Raises:
        ValueError: Unknown shape.
    """
    table = TEMPLATES if table is None else table
    if shape == "any":
        shape = rng.choice(sorted(table))
    if shape not in table:
        raise ValueError(f"unknown template {shape!r} (one of {', '.join(sorted(table))}, any)")
    turns = 0
    if transform:
        turns = rng.randrange(4) if width == height else 2 * rng.randrange(2)
    # Draw on the rotated canvas size so that the rotation lands on width x height.
    cw, ch = (height, width) if turns % 2 else (width, height)
    mask: Mask = tuple(tuple(r) for r in table[shape](rng, cw, ch))
    if transform:
        mask = mirror(rotate(mask, turns), rng.random() < 0.5, rng.random() < 0.5)
    if rng.random() < squeeze_prob:
        mask = squeeze(mask, rng)
    return mask


def mask_walls(mask: Mask) -> int:
    """The wall bitmask (board indices of :mod:`core.longcat.level`) of a mask."""
    width = len(mask[0])
    walls = 0
    for y, row in enumerate(mask):
        for x, free in enumerate(row):
            if not free:
                walls |= 1 << (y * (width + 1) + x)
    return walls


def largest_component(mask: Mask) -> Mask:
    """Keep only the largest 4-connected region of empty cells (the first found on ties);
    iterative flood fill."""
    height, width = len(mask), len(mask[0])
    seen = [[False] * width for _ in range(height)]
    best: list[tuple[int, int]] = []
    for sy in range(height):
        for sx in range(width):
            if not mask[sy][sx] or seen[sy][sx]:
                continue
            seen[sy][sx] = True
            region, stack = [], [(sx, sy)]
            while stack:
                x, y = stack.pop()
                region.append((x, y))
                for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if 0 <= nx < width and 0 <= ny < height and mask[ny][nx] and not seen[ny][nx]:
                        seen[ny][nx] = True
                        stack.append((nx, ny))
            if len(region) > len(best):
                best = region
    out = [[False] * width for _ in range(height)]
    for x, y in best:
        out[y][x] = True
    return tuple(tuple(r) for r in out)
