"""2048's compiled expectimax (issue 32): the same answers as the pure-Python reference, the
same node budget, a silent fallback, flat autoplay memory and searches that say when they
were cut short."""

from __future__ import annotations

import gc
import random
import sys
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game2048 import GameConfig, ai, create_game, native, state_from_board
from core.game2048 import fastboard as fb

needs_numba = pytest.mark.skipif(not native.available(), reason="numba is not installed")


def _reachable(seed: int, moves: int) -> int:
    """A packed board reached by ``moves`` random legal moves and random spawns (2: 90 %)."""
    rng = random.Random(seed)

    def spawn(b: int) -> int:
        m = rng.choice(fb.empty_masks(b))
        return b | (m if rng.random() < 0.9 else m << 1)

    board = spawn(spawn(0))
    for _ in range(moves):
        legal = fb.legal_moves(board)
        if not legal:
            break
        board = spawn(fb.move_board(board, rng.choice(legal)))
    return board


_HAND_BOARDS = [
    # A crowded late game (one empty cell), a merge-rich row, an open board, the big tiles.
    ((2, 4, 8, 16), (32, 64, 128, 256), (512, 1024, 2048, 4096), (8192, 16384, 0, 2)),
    ((2, 2, 2, 2), (4, 4, 0, 0), (0, 0, 0, 0), (8, 0, 8, 0)),
    ((0, 0, 0, 0), (0, 2, 0, 0), (0, 0, 0, 0), (0, 0, 4, 0)),
    ((32768, 16384, 8192, 4096), (2, 4, 8, 16), (0, 0, 0, 0), (0, 0, 0, 2)),
]


def _assert_same(pure: dict[str, float], fast: dict[str, float]) -> None:
    assert pure.keys() == fast.keys()
    for direction, value in pure.items():
        assert fast[direction] == pytest.approx(value, rel=1e-12, abs=1e-9)


@needs_numba
@pytest.mark.parametrize("rows", _HAND_BOARDS)
@pytest.mark.parametrize("depth", [0, 1, 2])
def test_native_and_pure_score_hand_boards_alike(rows: tuple, depth: int) -> None:
    board = fb.from_rows(rows)
    pure = ai.move_scores_fast(board, depth, native=False)
    fast = ai.move_scores_fast(board, depth, native=True)
    _assert_same(pure, fast)
    assert ai.best_move_fast(board, depth=depth, native=True) == ai.best_move_fast(
        board, depth=depth, native=False
    )


@needs_numba
@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 300), st.integers(1, 3))
def test_native_and_pure_agree_on_reachable_boards(seed: int, moves: int, depth: int) -> None:
    board = _reachable(seed, moves)
    pure = ai.move_scores_fast(board, depth, native=False)
    fast = ai.move_scores_fast(board, depth, native=True)
    _assert_same(pure, fast)
    assert ai._pick(fast) == ai._pick(pure)


@needs_numba
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(20, 250))
def test_a_node_budget_means_the_same_nodes_in_both_engines(seed: int, moves: int) -> None:
    board = _reachable(seed, moves)
    used = {}
    for compiled in (False, True):
        nodes = ai.NodeBudget(10**9)
        ai.move_scores_fast(board, 2, nodes=nodes, native=compiled)
        used[compiled] = 10**9 - nodes.left
    assert used[True] == used[False]
    need = used[True]
    for compiled in (False, True):
        # Exactly the nodes the search needs is enough; one fewer cuts it, in both engines.
        ai.move_scores_fast(board, 2, nodes=ai.NodeBudget(need), native=compiled)
        if need:
            with pytest.raises(ai.OutOfTime):
                ai.move_scores_fast(board, 2, nodes=ai.NodeBudget(need - 1), native=compiled)


