"""Triangle Carving rules, worked by hand from seed 001's definitions, and the Game protocol.

Notation in comments: Dx = Δ(x,x,x), Nx = ∇(x,x,x); θx = (Nx, Dx, Dx, Dx, Dx) and
ωx = (Dx, Dx, Dx, Dx, Nx) are x's intrinsic edges when there are no axioms.
"""

from __future__ import annotations

import json
import random

import pytest

from core.carving import Formula, Level, Operator, State, Target, level_to_json, world_of
from core.carving.game import CONSTRUCT_LIST_LIMIT, GAME, Construct, Extend, Finish, Succeed
from core.carving.hypergraph import components, isomorphic, shape_of
from core.carving.state import (
    can_finish,
    path_steps,
    succession_candidates,
    suggest_path,
    winning_component,
)
from core.game import IllegalMove, replay_moves
from tests.core.helpers import one_type_carving
from tests.game_protocol import check_game


def Dg(v):
    return Formula("D", v, v, v)


def Ng(v):
    return Formula("N", v, v, v)


def theta(n, *ds):
    return Operator(n, *ds)


def omega(*fs):
    return Operator(*fs)


def th(v):
    return Operator(Ng(v), Dg(v), Dg(v), Dg(v), Dg(v))


def om(v):
    return Operator(Dg(v), Dg(v), Dg(v), Dg(v), Ng(v))


PATH3 = Target(("a", "b", "c"), (("a", "b"), ("b", "c")))


def level(
    names="xy", target=PATH3, root="x", density="contiguous", new_edges="closure", **kw
) -> Level:
    # The narrower readings these tests were written for; the seed's are tested below.
    return one_type_carving(names, target, root, density=density, new_edges=new_edges, **kw)


def state(lvl, tree, virtual=(), base="x", phase="construct", pending=None) -> State:
    return State(world_of(lvl), frozenset(tree), frozenset(virtual), Dg(base), phase, pending)


# -- construct -----------------------------------------------------------------------------


def test_initial_state():
    s = GAME.initial(level())
    assert s.tree == {th("x"), om("x"), th("y"), om("y")} and not s.virtual
    assert s.base == Dg("x") and s.phase == "construct" and s.steps == 0
    assert GAME.status(s) == "playing" and not GAME.finished(s)


@pytest.mark.parametrize(
    "edge, message",
    [
        (th("x"), "intrinsic"),
        (omega(Dg("x"), Dg("x"), Dg("q"), Dg("x"), Ng("x")), "not in the closure"),
        (Operator(Ng("x"), Ng("x"), Dg("x"), Dg("x"), Dg("x")), "theta"),
    ],
)
def test_illegal_constructs(edge, message):
    with pytest.raises(IllegalMove, match=message):
        GAME.apply(GAME.initial(level()), Construct(edge))


def test_a_path_through_tree_edges_forces_elimination_then_succession():
    s = GAME.initial(level())
    e1 = omega(Dg("y"), Dg("y"), Dg("y"), Dg("y"), Ng("x"))  # V(e1) = {Dy, Nx}
    s = GAME.apply(s, Construct(e1))
    assert s.phase == "path" and s.pending == e1
    # From Dx only x's tree edges lead anywhere (e1 does not hold Dx).
    assert set(path_steps(s)) == {(th("x"), Ng("x")), (om("x"), Ng("x"))}
    assert not can_finish(s)
    s = GAME.apply(s, Extend(th("x"), Ng("x")))
    assert (e1, Dg("y")) in path_steps(s)
    s = GAME.apply(s, Extend(e1, Dg("y")))
    assert can_finish(s)  # Σ = (T, V): no V before the T
    s = GAME.apply(s, Finish())
    # θx and e1 are gone; Dx lost its only generating edge: succession.
    assert s.tree == {om("x"), th("y"), om("y")} and not s.virtual
    assert s.phase == "succession" and s.steps == 0
    assert succession_candidates(s) == (Dg("x"),)  # Nx, Dy, Ny still have generating edges
    with pytest.raises(IllegalMove, match="generating"):
        GAME.apply(s, Succeed(Dg("y")))
    s = GAME.apply(s, Succeed(Dg("x")))
    assert s.phase == "construct" and s.steps == 1 and s.base == Dg("x")


