"""Benchmark of the 2048 engine, its packed board and its AI.

Run from the repository root::

    python bench/game2048.py                 # speed + 20 AI games (long: tens of minutes)
    python bench/game2048.py --quick         # a fast smoke run (seconds)
    python bench/game2048.py --games 4 --skip-speed

Part (a), speed, in one process and one run:

* the pure API: ``core.game2048.move`` (slide, merge, spawn, game-over check) on random
  games, against the public pure-Python package ``term2048`` (``Board.move`` with its tile
  spawn plus ``Board.canMove``), the same work per move; and slide+merge alone
  (``execute_move_on_board`` against ``Board.move(d, add_tile=False)``);
* the packed 64-bit board (``core.game2048.fastboard``): ``move`` (board and score),
  ``move_board`` (board only), ``move_all`` (the four moves of a board at once, as the AI
  uses them) and, as the floor that bounds what CPython can do, a loop doing nothing but
  the four row-table lookups of a move.

Part (b), AI strength: N seeded games of the standard 4×4 game played by
``core.game2048.ai.hint`` with the default (deterministic, adaptive-depth) search, on a
``multiprocessing`` pool of 2 workers by default. It prints the share of games reaching
2048/4096/8192, the median score and the milliseconds per move (CPU time spent in ``hint``).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.game2048 import (
    GameConfig,
    ai,
    create_game,
    execute_move_on_board,
    move,
)
from core.game2048 import fastboard as fb
from core.game2048.board import max_tile
from core.game2048.merge import standard_merge

DIRS = ("up", "down", "left", "right")


def _rate(fn: Callable[[], int], min_seconds: float) -> float:
    """Moves per CPU second of ``fn`` (which returns how many moves it made), best of 3 runs.

    CPU time of this process (``time.process_time``) rather than wall time, so that other
    programs sharing the machine do not distort the ratios.
    """
    best = 0.0
    for _ in range(3):
        start = time.process_time()
        moves = 0
        while True:
            moves += fn()
            elapsed = time.process_time() - start
            if elapsed >= min_seconds:
                break
        best = max(best, moves / elapsed)
    return best


# ---------------------------------------------------------------------------
# (a) speed
# ---------------------------------------------------------------------------


def pure_api_game_moves(seed: int, n: int) -> Callable[[], int]:
    """A closure playing ``n`` random moves with ``core.game2048.move`` (restarting at game over)."""
    rng = random.Random(seed)
    config = GameConfig(board_size=4, initial_seed=seed)
    state = [create_game(config)]
    choices = [rng.choice(DIRS) for _ in range(4096)]

    def run() -> int:
        s = state[0]
        k = 0
        for i in range(n):
            s = move(s, choices[(k + i) & 4095])
            if s.is_game_over:
                s = create_game(config.with_changes(initial_seed=k + i))
        state[0] = s
        return n

    return run


def term2048_game_moves(seed: int, n: int) -> Callable[[], int] | None:
    """The same loop on ``term2048.board.Board`` (its own random spawns; no UI)."""
    try:
        from term2048.board import Board
    except ImportError:
        return None
    random.seed(seed)  # term2048 draws from the global generator
    rng = random.Random(seed)
    codes = {"up": Board.UP, "down": Board.DOWN, "left": Board.LEFT, "right": Board.RIGHT}
    choices = [codes[rng.choice(DIRS)] for _ in range(4096)]
    board = [Board()]

    def run() -> int:
        b = board[0]
        for i in range(n):
            b.move(choices[i & 4095])
            if not b.canMove():
                b = Board()
        board[0] = b
        return n

    return run


def sample_boards(seed: int, count: int) -> list[tuple[tuple[int, ...], ...]]:
    """Boards met in random games of the pure API (realistic inputs for the move loops)."""
    rng = random.Random(seed)
    boards: list[Any] = []
    state = create_game(GameConfig(initial_seed=seed))
    while len(boards) < count:
        boards.append(state.board)
        state = move(state, rng.choice(DIRS))
        if state.is_game_over:
            state = create_game(GameConfig(initial_seed=rng.randrange(2**32)))
    return boards


def term2048_slide_moves(boards: list, n_dirs: int = 4) -> Callable[[], int] | None:
    """``Board.move(d, add_tile=False)`` of term2048 on the sampled boards."""
    try:
        from term2048.board import Board
    except ImportError:
        return None
    codes = (Board.UP, Board.DOWN, Board.LEFT, Board.RIGHT)
    b = Board()

    def run() -> int:
        for board in boards:
            for d in codes[:n_dirs]:
                b.cells = [list(r) for r in board]
                b.move(d, add_tile=False)
        return len(boards) * n_dirs

    return run


def term2048_copy_only(boards: list) -> Callable[[], int]:
    """Just the ``cells`` copy of :func:`term2048_slide_moves` (subtracted from its time)."""

    def run() -> int:
        for board in boards:
            for _ in range(4):
                _cells = [list(r) for r in board]
        return len(boards) * 4

    return run


def pure_slide_moves(boards: list) -> Callable[[], int]:
    """``execute_move_on_board`` (slide + merge, no spawn) on the sampled boards."""

    def run() -> int:
        for board in boards:
            for d in DIRS:
                execute_move_on_board(board, d, standard_merge)
        return len(boards) * 4

    return run


def _each_direction(mv: Callable[[int, str], object], packed: list[int]) -> Callable[[], int]:
    """A timed loop calling ``mv(board, direction)`` for every board and direction."""

    def run() -> int:
        for b in packed:
            mv(b, "up")
            mv(b, "down")
            mv(b, "left")
            mv(b, "right")
        return len(packed) * 4

    return run


def fast_moves(packed: list[int]) -> Callable[[], int]:
    """``fastboard.move`` (new board and score) on packed boards, all four directions."""
    return _each_direction(fb.move, packed)


def fast_move_board(packed: list[int]) -> Callable[[], int]:
    """``fastboard.move_board`` (board only) on packed boards."""
    return _each_direction(fb.move_board, packed)


def fast_move_all(packed: list[int]) -> Callable[[], int]:
    """``fastboard.move_all``: the four moves of a board at once, sharing one transpose."""
    mv = fb.move_all

    def run() -> int:
        for b in packed:
            mv(b)
        return len(packed) * 4

    return run


def lookups_only(packed: list[int]) -> Callable[[], int]:
    """Floor: four table lookups per "move" on pre-split rows, nothing else."""
    L = fb.ROW_LEFT
    rows = [(b & 0xFFFF, (b >> 16) & 0xFFFF, (b >> 32) & 0xFFFF, b >> 48) for b in packed]

    def run() -> int:
        for r0, r1, r2, r3 in rows:
            L[r0]
            L[r1]
            L[r2]
            L[r3]
        return len(rows)

    return run


def speed(quick: bool) -> dict[str, Any]:
    """Part (a): print and return the moves-per-second figures."""
    secs = 0.3 if quick else 1.5
    boards = sample_boards(7, 500 if quick else 2000)
    packed = [fb.from_rows(b) for b in boards]
    results: dict[str, Any] = {}

    print("## (a) Speed (moves per CPU second, best of 3)")
    pure = _rate(pure_api_game_moves(1, 500), secs)
    t2048_fn = term2048_game_moves(1, 500)
    t2048 = _rate(t2048_fn, secs) if t2048_fn else None
    pure_slide = _rate(pure_slide_moves(boards), secs)
    t_slide_fn = term2048_slide_moves(boards)
    t_slide = None
    if t_slide_fn:
        raw = _rate(t_slide_fn, secs)
        copy = _rate(term2048_copy_only(boards), secs)
        # Remove the cost of loading the board into term2048's object (our loop's overhead).
        t_slide = 1.0 / max(1.0 / raw - 1.0 / copy, 1e-12)
    rows = [
        (
            "pure API: move (slide, merge, spawn, game-over check)",
            pure,
            t2048,
            "term2048 Board.move + canMove",
        ),
        (
            "pure API: execute_move_on_board (slide + merge)",
            pure_slide,
            t_slide,
            "term2048 Board.move(add_tile=False)",
        ),
    ]
    print(f"{'measure':58} {'ours':>12} {'baseline':>12} {'ratio':>7}  baseline")
    for name, ours, base, base_name in rows:
        ratio = f"{ours / base:6.2f}x" if base else "   n/a"
        base_s = f"{base:12,.0f}" if base else f"{'n/a':>12}"
        print(f"{name:58} {ours:12,.0f} {base_s} {ratio}  {base_name}")
    results["pure_move"] = pure
    results["term2048_move"] = t2048
    results["pure_slide"] = pure_slide
    results["term2048_slide"] = t_slide

    fast = _rate(fast_moves(packed), secs)
    fast_nb = _rate(fast_move_board(packed), secs)
    inl = _rate(fast_move_all(packed), secs)
    floor = _rate(lookups_only(packed), secs)
    print()
    print(
        f"{'packed board (fastboard)':58} {'moves/s':>12} {'vs pure slide':>14} {'vs term2048':>12}"
    )
    for name, v in (
        ("fastboard.move (board + score)", fast),
        ("fastboard.move_board (board only)", fast_nb),
        ("fastboard.move_all (4 moves, one shared transpose)", inl),
        ("floor: 4 table lookups per move, nothing else", floor),
    ):
        vs_t = f"{v / t_slide:11.1f}x" if t_slide else f"{'n/a':>12}"
        print(f"{name:58} {v:12,.0f} {v / pure_slide:13.1f}x {vs_t}")
    results.update(fast_move=fast, fast_move_board=fast_nb, fast_move_all=inl, lookup_floor=floor)
    print()
    return results


# ---------------------------------------------------------------------------
# (b) AI strength
# ---------------------------------------------------------------------------


def play_one(args: tuple[int, int | None, float | None, int | None, int | None]) -> dict[str, Any]:
    """Play one seeded game with the AI; returns its statistics."""
    seed, depth, budget, max_moves, stop_tile = args
    state = create_game(GameConfig(board_size=4, initial_seed=seed, goal=None))
    moves = 0
    think = 0.0
    best = max_tile(state.board)
    reached: dict[int, int] = {}
    while not state.is_game_over and (max_moves is None or moves < max_moves):
        # CPU time of this process: robust to other work sharing the machine.
        t0 = time.process_time()
        d = ai.hint(state, depth=depth, time_budget_ms=budget)
        think += time.process_time() - t0
        if d is None:
            break
        state = move(state, d)
        moves += 1
        top = max_tile(state.board)
        if top > best:
            best = top
            reached.setdefault(top, moves)
        if stop_tile is not None and best >= stop_tile:
            break
    return {
        "seed": seed,
        "moves": moves,
        "score": state.score,
        "max_tile": best,
        "ms_per_move": 1000.0 * think / max(moves, 1),
        "game_over": state.is_game_over,
        "reached_at": {str(k): v for k, v in sorted(reached.items()) if k >= 2048},
    }


def strength(
    games: int,
    workers: int,
    depth: int | None,
    budget: float | None,
    max_moves: int | None,
    stop_tile: int | None,
    first_seed: int,
) -> dict[str, Any]:
    """Part (b): play the games on a pool and print the summary."""
    print(
        f"## (b) AI strength: {games} games, {workers} workers, depth="
        f"{'adaptive' if depth is None else depth}, time budget={budget}, "
        f"max moves={max_moves}, stop at tile={stop_tile}"
    )
    jobs = [(first_seed + i, depth, budget, max_moves, stop_tile) for i in range(games)]
    start = time.perf_counter()
    results = []
    with Pool(workers) as pool:
        for r in pool.imap_unordered(play_one, jobs):
            results.append(r)
            print(
                f"  seed {r['seed']:>4}: max tile {r['max_tile']:>6}, score {r['score']:>7}, "
                f"{r['moves']:>5} moves, {r['ms_per_move']:6.1f} ms/move"
                f"{'' if r['game_over'] else ' (stopped)'}",
                flush=True,
            )
    wall = time.perf_counter() - start
    results.sort(key=lambda r: r["seed"])
    n = len(results)
    share = {
        t: 100.0 * sum(r["max_tile"] >= t for r in results) / n for t in (2048, 4096, 8192, 16384)
    }
    total_moves = sum(r["moves"] for r in results)
    ms = sum(r["ms_per_move"] * r["moves"] for r in results) / max(total_moves, 1)
    summary = {
        "games": n,
        "reached_pct": {str(k): v for k, v in share.items()},
        "median_score": statistics.median(r["score"] for r in results),
        "median_max_tile": statistics.median(r["max_tile"] for r in results),
        "ms_per_move": ms,
        "total_moves": total_moves,
        "wall_seconds": wall,
        "games_detail": results,
    }
    print()
    print("| games | reach 2048 | reach 4096 | reach 8192 | reach 16384 | median score | ms/move |")
    print("|------:|-----------:|-----------:|-----------:|------------:|-------------:|--------:|")

    def cell(t: int) -> str:
        # A game stopped at stop_tile says nothing about bigger tiles.
        return "n/a" if stop_tile is not None and t > stop_tile else f"{share[t]:.0f}%"

    print(
        f"| {n} | {cell(2048)} | {cell(4096)} | {cell(8192)} | {cell(16384)} "
        f"| {summary['median_score']:,.0f} | {ms:.1f} |"
    )
    if stop_tile is not None:
        print(f"(games stop when a {stop_tile} tile appears: scores are scores at that point)")
    print(f"(wall time {wall:.0f} s, {total_moves} moves)")
    return summary


def main(argv: list[str] | None = None) -> int:
    """Parse arguments and run the benchmark."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20, help="AI games to play (default 20)")
    p.add_argument("--workers", type=int, default=2, help="processes for the AI games (default 2)")
    p.add_argument("--depth", type=int, default=None, help="fixed AI depth (default adaptive)")
    p.add_argument("--time-budget-ms", type=float, default=None, help="AI time budget per move")
    p.add_argument(
        "--max-moves", type=int, default=None, help="stop each game after this many moves"
    )
    p.add_argument("--stop-tile", type=int, default=None, help="stop a game once this tile appears")
    p.add_argument("--first-seed", type=int, default=1, help="seed of the first game (default 1)")
    p.add_argument("--quick", action="store_true", help="short timings and 2 games of 150 moves")
    p.add_argument("--skip-speed", action="store_true", help="only the AI games")
    p.add_argument("--skip-ai", action="store_true", help="only the speed figures")
    p.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    args = p.parse_args(argv)
    if args.games < 0 or args.workers < 1:
        p.error("--games must be >= 0 and --workers >= 1")

    out: dict[str, Any] = {}
    if not args.skip_speed:
        out["speed"] = speed(args.quick)
    if not args.skip_ai and args.games:
        games, max_moves = args.games, args.max_moves
        if args.quick:
            games, max_moves = min(games, 2), max_moves or 150
        out["ai"] = strength(
            games,
            args.workers,
            args.depth,
            args.time_budget_ms,
            max_moves,
            args.stop_tile,
            args.first_seed,
        )
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