@needs_numba
def test_native_matches_the_reference_with_no_probability_cut(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # threshold 0 expands every branch; starting from a 16-slot table the compiled search
    # must grow it, restarting each time, transparently: the same scores, the same nodes.
    monkeypatch.setattr(native, "_SIZE_BITS", [4])
    restarts = native.RESTARTS[0]
    board = fb.from_rows(((2, 4, 0, 0), (0, 8, 0, 2), (0, 0, 16, 0), (4, 0, 0, 2)))
    pure_nodes, fast_nodes = ai.NodeBudget(10**9), ai.NodeBudget(10**9)
    pure = ai.move_scores_fast(board, 2, threshold=0.0, nodes=pure_nodes, native=False)
    fast = ai.move_scores_fast(board, 2, threshold=0.0, nodes=fast_nodes, native=True)
    _assert_same(pure, fast)
    assert fast_nodes.left == pure_nodes.left
    assert native.RESTARTS[0] >= restarts + 4  # 16 slots -> at least 256 for ~300 entries


def test_the_pure_path_is_forced_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert not native.available()
    assert not ai.use_native()
    state = create_game(GameConfig(initial_seed=3))
    assert ai.hint_info(state, depth=1).engine == "pure"


def test_a_missing_numba_falls_back_silently(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setattr(native, "numba", None)
    monkeypatch.setattr(native, "_MISSING", [False])  # the failure it records is undone after
    monkeypatch.setitem(sys.modules, "numba", None)  # "import numba" now raises ImportError
    assert not native.available()
    state = create_game(GameConfig(initial_seed=3))
    found = ai.hint_info(state, depth=1)
    assert found.engine == "pure"
    assert found.move == ai.hint(state, depth=1, native=False)


@needs_numba
def test_hint_uses_the_native_engine_by_default() -> None:
    state = create_game(GameConfig(initial_seed=3))
    assert ai.hint_info(state, depth=1).engine == "native"
    assert ai.hint_info(state, depth=1, native=False).engine == "pure"


# --- memory ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "compiled",
    # The pure run is slow under tracemalloc (~3.5 s: it traces every small allocation).
    [pytest.param(False, marks=pytest.mark.slow), pytest.param(True, marks=needs_numba)],
)
def test_autoplay_memory_stays_flat(compiled: bool) -> None:
    """Defect: each search's tables stayed alive in a reference cycle (the recursive closure)
    until the cycle collector ran. With the collector off, only a leak can make the memory
    traced after 300 moves more than twice that after 30."""
    state = create_game(GameConfig(initial_seed=11))

    def play() -> dict[int, int]:
        traced = {}
        played = ai.autoplay(state, 300, depth=1, budget=3000, native=compiled)
        for count, _ in enumerate(played, start=1):
            if count in (30, 300) and tracemalloc.is_tracing():
                traced[count] = tracemalloc.get_traced_memory()[0]
        return traced

    # The same game once first: the engine's memo of line moves and the compiled code are
    # then warm (bounded caches, not leaks), so the measured replay sees only what leaks.
    play()
    gc.collect()
    gc.disable()
    tracemalloc.start()
    try:
        traced = play()
    finally:
        tracemalloc.stop()
        gc.enable()
    assert set(traced) == {30, 300}, "the game ended before 300 moves"
    assert traced[300] <= 2 * traced[30], traced


# --- cuts ------------------------------------------------------------------------------------


@pytest.mark.parametrize("compiled", [False, pytest.param(True, marks=needs_numba)])
def test_a_search_cut_by_its_work_budget_says_so(compiled: bool) -> None:
    state = create_game(GameConfig(initial_seed=8))
    full = ai.hint_info(state, depth=2, native=compiled)
    assert (full.depth, full.target, full.cut) == (2, 2, None)
    # A budget of exactly the nodes depth 1 needs: the deepening finishes depth 0 (no
    # nodes) and depth 1, and depth 2 is cut.
    nodes = ai.NodeBudget(10**9)
    board = fb.from_rows(state.board)
    ai.move_scores_fast(board, 1, nodes=nodes, native=compiled)
    depth1 = 10**9 - nodes.left
    cut = ai.hint_info(state, depth=2, budget=depth1, native=compiled)
    assert (cut.depth, cut.target, cut.cut) == (1, 2, ai.CUT_BUDGET)
    assert cut.move == ai.hint(state, depth=1, native=compiled)
    enough = ai.hint_info(state, depth=2, budget=10**6, native=compiled)
    assert (enough.depth, enough.cut, enough.move) == (2, None, full.move)


def test_a_big_board_cut_by_its_budget_says_so() -> None:
    """Defect: on big boards the search was cut without saying so."""
    board = tuple(
        tuple(random.Random(7 * r + c).choice((0, 2, 4, 8)) for c in range(16)) for r in range(16)
    )
    state = state_from_board(board, GameConfig(board_size=16))
    found = ai.hint_info(state, depth=1, budget=5)
    assert found.engine == "general"
    assert (found.depth, found.target, found.cut) == (0, 1, ai.CUT_BUDGET)
    assert found.move is not None


@needs_numba
def test_a_search_leaves_no_entry_behind_for_the_next() -> None:
    # The compiled search reuses its thread's transposition table and empties the slots it
    # filled before it returns, cut short or not. An entry left behind would be read by the
    # next search of the same board: here one with other new tiles (4s only, then 2s only),
    # whose values differ, so a stale entry gives a wrong score.
    board = _reachable(11, 60)
    fours, twos = ((2, 1.0),), ((1, 1.0),)
    need = ai.NodeBudget(10**9)
    ai.move_scores_fast(board, 3, spawns=fours, nodes=need, native=True)
    spent = 10**9 - need.left
    with pytest.raises(ai.OutOfTime):  # cut half way: its finished chance nodes were stored
        ai.move_scores_fast(board, 3, spawns=fours, nodes=ai.NodeBudget(spent // 2), native=True)
    for spawns in (fours, twos):
        fast = ai.move_scores_fast(board, 3, spawns=spawns, native=True)
        _assert_same(ai.move_scores_fast(board, 3, spawns=spawns, native=False), fast)


@needs_numba
def test_each_thread_searches_with_its_own_tables() -> None:
    import threading

    seen = []
    worker = threading.Thread(target=lambda: seen.append(native._workspace().st))
    worker.start()
    worker.join()
    assert seen and seen[0] is not native._workspace().st
