"""Hash-consed terms: structure, Size, traversals, substitution and matching.

Brute-force references here are plain recursive functions over small terms,
written independently of the iterative implementations they check.
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core.termcraft.terms import (
    COMPOUND,
    CONST,
    VAR,
    compound,
    const,
    free_vars,
    is_identifier,
    match,
    positions,
    replace_at,
    substitute,
    subterm_at,
    to_json,
    to_str,
    unique_subterms,
    var,
)
from tests.core.helpers import ref_match, ref_str, ref_vars
from tests.strategies import VARS, terms

# -- independent recursive references (small inputs only) -------------------


def ref_size(t) -> int:
    return 1 + sum(ref_size(a) for a in t.args)


def ref_json(t):
    kind = {CONST: "const", VAR: "var", COMPOUND: "compound"}[t.kind]
    return {"kind": kind, "name": t.name, "args": [ref_json(a) for a in t.args]}


# -- seed 000 §3.4: Size examples ------------------------------------------


def test_seed_size_examples():
    assert const("apple").size == 1
    assert var("X").size == 1
    assert compound("pair", [const("apple"), const("green")]).size == 3
    assert compound("rev_pair", [var("Y"), var("X")]).size == 3


def test_hash_consing_gives_identity():
    a = compound("pair", [const("apple"), var("X")])
    b = compound("pair", (const("apple"), var("X")))
    assert a is b and a.id == b.id
    assert const("t") is not compound("t", [])  # t and t() are different terms
    assert const("X") is not var("X")
    assert len({a, b, const("apple")}) == 2


def test_dead_terms_leave_the_table_and_come_back_new():
    import gc

    import core.termcraft.terms as terms

    t = compound("only_here_once", [const("x"), const("y"), const("z")])
    key, first_id = (COMPOUND, "only_here_once", t.args), t.id
    assert terms.lookup(*key) is t
    del t
    gc.collect()
    assert key not in terms._nodes  # the dying node's callback removed its entry
    again = compound("only_here_once", [const("x"), const("y"), const("z")])
    assert again.id != first_id and terms.lookup(*key) is again


@settings(max_examples=60, deadline=None)
@given(terms())
def test_cached_attributes_match_a_recount(t):
    """size, ground and height, set per arity when a node is made, against a plain recount."""

    def recount(u):
        sizes = [recount(a) for a in u.args]
        return (
            1 + sum(s for s, _, _ in sizes),
            u.kind != VAR and all(g for _, g, _ in sizes),
            1 + max((h for _, _, h in sizes), default=0),
        )

    assert (t.size, t.ground, t.height) == recount(t)


def test_threads_building_the_same_terms_get_the_same_nodes():
    """Lock-free interning: of two threads making one term, both end with one node."""
    import threading

    barrier = threading.Barrier(4)
    built: list[list] = [[] for _ in range(4)]

    def build(out: list) -> None:
        barrier.wait()
        for i in range(3000):
            out.append(compound("race", [const(f"r{i % 97}"), compound("k", [const(f"s{i}")])]))

    threads = [threading.Thread(target=build, args=(out,)) for out in built]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for column in zip(*built):
        assert all(t is column[0] for t in column)
    assert len({t.id for t in built[0]}) == len(set(map(to_str, built[0])))


def test_terms_are_immutable():
    t = const("a")
    try:
        t.name = "b"  # type: ignore[misc]
    except AttributeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("a term attribute could be assigned")
    assert t.name == "a"


def test_identifiers_are_ascii_word_characters():
    assert is_identifier("green_apple") and is_identifier("x1") and is_identifier("123")
    for bad in ["", "a-b", "a b", "café", "a:b", "ä"]:
        assert not is_identifier(bad)


@given(terms())
def test_printing_matches_reference_and_size(t):
    assert to_str(t) == ref_str(t) == str(t)
    assert t.size == ref_size(t)
    assert t.ground == (not ref_vars(t))
    assert free_vars(t) == ref_vars(t)


@given(terms())
def test_json_matches_reference(t):
    assert json.loads(to_json(t)) == ref_json(t)


@given(terms())
def test_positions_address_every_node(t):
    pos = list(positions(t))
    assert len(pos) == t.size
    assert pos[0] == ((), t)
    for path, sub in pos:
        assert subterm_at(t, path) is sub
        assert replace_at(t, path, sub) is t  # replacing a node by itself changes nothing
    ground = [p for p, s in positions(t, only_ground=True)]
    assert ground == [p for p, s in pos if s.ground]


@given(terms(), st.data())
def test_replace_at_only_changes_that_position(t, data):
    pos = list(positions(t))
    path, _ = data.draw(st.sampled_from(pos))
    new = const("NEW")
    r = replace_at(t, path, new)
    assert subterm_at(r, path) is new
    for p, s in positions(t):
        if p[: len(path)] != path and path[: len(p)] != p:  # disjoint positions
            assert subterm_at(r, p) is s


def test_unique_subterms_children_first():
    t = compound("f", [compound("g", [const("a")]), compound("g", [const("a")]), const("a")])
    order = unique_subterms(t)
    assert [str(x) for x in order] == ["a", "g(a)", "f(g(a),g(a),a)"]


@given(terms(), st.dictionaries(VARS, terms(allow_vars=False, max_leaves=4)))
def test_match_recovers_substitution(p, sigma):
    inst = substitute(p, sigma)
    got = match(p, inst)
    assert got is not None
    for name in free_vars(p):
        assert got[name] is sigma.get(name, var(name))
    assert substitute(p, got) is inst


@given(terms(max_leaves=6), terms(max_leaves=8))
def test_match_agrees_with_reference(p, t):
    ours = match(p, t)
    ref = ref_match(p, t, {})
    assert (ours is None) == (ref is None)
    if ours is not None:
        assert {k: str(v) for k, v in ours.items()} == {k: ref_str(v) for k, v in ref.items()}


def test_match_examples():
    p = compound("pair", [var("X"), var("X")])
    assert match(p, compound("pair", [const("a"), const("a")])) == {"X": const("a")}
    assert match(p, compound("pair", [const("a"), const("b")])) is None
    assert match(const("a"), const("a")) == {}
    assert match(const("a"), compound("a", [])) is None


DEPTH = 100_000


def nested(depth: int, leaf):
    t = leaf
    for _ in range(depth):
        t = compound("f", [t])
    return t


def test_very_deep_terms_build_print_hash_compare():
    deep = nested(DEPTH, var("X"))
    again = nested(DEPTH, var("X"))
    assert deep is again and hash(deep) == hash(again)
    assert deep.height == DEPTH + 1 and deep.size == DEPTH + 1
    text = to_str(deep)
    assert text == "f(" * DEPTH + "var(X)" + ")" * DEPTH
    assert free_vars(deep) == {"X"}
    assert len(list(unique_subterms(deep))) == DEPTH + 1
    ground = substitute(deep, {"X": const("a")})
    assert ground.ground and ground is nested(DEPTH, const("a"))
    assert match(deep, ground) == {"X": const("a")}
    assert json.loads(to_json(const("a"))) == {"kind": "const", "name": "a", "args": []}
    assert to_json(ground).count('"compound"') == DEPTH
    assert replace_at(deep, (0,) * DEPTH, const("b")) is nested(DEPTH, const("b"))


# -- node() against the plain reference (ReferenceNodes) ------------------------------------


def _rebuild(term, build):
    """``term`` built again bottom-up through ``build(kind, name, args)`` (iteratively)."""
    from core.termcraft.terms import unique_subterms

    made = {}
    for sub in unique_subterms(term):
        made[sub] = build(sub.kind, sub.name, tuple(made[a] for a in sub.args))
    return made[term]


@given(terms())
@settings(max_examples=200, deadline=None)
def test_node_builds_what_the_plain_reference_builds(term) -> None:
    from core.termcraft.terms import ReferenceNodes, node, unique_subterms

    reference = ReferenceNodes()
    plain = _rebuild(term, reference.node)
    again = _rebuild(term, reference.node)
    assert plain is again  # the reference hash-conses too
    fast = _rebuild(term, node)
    assert fast is term  # node() returns the live term
    for mine, theirs in zip(unique_subterms(fast), unique_subterms(plain), strict=True):
        assert (mine.kind, mine.name, len(mine.args)) == (
            theirs.kind,
            theirs.name,
            len(theirs.args),
        )
        assert (mine.size, mine.ground, mine.height) == (theirs.size, theirs.ground, theirs.height)
    distinct = {id(t) for t in unique_subterms(plain)}
    assert len(reference) == len(distinct)
