"""Tests of the 2048 expectimax: legality, a brute-force reference, strength, fallbacks."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game2048 import (
    GameConfig,
    ai,
    create_game,
    execute_move_on_board,
    legal_moves,
    move,
    native,
    state_from_board,
)
from core.game2048 import fastboard as fb
from core.game2048.merge import fibonacci_merge, standard_merge

_TILES = [0, 0, 0, 2, 2, 4, 8, 16, 32, 64, 128, 256, 1024]
boards4 = st.lists(
    st.lists(st.sampled_from(_TILES), min_size=4, max_size=4), min_size=4, max_size=4
).map(lambda rows: tuple(tuple(r) for r in rows))


# --- an independent reference: the nneonneo formula and expectimax written out plainly ---


def _ref_line(ranks: list[int]) -> float:
    """nneonneo's line score, straight from its definition (ranks: log2 of the tiles)."""
    empty = ranks.count(0)
    tiles = [r for r in ranks if r]
    # "merges": each run of k >= 2 equal neighbouring tiles (empties skipped) counts k.
    merges = 0
    i = 0
    while i < len(tiles):
        j = i
        while j + 1 < len(tiles) and tiles[j + 1] == tiles[i]:
            j += 1
        if j > i:
            merges += j - i + 1
        i = j + 1
    left = sum(ranks[k - 1] ** 4 - ranks[k] ** 4 for k in range(1, 4) if ranks[k - 1] > ranks[k])
    right = sum(ranks[k] ** 4 - ranks[k - 1] ** 4 for k in range(1, 4) if ranks[k - 1] <= ranks[k])
    return (
        200000
        + 270 * empty
        + 700 * merges
        - 47 * min(left, right)
        - 11 * sum(r**3.5 for r in ranks)
    )


def _ref_heur(board) -> float:
    def rank(v: int) -> int:
        return v.bit_length() - 1 if v else 0

    lines = [list(r) for r in board] + [list(c) for c in zip(*board)]
    return sum(_ref_line([rank(v) for v in line]) for line in lines)


def _ref_scores(board, depth: int) -> dict[str, float]:
    """Plain expectimax on tuples (no pruning, no cache), nneonneo's depth convention."""

    def chance(b, d):
        if d == 0:
            return _ref_heur(b)
        empties = [(r, c) for r in range(4) for c in range(4) if b[r][c] == 0]
        total = 0.0
        for r, c in empties:
            for value, p in ((2, 0.9), (4, 0.1)):
                child = tuple(
                    tuple(value if (i, j) == (r, c) else b[i][j] for j in range(4))
                    for i in range(4)
                )
                best = 0.0
                for direction in fb.DIRECTIONS:
                    nb, _, changed = execute_move_on_board(child, direction, standard_merge)
                    if changed:
                        best = max(best, chance(nb, d - 1))
                total += p * best
        return total / len(empties)

    out = {}
    for direction in fb.DIRECTIONS:
        nb, _, changed = execute_move_on_board(board, direction, standard_merge)
        if changed:
            out[direction] = chance(nb, depth)
    return out


def test_heuristic_table_hand_worked():
    # Empty row: 200000 + 270 * 4.
    assert ai.HEUR_TABLE[0] == pytest.approx(201080)
    # [2, 2, 0, 0] = ranks [1, 1, 0, 0]: 2 empty, one run of 2 equal tiles (merges 2),
    # monotonicity left = 1, right = 0 -> penalty 0, sum of rank^3.5 = 2.
    assert ai.HEUR_TABLE[0x0011] == pytest.approx(200000 + 540 + 1400 - 0 - 22)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 0xFFFF))
def test_heuristic_table_matches_reference(row):
    ranks = [(row >> (4 * i)) & 0xF for i in range(4)]
    assert ai.HEUR_TABLE[row] == pytest.approx(_ref_line(ranks))


@settings(max_examples=100, deadline=None)
@given(boards4)
def test_board_heuristic_matches_reference(board):
    assert ai.heuristic_fast(fb.from_rows(board)) == pytest.approx(_ref_heur(board))


@pytest.mark.parametrize("seed", range(6))
def test_fast_search_equals_brute_force_reference(seed):
    # Crowded boards keep the reference affordable; no pruning so both must agree exactly.
    rng = random.Random(seed)
    cells = [rng.choice([2, 4, 8, 16, 32, 64, 128]) for _ in range(16)]
    for i in rng.sample(range(16), 3):
        cells[i] = 0
    board = tuple(tuple(cells[4 * r : 4 * r + 4]) for r in range(4))
    expected = _ref_scores(board, 1)
    got = ai.move_scores_fast(fb.from_rows(board), 1, threshold=0.0)
    assert got.keys() == expected.keys()
    for d in expected:
        assert got[d] == pytest.approx(expected[d], rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(boards4)
def test_hint_is_a_legal_move(board):
    state = state_from_board(board)
    legal = legal_moves(state)
    choice = ai.hint(state, depth=1)
    if legal:
        assert choice in legal
        assert move(state, choice) is not state
    else:
        assert choice is None


def test_hint_none_on_locked_board():
    locked = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 2))
    state = state_from_board(locked)
    assert ai.hint(state) is None
    assert ai.hint(state, depth=3) is None
    assert ai.hint(state, time_budget_ms=20) is None


