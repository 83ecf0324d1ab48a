"""The closure ⟨F*, E_Ω⟩ of seed 001 against a literal reading of Γ and hand-worked cases."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.carving import ClosureTooLarge, Formula, Level, Operator, Target, compute_closure

D = lambda x, y, z: Formula("D", x, y, z)  # noqa: E731
N = lambda x, y, z: Formula("N", x, y, z)  # noqa: E731
TARGET = Target(("a", "b"), (("a", "b"),))


def one_type_level(names: str, axioms=()) -> Level:
    return Level(
        types=("t",),
        variables=tuple((v, "t") for v in names),
        r_delta=(("t", "t", "t"),),
        r_nabla=(("t", "t", "t"),),
        root=D(names[0], names[0], names[0]),
        target=TARGET,
        axioms=tuple(axioms),
    )


# -- the reference: Γ read literally, instances found by enumerating all of 𝕍^6 ------------------


def naive_closure(level: Level):
    """Iterate Γ from S0 until nothing changes, enumerating every (a,b,c,x,y,z) each round.

    Returns (F*, E_Ω, dropped rotations, dropped conclusions) as sets of plain tuples.
    """
    names = level.variable_names
    wt = level.well_typed
    diag = [f for v in names for f in (D(v, v, v), N(v, v, v)) if wt(f)]
    F, P = set(diag) | set(level.axioms), set()
    while True:
        P2 = set(P)
        for a, b, c, x, y, z in product(names, repeat=6):
            d1, d2, d3 = D(a, x, y), D(b, y, z), D(c, z, x)
            if d1 in F and d2 in F and d3 in F:
                n, base = N(a, b, c), D(x, y, z)
                if n in F and wt(base):
                    P2.add(Operator(n, d1, d2, d3, base))
                if base in F and wt(n):
                    P2.add(Operator(base, d1, d2, d3, n))
        F2 = F | {e.f5 for e in P2} | {f.rotated() for f in F if wt(f.rotated())}
        if F2 == F and P2 == P:
            break
        F, P = F2, P2
    dropped_rot = {f.rotated() for f in F if not wt(f.rotated())}
    dropped_concl = set()
    for a, b, c, x, y, z in product(names, repeat=6):
        if D(a, x, y) in F and D(b, y, z) in F and D(c, z, x) in F:
            if N(a, b, c) in F and not wt(D(x, y, z)):
                dropped_concl.add(D(x, y, z))
            if D(x, y, z) in F and not wt(N(a, b, c)):
                dropped_concl.add(N(a, b, c))
    return F, P, dropped_rot, dropped_concl


@st.composite
def typed_systems(draw):
    """Small random typed languages with a few well-typed axioms."""
    types = ("s", "t")[: draw(st.integers(1, 2))]
    n = draw(st.integers(1, 4 if len(types) == 1 else 3))
    names = ("x", "y", "z", "w")[:n]
    variables = tuple((v, draw(st.sampled_from(types))) for v in names)
    triples = list(product(types, repeat=3))
    # Most systems get every diagonal triple in both relations, so that derivations happen;
    # the others exercise sparse typings (ill-typed rotations and conclusions).
    diag = [(t, t, t) for t in types] if draw(st.integers(0, 3)) else []
    r_delta = tuple(
        dict.fromkeys(diag + draw(st.lists(st.sampled_from(triples), max_size=len(triples))))
    )
    r_nabla = tuple(
        dict.fromkeys(diag + draw(st.lists(st.sampled_from(triples), max_size=len(triples))))
    )
    tau = dict(variables)
    typed = [
        Formula(h, *args)
        for h in "DN"
        for args in product(names, repeat=3)
        if (tau[args[0]], tau[args[1]], tau[args[2]]) in (r_delta if h == "D" else r_nabla)
    ]
    diagonals = [f for f in typed if f.is_diagonal]
    if not diagonals:  # the root must be a well-typed diagonal formula
        t = tau[names[0]]
        r_delta = r_delta + ((t, t, t),)
        diagonals = [D(names[0], names[0], names[0])]
        typed.append(diagonals[0])
    axioms = draw(st.lists(st.sampled_from(typed), unique=True, max_size=5))
    return Level(
        types=types,
        variables=variables,
        r_delta=r_delta,
        r_nabla=r_nabla,
        root=draw(st.sampled_from(diagonals)),
        target=TARGET,
        axioms=tuple(axioms),
    )


@settings(max_examples=120, deadline=None)
@given(typed_systems())
def test_closure_equals_naive_fixpoint(level):
    closure = compute_closure(level)
    F, P, rot, concl = naive_closure(level)
    assert closure.formulas == F
    assert closure.edges == P
    assert closure.dropped_rotations == rot
    assert closure.dropped_conclusions == concl


@settings(max_examples=30, deadline=None)
@given(typed_systems())
def test_closure_is_closed_and_well_typed(level):
    closure = compute_closure(level)
    assert all(level.well_typed(f) for f in closure.formulas)
    for e in closure.edges:
        assert e.kind is not None and set(e) <= closure.formulas


# -- hand-worked cases -----------------------------------------------------------------------------


@pytest.mark.parametrize("names", ["x", "xy", "xyz", "xyzw"])
def test_without_axioms_the_closure_is_the_diagonal_formulas(names):
    closure = compute_closure(one_type_level(names))
    assert closure.formulas == {f for v in names for f in (D(v, v, v), N(v, v, v))}
    # Each variable contributes θ = (∇x, Δx, Δx, Δx, Δx) and Ω = (Δx, Δx, Δx, Δx, ∇x).
    assert closure.edges == {
        e
        for v in names
        for e in (Operator(N(v, v, v), *[D(v, v, v)] * 4), Operator(*[D(v, v, v)] * 4, N(v, v, v)))
    }


def test_without_a_nabla_diagonal_there_are_no_edges():
    level = Level(
        types=("s", "t"),
        variables=(("x", "s"), ("y", "t")),
        r_delta=(("s", "s", "s"), ("t", "t", "t")),
        r_nabla=(("s", "s", "s"),),
        root=D("y", "y", "y"),
        target=TARGET,
    )
    closure = compute_closure(level)
    assert closure.formulas == {D("x", "x", "x"), N("x", "x", "x"), D("y", "y", "y")}
    assert len(closure.edges) == 2  # only x's θ and Ω


def test_one_axiom_worked_by_hand():
    # Δ(x,y,z) rotates to Δ(y,z,x), Δ(z,x,y). Ω on base Δ(x,y,z) needs Δ(a,x,y), Δ(b,y,z),
    # Δ(c,z,x): only a=z, b=x, c=y, giving ∇(z,x,y); the other bases give its rotations.
    # Θ on each ∇ and its triangle gives back the base.
    closure = compute_closure(one_type_level("xyz", [D("x", "y", "z")]))
    rot = [("x", "y", "z"), ("y", "z", "x"), ("z", "x", "y")]
    diag = {f for v in "xyz" for f in (D(v, v, v), N(v, v, v))}
    assert closure.formulas == diag | {D(*r) for r in rot} | {N(*r) for r in rot}
    omegas = {
        Operator(
            D("x", "y", "z"), D("z", "x", "y"), D("x", "y", "z"), D("y", "z", "x"), N("z", "x", "y")
        ),
        Operator(
            D("y", "z", "x"), D("x", "y", "z"), D("y", "z", "x"), D("z", "x", "y"), N("x", "y", "z")
        ),
        Operator(
            D("z", "x", "y"), D("y", "z", "x"), D("z", "x", "y"), D("x", "y", "z"), N("y", "z", "x")
        ),
    }
    thetas = {Operator(e.f5, e.f2, e.f3, e.f4, e.f1) for e in omegas}
    diagonal_edges = {e for e in closure.edges if all(f.is_diagonal for f in e)}
    assert len(diagonal_edges) == 6
    assert closure.edges - diagonal_edges == omegas | thetas


def test_ill_typed_rotation_is_not_added_and_is_reported():
    # R_Δ allows (s,s,t) but not its rotation (s,t,s): the axiom stays, its rotation does not.
    level = Level(
        types=("s", "t"),
        variables=(("x", "s"), ("y", "t")),
        r_delta=(("s", "s", "s"), ("s", "s", "t")),
        r_nabla=(("s", "s", "s"),),
        root=D("x", "x", "x"),
        target=TARGET,
        axioms=(D("x", "x", "y"),),
    )
    closure = compute_closure(level)
    assert D("x", "x", "y") in closure.formulas
    assert D("x", "y", "x") not in closure.formulas
    assert D("x", "y", "x") in closure.dropped_rotations


def test_limit_raises_a_value_error():
    level = one_type_level("xyzw", [D("x", "y", "z"), D("y", "z", "w"), N("x", "y", "w")])
    full = compute_closure(level)
    with pytest.raises(ClosureTooLarge):
        compute_closure(level, limit=len(full.formulas) + len(full.edges) - 1)
    assert isinstance(ClosureTooLarge("x"), ValueError)
