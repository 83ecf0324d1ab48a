"""Hostile 2048 inputs (issue 28): level files the loader refuses quickly, and huge boards
whose AI is bounded by a node budget, never by the clock.

Each case states its bound: memory through :mod:`tracemalloc`, work through a budget, time
only as a generous multiple of the same work done on a valid input.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game2048 import GameConfig, legal_moves
from core.game2048.ai import autoplay, hint
from core.game2048.game import start_game
from tests.fuzz.bounds import (
    FUZZ,
    damaged,
    edits,
    loads_in_linear_memory,
    peak_bytes,
    refuses_no_slower_than_loading,
)


def _board(size: int, level: int) -> str:
    """A ``size`` x ``size`` board of small powers of two (a few empty cells)."""
    rows = (
        "    ["
        + " ".join(
            str(0 if (r + c + level) % 7 == 0 else 2 ** (1 + (r * c) % 5)) for c in range(size)
        )
        + "]\n"
        for r in range(size)
    )
    return "  board\n" + "".join(rows)


def _pack(levels: int, size: int) -> str:
    """A valid 2048 pack of ``levels`` puzzle boards of side ``size``."""
    return "game 2048\n" + "".join(
        f'level "P{n}" {{\n  size {size} tiles 0\n{_board(size, n)}}}\n\n' for n in range(levels)
    )


_PIECES = st.sampled_from(
    ["[", "]", "{", "}", '"', "size", "board", "goal", "0", "-1", "65536", "\n", " ", "\x00"]
)


@FUZZ
@given(edits(_PIECES))
def test_a_damaged_pack_is_loaded_or_refused_in_bounded_memory(damages) -> None:
    loads_in_linear_memory(damaged(_pack(8, 8), damages), "2048")


@pytest.mark.slow
@settings(max_examples=4, deadline=None, derandomize=True)
@given(st.sampled_from(["bad_cell", "short_row", "late_field", "unclosed"]))
def test_refusing_is_no_slower_than_loading(defect: str) -> None:
    """Issue 28: time(refuse) <= 2 x time(load a valid file of the same size) + 0.5 s."""
    valid = _pack(3, 64)  # ~30 KB of 64x64 boards
    last_row = valid.rindex("[")
    bad = {
        "bad_cell": valid[: last_row + 1] + "x" + valid[last_row + 2 :],
        "short_row": valid[: last_row + 1] + valid[last_row + 3 :],
        "late_field": valid[: valid.rindex("}")] + "  colour 3\n}\n",
        "unclosed": valid[: valid.rindex("}")],
    }[defect]
    refuses_no_slower_than_loading(valid, bad, "2048")


def test_a_hint_on_the_largest_board_keeps_to_its_node_budget() -> None:
    """Issue 28: ``2048 hint --size 64`` was bounded only by the clock. (One node there is a
    move and a heuristic over 4,096 cells, slow under tracemalloc: a small budget.)"""
    budget = 6
    state = start_game(GameConfig(board_size=64, initial_seed=11))
    answers: list = []
    peak = peak_bytes(lambda: answers.append(hint(state, depth=2, budget=budget)))
    assert answers[0] in legal_moves(state)
    # bound: a 64x64 board is ~4,100 cells; each node keeps at most one board in the table.
    assert peak < 100_000 * budget


def test_autoplay_on_the_largest_board_is_bounded_by_its_budget() -> None:
    """Issue 28: ``2048 autoplay --size 64`` still ran after 120 s: with a node budget per
    move and a move limit, the work is bounded whatever the machine's load."""
    state = start_game(GameConfig(board_size=64, initial_seed=3))
    played = list(autoplay(state, 5, depth=1, budget=20))
    assert len(played) == 5
    assert all(after.move_count == n for n, after in enumerate(played, start=1))