def test_succession_offers_every_vertex_without_generating_edge():
    s = GAME.apply(
        GAME.initial(level()), Construct(omega(Dg("y"), Dg("y"), Dg("y"), Dg("y"), Ng("x")))
    )
    # Dx -ωx-> Nx -θx-> Dx -ωx-> Nx -e1-> Dy: Σ = T T T V, removes ωx, θx and e1.
    for move in (Extend(om("x"), Ng("x")), Extend(th("x"), Dg("x")), Extend(om("x"), Ng("x"))):
        s = GAME.apply(s, move)
    s = GAME.apply(s, Extend(s.pending, Dg("y")))
    s = GAME.apply(s, Finish())
    assert s.phase == "succession"
    assert succession_candidates(s) == (Dg("x"), Ng("x"))
    s = GAME.apply(s, Succeed(Ng("x")))
    assert s.base == Ng("x") and s.phase == "construct"


def test_without_a_legal_path_the_new_edge_stays_virtual():
    s = GAME.initial(level("xyz"))
    a = omega(Dg("z"), Dg("z"), Dg("z"), Dg("z"), Ng("y"))  # far from Dx's component
    s = GAME.apply(s, Construct(a))
    assert s.phase == "construct" and s.steps == 1 and s.virtual == {a}
    assert len(s.tree) == 6 and s.base == Dg("x")


def test_naming_a_present_virtual_edge_again_adds_nothing():
    s = GAME.initial(level("xyz"))
    a = omega(Dg("z"), Dg("z"), Dg("z"), Dg("z"), Ng("y"))
    once = GAME.apply(s, Construct(a))
    twice = GAME.apply(once, Construct(a))  # E' = E_t: still no legal path, nothing changes
    assert twice.virtual == once.virtual == {a} and twice.tree == once.tree and twice.steps == 2


def test_an_edge_holding_the_base_point_can_be_removed_alone():
    s = GAME.initial(level())
    e = theta(Ng("y"), Dg("x"), Dg("x"), Dg("x"), Dg("x"))
    s = GAME.apply(s, Construct(e))
    assert suggest_path(s) == ((e, Ng("y")),)
    s = GAME.apply(GAME.apply(s, Extend(e, Ng("y"))), Finish())
    assert s.tree == GAME.initial(level()).tree and not s.virtual and s.steps == 1


# -- density: V T V T V is legal only in the contiguous reading ---------------------------------


def density_case(reading):
    lvl = level("xyz", density=reading)
    c = theta(Ng("y"), Dg("x"), Dg("x"), Dg("x"), Dg("x"))  # {Ny, Dx}
    d = omega(Dg("y"), Dg("y"), Dg("y"), Dg("y"), Ng("z"))  # {Dy, Nz}
    e = theta(Ng("x"), Dg("z"), Dg("z"), Dg("z"), Dg("z"))  # {Nx, Dz}
    # x's tree edges are gone, so from Dx the only way to e is
    # Dx -c-> Ny -T-> Dy -d-> Nz -T-> Dz -e-> Nx, whose types are V T V T V.
    return state(lvl, [th("y"), om("y"), th("z"), om("z")], [c, d]), c, d, e


def test_contiguous_reading_accepts_v_t_v_t_v():
    s, c, d, e = density_case("contiguous")
    s = GAME.apply(s, Construct(e))
    assert s.phase == "path"
    path = suggest_path(s)
    assert [edge for edge, _ in path][::2] == [c, d, e] and len(path) == 5
    for edge, to in path:
        s = GAME.apply(s, Extend(edge, to))
    s = GAME.apply(s, Finish())
    assert not s.virtual and len(s.tree) == 2  # one of θy/ωy and one of θz/ωz are gone


def test_subsequence_reading_refuses_v_t_v_t_v():
    s, _c, _d, e = density_case("subsequence")
    s = GAME.apply(s, Construct(e))
    assert e in s.virtual  # no legal path: e_new stays
    assert s.phase == "succession"  # Gen(Dx) was already empty


