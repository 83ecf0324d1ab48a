"""Tests of the packed 64-bit 2048 board against the pure API and hand-worked rows."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game2048 import fastboard as fb
from core.game2048.board import execute_move_on_board
from core.game2048.merge import standard_merge
from tests.cases2048 import LEFT_LINES

# Tiles up to 16384 so that no merge can exceed 32768 (the packed board's cap).
_TILES = [0] + [1 << k for k in range(1, 15)]

boards = st.lists(
    st.lists(st.sampled_from(_TILES), min_size=4, max_size=4), min_size=4, max_size=4
).map(lambda rows: tuple(tuple(r) for r in rows))


def _random_board(rng: random.Random) -> tuple[tuple[int, ...], ...]:
    """A random 4×4 board; small tiles are likelier so that merges are frequent."""

    def tile() -> int:
        if rng.random() < 0.3:
            return 0
        return 1 << rng.choice((1, 1, 1, 2, 2, 3, 4, 5, 6, 10, 14))

    return tuple(tuple(tile() for _ in range(4)) for _ in range(4))


@pytest.mark.parametrize(("row", "expected", "points"), LEFT_LINES)
def test_hand_worked_rows_left(row, expected, points):
    board = (row, (0,) * 4, (0,) * 4, (0,) * 4)
    new, pts = fb.move(fb.from_rows(board), "left")
    assert fb.to_rows(new)[0] == expected
    assert pts == points


def test_hand_worked_other_directions():
    # Column 0 read top to bottom is 2, 2, 2, 0: up gives 4, 2; down gives 0, 0, 2, 4.
    board = ((2, 0, 0, 4), (2, 0, 0, 0), (2, 0, 0, 4), (0, 0, 0, 0))
    up, up_pts = fb.move(fb.from_rows(board), "up")
    assert fb.to_rows(up) == ((4, 0, 0, 8), (2, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0))
    assert up_pts == 12
    down, down_pts = fb.move(fb.from_rows(board), "down")
    assert fb.to_rows(down) == ((0, 0, 0, 0), (0, 0, 0, 0), (2, 0, 0, 0), (4, 0, 0, 8))
    assert down_pts == 12
    right, right_pts = fb.move(fb.from_rows(((2, 2, 2, 0),) + ((0,) * 4,) * 3), "right")
    assert fb.to_rows(right)[0] == (0, 0, 2, 4)
    assert right_pts == 4


@settings(max_examples=400, deadline=None)
@given(boards, st.sampled_from(fb.DIRECTIONS))
def test_move_matches_pure_api(board, direction):
    expected_board, expected_points, changed = execute_move_on_board(
        board, direction, standard_merge
    )
    packed = fb.from_rows(board)
    new, points = fb.move(packed, direction)
    assert fb.to_rows(new) == tuple(tuple(r) for r in expected_board)
    assert points == expected_points
    assert (new != packed) == changed
    assert fb.move_board(packed, direction) == new
    assert fb.move_all(packed)[fb.DIRECTIONS.index(direction)] == new


def test_move_matches_pure_api_seeded_thousands():
    rng = random.Random(2048)
    for _ in range(3000):
        board = _random_board(rng)
        packed = fb.from_rows(board)
        for direction in fb.DIRECTIONS:
            expected = execute_move_on_board(board, direction, standard_merge)
            new, points = fb.move(packed, direction)
            assert fb.to_rows(new) == expected.new_board, (board, direction)
            assert points == expected.total_points_earned


@settings(max_examples=200, deadline=None)
@given(boards)
def test_round_trip_and_transpose(board):
    packed = fb.from_rows(board)
    assert fb.to_rows(packed) == board
    assert fb.to_rows(fb.transpose(packed)) == tuple(zip(*board))
    assert fb.transpose(fb.transpose(packed)) == packed


@settings(max_examples=200, deadline=None)
@given(boards)
def test_empty_masks_and_legal_moves(board):
    packed = fb.from_rows(board)
    empties = [(r, c) for r in range(4) for c in range(4) if board[r][c] == 0]
    masks = fb.empty_masks(packed)
    assert len(masks) == fb.count_empty(packed) == len(empties)
    for (r, c), m in zip(empties, masks):
        assert m == 1 << (16 * r + 4 * c)
        assert fb.to_rows(packed | m)[r][c] == 2
        assert fb.to_rows(packed | (m << 1))[r][c] == 4
    legal = [d for d in fb.DIRECTIONS if execute_move_on_board(board, d, standard_merge)[2]]
    assert list(fb.legal_moves(packed)) == legal
    assert fb.max_rank(packed) == 0 or (1 << fb.max_rank(packed)) == max(max(r) for r in board)


def test_reverse_row():
    assert fb.reverse_row(0x4321) == 0x1234
    for row in (0, 0xFFFF, 0x0F00, 0xABCD):
        assert fb.reverse_row(fb.reverse_row(row)) == row


@pytest.mark.parametrize(
    "board",
    [
        ((3, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4),  # not a power of two
        ((65536, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4),  # above the rank cap
        ((1, 0, 0, 0), (0,) * 4, (0,) * 4, (0,) * 4),  # 1 = 2**0 collides with "empty"
        ((2, 0, 0), (0, 0, 0), (0, 0, 0)),  # 3×3
    ],
)
def test_unrepresentable_boards_are_rejected(board):
    assert not fb.is_representable(board)
    with pytest.raises(ValueError):
        fb.from_rows(board)


def test_largest_tile_round_trips():
    board = ((32768, 16384, 2, 0), (0,) * 4, (0,) * 4, (0,) * 4)
    assert fb.is_representable(board)
    assert fb.to_rows(fb.from_rows(board)) == board


def test_unknown_direction():
    with pytest.raises(ValueError):
        fb.move(0, "sideways")
    with pytest.raises(ValueError):
        fb.move_board(0, "sideways")
