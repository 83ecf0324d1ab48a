"""Longcat levels: the grid of walls and empty cells, and its bitmask geometry.

Cells and bitmasks
------------------
Every set of cells in this package (walls, empty cells, the cat's filled cells) is a Python
``int`` used as a bitmask. Cell ``(x, y)`` (column ``x`` from the left, row ``y`` from the
top, both 0-based) is bit ``y * (width + 1) + x``: each row has one extra *guard* bit that
is never a cell. Because of the guard bit, shifting a mask by ``±1`` (left/right) or
``±(width + 1)`` (up/down) and masking with the empty cells never wraps from one row into
the next, so neighbourhoods and flood fills are a few integer operations
(see :class:`Board`). The helpers :meth:`Level.index` and :meth:`Level.xy` convert.

The board edge is a wall: the cat never leaves the grid.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from core.levelmeta import check_meta

__all__ = [
    "DIRECTIONS",
    "LETTERS",
    "MAX_SIZE",
    "Board",
    "GridError",
    "Level",
    "bits",
]

MAX_SIZE = 32
"""The largest width and height a level may have (the state graph explodes long before)."""

DIRECTIONS: tuple[str, ...] = ("up", "down", "left", "right")
"""The four moves, in the stable order every list of moves uses."""

LETTERS: str = "UDLR"
"""One letter per direction, same order as :data:`DIRECTIONS` (solution strings)."""

WALL, EMPTY, START = "#", ".", "@"
"""The grid characters."""


class GridError(ValueError):
    """A grid text that is not a level, with the 1-based position of the fault.

    Attributes:
        row: 1-based row of the offending character (None when not about one place).
        column: 1-based column (None when not about one character).
    """

    def __init__(self, message: str, row: int | None = None, column: int | None = None):
        super().__init__(message)
        self.row = row
        """1-based row of the fault, or None."""
        self.column = column
        """1-based column of the fault, or None."""


def bits(mask: int) -> Iterator[int]:
    """Yield the indices of the set bits of ``mask``, lowest first.

    Args:
        mask: A non-negative bitmask.

    Returns:
        An iterator of bit indices.
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


@dataclass(frozen=True, slots=True)
class Board:
    """The precomputed geometry of one grid (shared by the rules, the solver and the analysis).

    Attributes:
        width: Columns.
        height: Rows.
        stride: Bits per row (``width + 1``: one guard bit).
        grid: Mask of every cell of the grid.
        free: Mask of the empty (non-wall) cells.
        black: Mask of the cells with ``x + y`` even (the chessboard colouring).
        rays: ``rays[d][i]``: the empty cells beyond cell ``i`` in direction ``DIRECTIONS[d]``
            up to (not including) the first wall or the edge; 0 for walls.
    """

    width: int
    """Columns."""
    height: int
    """Rows."""
    stride: int
    """Bits per row (one guard bit)."""
    grid: int
    """Every cell of the grid."""
    free: int
    """The empty (non-wall) cells."""
    black: int
    """Cells with ``x + y`` even."""
    rays: tuple[tuple[int, ...], ...]
    """Empty cells beyond each cell in each direction, up to the first wall or the edge."""

    @staticmethod
    def build(width: int, height: int, walls: int) -> Board:
        """Compute the geometry of a ``width`` x ``height`` grid with ``walls``.

        Args:
            width: Columns (>= 1).
            height: Rows (>= 1).
            walls: Wall mask in board indices.

        Returns:
            The :class:`Board`.
        """
        stride = width + 1
        row = (1 << width) - 1
        grid = 0
        black = 0
        for y in range(height):
            grid |= row << (y * stride)
            black |= (0x5555555555555555 >> (y & 1) & row) << (y * stride)
        free = grid & ~walls
        n = height * stride
        rays = [[0] * n for _ in DIRECTIONS]
        up, down, left, right = rays
        # One pass per direction from the far side: the ray of a cell is its neighbour's ray
        # plus the neighbour itself, when the neighbour is empty. Guard bits are never
        # empty, so a ray never wraps into the next row.
        for i in range(n):
            j = i - stride
            if j >= 0 and free >> j & 1:
                up[i] = up[j] | 1 << j
            j = i - 1
            if j >= 0 and free >> j & 1:
                left[i] = left[j] | 1 << j
        for i in range(n - 1, -1, -1):
            j = i + stride
            if free >> j & 1:
                down[i] = down[j] | 1 << j
            j = i + 1
            if free >> j & 1:
                right[i] = right[j] | 1 << j
        for ray in rays:
            for i in range(n):
                if not free >> i & 1:
                    ray[i] = 0
        return Board(width, height, stride, grid, free, black, tuple(tuple(r) for r in rays))

    def component(self, mask: int, seed: int) -> int:
        """The 4-connected component of ``mask`` containing the cells ``seed``.

        Args:
            mask: The cells the region may use.
            seed: One or more cells of ``mask`` to grow from.

        Returns:
            The cells of ``mask`` reachable from ``seed`` through 4-adjacent cells of ``mask``.
        """
        s = self.stride
        region = seed & mask
        while True:
            grown = (region | (region << 1) | (region >> 1) | (region << s) | (region >> s)) & mask
            if grown == region:
                return region
            region = grown

    def is_connected(self, mask: int) -> bool:
        """True when ``mask`` is empty or one 4-connected region."""
        return not mask or self.component(mask, mask & -mask) == mask


