"""Positions as parent links, so deep terms are walked in linear time.

Building every position's path as a tuple costs O(depth) per position, O(n * depth) in all:
quadratic for a term nested 100,000 levels deep.  Walks here carry a *link* instead, the pair
``(parent link, child index)`` (``None`` for the root), which costs O(1) per position, and
turn a link into a path only for the positions they report.
"""

from __future__ import annotations

from typing import Optional

from core.terms import Path

__all__ = ["Link", "path_of"]

Link = Optional[tuple]
"""``None`` for the root, else ``(parent link, child index, ...)``: any tuple whose first two
items are those (a walk may use its stack entries as links, saving a tuple per node)."""


def path_of(link: Link) -> Path:
    """Materialise a link as a path.

    Args:
        link: A position's link.

    Returns:
        The 0-based child indices from the root.
    """
    out: list[int] = []
    while link is not None:
        out.append(link[1])
        link = link[0]
    out.reverse()
    return tuple(out)
