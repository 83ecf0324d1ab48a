"""The paper's two random generators: Solution-Down (SD) and Puzzle-Up (PU).

Solution-Down builds the solution first and derives the level from it, following seed
003's pseudo-code step by step; the level is solvable by construction (the recorded moves
solve it). Puzzle-Up draws a random level and leaves it to the solver to accept it or not.
"""

from __future__ import annotations

import random

from core.longcat.level import Level
from core.longcat.sdmdp import STEPS, SDWalk

__all__ = ["STEPS", "puzzle_up", "solution_down"]


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

    The walk is :class:`core.longcat.sdmdp.SDWalk`, the same one SD-PCGRL's agent steers
    (one implementation of the pseudo-code). Every straight run of steps is one move of the
    solution; the run's cells were empty
    when the cat passed, so a sliding cat passes them too, and the wall (or body, or edge)
    placed at each turn stops it exactly where the generator turned.

    Args:
        rng: The random source (seeded by the caller).
        width: Columns (1 to 32).
        height: Rows (1 to 32).

    Returns:
        The level and the moves that solve it.
    """
    walk = SDWalk(width, height, (rng.randrange(width), rng.randrange(height)))
    while options := walk.valid():
        walk.step(rng.choice(options))
    return walk.level(), walk.solution()


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
