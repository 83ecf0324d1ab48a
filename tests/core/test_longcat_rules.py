"""Longcat levels, rules and the Game protocol engine."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game import IllegalMove
from core.longcat import (
    GAME,
    MAX_SIZE,
    GridError,
    Level,
    apply_move,
    initial,
    legal_moves,
    level_from_json,
    level_to_json,
    parse_moves,
    solution_string,
    status,
)
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import (
    ORDER,
    arduboy_levels,
    free_cells,
    hand_level,
    naive_slide,
)
from tests.game_protocol import check_game

# -- the level value -------------------------------------------------------------------------


def test_from_rows_and_rows_round_trip() -> None:
    rows = ("#..", ".@#", "...")
    level = Level.from_rows(rows, title="t", hint="h", par=4)
    assert level.rows() == rows and level.text() == "#..\n.@#\n..."
    assert (level.width, level.height, level.start, level.size) == (3, 3, (1, 1), 7)
    assert level.is_wall(0, 0) and level.is_wall(2, 1) and not level.is_wall(1, 0)
    assert level.is_wall(-1, 0) and level.is_wall(3, 0)  # outside counts as wall
    assert (level.title, level.hint, level.par) == ("t", "h", 4)
    assert level.xy(level.index(2, 1)) == (2, 1)


@pytest.mark.parametrize(
    "rows, message, row, column",
    [
        ([], "at least one row", None, None),
        ([""], "row 1 is empty", 1, 1),
        (["@..", ".."], "row 2 has 2 cells, row 1 has 3", 2, 3),
        (["@.x"], "unknown grid character 'x'", 1, 3),
        (["@.", ".@"], "second start", 2, 2),
        (["...", "..."], "no start", None, None),
        (["@" + "." * MAX_SIZE], "at most 32x32", None, None),
    ],
)
def test_from_rows_errors(rows, message, row, column) -> None:
    with pytest.raises(GridError) as info:
        Level.from_rows(rows)
    assert message in str(info.value)
    assert (info.value.row, info.value.column) == (row, column)


def test_from_rows_refuses_one_string() -> None:
    with pytest.raises(TypeError):
        Level.from_rows("@..")


@pytest.mark.parametrize(
    "kwargs, error",
    [
        (dict(width=0), ValueError),
        (dict(height=33), ValueError),
        (dict(width=True), TypeError),
        (dict(walls=-1), ValueError),
        (dict(walls=1 << 3), ValueError),  # bit 3 is a guard bit
        (dict(start=(3, 0)), ValueError),
        (dict(start=(0, 0), walls=1), ValueError),
        (dict(start=[0, 0]), TypeError),
        (dict(par=-1), ValueError),
        (dict(title=3), ValueError),  # LevelFieldError, as in every game (core.levelmeta)
    ],
)
def test_constructor_bounds(kwargs, error) -> None:
    args = dict(width=3, height=2, walls=0, start=(1, 1))
    args.update(kwargs)
    with pytest.raises(error):
        Level(**args)


def test_rays_match_stepping_on_arduboy_levels() -> None:
    """The precomputed rays (bitmasks) against walking cell by cell over the grid text."""
    steps = ((0, -1), (0, 1), (-1, 0), (1, 0))
    for level in arduboy_levels()[:20]:
        free = free_cells(level)
        for x, y in free:
            for d, (dx, dy) in enumerate(steps):
                cells, cx, cy = set(), x + dx, y + dy
                while (cx, cy) in free:
                    cells.add((cx, cy))
                    cx, cy = cx + dx, cy + dy
                ray = level.board.rays[d][level.index(x, y)]
                assert {level.xy(i) for i in range(ray.bit_length()) if ray >> i & 1} == cells


# -- the rules -------------------------------------------------------------------------------


def test_slide_fills_until_wall_body_or_edge() -> None:
    level = Level.from_rows(["@...", "..#.", "...."])
    state = initial(level)
    assert legal_moves(state) == ("down", "right")
    state = apply_move(state, "right")  # to the edge
    assert state.head_xy == (3, 0) and all(state.is_filled(x, 0) for x in range(4))
    state = apply_move(state, "down")  # to the edge
    state = apply_move(state, "left")  # to the edge: (2,2), (1,2), (0,2)
    assert state.head_xy == (0, 2)
    state = apply_move(state, "up")  # stops below its own body at (0,0)
    assert state.head_xy == (0, 1)
    state = apply_move(state, "right")  # stops at the wall (2,1)
    assert state.head_xy == (1, 1)
    assert status(state) == "won" and legal_moves(state) == ()


def test_illegal_moves() -> None:
    state = initial(hand_level("corridor_end"))
    with pytest.raises(IllegalMove, match="cannot move left"):
        apply_move(state, "left")
    with pytest.raises(IllegalMove, match="not a move"):
        apply_move(state, "north")
    won = apply_move(state, "right")
    with pytest.raises(IllegalMove, match="already won"):
        apply_move(won, "left")


def test_status_lost_when_stuck() -> None:
    state = apply_move(initial(hand_level("corridor_middle")), "left")
    assert status(state) == "lost" and legal_moves(state) == ()
    assert GAME.finished(state)


@settings(max_examples=100, deadline=None)
@given(small_levels(), st.lists(st.sampled_from(ORDER), max_size=8))
def test_moves_match_the_naive_slide(level: Level, moves: list[str]) -> None:
    free = free_cells(level)
    state = initial(level)
    pos = (level.start, frozenset([level.start]))
    for move in moves:
        expected = naive_slide(free, pos, move)
        if expected is None or pos[1] == free:
            with pytest.raises(IllegalMove):
                apply_move(state, move)
            continue
        state = apply_move(state, move)
        pos = expected
        cells = {(x, y) for (x, y) in free if state.is_filled(x, y)}
        assert (state.head_xy, cells) == (pos[0], set(pos[1]))
    assert (status(state) == "won") == (pos[1] == free)


def test_solution_strings() -> None:
    assert solution_string(("up", "left", "down", "right")) == "ULDR"
    assert parse_moves("u l, d r") == ("up", "left", "down", "right")
    with pytest.raises(ValueError, match="'x' is not a move letter"):
        parse_moves("ux")


# -- the Game protocol -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["square_2x2", "indeterminate", "two_rows", "corridor_middle", "single"]
)
def test_protocol_on_hand_levels(name: str) -> None:
    check_game(GAME, hand_level(name))


def test_protocol_on_arduboy_levels() -> None:
    for level in arduboy_levels()[::10]:
        check_game(GAME, level, seeds=(0, 1))


def test_game_basics() -> None:
    level = hand_level("square_2x2")
    state = GAME.initial(level)
    assert GAME.id == "longcat" and [k.name for k in GAME.move_kinds] == ["slide"]
    assert GAME.moves(state) == ("down", "right")
    assert GAME.describe_move(state, "right") == "right, 1 cell"
    assert GAME.describe_move(initial(Level.from_rows(["@..."])), "right") == "right, 3 cells"
    assert GAME.status(state) == "playing" and not GAME.finished(state)
    with pytest.raises(IllegalMove):
        GAME.check(state, "up")
    with pytest.raises(ValueError):
        GAME.initial("not a level")


def test_state_json_round_trip_keeps_the_level() -> None:
    level = Level.from_rows(["@.", ".."], title="T", description="d", hint="h", author="a", par=3)
    state = GAME.apply(GAME.initial(level), "right")
    data = json.loads(json.dumps(GAME.state_to_json(state)))
    assert data["head"] == [1, 0] and data["filled"] == [[0, 0], [1, 0]]
    assert GAME.state_from_json(data) == state
    assert level_from_json(level_to_json(level)) == level


@pytest.mark.parametrize(
    "patch, message",
    [
        ({"head": [5, 5]}, "outside"),
        ({"head": [1, 1]}, "must be filled"),
        ({"filled": [[1, 0]]}, "must be filled"),
        ({"filled": "x"}, "list of filled"),
        ({"level": {"rows": ["@", 3]}}, "must be strings"),
        ({"level": {"rows": ["@", ".."]}}, "row 2"),
        ({"head": [True, 0]}, "a cell must be"),
    ],
)
def test_state_from_json_errors(patch, message) -> None:
    level = Level.from_rows(["@.", ".."])
    data = GAME.state_to_json(GAME.apply(GAME.initial(level), "right"))
    data.update(patch)
    with pytest.raises(ValueError, match=message):
        GAME.state_from_json(data)


def test_move_codec() -> None:
    state = GAME.initial(hand_level("square_2x2"))
    assert GAME.move_from_json(state, GAME.move_to_json("left")) == "left"
    for bad in ("L", None, 1, "Up"):
        with pytest.raises(ValueError):
            GAME.move_from_json(state, bad)


# -- the body from a session's history (the order the cat filled its cells) ------------------


def test_body_from_history_follows_the_moves_and_restarts() -> None:
    from core.longcat.game import GAME
    from core.longcat.rules import body_from_history
    from core.session import Session

    # "@.." / "#..": board indices are y * 4 + x (one padding column per row).
    level = Level.from_rows(["@..", "#.."])
    session = Session.begin(GAME, initial(level))
    assert body_from_history(session.line_since_restart()) == (0,)
    session = session.play("right")  # (0,0) slides to (2,0): fills 1 and 2
    assert body_from_history(session.line_since_restart()) == (0, 1, 2)
    session = session.play("down")  # (2,0) to (2,1): index 6
    session = session.play("left")  # (2,1) to (1,1): index 5, the wall stops it
    assert body_from_history(session.line_since_restart()) == (0, 1, 2, 6, 5)
    assert session.status == "won"
    # Undo keeps only the played line; a restart begins the line (and the body) again.
    assert body_from_history(session.undo().line_since_restart()) == (0, 1, 2, 6)
    restarted = session.undo().restart()
    assert body_from_history(restarted.line_since_restart()) == (0,)
    assert body_from_history(restarted.play("right").line_since_restart()) == (0, 1, 2)
    assert body_from_history(()) == ()
