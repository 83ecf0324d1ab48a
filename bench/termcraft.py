"""Benchmark: TermCraft action enumeration, counting and limits at a million nodes.

Three sections (``--only old|scale|limits``; all by default):

**old** -- every rewrite action listed (closure + matching), compared in the same run and on the same seeded states, the engine
(:mod:`core.termcraft.closure` + :mod:`core.termcraft.engine`) against a reference implementation of
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

**scale** -- issue 12's table: seeded states of ground data over 40 constants and the
constructors f/1, g/2, pair/2, h/3, k/1, with 30 random rules with variables and N ``equiv``
axioms (:func:`make_state`).  For each: ``count_rewrite_actions`` (cold, in a fresh
process: seconds, peak RSS), against, in the same run, today's materialising count
``len(rewrite_actions(state))`` under a memory cap (``--baseline-gb``) and a time cap
(``--baseline-cap``); the ratio when both finish; the parse time of the state's text; and,
for the cases in ``--cli-cases``, the command line end to end (``termcraft actions --term -
--count``, and the time to the first 100 kB of ``--json``).

**limits** -- the 20,000-wide level under ``solve --time-limit 1`` (command line, wall time
and peak RSS), and a ~10 MB level (:func:`make_state` with 80 axioms): lint without the
solver, count, and ``solve --time-limit 1``, each in a fresh process, parsing excluded
(``--parse`` adds the text end to end: the term reader against Lark's parser on a 1 MB
state in the same run, and the command line's ``parse``, ``actions --count`` and ``lint``).

Peak memory is the process's own peak RSS (Linux VmHWM; the generated or parsed state
included, as it is in the command line's process).  Times in the scale and limits sections are wall seconds (what
a user waits for; the machine is shared, so run twice and read ranges).

Usage: python bench/termcraft.py [--only old|scale|limits] [--sizes 1000,5000,20000]
       [--cap 120] [--repeat 5] [--quick] [--baseline-gb 4] [--baseline-cap 120] [--parse]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.setrecursionlimit(10_000)  # the reference is recursive like the original; terms are shallow

from core.termcraft import State, analyze, rewrite_actions  # noqa: E402
from core.termcraft import engine as _engine  # noqa: E402
from core.termcraft.actions import moves_of  # noqa: E402
from core.termcraft.state import instantiate  # noqa: E402
from core.termcraft.terms import compound, const, free_vars, positions, to_str, var  # noqa: E402

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

    positions: list[tuple[tuple[int, ...], Any]] = []  # FindAllSubtermsWithPositions
    stack: list[tuple[tuple[int, ...], Any]] = [((), term)]
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
        if (
            t.kind == 2
            and t.name == "equiv"
            and len(t.args) == 2
            and t.args[0].ground
            and t.args[1].ground
        ):
            union(s(t.args[0]), s(t.args[1]))
    changed = True
    while changed:  # buildClosure: repeat until no change
        changed = False
        sigs: dict[str, str] = {}
        for key, t in term_map.items():
            if t.kind != 2:
                continue
            sig = (
                t.name + "|" + str(len(t.args)) + "|[" + ",".join(find(s(a)) for a in t.args) + "]"
            )
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

    rules = [
        (path, t.args[0], t.args[1])
        for path, t in positions
        if t.kind == 2
        and t.name == "rewrite"
        and len(t.args) == 2
        and fv(t.args[1]) <= fv(t.args[0])
    ]
    found = set()
    done = 0
    for rpath, lhs, _rhs in rules:
        for site, sub in ground_pos:
            uniq: dict[Any, Any] = {}
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
    # Both are lru_cache-wrapped; their declared types do not show cache_clear.
    analyze.cache_clear()  # type: ignore[attr-defined]
    moves_of.cache_clear()  # type: ignore[attr-defined]
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


def old_section(args) -> None:
    """The seed-algorithm comparison (every action listed)."""
    print("TermCraft action enumeration (closure + all rewrite actions): engine vs the seed's")
    print("algorithm (reference A: strings recomputed as in the original; B: memoised strings)")
    print(
        f"{'nodes':>6} {'rules':>5} {'axioms':>6} {'classes':>7} {'actions':>7} "
        f"{'engine s':>8} {'closure':>7} {'us/node':>7} {'ref A s':>8} {'A ratio':>7} "
        f"{'ref B s':>8} {'B ratio':>7} {'walk us/node':>12}  check"
    )
    for n in [int(x) for x in args.sizes.split(",")]:
        term = make_level(n, args.seed, args.rules)
        runs = [engine_actions(term) for _ in range(args.repeat)]
        acts, t_cc, t_engine, an = min(runs, key=lambda r: r[2])
        mine = {(a.rule.path, a.site, frozenset((k, str(v)) for k, v in a.sigma)) for a in acts}
        a_t, a_r, a_c = _reference(term, args.cap, False, t_engine, mine)
        b_t, b_r, b_c = _reference(term, args.cap, True, t_engine, mine)
        walk = walk_time(term, args.repeat)
        print(
            f"{term.size:>6} {len(an.rules):>5} {len(an.axioms):>6} "
            f"{len(an.closure.classes()):>7} {len(acts):>7} {t_engine:>8.4f} {t_cc:>7.4f} "
            f"{1e6 * t_engine / term.size:>7.1f} {a_t:>8} {a_r:>7} {b_t:>8} {b_r:>7} "
            f"{1e6 * walk / term.size:>12.2f}  "
            f"A: {a_c}, B: {b_c}",
            flush=True,
        )


# -- scale: issue 12's states ----------------------------------------------------------------

CONSTRUCTORS = (("f", 1), ("g", 2), ("pair", 2), ("h", 3), ("k", 1))
"""The data constructors of the scale states, with their arities."""

SCALE_CASES = {
    # name: (data nodes, axioms, axiom sides may be constants)
    "30k/80": (30_000, 80, False),
    "300k/80": (300_000, 80, False),
    "300k/800": (300_000, 800, False),
    "950k/2500": (950_000, 2_500, False),
    "31k/160 big class": (31_000, 160, True),
}
"""Axiom sides are ground terms of depth 1-2; in the big-class case also constants, which
joins the 40 constants (and by congruence most terms) into one class.  Past a few hundred
axioms the depth 1-2 ones collapse the data into a handful of huge classes too."""

TEN_MB = (2_600_000, 80, False)
"""The ~10 MB level of the limits section (about 9.9 MB of canonical text)."""

ONE_MB = (260_000, 80, False)
"""A tenth of it, small enough for the Lark baseline of the reader."""


def make_state(
    n_data: int, n_axioms: int, const_axioms: bool = False, seed: int = 0, n_rules: int = 30
):
    """``puzzle_state(rules..., axioms..., data(...)...)`` with about ``n_data`` data nodes.

    Args:
        n_data: Nodes of data to generate (random ground terms of depth 2-8 over 40 constants
            and :data:`CONSTRUCTORS`, each wrapped in ``data``).
        n_axioms: ``equiv`` axioms between random ground terms of depth 1-2 (0-2 when
            ``const_axioms``).
        const_axioms: Let axiom sides be constants.
        seed: The random seed.
        n_rules: Rules whose left-hand sides are depth-2 patterns with variables X, Y, Z and
            whose right-hand sides use only those variables.
    """
    rng = random.Random(seed)
    consts = [const(f"c{i}") for i in range(40)]
    variables = [var(name) for name in "XYZ"]

    def ground(depth: int):
        if depth <= 0 or rng.random() < 0.25:
            return rng.choice(consts)
        name, n = rng.choice(CONSTRUCTORS)
        return compound(name, tuple(ground(depth - 1) for _ in range(n)))

    def pattern(depth: int):
        if depth <= 0 or rng.random() < 0.45:
            return rng.choice(variables) if rng.random() < 0.8 else rng.choice(consts)
        name, n = rng.choice(CONSTRUCTORS)
        return compound(name, tuple(pattern(depth - 1) for _ in range(n)))

    def rhs(names: list[str], depth: int):
        if depth <= 0 or rng.random() < 0.4:
            return var(rng.choice(names)) if names and rng.random() < 0.7 else rng.choice(consts)
        name, n = rng.choice(CONSTRUCTORS)
        return compound(name, tuple(rhs(names, depth - 1) for _ in range(n)))

    rules: list[Any] = []
    while len(rules) < n_rules:
        lhs = pattern(2)
        if not lhs.ground and lhs.kind != 1:
            rules.append(compound("rewrite", (lhs, rhs(sorted(free_vars(lhs)), 2))))
    low = 0 if const_axioms else 1
    axioms = [
        compound("equiv", (ground(rng.randint(low, 2)), ground(rng.randint(low, 2))))
        for _ in range(n_axioms)
    ]
    data, total = [], 0
    while total < n_data:
        item = compound("data", (ground(rng.randint(2, 8)),))
        data.append(item)
        total += item.size
    return compound("puzzle_state", tuple(rules + axioms + data))


def _peak_mb() -> float:
    """This process's peak RSS in MB.  Linux's VmHWM, not ru_maxrss: a child's ru_maxrss
    starts at its parent's RSS at the fork (it survives exec), which would count this
    script's own memory in every worker."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


