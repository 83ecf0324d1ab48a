"""One bottom-up walk for the game's trees (card trees, card expressions, parsed cards).

Iterative, so a tree deeper than Python's recursion limit folds too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["fold_up"]

N = TypeVar("N")
T = TypeVar("T")


def fold_up(root: N, children: Callable[[N], Sequence[N]], combine: Callable[[N, list[T]], T]) -> T:
    """Compute a value of a tree bottom-up: every node after its children, left to right.

    Args:
        root: The tree.
        children: A node's children, in order (empty for a leaf).
        combine: A node's value, given the node and its children's values in order.

    Returns:
        The value of ``root``.
    """
    out: list[T] = []
    stack: list[tuple[N, bool]] = [(root, False)]
    while stack:
        e, done = stack.pop()
        kids = children(e)
        if kids and not done:
            stack.append((e, True))
            stack.extend((k, False) for k in reversed(kids))
            continue
        n = len(kids)
        args = out[len(out) - n :]
        del out[len(out) - n :]
        out.append(combine(e, args))
    return out[0]
