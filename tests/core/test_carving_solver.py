"""Generator and solver: generated levels are won by their own solution in par steps, and par
is optimal (the solver, run differently, finds no shorter plan; a brute force over the game's
own moves finds no one-step win when par > 1)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.carving import Formula, Level, Operator, Target, level_from_json, level_to_json, world_of
from core.carving.game import GAME, Construct, Extend, Finish, Succeed
from core.carving.generator import generate
from core.carving.solver import hint, solve
from core.game import replay_moves
from tests.core.helpers import one_type_carving

SMALL = (
    [(2, 2, seed) for seed in range(4)]
    + [(2, 3, seed) for seed in range(3)]
    + [(3, 2, 0), (3, 2, 1)]
)


def generated(variables, steps, seed):
    # Bounded by states only: the same level on a busy machine as on an idle one.
    return generate(seed, variables=variables, steps=steps, max_states=3000, time_limit=None)


@pytest.mark.parametrize("variables, steps, seed", SMALL)
def test_generated_level_is_won_by_its_solution_at_par(variables, steps, seed):
    g = generated(variables, steps, seed)
    level = g.level
    assert level.par is not None and level.par >= 1
    assert level_from_json(level_to_json(level)) == level
    start = GAME.initial(level)
    assert GAME.status(start) == "playing"
    end = replay_moves(GAME, start, [GAME.move_to_json(m) for m in g.solution])
    assert GAME.status(end) == "won" and end.steps == level.par
    assert len(level.target.edges) >= 2


@pytest.mark.parametrize("variables, steps, seed", SMALL)
def test_par_is_not_beaten_by_the_solver(variables, steps, seed):
    level = generated(variables, steps, seed).level
    # Without symmetry reduction: a different search than the one the generator used.
    result = solve(level, symmetry=False, max_states=50_000, time_limit=600, budget=None)
    assert result.status == "solved" and result.steps == level.par
    end = replay_moves(GAME, GAME.initial(level), [GAME.move_to_json(m) for m in result.plan])
    assert GAME.status(end) == "won" and end.steps == level.par


def one_step_wins(level, max_walk=4) -> bool:
    """Brute force over the game's own moves: can one time step win? (Walks up to max_walk.)"""
    stack = [(GAME.apply(GAME.initial(level), m), 0) for m in GAME.moves(GAME.initial(level))]
    while stack:
        state, walked = stack.pop()
        if GAME.status(state) == "won":
            return True
        if state.phase != "path" and state.phase != "succession":
            continue  # the step is over without a win (or lost)
        for move in GAME.moves(state):
            if isinstance(move, Extend) and walked >= max_walk:
                continue
            stack.append((GAME.apply(state, move), walked + isinstance(move, Extend)))
    return False


def test_one_step_brute_force_agrees_with_par():
    level = generated(2, 2, 0).level
    assert level.par == 2 and not one_step_wins(level)
    # The same brute force does find one-step wins: the target read off after one step.
    easy = generate(0, variables=2, steps=1, min_edges=1, refine=False).level
    assert easy.par == 1 and one_step_wins(easy)


# -- hand-made cases -----------------------------------------------------------------------------


def Dg(v):
    return Formula("D", v, v, v)


def Ng(v):
    return Formula("N", v, v, v)


FORK = Target(("a", "b", "c"), (("a", "b"), ("a", "b"), ("b", "c")))


def one_type(names, target=FORK, root="x"):
    return one_type_carving(names, target, root)


def test_the_fork_takes_two_steps():
    # Start: three pairs Dv =θv,ωv= Nv, base Dx. A fork needs a virtual edge to stay, hanging
    # on a pair: one step cannot do it (an edge that stays touches only y and z, giving a
    # 4-vertex component; a removed one only thins x's pair). Two steps can: remove θx, ωx
    # and e_new = {Nx, Dx, Dy} by Dx -θx-> Nx -ωx-> Dx -e-> Dy (T T V), pick the isolated Nx
    # as base, then construct {Dx, Ny}: unreachable from Nx, it stays and hangs Dx on y's pair.
    level = one_type("xyz")
    result = solve(level)
    assert result.status == "solved" and result.steps == 2
    end = replay_moves(GAME, GAME.initial(level), [GAME.move_to_json(m) for m in result.plan])
    assert GAME.status(end) == "won" and end.steps == 2
    assert solve(level, symmetry=False).steps == 2
    by_hand = [
        Construct(Operator(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Dg("y"))),
        Extend(Operator(Ng("x"), *[Dg("x")] * 4), Ng("x")),
        Extend(Operator(*[Dg("x")] * 4, Ng("x")), Dg("x")),
        Extend(Operator(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Dg("y")), Dg("y")),
        Finish(),
        Succeed(Ng("x")),
        Construct(Operator(Dg("x"), Dg("x"), Dg("x"), Dg("x"), Ng("y"))),
    ]
    end = replay_moves(GAME, GAME.initial(level), [GAME.move_to_json(m) for m in by_hand])
    assert GAME.status(end) == "won" and end.steps == 2


