"""Fast internal board for the standard 4×4 game of 2048.

The pure API (``core.game2048``) works on tuples of tuples and accepts any board size,
tile value and merge rule. The AI needs millions of moves per hint, so for the one
configuration almost everybody plays (4×4, powers of two, "equal tiles merge into their
sum") this module packs a board into a single Python ``int`` of 64 bits:

* the cell at row ``r``, column ``c`` is the 4-bit nibble at bit ``16 * r + 4 * c``;
* a nibble holds the *rank* of the tile: rank ``k`` is the tile ``2 ** k`` and rank 0 is
  an empty cell.

Four bits cap the rank at 15, i.e. the largest tile is 32768. Two 32768 tiles could merge
into 65536, which does not fit; the tables saturate such a merge at rank 15 (the score is
still counted in full), so a board holding two 32768 tiles side by side is *not* played
exactly. :func:`is_representable` rejects boards with a tile above 32768 or any tile that
is not a power of two; callers (the AI) fall back to the general search for those.

Moves are table driven, as in nneonneo's 2048 AI: every 16-bit row has a precomputed
result for "left" and "right" and the points that move earns. "Up" and "down" transpose
the board with three mask-and-shift steps and look the columns up in tables whose entries
are already spread back into column position, so no second transpose is needed.

Example:
    >>> b = from_rows(((2, 2, 2, 2), (0, 0, 0, 0), (4, 4, 2, 2), (8, 0, 2, 2)))
    >>> nb, pts = move(b, "left")
    >>> to_rows(nb)[0], to_rows(nb)[2], to_rows(nb)[3], pts
    ((4, 4, 0, 0), (8, 4, 0, 0), (8, 4, 0, 0), 24)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

__all__ = [
    "DIRECTIONS",
    "MAX_RANK",
    "MAX_TILE",
    "ROW_MASK",
    "count_empty",
    "empty_masks",
    "from_rows",
    "is_representable",
    "legal_moves",
    "max_rank",
    "move",
    "move_all",
    "move_board",
    "reverse_row",
    "to_rows",
    "transpose",
]

DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
"""The four move directions, in the order the AI tries them."""

MAX_RANK = 15
"""Largest rank a nibble can hold (tile 2**15 = 32768)."""

MAX_TILE = 1 << MAX_RANK
"""Largest tile value the packed board can represent (32768)."""

ROW_MASK = 0xFFFF
"""Mask of one 16-bit row."""


def _unpack_row(row: int) -> list[int]:
    """Split a 16-bit row into its four ranks (index 0 = leftmost cell)."""
    return [(row >> (4 * i)) & 0xF for i in range(4)]


def _pack_row(ranks: Sequence[int]) -> int:
    """Pack four ranks into a 16-bit row (index 0 = leftmost cell)."""
    return ranks[0] | (ranks[1] << 4) | (ranks[2] << 8) | (ranks[3] << 12)


def _slide_left(ranks: list[int]) -> tuple[list[int], int]:
    """Slide and merge one row of ranks to the left with the standard rules.

    Each tile merges at most once and merges resolve from the left (the side the tiles
    move towards): ``[1,1,1,1] -> [2,2,0,0]``, ``[1,1,1,0] -> [2,1,0,0]``.

    Args:
        ranks: four ranks, index 0 = leftmost.

    Returns:
        The new four ranks and the points earned (sum of the merged tile values).
    """
    tiles = [r for r in ranks if r]
    out: list[int] = []
    points = 0
    i = 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1]:
            merged = tiles[i] + 1
            points += 1 << merged
            # Saturate at rank 15: 32768 + 32768 cannot be stored in a nibble.
            out.append(min(merged, MAX_RANK))
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    out.extend([0] * (4 - len(out)))
    return out, points


def reverse_row(row: int) -> int:
    """Mirror a 16-bit row (leftmost cell becomes rightmost).

    Args:
        row: a 16-bit packed row.

    Returns:
        The mirrored row.
    """
    return ((row & 0xF) << 12) | ((row & 0xF0) << 4) | ((row >> 4) & 0xF0) | (row >> 12)


def _spread_column(row: int) -> int:
    """Turn a 16-bit row into column 0 of a board (nibble i goes to row i)."""
    return (row & 0xF) | ((row & 0xF0) << 12) | ((row & 0xF00) << 24) | ((row & 0xF000) << 36)


def _build_tables() -> tuple[list[int], ...]:
    """Precompute the per-row move tables (65,536 entries each).

    Returns:
        ``(left, right, up, down, score_left, score_right)`` where ``left``/``right``
        map a row to its moved row, ``up``/``down`` map a *transposed* row (a column read
        top to bottom) to the moved column already spread into column 0 of a board, and
        the score tables give the points one row earns.
    """
    left = [0] * 65536
    right = [0] * 65536
    score_left = [0] * 65536
    score_right = [0] * 65536
    for row in range(65536):
        moved, points = _slide_left(_unpack_row(row))
        result = _pack_row(moved)
        left[row] = result
        score_left[row] = points
        rev = reverse_row(row)
        right[rev] = reverse_row(result)
        score_right[rev] = points
    up = [_spread_column(r) for r in left]
    down = [_spread_column(r) for r in right]
    return left, right, up, down, score_left, score_right


ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN, SCORE_LEFT, SCORE_RIGHT = _build_tables()
"""Move tables: see :func:`_build_tables`. Read-only by convention."""


def _build_empty_masks() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per-row tuples of "rank 1 at each empty cell" masks, for rows 0..3."""
    tables = []
    for r in range(4):
        table = []
        for row in range(65536):
            table.append(
                tuple(1 << (16 * r + 4 * i) for i in range(4) if not (row >> (4 * i)) & 0xF)
            )
        tables.append(tuple(table))
    return tuple(tables)


