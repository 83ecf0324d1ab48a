"""The rules of Longcat on immutable states: slide, legal moves, won and lost.

The cat's head slides cell by cell in the chosen direction until the next cell is a wall,
part of its body, or outside the grid, filling every cell it passes. A move that cannot
advance at least one cell is illegal. The level is won when no empty cell is left, and lost
when cells are left but no move is legal.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from core.game import IllegalMove
from core.longcat.level import DIRECTIONS, LETTERS, Board, Level

__all__ = [
    "State",
    "apply_move",
    "body_from_history",
    "body_path",
    "initial",
    "legal_moves",
    "parse_moves",
    "slide",
    "solution_string",
    "status",
]

_INCREASING = (False, True, False, True)
"""Whether each direction of DIRECTIONS moves towards higher bit indices (down, right)."""


@dataclass(frozen=True, slots=True)
class State:
    """A position: the level, where the cat's head is, and which cells it fills.

    Attributes:
        level: The level being played.
        head: Board index of the head (see :mod:`core.longcat.level`).
        filled: Mask of the cells the cat fills (head and start included).
    """

    level: Level
    """The level being played."""
    head: int
    """Board index of the head."""
    filled: int
    """Mask of the filled cells (head and start included)."""

    @property
    def head_xy(self) -> tuple[int, int]:
        """``(x, y)`` of the head."""
        return self.level.xy(self.head)

    @property
    def empty(self) -> int:
        """Mask of the empty cells left to fill."""
        return self.level.board.free & ~self.filled

    def is_filled(self, x: int, y: int) -> bool:
        """True when the cat fills cell ``(x, y)``."""
        return bool(self.filled >> self.level.index(x, y) & 1)


def slide(board: Board, head: int, filled: int, direction: int) -> tuple[int, int] | None:
    """Slide the head in one direction on raw values (the inner loop of every search).

    Args:
        board: The level's geometry.
        head: Board index of the head.
        filled: Mask of the filled cells.
        direction: Index into :data:`DIRECTIONS`.

    Returns:
        ``(new_head, new_filled)``, or None when the head cannot advance one cell.
    """
    ray = board.rays[direction][head]
    blockers = ray & filled
    if _INCREASING[direction]:
        if blockers:
            # Keep the ray cells below the nearest blocker (its lowest bit).
            ray &= (blockers & -blockers) - 1
        if not ray:
            return None
        return ray.bit_length() - 1, filled | ray
    if blockers:
        # Keep the ray cells above the nearest blocker (its highest bit).
        ray &= -(1 << blockers.bit_length())
    if not ray:
        return None
    return (ray & -ray).bit_length() - 1, filled | ray


def initial(level: Level) -> State:
    """The start of ``level``: the head on the start cell, which is filled.

    Args:
        level: The level.

    Returns:
        The initial :class:`State`.
    """
    head = level.start_index
    return State(level, head, 1 << head)


def legal_moves(state: State) -> tuple[str, ...]:
    """The directions the head can advance in, in :data:`DIRECTIONS` order.

    Args:
        state: The position.

    Returns:
        The legal moves (empty when the level is won or lost).
    """
    board = state.level.board
    return tuple(
        name
        for d, name in enumerate(DIRECTIONS)
        if slide(board, state.head, state.filled, d) is not None
    )


def apply_move(state: State, move: str) -> State:
    """Play one move.

    Args:
        state: The position (not modified).
        move: ``"up"``, ``"down"``, ``"left"`` or ``"right"``.

    Returns:
        The new state.

    Raises:
        IllegalMove: The move is not a direction, the level is already won, or the head
            cannot advance one cell that way.
    """
    try:
        d = DIRECTIONS.index(move)
    except ValueError:
        raise IllegalMove(f"{move!r} is not a move (up, down, left or right)") from None
    if state.filled == state.level.board.free:
        raise IllegalMove("the level is already won")
    moved = slide(state.level.board, state.head, state.filled, d)
    if moved is None:
        raise IllegalMove(f"the cat cannot move {move}: it is blocked")
    return State(state.level, moved[0], moved[1])


def status(state: State) -> str:
    """``"won"`` when every empty cell is filled, ``"lost"`` when no move is left, else
    ``"playing"``."""
    board = state.level.board
    if state.filled == board.free:
        return "won"
    for d in range(4):
        if slide(board, state.head, state.filled, d) is not None:
            return "playing"
    return "lost"


def body_path(level: Level, heads: Sequence[int]) -> tuple[int, ...]:
    """The cat's body in order, tail first, from the head positions of a game.

    A state only records *which* cells are filled; the order in which the body runs through
    them (needed to draw one connected cat) comes from the moves: each move fills the
    straight line of cells from the old head to the new one.

    Args:
        level: The level.
        heads: Board indices of the head after each move, the start first (consecutive
            heads on one row or column, as moves make them).

    Returns:
        Board indices of the body, from the start cell to the last head.

    Raises:
        ValueError: When two consecutive heads are not on one row or column, or equal.
    """
    if not heads:
        return ()
    stride = level.width + 1
    path = [heads[0]]
    for a, b in itertools.pairwise(heads):
        ay, ax = divmod(a, stride)
        by, bx = divmod(b, stride)
        if a == b or (ax != bx and ay != by):
            raise ValueError(f"heads {level.xy(a)} and {level.xy(b)} are not one slide apart")
        step = (1 if b > a else -1) * (1 if ay == by else stride)
        path.extend(range(a + step, b + step, step))
    return tuple(path)


def body_from_history(line: Sequence[State]) -> tuple[int, ...]:
    """The cat's body in order (board indices, tail first) at the end of a played line.

    A state records only which cells are filled; the heads after each move give the order
    (:func:`body_path`).

    Args:
        line: The states of a line from the level's start, one per move, the current one
            last (a session's ``line_since_restart()``: a restart begins the line again).

    Returns:
        The cells filled on the line, in the order the cat filled them; () for no states.

    Raises:
        ValueError: When two consecutive heads are not one slide apart (not a Longcat line).
    """
    if not line:
        return ()
    return body_path(line[-1].level, [state.head for state in line])


def solution_string(moves: tuple[str, ...] | list[str]) -> str:
    """Write moves as letters ``U``, ``D``, ``L``, ``R`` (``("up", "left")`` -> ``"UL"``)."""
    return "".join(LETTERS[DIRECTIONS.index(m)] for m in moves)


def parse_moves(text: str) -> tuple[str, ...]:
    """Read a solution string of ``U``/``D``/``L``/``R`` letters (any case, spaces and commas
    ignored) back into moves.

    Args:
        text: e.g. ``"RDL"`` or ``"r, d, l"``.

    Returns:
        The moves, e.g. ``("right", "down", "left")``.

    Raises:
        ValueError: A character that is not a direction letter.
    """
    out = []
    for ch in text:
        if ch in " ,\t\n":
            continue
        k = LETTERS.find(ch.upper())
        if k < 0:
            raise ValueError(f"{ch!r} is not a move letter (U, D, L or R)")
        out.append(DIRECTIONS[k])
    return tuple(out)