def test_a_step_that_breaks_density_is_refused():
    s, c, _d, e = density_case("contiguous")
    s = GAME.apply(s, Construct(e))
    for move in (Extend(c, Ng("y")), Extend(th("y"), Dg("y"))):
        s = GAME.apply(s, move)
    # V T so far; another T (to Ny) then any V would be V T T V.
    with pytest.raises(IllegalMove, match="Φ_dense"):
        GAME.apply(s, Extend(om("y"), Ng("y")))
    with pytest.raises(IllegalMove, match="does not contain"):
        GAME.apply(s, Extend(th("z"), Ng("z")))


# -- winning and losing --------------------------------------------------------------------------

FORK = Target(("a", "b", "c"), (("a", "b"), ("a", "b"), ("b", "c")))


def win_case(target):
    lvl = level("xyz", target=target)
    s = state(lvl, [th("x"), om("x"), th("y"), om("y")], base="y")
    return s, omega(Dg("z"), Dg("z"), Dg("z"), Dg("z"), Ng("x"))  # {Dz, Nx}


def test_win_by_isomorphism_with_parallel_edges():
    s, e = win_case(FORK)
    assert winning_component(s) is None
    s = GAME.apply(s, Construct(e))  # unreachable from Dy: stays, joining Dz to x's pair
    assert GAME.status(s) == "won" and GAME.finished(s) and s.steps == 1
    assert GAME.moves(s) == ()
    assert winning_component(s) == ({Dg("x"), Ng("x"), Dg("z")}, {th("x"), om("x"), e})
    with pytest.raises(IllegalMove, match="over"):
        GAME.apply(s, Construct(e))


def test_parallel_edges_count():
    s, e = win_case(PATH3)  # a path of two single edges is not the fork with a double edge
    s = GAME.apply(s, Construct(e))
    assert GAME.status(s) == "playing"


def test_isolated_vertices_are_components():
    lvl = Level(
        types=("s", "t"),
        variables=(("x", "s"), ("y", "t")),
        r_delta=(("s", "s", "s"), ("t", "t", "t")),
        r_nabla=(("s", "s", "s"),),
        root=Dg("x"),
        target=Target(("a",), ()),
    )
    s = GAME.initial(lvl)
    assert GAME.status(s) == "playing"  # the win is tested at the end of a step
    s = GAME.apply(s, Construct(theta(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Dg("y"))))
    s = GAME.apply(s, Extend(s.pending, Dg("y")))
    s = GAME.apply(s, Finish())
    assert GAME.status(s) == "won"  # Dy, alone since the start, is a component
    assert winning_component(s) == ({Dg("y")}, set())


def test_a_win_skips_succession():
    lvl = level("xyz", target=Target(("a", "b"), (("a", "b"),)))
    s = GAME.initial(lvl)
    e = theta(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Dg("z"))
    s = GAME.apply(s, Construct(e))
    for move in (Extend(th("x"), Ng("x")), Extend(e, Dg("x"))):
        s = GAME.apply(s, move)
    s = GAME.apply(s, Finish())  # θx and e removed: ωx alone is the single-edge target
    assert GAME.status(s) == "won" and s.base == Dg("x")


def test_nothing_to_construct_is_a_loss():
    lvl = Level(
        types=("t",),
        variables=(("x", "t"),),
        r_delta=(("t", "t", "t"),),
        r_nabla=(),
        root=Dg("x"),
        target=PATH3,
    )
    s = GAME.initial(lvl)
    assert GAME.status(s) == "lost" and GAME.finished(s) and GAME.moves(s) == ()
    with pytest.raises(IllegalMove):
        GAME.apply(s, Construct(th("x")))


# -- isomorphism and components ---------------------------------------------------------------


