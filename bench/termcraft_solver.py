"""TermCraft solver: complete constructs (every term over the level's alphabet) against the old
restricted ones (ground subterms of the target), on every bundled level and issue 29's level.

    python bench/termcraft_solver.py [--quick] [--json]

Both searches run in the same process on the same levels, without a time limit (the bundled
levels are small). Per level: the verdict of each (they differ where a plan needs a term the
target does not hold, such as issue 29's level, which the restricted search calls
"unsolvable"), the work spent (term nodes), the CPU seconds and the ratio
restricted/complete (below 1: the complete search costs more). ``--quick`` takes the first
pack and issue 29's level.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.search import NO_WATCH, Watch
from core.termcraft import Level, solve
from core.termcraft import solver as solver_module
from core.termcraft.constructs import Constructible
from core.termcraft.terms import Term
from grammar.levels import bundled_packs
from grammar.terms import parse_term

ISSUE_29 = Level(
    "issue 29",
    parse_term("s(rewrite(f(var(X)),g(h(k))),placeholder)"),
    parse_term("s(rewrite(f(var(X)),g(h(k))),g(h(k)))"),
    fuel=1,
    budget=2,
)


class TargetSubterms(Constructible):
    """The old solver's constructs: the target's ground subterms only (the baseline)."""

    def __init__(self, source: Iterable[Term]):
        super().__init__(source)
        self._target = tuple(source)[-1]

    def up_to(self, budget: int, watch: Watch = NO_WATCH) -> Iterator[Term]:
        return iter(solver_module.construct_candidates(self._target, budget))


def run(level: Level, restricted: bool) -> tuple[Any, float]:
    """Solve ``level`` with the complete or the restricted constructs; (result, CPU s)."""
    saved = solver_module.Constructible
    if restricted:
        setattr(solver_module, "Constructible", TargetSubterms)  # noqa: B010 - a swap mypy refuses
    try:
        started = time.process_time()
        result = solve(level, time_limit=None)
        return result, time.process_time() - started
    finally:
        setattr(solver_module, "Constructible", saved)  # noqa: B010


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="first pack and issue 29 only")
    parser.add_argument("--json", action="store_true", help="JSON lines")
    args = parser.parse_args(argv)
    packs = list(bundled_packs("termcraft"))[: 1 if args.quick else None]
    levels = [lv for _, pack in packs for lv in pack.levels] + [ISSUE_29]
    totals = [0.0, 0.0, 0, 0]
    for level in levels:
        fast, fast_s = run(level, restricted=False)
        base, base_s = run(level, restricted=True)
        totals[0] += fast_s
        totals[1] += base_s
        totals[2] += fast.spent
        totals[3] += base.spent
        row = {
            "case": level.title,
            "complete": f"{fast.status} {len(fast.plan)}" if fast.plan else fast.status,
            "restricted": f"{base.status} {len(base.plan)}" if base.plan else base.status,
            "fast": round(fast_s, 4),
            "baseline": round(base_s, 4),
            "nodes": fast.spent,
            "baseline_nodes": base.spent,
        }
        if args.json:
            print(json.dumps(row))
        else:
            print(
                f"{level.title[:28]:28}  complete={row['complete']:13} "
                f"restricted={row['restricted']:13} fast={fast_s:.4f}  "
                f"baseline={base_s:.4f}  nodes={fast.spent:,}/{base.spent:,}"
            )
    ratio = totals[1] / totals[0] if totals[0] else float("nan")
    summary = (
        f"total  fast={totals[0]:.3f}  baseline={totals[1]:.3f}  ratio={ratio:.2f}x  "
        f"nodes={int(totals[2]):,}/{int(totals[3]):,}"
    )
    print(json.dumps({"summary": summary}) if args.json else summary)


if __name__ == "__main__":
    main()
