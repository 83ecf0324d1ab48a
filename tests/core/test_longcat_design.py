"""The level editor's verdict (core.longcat.design.assess) against independent answers:
hand-worked grids, a brute force over move sequences, and the bundled levels' pars."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat.design import Assessment, Cancelled, assess
from core.longcat.level import Level
from grammar.levels import bundled_packs

STEPS = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}


def brute_force(rows: list[str]) -> tuple[int, set[tuple[int, int]], int | None, int]:
    """Every move sequence from the start, by hand-written rules on ``(x, y)`` cells.

    Returns:
        ``(winning sequences, final head cells of the wins, fewest moves of a win,
        distinct positions)``.
    """
    height, width = len(rows), len(rows[0])
    free = {(x, y) for y in range(height) for x in range(width) if rows[y][x] != "#"}
    start = next((x, y) for y in range(height) for x in range(width) if rows[y][x] == "@")
    wins = 0
    heads: set[tuple[int, int]] = set()
    best: int | None = None
    seen: set[tuple[tuple[int, int], frozenset[tuple[int, int]]]] = set()

    def walk(head: tuple[int, int], filled: frozenset[tuple[int, int]], depth: int) -> None:
        nonlocal wins, best
        seen.add((head, filled))
        if filled == free:
            wins += 1
            heads.add(head)
            best = depth if best is None else min(best, depth)
            return
        for dx, dy in STEPS.values():
            x, y = head
            cells = []
            while (x + dx, y + dy) in free and (x + dx, y + dy) not in filled:
                x, y = x + dx, y + dy
                cells.append((x, y))
            if cells:
                walk((x, y), filled | frozenset(cells), depth + 1)

    walk(start, frozenset({start}), 0)
    return wins, heads, best, len(seen)


def replay(level: Level, moves: tuple[str, ...]) -> bool:
    """True when ``moves`` fill every empty cell (hand-written slide rules)."""
    rows = level.rows()
    free = {(x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != "#"}
    head = level.start
    filled = {head}
    for move in moves:
        dx, dy = STEPS[move]
        x, y = head
        moved = False
        while (x + dx, y + dy) in free and (x + dx, y + dy) not in filled:
            x, y = x + dx, y + dy
            filled.add((x, y))
            moved = True
        if not moved:
            return False
        head = (x, y)
    return filled == free


def test_a_corridor_has_one_solution_of_one_move() -> None:
    result = assess(Level.from_rows(["@..."]))
    assert result.status == "solvable" and result.solution == ("right",)
    assert result.metrics is not None
    assert (result.metrics.success_states, result.metrics.solution_paths) == (1, 1)
    assert result.unique is True and result.unique_paths is True
    assert result.classes == {
        "start": 1,
        "success": 1,
        "fail": 0,
        "reachable": 0,
        "dead": 0,
        "indeterminate": 0,
    }
    assert result.difficulty is not None and result.band is not None


def test_a_two_by_two_square_has_two_success_states_and_two_paths() -> None:
    # By hand: right, down, left ends on (0,1); down, right, up ends on (1,0).
    result = assess(Level.from_rows(["@.", ".."]))
    assert result.solvable is True and result.shortest == 3
    assert result.metrics is not None
    assert result.metrics.success_states == 2 and result.metrics.solution_paths == 2
    assert result.unique is False
    assert result.metrics.states == 7  # start, 2 after one move, 2 after two, 2 won


def test_one_success_state_reached_two_ways_is_unique_by_the_seeds_count() -> None:
    # Arduboy 2: two winning move sequences, one won position (graph.Metrics' docstring).
    level = dict(bundled_packs("longcat"))["01-arduboy"].levels[1]
    result = assess(level)
    assert result.metrics is not None
    assert (result.metrics.success_states, result.metrics.solution_paths) == (1, 2)
    assert result.unique is True and result.unique_paths is False


def test_a_start_in_the_middle_of_a_corridor_is_unsolvable() -> None:
    result = assess(Level.from_rows([".@."]))
    assert result.status == "unsolvable" and result.solvable is False
    assert result.solution is None and result.difficulty is None
    assert result.metrics is not None and result.metrics.fails == 2
    assert result.classes is not None and result.classes["fail"] == 2
    assert result.unique is False


def test_a_level_won_at_the_start_needs_no_move() -> None:
    result = assess(Level.from_rows(["#@#"]))
    assert result.status == "solvable" and result.solution == () and result.shortest == 0
    assert result.metrics is not None and result.metrics.success_states == 1


def test_par_is_compared_with_the_shortest_solution() -> None:
    assert assess(Level.from_rows(["@..."], par=1)).par_matches is True
    assert assess(Level.from_rows(["@..."], par=3)).par_matches is False
    assert assess(Level.from_rows(["@..."])).par_matches is None


@pytest.mark.parametrize("pack_id", ["01-arduboy", "03-generated-hard", "05-generated-large"])
def test_bundled_levels_shortest_solution_is_their_par(pack_id: str) -> None:
    for level in dict(bundled_packs("longcat"))[pack_id].levels[:4]:
        result = assess(level)
        assert result.status == "solvable"
        assert result.shortest == level.par, level.title
        assert result.solution is not None and replay(level, result.solution)


def test_beyond_the_state_limit_the_pruned_solver_still_answers() -> None:
    level = dict(bundled_packs("longcat"))["05-generated-large"].levels[0]
    result = assess(level, max_states=50)
    assert result.metrics is None and result.classes is None and result.difficulty is None
    assert result.unique is None
    assert result.status == "solvable" and result.shortest == level.par


def test_beyond_every_limit_the_answer_is_unknown() -> None:
    level = dict(bundled_packs("longcat"))["05-generated-large"].levels[0]
    result = assess(level, max_states=3)
    assert result.status == "unknown" and result.solvable is None and result.shortest is None
    result = assess(level, time_limit=0.0)
    assert result.status == "unknown"


def test_a_stop_request_cancels() -> None:
    level = dict(bundled_packs("longcat"))["05-generated-large"].levels[0]
    with pytest.raises(Cancelled):
        assess(level, should_stop=lambda: True)


@st.composite
def small_grids(draw) -> list[str]:
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    cells = draw(st.lists(st.booleans(), min_size=width * height, max_size=width * height))
    rows = [
        "".join("#" if cells[y * width + x] else "." for x in range(width)) for y in range(height)
    ]
    empties = [
        (x, y) for y, x in itertools.product(range(height), range(width)) if rows[y][x] == "."
    ]
    if not empties:
        rows[0] = "." + rows[0][1:]
        empties = [(0, 0)]
    x, y = draw(st.sampled_from(empties))
    rows[y] = rows[y][:x] + "@" + rows[y][x + 1 :]
    return rows


@settings(max_examples=150, deadline=None)
@given(small_grids())
def test_assess_agrees_with_a_brute_force_over_move_sequences(rows: list[str]) -> None:
    result: Assessment = assess(Level.from_rows(rows))
    wins, heads, best, positions = brute_force(rows)
    assert result.metrics is not None
    assert result.metrics.solution_paths == wins
    assert result.metrics.success_states == len(heads)
    assert result.metrics.states == positions
    assert result.shortest == best
    assert result.unique == (len(heads) == 1)
    assert result.status == ("solvable" if wins else "unsolvable")
    assert result.classes is not None and sum(result.classes.values()) == positions
    if result.solution is not None:
        assert replay(result.level, result.solution)


# -- the editor's grid edits (edit_grid), on hand-drawn grids -------------------------------


def test_grid_edits_on_a_hand_drawn_level() -> None:
    from core.longcat.design import edit_grid

    level = Level.from_rows(["@..", "#.#"], title="T", par=3, hint="h")
    assert edit_grid(level, "toggle", (1, 0)).rows() == ("@#.", "#.#")
    assert edit_grid(level, "toggle", (0, 1)).rows() == ("@..", "..#")
    assert edit_grid(level, "wall", (0, 1)) == level  # already a wall: nothing changes
    assert edit_grid(level, "empty", (2, 1)).rows() == ("@..", "#..")
    moved = edit_grid(level, "start", (1, 1))
    assert moved.rows() == ("...", "#@#") and moved.start == (1, 1)
    assert edit_grid(level, "wider", (0, 0)).rows() == ("@..#", "#.##")
    assert edit_grid(level, "narrower", (0, 0)).rows() == ("@.", "#.")
    assert edit_grid(level, "taller", (0, 0)).rows() == ("@..", "#.#", "###")
    assert edit_grid(level, "shorter", (0, 0)).rows() == ("@..",)
    assert edit_grid(level, "all_walls", (0, 0)).rows() == ("@##", "###")
    assert edit_grid(level, "all_empty", (0, 0)).rows() == ("@..", "...")
    kept = edit_grid(level, "toggle", (1, 0))
    assert (kept.title, kept.par, kept.hint) == ("T", 3, "h")


def test_grid_edits_refuse_with_reasons() -> None:
    from core.longcat.design import edit_grid
    from core.longcat.level import MAX_SIZE

    level = Level.from_rows(["..@", "..."])
    for name, cell, words in (
        ("wall", (2, 0), "start cannot be a wall"),
        ("narrower", (0, 0), "last column"),
        ("toggle", (2, 0), "start cannot be a wall"),
    ):
        with pytest.raises(ValueError, match=words):
            edit_grid(level, name, cell)
    one_row = Level.from_rows([".@"])
    with pytest.raises(ValueError, match="at least one row"):
        edit_grid(one_row, "shorter", (0, 0))
    wide = Level.from_rows(["@" + "." * (MAX_SIZE - 1)])
    with pytest.raises(ValueError, match=f"at most {MAX_SIZE} columns"):
        edit_grid(wide, "wider", (0, 0))
    with pytest.raises(ValueError, match="unknown edit"):
        edit_grid(level, "paint", (0, 0))
