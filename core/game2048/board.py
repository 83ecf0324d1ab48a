"""Board operations for 2048 (seed 004 §5.2 and §5.3): sliding, merging, moves and checks.

A board is a square tuple of row tuples of ints; ``0`` is an empty cell. Every function is
pure and returns new tuples. Moves follow seed 004: a move to the left processes every row
with :func:`process_line` (slide, then merge from the left); the other directions reuse it
through :func:`transpose` and :func:`reverse_items`.

Merges resolve from the side the tiles move towards and each tile merges at most once per
move, as in the original game: moving left, ``[2, 2, 2, 2]`` becomes ``[4, 4, 0, 0]`` and
``[2, 2, 2, 0]`` becomes ``[4, 2, 0, 0]``.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence, TypeVar

from core.game2048.merge import MergeLogic

T = TypeVar("T")

Row = tuple[int, ...]
"""One line of the board (a row, or a column read top to bottom)."""
Board = tuple[Row, ...]
"""A square board: rows from top to bottom, cells from left to right; 0 means empty."""

DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
"""The four move directions, as accepted by :func:`execute_move_on_board`."""


class Cell(NamedTuple):
    """A board position (row ``r`` from the top, column ``c`` from the left)."""

    r: int
    """Row index, 0 at the top."""
    c: int
    """Column index, 0 at the left."""


class LineResult(NamedTuple):
    """Result of merging or processing one line."""

    new_row: Row
    """The line after the operation."""
    points_earned: int
    """Score earned by the merges in this line."""
    line_changed: bool
    """Whether ``new_row`` differs from the input line."""


class MoveOutcome(NamedTuple):
    """Result of :func:`execute_move_on_board` (unpacks as ``(new_board, points, changed)``)."""

    new_board: Board
    """The board after sliding and merging (before any new tile)."""
    total_points_earned: int
    """Sum of the scores of all merges."""
    board_changed: bool
    """Whether any cell changed."""


def validate_direction(direction: str) -> str:
    """Check a direction name.

    Args:
        direction: One of ``"up"``, ``"down"``, ``"left"``, ``"right"``.

    Returns:
        The direction, unchanged.

    Raises:
        ValueError: Naming the valid directions, for anything else.
    """
    if direction not in DIRECTIONS:
        raise ValueError(
            f"invalid direction {direction!r}; valid directions are: {', '.join(DIRECTIONS)}"
        )
    return direction


def make_board(rows: Sequence[Sequence[int]]) -> Board:
    """Turn nested sequences into a board, checking it is square and non-negative.

    Args:
        rows: The rows, top to bottom.

    Returns:
        The board as nested tuples.

    Raises:
        ValueError: If the board is empty, not square, or holds negative or non-int cells.
    """
    board = tuple(tuple(row) for row in rows)
    n = len(board)
    if n == 0:
        raise ValueError("a board needs at least one row")
    for row in board:
        if len(row) != n:
            raise ValueError(f"a board must be square: a row has {len(row)} cells, expected {n}")
        for v in row:
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ValueError(f"board cells must be non-negative integers, got {v!r}")
    return board


def empty_board(size: int) -> Board:
    """A board of ``size`` x ``size`` empty cells."""
    return tuple((0,) * size for _ in range(size))


def slide(row: Sequence[int]) -> Row:
    """Move every tile of a line to the front (left), keeping their order.

    Args:
        row: A line of cells.

    Returns:
        The non-zero cells in order, followed by zeros to the original length.
    """
    tiles = [v for v in row if v != 0]
    return tuple(tiles) + (0,) * (len(row) - len(tiles))


def _merge_line_marked(row: Sequence[int], merge_logic: MergeLogic) -> tuple[Row, int, Row]:
    """Merge a slid line from the front; also report which output cells are merge results.

    Returns:
        ``(new_row, points, marks)`` where ``marks[i]`` is 1 when ``new_row[i]`` was produced
        by a merge in this step, else 0.
    """
    out: list[int] = []
    marks: list[int] = []
    points = 0
    i = 0
    n = len(row)
    while i < n:
        v = row[i]
        if v == 0:
            i += 1
            continue
        if i + 1 < n and row[i + 1] != 0:
            result = merge_logic(v, row[i + 1])
            if result is not None:
                # The pair is consumed: neither tile can merge again in this move.
                points += result.score_earned
                if result.merged_value != 0:
                    out.append(result.merged_value)
                    marks.append(1)
                i += 2
                continue
        out.append(v)
        marks.append(0)
        i += 1
    pad = (0,) * (n - len(out))
    return tuple(out) + pad, points, tuple(marks) + pad


_LINE_MEMO: dict[tuple[MergeLogic, Row], tuple[Row, int, Row]] = {}
"""Memo of :func:`_process_line_marked`: in real games the same lines recur constantly."""
_LINE_MEMO_MAX = 1 << 17  # bounded: cleared when full, so memory stays a few tens of MB


def _process_line_marked(row: Row, merge_logic: MergeLogic) -> tuple[Row, int, Row]:
    """Slide then merge one line (a pure function, memoised per merge rule and line)."""
    key = (merge_logic, row)
    hit = _LINE_MEMO.get(key)
    if hit is None:
        if len(_LINE_MEMO) >= _LINE_MEMO_MAX:
            _LINE_MEMO.clear()
        hit = _LINE_MEMO[key] = _merge_line_marked(slide(row), merge_logic)
    return hit


def merge_line(row: Sequence[int], merge_logic: MergeLogic) -> LineResult:
    """Merge adjacent tiles of an already slid line, from the front.

    Scanning from the front, each tile is offered to ``merge_logic`` with the tile behind it;
    a merged pair is replaced by its result and skipped, so a tile merges at most once.

    Args:
        row: A line whose tiles are already at the front (see :func:`slide`).
        merge_logic: The merge rule (see :mod:`core.game2048.merge`).

    Returns:
        ``LineResult(new_row, points_earned, line_changed)``.
    """
    new_row, points, _ = _merge_line_marked(row, merge_logic)
    return LineResult(new_row, points, new_row != tuple(row))


def process_line(row: Sequence[int], merge_logic: MergeLogic) -> LineResult:
    """Slide a line to the front and merge it: one line of a move to the left.

    Args:
        row: A line of cells.
        merge_logic: The merge rule.

    Returns:
        ``LineResult(new_row, points_earned, line_changed)``; ``line_changed`` compares with
        the original (unslid) line.
    """
    new_row, points, _ = _merge_line_marked(slide(row), merge_logic)
    return LineResult(new_row, points, new_row != tuple(row))


def transpose(board: Sequence[Sequence[T]]) -> tuple[tuple[T, ...], ...]:
    """Swap rows and columns (reflection about the main diagonal)."""
    return tuple(zip(*board))


def reverse_items(items: Sequence[T]) -> tuple[T, ...]:
    """The items in reverse order, as a tuple."""
    return tuple(reversed(items))


def _to_left_frame(board: Sequence[Sequence[T]], direction: str) -> tuple[tuple[T, ...], ...]:
    """Rearrange a board so that moving ``direction`` becomes moving left."""
    if direction == "left":
        return tuple(map(tuple, board))  # the same tuples when the rows already are
    if direction == "right":
        return tuple(tuple(row)[::-1] for row in board)
    if direction == "up":
        return transpose(board)
    return tuple(col[::-1] for col in zip(*board))  # down


def _from_left_frame(board: Sequence[Sequence[T]], direction: str) -> tuple[tuple[T, ...], ...]:
    """Undo :func:`_to_left_frame`."""
    if direction == "left":
        return tuple(map(tuple, board))
    if direction == "right":
        return tuple(tuple(row)[::-1] for row in board)
    if direction == "up":
        return transpose(board)
    return tuple(zip(*[row[::-1] for row in board]))  # down


def execute_move_on_board_marked(
    board: Board, direction: str, merge_logic: MergeLogic
) -> tuple[MoveOutcome, tuple[Cell, ...]]:
    """Like :func:`execute_move_on_board`, also returning the cells that hold merge results.

    Args:
        board: The board.
        direction: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.
        merge_logic: The merge rule.

    Returns:
        ``(outcome, merged_cells)`` with the merged cells in row-major order.

    Raises:
        ValueError: For an invalid direction.
    """
    validate_direction(direction)
    rows: list[Row] = []
    marks: list[Row] = []
    points = 0
    any_merge = False
    for line in _to_left_frame(board, direction):
        new_row, p, m = _process_line_marked(line, merge_logic)
        rows.append(new_row)
        marks.append(m)
        points += p
        any_merge = any_merge or 1 in m
    new_board = _from_left_frame(rows, direction)
    merged: tuple[Cell, ...] = ()
    if any_merge:
        mark_board = _from_left_frame(marks, direction)
        merged = tuple(
            Cell(r, c) for r, row in enumerate(mark_board) for c, flag in enumerate(row) if flag
        )
    changed = new_board != tuple(map(tuple, board))
    return MoveOutcome(new_board if changed else board, points, changed), merged


def execute_move_on_board(board: Board, direction: str, merge_logic: MergeLogic) -> MoveOutcome:
    """Slide and merge the whole board in one direction (no new tile).

    Args:
        board: The board.
        direction: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.
        merge_logic: The merge rule.

    Returns:
        ``MoveOutcome(new_board, total_points_earned, board_changed)``; it unpacks as a
        3-tuple. When nothing changes, ``new_board`` is the input board.

    Raises:
        ValueError: For an invalid direction (the message names the valid ones).
    """
    outcome, _ = execute_move_on_board_marked(board, direction, merge_logic)
    return outcome


def get_empty_cells(board: Sequence[Sequence[int]]) -> tuple[Cell, ...]:
    """The empty cells in row-major order (top row first, left to right).

    Args:
        board: The board.

    Returns:
        The positions holding 0.
    """
    return tuple(Cell(r, c) for r, row in enumerate(board) for c, v in enumerate(row) if v == 0)


def can_any_cell_move(board: Sequence[Sequence[int]], merge_logic: MergeLogic) -> bool:
    """Whether some pair of neighbouring tiles could merge.

    Checks each cell against its right and lower neighbour, in both orders (a custom merge
    rule need not be symmetric, and either tile may be the one in front depending on the
    direction of the move).

    Args:
        board: The board.
        merge_logic: The merge rule.

    Returns:
        True when at least one adjacent pair of non-empty tiles merges.
    """
    n = len(board)
    for r in range(n):
        row = board[r]
        for c in range(len(row)):
            a = row[c]
            if a == 0:
                continue
            for b in (row[c + 1] if c + 1 < len(row) else 0, board[r + 1][c] if r + 1 < n else 0):
                if b != 0 and (merge_logic(a, b) is not None or merge_logic(b, a) is not None):
                    return True
    return False


def calculate_is_game_over(board: Sequence[Sequence[int]], merge_logic: MergeLogic) -> bool:
    """Game over: no empty cell and no pair of neighbours that can merge.

    Args:
        board: The board.
        merge_logic: The merge rule.

    Returns:
        True when no move can change the board.
    """
    if any(0 in row for row in board):
        return False
    return not can_any_cell_move(board, merge_logic)


def max_tile(board: Sequence[Sequence[int]]) -> int:
    """The largest tile value on the board (0 for an empty board)."""
    return max((max(row) for row in board), default=0)
