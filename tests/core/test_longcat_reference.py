"""A brute-force Longcat reference, written independently of ``core.longcat``'s bitmasks,
and the hand-worked levels every Longcat test module checks against.

The reference works on sets of ``(x, y)`` cells, steps the cat one cell at a time, and
enumerates every *move sequence* from the start with a plain depth-first search (no
pruning, no memo). It is exponential and only meant for small levels. Other modules import
it (``from tests.core.test_longcat_reference import brute, HAND``); the tests at the bottom
check the reference itself against the hand-worked answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import pytest

from core.longcat import Level

STEP = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}
ORDER = ("up", "down", "left", "right")

Cell = tuple[int, int]
Pos = tuple[Cell, frozenset]


def free_cells(level: Level) -> frozenset:
    """Every non-wall cell, read back from the grid text (not from the bitmasks)."""
    return frozenset(
        (x, y) for y, row in enumerate(level.rows()) for x, ch in enumerate(row) if ch != "#"
    )


def naive_slide(free: frozenset, pos: Pos, move: str) -> Pos | None:
    """Step one cell at a time until the next cell is a wall, body or outside."""
    (x, y), filled = pos
    dx, dy = STEP[move]
    cells = []
    while (x + dx, y + dy) in free and (x + dx, y + dy) not in filled:
        x, y = x + dx, y + dy
        cells.append((x, y))
    if not cells:
        return None
    return (x, y), filled | frozenset(cells)


def regions(cells: frozenset) -> int:
    """Number of 4-connected regions of ``cells`` (plain set flood fill)."""
    left, count = set(cells), 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in left:
                    left.remove(n)
                    todo.append(n)
    return count


def sequences(free: frozenset, pos: Pos):
    """Every maximal move sequence from ``pos``: yields (moves, final position), DFS."""
    stack = [(pos, ())]
    while stack:
        cur, moves = stack.pop()
        nexts = [(m, naive_slide(free, cur, m)) for m in ORDER]
        nexts = [(m, n) for m, n in nexts if n is not None]
        if not nexts:
            yield moves, cur
        for m, n in nexts:
            stack.append((n, moves + (m,)))


@dataclass
class Brute:
    """Everything the reference computes for one level."""

    states: set
    kinds: dict
    metrics: dict
    solutions: list
    expected_moves: float


def brute(level: Level) -> Brute:
    """Brute-force states, kinds, metrics and the simulated player's expected moves."""
    free = free_cells(level)
    start: Pos = (level.start, frozenset([level.start]))
    states: set = set()
    stack = [start]
    while stack:  # every prefix of every sequence (duplicates are re-explored: no memo)
        pos = stack.pop()
        states.add(pos)
        stack.extend(n for n in (naive_slide(free, pos, m) for m in ORDER) if n is not None)
    moves_of = {p: [m for m in ORDER if naive_slide(free, p, m)] for p in states}
    wins_from = {p: [s for s, end in sequences(free, p) if end[1] == free] for p in states}
    kinds = {}
    for p in states:
        if p[1] == free:
            kinds[p] = "success"
        elif not moves_of[p]:
            kinds[p] = "fail"
        elif wins_from[p]:
            kinds[p] = "reachable"
        elif regions(free - p[1]) >= 2:
            kinds[p] = "dead"
        else:
            kinds[p] = "indeterminate"
    wins = wins_from[start]
    good = {"reachable", "success"}
    metrics = {
        "grid_cells": level.width * level.height,
        "open_cells": len(free),
        "states": len(states),
        "edges": sum(len(v) for v in moves_of.values()),
        "branches": sum(1 for v in moves_of.values() if len(v) > 1),
        "fails": sum(1 for k in kinds.values() if k == "fail"),
        "success_states": sum(1 for k in kinds.values() if k == "success"),
        "reachable_states": sum(1 for k in kinds.values() if k == "reachable"),
        "dead_states": sum(1 for k in kinds.values() if k == "dead"),
        "indeterminate_states": sum(1 for k in kinds.values() if k == "indeterminate"),
        "indeterminate_branches": sum(
            len(moves_of[p]) - 1
            for p, k in kinds.items()
            if k == "indeterminate" and len(moves_of[p]) > 1
        ),
        "solution_paths": len(wins),
        "solution_branches": sum(
            1
            for p, k in kinds.items()
            if k == "reachable"
            for m in moves_of[p]
            if kinds[naive_slide(free, p, m)] not in good
        ),
        "shortest_solution": min(map(len, wins)) if wins else None,
    }
    return Brute(states, kinds, metrics, wins, _player(free, start, kinds))


def _player(free: frozenset, start: Pos, kinds: dict) -> float:
    """The simulated player on the tree of move sequences, in exact fractions.

    Each attempt follows uniformly random non-dead moves and ends at a success, a fail, or a
    position without non-dead moves. p = Σ P(winning leaf), m = Σ P(leaf) × depth(leaf);
    the expected total is m / p.
    """
    p = m = Fraction(0)
    stack = [(start, Fraction(1), 0)]
    while stack:
        pos, prob, depth = stack.pop()
        if kinds[pos] == "success":
            p += prob
            m += prob * depth
            continue
        options = [
            n
            for n in (naive_slide(free, pos, mv) for mv in ORDER)
            if n is not None and kinds[n] != "dead"
        ]
        if not options:
            m += prob * depth
            continue
        for n in options:
            stack.append((n, prob / len(options), depth + 1))
    return float(m / p) if p else math.inf


# -- hand-worked levels ----------------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """A level worked out by hand: its grid, metrics, class counts and the player's label."""

    rows: tuple[str, ...]
    metrics: dict
    classes: dict
    expected_moves: float
    note: str

    def __post_init__(self) -> None:
        # The seed's Size: every cell of the grid, walls included.
        self.metrics.setdefault("grid_cells", len(self.rows) * len(self.rows[0]))


