"""Benchmark: Algebrawl's solvers against straightforward baselines, in the same run.

Cases (each checks its answers against known figures before timing counts):

* ``24-classify``: classify all 1820 four-number hands from 1-13 (must find exactly 1362
  solvable). Fast path: :func:`core.algebrawl.hands.solvable24` (memoised multiset tables,
  output-sensitive top level). Baseline: the classic naive search over fractions (pick two
  values, combine them every way, recurse; stops at the first solution). Both must classify
  every hand the same way.
* ``24-distinct``: count the distinct solutions of the 1362 solvable hands under the default
  normal form (must total 3017 and agree with yuuki15 on every hand when the data file is
  there). Baseline: enumerate every expression tree and normalise each (on a sample of the
  hands, extrapolated).
* ``countdown``: the full Countdown solvability table — 13,243 selections × the 899 targets
  101-999 — per number of large tiles (must be 1,963,726 / 4,966,076 / 3,192,103 / 693,131 /
  43,710). Fast path: :func:`core.algebrawl.countdown.countdown_reachable` (complete value
  sets below the top, bitset output-sensitive top level). Baseline: the straightforward
  pure-Python subset solver: the complete set of values of every sub-multiset, memoised,
  the top level included, then counted in range. The baseline runs on an evenly spaced
  sample of selections (``--sample``) and is extrapolated to the full table (it is said so
  in the output); both are also timed on that same sample for a like-for-like ratio.
  ``--full-baseline`` runs the baseline on the whole table instead (about two minutes).
* ``puzzle-par``: the shortest solution (par) of every bundled campaign level. Fast path:
  :func:`core.algebrawl.par.shortest` (branch and bound over the solver's subset tables).
  Baseline: breadth-first search over the game's own states and moves. Both must give the
  same number of moves, equal to each level's par. ``--quick`` leaves the three largest
  levels out of both runs.
* ``cast-count``: the distinct solutions of levels holding seed 002's cast cards (the
  *Poison and Treason* pack and ``casts`` generator levels, seeds 0-11 of band 2:4; 0-3
  with ``--quick``). Fast path: :func:`core.algebrawl.solve` with ``count=True``
  (:mod:`core.algebrawl.castcount`: a search over the game's moves, memoised on positions
  keyed by normal forms). Baseline: every winning play enumerated move by move, its form
  computed (:func:`core.algebrawl.castcount.form_of_play`) and de-duplicated. Both must give
  the same solutions.

Times are CPU seconds of this process (``time.process_time``), so other load on the machine
distorts them less; every cache is cleared before each timed run. Output: one line per case,
``case  fast=<s>  baseline=<s>  ratio=<baseline/fast>x``, then details; ``--json`` prints
JSON lines.

Usage: python bench/algebrawl.py [--quick] [--sample N] [--full-baseline] [--json]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.algebrawl import countdown, hands  # noqa: E402
from core.algebrawl.ast import Leaf, make_node  # noqa: E402
from core.algebrawl.cards import ADD, DIV, MUL, SUB  # noqa: E402
from core.algebrawl.normal import normal_form  # noqa: E402

EXPECTED_CD = {0: 1_963_726, 1: 4_966_076, 2: 3_192_103, 3: 693_131, 4: 43_710}
YUUKI = ROOT / "tests" / "data" / "algebrawl" / "24-distinct-solutions-yuuki15.tsv"


def clock(fn, *args):
    start = time.process_time()
    out = fn(*args)
    return time.process_time() - start, out


# -- 24: baselines -------------------------------------------------------------------------


def naive24(values: list, target: Fraction) -> bool:
    """The classic search: combine two values every way, recurse (first solution wins)."""
    if len(values) == 1:
        return values[0] == target
    for i, j in combinations(range(len(values)), 2):
        a, b = values[i], values[j]
        rest = [v for k, v in enumerate(values) if k not in (i, j)]
        results = [a + b, a - b, b - a, a * b]
        if b:
            results.append(a / b)
        if a:
            results.append(b / a)
        for r in results:
            if naive24(rest + [r], target):
                return True
    return False


_OPS = (ADD, SUB, MUL, DIV)


def brute_distinct(hand, target=24) -> int:
    """Every expression tree over the hand, normalised; the number of distinct forms."""
    forms = set()

    def go(trees):
        if len(trees) == 1:
            if trees[0].value == target:
                forms.add(normal_form(trees[0]))
            return
        for i, j in combinations(range(len(trees)), 2):
            rest = [t for k, t in enumerate(trees) if k not in (i, j)]
            for a, b in ((trees[i], trees[j]), (trees[j], trees[i])):
                for card in _OPS:
                    if card is DIV and b.value == 0:
                        continue
                    go(rest + [make_node(card, (a, b))])

    go([Leaf(Fraction(v)) for v in hand])
    return len(forms)


# -- Countdown: baseline -------------------------------------------------------------------


def baseline_countdown(selections) -> Counter:
    """The straightforward subset solver: complete value sets of every sub-multiset."""
    memo: dict = {}

    def values(ms):
        got = memo.get(ms)
        if got is not None:
            return got
        out = set(ms)
        n = len(ms)
        for mask in range(1, (1 << n) - 1):
            if mask & 1 == 0:  # each unordered split once: the first element on the left
                continue
            left = tuple(ms[i] for i in range(n) if mask >> i & 1)
            right = tuple(ms[i] for i in range(n) if not mask >> i & 1)
            for x in values(left):
                for y in values(right):
                    out.add(x + y)
                    if x > 1 and y > 1:
                        out.add(x * y)
                    if x > y:
                        out.add(x - y)
                        if y > 1 and x % y == 0:
                            out.add(x // y)
                    elif y > x:
                        out.add(y - x)
                        if x > 1 and y % x == 0:
                            out.add(y // x)
                    elif x > 1:
                        out.add(1)
        memo[ms] = out
        return out

    totals: Counter = Counter()
    for k, sel in selections:
        totals[k] += sum(1 for v in values(sel) if 101 <= v <= 999)
    return totals


def fast_countdown(selections) -> Counter:
    countdown.clear_caches()
    hands.clear_caches()
    totals: Counter = Counter()
    for k, sel in selections:
        totals[k] += len(countdown.countdown_reachable(sel))
    return totals


# -- cases ---------------------------------------------------------------------------------


def case_24_classify(quick: bool) -> dict:
    all_hands = hands.all_hands(1, 13, 4)
    hands.clear_caches()
    fast_t, fast = clock(lambda: [h for h in all_hands if hands.solvable24(h)])
    assert len(fast) == 1362, len(fast)
    sample = all_hands[::5] if quick else all_hands
    target = Fraction(24)
    base_t, base = clock(lambda: [h for h in sample if naive24([Fraction(v) for v in h], target)])
    assert set(base) == set(fast) & set(sample), "the naive search disagrees"
    scale = len(all_hands) / len(sample)
    return {
        "case": "24-classify",
        "fast": fast_t,
        "baseline": base_t * scale,
        "note": f"1362 of 1820 solvable; baseline on {len(sample)} hands"
        + (f", extrapolated x{scale:.0f}" if scale > 1 else ""),
    }


def case_24_distinct(quick: bool) -> dict:
    solvable = [h for h in hands.all_hands(1, 13, 4) if hands.solvable24(h)]
    hands.clear_caches()
    fast_t, counts = clock(lambda: {h: hands.count_solutions24(h) for h in solvable})
    assert sum(counts.values()) == 3017, sum(counts.values())
    agree = "n/a"
    if YUUKI.is_file():
        data = {}
        for line in YUUKI.read_text().splitlines():
            cells = line.split("\t")
            hand = tuple(int(x) for x in cells[0].split())
            if 0 not in hand:
                data[hand] = int(cells[1])
        agree = f"{sum(counts[h] == data.get(h, 0) for h in solvable)}/1362"
    sample = solvable[:: (40 if quick else 10)]
    base_t, base = clock(lambda: {h: brute_distinct(h) for h in sample})
    assert all(base[h] == counts[h] for h in sample), "brute force disagrees"
    scale = len(solvable) / len(sample)
    return {
        "case": "24-distinct",
        "fast": fast_t,
        "baseline": base_t * scale,
        "note": f"3017 distinct solutions; yuuki15 agreement {agree}; baseline on "
        f"{len(sample)} hands, extrapolated x{scale:.1f}",
    }


def case_countdown(quick: bool, sample_size: int, full_baseline: bool) -> dict:
    sels = list(countdown.countdown_selections())
    step = max(1, len(sels) // sample_size)
    sample = sels[::step]
    fast_sample_t, fast_sample = clock(fast_countdown, sample) if not full_baseline else (0.0, None)
    if full_baseline:
        base_t, base = clock(baseline_countdown, sels)
        assert dict(base) == EXPECTED_CD, base
        scale, base_note = 1.0, "baseline on the full table"
    else:
        base_t, base = clock(baseline_countdown, sample)
        assert base == fast_sample, "baseline and fast path disagree on the sample"
        scale = len(sels) / len(sample)
        base_note = (
            f"baseline on {len(sample)} selections (every {step}th), extrapolated x{scale:.1f}"
        )
    if quick:
        return {
            "case": "countdown-sample",
            "fast": fast_sample_t,
            "baseline": base_t,
            "note": f"{len(sample)} selections only (--quick); " + base_note.split(",")[0],
        }
    fast_t, totals = clock(fast_countdown, sels)
    assert dict(totals) == EXPECTED_CD, totals
    same = (
        ""
        if full_baseline
        else (
            f"; same-sample ratio {base_t / fast_sample_t:.1f}x "
            f"(fast {fast_sample_t:.2f}s vs baseline {base_t:.2f}s)"
        )
    )
    return {
        "case": "countdown",
        "fast": fast_t,
        "baseline": base_t * scale,
        "note": f"full table {dict(sorted(totals.items()))} matches; {base_note}{same}",
    }


def _bfs_moves(puzzle) -> int | None:
    """Fewest moves to a won state: breadth-first search over the game's states."""
    from collections import deque

    from core.algebrawl import apply_move, initial_state, legal_moves, status

    start = initial_state(puzzle)
    seen, queue = {start}, deque([(start, 0)])
    while queue:
        state, depth = queue.popleft()
        if status(state) == "won":
            return depth
        for move in legal_moves(state):
            nxt = apply_move(state, move)
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, depth + 1))
    return None