def test_hint_takes_the_only_move():
    # Only "left"/"right" merge the two 2s; up and down change nothing.
    board = ((2, 2, 4, 8), (16, 32, 64, 128), (256, 512, 1024, 2048), (4, 8, 16, 32))
    state = state_from_board(board)
    assert set(legal_moves(state)) == {"left", "right"}
    assert ai.hint(state) in {"left", "right"}


def test_hint_is_deterministic():
    state = create_game(GameConfig(initial_seed=99))
    for _ in range(15):
        d = ai.hint(state)
        assert d == ai.hint(state)
        state = move(state, d)


def test_time_budget_gives_a_legal_move():
    state = create_game(GameConfig(initial_seed=3))
    for _ in range(5):
        d = ai.hint(state, time_budget_ms=5)
        assert d in legal_moves(state)
        state = move(state, d)


def _play(state, choose, max_moves):
    for _ in range(max_moves):
        if state.is_game_over:
            break
        state = move(state, choose(state))
    return state


def test_ai_beats_a_random_player():
    # Same seeds for both players; the random player picks among the legal moves.
    ai_scores, random_scores = [], []
    for seed in range(3):
        config = GameConfig(initial_seed=1000 + seed)
        rng = random.Random(seed)
        rand = _play(create_game(config), lambda s, rng=rng: rng.choice(legal_moves(s)), 400)
        smart = _play(create_game(config), lambda s: ai.hint(s, depth=1), 400)
        random_scores.append(rand.score)
        ai_scores.append(smart.score)
        assert smart.score > rand.score
    assert sum(ai_scores) > 2 * sum(random_scores)


def test_autoplay_yields_successive_states():
    state = create_game(GameConfig(initial_seed=5))
    states = list(ai.autoplay(state, max_moves=10, depth=1))
    assert len(states) == 10
    prev = state
    for s in states:
        assert s.move_count == prev.move_count + 1
        prev = s


def test_autoplay_stops_at_game_over():
    board = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 0))
    states = list(ai.autoplay(state_from_board(board), depth=1))
    assert states, "one move is possible"
    assert states[-1].is_game_over or len(states) < 50


# --- general fallback -------------------------------------------------------------------


def test_is_fast_config():
    std = GameConfig()
    assert ai.is_fast_config(((2, 0, 0, 0),) + ((0,) * 4,) * 3, std)
    assert not ai.is_fast_config(((3, 0, 0, 0),) + ((0,) * 4,) * 3, std)
    assert not ai.is_fast_config(((65536, 0, 0, 0),) + ((0,) * 4,) * 3, std)
    assert not ai.is_fast_config(((0,) * 3,) * 3, GameConfig(board_size=3))
    fib = GameConfig.for_preset("fibonacci")
    assert not ai.is_fast_config(((2, 0, 0, 0),) + ((0,) * 4,) * 3, fib)
    odd = GameConfig(tile_value_distribution=((3, 1),))
    assert not ai.is_fast_config(((0,) * 4,) * 4, odd)


@pytest.mark.parametrize("size", [3, 5])
def test_general_fallback_plays_legal_moves(size):
    state = create_game(GameConfig(board_size=size, initial_seed=11))
    for _ in range(12):
        legal = legal_moves(state)
        if not legal:
            break
        d = ai.hint(state)
        assert d in legal
        state = move(state, d)


def test_general_fallback_beats_random_on_3x3():
    config = GameConfig(board_size=3, initial_seed=21)
    totals = [0, 0]
    for seed in range(3):
        cfg = config.with_changes(initial_seed=100 + seed)
        rng = random.Random(seed)
        totals[0] += _play(
            create_game(cfg), lambda s, rng=rng: rng.choice(legal_moves(s)), 150
        ).score
        totals[1] += _play(create_game(cfg), ai.hint, 150).score
    assert totals[1] > totals[0]


def test_general_fallback_none_when_locked():
    locked3 = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
    assert ai.hint(state_from_board(locked3)) is None


def test_general_fallback_fibonacci_finds_the_merge():
    # Fibonacci rule: 3 and 5 merge (into 8); no other neighbours merge and the board is
    # full, so the only legal moves are the horizontal ones that merge them.
    fib = GameConfig.for_preset("fibonacci", board_size=4)
    board = ((3, 5, 21, 89), (21, 89, 377, 21), (89, 21, 89, 377), (21, 377, 21, 89))
    state = state_from_board(board, config=fib)
    legal = legal_moves(state)
    assert set(legal) == {"left", "right"}
    assert ai.hint(state) in legal
    # The same board under the standard rule is locked.
    assert ai.hint(state_from_board(board)) is None


