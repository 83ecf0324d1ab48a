"""The edge builder's model (core.carving.draft): operator shapes, hand-worked."""

from __future__ import annotations

from core.carving import GAME, Formula, Operator
from core.carving.draft import SLOT_NAMES, EdgeDraft, construct_verdict, nabla_slot
from core.carving.formula import OMEGA, THETA
from grammar.levels import bundled_packs

DX, DY = Formula("D", "x", "x", "x"), Formula("D", "y", "y", "y")
NX = Formula("N", "x", "x", "x")


def test_a_fresh_draft_is_theta_with_the_first_formula_of_each_slot() -> None:
    draft = EdgeDraft.start([DX, DY], [NX])
    assert draft.kind == THETA and nabla_slot(THETA) == 0
    assert draft.entries == (NX, DX, DX, DX, DX)
    assert draft.operator == Operator(NX, DX, DX, DX, DX)
    assert draft.operator.kind == THETA
    assert draft.choices(0) == (NX,) and draft.choices(4) == (DX, DY)
    assert SLOT_NAMES[THETA][0] == "n" and SLOT_NAMES[OMEGA][4] == "n_core"


def test_flipping_swaps_the_nabla_and_the_base_delta() -> None:
    draft = EdgeDraft.start([DX, DY], [NX]).turned(4, 1)  # d_base: DX -> DY
    assert draft is not None and draft.entries == (NX, DX, DX, DX, DY)
    omega = draft.flipped()
    # θ(n, d1, d2, d3, d_base) -> ω(d_b, d1, d2, d3, n_core): d_b = DY, n_core = NX.
    assert omega.kind == OMEGA and omega.entries == (DY, DX, DX, DX, NX)
    assert omega.operator is not None and omega.operator.kind == OMEGA
    assert nabla_slot(OMEGA) == 4 and omega.choices(4) == (NX,) and omega.choices(0) == (DX, DY)
    assert omega.flipped() == draft


def test_turning_a_slot_cycles_through_its_choices() -> None:
    draft = EdgeDraft.start([DX, DY], [NX])
    once = draft.turned(1, 1)
    assert once is not None and once.entries[1] == DY
    twice = once.turned(1, 1)
    assert twice is not None and twice.entries[1] == DX  # wraps around
    back = draft.turned(1, -1)
    assert back is not None and back.entries[1] == DY
    # The only ∇ stays itself.
    assert draft.turned(0, 1) == draft


def test_a_slot_without_formulas_leaves_the_draft_without_an_operator() -> None:
    draft = EdgeDraft.start([DX], [])  # F* has no ∇: no operator of either kind
    assert draft.entries == (None, DX, DX, DX, DX) and draft.operator is None
    assert draft.turned(0, 1) is None
    assert draft.flipped().operator is None


def test_a_start_edge_and_a_typed_one_are_shown_as_they_are() -> None:
    omega = Operator(DX, DY, DY, DY, NX)
    assert EdgeDraft.start([DX, DY], [NX], omega).entries == tuple(omega)
    assert EdgeDraft.start([DX, DY], [NX], omega).kind == OMEGA
    # Five Δ are neither Θ nor Ω: shown as Θ (the verdict says why it cannot be built).
    shapeless = Operator(DX, DX, DX, DX, DX)
    shown = EdgeDraft.start([DX], [NX]).showing(shapeless)
    assert shown.kind == THETA and shown.operator == shapeless


def test_the_verdict_of_the_first_level() -> None:
    # "First Cut": types t, variables x and y; F* holds D(x,x,x), D(y,y,y), N(x,x,x),
    # N(y,y,y); the intrinsic edges are ω(D(x..)x4, N(x..)) and ω(D(y..)x4, N(y..)).
    level = bundled_packs("carving")[0][1].levels[0]
    state = GAME.initial(level)
    ok, text = construct_verdict(state, None)
    assert not ok and text.startswith("F* has no formula of the head a slot needs")
    ok, text = construct_verdict(state, Operator(DX, DX, DX, DX, NX))
    assert not ok and "intrinsic edge" in text and text.endswith(".")
    ok, text = construct_verdict(state, Operator(NX, DY, DY, DY, DY))
    assert ok and text.endswith("you will carve an elimination path.")
    q = Formula("D", "q", "q", "q")
    ok, text = construct_verdict(state, Operator(NX, q, q, q, q))
    assert not ok and "D(q,q,q) is not a vertex" in text