def _m(
    size, states, edges, branches, fails, success, reachable, dead, indet, ib, sols, sb, shortest
):
    return dict(
        open_cells=size,
        states=states,
        edges=edges,
        branches=branches,
        fails=fails,
        success_states=success,
        reachable_states=reachable,
        dead_states=dead,
        indeterminate_states=indet,
        indeterminate_branches=ib,
        solution_paths=sols,
        solution_branches=sb,
        shortest_solution=shortest,
    )


HAND: dict[str, Hand] = {
    # Slide right once and every cell is filled.
    "corridor_end": Hand(
        ("@..",), _m(3, 2, 1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 1), {"start": 1, "success": 1}, 1.0, "R"
    ),
    # Left or right: either way the other end is cut off. The start's empty cells are two
    # regions, so the start is dead; both moves end in fails.
    "corridor_middle": Hand(
        (".@.",),
        _m(3, 3, 2, 1, 2, 0, 0, 1, 0, 0, 0, 0, None),
        {"start": 1, "fail": 2},
        math.inf,
        "unsolvable, dead start",
    ),
    # The head sits on the bend of an L: its empty cells are the two arms, not connected
    # through the (filled) head, so the start is dead.
    "l_bend": Hand(
        ("@..", ".##", ".##"),
        _m(5, 3, 2, 1, 2, 0, 0, 1, 0, 0, 0, 0, None),
        {"start": 1, "fail": 2},
        math.inf,
        "unsolvable, dead start",
    ),
    # An L from its end: R then D.
    "l_end": Hand(
        ("@..", "##.", "##."),
        _m(5, 3, 2, 0, 0, 1, 2, 0, 0, 0, 1, 0, 2),
        {"start": 1, "reachable": 1, "success": 1},
        2.0,
        "RD",
    ),
    # 2x2 from a corner: RDL or DRU, ending on different cells (two success states).
    "square_2x2": Hand(
        ("@.", ".."),
        _m(4, 7, 6, 1, 0, 2, 5, 0, 0, 0, 2, 0, 3),
        {"start": 1, "reachable": 4, "success": 2},
        3.0,
        "RDL, DRU",
    ),
    # A T: up is forced, then left and right each cut off the other side.
    "t_shape": Hand(
        ("...", "#@#"),
        _m(4, 4, 3, 1, 2, 0, 0, 1, 1, 0, 0, 0, None),
        {"start": 1, "dead": 1, "fail": 2},
        math.inf,
        "unsolvable, indeterminate start",
    ),
    # Left and right win (LDRU, RDLU); down splits the grid (dead) and ends in fails.
    "two_rows": Hand(
        (".@.", "..."),
        _m(6, 14, 13, 2, 2, 2, 7, 3, 0, 0, 2, 1, 4),
        {"start": 1, "reachable": 6, "success": 2, "dead": 3, "fail": 2},
        4.0,
        "player: never goes down",
    ),
    # Up wins by the forced ULDRUL. Left reaches an indeterminate state (connected, but
    # lost) with two moves, both into dead states; the player restarts from it.
    # p = 1/2, m = 1 + (5 + 0)/2 = 3.5, expected total 7.
    "indeterminate": Hand(
        (".....", ".#..@", "....#"),
        _m(13, 18, 17, 4, 4, 1, 6, 6, 1, 1, 1, 1, 6),
        {"start": 1, "reachable": 5, "success": 1, "indeterminate": 1, "dead": 6, "fail": 4},
        7.0,
        "ULDRUL",
    ),
    # Only the start: won before any move.
    "single": Hand(
        ("@",), _m(1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0), {"start": 1}, 0.0, "already won"
    ),
}
"""Levels whose graphs were drawn and counted by hand (see each comment)."""


def hand_level(name: str) -> Level:
    """The level of a :data:`HAND` entry."""
    return Level.from_rows(HAND[name].rows, title=name)


# -- the arduboy levels ----------------------------------------------------------------------
# The 100 arduboy levels ship as the bundled pack levels/longcat/01-arduboy.levels (made from
# the public data file; tests/core/test_longcat_levels.py checks that the grids are the
# file's), so these tests need nothing outside the repository.

ARDUBOY_PACK = "01-arduboy"
"""The bundled pack holding the arduboy levels."""


def arduboy_levels() -> list[Level]:
    """The 100 arduboy levels, in order, from the bundled pack."""
    from grammar.levels import bundled_packs

    return list(dict(bundled_packs("longcat"))[ARDUBOY_PACK].levels)


# -- the reference checked against the hand-worked answers -----------------------------------


@pytest.mark.parametrize("name", sorted(HAND))
def test_reference_matches_hand_worked_metrics(name: str) -> None:
    ref = brute(hand_level(name))
    assert ref.metrics == HAND[name].metrics


@pytest.mark.parametrize("name", sorted(HAND))
def test_reference_matches_hand_worked_player(name: str) -> None:
    assert brute(hand_level(name)).expected_moves == pytest.approx(HAND[name].expected_moves)


def test_reference_solutions_are_the_hand_worked_ones() -> None:
    assert sorted(brute(hand_level("square_2x2")).solutions) == [
        ("down", "right", "up"),
        ("right", "down", "left"),
    ]
    assert brute(hand_level("indeterminate")).solutions == [
        ("up", "left", "down", "right", "up", "left")
    ]


def test_arduboy_pack_has_100_levels() -> None:
    levels = arduboy_levels()
    assert len(levels) == 100
    assert all((lv.width, lv.height) == (8, 8) for lv in levels)
