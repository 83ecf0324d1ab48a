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

from collections.abc import Sequence
from typing import NamedTuple, TypeVar

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


# --- The move engine -------------------------------------------------------------------------
#
# Moves are the hot path of the pure API (every ``move`` of a game, every node of the pure AI),
# so they avoid per-move work that does not depend on the board:
#
# * each line's result is memoised per merge rule; in real games the same lines recur
#   constantly, so nearly every line costs one dict lookup;
# * there are two tables per rule: lines moved towards their front (left, up) and towards
#   their back (right, down). A "back" entry is stored in the line's own orientation, so
#   right and down moves never reverse a line at move time; up and down only transpose
#   the board in and out (unrolled for 4 x 4, see :func:`_transpose`);
# * an entry also holds what the callers need next (whether the line changed, the merged
#   positions, the empty cells left), so a move never rescans the board for them.

_LineEntry = tuple[Row, int, tuple[int, ...], bool, int]
"""``(new_line, points, merged_indices, line_changed, empty_cells_after)`` of one line."""

_LINE_TABLES: dict[MergeLogic, tuple[dict[Row, _LineEntry], dict[Row, _LineEntry]]] = {}
"""Per merge rule: ``(towards_front, towards_back)`` memo tables keyed by the input line."""
_LINE_TABLE_MAX = 1 << 16  # per table, bounded: a full table is cleared (a few tens of MB at most)

# direction -> (moves rows rather than columns, moves towards the back of the line)
_DIRECTION_FRAMES: dict[str, tuple[bool, bool]] = {
    "left": (True, False),
    "right": (True, True),
    "up": (False, False),
    "down": (False, True),
}

_CELL_GRIDS: dict[int, tuple[tuple[Cell, ...], ...]] = {}
"""Shared ``Cell`` objects per board size (cells are immutable, so one set serves all moves)."""


def _cell_grid(n: int) -> tuple[tuple[Cell, ...], ...]:
    """The ``Cell`` objects of an ``n`` x ``n`` board, indexed ``[r][c]``."""
    grid = _CELL_GRIDS.get(n)
    if grid is None:
        grid = _CELL_GRIDS[n] = tuple(tuple(Cell(r, c) for c in range(n)) for r in range(n))
    return grid


def _transpose(board: Sequence[Row]) -> Board:
    """:func:`transpose` for the move loop, unrolled for the usual 4 x 4 board.

    Building the four columns directly is about twice as fast as ``tuple(zip(*board))``,
    and up and down moves transpose twice.
    """
    if len(board) != 4:
        return tuple(zip(*board))
    (a0, a1, a2, a3), (b0, b1, b2, b3), (c0, c1, c2, c3), (d0, d1, d2, d3) = board
    return ((a0, b0, c0, d0), (a1, b1, c1, d1), (a2, b2, c2, d2), (a3, b3, c3, d3))


def _line_tables(merge_logic: MergeLogic) -> tuple[dict[Row, _LineEntry], dict[Row, _LineEntry]]:
    """The two memo tables of a merge rule (created on first use)."""
    tables = _LINE_TABLES.get(merge_logic)
    if tables is None:
        tables = _LINE_TABLES[merge_logic] = ({}, {})
    return tables


def _line_entry(
    table: dict[Row, _LineEntry], line: Row, merge_logic: MergeLogic, towards_back: bool
) -> _LineEntry:
    """Compute (slide + merge) one line, store it in ``table`` and return the entry."""
    src = line[::-1] if towards_back else line
    new_line, points, marks = _merge_line_marked(slide(src), merge_logic)
    if towards_back:
        new_line, marks = new_line[::-1], marks[::-1]
    changed = new_line != line
    if not changed:
        new_line = line  # keep one object: rebuilt boards then share the unchanged rows
    merged = tuple(i for i, flag in enumerate(marks) if flag)
    if len(table) >= _LINE_TABLE_MAX:
        table.clear()
    entry = table[line] = (new_line, points, merged, changed, new_line.count(0))
    return entry


def _move_board(
    board: Board, direction: str, merge_logic: MergeLogic
) -> tuple[Board, int, tuple[Cell, ...], int] | None:
    """The engine behind :func:`execute_move_on_board` and :func:`core.game2048.move`.

    Args:
        board: A board of tuples (other sequences are converted).
        direction: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.
        merge_logic: The merge rule.

    Returns:
        ``None`` when the move changes nothing, else ``(new_board, points, merged_cells,
        empty_count)``: the merged cells in row-major order and the number of empty cells
        of ``new_board``.

    Raises:
        ValueError: For an invalid direction.
    """
    try:
        frame = _DIRECTION_FRAMES.get(direction)
    except TypeError:  # unhashable: not a direction either (try blocks cost nothing here)
        frame = None
    if frame is None:
        validate_direction(direction)  # raises, naming the valid directions
    by_rows, towards_back = frame  # type: ignore[misc]
    if type(board) is not tuple or (board and type(board[0]) is not tuple):
        board = tuple(map(tuple, board))  # lists from callers: lines must be hashable
    lines = board if by_rows else _transpose(board)
    tables = _LINE_TABLES.get(merge_logic) or _line_tables(merge_logic)
    table = tables[towards_back]
    get = table.get
    new_lines: list[Row] = []
    points = 0
    empty = 0
    changed = False
    merged_at: list[tuple[int, tuple[int, ...]]] | None = None
    for i, line in enumerate(lines):
        entry = get(line)
        if entry is None:
            entry = _line_entry(table, line, merge_logic, towards_back)
        new_line, line_points, line_merged, line_changed, line_empty = entry
        new_lines.append(new_line)
        points += line_points
        empty += line_empty
        if line_changed:
            changed = True
            if line_merged:
                if merged_at is None:
                    merged_at = []
                merged_at.append((i, line_merged))
    if not changed:
        return None
    merged: tuple[Cell, ...] = ()
    if merged_at is not None:
        grid = _cell_grid(len(board))
        if by_rows:  # line i is row i: already row-major
            merged = tuple([grid[i][j] for i, js in merged_at for j in js])
        else:  # line i is column i: sort into row-major order
            merged = tuple(sorted([grid[j][i] for i, js in merged_at for j in js]))
    new_board = tuple(new_lines) if by_rows else _transpose(new_lines)
    return new_board, points, merged, empty


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
    result = _move_board(board, direction, merge_logic)
    if result is None:
        return MoveOutcome(board, 0, False), ()
    new_board, points, merged, _ = result
    return MoveOutcome(new_board, points, True), merged


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
    result = _move_board(board, direction, merge_logic)
    if result is None:
        return MoveOutcome(board, 0, False)
    return MoveOutcome(result[0], result[1], True)


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