def test_solving_from_the_middle_of_a_step():
    level = one_type("xyz")
    s = GAME.apply(
        GAME.initial(level), Construct(Operator(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Dg("y")))
    )
    assert s.phase == "path"
    result = solve(s)
    assert result.status == "solved" and isinstance(result.plan[0], (Extend, Finish))
    end = replay_moves(GAME, s, [GAME.move_to_json(m) for m in result.plan])
    assert GAME.status(end) == "won"
    move = hint(s)
    assert move == result.plan[0]
    GAME.check(s, move)


def test_nothing_to_construct_is_unsolvable():
    level = Level(
        types=("t",),
        variables=(("x", "t"),),
        r_delta=(("t", "t", "t"),),
        r_nabla=(("t", "t", "t"),),
        root=Dg("x"),
        target=FORK,
    )
    assert world_of(level).construct_space == 2  # θx and Ω x, both intrinsic
    assert solve(level).status == "unsolvable"


def test_limits_and_cancellation_give_unknown(ticking_clock):
    level = one_type("xyzw", target=Target(("a", "b", "c"), (("a", "b"), ("b", "c"), ("a", "c"))))
    limited = solve(level, max_states=50)
    assert limited.status == "unknown" and limited.reason == "state limit" and not limited.plan
    calls = []
    cancelled = solve(level, should_stop=lambda: calls.append(1) or len(calls) > 3)
    assert cancelled.status == "unknown" and cancelled.reason == "cancelled"
    ticking_clock.reads = 0
    timed = solve(level, time_limit=0.05)  # 50 reads of the ticking clock
    assert timed.status == "unknown" and ticking_clock.reads <= 200, ticking_clock.reads
    # The clock can run out inside one expansion (cut short): still the time limit, not
    # "truncated".
    assert timed.reason == "time limit"


def test_vertex_sets_and_their_realisations():
    from core.carving.solver import realisations, vertex_sets

    world = world_of(replace(one_type("xyz"), new_edges="closure"))
    sets = list(vertex_sets(world))
    assert len(sets) == 3 * (3 + 3 + 1)  # one ∇ of three, and 1, 2 or 3 of the three Δ
    surjections = {1: 1, 2: 14, 3: 36}  # maps from four slots onto k formulas
    for vset in sets:
        ops = list(realisations(world, vset))
        k = len(vset) - 1
        assert len(ops) == len(set(ops)) == 2 * surjections[k]
        for op in ops:
            assert op.kind is not None and sorted(world.vid[f] for f in set(op)) == list(vset)


def test_vertex_sets_with_formulas_outside_the_closure():
    # new_edges well_typed (seed 001: e_new ∈ U): F* of x, y, z is the six diagonals, and
    # e.g. D(x,y,z) or N(x,y,z) lie outside it, so an edge may also join one ∇ alone
    # (its Δ outside), Δ without ∇ (1 to 3 of them), or nothing.
    from core.carving.solver import realisations, vertex_sets

    world = world_of(one_type("xyz"))
    sets = list(vertex_sets(world))
    assert len(sets) == len(set(sets)) == 3 * (3 + 3 + 1) + 3 + (1 + 3 + 3 + 1)
    for vset in sets:
        ops = [op for op, _ in zip(realisations(world, vset), range(50), strict=False)]
        assert len(ops) == len(set(ops)) >= 2
        for op in ops:
            assert op.kind is not None
            assert world.construct_problem(op) is None or op in world.eid
            assert sorted(world.verts_of(op)) == list(vset)
