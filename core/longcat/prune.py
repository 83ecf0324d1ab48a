"""Necessary conditions for a Longcat position to be solvable (used to prune the yes/no
search, never the counts).

Whatever the moves, the cat's remaining body is a path that starts at the head, steps from
cell to 4-adjacent cell, and visits every empty cell exactly once: a Hamiltonian path of
``{head} ∪ empty`` starting at the head. Three cheap consequences:

* **Connectivity (dead states).** After the first step the path only uses empty cells, so
  the empty cells *without the head* must form one 4-connected region. A position whose
  empty cells form two or more regions is *dead* (seed 003's purple states): no solution
  can follow, and a player sees it at a glance.
* **Parity.** Colour the grid like a chessboard. The path alternates colours, starting on
  the head's colour, so among ``{head} ∪ empty`` the head's colour must have as many cells
  as the other colour, or exactly one more.
* **Dead ends.** Every cell of the path except its last has two path neighbours, so at most
  one empty cell may have fewer than two 4-neighbours in ``{head} ∪ empty``.
"""

from __future__ import annotations

from core.longcat.level import Board

__all__ = ["cut_off", "empty_regions", "is_dead", "is_hopeless", "region_count"]


def is_dead(board: Board, filled: int) -> bool:
    """True when the empty cells form two or more 4-connected regions (the head, being
    filled, does not count as a connection).

    Args:
        board: The level's geometry.
        filled: Mask of the filled cells.

    Returns:
        Whether the position is dead. A won position (no empty cell) is not dead.
    """
    empty = board.free & ~filled
    return bool(empty) and board.component(empty, empty & -empty) != empty


def empty_regions(board: Board, filled: int) -> list[int]:
    """The 4-connected regions of the empty cells, largest first (ties: lowest cell first).

    Args:
        board: The level's geometry.
        filled: Mask of the filled cells.

    Returns:
        One mask per region; two or more regions make the position dead.
    """
    empty = board.free & ~filled
    out = []
    while empty:
        region = board.component(empty, empty & -empty)
        out.append(region)
        empty &= ~region
    return sorted(out, key=lambda r: (-r.bit_count(), r & -r))


def region_count(board: Board, filled: int) -> int:
    """How many 4-connected regions the empty cells form (0 when none is left).

    Args:
        board: The level's geometry.
        filled: Mask of the filled cells.

    Returns:
        The count; two or more make the position dead (:func:`is_dead`).
    """
    empty = board.free & ~filled
    count = 0
    while empty:
        empty &= ~board.component(empty, empty & -empty)
        count += 1
    return count


def cut_off(board: Board, filled: int) -> int:
    """The empty cells outside the largest region (ties: the region with the lowest cell),
    the ones a player sees cut off in a dead position.

    Args:
        board: The level's geometry.
        filled: Mask of the filled cells.

    Returns:
        Their mask (0 when the empty cells are one region or none).
    """
    regions = empty_regions(board, filled)
    return (board.free & ~filled & ~regions[0]) if len(regions) > 1 else 0


def parity_ok(board: Board, head: int, filled: int) -> bool:
    """The chessboard-colour condition of the module docstring."""
    cells = (board.free & ~filled) | 1 << head
    black = (cells & board.black).bit_count()
    white = cells.bit_count() - black
    if not board.black >> head & 1:
        black, white = white, black
    return 0 <= black - white <= 1


def dead_ends_ok(board: Board, head: int, filled: int) -> bool:
    """The dead-end condition of the module docstring."""
    empty = board.free & ~filled
    cells = empty | 1 << head
    s = board.stride
    a, b, c, d = cells << 1, cells >> 1, cells << s, cells >> s
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    return (empty & ~two).bit_count() <= 1


def is_hopeless(board: Board, head: int, filled: int) -> bool:
    """True when one of the three necessary conditions fails: no solution from here.

    Args:
        board: The level's geometry.
        head: Board index of the head.
        filled: Mask of the filled cells.

    Returns:
        True only for positions that certainly cannot be completed (a won position is never
        hopeless).
    """
    if filled == board.free:
        return False
    return (
        not parity_ok(board, head, filled)
        or not dead_ends_ok(board, head, filled)
        or is_dead(board, filled)
    )
