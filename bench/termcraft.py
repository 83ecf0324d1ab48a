"""Benchmark: TermCraft action enumeration (congruence closure + every rewrite action).

Compares, in the same run and on the same seeded states, the engine
(:mod:`core.closure` + :mod:`core.termcraft.engine`) against a reference implementation of
the seed's algorithm written here: string-keyed terms, the naive repeat-until-no-change
congruence closure with ``constructor|arity|[childReps]`` signatures, and matching of every
class member at every ground site for every rule (``FindValidRewrites``).  The reference is
given the benefit of the doubt (memoised strings, path-compressed union-find, classes listed
once instead of per query).  Both must produce the same action set (checked when the
reference finishes).  The reference can be capped per run; when it hits the cap the script
extrapolates from the fraction of rules it finished and says so.

Times are CPU seconds of this process (``time.process_time``), so other load on the machine
does not distort the comparison.  Columns: engine time (best of --repeat, caches cleared), of which the closure; microseconds
per node; each reference's time and the ratio reference/engine; and the time per node of a
plain walk over every position of the term, a linear-time yardstick that shows how much of
the per-node growth is the machine (caches, allocator) rather than the algorithm.

Usage: python bench/termcraft.py [--sizes 1000,5000,20000] [--cap 120] [--repeat 5]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.setrecursionlimit(10_000)  # the reference is recursive like the original; terms are shallow

from core.terms import compound, const, free_vars, positions, to_str, var  # noqa: E402
from core.termcraft import State, analyze, rewrite_actions  # noqa: E402
from core.termcraft import engine as _engine  # noqa: E402
from core.termcraft.actions import moves_of  # noqa: E402
from core.termcraft.state import instantiate  # noqa: E402

# -- seeded level generator ------------------------------------------------------------------


def make_level(n_nodes: int, seed: int = 0, n_rules: int = 40):
    """A puzzle_state(...) term of about ``n_nodes`` nodes with ``n_rules`` rules, n/100
    axioms (70% between constants, 30% between small compounds) and random data."""
    rng = random.Random(seed)
    k = max(50, n_nodes // 20)
    consts = [const(f"c{i}") for i in range(k)]
    X, Y = var("X"), var("Y")

    def c():
        return rng.choice(consts)

    def ground(depth):
        if depth == 0 or rng.random() < 0.3:
            return c()
        r = rng.random()
        if r < 0.3:
            return compound("f", (ground(depth - 1),))
        name = "g" if r < 0.55 else "h" if r < 0.8 else "pair"
        return compound(name, (ground(depth - 1), ground(depth - 1)))

    templates = [
        lambda: (compound("pair", (X, Y)), compound("pair", (Y, X))),
        lambda: (compound("f", (X,)), compound("g", (X, c()))),
        lambda: (compound("g", (c(), X)), compound("f", (X,))),
        lambda: (compound("h", (X, compound("f", (Y,)))), compound("h", (Y, X))),
        lambda: (c(), c()),
        lambda: (compound("f", (c(),)), c()),
        lambda: (compound("g", (X, X)), X),
    ]
    items = []
    for _ in range(n_rules):
        lhs, rhs = rng.choice(templates)()
        items.append(compound("rewrite", (lhs, rhs)))
    for _ in range(max(10, n_nodes // 100)):
        a, b = (c(), c()) if rng.random() < 0.7 else (ground(2), ground(2))
        items.append(compound("equiv", (a, b)))
    total = 1 + sum(t.size for t in items)
    while total < n_nodes:
        d = compound("data", (ground(rng.randint(2, 7)),))
        items.append(d)
        total += d.size
    return compound("puzzle_state", items)


# -- reference implementation of the seed's algorithm ------------------------------------------


class TimeUp(Exception):
    pass


def baseline_actions(term, deadline=None, memo_strings=False):
    """Seed 000's CalculateEquivalenceRelation + FindValidRewrites, string-keyed and naive.

    Faithful to the original: terms are compared and keyed by ``toString()``, recomputed at
    every use unless ``memo_strings`` (a kinder variant that caches each node's string);
    the closure repeats a full signature pass until nothing changes; every rule is matched
    against every member of every ground site's class.  Kindnesses: union-find with path
    halving, and the class lists built once rather than per ``getClass`` call.

    Returns (action set, closure seconds, rules done, rules total, seconds).
    """
    t0 = time.process_time()
    memo: dict[int, str] = {}

    def s(t):  # Term.toString
        r = memo.get(t.id) if memo_strings else None
        if r is None:
            if t.kind == 0:
                r = t.name
            elif t.kind == 1:
                r = "var(" + t.name + ")"
            else:
                r = t.name + "(" + ",".join(s(a) for a in t.args) + ")"
            if memo_strings:
                memo[t.id] = r
        return r

    positions = []  # FindAllSubtermsWithPositions
    stack = [((), term)]
    while stack:
        path, t = stack.pop()
        positions.append((path, t))
        for i in range(len(t.args) - 1, -1, -1):
            stack.append((path + (i,), t.args[i]))
    ground_pos = [(path, t) for path, t in positions if t.ground]
    term_map = {s(t): t for _, t in ground_pos}
    parent = {k: k for k in term_map}

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            return True
        return False

    for _, t in positions:
        if t.kind == 2 and t.name == "equiv" and len(t.args) == 2 and t.args[0].ground \
                and t.args[1].ground:
            union(s(t.args[0]), s(t.args[1]))
    changed = True
    while changed:  # buildClosure: repeat until no change
        changed = False
        sigs: dict[str, str] = {}
        for key, t in term_map.items():
            if t.kind != 2:
                continue
            sig = t.name + "|" + str(len(t.args)) + "|[" + ",".join(find(s(a)) for a in t.args) + "]"
            other = sigs.get(sig)
            if other is None:
                sigs[sig] = key
            elif union(other, key):
                changed = True
        if deadline is not None and time.process_time() > deadline:
            raise TimeUp
    classes: dict[str, list] = {}
    for key, t in term_map.items():
        classes.setdefault(find(key), []).append(t)
    t_closure = time.process_time() - t0

    def fv(t):
        if t.kind == 1:
            return {t.name}
        out = set()
        for a in t.args:
            out |= fv(a)
        return out

    def syntactic_match(p, t, sigma):
        if p.kind == 1:
            if p.name in sigma:
                return sigma if s(sigma[p.name]) == s(t) else None
            sigma = dict(sigma)
            sigma[p.name] = t
            return sigma
        if p.kind != t.kind or p.name != t.name or len(p.args) != len(t.args):
            return None
        for a, b in zip(p.args, t.args):
            sigma = syntactic_match(a, b, sigma)
            if sigma is None:
                return None
        return sigma

    rules = [(path, t.args[0], t.args[1]) for path, t in positions
             if t.kind == 2 and t.name == "rewrite" and len(t.args) == 2
             and fv(t.args[1]) <= fv(t.args[0])]
    found = set()
    done = 0
    for rpath, lhs, rhs in rules:
        for site, sub in ground_pos:
            uniq = {}
            for member in classes[find(s(sub))]:  # FindInferentialMatches
                sigma = syntactic_match(lhs, member, {})
                if sigma is not None:
                    key = ";".join(f"{k}={s(v)}" for k, v in sorted(sigma.items()))
                    uniq.setdefault(key, sigma)  # UniqueSubstitutions
            for sigma in uniq.values():
                found.add((rpath, site, frozenset((k, s(v)) for k, v in sigma.items())))
        done += 1
        if deadline is not None and time.process_time() > deadline and done < len(rules):
            return found, t_closure, done, len(rules), time.process_time() - t0
    return found, t_closure, done, len(rules), time.process_time() - t0


# -- the engine -----------------------------------------------------------------------------


def walk_time(term, repeat):
    """Best time of a plain pre-order walk over every position: a linear-time yardstick."""
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        for _p in positions(term):
            pass
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best


def clear_caches() -> None:
    """Forget every cached analysis, action list and instantiation (cold timings)."""
    analyze.cache_clear()
    moves_of.cache_clear()
    _engine._ALL.clear()
    instantiate.cache_clear()


def engine_actions(term):
    gc.collect()
    clear_caches()
    t0 = time.process_time()
    an = analyze(term)
    t1 = time.process_time()
    acts = rewrite_actions(State(term, const("none"), 1, 0))
    t2 = time.process_time()
    return acts, t1 - t0, t2 - t0, an


def _reference(term, cap, memo, t_engine, mine):
    gc.collect()
    deadline = time.process_time() + cap
    try:
        ref, ref_cc, done, total, t_ref = baseline_actions(term, deadline, memo)
    except TimeUp:
        return f">{cap:.0f}", "n/a", "closure over cap"
    if done < total:
        est = ref_cc + (t_ref - ref_cc) * total / done
        return f"~{est:.1f}", f"~{est / t_engine:.0f}x", f"est. ({done}/{total} rules)"
    return f"{t_ref:.2f}", f"{t_ref / t_engine:.0f}x", "agree" if ref == mine else "DISAGREE"


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,5000,20000")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds per reference run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    print("TermCraft action enumeration (closure + all rewrite actions): engine vs the seed's")
    print("algorithm (reference A: strings recomputed as in the original; B: memoised strings)")
    print(f"{'nodes':>6} {'rules':>5} {'axioms':>6} {'classes':>7} {'actions':>7} "
          f"{'engine s':>8} {'closure':>7} {'us/node':>7} {'ref A s':>8} {'A ratio':>7} "
          f"{'ref B s':>8} {'B ratio':>7} {'walk us/node':>12}  check")
    for n in [int(x) for x in args.sizes.split(",")]:
        term = make_level(n, args.seed, args.rules)
        runs = [engine_actions(term) for _ in range(args.repeat)]
        acts, t_cc, t_engine, an = min(runs, key=lambda r: r[2])
        mine = {(a.rule.path, a.site, frozenset((k, str(v)) for k, v in a.sigma)) for a in acts}
        a_t, a_r, a_c = _reference(term, args.cap, False, t_engine, mine)
        b_t, b_r, b_c = _reference(term, args.cap, True, t_engine, mine)
        walk = walk_time(term, args.repeat)
        print(f"{term.size:>6} {len(an.rules):>5} {len(an.axioms):>6} "
              f"{len(an.closure.classes()):>7} {len(acts):>7} {t_engine:>8.4f} {t_cc:>7.4f} "
              f"{1e6 * t_engine / term.size:>7.1f} {a_t:>8} {a_r:>7} {b_t:>8} {b_r:>7} "
              f"{1e6 * walk / term.size:>12.2f}  "
              f"A: {a_c}, B: {b_c}", flush=True)


if __name__ == "__main__":
    main()