_CLI = (
    "import atexit, os, runpy, sys\n"
    "def peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            os.write(2, ('\\nPEAK_KB ' + line.split()[1] + '\\n').encode())\n"
    "atexit.register(peak)\n"
    "sys.argv = ['termarcade'] + sys.argv[1:]\n"
    "runpy.run_module('tui', run_name='__main__')\n"
)
"""Runs the command line as ``python -m tui`` does, and reports its own peak RSS on exit."""


def worker(kind: str, case: str) -> dict:
    """One measurement in this (fresh) process; returns what the parent prints."""
    from core.termcraft import Level, count_rewrite_actions, lint, solve

    spec = {"10MB": TEN_MB, "1MB": ONE_MB}.get(case) or SCALE_CASES[case]
    term = make_state(*spec)
    state = State(term, const("goal"), 2, 0)
    out: dict = {"size": term.size, "state_mb": _peak_mb()}
    if kind == "materialise":
        gb = float(os.environ.get("BENCH_BASELINE_GB", "4"))
        resource.setrlimit(resource.RLIMIT_AS, (int(gb * 2**30), int(gb * 2**30)))
    gc.collect()
    started, cpu = time.monotonic(), time.process_time()
    if kind == "count":
        out["actions"] = count_rewrite_actions(state)
    elif kind == "materialise":
        out["actions"] = len(rewrite_actions(state))
    elif kind == "lint":
        out["issues"] = [
            i.code for i in lint(Level("big", term, const("goal"), 2, 0), run_solver=False)
        ]
    elif kind == "solve":
        result = solve(state, time_limit=1.0)
        out["status"] = f"{result.status} ({result.reason})"
    elif kind == "text":
        Path(os.environ["BENCH_TEXT"]).write_text(to_str(term) + "\n", encoding="utf-8")
    out["seconds"] = time.monotonic() - started
    out["cpu"] = time.process_time() - cpu
    out["peak_mb"] = _peak_mb()
    return out


