"""Seed 003's ``validatePath``: is a path a legal play of a level, and does it fill it?

:func:`validate_path` plays a path against a level without raising: it says whether every
move is legal (``valid``), whether the grid ends up full (``filled``), and where and why it
fails. A path is a move string (``"URDL"``, as the CLI's ``--moves``), a sequence of move
names, or the seed's ``Path`` (a list of ``(x, y)`` points, the start first, one point per
cell the head passes). A point path must follow the rules cell by cell: every straight run of
points is one slide, so it has to end exactly where the cat stops (the seed's Hamiltonian path
through the open cells, with the turns Longcat's slides allow).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from core.longcat.level import DIRECTIONS, LETTERS, Level
from core.longcat.rules import parse_moves, slide
from core.text import plural

__all__ = ["PathCheck", "validate_path"]

STEPS: dict[tuple[int, int], int] = {(0, -1): 0, (0, 1): 1, (-1, 0): 2, (1, 0): 3}
"""Unit step ``(dx, dy)`` -> index into :data:`DIRECTIONS`."""

Path = str | Sequence[str] | Sequence[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class PathCheck:
    """The verdict on one path.

    Attributes:
        valid: Every move is legal (a move after the grid is full is not).
        filled: Every open cell is filled after the legal moves played.
        played: How many moves were played before the first illegal one (all when valid).
        fail_index: 0-based index of the first illegal move; None when valid.
        reason: Why that move is illegal; None when valid.
        head: ``(x, y)`` of the head after the legal moves.
        cells_left: Open cells still empty after them.
        moves: The path as a ``UDLR`` string (for a point path: one letter per slide, up to
            the failure).
    """

    valid: bool
    """Every move is legal."""
    filled: bool
    """Every open cell is filled after the legal moves."""
    played: int
    """Moves played before the first illegal one."""
    fail_index: int | None
    """0-based index of the first illegal move (None: valid)."""
    reason: str | None
    """Why it is illegal (None: valid)."""
    head: tuple[int, int]
    """The head after the legal moves."""
    cells_left: int
    """Open cells left empty."""
    moves: str
    """The path as letters."""

    @property
    def won(self) -> bool:
        """Valid and every cell filled: the path solves the level."""
        return self.valid and self.filled


def validate_path(level: Level, path: Path) -> PathCheck:
    """Check a path against a level (seed 003's ``validatePath``), without raising on a
    wrong path.

    Args:
        level: The level.
        path: A ``UDLR`` string (case, spaces and commas ignored), a sequence of move names
            (``"up"``...), or a sequence of ``(x, y)`` points starting at the start.

    Returns:
        The :class:`PathCheck`.

    Raises:
        ValueError: The path cannot be read (a letter that is not U, D, L or R, a name that is
            not a direction, a point that is not two integers).
    """
    if isinstance(path, str):
        return _play(level, [(DIRECTIONS.index(m), None) for m in parse_moves(path)])
    items = list(path)
    if items and all(isinstance(p, str) for p in items):
        for m in items:
            if m not in DIRECTIONS:
                raise ValueError(f"{m!r} is not a move (up, down, left or right)")
        return _play(level, [(DIRECTIONS.index(m), None) for m in items])
    return _play_points(level, [_point(p) for p in items])


def _point(p: object) -> tuple[int, int]:
    if not isinstance(p, (tuple, list)) or len(p) != 2:
        raise ValueError(f"{p!r} is not a point (x, y)")
    x, y = p
    if (
        not (isinstance(x, int) and isinstance(y, int))
        or isinstance(x, bool)
        or isinstance(y, bool)
    ):
        raise ValueError(f"{p!r} is not a point of two integers")
    return x, y


def _play(
    level: Level,
    moves: list[tuple[int, tuple[int, int] | None]],
    broken: tuple[int, str] | None = None,
) -> PathCheck:
    """Play ``(direction, expected end or None)`` moves; ``broken``: a failure found while
    reading a point path, at that move index."""
    board = level.board
    head = level.start_index
    filled = 1 << head
    letters: list[str] = []
    for i, (d, end) in enumerate(moves):
        reason = None
        moved = None if filled == board.free else slide(board, head, filled, d)
        if filled == board.free:
            reason = _after_win(i, DIRECTIONS[d])
        elif moved is None:
            reason = f"the cat cannot move {DIRECTIONS[d]} from {level.xy(head)}: it is blocked"
        elif end is not None and level.xy(moved[0]) != end:
            reason = (
                f"moving {DIRECTIONS[d]} from {level.xy(head)} the cat slides to "
                f"{level.xy(moved[0])}, not {end}"
            )
        if reason is not None:
            return _verdict(level, head, filled, i, reason, letters)
        head, filled = moved  # type: ignore[misc]
        letters.append(LETTERS[d])
    if broken is not None:
        return _verdict(level, head, filled, broken[0], broken[1], letters)
    return _verdict(level, head, filled, None, None, letters)


def _after_win(index: int, direction: str) -> str:
    """Why move ``index`` (0-based) is illegal when the grid is already full: the level was
    won by the moves before it, so this one has nothing to slide into."""
    won_by = f"after {plural(index, 'move')}" if index else "at the start"
    return (
        f"the level was already won {won_by} (every cell filled), so move {index + 1} "
        f"({direction}) is one move too many"
    )


def _verdict(
    level: Level, head: int, filled: int, index: int | None, reason: str | None, letters: list[str]
) -> PathCheck:
    left = (level.board.free & ~filled).bit_count()
    return PathCheck(
        valid=index is None,
        filled=left == 0,
        played=len(letters),
        fail_index=index,
        reason=reason,
        head=level.xy(head),
        cells_left=left,
        moves="".join(letters),
    )


def _play_points(level: Level, points: list[tuple[int, int]]) -> PathCheck:
    """A point path as slides: each straight run of unit steps is one move that must end at
    the run's last point."""
    if not points:
        return _play(level, [])
    if points[0] != level.start:
        return _play(
            level, [], (0, f"the path starts at {points[0]}, not at the start {level.start}")
        )
    moves: list[tuple[int, tuple[int, int] | None]] = []
    last = None
    for a, b in pairwise(points):
        d = STEPS.get((b[0] - a[0], b[1] - a[1]))
        if d is None:
            # Reported as the move after the slides read so far (if those are legal).
            return _play(
                level, moves, (len(moves), f"{a} to {b} is not one step up, down, left or right")
            )
        if d == last:
            moves[-1] = (d, b)
        else:
            moves.append((d, b))
        last = d
    return _play(level, moves)
