"""Issue 21: the seed's counts beside the project's. "Number of solutions" is the number of
success states (成功状态的数量), "Size" the cells of the grid (网格中的格子数); the winning
move sequences and the empty cells stay, under their own names, and old records still load."""

from __future__ import annotations

import json

import pytest

from core.longcat import Level, Metrics, analyse, predict_difficulty
from core.longcat.difficulty import (
    LEGACY_COEFFICIENTS,
    LEGACY_INTERCEPT,
    PREDICTORS,
    difficulty_label,
    difficulty_text,
    level_difficulty,
)
from tests.core.test_longcat_reference import arduboy_levels

STEPS = ((0, -1), (0, 1), (-1, 0), (1, 0))


def brute_counts(rows: list[str]) -> tuple[int, int]:
    """``(winning move sequences, distinct won positions)`` by plain enumeration.

    Written apart from the project's code: a grid of strings, the cat slides until a wall,
    the edge or its own body, every sequence is followed (no memo), and a won position is
    ``(head, filled cells)`` with every open cell filled.
    """
    free = {(x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c != "#"}
    start = next((x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == "@")
    paths, won = 0, set()
    stack = [(start, frozenset([start]))]
    while stack:
        (x, y), body = stack.pop()
        if body == free:
            paths += 1
            won.add(((x, y), body))
            continue
        for dx, dy in STEPS:
            cx, cy, cells = x, y, []
            while (cx + dx, cy + dy) in free and (cx + dx, cy + dy) not in body:
                cx, cy = cx + dx, cy + dy
                cells.append((cx, cy))
            if cells:
                stack.append(((cx, cy), body | frozenset(cells)))
    return paths, len(won)


@pytest.mark.parametrize("number, paths, states", [(1, 8, 4), (2, 2, 1)])
def test_arduboy_counts_are_the_issues(number: int, paths: int, states: int) -> None:
    level = arduboy_levels()[number - 1]
    assert brute_counts(list(level.rows())) == (paths, states)
    m = analyse(level).metrics
    assert (m.solution_paths, m.success_states) == (paths, states)


def test_size_is_both_the_grid_and_the_open_cells() -> None:
    # 4x3 grid, 12 cells; 3 walls leave 9 open cells, the start included.
    m = analyse(Level.from_rows(["@..#", "...#", "#..."])).metrics
    assert (m.grid_cells, m.open_cells) == (12, 9)


def test_the_old_names_are_python_aliases_and_not_written_to_json() -> None:
    m = analyse(arduboy_levels()[0]).metrics
    assert (m.size, m.solutions) == (m.open_cells, m.solution_paths)
    data = m.as_dict()
    # Issue 29: the aliases are no longer written; the seed's names only, in field order.
    assert list(data) == list(Metrics.__dataclass_fields__)
    assert Metrics.from_dict(json.loads(json.dumps(data))) == m


def test_a_record_with_only_the_old_names_still_loads() -> None:
    """Metrics written before issue 21 (``size``, ``solutions``, no ``grid_cells``)."""
    m = analyse(arduboy_levels()[1]).metrics
    old = {
        k: v
        for k, v in m.as_dict().items()
        if k not in ("grid_cells", "open_cells", "solution_paths")
    }
    old.update(size=m.open_cells, solutions=m.solution_paths)  # as old records wrote them
    loaded = Metrics.from_dict(old)
    assert (loaded.open_cells, loaded.solution_paths, loaded.success_states) == (
        m.open_cells,
        m.solution_paths,
        m.success_states,
    )
    assert loaded.grid_cells == 0  # unknown in an old record
    with pytest.raises(KeyError):
        Metrics.from_dict({k: v for k, v in old.items() if k != "solutions"})


def test_the_predictor_uses_success_states_and_the_old_one_paths() -> None:
    # Arduboy 2: 2 paths, 1 success state; the two predictors read different counts.
    m = analyse(arduboy_levels()[1]).metrics
    intercept, weights, names = PREDICTORS["success-states"]
    assert "success_states" in names and "solution_paths" not in names
    assert predict_difficulty(m) == pytest.approx(
        intercept + sum(weights[n] * getattr(m, n) for n in names)
    )
    legacy = (
        LEGACY_INTERCEPT
        + LEGACY_COEFFICIENTS["indeterminate_branches"] * m.indeterminate_branches
        + LEGACY_COEFFICIENTS["solution_paths"] * 2
        + LEGACY_COEFFICIENTS["solution_branches"] * m.solution_branches
    )
    assert predict_difficulty(m, "solution-paths") == pytest.approx(legacy)
    # The bundled title "Arduboy 2 · easy 25" was made with the old predictor (until issue 30).
    assert round(predict_difficulty(m, "solution-paths")) == 25


def test_every_bundled_title_and_description_carry_the_levels_one_difficulty() -> None:
    """Issue 30: "Arduboy 2" was "easy 25" in its title (the predictor before issue 21) and
    "easy 28" on the screen; "Arduboy 1" was "trivial 0", "-10.9" and "-0.7". Every bundled
    title and description now carry :func:`level_difficulty`, the figure the screen, the
    bench and the CLI show."""
    from grammar.levels import bundled_packs

    for _, pack in bundled_packs("longcat"):
        for level in pack.levels:
            value = level_difficulty(level)
            assert value is not None and value >= 0
            assert level.title.endswith(f" · {difficulty_label(value)}"), level.title
            assert f"Predicted difficulty {difficulty_text(value)};" in level.description
    arduboy = arduboy_levels()
    # Arduboy 2: 1 success state, 2 paths (the seed's predictor: 27.7, so "easy 28").
    assert (arduboy[1].title, difficulty_text(level_difficulty(arduboy[1]) or 0)) == (
        "Arduboy 2 · easy 28",
        "27.7 (easy)",
    )
    # Arduboy 1: the regression says -0.7; the difficulty is never below 0.
    assert predict_difficulty(arduboy[0]) == pytest.approx(-0.7, abs=0.05)
    assert level_difficulty(arduboy[0]) == 0.0 and arduboy[0].title == "Arduboy 1 · trivial 0"
    assert arduboy[0].description.startswith("Predicted difficulty 0.0 (trivial);")


def test_an_unsolvable_level_has_no_difficulty() -> None:
    cut = Level.from_rows([".#.", ".@."])  # the walls split the empty cells
    assert level_difficulty(cut) is None and difficulty_label(None) == "difficulty ?"


def test_a_level_saved_before_issue_21_still_loads() -> None:
    """Saves keep the level's text; an old generated level's text (its description speaks
    of "solutions", the move sequences) reads back and plays as before."""
    from core.longcat import level_from_json, level_to_json

    old = {
        "rows": [
            "#####...",
            "####..#.",
            "###..##.",
            "###.....",
            "#####..#",
            "#####.@#",
            "####...#",
            "####...#",
        ],
        "title": "sd 8x8 #1000 · easy 28",
        "author": "termarcade generator",
        "description": "Generated by sd (8x8, seed 1000, attempt 1). Predicted "
        "difficulty 28.0 (easy); 1 solution.",
        "hint": "",
        "par": 15,
    }
    level = level_from_json(old)
    assert level_to_json(level) == old
    m = analyse(level).metrics
    assert m.solution_paths == 1 and m.shortest_solution == 15