def _run_worker(kind: str, case: str, timeout: float, env: dict | None = None) -> dict:
    """Run :func:`worker` in a fresh interpreter; a crash or timeout is reported as such."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--worker", kind, case],
            capture_output=True,
            text=True,
            timeout=timeout,
            env={**os.environ, **(env or {})},
        )
    except subprocess.TimeoutExpired:
        return {"failed": f"stopped at {timeout:.0f} s"}
    if done.returncode != 0:
        why = (
            "out of memory"
            if "MemoryError" in done.stderr or done.returncode < 0
            else done.stderr.strip().splitlines()[-1:]
        )
        return {"failed": f"{why} after {time.monotonic() - started:.0f} s"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _cli_run(
    args: list[str], stdin_path: Path, read_bytes: int | None = None, top: bool = False
) -> dict:
    """Run ``termarcade termcraft ARGS < stdin_path`` (``termarcade ARGS`` with ``top``);
    wall time (to ``read_bytes`` of output when given) and the child's peak RSS (from
    wait4)."""
    cmd = [sys.executable, "-c", _CLI, *([] if top else ["termcraft"]), *args]
    root = Path(__file__).resolve().parent.parent
    with open(stdin_path, "rb") as stdin, tempfile.TemporaryFile() as err:
        started = time.monotonic()
        proc = subprocess.Popen(cmd, cwd=root, stdin=stdin, stdout=subprocess.PIPE, stderr=err)
        out = proc.stdout
        assert out is not None  # stdout=PIPE
        got = out.read(read_bytes) if read_bytes else out.read()
        seconds = time.monotonic() - started
        out.close()  # like head -c: the writer gets a broken pipe and ends
        _, status, usage = os.wait4(proc.pid, 0)
        err.seek(0)
        peaks = [
            line.split()[1]
            for line in err.read().decode("utf-8", "replace").splitlines()
            if line.startswith("PEAK_KB ")
        ]
    return {
        "seconds": seconds,
        "cpu": usage.ru_utime + usage.ru_stime,
        "peak_mb": int(peaks[-1]) / 1024 if peaks else float("nan"),
        "bytes": len(got),
        "out": got[:2000].decode("utf-8", "replace"),
        "status": status,
    }


def _fmt(result: dict) -> str:
    """``wall s (cpu s), peak MB`` or why it failed."""
    if "failed" in result:
        return result["failed"]
    return f"{result['seconds']:.2f} s ({result['cpu']:.2f} cpu), {result['peak_mb']:.0f} MB"


def scale_section(args) -> None:
    """Issue 12's table: counting vs today's materialising count, same run."""
    print(
        "\nTermCraft counting at scale (30 rules, 40 constants, f/1 g/2 pair/2 h/3 k/1): "
        "count_rewrite_actions vs len(rewrite_actions(state)), fresh process each; the "
        f"materialising count is capped at {args.baseline_gb:g} GB and "
        f"{args.baseline_cap:g} s; ratio of CPU seconds"
    )
    print(
        f"{'case':<18} {'nodes':>9} {'actions':>16} {'count: wall (cpu), peak':>31} "
        f"{'materialising':>36} {'ratio':>6}"
    )
    cases = [c for c in SCALE_CASES if not (args.quick and SCALE_CASES[c][0] > 300_000)]
    env = {"BENCH_BASELINE_GB": str(args.baseline_gb)}
    for case in cases:
        mine = _run_worker("count", case, 600)
        base = _run_worker("materialise", case, args.baseline_cap, env)
        ratio = (
            f"{base['cpu'] / mine['cpu']:.1f}x"
            if "failed" not in base and "failed" not in mine
            else "-"
        )  # CPU seconds: other load does not distort it
        print(
            f"{case:<18} {mine.get('size', 0):>9,} {mine.get('actions', 0):>16,} "
            f"{_fmt(mine):>31} {_fmt(base):>36} {ratio:>6}",
            flush=True,
        )
    print(
        "\nThe command line end to end (parsing included): actions --term - --count, and "
        "the first 100 kB of --json"
    )
    for case in [c for c in cases if c in args.cli_cases.split(",")]:
        _cli_case(case)


def _cli_case(case: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "state.txt"
        _run_worker("text", case, 600, {"BENCH_TEXT": str(text)})
        parse = _parse_time(text)
        count = _cli_run(["actions", "--term", "-", "--count"], text)
        first = _cli_run(["actions", "--term", "-", "--json"], text, read_bytes=100_000)
        print(
            f"  {case:<18} text {text.stat().st_size / 1e6:.1f} MB, parse {parse:.1f} s; "
            f"--count {_fmt(count)} -> {count['out'].strip()}; first 100 kB of --json "
            f"{_fmt(first)}",
            flush=True,
        )


_LARK = (
    "from grammar.terms import _parser\nfrom grammar.lalr import Feeder\n"
    "def parse_term(text):\n"
    "    feeder = Feeder(_parser(), text)\n"
    "    for _ in feeder.tokens():\n        pass\n"
    "    return feeder.finish()\n"
)
"""The grammar alone (what parse_term falls back to): Lark's LALR parser, same tree builder."""