EMPTY_MASKS = _build_empty_masks()
"""``EMPTY_MASKS[r][row]``: for each empty cell of row ``r`` the board with rank 1 there."""


def transpose(board: int) -> int:
    """Transpose a packed board (cell (r, c) <-> cell (c, r)) with bit tricks.

    Args:
        board: a packed 4×4 board.

    Returns:
        The transposed board.
    """
    a1 = board & 0xF0F0_0F0F_F0F0_0F0F
    a2 = board & 0x0000_F0F0_0000_F0F0
    a3 = board & 0x0F0F_0000_0F0F_0000
    a = a1 | (a2 << 12) | (a3 >> 12)
    b1 = a & 0xFF00_FF00_00FF_00FF
    b2 = a & 0x00FF_00FF_0000_0000
    b3 = a & 0x0000_0000_FF00_FF00
    return b1 | (b2 >> 24) | (b3 << 24)


def move_board(board: int, direction: str) -> int:
    """Move a packed board without computing the score (the AI's inner loop).

    Args:
        board: a packed 4×4 board.
        direction: "up", "down", "left" or "right".

    Returns:
        The moved board (equal to ``board`` when the move changes nothing).

    Raises:
        ValueError: for an unknown direction.
    """
    if direction == "left":
        t = ROW_LEFT
        return (
            t[board & 0xFFFF]
            | (t[(board >> 16) & 0xFFFF] << 16)
            | (t[(board >> 32) & 0xFFFF] << 32)
            | (t[board >> 48] << 48)
        )
    if direction == "right":
        t = ROW_RIGHT
        return (
            t[board & 0xFFFF]
            | (t[(board >> 16) & 0xFFFF] << 16)
            | (t[(board >> 32) & 0xFFFF] << 32)
            | (t[board >> 48] << 48)
        )
    if direction == "up":
        t = COL_UP
    elif direction == "down":
        t = COL_DOWN
    else:
        raise ValueError(f"unknown direction {direction!r}")
    tr = transpose(board)
    return (
        t[tr & 0xFFFF]
        | (t[(tr >> 16) & 0xFFFF] << 4)
        | (t[(tr >> 32) & 0xFFFF] << 8)
        | (t[tr >> 48] << 12)
    )


def move(board: int, direction: str) -> tuple[int, int]:
    """Move a packed board and return the points earned.

    Args:
        board: a packed 4×4 board.
        direction: "up", "down", "left" or "right".

    Returns:
        ``(new_board, points)``; ``new_board == board`` when nothing moves (points 0).

    Raises:
        ValueError: for an unknown direction.
    """
    if direction == "left" or direction == "right":
        t, s = (ROW_LEFT, SCORE_LEFT) if direction == "left" else (ROW_RIGHT, SCORE_RIGHT)
        r0 = board & 0xFFFF
        r1 = (board >> 16) & 0xFFFF
        r2 = (board >> 32) & 0xFFFF
        r3 = board >> 48
        return (
            t[r0] | (t[r1] << 16) | (t[r2] << 32) | (t[r3] << 48),
            s[r0] + s[r1] + s[r2] + s[r3],
        )
    if direction == "up":
        t, s = COL_UP, SCORE_LEFT
    elif direction == "down":
        t, s = COL_DOWN, SCORE_RIGHT
    else:
        raise ValueError(f"unknown direction {direction!r}")
    tr = transpose(board)
    c0 = tr & 0xFFFF
    c1 = (tr >> 16) & 0xFFFF
    c2 = (tr >> 32) & 0xFFFF
    c3 = tr >> 48
    return (
        t[c0] | (t[c1] << 4) | (t[c2] << 8) | (t[c3] << 12),
        s[c0] + s[c1] + s[c2] + s[c3],
    )