def test_isomorphism_respects_incidence_and_multiplicity():
    fork = shape_of(3, [[0, 1], [0, 1], [1, 2]])
    assert isomorphic(fork, shape_of(3, [[2, 1], [0, 1], [0, 1]]))
    assert not isomorphic(fork, shape_of(3, [[0, 1], [1, 2], [0, 2]]))
    assert not isomorphic(shape_of(3, [[0, 1, 2]]), shape_of(3, [[0, 1], [1, 2]]))
    # Same counts, sizes and degrees, different incidence: a 4-cycle vs two double edges.
    assert not isomorphic(
        shape_of(4, [[0, 1], [1, 2], [2, 3], [3, 0]]), shape_of(4, [[0, 1], [0, 1], [2, 3], [2, 3]])
    )


def test_components_include_isolated_vertices():
    comps = components(5, [(0, 1), (1, 2)])
    assert comps == [([0, 1, 2], [0, 1]), ([3], []), ([4], [])]


# -- moves, protocol and codec -----------------------------------------------------------------


def test_construct_moves_list_the_whole_small_space():
    s = GAME.initial(level())
    moves = GAME.moves(s)
    world = s.world
    assert len(moves) == world.construct_space - len(world.intrinsic) == 2 * 2 * 2**4 - 4
    assert len(set(moves)) == len(moves)
    for m in random.Random(0).sample(list(moves), 20):
        GAME.check(s, m)


def test_construct_moves_are_sampled_in_large_spaces():
    s = GAME.initial(level("abcdefg", root="a"))
    assert s.world.construct_space > CONSTRUCT_LIST_LIMIT
    moves = GAME.moves(s)
    assert 0 < len(moves) <= CONSTRUCT_LIST_LIMIT
    assert not any(m.edge in s.world.eid for m in moves)
    assert GAME.moves(s) == moves  # deterministic
    assert not next(k for k in GAME.move_kinds if k.name == "construct").enumerable


PROTOCOL_LEVELS = [
    level(),
    level("xyz", target=FORK, density="subsequence"),
    Level(
        types=("s", "t"),
        variables=(("x", "s"), ("y", "s"), ("z", "t")),
        r_delta=(("s", "s", "s"), ("t", "t", "t"), ("s", "s", "t")),
        r_nabla=(("s", "s", "s"), ("s", "t", "s")),
        root=Ng("y"),
        target=FORK,
        axioms=(Formula("D", "x", "y", "z"),),
    ),
]


@pytest.mark.parametrize("lvl", PROTOCOL_LEVELS)
def test_game_protocol(lvl):
    check_game(GAME, lvl, seeds=(0, 1), max_moves=40)


def test_random_playouts_keep_the_rules_invariants():
    rng = random.Random(7)
    for lvl in PROTOCOL_LEVELS:
        s = GAME.initial(lvl)
        for _ in range(60):
            if GAME.finished(s):
                break
            if s.phase == "succession":
                # Succession is due only when Gen(ρ) = ∅, so ρ itself is always a candidate.
                assert s.base in succession_candidates(s)
            if s.phase == "path":
                assert path_steps(s) or can_finish(s)
            assert s.virtual.isdisjoint(s.world.eid) and s.tree <= s.world.eid.keys()
            s = GAME.apply(s, rng.choice(GAME.moves(s)))


def test_state_codec_round_trip_mid_path():
    s, c, _d, e = density_case("contiguous")
    s = GAME.apply(s, Construct(e))
    s = GAME.apply(s, Extend(c, Ng("y")))
    data = json.loads(json.dumps(GAME.state_to_json(s)))
    assert data["path"] == [[str(c), "N(y,y,y)"]] and data["pending"] == str(e)
    assert data["level"] == level_to_json(s.level)
    assert GAME.state_from_json(data) == s


@pytest.mark.parametrize(
    "change, message",
    [
        ({"phase": "dancing"}, "phase"),
        ({"removed": ["theta(N(q,q,q),D(q,q,q),D(q,q,q),D(q,q,q),D(q,q,q))"]}, "not intrinsic"),
        ({"virtual": [str(th("x"))]}, "intrinsic"),
        ({"base": "D(q,q,q)"}, "not a vertex"),
        ({"pending": str(th("x"))}, "only the path phase"),
        ({"path": [["x", "y"]]}, "only the path phase"),
        ({"steps": -1}, "steps"),
        ({"phase": "succession"}, "no generating edge"),
        ({"phase": "won"}, "isomorphic"),
        ({"extra": 1}, "exactly the keys"),
    ],
)
def test_bad_state_json(change, message):
    data = GAME.state_to_json(GAME.initial(level()))
    data.update(change)
    with pytest.raises(ValueError, match=message):
        GAME.state_from_json(data)