def _parse_time(path: Path, lark: bool = False) -> float:
    """Seconds the term grammar takes to parse the text (in a fresh process); ``lark``:
    Lark's parser itself instead of the fast reader."""
    code = (
        (_LARK if lark else "from grammar.terms import parse_term\n")
        + "import sys, time; t = open(sys.argv[1]).read();"
        " s = time.monotonic(); parse_term(t); print(time.monotonic() - s)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    return float(done.stdout.strip() or "nan")


# -- limits: the wide level and a 10 MB level -------------------------------------------------


def limits_section(args) -> None:
    """solve/lint/count on the shapes that used to run away."""
    print(
        "\nLimits: the 20,000-wide level (data(rewrite(a,b),a,...,a), fuel 3, unreachable "
        "target) under `solve --time-limit 1`, command line end to end"
    )
    with tempfile.TemporaryDirectory() as tmp:
        level = Path(tmp) / "wide.levels"
        level.write_text(
            'game termcraft\nlevel "Wide" {\n  fuel 3\n  budget 0\n  current '
            "data(rewrite(a,b)," + ",".join(["a"] * 20_000) + ")\n  target done"
            "\n}\n",
            encoding="utf-8",
        )
        for extra in ([], ["--max-memory", "100000"]):
            got = _cli_run(["solve", "-", "--time-limit", "1", "--json", *extra], level)
            answer = json.loads(got["out"]) if got["out"].strip() else {}
            label = "default memory cap" if not extra else "memory cap lifted"
            print(
                f"  {label:<20} {_fmt(got)} -> {answer.get('status')} "
                f"({answer.get('reason')}, {answer.get('explored')} explored)",
                flush=True,
            )
    print(
        "\nLimits: a ~10 MB level (make_state(2.6M nodes, 80 axioms)), parsing excluded, "
        "fresh process each (the state alone takes the 'state' memory)"
    )
    for kind in ("lint", "count", "solve"):
        got = _run_worker(kind, "10MB", 900)
        what = got.get("issues", got.get("actions", got.get("status", "")))
        print(
            f"  {kind:<6} {_fmt(got)} (state {got.get('state_mb', 0):.0f} MB, "
            f"{got.get('size', 0):,} nodes) -> {what}",
            flush=True,
        )
    if args.parse:
        _ten_mb_parse()


def _ten_mb_parse() -> None:
    """The 10 MB state end to end: the reader (against Lark on a 1 MB state, same run), and
    the command line's parse, count and lint, each a fresh process reading the text."""
    with tempfile.TemporaryDirectory() as tmp:
        text = Path(tmp) / "state.txt"
        _run_worker("text", "10MB", 900, {"BENCH_TEXT": str(text)})
        small = Path(tmp) / "small.txt"
        _run_worker("text", "1MB", 900, {"BENCH_TEXT": str(small)})
        mb, small_mb = text.stat().st_size / 1e6, small.stat().st_size / 1e6
        fast = _parse_time(text)
        fast_small, lark_small = _parse_time(small), _parse_time(small, lark=True)
        print(
            f"  parse  {fast:.1f} s for {mb:.1f} MB of text (grammar.terms.parse_term: "
            f"{mb / fast:.1f} MB/s); on {small_mb:.1f} MB, {fast_small:.2f} s against Lark's "
            f"LALR parser with the same tree builder {lark_small:.1f} s "
            f"({lark_small / fast_small:.0f}x)",
            flush=True,
        )
        level = Path(tmp) / "ten.levels"
        level.write_text(
            'game termcraft\nlevel "Ten" {\n  fuel 1\n  budget 0\n  current '
            + text.read_text(encoding="utf-8").strip()
            + "\n  target done\n}\n",
            encoding="utf-8",
        )
        print(
            f"  command line, {mb:.1f} MB end to end (interpreter start, reading, parsing, "
            "the work, exit):"
        )
        for label, args, source in (
            ("parse (prints it back)", ["parse"], text),
            ("actions --term - --count", ["actions", "--term", "-", "--count"], text),
            ("lint - --no-solver", ["lint", "-", "--no-solver"], level),
        ):
            top = args[0] == "parse"
            got = _cli_run(args, source, top=top)
            said = f"{got['bytes'] / 1e6:.1f} MB printed" if top else got["out"].strip()[-60:]
            print(f"    {label:<26} {_fmt(got)} -> {said}", flush=True)


def nodes_section(args) -> None:
    """Hash-consing: node() (private weakref remover, keyed slotted refs, slot setters, no
    lock) against ReferenceNodes, the plain implementation beside it in core.termcraft.terms.
    Both build the same 200k new nodes (chains of binary and unary compounds) then look all
    of them up again, with the collector paused as the bulk readers run."""

    from core.termcraft.terms import COMPOUND, CONST, ReferenceNodes, node

    count = 200_000
    print("\nHash-consing (new nodes, then the same nodes again), best of 3:")
    print(f"{'build':<18} {'new us/node':>11} {'hit us/node':>11}")
    results = {}
    for label in ("node()", "ReferenceNodes"):
        best_new = best_hit = float("inf")
        for round_ in range(3):
            build = node if label == "node()" else ReferenceNodes().node
            keep = []
            gc.collect()
            for phase in ("new", "hit"):
                leaf = build(CONST, f"leaf{round_}_{label}", ())
                gc.disable()  # as the bulk readers run (core.search.quiet_gc)
                start = time.perf_counter()
                t = leaf
                for i in range(count // 2):
                    t = build(COMPOUND, "f", (t, leaf))
                    t = build(COMPOUND, "g" if i % 2 else "h", (t,))
                elapsed = (time.perf_counter() - start) / count * 1e6
                gc.enable()
                keep.append(t)  # alive, so the second pass finds every node
                if phase == "new":
                    best_new = min(best_new, elapsed)
                else:
                    best_hit = min(best_hit, elapsed)
            del keep
        results[label] = (best_new, best_hit)
        print(f"{label:<18} {best_new:>11.2f} {best_hit:>11.2f}")
    fast, plain = results["node()"], results["ReferenceNodes"]
    print(
        f"ratio (reference / node()): new {plain[0] / fast[0]:.1f}x, hit {plain[1] / fast[1]:.1f}x"
    )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", choices=("old", "scale", "limits", "nodes"), default=None)
    ap.add_argument("--sizes", default="1000,5000,20000")
    ap.add_argument("--cap", type=float, default=120.0, help="seconds per reference run")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rules", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="scale: only the cases up to 300k")
    ap.add_argument(
        "--baseline-gb",
        type=float,
        default=4.0,
        help="memory cap of the materialising baseline (GB)",
    )
    ap.add_argument(
        "--baseline-cap",
        type=float,
        default=120.0,
        help="time cap of the materialising baseline (s)",
    )
    ap.add_argument("--cli-cases", default="30k/80,31k/160 big class,950k/2500")
    ap.add_argument(
        "--parse",
        action="store_true",
        help="limits: also the 10 MB text end to end (reader vs Lark, "
        "command line parse/count/lint)",
    )
    ap.add_argument("--worker", nargs=2, metavar=("KIND", "CASE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return
    if args.only in (None, "old"):
        old_section(args)
    if args.only in (None, "scale"):
        scale_section(args)
    if args.only in (None, "limits"):
        limits_section(args)
    if args.only in (None, "nodes"):
        nodes_section(args)


if __name__ == "__main__":
    main()
