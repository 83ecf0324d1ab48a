"""Solution-down level generator: random legal steps, then a component becomes the target.

1. A random typed language (knobs: ``variables``, ``types``, ``axioms``): every type gets its
   diagonal triple in R_Δ and R_∇ (so the diagonal formulas exist), plus a few random
   triples so that axioms of mixed types are possible; axioms are random well-typed
   non-diagonal formulas; ρ0 is a random diagonal formula.
2. ``steps`` random legal steps are played from the start through the rules (random
   construct, random path among the offered steps, random successor). The play-out runs
   against a placeholder target that no component can match — three 2-edges in a triangle:
   every edge of the game holds exactly one ∇, which a triangle of 2-edges cannot — so
   it never stops early.
3. A component of the final hypergraph with at least one edge and not isomorphic to any
   component of the initial one becomes H*. The recorded moves are replayed against the real
   level; the game is won at the first step where such a component exists: the play-out is
   the first known solution, an upper bound on par.
4. ``refine`` (the default): the solver, given the play-out as its known plan, looks for a
   shorter one by branch and bound (:func:`core.carving.solver.solve`, ``known``). Par is
   the proved fewest steps: the play-out's length, or the shorter plan's. **Only levels
   whose par is proved are emitted** (issue 29): when the proof does not finish within its
   bounds (states, work budget; no clock by default), the level is dropped and the next
   play-out is drawn from the same ``rng``, until one is proved. A seed whose first usable
   play-out was proved gives the level it always gave; only the seeds whose level had no
   par give another level. After ``proofs`` failed proofs the generator gives up
   (:class:`NoProvedLevel`). Without ``refine``, no search: par is set only when the lower
   bound of :mod:`.bound` alone proves the play-out shortest (else None; for tools and
   tests that want the raw play-out).

Everything is drawn from ``random.Random(seed)``, and the proof is bounded by states and
work only: the same arguments give the same level on any machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from core.game import replay_moves
from core.text import plural

from .bound import lower_bound
from .closure import ClosureTooLarge, compute_closure
from .formula import DELTA, NABLA, Formula, Operator
from .game import GAME, Construct, Extend, Finish, Move, Succeed
from .hypergraph import Shape, components, isomorphic, shape_of
from .level import Level, Target
from .paths import graph_of
from .solver import solve
from .state import State, can_finish, path_steps, succession_candidates, suggest_path

__all__ = ["Generated", "NoProvedLevel", "generate"]

_PLACEHOLDER = Target(("a", "b", "c"), (("a", "b"), ("b", "c"), ("a", "c")))
_LETTERS = "xyzwuvpqrs"
"""Variable names of generated levels (``x1``, ``x2``, ... beyond ten variables)."""
MAX_CLOSURE = 3_000
"""Generated levels keep |F*| + |E_Ω| below this, so they stay playable and solvable."""
MAX_TARGET_EDGES = 12
"""Largest target a generated level gets (a person must be able to read it)."""


@dataclass(frozen=True)
class Generated:
    """A generated level and a plan that wins it.

    Attributes:
        level: The level: its ``par`` is the proved fewest steps (None only without
            ``refine``, when the lower bound alone could not prove the play-out).
        solution: Game moves winning the level (in ``par`` steps when par is set).
        seed: The seed it came from.
        refined: True when the solver found the solution (shorter than the play-out).
        dropped: Play-outs dropped before this one, their par unproved.
        work: The most work one proof of the drawing spent.
        budget_stopped: Whether the work budget stopped a proof of the drawing.
    """

    level: Level
    """The level (its par proved; None only without ``refine``)."""
    solution: tuple[Move, ...]
    """Moves that win it (in par steps when par is set)."""
    seed: int
    """The generator seed."""
    refined: bool = False
    """Whether the solver shortened the play-out."""
    dropped: int = 0
    """Play-outs drawn before this one whose par could not be proved (dropped)."""
    work: int = 0
    """The most work (state images) one proof of the drawing spent."""
    budget_stopped: bool = False
    """Whether the work budget stopped a proof of the drawing (the level then depends on
    the budget: a larger one might have proved a play-out this drawing dropped)."""


class NoProvedLevel(ValueError):
    """No play-out's par could be proved within the bounds (``proofs`` tried).

    Attributes:
        seed: The seed.
        tried: Play-outs whose proof failed.
        budget_stopped: Whether the work budget stopped any of them (a larger budget may
            succeed).
    """

    def __init__(self, seed: int, tried: int, budget_stopped: bool):
        why = " within the work budget" if budget_stopped else ""
        super().__init__(
            f"no level with a proved par from seed {seed}{why} ({plural(tried, 'play-out')} tried)"
        )
        self.seed, self.tried, self.budget_stopped = seed, tried, budget_stopped


def _language(rng: random.Random, n_vars: int, n_types: int, n_axioms: int) -> dict:
    types = tuple(f"t{i + 1}" for i in range(n_types))
    # One-letter names while they last, so formulas read as ▲xyz on the screen.
    names = _LETTERS if n_vars <= len(_LETTERS) else [f"x{i + 1}" for i in range(n_vars)]
    variables = tuple(
        (names[i], types[i % n_types] if i < n_types else rng.choice(types)) for i in range(n_vars)
    )
    diag = [(t, t, t) for t in types]
    extra = n_types if n_types > 1 else 0

    def relation() -> tuple:
        rel = list(diag)
        while len(rel) < len(diag) + extra:
            t = (rng.choice(types), rng.choice(types), rng.choice(types))
            if t not in rel:
                rel.append(t)
        return tuple(rel)

    r_delta, r_nabla = relation(), relation()
    names = [v for v, _ in variables]
    tau = dict(variables)
    axioms: list[Formula] = []
    for _ in range(50 * n_axioms):
        if len(axioms) >= n_axioms:
            break
        head = rng.choice((DELTA, NABLA))
        f = Formula(head, *(rng.choice(names) for _ in range(3)))
        rel = r_delta if head == DELTA else r_nabla
        if not f.is_diagonal and (tau[f.x], tau[f.y], tau[f.z]) in rel and f not in axioms:
            axioms.append(f)
    x = rng.choice(names)
    root = Formula(rng.choice((DELTA, NABLA)), x, x, x)
    return dict(
        types=types,
        variables=variables,
        r_delta=r_delta,
        r_nabla=r_nabla,
        root=root,
        axioms=tuple(axioms),
    )


def _random_edge(rng: random.Random, state: State) -> Operator:
    world = state.world
    while True:
        k = rng.choice((1, 2, 2, 3, 4))
        pool = [world.vertices[rng.choice(world.deltas)] for _ in range(k)]
        ds = [rng.choice(pool) for _ in range(4)]
        n = world.vertices[rng.choice(world.nablas)]
        d1, d2, d3, d4 = ds
        op = Operator(n, d1, d2, d3, d4) if rng.random() < 0.5 else Operator(d1, d2, d3, d4, n)
        if op not in world.eid:
            return op


def _random_step(rng: random.Random, state: State) -> tuple[State, list[Move]]:
    """Play one full time step at random; return the new state and its moves."""
    moves: list[Move] = [Construct(_random_edge(rng, state))]
    state = GAME.apply(state, moves[0])
    while state.phase == "path":
        offered = path_steps(state)
        if can_finish(state) and (not offered or rng.random() < 0.5 or len(state.path) >= 8):
            move: Move = Finish()
        elif len(state.path) >= 8:  # head for the new edge by a shortest completion
            e, w = suggest_path(state)[0]  # type: ignore[index]
            move = Extend(e, w)
        else:
            e, w = rng.choice(offered)
            move = Extend(e, w)
        moves.append(move)
        state = GAME.apply(state, move)
    if state.phase == "succession":
        move = Succeed(rng.choice(succession_candidates(state)))
        moves.append(move)
        state = GAME.apply(state, move)
    return state, moves


def _shapes(state: State) -> list[tuple[Shape, bool]]:
    """Each component's shape, and whether it holds a virtual (constructed) edge."""
    graph = graph_of(state.world, state.tree, state.virtual)
    out = []
    for vertices, edges in components(len(state.world.vertices), graph.verts):
        local = {v: i for i, v in enumerate(vertices)}
        shape = shape_of(len(vertices), [[local[v] for v in graph.verts[e]] for e in edges])
        out.append((shape, any(graph.virtual[e] for e in edges)))
    return out


