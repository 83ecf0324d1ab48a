"""The paper's two random generators: Solution-Down (SD) and Puzzle-Up (PU).

Solution-Down builds the solution first and derives the level from it, following seed
003's pseudo-code step by step; the level is solvable by construction (the recorded moves
solve it). Puzzle-Up draws a random level and leaves it to the solver to accept it or not.
"""

from __future__ import annotations

import random

from core.longcat.level import DIRECTIONS, Level

__all__ = ["STEPS", "puzzle_up", "solution_down"]

STEPS: tuple[tuple[int, int], ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))
"""``(dx, dy)`` of each direction of :data:`DIRECTIONS`."""

_EMPTY, _WALL, _BODY = 0, 1, 2


def solution_down(rng: random.Random, width: int, height: int) -> tuple[Level, tuple[str, ...]]:
    """Seed 003's Solution-Down random generator.

    1. Start from an empty ``width`` x ``height`` level.
    2. Put the cat's head on a random cell (the start).
    3. Look which 4-neighbours of the head are empty (not wall, not body, inside).
    4. Pick one of those directions at random.
    5. Put body on the head's cell and move the head one cell that way.
    6. If the direction changed (a turn), the cell straight ahead in the *old* direction must
       stop the cat: put a wall there, unless it is body (or outside, already a wall).
    7. While the head has an empty neighbour, go back to 3.
    8. Copy the level: every cell still empty becomes a wall, the body is removed and the
       head goes back to the start.

    Every straight run of steps is one move of the solution; the run's cells were empty
    when the cat passed, so a sliding cat passes them too, and the wall (or body, or edge)
    placed at each turn stops it exactly where the generator turned.

    Args:
        rng: The random source (seeded by the caller).
        width: Columns (1 to 32).
        height: Rows (1 to 32).

    Returns:
        The level and the moves that solve it.
    """
    cells = [[_EMPTY] * width for _ in range(height)]
    x, y = rng.randrange(width), rng.randrange(height)
    start = (x, y)
    previous = -1
    moves: list[str] = []
    while True:
        options = [
            d
            for d, (dx, dy) in enumerate(STEPS)
            if 0 <= x + dx < width and 0 <= y + dy < height and cells[y + dy][x + dx] == _EMPTY
        ]
        if not options:
            break
        d = rng.choice(options)
        cells[y][x] = _BODY
        if d != previous:
            if previous >= 0:
                ax, ay = x + STEPS[previous][0], y + STEPS[previous][1]
                if 0 <= ax < width and 0 <= ay < height and cells[ay][ax] == _EMPTY:
                    cells[ay][ax] = _WALL
            moves.append(DIRECTIONS[d])
            previous = d
        x, y = x + STEPS[d][0], y + STEPS[d][1]
    cells[y][x] = _BODY
    walls = 0
    for cy, row in enumerate(cells):
        for cx, cell in enumerate(row):
            if cell != _BODY:
                walls |= 1 << (cy * (width + 1) + cx)
    return Level(width, height, walls, start), tuple(moves)


def puzzle_up(rng: random.Random, width: int, height: int, wall_prob: float = 0.5) -> Level:
    """Puzzle-Up random: every cell is a wall with probability ``wall_prob``, the start is a
    random empty cell (a random cell made empty when every cell came out a wall).

    Args:
        rng: The random source.
        width: Columns.
        height: Rows.
        wall_prob: Probability that a cell is a wall.

    Returns:
        The level (often unsolvable: the solver decides).
    """
    walls = 0
    free: list[tuple[int, int]] = []
    for y in range(height):
        for x in range(width):
            if rng.random() < wall_prob:
                walls |= 1 << (y * (width + 1) + x)
            else:
                free.append((x, y))
    if free:
        start = rng.choice(free)
    else:
        start = (rng.randrange(width), rng.randrange(height))
        walls &= ~(1 << (start[1] * (width + 1) + start[0]))
    return Level(width, height, walls, start)
