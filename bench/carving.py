"""Benchmark: Triangle Carving closure and elimination decision, each against a baseline.

**Closure** (20–40 variables with axioms). Engine: :func:`core.carving.compute_closure`,
semi-naive evaluation (one formula at a time) with hash indexes on formula arguments.
Baseline: the naive fixpoint of Γ as the seed writes it — every round re-derives every
instance from the whole of F (nested loops over pairs of Δ formulas chained on a shared
variable, the third premise found by membership, then Θ / Ω / rotation), until a round adds
nothing. Both must give the same F*, E_Ω (checked).

**Elimination decision** (graphs with about 10,000 edges). Engine:
:func:`core.carving.paths.can_eliminate`, per-vertex best automaton state with dominance
(each vertex improves at most four times). Baseline: the textbook breadth-first search of
the full product (vertex, automaton state, new edge used) on the same incidence index. Both
must agree (checked). "cold" also builds the incidence index from the edge lists; a last case
times :func:`core.carving.elimination_possible` on a real game state whose E_Ω has ~17,000
edges, index built from the operators (cold) and cached (warm).

**Solver** (bundled Long Division and Typed Finale, generated hard #880001, #5, #1).
Engine: :func:`core.carving.solve` as shipped (iterative deepening on the admissible lower
bound of :mod:`core.carving.bound`, the bound reused from parent to child). Baseline: the
same solver with ``deepen=False``, one plain breadth-first search as before issue 29, under
a work budget (300,000 state images with ``--quick``, else 3,000,000) so that a hopeless
case ends; states per second are printed for both (``--only solver`` runs this part).

Times are CPU seconds of this process (``time.process_time``), best of ``--repeat``, so other
load on the machine distorts less. Output: one line per case,
``case  fast=<s>  baseline=<s>  ratio=<baseline/fast>x``, then a summary; ``--json`` prints
JSON lines instead.

Usage: python bench/carving.py [--quick] [--repeat 3] [--json] [--only PART]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import deque
from itertools import product
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.carving import Formula, Level, Operator, State, Target, compute_closure
from core.carving.paths import DEAD, Graph, advance, can_eliminate, graph_of
from core.carving.state import elimination_possible, initial_state

# -- inputs --------------------------------------------------------------------------------------


def make_level(n: int, n_types: int, n_axioms: int, seed: int, extra: int = 0) -> Level:
    """A level with ``n`` variables, ``n_axioms`` random well-typed axioms, every diagonal
    type triple plus ``extra`` random ones in each relation."""
    rng = random.Random(seed)
    types = tuple(f"t{i}" for i in range(n_types))
    variables = tuple((f"x{i}", types[i % n_types]) for i in range(n))
    diag = [(t, t, t) for t in types]
    others = [t for t in product(types, repeat=3) if t not in diag]
    r_delta = diag + rng.sample(others, min(extra, len(others)))
    r_nabla = diag + rng.sample(others, min(extra, len(others)))
    tau, names = dict(variables), [v for v, _ in variables]
    axioms: list[Formula] = []
    while len(axioms) < n_axioms:
        head = rng.choice("DN")
        f = Formula(head, *(rng.choice(names) for _ in range(3)))
        if (tau[f.x], tau[f.y], tau[f.z]) in (
            r_delta if head == "D" else r_nabla
        ) and f not in axioms:
            axioms.append(f)
    return Level(
        types=types,
        variables=variables,
        r_delta=tuple(r_delta),  # type: ignore[arg-type]  # triples built from rng.choice
        r_nabla=tuple(r_nabla),  # type: ignore[arg-type]  # triples built from rng.choice
        root=Formula("D", "x0", "x0", "x0"),
        target=Target(("a",), ()),
        axioms=tuple(axioms),
    )


# -- closure baseline ------------------------------------------------------------------------------


def naive_closure(level: Level) -> tuple[set, set]:
    """Γ iterated naively: each round recomputes every instance from all of F."""
    names, wt = level.variable_names, level.well_typed
    F = {f for v in names for f in (Formula("D", v, v, v), Formula("N", v, v, v)) if wt(f)}
    F |= set(level.axioms)
    P: set = set()
    while True:
        deltas = [f for f in F if f.head == "D"]
        P2 = set(P)
        for d1 in deltas:  # d1 = Δ(a,x,y)
            a, x, y = d1.x, d1.y, d1.z
            for d2 in deltas:  # d2 = Δ(b,y,z)
                if d2.y != y:
                    continue
                b, z = d2.x, d2.z
                for c in names:  # d3 = Δ(c,z,x)
                    d3 = Formula("D", c, z, x)
                    if d3 not in F:
                        continue
                    n, base = Formula("N", a, b, c), Formula("D", x, y, z)
                    if n in F and wt(base):
                        P2.add(Operator(n, d1, d2, d3, base))
                    if base in F and wt(n):
                        P2.add(Operator(base, d1, d2, d3, n))
        F2 = F | {e.f5 for e in P2} | {f.rotated() for f in F if wt(f.rotated())}
        if F2 == F and P2 == P:
            return F, P
        F, P = F2, P2


# -- decision baseline -----------------------------------------------------------------------------


def product_bfs(graph: Graph, base: int, new_verts, reading: str) -> bool:
    """Breadth-first search of the product (vertex, state); reaching V(e_new) in 0..2 decides."""
    targets = set(new_verts)
    start = (base, 0)
    seen, queue = {start}, deque([start])
    inc, verts, virtual = graph.inc, graph.verts, graph.virtual
    while queue:
        v, q = queue.popleft()
        if v in targets and q <= 2:
            return True
        for e in inc[v]:
            q2 = advance(reading, q, virtual[e])
            if q2 == DEAD:
                continue
            for w in verts[e]:
                if w != v and (w, q2) not in seen:
                    seen.add((w, q2))
                    queue.append((w, q2))
    return False


def make_graph(n_vertices: int, n_edges: int, seed: int, shape: str):
    """Edge lists of a synthetic hypergraph (edges of 2–5 vertices) and a base and e_new.

    Shapes: ``reach`` — one mixed T/V cluster, e_new inside (the search stops early);
    ``apart`` — e_new in a separate small cluster (the whole cluster is explored);
    ``dense`` — T cluster around ρ, V edges out into a T-only cluster where e_new sits two T
    steps beyond every V edge, so it is reached only in state 3 (contiguous) and refused.
    """
    rng = random.Random(seed)
    half = n_vertices // 2
    verts, virtual = [], []

    def edge(lo: int, hi: int) -> list[int]:
        return rng.sample(range(lo, hi), rng.randint(2, 5))

    if shape in ("reach", "apart"):
        for _ in range(n_edges):
            verts.append(edge(0, n_vertices - 10))
            virtual.append(rng.random() < 0.3)
        new = edge(0, n_vertices - 10) if shape == "reach" else edge(n_vertices - 10, n_vertices)
        return verts, virtual, 0, new
    # dense: vertices [0, half) cluster A (T), [half, n) cluster B (T), V edges A -> B's
    # "gates" [half, half+20); e_new on B's far vertices, two T steps from every gate.
    gates, mid, far = (
        range(half, half + 20),
        range(half + 20, half + 40),
        range(half + 40, n_vertices),
    )
    for i in range(n_edges):
        r = i % 10
        if r < 5:
            vs = edge(0, half)
        elif r < 6:
            vs = [rng.randrange(half), rng.choice(gates)]
        elif r < 7:
            vs = [rng.choice(gates), rng.choice(mid)]
        else:
            vs = [rng.choice(mid)] + rng.sample(far, rng.randint(1, 4))
        verts.append(vs)
        virtual.append(r == 5)  # only the A -> gate edges are virtual
    return verts, virtual, 0, rng.sample(far, 3)


# -- timing ---------------------------------------------------------------------------------------


def best(repeat: int, fn, *args):
    """(best CPU seconds, result) of ``fn(*args)`` over ``repeat`` runs."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn(*args)
        times.append(time.process_time() - t0)
    return min(times), out


