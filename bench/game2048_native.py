"""Benchmark of 2048's compiled expectimax against the pure-Python one (issue 32).

Run from the repository root::

    python bench/game2048_native.py                    # per-search CPU at depths 1-3
    python bench/game2048_native.py --boards 10 --depths 1 2 3 4
    python bench/game2048_native.py --games 2 --seeds 101 102 --max-moves 600 --jobs 2

Part (a), speed, in one process and one run: the same boards (positions of a game played by
the AI, every few moves from the opening to the late game), each searched at depth 1, 2 and
3 by :func:`core.game2048.ai.move_scores_fast` with ``native=False`` and ``native=True``,
interleaved board by board; CPU time of this process (``time.process_time``) per search, the
ratio, and the compiled search's moves per CPU second (the move count is the compiled
search's own; the pure search makes the same moves). Also the first call's compile (or cache
load) time. The two give identical scores (asserted here as in the tests).

Part (a'), ``--nneonneo SO``: the same boards searched by nneonneo's C++ program
(https://github.com/nneonneo/2048-ai), built outside this repository as a shared library
around ``bench/nneonneo_shim.cpp`` (its header says how), at the same depths: CPU time per
search (the C++ side times ``--reps`` searches repeated inside C++; the compiled search is
timed two ways: repeated inside compiled code the same way, and through
:func:`core.game2048.ai.move_scores_fast`, the call a hint makes), the ratios, and on how
many boards both pick the same move.

Part (c), ``--memory 100 10000``: peak memory (the largest resident set, from the kernel)
of ``2048 autoplay`` at its default setting, one fresh process per move count, the same
seed (``--seeds``; goal off, so the game goes on past 2048), and the ratio to the first.

Part (b), ``--games N --seeds S...``: whole games of the standard game at the default setting
(``2048 autoplay``'s: adaptive depth, the per-move think time and work budget), one process
per game (``--jobs`` at once); the table of 2048/4096/8192/16384/32768 reached, moves, and
milliseconds per move (CPU time in the hint: mean and slowest), and the moves whose search a
limit cut. On a shared machine, cap the moves (``--max-moves``) and say so.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.game2048 import GameConfig, ai, create_game, move, native
from core.game2048 import fastboard as fb
from core.game2048.board import max_tile

REACHED = (2048, 4096, 8192, 16384, 32768)
"""Tiles whose reaching the games table reports."""


def sample_boards(count: int, seed: int = 20260) -> list[int]:
    """Positions of one game played by the AI at depth 1, every few moves (packed boards).

    Args:
        count: How many boards.
        seed: The game's seed.

    Returns:
        The packed boards, from the opening to the late game.
    """
    state = create_game(GameConfig(initial_seed=seed))
    boards = []
    played = 0
    while not state.is_game_over and played < 3000:
        if played % 25 == 10:
            boards.append(fb.from_rows(state.board))
        direction = ai.hint(state, depth=1)
        if direction is None:
            break
        state = move(state, direction)
        played += 1
    step = max(1, len(boards) // count)
    return boards[::step][:count]


def speed(boards: list[int], depths: list[int]) -> list[dict[str, Any]]:
    """Per-search CPU time of both engines at each depth, on the same boards.

    Args:
        boards: Packed boards.
        depths: Depths (spawns looked ahead).

    Returns:
        One row per depth: ``depth``, ``pure_ms``, ``native_ms``, ``ratio``, ``mmoves_s``.
    """
    rows = []
    for depth in depths:
        pure_t = native_t = 0.0
        moves = 0
        for board in boards:
            t0 = time.process_time()
            p = ai.move_scores_fast(board, depth, native=False)
            t1 = time.process_time()
            before = native.MOVES_MADE[0]
            n = ai.move_scores_fast(board, depth, native=True)
            t2 = time.process_time()
            moves += native.MOVES_MADE[0] - before
            assert p.keys() == n.keys() and all(abs(p[k] - n[k]) <= 1e-6 * abs(p[k]) for k in p)
            pure_t += t1 - t0
            native_t += t2 - t1
        rows.append(
            {
                "depth": depth,
                "pure_ms": pure_t * 1000 / len(boards),
                "native_ms": native_t * 1000 / len(boards),
                "ratio": pure_t / native_t if native_t else float("inf"),
                "mmoves_s": moves / native_t / 1e6 if native_t else float("nan"),
            }
        )
    return rows


def against_cpp(boards: list[int], depths: list[int], library: Path, reps: int) -> None:
    """Per-search CPU time of nneonneo's C++ search and the compiled one, printed by depth.

    Args:
        boards: Packed boards (the packing is nneonneo's: row 0 in the low 16 bits).
        depths: Depths (spawns looked ahead; the C++ program's ``depth_limit``).
        library: The shared library built from ``bench/nneonneo_shim.cpp``.
        reps: Searches per board and depth at depth 1 (fewer at greater depths), timed
            together.
    """
    lib = ctypes.CDLL(str(library))
    lib.nneonneo_search.restype = ctypes.c_double
    lib.nneonneo_search.argtypes = [
        ctypes.c_uint64,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_float),
        ctypes.POINTER(ctypes.c_ulong),
    ]
    directions = ("up", "down", "left", "right")  # the C++ program's move order
    loop = _compiled_loop()
    print(f"\n{len(boards)} boards; CPU µs per search, nneonneo's C++ against the compiled one")
    print("(loop: the searches repeated inside compiled code, as the C++ shim repeats its own;")
    print(" API: each search through ai.move_scores_fast, the call a hint makes)")
    print(
        f"{'depth':>5} {'C++ µs':>9} {'loop µs':>9} {'ratio':>7} {'API µs':>9} {'ratio':>7} "
        f"{'same move':>10}"
    )
    for depth in depths:
        n = max(1, reps // 8 ** (depth - 1))
        cpp_t = native_t = loop_t = 0.0
        same = 0
        for board in boards:
            out, made = (ctypes.c_float * 4)(), ctypes.c_ulong()
            cpp_t += lib.nneonneo_search(board, depth, n, out, ctypes.byref(made)) / n
            loop_t += loop(board, depth, n) / n
            t0 = time.process_time()
            for _ in range(n):
                found = ai.move_scores_fast(board, depth, native=True)
            native_t += (time.process_time() - t0) / n
            cpp_best = directions[max(range(4), key=lambda i: out[i])]
            same += cpp_best == max(found, key=lambda d: found[d])
        k = 1e6 / len(boards)
        print(
            f"{depth:>5} {cpp_t * k:>9.1f} {loop_t * k:>9.1f} {loop_t / cpp_t:>6.2f}x "
            f"{native_t * k:>9.1f} {native_t / cpp_t:>6.2f}x {same:>5}/{len(boards)}"
        )


def _compiled_loop() -> Any:
    """``loop(board, depth, reps) -> CPU seconds`` of ``reps`` compiled searches of a board,
    repeated inside compiled code (the kernel's :func:`root`, table emptying included), so
    that the Python call's fixed cost is left out as the C++ shim leaves out ctypes'.
    """
    import numba
    import numpy as np

    from core.game2048 import native_kernel as kernel

    @numba.njit
    def repeat(reps, board, depth, left_t, right_t, heur, ranks, probs, thr, tt, st, out):
        status = 0
        for _ in range(reps):
            st[0] = -1  # no node budget
            st[1] = st[2] = st[3] = st[4] = 0
            status = kernel.root(
                board, depth, left_t, right_t, heur, ranks, probs, thr,
                tt[0], tt[1], tt[2], tt[3], st, -1.0, out,
            )  # fmt: skip
        return status

    (left_t, right_t), heur = native._tables()
    ranks, probs = native._spawn_arrays(ai._STANDARD_SPAWNS)
    fixed = (left_t, right_t, heur, ranks, probs, ai.CPROB_THRESHOLD)
    # The API's own per-thread arrays and tables (the search empties the slots it filled).
    space = native._Workspace()

    def loop(board: int, depth: int, reps: int) -> float:
        # The smallest table the search fits in, as the API's search sizes its own (a larger
        # one spreads the same entries over more of the cache).
        bits = 12
        probe = (np.uint64(board), depth, *fixed)
        while repeat(1, *probe, space.table(bits), space.st, space.out) == native.FULL:
            bits += 1
        t0 = time.process_time()
        status = repeat(reps, *probe, space.table(bits), space.st, space.out)
        took = time.process_time() - t0
        assert status == native.OK, status
        return took

    return loop


def memory(moves: list[int], seed: int) -> None:
    """Print the peak resident set of ``2048 autoplay`` for each move count.

    Args:
        moves: Move counts (``--max-moves``), each played by a fresh process.
        seed: The game's seed (one that lives long enough for the largest count).
    """
    root = Path(__file__).resolve().parent.parent
    print(f"\n2048 autoplay, seed {seed}, default setting; peak resident set per process")
    first = None
    for n in moves:
        command = [sys.executable, "-m", "tui", "2048", "autoplay", "--seed", str(seed)]
        command += ["--max-moves", str(n), "--goal", "0", "--time-limit", "86400", "--json"]
        t0 = time.perf_counter()
        child = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, text=True)
        out = child.stdout.read() if child.stdout else ""
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
        played = json.loads(out).get("moves", "?") if out.strip() else "?"
        rss = usage.ru_maxrss / 1024  # kB on Linux
        first = first or rss
        print(
            f"{n:>7} moves asked, {played} played: peak {rss:7.1f} MB "
            f"({rss / first:.2f}x the first) in {time.perf_counter() - t0:.0f} s"
        )


def play_one(args: tuple[int, int, int]) -> dict[str, Any]:
    """One whole game at the CLI's default setting (run in a worker process).

    Args:
        args: ``(seed, max_moves, stop_at)``: the seed, the cap on moves, and a tile at
            which the game stops (0: play to the end).

    Returns:
        ``seed``, ``max_tile``, ``score``, ``moves``, ``ms`` (CPU per move, each move),
        ``cuts`` (moves whose search a limit cut, by limit).
    """
    from tui.games.game2048.cli import DEFAULT_BUDGET, DEFAULT_TIME_LIMIT

    seed, max_moves, stop_at = args
    native.warm_up()
    state = create_game(GameConfig(initial_seed=seed))
    ms: list[float] = []
    cuts: dict[str, int] = {}
    depths: list[int] = []
    while not state.is_game_over and len(ms) < max_moves:
        t0 = time.process_time()
        found = ai.hint_info(state, time_limit=DEFAULT_TIME_LIMIT, budget=DEFAULT_BUDGET)
        ms.append((time.process_time() - t0) * 1000)
        if found.cut is not None:
            cuts[found.cut] = cuts.get(found.cut, 0) + 1
        depths.append(found.depth)
        if found.move is None:
            break
        state = move(state, found.move)
        if stop_at and max_tile(state.board) >= stop_at:
            break
    return {
        "seed": seed,
        "max_tile": max_tile(state.board),
        "score": state.score,
        "moves": len(ms),
        "ms": ms,
        "cuts": cuts,
        "over": state.is_game_over,
        "mean_depth": statistics.fmean(depths) if depths else 0.0,
    }


def games(
    seeds: list[int], max_moves: int, jobs: int, stop_at: int = 0, log: Path | None = None
) -> list[dict[str, Any]]:
    """Play one game per seed on ``jobs`` processes and print the table.

    Args:
        seeds: The games' seeds.
        max_moves: Cap on each game's moves.
        jobs: Processes at once.
        stop_at: A tile at which each game stops (0: play each game to its end).
        log: A file to which each game's result is appended as a JSON line when it ends, so
            that a long run's finished games survive an interruption.

    Returns:
        The games' results (see :func:`play_one`), in seed order.
    """
    results = []
    with Pool(jobs) as pool:
        for r in pool.imap_unordered(play_one, [(s, max_moves, stop_at) for s in seeds]):
            results.append(r)
            if log is not None:
                with log.open("a") as out:
                    out.write(json.dumps(r) + "\n")
    results.sort(key=lambda r: seeds.index(r["seed"]))
    table(results, stop_at)
    return results


def table(results: list[dict[str, Any]], stop_at: int = 0) -> None:
    """Print the games table (see :func:`games`).

    Args:
        results: The games' results (see :func:`play_one`).
        stop_at: The tile at which the games stopped (0: played to their ends).
    """
    print(
        f"\n{'seed':>6} {'max':>6} {'score':>8} {'moves':>6} {'ms/move':>8} {'max ms':>7} "
        f"{'depth':>5} {'cut':>4} end"
    )
    for r in results:
        print(
            f"{r['seed']:>6} {r['max_tile']:>6} {r['score']:>8} {r['moves']:>6} "
            f"{statistics.fmean(r['ms']):>8.1f} {max(r['ms']):>7.0f} {r['mean_depth']:>5.2f} "
            f"{sum(r['cuts'].values()):>4} {end(r, stop_at)} "
            f"{r['cuts'] or ''}"
        )
    n = len(results)
    shares = "  ".join(f"{t}: {sum(r['max_tile'] >= t for r in results)}/{n}" for t in REACHED)
    every = [m for r in results for m in r["ms"]]
    print(f"reached  {shares}" + (f"  (games stopped at {stop_at})" if stop_at else ""))
    print(
        f"{len(every)} moves: {statistics.fmean(every):.1f} ms CPU per move on average, "
        f"{sorted(every)[int(0.99 * (len(every) - 1))]:.0f} ms at the 99th percentile"
    )


def end(result: dict[str, Any], stop_at: int) -> str:
    """How a game ended: ``game over``, ``stopped at`` the tile, or ``move cap``."""
    if result["over"]:
        return "game over"
    if stop_at and result["max_tile"] >= stop_at:
        return f"stopped at {stop_at}"
    return "move cap"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark (see the module docstring).

    Args:
        argv: Command-line arguments (default: ``sys.argv[1:]``).

    Returns:
        The exit status.
    """
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--boards", type=int, default=16, help="boards for the speed part")
    p.add_argument("--depths", type=int, nargs="+", default=[1, 2, 3], help="depths to time")
    p.add_argument("--games", type=int, default=0, help="whole games to play (part b)")
    p.add_argument("--seeds", type=int, nargs="+", default=None, help="the games' seeds")
    p.add_argument("--max-moves", type=int, default=100_000, help="cap on each game's moves")
    p.add_argument("--jobs", type=int, default=2, help="game processes at once")
    p.add_argument("--stop-at", type=int, default=0, help="stop each game at this tile")
    p.add_argument("--log", type=Path, default=None, help="append each game's result (JSON)")
    p.add_argument("--table", type=Path, default=None, help="print the table of a --log file")
    p.add_argument("--memory", type=int, nargs="+", default=None, help="part (c): move counts")
    p.add_argument("--nneonneo", type=Path, default=None, help="nneonneo_shim.so (part a')")
    p.add_argument("--reps", type=int, default=400, help="C++ comparison: searches at depth 1")
    a = p.parse_args(argv)
    if not native.available():
        print("numba is not installed (or TERMARCADE_PURE_AI is set): nothing to compare")
        return 1
    if a.memory:
        memory(a.memory, (a.seeds or [7001])[0])
        return 0
    if a.table:
        table([json.loads(line) for line in a.table.read_text().splitlines()], a.stop_at)
        return 0
    if a.games:
        seeds = (a.seeds or list(range(1001, 1001 + a.games)))[: a.games]
        games(seeds, a.max_moves, a.jobs, a.stop_at, a.log)
        return 0
    t0 = time.perf_counter()
    native.warm_up()
    print(f"first compiled search (compile or cache load): {time.perf_counter() - t0:.2f} s")
    boards = sample_boards(a.boards)
    print(f"{len(boards)} boards; CPU ms per search (process time), same boards, interleaved")
    print(f"{'depth':>5} {'pure ms':>9} {'native ms':>10} {'ratio':>7} {'M moves/s':>10}")
    for row in speed(boards, a.depths):
        print(
            f"{row['depth']:>5} {row['pure_ms']:>9.2f} {row['native_ms']:>10.3f} "
            f"{row['ratio']:>6.1f}x {row['mmoves_s']:>10.2f}"
        )
    if a.nneonneo:
        against_cpp(boards, a.depths, a.nneonneo, a.reps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