def _pick_target(rng: random.Random, start: State, end: State, min_edges: int) -> Target | None:
    """A component of ``end`` that ``start`` does not have (up to isomorphism), with
    ``min_edges`` to :data:`MAX_TARGET_EDGES` edges; built ones and larger ones first."""
    initial = [s for s, _ in _shapes(start)]
    fresh = [
        (s, built)
        for s, built in _shapes(end)
        if min_edges <= len(s.edges) <= MAX_TARGET_EDGES
        and not any(isomorphic(s, t) for t in initial)
    ]
    if not fresh:
        return None
    best = max((built, len(s.edges)) for s, built in fresh)
    shape = rng.choice([s for s, built in fresh if (built, len(s.edges)) == best])
    names = tuple(f"v{i + 1}" for i in range(shape.n_vertices))
    return Target(names, tuple(tuple(names[v] for v in e) for e in shape.edges))


def generate(
    seed: int,
    *,
    variables: int = 3,
    types: int = 1,
    axioms: int = 0,
    steps: int = 3,
    min_edges: int = 2,
    density: str = "contiguous",
    new_edges: str = "closure",
    refine: bool = True,
    max_states: int = 3_000,
    time_limit: float | None = None,
    attempts: int = 50,
    budget: int | None = None,
    proofs: int = 20,
) -> Generated:
    """Generate a solvable level (solution-down).

    Args:
        seed: Seed of every random choice.
        variables: Number of variables (difficulty: a larger closure).
        types: Number of types.
        axioms: Number of axioms (extra initial formulas).
        steps: Random steps played before the target is read off (difficulty: depth).
        min_edges: Fewest edges the target may have (1 allows a lone edge).
        density: Φ_dense reading of the level.
        new_edges: What e_new may hold in the level (``"closure"``: the generators' levels,
            and so their IDs, stay as they were when the default became the seed's).
        refine: Prove par with the solver, the play-out as its known plan (par None when
            the proof does not finish within the bounds).
        max_states: Solver state limit when refining.
        time_limit: Solver time limit when refining (seconds); None (the default) for
            none: a limit makes the level depend on the machine's speed (which play-outs
            are proved in time).
        attempts: Draws that give no usable play-out before giving up.
        budget: Solver work budget of each proof, in state images (None: none). A proof it
            stops drops the play-out like any unfinished proof.
        proofs: Play-outs whose proof may fail before giving up (refining only).

    Returns:
        The :class:`Generated` level with its solution; with ``refine`` its par is proved.

    Raises:
        NoProvedLevel: (a ValueError) When ``proofs`` play-outs could not be proved.
        ValueError: When ``attempts`` draws gave no usable target.
    """
    rng = random.Random(seed)
    failed, most, stopped = 0, 0, False
    unusable = 0
    while unusable < attempts:
        found = _draw(rng, variables, types, axioms, steps, seed, min_edges, density, new_edges)
        if found is None:
            unusable += 1
            continue
        if not refine:
            return _bounded(found)
        proved, spent, why = _refined(found, max_states, time_limit, budget)
        most, stopped = max(most, spent), stopped or why == "work budget"
        if proved is not None:
            return replace(proved, dropped=failed, work=most, budget_stopped=stopped)
        failed += 1
        if failed >= proofs:
            raise NoProvedLevel(seed, failed, stopped)
    raise ValueError(f"no usable level after {attempts} attempts (seed {seed})")


