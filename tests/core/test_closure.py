"""Congruence closure (core.termcraft.closure) against a naive fixpoint written independently here."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.termcraft.closure import CongruenceClosure, ground_subterms
from core.termcraft.terms import compound, const, var
from tests.core.helpers import ref_str

# -- a naive reference: seed 000's buildClosure, with string signatures ----------------------


def _subterms(t, out):
    if t.ground:
        out[ref_str(t)] = t
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
        merge(ref_str(a), ref_str(b))
    changed = True
    while changed:
        changed = False
        sigs = {}
        for k, t in universe.items():
            if t.kind != 2 or not t.args:
                continue
            sig = t.name + "|" + str(len(t.args)) + "|" + ",".join(rep(ref_str(a)) for a in t.args)
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
            lambda x: compound(x[0], (x[1], x[2]))
        ),
    )


ground_terms = st.recursive(st.one_of(leaves, zero_ary), _extend, max_leaves=8)
any_terms = st.recursive(st.one_of(leaves, zero_ary, st.just(var("X"))), _extend, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(
    roots=st.lists(any_terms, min_size=1, max_size=4),
    pairs=st.lists(st.tuples(ground_terms, ground_terms), max_size=4),
)
@pytest.mark.slow
def test_closure_equals_naive_fixpoint(roots, pairs):
    cc = CongruenceClosure(roots, pairs)
    universe, label = naive_closure(roots, pairs)
    assert {ref_str(t) for t in cc.terms} == set(universe)
    keys = sorted(universe)
    for i, x in enumerate(keys):
        for y in keys[i:]:
            assert cc.same(universe[x], universe[y]) == (label[x] == label[y]), (x, y)
    # class_of / classes / find agree with the partition
    for x in keys:
        members = {ref_str(m) for m in cc.class_of(universe[x])}
        assert members == {y for y in keys if label[y] == label[x]}
        assert cc.class_size(universe[x]) == len(members)
        assert label[ref_str(cc.find(universe[x]))] == label[x]
    assert sum(len(c) for c in cc.classes()) == len(keys)


@settings(max_examples=100, deadline=None)
@given(
    roots=st.lists(ground_terms, min_size=1, max_size=3),
    pairs=st.lists(st.tuples(ground_terms, ground_terms), min_size=1, max_size=4),
)
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
    assert sorted(ref_str(x) for x in got) == ["a", "g(a)"]
    assert got.index(const("a")) < got.index(compound("g", (const("a"),)))


def test_deep_term_no_recursion_error():
    t = const("a")
    for _ in range(100_000):
        t = compound("s", (t,))
    cc = CongruenceClosure([t], [(compound("s", (const("a"),)), const("a"))])
    assert len(cc.classes()) == 1
    assert cc.class_size(t) == 100_001


# -- matching per class and positions per class (core.termcraft.matching) --------------------------------

from core.search import Interrupted, Watch  # noqa: E402
from core.termcraft.matching import (  # noqa: E402 - sections of this file test neighbouring modules
    HeadIndex,
    canonical_pattern,
    class_match_counts,
    class_matches,
    class_positions,
)
from core.termcraft.terms import match, substitute  # noqa: E402

patterns = st.recursive(
    st.one_of(leaves, st.sampled_from(["X", "Y"]).map(var)), _extend, max_leaves=4
)


def _naive_matches(pattern, universe, label):
    """Naive class label -> set of distinct substitutions (sorted text items), every member
    of the naive closure tried."""
    out: dict = {}
    for text, t in universe.items():
        sigma = match(pattern, t)  # core's matcher is tested against a naive one in test_terms
        if sigma is not None:
            key = tuple(sorted((n, ref_str(v)) for n, v in sigma.items()))
            out.setdefault(label[text], set()).add(key)
    return out


@settings(max_examples=300, deadline=None)
@given(
    roots=st.lists(ground_terms, min_size=1, max_size=4),
    pairs=st.lists(st.tuples(ground_terms, ground_terms), max_size=3),
    pattern=patterns,
)
def test_class_matches_equal_every_member_tried(roots, pairs, pattern):
    cc = CongruenceClosure(roots, pairs)
    universe, label = naive_closure(roots, pairs)
    roots_ = cc.root_indices()
    heads = HeadIndex(cc, [pattern])
    found = class_matches(pattern, cc, roots_, heads)
    got = {
        label[ref_str(cc.terms[r])]: {
            tuple(sorted((n, ref_str(v)) for n, v in key)) for key in subs
        }
        for r, subs in found.items()
    }
    assert got == _naive_matches(pattern, universe, label)
    for subs in found.values():
        for key, member in subs.items():  # the member kept really gives that substitution
            assert substitute(pattern, dict(key)) is member
    counts = class_match_counts(pattern, cc, roots_, heads)
    assert counts == {r: len(subs) for r, subs in found.items()}
    renamed = canonical_pattern(pattern)
    assert class_match_counts(renamed, cc, roots_, HeadIndex(cc, [renamed])) == counts


def _naive_positions(term, label):
    """Naive class label -> how many positions of ``term`` hold a member (a full walk)."""
    out: dict = {}

    def walk(t):
        if t.ground:
            key = label[ref_str(t)]
            out[key] = out.get(key, 0) + 1
        for a in t.args:
            walk(a)

    walk(term)
    return out


@settings(max_examples=300, deadline=None)
@given(term=any_terms, pairs=st.lists(st.tuples(ground_terms, ground_terms), max_size=3))
def test_class_positions_equal_a_walk(term, pairs):
    cc = CongruenceClosure([term], pairs)
    _, label = naive_closure([term], pairs)
    counts = class_positions(term, cc, cc.root_indices())
    got = {label[ref_str(cc.terms[r])]: n for r, n in counts.items()}
    assert got == _naive_positions(term, label)


def test_canonical_pattern_renames_in_order_of_first_occurrence():
    pattern = compound("f", (var("Y"), compound("g", (var("X"), var("Y")))))
    assert ref_str(canonical_pattern(pattern)) == "f(var(_0),g(var(_1),var(_0)))"
    assert canonical_pattern(const("a")) is const("a")


def test_closure_build_polls_its_watch():
    term = compound("s", tuple(compound("f", (const(f"p{i}"),)) for i in range(20_000)))
    try:
        CongruenceClosure([term], watch=Watch(should_stop=lambda: True))
    except Interrupted as stop:
        assert stop.reason == "cancelled"
    else:  # pragma: no cover - the assertion explains
        raise AssertionError("the build did not poll its watch")
