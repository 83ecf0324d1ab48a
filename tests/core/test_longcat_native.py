"""Longcat's compiled yes/no solver (issue 32): the same answers as the pure-Python search
after the same positions expanded (the same budget cut, the same state limit), on every start
cell of every bundled level and on drawn grids, and a silent fallback to the pure search."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import Level, native, solver
from core.longcat.level import Board, bits
from core.longcat.solver import solvable_from
from core.search import Watch

pytest.importorskip("numba")
needs_numba = pytest.mark.skipif(not native.available(), reason="numba is off or missing")


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    """Compile once for the module (the first compile takes seconds on a loaded machine)."""
    if native.available():
        native.warm_up()


def _bundled_starts() -> Iterator[tuple[str, Board, int]]:
    from grammar.levels import bundled_packs

    for name, pack in bundled_packs("longcat"):
        for n, level in enumerate(pack.levels):
            for head in bits(level.board.free):
                yield f"{name}/{n}", level.board, head


def _run(board: Board, head: int, native_path: bool, **limits) -> tuple[bool | None, int]:
    """The answer, and the budget units the search spent (its positions expanded, counted
    as the pure search counts them)."""
    watch = Watch(budget=limits.pop("budget", None))
    answer = solvable_from(board, head, watch=watch, native=native_path, **limits)
    return answer, watch.spent


@needs_numba
def test_every_bundled_start_has_the_same_answer_and_work() -> None:
    starts = list(_bundled_starts())
    assert len(starts) > 5000  # every open cell of every bundled level, as a start
    answers = {True: 0, False: 0}
    for where, board, head in starts:
        pure = _run(board, head, False)
        assert _run(board, head, True) == pure, (where, head)
        answers[pure[0]] += 1  # type: ignore[index]
    # Both answers occur (and the arduboy starts as shipped are solvable, among the True).
    assert answers[True] > 800 and answers[False] > 1000


@st.composite
def open_levels(draw, max_side: int = 9) -> Level:
    """Grids up to ``max_side`` square with few walls (up to 81 cells: two 64-bit words)."""
    width = draw(st.integers(1, max_side))
    height = draw(st.integers(1, max_side))
    cells = [(x, y) for y in range(height) for x in range(width)]
    wall = draw(st.lists(st.integers(0, 9), min_size=len(cells), max_size=len(cells)))
    start = draw(st.sampled_from(cells))
    rows = [
        "".join(
            "@" if (x, y) == start else "#" if wall[y * width + x] < 2 else "."
            for x in range(width)
        )
        for y in range(height)
    ]
    return Level.from_rows(rows)


@needs_numba
@settings(max_examples=60, deadline=None)
@given(open_levels(), st.integers(0, 400), st.integers(1, 300))
def test_drawn_grids_same_answer_budget_cut_and_state_limit(
    level: Level, budget: int, max_states: int
) -> None:
    board, head = level.board, level.start_index
    assert _run(board, head, True) == _run(board, head, False)
    # A work budget stops both at the same position (None, the same units spent) or neither.
    assert _run(board, head, True, budget=budget) == _run(board, head, False, budget=budget)
    # So does the state limit.
    assert _run(board, head, True, max_states=max_states) == _run(
        board, head, False, max_states=max_states
    )


@cache
def _busiest(count: int) -> list[tuple[Board, int]]:
    """The bundled starts whose pure search expands the most positions."""
    spent = sorted(_bundled_starts(), key=lambda s: -_run(s[1], s[2], False)[1])
    return [(board, head) for _, board, head in spent[:count]]


@needs_numba
def test_budget_cut_block_for_block(monkeypatch) -> None:
    # The searches here expand up to ~128 positions, fewer than one 256-position block: with
    # blocks of 4 the compiled loop returns to Python many times per search, and must spend
    # the budget exactly where the pure search does.
    monkeypatch.setattr(solver, "BLOCK", 4)
    for board, head in _busiest(3):
        full = _run(board, head, False)
        assert full[1] > 40
        for budget in (0, 3, 4, 5, 8, full[1] // 2, full[1] - 1, full[1]):
            assert _run(board, head, True, budget=budget) == _run(
                board, head, False, budget=budget
            ), budget


@needs_numba
def test_a_tiny_table_grows_without_changing_anything(monkeypatch) -> None:
    monkeypatch.setattr(native, "_MIN_ROWS", 4)  # re-hashed many times on every search
    for board, head in _busiest(3):
        assert _run(board, head, True) == _run(board, head, False)


@needs_numba
def test_cancel_stops_the_compiled_search(monkeypatch) -> None:
    monkeypatch.setattr(solver, "BLOCK", 4)  # polled every 4 positions
    board, head = _busiest(1)[0]
    assert solvable_from(board, head, should_stop=lambda: True, native=True) is None
    assert solvable_from(board, head, should_stop=lambda: False, native=True) is not None


def _pure_only(*args, **kwargs):
    raise AssertionError("the compiled search ran")


def test_pure_fallback_with_the_environment_variable(monkeypatch) -> None:
    level = Level.from_rows(["@..", "..."])  # 2x3 open: solvable (snake through)
    monkeypatch.setenv(native.PURE_ENV, "1")
    monkeypatch.setattr(native, "solvable_from", _pure_only)
    assert not native.available() and not native.warm()
    assert solvable_from(level.board, level.start_index, native=True) is True
    assert solvable_from(level.board, level.start_index) is True


@needs_numba
def test_the_default_takes_the_compiled_search_once_warm(monkeypatch) -> None:
    level = Level.from_rows(["@..", "..."])
    calls: list[int] = []
    real = native.solvable_from

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(native, "solvable_from", counting)
    assert solvable_from(level.board, level.start_index) is True
    assert calls == [1]  # warmed up by the module fixture
    assert solvable_from(level.board, level.start_index, native=False) is True
    assert calls == [1]