def test_bad_path_in_state_json_is_refused():
    s, _c, _d, e = density_case("contiguous")
    data = GAME.state_to_json(GAME.apply(s, Construct(e)))
    data["path"] = [[str(th("z")), "N(z,z,z)"]]  # not at the base point
    with pytest.raises(IllegalMove):
        GAME.state_from_json(data)


def test_move_codec():
    s = GAME.initial(level())
    for move in (Construct(th("y")), Extend(th("x"), Ng("x")), Finish(), Succeed(Dg("y"))):
        data = json.loads(json.dumps(GAME.move_to_json(move)))
        assert GAME.move_from_json(s, data) == move
        assert isinstance(GAME.describe_move(s, move), str)
    bad_moves = (
        {"kind": "jump"},
        {"kind": "finish", "x": 1},
        {"kind": "construct", "edge": "D(x,x,x)"},
        "finish",
    )
    for bad in bad_moves:
        with pytest.raises(ValueError):
            GAME.move_from_json(s, bad)


def test_replay_reproduces_a_game():
    s0 = GAME.initial(level("xyz", target=FORK))
    rng, s, moves = random.Random(3), s0, []
    while len(moves) < 30 and not GAME.finished(s):
        m = rng.choice(GAME.moves(s))
        moves.append(GAME.move_to_json(m))
        s = GAME.apply(s, m)
    assert replay_moves(GAME, s0, moves) == s


# -- issue 29: e_new as seed 001 allows it (new_edges well_typed, the default) ----------------
#
# Seed 001, phase 1: "玩家指定一个超边 e_new ∈ U，要求 e_new ∉ E_Ω", and U (definition 1.3) is
# built from 𝓕, every well-typed formula, not from F*. With variables x, y of one type and no
# axioms F* is the four diagonals, so D(x,x,y) or N(x,y,y) are formulas of 𝓕 outside F*: an
# entry that is not a vertex of H_t = (F*, E_t).

TRIPLE_X = Target(("a", "b"), (("a", "b"), ("a", "b"), ("a", "b")))
"""Two vertices joined by three parallel edges."""


def Fm(head, x, y, z):
    return Formula(head, x, y, z)


def test_a_third_parallel_edge_needs_a_formula_outside_the_closure():
    # Only θx and ωx have V(e) = {Nx, Dx} among the operators over F* (any other mixes in y's
    # diagonals), so under new_edges closure the component {Nx, Dx} never has three edges. The
    # seed's U also holds θ(Nx, Dx, Dx, Dx, D(x,x,y)): V(e) ∩ F* = {Nx, Dx}. From ρ = Dy no walk
    # reaches it, so it stays virtual, and {Nx, Dx} with θx, ωx and it is H*: won in one step.
    third = theta(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Fm("D", "x", "x", "y"))
    seed = GAME.initial(level(target=TRIPLE_X, root="y", new_edges="well_typed"))
    after = GAME.apply(seed, Construct(third))
    assert after.phase == "won" and after.steps == 1 and after.virtual == {third}
    assert winning_component(after) == (
        frozenset({Ng("x"), Dg("x")}),
        frozenset({th("x"), om("x"), third}),
    )
    narrow = GAME.initial(level(target=TRIPLE_X, root="y", new_edges="closure"))
    with pytest.raises(IllegalMove, match="not in the closure"):
        GAME.apply(narrow, Construct(third))
    # Brute force over every construct the narrow rule allows: none wins in one step.
    for move in GAME.moves(narrow):
        assert GAME.apply(narrow, move).phase != "won"


