"""Seed 003's validatePath (:func:`core.longcat.validate_path`): hand-worked paths, point
paths, and random move strings against a naive step-by-step reference."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import Level, validate_path
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import free_cells, naive_slide

# A hook: start top left, the open cells run right, down the right column, then left along
# the bottom row.   @..
#                   ##.
#                   ...
HOOK = Level.from_rows(["@..", "##.", "..."])


@pytest.mark.parametrize(
    "moves, valid, filled, fail, head, left",
    [
        ("RDL", True, True, None, (0, 2), 0),  # the one solution: R to (2,0), D, L
        ("rd, l", True, True, None, (0, 2), 0),  # case, spaces and commas are ignored
        ("", True, False, None, (0, 0), 6),  # nothing played: valid, 6 of 7 cells empty
        ("RD", True, False, None, (2, 2), 2),  # (1,2) and (0,2) still empty
        ("L", False, False, 0, (0, 0), 6),  # a wall-free edge: left of (0,0) is outside
        ("RU", False, False, 1, (2, 0), 4),  # up from (2,0) is outside the grid
        ("RDLR", False, True, 3, (0, 2), 0),  # a move after the win is not a move
        ("RDR", False, False, 2, (2, 2), 2),  # right of (2,2): outside
    ],
)
def test_hand_worked_move_strings(moves, valid, filled, fail, head, left) -> None:
    check = validate_path(HOOK, moves)
    assert (check.valid, check.filled, check.fail_index, check.head, check.cells_left) == (
        valid,
        filled,
        fail,
        head,
        left,
    )
    assert check.won == (valid and filled)
    assert check.played == (len(moves.replace(",", "").replace(" ", "")) if valid else fail)
    assert (check.reason is None) == valid


def test_reasons_name_the_move_and_the_cell() -> None:
    assert validate_path(HOOK, "RU").reason == "the cat cannot move up from (2, 0): it is blocked"
    assert "already won" in validate_path(HOOK, "RDLR").reason


def test_a_move_after_the_win_says_what_happened() -> None:
    # Issue 29: "no move left is left". RDL fills the hook; a fourth move has nothing to
    # slide into, whichever way it goes.
    assert validate_path(HOOK, "RDLL").reason == (
        "the level was already won after 3 moves (every cell filled), so move 4 (left) is "
        "one move too many"
    )
    one_cell = Level.from_rows(["@"])
    assert validate_path(one_cell, "U").reason == (
        "the level was already won at the start (every cell filled), so move 1 (up) is "
        "one move too many"
    )


def test_move_names_are_a_path_too() -> None:
    assert validate_path(HOOK, ["right", "down", "left"]).won
    with pytest.raises(ValueError):
        validate_path(HOOK, ["right", "sideways"])
    with pytest.raises(ValueError):
        validate_path(HOOK, "RX")


def test_the_seeds_point_path() -> None:
    """The seed's Path: every cell the head passes, the start first."""
    full = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2)]
    check = validate_path(HOOK, full)
    assert check.won and check.moves == "RDL"
    # Stopping in the middle of a slide is not a Longcat move: from (0,0) the cat slides on
    # to (2,0).
    short = validate_path(HOOK, [(0, 0), (1, 0), (1, 1)])
    assert (short.valid, short.fail_index) == (False, 0)
    assert short.reason == "moving right from (0, 0) the cat slides to (2, 0), not (1, 0)"
    # Not starting at the start, and a jump, are failures too.
    assert validate_path(HOOK, [(2, 0)]).reason.startswith("the path starts at (2, 0)")
    jump = validate_path(HOOK, [(0, 0), (1, 0), (2, 0), (2, 2)])
    assert (jump.valid, jump.fail_index, jump.played) == (False, 1, 1)
    # A prefix ending where a slide ends is valid, not filled.
    part = validate_path(HOOK, full[:5])
    assert (part.valid, part.filled, part.cells_left) == (True, False, 2)


def _naive(level: Level, moves: str):
    """Play letters with the reference's cell-by-cell slide."""
    free = free_cells(level)
    pos = (level.start, frozenset([level.start]))
    names = {"U": "up", "D": "down", "L": "left", "R": "right"}
    for i, ch in enumerate(moves):
        nxt = None if pos[1] == free else naive_slide(free, pos, names[ch])
        if nxt is None:
            return False, pos[1] == free, i, pos[0]
        pos = nxt
    return True, pos[1] == free, None, pos[0]


@settings(max_examples=200, deadline=None)
@given(small_levels(max_side=5), st.text(alphabet="UDLR", max_size=8))
def test_random_moves_agree_with_the_naive_reference(level: Level, moves: str) -> None:
    check = validate_path(level, moves)
    assert (check.valid, check.filled, check.fail_index, check.head) == _naive(level, moves)
