"""The generators as the arcade offers them (sizes, bands, titles with the difficulty), and the
core helpers the screen uses: solutions from a position, the body's order, empty regions."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.longcat import (
    GenerationError,
    Level,
    analyse,
    apply_move,
    initial,
    legal_moves,
    predict_difficulty,
    status,
)
from core.longcat.catalog import (
    BAND_RANGES,
    GENERATORS,
    describe,
    difficulty_label,
    make_level,
    parse_band,
    parse_size,
)
from core.longcat.prune import empty_regions, is_dead
from core.longcat.rules import body_path
from core.longcat.solver import shortest_from, solution_from
from tests.core.helpers import LONGCAT_METHODS
from tests.core.test_longcat_graph import small_levels
from tests.core.test_longcat_reference import brute, hand_level, naive_slide, regions


def test_sizes_and_bands_are_read_in_words() -> None:
    assert parse_size("8x8") == (8, 8) and parse_size(" 12X10 ") == (12, 10)
    assert parse_size("6×4") == (6, 4)
    for bad in ("8", "x8", "0x3", "33x2", "8x8x8", "axb"):
        with pytest.raises(GenerationError):
            parse_size(bad)
    assert parse_band("any") is None
    assert parse_band("easy") == (20.0, 50.0) and parse_band("very hard") == (80.0, 200.0)
    assert parse_band("very-hard") == parse_band("very_hard")
    assert parse_band("20:50") == (20.0, 50.0)
    assert parse_band("80:") == (80.0, math.inf) and parse_band(":20") == (-math.inf, 20.0)
    for bad in ("50:20", "5:5", "hardest", "1:x", "nan:3"):
        with pytest.raises(GenerationError):
            parse_band(bad)
    assert set(BAND_RANGES) == {"any", "trivial", "easy", "hard", "very_hard", "extreme"}


def test_difficulty_labels() -> None:
    assert difficulty_label(25.4) == "easy 25"
    assert difficulty_label(-10.9) == "trivial 0"
    assert difficulty_label(None) == "difficulty ?"
    assert difficulty_label(250.0) == "extreme 250"


def test_the_registry_mapping_offers_every_method() -> None:
    assert list(GENERATORS) == list(LONGCAT_METHODS)
    for maker in GENERATORS.values():
        assert maker.title and maker.description


@pytest.mark.parametrize("method", ["sd", "template", "fractal", "ca"])
def test_a_generated_level_is_described_and_replays(method: str) -> None:
    level = GENERATORS[method].generate(5, size="8x8", band="easy")
    analysis = analyse(level)
    difficulty = predict_difficulty(analysis)
    assert 20 <= difficulty < 50
    assert level.title == f"{method} 8x8 #5 · {difficulty_label(difficulty)}"
    assert level.par == analysis.metrics.shortest_solution
    assert level.author == "termarcade generator"
    assert f"Predicted difficulty {difficulty:.1f} (easy)" in level.description
    assert GENERATORS[method].generate(5, size="8x8", band="easy") == level


def test_the_learned_generator_names_its_temperature_and_replays() -> None:
    from tui.games.longcat.weights import install

    install()
    level = GENERATORS["rl"].generate(5, size="8x8", temperature="0.2")
    difficulty = predict_difficulty(analyse(level))
    assert level.title == f"rl T0.2 8x8 #5 · {difficulty_label(difficulty)}"
    assert GENERATORS["rl"].generate(5, size="8x8", temperature=0.2) == level
    # The default temperature is named too; a bad one is a GenerationError.
    assert GENERATORS["rl"].generate(5).title.startswith("rl T0.3 8x8 #5")
    for bad in ("-0.1", "hot", "101", True):
        with pytest.raises(GenerationError):
            GENERATORS["rl"].generate(5, temperature=bad)
    with pytest.raises(GenerationError, match="no learned generator for 7x7"):
        GENERATORS["rl"].generate(5, size="7x7")


def test_unique_and_size_are_honoured() -> None:
    level = GENERATORS["sd"].generate(3, size="10x6", unique=1)
    assert (level.width, level.height) == (10, 6)
    assert analyse(level).metrics.solution_paths == 1


def test_puzzle_up_finds_small_levels_or_says_why() -> None:
    level = GENERATORS["pu"].generate(1, size="6x6")
    assert level.size >= 3 and analyse(level).metrics.solvable
    with pytest.raises(GenerationError, match="Puzzle-Up rarely finds"):
        make_level("pu", 1, 6, 6, band=(200, math.inf), max_attempts=50)


def test_make_level_errors() -> None:
    with pytest.raises(GenerationError, match="unknown generator 'nope'"):
        make_level("nope", 1, 8, 8)
    with pytest.raises(GenerationError, match=r"within 0\.001 s"):
        make_level("bsp", 1, 16, 16, band=(500, 600), time_guard=0.001)
    with pytest.raises(GenerationError, match="cancelled"):
        make_level("sd", 1, 8, 8, band=(500, 600), should_stop=lambda: True)


def test_describe_without_the_full_graph_keeps_par_from_the_solver() -> None:
    level = Level.from_rows(["@....", ".....", "....."])
    described = describe(level, "open", max_states=5)
    assert described.title == "open · difficulty ?"
    assert described.par == analyse(level).metrics.shortest_solution
    assert "too large" in described.description


# -- solutions from a position ------------------------------------------------------------------


def _plays_to_a_win(state, moves) -> bool:
    for move in moves:
        state = apply_move(state, move)
    return status(state) == "won"


@settings(max_examples=120, deadline=None)
@given(small_levels(), st.lists(st.sampled_from(("up", "down", "left", "right")), max_size=4))
def test_solutions_from_any_position_agree_with_brute_force(level: Level, moves) -> None:
    state = initial(level)
    for move in moves:
        if move in legal_moves(state):
            state = apply_move(state, move)
    # The brute-force reference, started from this position.
    free = frozenset(
        (x, y) for y, r in enumerate(level.rows()) for x, c in enumerate(r) if c != "#"
    )
    filled = frozenset(
        level.xy(i) for i in range(level.height * (level.width + 1)) if state.filled >> i & 1
    )
    todo, wins = [((state.head_xy, filled), ())], []
    while todo:
        pos, path = todo.pop()
        if pos[1] == free:
            wins.append(path)
        for m in ("up", "down", "left", "right"):
            nxt = naive_slide(free, pos, m)
            if nxt is not None:
                todo.append((nxt, path + (m,)))
    found = solution_from(state)
    shortest = shortest_from(state)
    if wins:
        assert found.status == shortest.status == "solved"
        assert _plays_to_a_win(state, found.moves)
        assert len(shortest.moves) == min(len(w) for w in wins)
    else:
        assert found.status == shortest.status == "unsolvable"


def test_solution_from_honours_its_limits() -> None:
    level = Level.from_rows(["@" + "." * 7] + ["." * 8] * 7)
    assert solution_from(initial(level), max_states=3).reason == "limit"
    assert solution_from(initial(level), should_stop=lambda: True).reason == "cancelled"
    assert solution_from(initial(level), time_limit=1e-9).status in ("unknown", "solved")
    won = apply_move(initial(Level.from_rows(["@."])), "right")
    assert solution_from(won).status == "solved" and solution_from(won).moves == ()


# -- the body in order, and empty regions ---------------------------------------------------------


def test_body_path_follows_the_slides() -> None:
    level = hand_level("square_2x2")  # "@." / ".."
    state = initial(level)
    heads = [state.head]
    for move in ("right", "down", "left"):
        state = apply_move(state, move)
        heads.append(state.head)
    assert [level.xy(i) for i in body_path(level, heads)] == [(0, 0), (1, 0), (1, 1), (0, 1)]
    long = Level.from_rows(["@...", "####", "...."])
    assert [long.xy(i) for i in body_path(long, [long.index(0, 0), long.index(3, 0)])] == [
        (0, 0),
        (1, 0),
        (2, 0),
        (3, 0),
    ]
    assert body_path(level, []) == ()
    with pytest.raises(ValueError, match="not one slide apart"):
        body_path(level, [level.index(0, 0), level.index(1, 1)])


@settings(max_examples=80, deadline=None)
@given(small_levels(), st.lists(st.sampled_from(("up", "down", "left", "right")), max_size=6))
def test_body_path_is_the_filled_cells_as_one_chain(level: Level, moves) -> None:
    state = initial(level)
    heads = [state.head]
    for move in moves:
        if move in legal_moves(state):
            state = apply_move(state, move)
            heads.append(state.head)
    path = body_path(level, heads)
    assert sum(1 << i for i in path) == state.filled and len(set(path)) == len(path)
    assert path[0] == level.start_index and path[-1] == state.head
    for a, b in itertools.pairwise(path):
        (ax, ay), (bx, by) = level.xy(a), level.xy(b)
        assert abs(ax - bx) + abs(ay - by) == 1
    got = empty_regions(level.board, state.filled)
    empty = [c for c in brute_free(level) if not state.is_filled(*c)]
    assert len(got) == regions(frozenset(empty))
    assert is_dead(level.board, state.filled) is (len(got) > 1)
    assert [r.bit_count() for r in got] == sorted((r.bit_count() for r in got), reverse=True)


def brute_free(level: Level) -> list[tuple[int, int]]:
    return [(x, y) for y, r in enumerate(level.rows()) for x, c in enumerate(r) if c != "#"]


def test_reference_still_agrees_on_a_described_level() -> None:
    level = GENERATORS["sd"].generate(2, size="4x4")
    assert len(brute(level).solutions) == analyse(level).metrics.solution_paths