def case_puzzle_par(quick: bool) -> dict:
    from core.algebrawl.par import shortest
    from grammar.levels import bundled_packs

    levels = [lv for _, pack in bundled_packs("algebrawl") for lv in pack.levels]
    if quick:
        levels = [lv for lv in levels if len(lv.puzzle.numbers) + len(lv.puzzle.cards) <= 10]
    fast_t, fast = clock(lambda: [shortest(lv.puzzle).moves for lv in levels])
    base_t, base = clock(lambda: [_bfs_moves(lv.puzzle) for lv in levels])
    assert fast == base == [lv.par for lv in levels], (fast, base)
    return {
        "case": "puzzle-par",
        "fast": fast_t,
        "baseline": base_t,
        "note": f"{len(levels)} campaign levels, every par confirmed by both",
    }


def _every_play(state, path: tuple = ()) -> set:
    """Every winning play from ``state``, as its moves (no memo, no merging of moves)."""
    from core.algebrawl import apply_move, legal_moves, status

    if status(state) == "won":
        return {path}
    found: set = set()
    for move in legal_moves(state):
        found |= _every_play(apply_move(state, move), path + (move,))
    return found


def case_cast_count(quick: bool) -> dict:
    from core.algebrawl import initial_state, solve
    from core.algebrawl.castcount import form_of_play
    from core.algebrawl.generators import GENERATORS
    from grammar.levels import bundled_packs

    levels = [
        lv
        for _, pack in bundled_packs("algebrawl")
        for lv in pack.levels
        if any(c.effect for c in lv.puzzle.cards)
    ]
    levels += [GENERATORS["casts"].generate(seed, 2, 4) for seed in range(4 if quick else 12)]
    fast_t, fast = clock(lambda: [set(solve(lv.puzzle, count=True).forms) for lv in levels])

    def baseline() -> list[set]:
        out = []
        for lv in levels:
            start = initial_state(lv.puzzle)
            out.append({form_of_play(start, play) for play in _every_play(start)})
        return out

    base_t, base = clock(baseline)
    assert fast == base, [(len(a), len(b)) for a, b in zip(fast, base)]
    return {
        "case": "cast-count",
        "fast": fast_t,
        "baseline": base_t,
        "note": f"{len(levels)} levels with cast cards, {sum(map(len, fast))} distinct "
        "solutions, the same by both",
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="samples only, a few seconds")
    parser.add_argument("--sample", type=int, default=800, help="Countdown baseline sample size")
    parser.add_argument(
        "--full-baseline", action="store_true", help="run the Countdown baseline on everything"
    )
    parser.add_argument("--json", action="store_true", help="JSON lines")
    args = parser.parse_args()
    if not args.json:
        print(
            f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, CPU seconds"
        )
    sample = 150 if args.quick else args.sample
    for case in (
        case_24_classify(args.quick),
        case_24_distinct(args.quick),
        case_countdown(args.quick, sample, args.full_baseline),
        case_puzzle_par(args.quick),
        case_cast_count(args.quick),
    ):
        case["ratio"] = case["baseline"] / case["fast"] if case["fast"] else float("inf")
        if args.json:
            print(json.dumps(case))
        else:
            print(
                f"{case['case']:18} fast={case['fast']:.3f}  baseline={case['baseline']:.3f}  "
                f"ratio={case['ratio']:.1f}x\n{'':18} {case['note']}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