def report(rows: list, as_json: bool, case: str, fast: float, base: float, **extra) -> None:
    row = {
        "case": case,
        "fast": round(fast, 6),
        "baseline": round(base, 6),
        "ratio": round(base / fast, 1) if fast > 0 else None,
        **extra,
    }
    rows.append(row)
    if as_json:
        print(json.dumps(row), flush=True)
    else:
        more = "  ".join(f"{k}={v}" for k, v in extra.items())
        print(
            f"{case:<34} fast={fast:.4f}  baseline={base:.4f}  ratio={base / fast:.1f}x  {more}",
            flush=True,
        )


def bench_closure(args, rows) -> None:
    sizes = (
        [(20, 1, 20), (30, 1, 90), (40, 1, 160)]
        if args.quick
        else [
            (20, 1, 20),
            (20, 1, 60),
            (20, 1, 80),
            (20, 2, 40),
            (30, 1, 30),
            (30, 1, 120),
            (30, 3, 60),
            (40, 1, 40),
            (40, 1, 160),
            (40, 2, 80),
            (40, 4, 160),
        ]
    )
    for n, n_types, n_axioms in sizes:
        level = make_level(n, n_types, n_axioms, args.seed, extra=2 * (n_types - 1))
        fast, closure = best(args.repeat, compute_closure, level)
        base, (F, P) = best(1 if args.quick else min(args.repeat, 2), naive_closure, level)
        same = closure.formulas == F and closure.edges == P
        report(
            rows,
            args.json,
            f"closure n={n} types={n_types} axioms={n_axioms}",
            fast,
            base,
            formulas=len(F),
            edges=len(P),
            same=same,
        )
        assert same, "engine and baseline disagree"


