"""The Solution-Down MDP of SD-PCGRL (seed 003, "PCGRL"): Solution-Down generation as a game.

A :class:`SDWalk` is the level in progress of :func:`core.longcat.sdpu.solution_down`: a grid
of empty, wall and body cells, the cat's head and the direction of its last step. An action is
one of the four directions (:data:`core.longcat.level.DIRECTIONS` order: up, down, left,
right); stepping follows the pseudo-code exactly:

* the head's cell becomes body and the head moves one cell that way;
* when the direction changes (a turn), the cell straight ahead in the *old* direction gets a
  wall unless it is body (or outside the grid);
* the walk ends when the head has no empty 4-neighbour;
* the level is made as SD makes it (:meth:`SDWalk.level`): every cell that is not body
  becomes a wall, the head goes back to the start.

Actions towards a non-empty cell: SD only ever picks among the directions with an empty
neighbour (pseudo-code step 4). :meth:`SDWalk.step` therefore accepts only those
(:meth:`SDWalk.valid`); the learning environment (:mod:`core.longcat.sdenv`) remaps an
invalid action to a uniformly random valid one, and the play-time policy
(:mod:`core.longcat.policy`) masks them out. Either way every level is one SD can make.

The observation (:meth:`SDWalk.observation`) is the seed's ``(2h-1) x (2w-1)`` view centred
on the head (15x15 for 8x8): every grid cell is inside the view wherever the head is. It has
the channels of :data:`CHANNELS`, each 0/1 (float32):

* ``empty``: an empty cell (the head may still walk there);
* ``wall``: a wall placed at a turn;
* ``body``: the cat's body (the start and every cell walked, the head's own cell included);
* ``outside``: beyond the grid's edge;
* ``previous``: the cell the head has just left (none before the first step), so the view
  tells which direction continues straight on and which ones turn (and wall a cell).

Pure: no I/O; the walk itself draws nothing at random.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.longcat.level import DIRECTIONS, Level

if TYPE_CHECKING:  # numpy is imported where the views are made: SD generation needs none
    import numpy as np

__all__ = ["CHANNELS", "STEPS", "SDWalk", "observation_shape"]

STEPS: tuple[tuple[int, int], ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))
"""``(dx, dy)`` of each action, in :data:`core.longcat.level.DIRECTIONS` order."""

CHANNELS: tuple[str, ...] = ("empty", "wall", "body", "outside", "previous")
"""The observation's channels, in order (see the module docstring)."""

EMPTY, WALL, BODY, OUTSIDE = 0, 1, 2, 3
"""Cell codes of the grid (``OUTSIDE`` only in the padded view)."""


def observation_shape(width: int, height: int) -> tuple[int, int, int]:
    """``(channels, 2 * height - 1, 2 * width - 1)``: the shape of an observation."""
    return len(CHANNELS), 2 * height - 1, 2 * width - 1


class SDWalk:
    """One Solution-Down generation in progress (mutable: the environment steps it).

    Args:
        width: Columns.
        height: Rows.
        start: ``(x, y)`` of the start cell (the head; it counts as body).
    """

    __slots__ = ("_padded", "cells", "head", "height", "moves", "previous", "start", "width")

    _padded: np.ndarray | None

    def __init__(self, width: int, height: int, start: tuple[int, int]) -> None:
        x, y = start
        if not (0 <= x < width and 0 <= y < height):
            raise ValueError(f"start {start} is outside the {width}x{height} grid")
        self.width = width
        """Columns."""
        self.height = height
        """Rows."""
        self.cells = bytearray(width * height)
        """Row-major cell codes (``EMPTY``, ``WALL``, ``BODY``)."""
        self.cells[y * width + x] = BODY
        self.start = start
        """The start cell."""
        self.head = start
        """The head's cell."""
        self.previous = -1
        """Direction of the last step (-1 before the first)."""
        self.moves: list[int] = []
        """The direction of every step taken."""
        self._padded = None  # the observation's padded grid, made at the first view

    def valid(self) -> list[int]:
        """The directions whose neighbour of the head is an empty cell (SD's options)."""
        x, y = self.head
        w, h, cells = self.width, self.height, self.cells
        out = []
        for d, (dx, dy) in enumerate(STEPS):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and cells[ny * w + nx] == EMPTY:
                out.append(d)
        return out

    def valid_mask(self) -> np.ndarray:
        """:meth:`valid` as four booleans."""
        import numpy as np

        mask = np.zeros(4, dtype=bool)
        mask[self.valid()] = True
        return mask

    @property
    def done(self) -> bool:
        """True when the head has no empty neighbour: SD generation stops here."""
        return not self.valid()

    def step(self, d: int) -> None:
        """One step of SD (pseudo-code steps 5 and 6) in direction ``d``.

        Raises:
            ValueError: ``d`` is not one of :meth:`valid`.
        """
        x, y = self.head
        w, h, cells = self.width, self.height, self.cells
        nx, ny = x + STEPS[d][0], y + STEPS[d][1]
        if not (0 <= nx < w and 0 <= ny < h and cells[ny * w + nx] == EMPTY):
            raise ValueError(f"direction {d} does not lead to an empty cell")
        if d != self.previous and self.previous >= 0:
            ax, ay = x + STEPS[self.previous][0], y + STEPS[self.previous][1]
            if 0 <= ax < w and 0 <= ay < h and cells[ay * w + ax] == EMPTY:
                cells[ay * w + ax] = WALL
        self.previous = d
        x, y = x + STEPS[d][0], y + STEPS[d][1]
        cells[y * w + x] = BODY
        self.head = (x, y)
        self.moves.append(d)

    def level(self) -> Level:
        """The level SD makes from the walk so far (pseudo-code step 8): every cell that is
        not body is a wall, the head is back on the start."""
        w = self.width
        walls = 0
        for i, cell in enumerate(self.cells):
            if cell != BODY:
                y, x = divmod(i, w)
                walls |= 1 << (y * (w + 1) + x)
        return Level(w, self.height, walls, self.start)

    def solution(self) -> tuple[str, ...]:
        """The moves that solve :meth:`level`: one slide per straight run of steps."""
        moves = self.moves
        return tuple(DIRECTIONS[d] for i, d in enumerate(moves) if i == 0 or moves[i - 1] != d)

    def observation(self) -> np.ndarray:
        """The ``(channels, 2h-1, 2w-1)`` float32 view centred on the head (see
        :data:`CHANNELS`)."""
        import numpy as np

        w, h = self.width, self.height
        padded = self._padded
        if padded is None:  # a window of the grid padded with OUTSIDE on every side
            padded = np.full((3 * h - 2, 3 * w - 2), OUTSIDE, dtype=np.int8)
            self._padded = padded
        padded[h - 1 : 2 * h - 1, w - 1 : 2 * w - 1] = np.frombuffer(
            bytes(self.cells), dtype=np.int8
        ).reshape(h, w)
        x, y = self.head
        window = padded[y : y + 2 * h - 1, x : x + 2 * w - 1]
        obs = np.zeros(observation_shape(w, h), dtype=np.float32)
        obs[0] = window == EMPTY
        obs[1] = window == WALL
        obs[2] = window == BODY
        obs[3] = window == OUTSIDE
        if self.previous >= 0:
            dx, dy = STEPS[self.previous]
            obs[4, h - 1 - dy, w - 1 - dx] = 1.0
        return obs