def test_an_edge_of_one_vertex_is_never_eliminated_even_at_the_base():
    # θ(N(x,y,y), Dx, Dx, Dx, Dx) has one vertex, Dx = ρ: a path step joins two distinct
    # vertices of its edge (definition 3.1), so R(G, e_new) = ∅ and it stays virtual.
    lone = theta(Fm("N", "x", "y", "y"), Dg("x"), Dg("x"), Dg("x"), Dg("x"))
    s = GAME.initial(level(new_edges="well_typed"))
    assert s.world.verts_of(lone) == (s.world.vid[Dg("x")],)
    after = GAME.apply(s, Construct(lone))
    assert after.phase == "construct" and after.virtual == {lone} and after.steps == 1


def test_an_edge_of_no_vertex_joins_nothing():
    # Every entry outside F*: the edge is in E_t but no component holds it.
    ghost = theta(
        Fm("N", "x", "y", "y"), *[Fm("D", "x", "y", "y")] * 2, *[Fm("D", "y", "x", "x")] * 2
    )
    s = GAME.initial(level(new_edges="well_typed"))
    after = GAME.apply(s, Construct(ghost))
    assert after.virtual == {ghost} and after.phase == "construct"
    assert all(ghost not in edges for _, edges in components_of(after))
    assert sorted(len(vs) for vs, _ in components_of(after)) == [2, 2]


def components_of(state):
    from core.carving.state import component_listing

    return component_listing(state)


def test_two_deltas_without_a_nabla_make_an_edge_the_closure_cannot():
    # θ(N(x,y,x), Dx, Dy, Dy, Dy) joins Dx and Dy only; from ρ = Dx the walk Dx -e_new-> Dy is
    # legal (types "V"), so the step must eliminate it, and the walk may go on
    # (Dy -ωy-> Ny is "V T": still legal) to take ωy with it.
    bridge = theta(Fm("N", "x", "y", "x"), Dg("x"), Dg("y"), Dg("y"), Dg("y"))
    s = GAME.initial(level(new_edges="well_typed"))
    assert sorted(s.world.verts_of(bridge)) == sorted(s.world.vid[f] for f in (Dg("x"), Dg("y")))
    s = GAME.apply(s, Construct(bridge))
    assert s.phase == "path"
    s = GAME.apply(s, Extend(bridge, Dg("y")))
    s = GAME.apply(s, Extend(om("y"), Ng("y")))
    s = GAME.apply(s, Finish())
    assert s.tree == {th("x"), om("x"), th("y")} and not s.virtual


@pytest.mark.parametrize(
    "edge, message",
    [
        (theta(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Fm("D", "x", "x", "q")), "not a formula"),
        (theta(Ng("x"), Dg("x"), Dg("x"), Dg("x"), Fm("D", "x", "x", "u")), "ill-typed"),
    ],
)
def test_the_seed_rule_still_refuses_what_is_not_in_u(edge, message):
    two_types = Level(
        types=("t", "s"),
        variables=(("x", "t"), ("u", "s")),
        r_delta=(("t", "t", "t"), ("s", "s", "s")),
        r_nabla=(("t", "t", "t"),),
        root=Dg("x"),
        target=PATH3,
    )
    with pytest.raises(IllegalMove, match=message):
        GAME.apply(GAME.initial(two_types), Construct(edge))


def test_the_construct_space_is_u_and_decodes_without_listing():
    # |𝓕_Δ| = |𝓕_∇| = 2³ = 8 for two variables of one type: |U| = 2·8·8⁴.
    world = world_of(level(new_edges="well_typed"))
    assert world.construct_space == 2 * 8 * 8**4
    ops = {world.construct_at(j) for j in range(0, world.construct_space, 997)}
    assert all(world.construct_problem(op) is None or op in world.eid for op in ops)
    assert len(ops) == len(range(0, world.construct_space, 997))


def test_a_state_stored_before_the_readings_were_named_keeps_its_level():
    # A saved checkpoint's level JSON from before issue 29 names no reading: it meant
    # contiguous and edges over F*, while a level JSON read as a file means the seed's.
    narrow = level()
    data = GAME.state_to_json(GAME.initial(narrow))
    del data["level"]["density"], data["level"]["new_edges"]
    assert GAME.state_from_json(data).level == narrow