@dataclass(frozen=True, slots=True)
class Level:
    """One Longcat level: a grid of walls and empty cells and the cat's start cell.

    Bounds are checked here, so every value this constructor accepts can be played, written
    to a level file and read back.

    Attributes:
        width: Columns, 1 to :data:`MAX_SIZE`.
        height: Rows, 1 to :data:`MAX_SIZE`.
        walls: Wall cells as a bitmask of board indices (see the module docstring).
        start: ``(x, y)`` of the cat's head at the start: an empty cell (filled from move 0).
        title: Name of the level.
        description: What the level is about.
        hint: Shown to a player who asks for a tip.
        author: Who made it.
        par: The shortest solution's number of moves, when the designer gives it.
    """

    width: int
    """Columns, 1 to MAX_SIZE."""
    height: int
    """Rows, 1 to MAX_SIZE."""
    walls: int
    """Wall cells (bitmask of board indices)."""
    start: tuple[int, int]
    """``(x, y)`` of the cat's start cell."""
    title: str = ""
    """Name of the level."""
    description: str = ""
    """What the level is about."""
    hint: str = ""
    """A tip for the player."""
    author: str = ""
    """Who made it."""
    par: int | None = None
    """Moves of the shortest solution, when given."""
    board: Board = field(init=False, repr=False, compare=False, hash=False)
    """The precomputed geometry (derived from the fields above)."""

    def __post_init__(self) -> None:
        for name in ("width", "height"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"level {name} must be an integer")
            if not 1 <= value <= MAX_SIZE:
                raise ValueError(f"level {name} must be between 1 and {MAX_SIZE}, not {value}")
        if isinstance(self.walls, bool) or not isinstance(self.walls, int) or self.walls < 0:
            raise ValueError("level walls must be a non-negative integer bitmask")
        board = Board.build(self.width, self.height, self.walls)
        if self.walls & ~board.grid:
            raise ValueError("level walls name cells outside the grid")
        self._check_start(board)
        # An empty title is allowed: grids built in code and tests need none.
        check_meta(self, title_required=False)
        object.__setattr__(self, "board", board)

    def _check_start(self, board: Board) -> None:
        start = self.start
        if (
            not isinstance(start, tuple)
            or len(start) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in start)
        ):
            raise TypeError("level start must be an (x, y) tuple of integers")
        x, y = start
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise ValueError(f"level start {start} is outside the {self.width}x{self.height} grid")
        if not board.free >> (y * board.stride + x) & 1:
            raise ValueError(f"level start {start} is on a wall")

    # -- cells -------------------------------------------------------------------------------

    def index(self, x: int, y: int) -> int:
        """Board index (bit number) of cell ``(x, y)``."""
        return y * (self.width + 1) + x

    def xy(self, index: int) -> tuple[int, int]:
        """``(x, y)`` of a board index."""
        y, x = divmod(index, self.width + 1)
        return x, y

    @property
    def start_index(self) -> int:
        """Board index of the start cell."""
        return self.index(*self.start)

    @property
    def free(self) -> int:
        """Mask of the empty (non-wall) cells, the start included."""
        return self.board.free

    @property
    def size(self) -> int:
        """Number of empty cells, the start included (the cat's length when the level is won)."""
        return self.board.free.bit_count()

    def is_wall(self, x: int, y: int) -> bool:
        """True when ``(x, y)`` is a wall; cells outside the grid count as walls."""
        if not (0 <= x < self.width and 0 <= y < self.height):
            return True
        return bool(self.walls >> self.index(x, y) & 1)

    # -- grid text ---------------------------------------------------------------------------

    @classmethod
    def from_rows(cls, rows: Sequence[str], title: str = "", **meta: object) -> Level:
        """Build a level from grid rows of ``#`` (wall), ``.`` (empty) and ``@`` (start).

        Args:
            rows: The grid, top row first; all rows of the same length.
            title: The level's title.
            **meta: Other :class:`Level` fields (``description``, ``hint``, ``author``,
                ``par``).

        Returns:
            The level.

        Raises:
            GridError: No rows, an empty or ragged row, an unknown character, no ``@`` or
                more than one (with the 1-based row and column of the fault), a grid larger
                than :data:`MAX_SIZE`.
        """
        if isinstance(rows, str):
            raise TypeError("from_rows takes a sequence of row strings, not one string")
        if not rows:
            raise GridError("a Longcat grid needs at least one row")
        width = len(rows[0])
        if width == 0:
            raise GridError("grid row 1 is empty", 1, 1)
        if len(rows) > MAX_SIZE or width > MAX_SIZE:
            raise GridError(
                f"a Longcat grid is at most {MAX_SIZE}x{MAX_SIZE}, not {width}x{len(rows)}"
            )
        walls = 0
        start: tuple[int, int] | None = None
        for y, row in enumerate(rows):
            if len(row) != width:
                raise GridError(
                    f"grid row {y + 1} has {len(row)} cells, row 1 has {width} "
                    "(all rows must have the same length)",
                    y + 1,
                    min(len(row), width) + 1,
                )
            for x, ch in enumerate(row):
                if ch == WALL:
                    walls |= 1 << (y * (width + 1) + x)
                elif ch == START:
                    if start is not None:
                        raise GridError(
                            f"a second start '@' (the first is at row "
                            f"{start[1] + 1}, column {start[0] + 1})",
                            y + 1,
                            x + 1,
                        )
                    start = (x, y)
                elif ch != EMPTY:
                    raise GridError(
                        f"unknown grid character {ch!r} (expected '#' wall, "
                        "'.' empty or '@' start)",
                        y + 1,
                        x + 1,
                    )
        if start is None:
            raise GridError("the grid has no start cell '@'")
        return cls(width, len(rows), walls, start, title, **meta)  # type: ignore[arg-type]

    def rows(self) -> tuple[str, ...]:
        """The grid as text rows of ``#``, ``.`` and ``@`` (the inverse of :meth:`from_rows`)."""
        out = []
        for y in range(self.height):
            row = []
            for x in range(self.width):
                if (x, y) == self.start:
                    row.append(START)
                elif self.walls >> self.index(x, y) & 1:
                    row.append(WALL)
                else:
                    row.append(EMPTY)
            out.append("".join(row))
        return tuple(out)

    def text(self) -> str:
        """The grid rows joined by newlines."""
        return "\n".join(self.rows())