def _draw(
    rng: random.Random,
    variables: int,
    types: int,
    axioms: int,
    steps: int,
    seed: int,
    min_edges: int,
    density: str,
    new_edges: str,
) -> Generated | None:
    """One draw: a random language and a play-out on it (None when it gives no level)."""
    spec = _language(rng, variables, types, axioms)
    draft = Level(target=_PLACEHOLDER, density=density, new_edges=new_edges, **spec)
    try:
        compute_closure(draft, limit=MAX_CLOSURE)  # keep generated closures small
    except ClosureTooLarge:
        return None
    return _play(rng, draft, steps, seed, min_edges)


def _play(
    rng: random.Random, draft: Level, steps: int, seed: int, min_edges: int
) -> Generated | None:
    start = GAME.initial(draft)
    if GAME.finished(start):
        return None
    state, moves = start, []
    for _ in range(steps):
        state, played = _random_step(rng, state)
        moves += played
    target = _pick_target(rng, start, state, min_edges)
    if target is None:
        return None
    level = replace(
        draft,
        target=target,
        title=f"Carved #{seed}",
        author="generator",
        description=f"{plural(len(draft.variables), 'variable')}, "
        f"{plural(len(draft.axioms), 'axiom')}",
    )
    replay, solution = GAME.initial(level), []
    for move in moves:
        replay = GAME.apply(replay, move)
        solution.append(move)
        if replay.phase == "won":
            break
    assert replay.phase == "won", "the target is a component of the final state"
    return Generated(replace(level, par=replay.steps), tuple(solution), seed)


def _bounded(found: Generated) -> Generated:
    """Par without a search: kept only when the lower bound alone proves the play-out."""
    if lower_bound(GAME.initial(found.level)) == found.level.par:
        return found
    return replace(found, level=replace(found.level, par=None))


def _refined(
    found: Generated, max_states: int, time_limit: float | None, budget: int | None
) -> tuple[Generated | None, int, str]:
    """Prove par by branch and bound against the play-out.

    Returns:
        ``(level, work, reason)``: the level with its proved par and a shortest plan (None
        when the proof did not finish), the work the proof spent, and why it did not
        finish (``""`` when it did).
    """
    result = solve(
        found.level,
        max_states=max_states,
        time_limit=time_limit,
        budget=budget,
        known=found.solution,
    )
    if result.status != "solved" or not result.proved:
        return None, result.generated, result.reason or "unproved"
    playout = found.level.par or 0
    level = replace(found.level, par=result.steps)
    end = replay_moves(GAME, GAME.initial(level), [GAME.move_to_json(m) for m in result.plan])
    assert end.phase == "won"
    proved = Generated(level, result.plan, found.seed, refined=result.steps < playout)
    return proved, result.generated, ""
