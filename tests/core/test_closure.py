"""Congruence closure (core.closure) against a naive fixpoint written independently here."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from core.closure import CongruenceClosure, ground_subterms
from core.terms import compound, const, var

# -- a naive reference: seed 000's buildClosure, with string signatures ----------------------


def _text(t) -> str:
    if t.kind == 0:
        return t.name
    if t.kind == 1:
        return "var(" + t.name + ")"
    return t.name + "(" + ",".join(_text(a) for a in t.args) + ")"


def _subterms(t, out):
    if t.ground:
        out[_text(t)] = t
    for a in t.args:
        _subterms(a, out)


def naive_closure(roots, pairs):
    """Map every ground subterm text to a class label, by repeat-until-no-change."""
    universe = {}
    for r in roots:
        _subterms(r, universe)
    for a, b in pairs:
        _subterms(a, universe)
        _subterms(b, universe)
    label = {k: k for k in universe}

    def rep(k):
        while label[k] != k:
            k = label[k]
        return k

    def merge(a, b):
        ra, rb = rep(a), rep(b)
        if ra != rb:
            label[ra] = rb
            return True
        return False

    for a, b in pairs:
        merge(_text(a), _text(b))
    changed = True
    while changed:
        changed = False
        sigs = {}
        for k, t in universe.items():
            if t.kind != 2 or not t.args:
                continue
            sig = t.name + "|" + str(len(t.args)) + "|" + ",".join(rep(_text(a)) for a in t.args)
            if sig in sigs:
                changed |= merge(sigs[sig], k)
            else:
                sigs[sig] = k
    return universe, {k: rep(k) for k in universe}


# -- strategies --------------------------------------------------------------------------------

leaves = st.sampled_from(["a", "b", "c", "d"]).map(const)
zero_ary = st.sampled_from(["a", "t"]).map(lambda n: compound(n, ()))


def _extend(children):
    return st.one_of(
        st.tuples(st.sampled_from(["f", "g"]), children).map(lambda x: compound(x[0], (x[1],))),
        st.tuples(st.sampled_from(["f", "h"]), children, children).map(
            lambda x: compound(x[0], (x[1], x[2]))),
    )


ground_terms = st.recursive(st.one_of(leaves, zero_ary), _extend, max_leaves=8)
any_terms = st.recursive(st.one_of(leaves, zero_ary, st.just(var("X"))), _extend, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(roots=st.lists(any_terms, min_size=1, max_size=4),
       pairs=st.lists(st.tuples(ground_terms, ground_terms), max_size=4))
def test_closure_equals_naive_fixpoint(roots, pairs):
    cc = CongruenceClosure(roots, pairs)
    universe, label = naive_closure(roots, pairs)
    assert {_text(t) for t in cc.terms} == set(universe)
    keys = sorted(universe)
    for i, x in enumerate(keys):
        for y in keys[i:]:
            assert cc.same(universe[x], universe[y]) == (label[x] == label[y]), (x, y)
    # class_of / classes / find agree with the partition
    for x in keys:
        members = {_text(m) for m in cc.class_of(universe[x])}
        assert members == {y for y in keys if label[y] == label[x]}
        assert cc.class_size(universe[x]) == len(members)
        assert label[_text(cc.find(universe[x]))] == label[x]
    assert sum(len(c) for c in cc.classes()) == len(keys)


@settings(max_examples=100, deadline=None)
@given(roots=st.lists(ground_terms, min_size=1, max_size=3),
       pairs=st.lists(st.tuples(ground_terms, ground_terms), min_size=1, max_size=4))
def test_incremental_union_equals_batch(roots, pairs):
    batch = CongruenceClosure(roots, pairs)
    inc = CongruenceClosure(roots)
    for a, b in pairs:
        inc.union(a, b)
        inc.rebuild()
    for x in batch.terms:
        for y in batch.terms:
            assert batch.same(x, y) == inc.same(x, y)


def test_congruence_propagates_upwards():
    a, b = const("a"), const("b")
    fa, fb = compound("f", (a,)), compound("f", (b,))
    gfa, gfb = compound("g", (fa, a)), compound("g", (fb, b))
    cc = CongruenceClosure([gfa, gfb], [(a, b)])
    assert cc.same(fa, fb) and cc.same(gfa, gfb)
    assert not cc.same(a, fa)
    assert set(cc.class_of(gfa)) == {gfa, gfb}


def test_constant_and_zero_ary_compound_are_different():
    t0, tc = compound("t", ()), const("t")
    cc = CongruenceClosure([compound("p", (t0, tc))])
    assert not cc.same(t0, tc)


def test_chain_of_unions_through_congruence():
    # f^n(a) with f(a) = a collapses the whole chain into one class.
    a = const("a")
    chain = [a]
    for _ in range(50):
        chain.append(compound("f", (chain[-1],)))
    cc = CongruenceClosure([chain[-1]], [(chain[1], a)])
    assert len(cc.classes()) == 1


def test_ground_subterms_skips_variables_but_keeps_ground_parts():
    t = compound("f", (var("X"), compound("g", (const("a"),))))
    got = ground_subterms([t])
    assert sorted(_text(x) for x in got) == ["a", "g(a)"]
    assert got.index(const("a")) < got.index(compound("g", (const("a"),)))


def test_deep_term_no_recursion_error():
    t = const("a")
    for _ in range(100_000):
        t = compound("s", (t,))
    cc = CongruenceClosure([t], [(compound("s", (const("a"),)), const("a"))])
    assert len(cc.classes()) == 1
    assert cc.class_size(t) == 100_001