def decide_cold(verts, virtual, base, new, reading) -> bool:
    """The decision including the construction of the incidence index."""
    return can_eliminate(Graph.from_parts(2_000, verts, virtual), base, new, reading)


def bench_decision(args, rows) -> None:
    n_edges = 2_000 if args.quick else 10_000
    for shape, reading in (
        ("reach", "contiguous"),
        ("apart", "contiguous"),
        ("apart", "subsequence"),
        ("dense", "contiguous"),
    ):
        verts, virtual, base, new = make_graph(2_000, n_edges, args.seed, shape)
        graph = Graph.from_parts(2_000, verts, virtual)
        warm, answer = best(args.repeat, can_eliminate, graph, base, new, reading)
        cold, _ = best(args.repeat, decide_cold, verts, virtual, base, new, reading)
        t_base, expected = best(args.repeat, product_bfs, graph, base, new, reading)
        assert answer == expected, "engine and baseline disagree"
        report(
            rows,
            args.json,
            f"decide {shape}/{reading} E={n_edges}",
            warm,
            t_base,
            cold=round(cold, 4),
            path=answer,
        )


def bench_state(args, rows) -> None:
    level = make_level(20, 1, 40 if args.quick else 80, args.seed)
    state: State = initial_state(level)
    world = state.world
    rng = random.Random(args.seed)
    ops = [
        Operator(
            world.vertices[rng.choice(world.nablas)],
            *(world.vertices[rng.choice(world.deltas)] for _ in range(4)),
        )
        for _ in range(20)
    ]
    ops = [op for op in ops if op not in world.eid]

    def cold():
        graph_of.cache_clear()
        return elimination_possible(state, ops[0])

    def warm():
        return [elimination_possible(state, op) for op in ops]

    def baseline():
        graph = graph_of(world, state.tree, state.virtual)
        return [
            product_bfs(graph, world.vid[state.base], world.verts_of(op), level.density)
            for op in ops
        ]

    t_cold, _ = best(args.repeat, cold)
    t_warm, answers = best(args.repeat, warm)
    t_base, expected = best(args.repeat, baseline)
    assert answers == expected, "engine and baseline disagree"
    report(
        rows,
        args.json,
        f"state E_Ω={len(world.intrinsic)} ({len(ops)} edges)",
        t_warm / len(ops),
        t_base / len(ops),
        cold=round(t_cold, 4),
        yes=sum(answers),
    )


SOLVER_LEVELS = (
    ("tutorial", "Long Division"),
    ("tutorial", "Typed Finale"),
    ("hard", 880001),
    ("hard", 5),
    ("hard", 1),
)
"""Solver cases: bundled tutorial levels by title, generated hard levels by seed."""


def solver_level(kind: str, key):
    """A bundled tutorial level (by title) or a generated hard one (by seed)."""
    if kind == "hard":
        from core.carving.generators import GENERATORS

        return GENERATORS["hard"].generate(key)
    from grammar.levels import bundled_packs

    return next(lv for lv in bundled_packs("carving")[0][1].levels if lv.title == key)


def bench_solver(args, rows) -> None:
    """Fast: solve() as shipped (iterative deepening on the lower bound, bound reuse).
    Baseline: the same solver with deepen=False, one plain breadth-first search (the search
    before issue 29), under a work budget so that a hopeless case ends: its time is then a
    lower bound and the ratio is marked ">=". Both run once (CPU seconds)."""
    from core.carving import solve

    base_budget = 300_000 if args.quick else 3_000_000
    cases = SOLVER_LEVELS[:3] if args.quick else SOLVER_LEVELS
    for kind, key in cases:
        level = solver_level(kind, key)
        t_fast, fast = best(
            1, lambda lv=level: solve(lv, budget=None, time_limit=None, max_states=200_000)
        )
        t_base, base = best(
            1,
            lambda lv=level: solve(
                lv, deepen=False, budget=base_budget, time_limit=None, max_states=200_000
            ),
        )
        report(
            rows,
            args.json,
            f"solve {kind} {key}",
            t_fast,
            t_base,
            fast_verdict=fast.verdict,
            base_verdict=base.verdict,
            bound=base.status == "unknown",
            fast_states=fast.explored,
            base_states=base.explored,
            fast_states_per_s=round(fast.explored / max(t_fast, 1e-9), 1),
            base_states_per_s=round(base.explored / max(t_base, 1e-9), 1),
        )


