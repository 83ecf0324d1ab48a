"""More mask templates (seed 003, method B asks for 20-40): the shapes of the seed's
difficulty examples and of its hand-drawing (method A) patterns.

The six classic templates stay in :data:`core.longcat.masks.TEMPLATES` (the ``template``
generator draws among them, so its levels for a seed never change); :data:`ALL_TEMPLATES`
adds the ones below, which the ``shapes`` generator draws among. Each function draws one
shape of random proportions at a random place, ``(rng, width, height) -> canvas`` with
``canvas[y][x]`` True for an empty cell, on any grid of at least 3x3; the transforms of
:mod:`core.longcat.masks` (mirror, rotate, squeeze) apply to all.

The seed's difficulty examples map to: ``big_frame_hole`` (easy: a big frame round a big
hole), ``complex_s`` (medium: a complex S frame), ``narrow_left_hole`` (hard: a narrow left
side, a hole in the middle, a complex rim), ``deep_notches`` (very hard: deep notches from top
and bottom). Method A's patterns: ``frame_l_notch`` (frame + hole + L notch), ``t_concave``,
``c_shape``, ``asym_corridor``, ``narrow_channels``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from itertools import pairwise

from core.longcat.masks import (
    TEMPLATES,
    Canvas,
    Mask,
    _canvas,
    _filled_frame,
    _frame,
    _rect,
    template_mask,
)

__all__ = ["ALL_TEMPLATES", "DIFFICULTY_EXAMPLES", "MORE_TEMPLATES", "shapes_mask"]


def _hole(rng: random.Random, c: Canvas, x0: int, y0: int, w: int, h: int, margin: int = 1) -> None:
    """Cut a random rectangular hole at least ``margin`` cells inside the rectangle."""
    if w >= 2 * margin + 1 and h >= 2 * margin + 1:
        hw = rng.randint(1, w - 2 * margin)
        hh = rng.randint(1, h - 2 * margin)
        _rect(
            c,
            x0 + rng.randint(margin, w - margin - hw),
            y0 + rng.randint(margin, h - margin - hh),
            hw,
            hh,
            False,
        )


def big_frame_hole(rng: random.Random, width: int, height: int) -> Canvas:
    """Easy (seed): the whole grid or nearly, a frame one or two cells thick round one big
    hole."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, max(3, width - 1), max(3, height - 1))
    t = 1 if min(w, h) < 6 else rng.randint(1, 2)
    if w > 2 * t and h > 2 * t:
        _rect(c, x0 + t, y0 + t, w - 2 * t, h - 2 * t, False)
    return c


