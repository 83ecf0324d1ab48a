"""Masks (seed 003, methods B and C): the template set, the flood-fill notch generator and the
solver's success rate over start cells."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import Level, analyse, generate, is_solvable, validate_path
from core.longcat.algomasks import notch_mask
from core.longcat.generate import GENERATORS, start_success
from core.longcat.masks import TEMPLATES
from core.longcat.templates import ALL_TEMPLATES, DIFFICULTY_EXAMPLES, MORE_TEMPLATES
from tests.core.test_longcat_counts import brute_counts
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import arduboy_levels


def regions(mask) -> list[set]:
    """4-connected regions of the True cells, by a plain BFS (not the bitmask code)."""
    cells = {(x, y) for y, r in enumerate(mask) for x, v in enumerate(r) if v}
    out = []
    while cells:
        todo, seen = [cells.pop()], set()
        while todo:
            x, y = todo.pop()
            seen.add((x, y))
            for c in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if c in cells:
                    cells.remove(c)
                    todo.append(c)
        out.append(seen)
    return out


def test_method_b_has_20_to_40_templates_and_keeps_the_classic_six() -> None:
    assert 20 <= len(ALL_TEMPLATES) <= 40
    assert list(TEMPLATES) == ["rect_hole", "u", "s", "offset_square", "chair", "spiral"]
    assert list(ALL_TEMPLATES)[:6] == list(TEMPLATES) and not set(TEMPLATES) & set(MORE_TEMPLATES)
    assert set(DIFFICULTY_EXAMPLES.values()) <= set(ALL_TEMPLATES)
    assert GENERATORS["shapes"].options[0].choices[1:] == tuple(ALL_TEMPLATES)


@pytest.mark.parametrize("shape", list(ALL_TEMPLATES))
def test_every_template_yields_solvable_levels(shape: str) -> None:
    level = generate("shapes", 1, 8, 8, shape=shape, max_attempts=2000)
    assert is_solvable(level) is True
    analysis = analyse(level)
    assert validate_path(level, analysis.solution_letters).won


def _grid(shape: str, seed: int, width: int = 8, height: int = 8):
    return ALL_TEMPLATES[shape](random.Random(seed), width, height)


@pytest.mark.parametrize("seed", range(20))
def test_the_seeds_difficulty_examples_have_their_shapes(seed: int) -> None:
    # Easy: a big frame round a big hole: the walls inside form a region away from the edge.
    frame = _grid("big_frame_hole", seed)
    walls = regions([[not v for v in r] for r in frame])
    inner = [w for w in walls if all(0 < x < 7 and 0 < y < 7 for x, y in w)]
    assert inner and max(map(len, inner)) >= 4 and len(regions(frame)) == 1
    # Very hard: deep notches from the top and from the bottom (each at least half the height).
    deep = _grid("deep_notches", seed)
    cols = [[deep[y][x] for y in range(8)] for x in range(8)]
    top = [x for x, c in enumerate(cols) if not any(c[:4])]
    bottom = [x for x, c in enumerate(cols) if not any(c[4:])]
    assert top and bottom
    # Hard: a narrow left side (one open column, walls right of it below the join).
    left = _grid("narrow_left_hole", seed)
    assert all(left[y][0] for y in range(1, 8)) and not any(left[y][1] for y in range(2, 8))
    # Medium: a complex S: at least three bends (four open bands joined alternately).
    s = _grid("complex_s", seed)
    full_rows = [y for y in range(8) if all(s[y])]
    assert len(full_rows) >= 3 and len(regions(s)) == 1


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(3, 10), st.integers(3, 10))
def test_notch_masks_are_seeded_connected_and_balanced(seed: int, width: int, height: int) -> None:
    mask = notch_mask(random.Random(seed), width, height)
    assert mask == notch_mask(random.Random(seed), width, height)  # replayable
    assert len(mask) == height and all(len(r) == width for r in mask)
    assert len(regions(mask)) == 1
    open_cells = [(x, y) for y, r in enumerate(mask) for x, v in enumerate(r) if v]
    ends = [
        (x, y)
        for x, y in open_cells
        if sum(
            0 <= x + dx < width and 0 <= y + dy < height and mask[y + dy][x + dx]
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        < 2
    ]
    assert len(ends) <= 2 or len(open_cells) <= 1
    black = sum((x + y) % 2 == 0 for x, y in open_cells)
    assert abs(2 * black - len(open_cells)) <= 1  # a path alternates colours


def test_notch_levels_are_generated_and_replayable() -> None:
    levels = [generate("notch", seed, 8, 8) for seed in range(3)]
    assert levels == [generate("notch", seed, 8, 8) for seed in range(3)]
    for level in levels:
        assert is_solvable(level) is True
        walls = (level.width * level.height) - level.size
        assert walls > 0  # notches were cut


def _brute_rate(level: Level) -> int:
    rows = list(level.rows())
    count = 0
    for y, r in enumerate(rows):
        for x, ch in enumerate(r):
            if ch == "#":
                continue
            grid = [list(row.replace("@", ".")) for row in rows]
            grid[y][x] = "@"
            count += brute_counts(["".join(g) for g in grid])[0] > 0
    return count


def test_start_success_of_arduboy_2_by_brute_force() -> None:
    level = arduboy_levels()[1]
    found = start_success(level)
    assert (found.solvable, found.unknown, found.cells) == (_brute_rate(level), 0, 15)
    assert found.solvable == 8 and found.rate == pytest.approx(8 / 15)


@settings(max_examples=60, deadline=None)
@given(small_levels(max_side=4))
def test_start_success_agrees_with_brute_force(level: Level) -> None:
    found = start_success(level)
    assert found.solvable == _brute_rate(level) and found.unknown == 0
    assert found.cells == level.size