def test_general_fallback_big_tiles_on_4x4():
    # A 65536 tile is beyond the packed board: the general search must still answer.
    board = ((65536, 2, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 2))
    state = state_from_board(board)
    assert not ai.is_fast_config(state.board, state.config)
    assert ai.hint(state) in legal_moves(state)


def test_general_heuristic_prefers_empty_and_mergeable():
    full = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
    open_ = ((2, 2, 0), (0, 0, 0), (0, 0, 0))
    assert ai.heuristic_general(open_, standard_merge) > ai.heuristic_general(full, standard_merge)
    assert ai.heuristic_general(((1, 2, 0), (0,) * 3, (0,) * 3), fibonacci_merge) > (
        ai.heuristic_general(((1, 4, 0), (0,) * 3, (0,) * 3), fibonacci_merge)
    )


# --- time limit -----------------------------------------------------------------------------


def _crowded_board(size: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """A board of mixed tiles with a few empty cells (many legal moves, no merges needed)."""
    rng = random.Random(seed)
    return tuple(
        tuple(rng.choice((0, 2, 4, 8, 16, 32, 64, 128)) for _ in range(size)) for _ in range(size)
    )


class TickingClock:
    """A ``perf_counter`` that advances 1 ms each time it is read: a limit of L seconds is
    reached after 1,000 x L reads on any machine, idle or busy (the search's own speed no
    longer decides the test)."""

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        return self.reads / 1000


@pytest.fixture
def ticking(monkeypatch: pytest.MonkeyPatch) -> TickingClock:
    clock = TickingClock()
    monkeypatch.setattr(ai, "perf_counter", clock)
    return clock


def test_time_limit_bounds_the_general_search_on_a_huge_board(ticking: TickingClock):
    """Defect: a hint on a 32×32 board took 18 s and on 64×64 256 s, with no bound: the
    search now stops once the limit has passed (300 reads of the ticking clock), with a move."""
    board = _crowded_board(64, 7)
    state = state_from_board(board, GameConfig(board_size=64))
    choice = ai.hint(state, time_limit=0.3)
    assert choice in legal_moves(state)
    assert 300 <= ticking.reads <= 310, ticking.reads


@pytest.mark.parametrize(
    ("compiled", "reads"),
    [
        (False, 200),
        # The compiled search reads the same clock once every 1,024 chance nodes: depth 6
        # here takes fewer than 200 of those, so its limit is set lower.
        pytest.param(True, 30, marks=pytest.mark.skipif(not native.available(), reason="numba")),
    ],
)
def test_time_limit_bounds_the_fast_search_inside_an_iteration(
    ticking: TickingClock, monkeypatch: pytest.MonkeyPatch, compiled: bool, reads: int
):
    # Depth 6 on an open board reads the clock far more than 200 times: the clock must be
    # read inside the search, not only between iterations, so it stops at the 200th.
    monkeypatch.setattr(native, "perf_counter", ticking)
    state = create_game(GameConfig(initial_seed=4))
    choice = ai.hint(state, depth=6, time_limit=reads / 1000, native=compiled)
    assert choice in legal_moves(state)
    assert reads <= ticking.reads <= reads + 10, ticking.reads


def test_a_search_that_fits_in_the_limit_gives_the_same_answer():
    # Fast path: the whole default search fits in a minute, so the limit changes nothing.
    state = create_game(GameConfig(initial_seed=31))
    for _ in range(8):
        d = ai.hint(state)
        assert ai.hint(state, time_limit=60) == d
        state = move(state, d)
    # General path (5×5 and Fibonacci): same.
    for config in (GameConfig(board_size=5, initial_seed=2), GameConfig.for_preset("fibonacci")):
        state = create_game(config)
        for _ in range(4):
            d = ai.hint(state)
            assert ai.hint(state, time_limit=60) == d
            state = move(state, d)


def test_time_limit_on_a_locked_board_is_none():
    locked = ((2, 4, 2, 4), (4, 2, 4, 2), (2, 4, 2, 4), (4, 2, 4, 2))
    assert ai.hint(state_from_board(locked), time_limit=0.1) is None
    locked3 = ((2, 4, 2), (4, 2, 4), (2, 4, 2))
    assert ai.hint(state_from_board(locked3), time_limit=0.1) is None


def test_autoplay_stops_at_its_deadline_or_when_asked():
    import time

    state = create_game(GameConfig(initial_seed=5))
    assert list(ai.autoplay(state, 10, depth=1, deadline=time.monotonic() - 1)) == []
    assert list(ai.autoplay(state, 10, depth=1, should_stop=lambda: True)) == []
    seen: list = []
    states = ai.autoplay(state, 10, depth=1, should_stop=lambda: len(seen) >= 3)
    for s in states:
        seen.append(s)
    assert len(seen) == 3  # polled before each move
    far = time.monotonic() + 60
    assert list(ai.autoplay(state, 5, depth=1, deadline=far)) == list(
        ai.autoplay(state, 5, depth=1)
    )