def frame_l_notch(rng: random.Random, width: int, height: int) -> Canvas:
    """Medium (method A): a frame round a hole, and an L-shaped notch cut from one corner."""
    c = big_frame_hole(rng, width, height)
    a, b = rng.randint(1, max(1, width // 3)), rng.randint(1, max(1, height // 3))
    _rect(c, 0, 0, a, 1, False)
    _rect(c, 0, 0, 1, b, False)
    return c


def complex_s(rng: random.Random, width: int, height: int) -> Canvas:
    """Medium (seed): an S frame with three or more bends: a band-shaped serpentine whose
    bands are joined alternately at the right and the left end."""
    c = _canvas(width, height)
    t = rng.randint(1, 2) if height >= 7 else 1
    y, side, bands = 0, rng.randrange(2), []
    while y + t <= height:
        bands.append(y)
        _rect(c, 0, y, width, t)
        y += t + 1
    for a, b in pairwise(bands):
        x = width - t if side else 0
        _rect(c, x, a + t, t, b - a - t)
        side = 1 - side
    return c


def narrow_left_hole(rng: random.Random, width: int, height: int) -> Canvas:
    """Hard (seed): a narrow corridor down the left side, joined at its top to a block with a
    hole in the middle, whose rim is two cells thick on some sides and bitten there."""
    c = _canvas(width, height)
    top = rng.randint(0, 1)
    x0 = rng.randint(2, max(2, width // 3))
    _rect(c, 0, top, 1, height - top)  # the narrow left side
    _rect(c, 1, top, x0 - 1, 1)  # joins it to the block at the top
    bw, bh = width - x0, height - top
    _rect(c, x0, top, bw, bh)
    right, bottom = rng.randint(1, 2), rng.randint(1, 2)
    if bw > 1 + right and bh > 1 + bottom:
        _rect(c, x0 + 1, top + 1, bw - 1 - right, bh - 1 - bottom, False)
    # The complex rim: bites out of the thick sides only, so the ring stays closed.
    if right == 2 and bh > 4:
        c[top + rng.randint(2, bh - 3)][width - 1] = False
    if bottom == 2 and bw > 4:
        c[height - 1][x0 + rng.randint(2, bw - 3)] = False
    return c


def deep_notches(rng: random.Random, width: int, height: int) -> Canvas:
    """Very hard (seed): a block with deep notches from the top and from the bottom, in
    turns (a comb from both sides)."""
    c = _canvas(width, height)
    _rect(c, 0, 0, width, height)
    x, top = rng.randint(1, 2), rng.random() < 0.5
    while x < width - 1:
        depth = rng.randint(max(1, height // 2), max(1, height - 2))
        _rect(c, x, 0 if top else height - depth, 1, depth, False)
        x += rng.randint(2, 3)
        top = not top
    return c


def t_concave(rng: random.Random, width: int, height: int) -> Canvas:
    """Hard (method A): a concave T: a thick bar with a stem, notched under the bar."""
    c = _canvas(width, height)
    bar = rng.randint(2, max(2, height // 3))
    _rect(c, 0, 0, width, bar)
    sw = rng.randint(1, max(1, width // 3))
    sx = rng.randint(1, max(1, width - sw - 1))
    _rect(c, sx, bar, sw, height - bar)
    if bar >= 2:
        c[bar - 1][rng.choice([x for x in range(width) if not sx <= x < sx + sw] or [0])] = False
    return c


def c_shape(rng: random.Random, width: int, height: int) -> Canvas:
    """Hard (method A): a C, a frame open on one side."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, 3, 3)
    t = 1 if min(w, h) < 6 else rng.randint(1, 2)
    _rect(c, x0 + t, y0 + t, w - t, max(1, h - 2 * t), False)
    return c


def asym_corridor(rng: random.Random, width: int, height: int) -> Canvas:
    """Hard (method A): an asymmetric corridor: a room on one side, a long one-cell corridor
    round the grid to the other."""
    c = _canvas(width, height)
    rw, rh = rng.randint(2, max(2, width // 2)), rng.randint(2, max(2, height // 2))
    _rect(c, 0, 0, rw, rh)
    _rect(c, rw - 1, 0, width - rw + 1, 1)  # along the top
    _rect(c, width - 1, 0, 1, height)  # down the right
    x = rng.randint(0, width - 2)
    _rect(c, x, height - 1, width - x, 1)  # part of the bottom
    return c


def narrow_channels(rng: random.Random, width: int, height: int) -> Canvas:
    """Expert (method A): consecutive narrow channels: one-cell columns joined alternately at
    the top and the bottom, with a random short cut."""
    c = _canvas(width, height)
    cols = list(range(0, width, 2))
    for x in cols:
        _rect(c, x, 0, 1, height)
    for i, a in enumerate(cols[:-1]):
        y = 0 if i % 2 == 0 else height - 1
        c[y][a + 1] = True
    if len(cols) > 2 and rng.random() < 0.5:
        x = rng.choice(cols[:-1]) + 1
        c[rng.randint(1, height - 2)][x] = True
    return c


def l_shape(rng: random.Random, width: int, height: int) -> Canvas:
    """An L: two thick arms at a corner."""
    c = _canvas(width, height)
    x0, y0, w, h = _frame(rng, width, height, 3, 3)
    tw, th = rng.randint(1, max(1, w // 2)), rng.randint(1, max(1, h // 2))
    _rect(c, x0, y0, tw, h)
    _rect(c, x0, y0 + h - th, w, th)
    return c


def cross(rng: random.Random, width: int, height: int) -> Canvas:
    """A plus sign with arms of random thickness."""
    c = _canvas(width, height)
    tw, th = rng.randint(1, max(1, width // 2)), rng.randint(1, max(1, height // 2))
    _rect(c, rng.randint(0, width - tw), 0, tw, height)
    _rect(c, 0, rng.randint(0, height - th), width, th)
    return c


def two_holes(rng: random.Random, width: int, height: int) -> Canvas:
    """A rectangle with two holes, one in each half."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, 5, 3)
    half = w // 2
    _hole(rng, c, x0, y0, half + 1, h)
    _hole(rng, c, x0 + half, y0, w - half, h)
    return c


def staircase(rng: random.Random, width: int, height: int) -> Canvas:
    """Steps down from the top left, each step a band of random thickness."""
    c = _canvas(width, height)
    t = rng.randint(1, 2)
    x = y = 0
    while y < height and x < width:
        w = rng.randint(2, 3)
        _rect(c, x, y, min(w, width - x), min(t, height - y))
        _rect(c, min(x + w - 1, width - 1), y, 1, min(t + 1, height - y))
        x, y = x + w - 1, y + t
    return c


def h_shape(rng: random.Random, width: int, height: int) -> Canvas:
    """An H: two thick posts and a bar between them at a random height."""
    c = _canvas(width, height)
    t = rng.randint(1, max(1, width // 4))
    _rect(c, 0, 0, t, height)
    _rect(c, width - t, 0, t, height)
    bh = rng.randint(1, max(1, height // 3))
    _rect(c, 0, rng.randint(0, height - bh), width, bh)
    return c


def e_comb(rng: random.Random, width: int, height: int) -> Canvas:
    """An E: a spine on one side and teeth two cells thick from it, notches between them (a
    tooth is entered along one row and left along the other)."""
    c = _canvas(width, height)
    _rect(c, 0, 0, rng.randint(1, 2), height)
    y = 0
    while y + 2 <= height:
        _rect(c, 0, y, rng.randint(max(2, width // 2), width), 2)
        y += 3
    return c


def zigzag(rng: random.Random, width: int, height: int) -> Canvas:
    """A one-cell corridor zigzagging down to the right: runs right, then down, in turns."""
    c = _canvas(width, height)
    x = y = 0
    c[0][0] = True
    while True:
        run = rng.randint(1, 3)
        if x + run >= width:
            break
        _rect(c, x, y, run + 1, 1)
        x += run
        drop = rng.randint(1, 2)
        if y + drop >= height:
            break
        _rect(c, x, y, 1, drop + 1)
        y += drop
    return c


def offset_rects(rng: random.Random, width: int, height: int) -> Canvas:
    """Two overlapping rectangles of different sizes."""
    c = _canvas(width, height)
    for _ in range(2):
        x0, y0, w, h = _frame(rng, width, height, 2, 2)
        _rect(c, x0, y0, max(2, w // 2 + 1), h)
    return c


def corner_bites(rng: random.Random, width: int, height: int) -> Canvas:
    """A rectangle with square bites out of some of its corners."""
    c = _canvas(width, height)
    _rect(c, 0, 0, width, height)
    for cx, cy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        if rng.random() < 0.6:
            k = rng.randint(1, max(1, min(width, height) // 3))
            _rect(c, 0 if cx == 0 else width - k, 0 if cy == 0 else height - k, k, k, False)
    return c


def bitten_ring(rng: random.Random, width: int, height: int) -> Canvas:
    """A ring with bites out of its outer rim."""
    c = big_frame_hole(rng, width, height)
    for _ in range(rng.randint(1, 3)):
        side = rng.randrange(4)
        k = rng.randrange(1, max(2, (width if side < 2 else height) - 1))
        if side == 0:
            c[0][k] = False
        elif side == 1:
            c[height - 1][k] = False
        elif side == 2:
            c[k][0] = False
        else:
            c[k][width - 1] = False
    return c


def meander(rng: random.Random, width: int, height: int) -> Canvas:
    """A one-cell meander down the columns, with a room at one end."""
    c = _canvas(width, height)
    cols = list(range(0, width, 2))
    for i, x in enumerate(cols):
        _rect(c, x, 0, 1, height)
        if i + 1 < len(cols):
            c[height - 1 if i % 2 == 0 else 0][x + 1] = True
    k = rng.randint(1, max(1, height // 3))
    _rect(c, cols[-1], 0, width - cols[-1], k)
    return c


def t_shape(rng: random.Random, width: int, height: int) -> Canvas:
    """A T: a bar across the top and a stem down from it."""
    c = _canvas(width, height)
    bh = rng.randint(1, max(1, height // 3))
    _rect(c, 0, 0, width, bh)
    sw = rng.randint(1, max(1, width // 2))
    _rect(c, rng.randint(0, width - sw), bh, sw, height - bh)
    return c


def pillars(rng: random.Random, width: int, height: int) -> Canvas:
    """A room with single-cell pillars (walls) standing apart inside it."""
    c, (x0, y0, w, h) = _filled_frame(rng, width, height, 4, 4)
    for _ in range(rng.randint(1, 3)):
        c[y0 + rng.randint(1, h - 2)][x0 + rng.randint(1, w - 2)] = False
    return c


MORE_TEMPLATES: dict[str, Callable[[random.Random, int, int], Canvas]] = {
    "big_frame_hole": big_frame_hole,
    "frame_l_notch": frame_l_notch,
    "complex_s": complex_s,
    "narrow_left_hole": narrow_left_hole,
    "deep_notches": deep_notches,
    "t_concave": t_concave,
    "c_shape": c_shape,
    "asym_corridor": asym_corridor,
    "narrow_channels": narrow_channels,
    "l_shape": l_shape,
    "cross": cross,
    "two_holes": two_holes,
    "staircase": staircase,
    "h_shape": h_shape,
    "e_comb": e_comb,
    "zigzag": zigzag,
    "offset_rects": offset_rects,
    "corner_bites": corner_bites,
    "bitten_ring": bitten_ring,
    "meander": meander,
    "t_shape": t_shape,
    "pillars": pillars,
}
"""The templates beyond the classic six."""

ALL_TEMPLATES: dict[str, Callable[[random.Random, int, int], Canvas]] = {
    **TEMPLATES,
    **MORE_TEMPLATES,
}
"""Every template: the classic six, then :data:`MORE_TEMPLATES`."""

DIFFICULTY_EXAMPLES: dict[str, str] = {
    "easy": "big_frame_hole",
    "medium": "complex_s",
    "hard": "narrow_left_hole",
    "very hard": "deep_notches",
}
"""The seed's difficulty examples of masks and the template that draws each."""


def shapes_mask(
    rng: random.Random,
    width: int,
    height: int,
    shape: str = "any",
    transform: bool = True,
    squeeze_prob: float = 0.3,
) -> Mask:
    """:func:`core.longcat.masks.template_mask` over :data:`ALL_TEMPLATES`.

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        shape: A name of :data:`ALL_TEMPLATES`, or ``"any"``.
        transform: Random rotation and mirroring.
        squeeze_prob: Probability of squeezing out a row or column.

    Returns:
        The mask.

    Raises:
        ValueError: Unknown shape.
    """
    return template_mask(rng, width, height, shape, transform, squeeze_prob, table=ALL_TEMPLATES)