PROOF_LEVELS = (("hard", 6), ("hard", 880001), ("medium", 26), ("hard", 17))
"""Proof cases (issue 29): the play-outs of generated levels that used to end without a proved
par (the generator's first draw for the seed, before any proof), by difficulty and seed."""


def proof_level(kind: str, seed: int):
    """A generator's raw play-out (its first usable draw) and its moves."""
    from core.carving.generator import generate
    from core.carving.generators import GENERATORS

    made = generate(seed, **{**GENERATORS[kind].knobs, "refine": False})
    return made.level, made.solution


def bench_proof(args, rows) -> None:
    """Fast: solve() as shipped (walk enumerations pruned by the lower bound; an unproved
    pass against a known plan retried with lower limits). Baseline: the same solver with
    tighten=False (the search before). Both under the default work budget (2,000,000 state
    images) and no clock, once each; the generator's proof (known play-out, 2,000 states) and
    ``carving solve`` (iterative deepening). States per second: states expanded over CPU
    seconds."""
    from core.carving import solve
    from core.carving.solver import DEFAULT_BUDGET

    cases = PROOF_LEVELS[:2] if args.quick else PROOF_LEVELS
    for kind, seed in cases:
        level, playout = proof_level(kind, seed)
        for how, extra in (
            ("generator", {"known": playout, "max_states": 2_000}),
            ("solve", {}),
        ):

            def run(tighten: bool, lv=level, kw=extra):
                return solve(lv, time_limit=None, budget=DEFAULT_BUDGET, tighten=tighten, **kw)

            t_fast, fast = best(1, lambda: run(True))
            t_base, base = best(1, lambda: run(False))
            report(
                rows,
                args.json,
                f"prove {how} {kind} #{seed}",
                t_fast,
                t_base,
                fast_verdict=fast.verdict,
                base_verdict=base.verdict,
                fast_states=fast.explored,
                base_states=base.explored,
                fast_states_per_s=round(fast.explored / max(t_fast, 1e-9), 1),
                base_states_per_s=round(base.explored / max(t_base, 1e-9), 1),
            )


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs, a few seconds")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    ap.add_argument(
        "--only",
        choices=("closure", "decision", "state", "solver", "proof"),
        help="run one part only",
    )
    args = ap.parse_args(argv)
    rows: list = []
    if not args.json:
        print(
            f"Triangle Carving benchmark (Python {sys.version.split()[0]}, "
            f"CPU seconds, best of {args.repeat})"
        )
    parts = {
        "closure": bench_closure,
        "decision": bench_decision,
        "state": bench_state,
        "solver": bench_solver,
        "proof": bench_proof,
    }
    for name, part in parts.items():
        if args.only in (None, name):
            part(args, rows)
    closure = [r["ratio"] for r in rows if r["case"].startswith("closure")]
    decide = [r for r in rows if r["case"].startswith("decide")]
    solved = [r for r in rows if r["case"].startswith("solve")]
    proved = [r for r in rows if r["case"].startswith("prove")]
    summary = {
        "closure_ratio_min": min(closure, default=None),
        "closure_ratio_max": max(closure, default=None),
        "decision_warm_max_s": max((r["fast"] for r in decide), default=None),
        "decision_cold_max_s": max((r["cold"] for r in decide), default=None),
        "solver_ratio_min": min((r["ratio"] for r in solved), default=None),
        "solver_proved": sum("(shortest)" in r["fast_verdict"] for r in solved),
        "solver_cases": len(solved),
        "proofs_proved": sum("(shortest)" in r["fast_verdict"] for r in proved),
        "proofs_proved_before": sum("(shortest)" in r["base_verdict"] for r in proved),
        "proof_cases": len(proved),
    }
    print(json.dumps({"summary": summary}) if args.json else f"summary: {summary}")


if __name__ == "__main__":
    main()
