"""Longcat generators: Solution-Down is solvable by construction, every method returns
solvable levels, seeds replay, filters hold, and the start-cell conditions are sound."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import (
    GENERATORS,
    GenerationError,
    Level,
    analyse,
    apply_move,
    generate,
    initial,
    is_solvable,
    predict_difficulty,
    status,
)
from core.longcat.algomasks import bsp_mask, ca_mask, carve_mask, fractal_mask
from core.longcat.generate import candidate, pick_start, start_candidates
from core.longcat.level import DIRECTIONS, Board
from core.longcat.masks import TEMPLATES, mask_walls, mirror, rotate, squeeze, template_mask
from core.longcat.sdpu import puzzle_up, solution_down
from tests.core.helpers import LONGCAT_METHODS
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import regions


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 9), st.integers(1, 9))
def test_solution_down_is_solved_by_its_own_moves(seed: int, width: int, height: int) -> None:
    level, moves = solution_down(random.Random(seed), width, height)
    state = initial(level)
    for move in moves:
        state = apply_move(state, move)
    assert status(state) == "won"
    assert is_solvable(level) is True


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32))
def test_solution_down_follows_the_pseudo_code(seed: int) -> None:
    """Cells are exactly the walk; consecutive moves turn; every turn is stopped by a wall,
    body or the edge (checked by replaying: a slide that overshot would not win)."""
    level, moves = solution_down(random.Random(seed), 6, 5)
    assert all(a != b for a, b in itertools.pairwise(moves))
    # The walk fills every empty cell it leaves, and the start is its first cell.
    assert level.size >= len(moves) + 1
    assert analyse(level).metrics.solvable


def test_solution_down_on_a_hand_traced_seed() -> None:
    """Trace of one run, followed by hand through the pseudo-code: the last cell has no
    empty neighbour and every cell off the walk is a wall."""
    level, moves = solution_down(random.Random(7), 4, 3)
    state = initial(level)
    for move in moves:
        state = apply_move(state, move)
    assert state.filled == level.free and level.size == bin(level.free).count("1")
    assert GENERATORS["sd"].make(random.Random(7), 4, 3) == level


@pytest.mark.parametrize("method", sorted(GENERATORS))
def test_every_method_gives_solvable_levels(method: str) -> None:
    width = height = 5 if method == "pu" else 8
    options = {"wall_prob": 0.3} if method == "pu" else {}
    if method == "rl":  # the shell's loader of the bundled weights (core reads no files)
        from tui.games.longcat.weights import install

        install()
    for seed in range(2):
        level = generate(method, seed, width, height, **options)
        assert is_solvable(level) is True
        assert (level.width, level.height) == (width, height) and level.size >= 2
        assert level.title == f"{method} {seed}"
        assert generate(method, seed, width, height, **options) == level  # replayable


def test_different_seeds_give_different_levels() -> None:
    levels = {generate("sd", seed, 8, 8) for seed in range(20)}
    assert len(levels) >= 15


def test_unique_filter() -> None:
    for seed in range(3):
        level = generate("sd", seed, 6, 6, unique=True)
        assert analyse(level).metrics.solution_paths == 1


def test_band_filter() -> None:
    for seed in range(3):
        level = generate("sd", seed, 8, 8, band=(20.0, 50.0))
        assert 20.0 <= predict_difficulty(level) < 50.0


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: generate("nope", 0, 8, 8), "unknown generator"),
        (lambda: generate("sd", 0, 8, 8, colour=1), "has no option 'colour'"),
        (lambda: generate("pu", 0, 8, 8, wall_prob="high"), "must be float"),
        (lambda: generate("ca", 0, 8, 8, steps=True), "must be int"),
        (lambda: generate("template", 0, 8, 8, shape="star"), "must be one of"),
        (lambda: generate("template", 0, 2, 8), "between 3 and 32"),
        (lambda: generate("sd", 0, 33, 8), "between 1 and 32"),
        (lambda: generate("sd", 0, 4, 4, band=(1e6, 2e6), max_attempts=3), "in 3 attempts"),
        (lambda: generate("sd", 0, 4, 4, should_stop=lambda: True), "cancelled"),
    ],
)
def test_generation_errors(call, message) -> None:
    with pytest.raises(GenerationError, match=message):
        call()


def test_generators_table_describes_every_method() -> None:
    assert set(GENERATORS) == set(LONGCAT_METHODS)
    for gen in GENERATORS.values():
        assert gen.description and all(o.description for o in gen.options)


# -- start cells -----------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(small_levels(max_side=4))
def test_start_candidates_never_drop_a_solvable_start(level: Level) -> None:
    board = Board.build(level.width, level.height, level.walls)
    allowed = set(start_candidates(board))
    for i in range(board.grid.bit_length()):
        if board.free >> i & 1:
            start = Level(level.width, level.height, level.walls, level.xy(i))
            if is_solvable(start):
                assert i in allowed


@settings(max_examples=100, deadline=None)
@given(small_levels(max_side=4), st.integers(0, 1000))
def test_pick_start_finds_a_start_when_one_exists(level: Level, seed: int) -> None:
    mask = tuple(tuple(ch != "#" for ch in row) for row in level.rows())
    picked = pick_start(random.Random(seed), mask)
    any_start = any(
        is_solvable(Level(level.width, level.height, level.walls, level.xy(i)))
        for i in range(level.board.grid.bit_length())
        if level.free >> i & 1
    )
    assert (picked is not None) == any_start
    if picked is not None:
        assert picked.walls == level.walls and is_solvable(picked)


# -- masks -----------------------------------------------------------------------------------


def _cells(mask) -> frozenset:
    return frozenset((x, y) for y, row in enumerate(mask) for x, v in enumerate(row) if v)


@pytest.mark.parametrize("shape", sorted(TEMPLATES))
def test_templates(shape: str) -> None:
    for seed in range(10):
        for width, height in ((8, 8), (6, 9)):
            mask = template_mask(random.Random(seed), width, height, shape)
            assert len(mask) == height and all(len(r) == width for r in mask)
            assert _cells(mask)


def test_spiral_is_one_corridor() -> None:
    """A spiral has no branch: every cell has at most two empty neighbours."""
    for seed in range(10):
        mask = template_mask(random.Random(seed), 8, 8, "spiral", transform=False, squeeze_prob=0)
        cells = _cells(mask)
        assert regions(cells) == 1
        assert all(_neighbours(cells, x, y) <= 2 for x, y in cells)


def test_transforms() -> None:
    mask = template_mask(random.Random(3), 5, 7, "chair", transform=False, squeeze_prob=0)
    assert rotate(mask, 4) == mask and rotate(rotate(mask, 1), 3) == mask
    assert len(rotate(mask, 1)) == 5 and len(rotate(mask, 1)[0]) == 7
    assert mirror(mirror(mask, True, True), True, True) == mask
    assert mirror(mask, True, False)[0] == tuple(reversed(mask[0]))
    squeezed = squeeze(mask, random.Random(0))
    assert len(squeezed) == 7 and all(len(r) == 5 for r in squeezed)
    assert len(_cells(squeezed)) <= len(_cells(mask))


@pytest.mark.parametrize("draw", [ca_mask, bsp_mask, fractal_mask, carve_mask])
def test_algorithmic_masks_are_one_region(draw) -> None:
    for seed in range(15):
        mask = draw(random.Random(seed), 8, 8)
        assert len(mask) == 8 and all(len(r) == 8 for r in mask)
        assert regions(_cells(mask)) == 1


def _neighbours(cells: frozenset, x: int, y: int) -> int:
    return sum((n in cells) for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))


def _carvable(cells: frozenset) -> bool:
    ends = sum(1 for x, y in cells if _neighbours(cells, x, y) < 2)
    return bool(cells) and regions(cells) == 1 and ends <= 2


def test_carve_keeps_its_promises() -> None:
    """Connected, at most two dead ends, the density of walls reached unless no cell can be
    carved, and the colours balanced unless no cell of the surplus colour can be carved."""
    balanced = 0
    for seed in range(15):
        cells = _cells(carve_mask(random.Random(seed), 8, 8))
        assert _carvable(cells)
        if len(cells) > 64 - int(0.45 * 64):
            assert not any(_carvable(cells - {c}) for c in cells)
        surplus = 2 * sum(1 for x, y in cells if (x + y) % 2 == 0) - len(cells)
        if abs(surplus) <= 1:
            balanced += 1
            continue
        colour = 0 if surplus > 0 else 1
        assert not any(_carvable(cells - {c}) for c in cells if sum(c) % 2 == colour)
    assert balanced >= 10


def test_mask_walls_and_puzzle_up() -> None:
    mask = ((True, False), (True, True))
    assert mask_walls(mask) == 1 << 1
    level = puzzle_up(random.Random(1), 6, 6, 1.0)  # all walls: one cell is made empty
    assert level.size == 1
    assert candidate("pu", 1, 6, 6, wall_prob=1.0) == level  # won at the start: solvable


# -- a reference: seed 003's Solution-Down pseudo-code, written out on its own ---------------

EMPTY, WALL, BODY = 0, 1, 2
STEP_XY = ((0, -1), (0, 1), (-1, 0), (1, 0))  # up, down, left, right (DIRECTIONS order)


def reference_solution_down(
    rng: random.Random, width: int, height: int
) -> tuple[Level, tuple[str, ...]]:
    """The pseudo-code on a list-of-lists grid, as solution_down was written before it became
    SD-PCGRL's walk (core.longcat.sdmdp.SDWalk): an independent copy to compare them with."""
    cells = [[EMPTY] * width for _ in range(height)]
    x, y = rng.randrange(width), rng.randrange(height)
    start = (x, y)
    previous = -1
    moves: list[str] = []
    while True:
        options = [
            d
            for d, (dx, dy) in enumerate(STEP_XY)
            if 0 <= x + dx < width and 0 <= y + dy < height and cells[y + dy][x + dx] == EMPTY
        ]
        if not options:
            break
        d = rng.choice(options)
        cells[y][x] = BODY
        if d != previous:
            if previous >= 0:
                ax, ay = x + STEP_XY[previous][0], y + STEP_XY[previous][1]
                if 0 <= ax < width and 0 <= ay < height and cells[ay][ax] == EMPTY:
                    cells[ay][ax] = WALL
            moves.append(DIRECTIONS[d])
            previous = d
        x, y = x + STEP_XY[d][0], y + STEP_XY[d][1]
    cells[y][x] = BODY
    walls = 0
    for cy, row in enumerate(cells):
        for cx, cell in enumerate(row):
            if cell != BODY:
                walls |= 1 << (cy * (width + 1) + cx)
    return Level(width, height, walls, start), tuple(moves)


@pytest.mark.parametrize("size", [(8, 8), (5, 4), (12, 10), (1, 1), (1, 6), (32, 2)])
def test_solution_down_is_the_pseudo_code(size: tuple[int, int]) -> None:
    for seed in range(300):
        assert solution_down(random.Random(seed), *size) == reference_solution_down(
            random.Random(seed), *size
        )
