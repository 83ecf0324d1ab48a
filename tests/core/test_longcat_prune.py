"""The dead-position figures the Longcat screen shows come from core (issue 31, item 4):
how many regions the empty cells form, and which cells are cut off."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat.level import Level, bits
from core.longcat.prune import cut_off, empty_regions, is_dead, region_count
from core.longcat.rules import apply_move, initial


def _flood_regions(level: Level, filled: int) -> list[set[tuple[int, int]]]:
    """The empty cells' 4-connected regions by a plain flood fill on (x, y) cells."""
    empty = {level.xy(i) for i in bits(level.free & ~filled)}
    regions = []
    while empty:
        todo = [empty.pop()]
        region = set(todo)
        while todo:
            x, y = todo.pop()
            for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if cell in empty:
                    empty.remove(cell)
                    region.add(cell)
                    todo.append(cell)
        regions.append(region)
    return regions


def test_hand_worked_regions() -> None:
    # "#.#" / "..." / "#@#": the cat slides up through the middle and the two side cells
    # it passed are apart (while they still touch the middle cell, they are one region).
    level = Level.from_rows(["#.#", "...", "#@#"])
    start = initial(level).filled
    up = apply_move(initial(level), "up").filled
    assert up == start | 1 << level.index(1, 1) | 1 << level.index(1, 0)
    assert region_count(level.board, start) == 1 and cut_off(level.board, start) == 0
    assert region_count(level.board, up) == 2 and is_dead(level.board, up)
    # ties: the region with the lowest cell stays, the other is cut off
    assert {level.xy(i) for i in bits(cut_off(level.board, up))} == {(2, 1)}
    full = level.free
    assert region_count(level.board, full) == 0 and cut_off(level.board, full) == 0


@settings(max_examples=60, deadline=None)
@given(
    st.integers(2, 5).flatmap(
        lambda w: st.tuples(
            st.just(w),
            st.lists(
                st.lists(st.sampled_from(".#"), min_size=w, max_size=w), min_size=1, max_size=4
            ),
            st.integers(0, 2**20 - 1),
        )
    )
)
def test_counts_match_a_flood_fill(case: tuple[int, list[list[str]], int]) -> None:
    _width, cells, chosen = case
    rows = ["".join(row) for row in cells]
    rows[0] = "@" + rows[0][1:]
    level = Level.from_rows(rows)
    free = list(bits(level.free))
    filled = sum(1 << i for n, i in enumerate(free) if chosen >> n & 1) | 1 << level.start_index
    regions = _flood_regions(level, filled)
    assert (
        region_count(level.board, filled) == len(regions) == len(empty_regions(level.board, filled))
    )
    assert is_dead(level.board, filled) == (len(regions) > 1)
    cut = {level.xy(i) for i in bits(cut_off(level.board, filled))}
    if len(regions) > 1:
        largest = max(len(r) for r in regions)
        kept = min(
            (r for r in regions if len(r) == largest), key=lambda r: min((y, x) for x, y in r)
        )
        assert cut == set().union(*regions) - kept
    else:
        assert cut == set()