def move_all(board: int) -> tuple[int, int, int, int]:
    """The four moved boards at once, sharing one transpose (the AI's inner loop).

    Args:
        board: a packed 4×4 board.

    Returns:
        ``(up, down, left, right)``; an entry equals ``board`` when that move is illegal.
    """
    lt, rt, ut, dt = ROW_LEFT, ROW_RIGHT, COL_UP, COL_DOWN
    r0 = board & 0xFFFF
    r1 = (board >> 16) & 0xFFFF
    r2 = (board >> 32) & 0xFFFF
    r3 = board >> 48
    t = transpose(board)
    c0 = t & 0xFFFF
    c1 = (t >> 16) & 0xFFFF
    c2 = (t >> 32) & 0xFFFF
    c3 = t >> 48
    return (
        ut[c0] | (ut[c1] << 4) | (ut[c2] << 8) | (ut[c3] << 12),
        dt[c0] | (dt[c1] << 4) | (dt[c2] << 8) | (dt[c3] << 12),
        lt[r0] | (lt[r1] << 16) | (lt[r2] << 32) | (lt[r3] << 48),
        rt[r0] | (rt[r1] << 16) | (rt[r2] << 32) | (rt[r3] << 48),
    )


def legal_moves(board: int) -> tuple[str, ...]:
    """Directions that change the board.

    Args:
        board: a packed 4×4 board.

    Returns:
        The directions (in :data:`DIRECTIONS` order) whose move changes the board.
    """
    return tuple(d for d, nb in zip(DIRECTIONS, move_all(board)) if nb != board)


def empty_masks(board: int) -> tuple[int, ...]:
    """For each empty cell, the board holding rank 1 (a "2") there and zeros elsewhere.

    ``board | m`` places a 2 and ``board | (m << 1)`` places a 4 at that cell.

    Args:
        board: a packed 4×4 board.

    Returns:
        The masks in row-major order of the empty cells.
    """
    return (
        EMPTY_MASKS[0][board & 0xFFFF]
        + EMPTY_MASKS[1][(board >> 16) & 0xFFFF]
        + EMPTY_MASKS[2][(board >> 32) & 0xFFFF]
        + EMPTY_MASKS[3][board >> 48]
    )


def count_empty(board: int) -> int:
    """Number of empty cells of a packed board."""
    return len(empty_masks(board))


def max_rank(board: int) -> int:
    """Largest rank on a packed board (0 for an empty board)."""
    best = 0
    while board:
        r = board & 0xF
        if r > best:
            best = r
        board >>= 4
    return best


def is_representable(rows: Iterable[Iterable[int]]) -> bool:
    """Whether a tuple board fits the packed representation exactly.

    Args:
        rows: a board as rows of tile values (0 = empty).

    Returns:
        True for a 4×4 board whose tiles are all 0 or powers of two from 2 to 32768 (so that
        moves on the packed board agree with the standard rules; see the module docstring
        for the one exception, two 32768 tiles merging).
    """
    grid = [list(r) for r in rows]
    if len(grid) != 4 or any(len(r) != 4 for r in grid):
        return False
    for row in grid:
        for v in row:
            if not isinstance(v, int) or isinstance(v, bool):
                return False
            if v == 0:
                continue
            if v < 2 or v > MAX_TILE or v & (v - 1):
                return False
    return True


def from_rows(rows: Iterable[Iterable[int]]) -> int:
    """Pack a 4×4 board of tile values into a 64-bit int.

    Args:
        rows: four rows of four tile values (0 = empty, else a power of two ≤ 32768).

    Returns:
        The packed board.

    Raises:
        ValueError: when the board is not 4×4 or a tile cannot be represented.
    """
    rows = [tuple(r) for r in rows]
    if not is_representable(rows):
        raise ValueError("board is not a 4x4 board of powers of two up to 32768")
    board = 0
    for r, row in enumerate(rows):
        for c, v in enumerate(row):
            if v:
                board |= (v.bit_length() - 1) << (16 * r + 4 * c)
    return board


def to_rows(board: int) -> tuple[tuple[int, ...], ...]:
    """Unpack a 64-bit board into a tuple of four rows of tile values (0 = empty).

    Args:
        board: a packed 4×4 board.

    Returns:
        The board as the pure API stores it.
    """
    out = []
    for r in range(4):
        row = []
        for c in range(4):
            rank = (board >> (16 * r + 4 * c)) & 0xF
            row.append(1 << rank if rank else 0)
        out.append(tuple(row))
    return tuple(out)
