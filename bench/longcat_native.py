"""Longcat at native speed (issue 32): where the time goes, and the compiled solver against
the pure one in the same run.

    python bench/longcat_native.py [--quick] [--json] [--seeds N]

1. Profile: CPU seconds of the state-graph analysis (``analyse``: build, classify, metrics)
   of every bundled level, and its largest graph; and of ``generate`` (band 40-100, the
   filters' analysis and the solver's validation) split by cProfile into the solver
   (``solvable_from``), the rest of generation, and the analysis.
2. Solver: ``solvable_from`` from every open cell of every bundled level (about 5,700
   searches), pure and compiled, same answers checked; CPU seconds and ratio.
3. Generation: ``generate(method, seed, size, band=(40, 100))`` for each method at 8x8 and
   10x10, pure solver and compiled solver, the same levels checked; CPU seconds and ratio.

The compile (or the load from numba's disk cache) is done first and reported apart
(``warm_up``). Each pair is run interleaved (pure, native, pure, native) and the best of
each kept, so a loaded machine's noise hits both alike.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import sys
import time
from collections.abc import Callable
from typing import Any

from core.longcat import analyse, native
from core.longcat.generate import GenerationError, generate
from core.longcat.level import Board, Level, bits
from core.longcat.solver import solvable_from

METHODS = ("sd", "pu", "ca", "bsp", "carve", "shapes", "template")
"""The generators timed in part 3 (the learned one needs its extra)."""


def bundled() -> list[Level]:
    """Every level of every bundled Longcat pack."""
    from grammar.levels import bundled_packs

    return [level for _, pack in bundled_packs("longcat") for level in pack.levels]


def _cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def _pair(fn: Callable[[bool], Any], repeat: int) -> tuple[float, float]:
    """Best CPU seconds of ``fn(False)`` (pure) and ``fn(True)`` (native), interleaved; the
    two must give the same result."""
    best = [float("inf"), float("inf")]
    for _ in range(repeat):
        for k, use in enumerate((False, True)):
            seconds, out = _cpu(lambda: fn(use))  # noqa: B023 - called at once
            best[k] = min(best[k], seconds)
            if k == 0:
                pure_out = out
            elif out != pure_out:
                raise SystemExit("the compiled solver disagrees with the pure one")
    return best[0], best[1]


def profile(levels: list[Level], seeds: int) -> dict[str, Any]:
    """Part 1: where the time goes (pure paths only)."""
    seconds, graphs = _cpu(lambda: [len(analyse(level).graph) for level in levels])
    prof = cProfile.Profile()
    t0 = time.process_time()
    prof.enable()
    _generate_all(False, seeds)
    prof.disable()
    total = time.process_time() - t0
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]

    def cumulative(name: str) -> float:
        return sum(v[3] for k, v in stats.items() if k[2] == name)

    return {
        "analysis_levels": len(levels),
        "analysis_cpu_s": round(seconds, 3),
        "largest_graph": max(graphs),
        "generation_cpu_s": round(total, 2),
        "generation_solver_share": round(cumulative("solvable_from") / total, 2),
        "generation_analysis_share": round(cumulative("analyse") / total, 2),
        "generation_component_share": round(cumulative("component") / total, 2),
    }


def _starts(levels: list[Level]) -> list[tuple[Board, int]]:
    return [(level.board, head) for level in levels for head in bits(level.board.free)]


def _generate_all(use: bool, seeds: int) -> list[str]:
    """Every method at 8x8 and 10x10 for ``seeds`` seeds: the levels' walls (or the error)."""
    native._WARM[0] = use  # the solver's automatic choice follows the warm flag
    out = []
    for method in METHODS:
        for size in (8, 10):
            for seed in range(seeds):
                try:
                    level = generate(method, seed, size, size, band=(40, 100), max_attempts=200)
                    out.append(f"{level.walls:x}/{level.start}")
                except GenerationError as error:
                    out.append(str(error))
    native._WARM[0] = True
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one repeat, one seed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--seeds", type=int, help="seeds per method and size (default 3)")
    args = parser.parse_args(argv)
    if not native.available():
        print("numba is not installed (or TERMARCADE_PURE_AI is set): nothing to compare")
        return 1
    repeat = 1 if args.quick else 2
    seeds = args.seeds or (1 if args.quick else 3)
    result: dict[str, Any] = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    result["warm_up_s"] = round(native.warm_up(), 2)
    levels = bundled()
    result["profile"] = profile(levels, seeds)
    starts = _starts(levels)
    pure, fast = _pair(lambda use: [solvable_from(b, h, native=use) for b, h in starts], repeat)
    result["solver"] = {
        "searches": len(starts),
        "pure_s": round(pure, 3),
        "native_s": round(fast, 3),
        "ratio": round(pure / fast, 2),
    }
    pure, fast = _pair(lambda use: _generate_all(use, seeds), repeat)
    result["generate"] = {
        "seeds": seeds,
        "pure_s": round(pure, 2),
        "native_s": round(fast, 2),
        "ratio": round(pure / fast, 2),
    }
    if args.json:
        print(json.dumps(result))
        return 0
    print(f"Python {result['python']}, {result['cpus']} CPUs; warm_up {result['warm_up_s']} s")
    p = result["profile"]
    print(
        f"profile: analyse of {p['analysis_levels']} bundled levels {p['analysis_cpu_s']} s CPU"
        f" (largest graph {p['largest_graph']} states); generate {p['generation_cpu_s']} s CPU:"
        f" solver {p['generation_solver_share']:.0%}, flood fills {p['generation_component_share']:.0%},"
        f" analysis {p['generation_analysis_share']:.0%}"
    )
    for case in ("solver", "generate"):
        r = result[case]
        print(f"{case}  fast={r['native_s']}  baseline={r['pure_s']}  ratio={r['ratio']}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
