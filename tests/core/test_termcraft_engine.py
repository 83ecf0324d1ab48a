"""TermCraft engine: seed 000's worked examples, pitfalls, and a brute-force action oracle."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.termcraft import (
    ConstructAction,
    IllegalMove,
    Level,
    RewriteAction,
    State,
    analyze,
    apply,
    axioms,
    construct,
    equivalence_class,
    loss_reason,
    placeholder_sites,
    result_of,
    rewrite_actions,
    rules,
    size,
    status,
    warnings,
)
from core.termcraft.terms import compound, const, var
from grammar.terms import parse_term as p
from tests.core.helpers import TERMCRAFT_SAMPLE as SAMPLE
from tests.core.helpers import TERMCRAFT_SAMPLE_TARGET as SAMPLE_TARGET
from tests.core.helpers import ref_match, ref_positions, ref_str, ref_vars


def st_(term: str, fuel: int = 5, budget: int = 0, target: str = "nothing") -> State:
    return State(p(term), p(target), fuel, budget)


def described(state: State) -> set[tuple[str, tuple, str]]:
    return {(str(a.rule), a.site, str(a.replacement)) for a in rewrite_actions(state)}


# -- seed §3.4: Size ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, n",
    [
        ("apple", 1),
        ("var(X)", 1),
        ("pair(apple,green)", 3),
        ("rev_pair(var(Y),var(X))", 3),
        ("tuple()", 1),
        ("f(g(a,b),h(c))", 6),
    ],
)
def test_size_examples(text, n):
    assert size(p(text)) == n


# -- seed §3.5: the sample level, step by step -----------------------------------------------


def test_sample_level_winning_sequence():
    level = Level("Sample", p(SAMPLE), p(SAMPLE_TARGET), fuel=2, budget=1)
    s0 = State.from_level(level)
    assert status(s0) == "playing"
    assert placeholder_sites(s0.term) == ((4, 0),)
    assert [str(r) for r in rules(s0.term)] == [
        "rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X)))",
        "rewrite(red,blue)",
    ]
    assert [str(a) for a in axioms(s0.term)] == ["equiv(apple,red)"]
    # Rule 1 at data(pair(apple,green)); rule 2 at every ground red/apple (via equiv), the
    # rule's own LHS and the axiom's sides included (sites inside rules and axioms count).
    assert described(s0) == {
        ("rewrite(pair(var(X),var(Y)),rev_pair(var(Y),var(X)))", (3, 0), "rev_pair(green,apple)"),
        ("rewrite(red,blue)", (1, 0), "blue"),
        ("rewrite(red,blue)", (2, 0), "blue"),
        ("rewrite(red,blue)", (2, 1), "blue"),
        ("rewrite(red,blue)", (3, 0, 0), "blue"),
    }
    swap = next(a for a in rewrite_actions(s0) if a.site == (3, 0))
    assert dict(swap.sigma) == {"X": p("apple"), "Y": p("green")}
    s1 = apply(s0, swap)
    assert (s1.fuel, s1.budget) == (1, 1)
    assert str(s1.term.args[3]) == "data(rev_pair(green,apple))"
    # apple -> blue through equiv(apple,red) and rewrite(red,blue)
    recolour = next(a for a in rewrite_actions(s1) if a.site == (3, 0, 1))
    assert recolour.matched is p("red")
    s2 = apply(s1, recolour)
    assert (s2.fuel, s2.budget) == (0, 1)
    assert rewrite_actions(s2) == ()
    assert status(s2) == "playing"  # a placeholder and budget are left
    s3 = construct(s2, (4, 0), p("done"))
    assert (s3.fuel, s3.budget) == (0, 0)
    assert s3.term is p(SAMPLE_TARGET)
    assert status(s3) == "won"


def test_sample_level_wrong_order_loses():
    level = Level("Sample", p(SAMPLE), p(SAMPLE_TARGET), fuel=2, budget=1)
    s = State.from_level(level)
    s = construct(s, (4, 0), p("oops"))
    waste = next(a for a in rewrite_actions(s) if a.site == (1, 0))
    s = apply(s, waste)
    s = apply(s, rewrite_actions(s)[0])
    assert s.fuel == 0 and status(s) == "lost"
    assert "fuel" in loss_reason(s)


# -- seed §3.5 pitfalls -----------------------------------------------------------------------


def test_rhs_with_unbound_variable_is_ignored_with_warning():
    t = p("s(rewrite(a,var(X)),rewrite(a,b),data(a))")
    assert [str(r) for r in rules(t)] == ["rewrite(a,b)"]
    (w,) = warnings(t)
    assert "var(X)" in w and "ignored" in w
    assert analyze(t).ignored[0].code == "rule-unbound-vars"
    assert analyze(t).ignored[0].path == (0,)


def test_equiv_with_variables_is_ignored_with_warning():
    t = p("s(equiv(a,var(X)),equiv(a,b),rewrite(b,c),d(a))")
    assert [str(x) for x in axioms(t)] == ["equiv(a,b)"]
    assert [i.code for i in analyze(t).ignored] == ["axiom-not-ground"]
    # the valid axiom still lets rewrite(b,c) fire at a
    assert ("rewrite(b,c)", (3, 0), "c") in described(State(t, p("x"), 1, 0))


def test_non_binary_rewrite_and_equiv_are_ignored_with_warnings():
    t = p("s(rewrite(a),rewrite(a,b,c),rewrite(),equiv(a),equiv(a,b,c),d(a))")
    assert rules(t) == () and axioms(t) == ()
    assert [i.code for i in analyze(t).ignored] == [
        "rule-arity",
        "rule-arity",
        "rule-arity",
        "axiom-arity",
        "axiom-arity",
    ]
    assert len(warnings(t)) == 5


def test_placeholder_must_be_a_constant():
    t = p("s(placeholder(),var(placeholder),PLACEHOLDER,placeholder,f(placeholder))")
    assert placeholder_sites(t) == ((3,), (4, 0))
    s = State(t, p("x"), 0, 5)
    with pytest.raises(IllegalMove):
        construct(s, (0,), p("a"))
    with pytest.raises(IllegalMove):
        construct(s, (1,), p("a"))


def test_whitespace_and_var_keyword_case():
    assert p(" pair( apple , green ) ") is p("pair(apple,green)")
    assert p("VAR(X)") is var("X")
    t = p("s(rewrite(f(VAR(X)),g(Var(X))),f(a))")
    assert ("rewrite(f(var(X)),g(var(X)))", (1,), "g(a)") in described(State(t, p("x"), 1, 0))


# -- equivalence / congruence ----------------------------------------------------------------


def test_congruence_makes_compound_sites_match():
    t = p("s(equiv(a,b),rewrite(f(b),done),x(f(a)))")
    acts = described(State(t, p("x"), 1, 0))
    assert ("rewrite(f(b),done)", (2, 0), "done") in acts
    assert set(equivalence_class(t, p("f(a)"))) == {p("f(a)"), p("f(b)")}


def test_substitutions_from_several_members_and_deduplication():
    # class of pair(a,c) = {pair(a,c), pair(a,d)} via equiv(c,d): X=a twice -> one action;
    # rule 2 binds Y to c and to d -> two actions at the same site.
    t = p(
        "s(equiv(c,d),rewrite(pair(var(X),c),l(var(X))),rewrite(pair(a,var(Y)),r(var(Y))),"
        "w(pair(a,c),pair(a,d)))"
    )
    acts = [a for a in rewrite_actions(State(t, p("x"), 1, 0)) if a.site == (3, 0)]
    r1 = [a for a in acts if a.rule.path == (1,)]
    r2 = [a for a in acts if a.rule.path == (2,)]
    assert [str(a.replacement) for a in r1] == ["l(a)"]
    assert sorted(str(a.replacement) for a in r2) == ["r(c)", "r(d)"]


def test_variable_lhs_matches_every_ground_site_only():
    # the root holds a variable, so it is not a site; the ground RHS z is one
    t = p("rewrite(var(X),z)")
    got = described(State(t, p("x"), 1, 0))
    assert got == {("rewrite(var(X),z)", (1,), "z")}


def test_a_rule_can_rewrite_itself():
    # sites inside rules count: the LHS `a` of the rule is itself a site
    t = p("s(rewrite(a,b))")
    s1 = apply(State(t, p("x"), 2, 0), rewrite_actions(State(t, p("x"), 2, 0))[0])
    assert s1.term is p("s(rewrite(b,b))")


def test_non_ground_positions_are_not_sites():
    t = p("s(rewrite(f(var(X)),g),f(var(Y)),f(a))")
    sites = {a.site for a in rewrite_actions(State(t, p("x"), 1, 0))}
    assert sites == {(2,)}


# -- resources, illegal moves, win and loss --------------------------------------------------


def test_fuel_zero_means_no_rewrite_actions():
    s = st_("s(rewrite(a,b),a)", fuel=0)
    assert rewrite_actions(s) == ()
    action = rewrite_actions(st_("s(rewrite(a,b),a)", fuel=1))[0]
    with pytest.raises(IllegalMove, match="fuel"):
        apply(s, action)
    assert status(s) == "lost"


def test_rewrite_costs_one_fuel_and_replaces_the_site():
    s = st_("s(rewrite(a,b),d(a))", fuel=3, budget=2)
    a = next(x for x in rewrite_actions(s) if x.site == (1, 0))
    assert result_of(s, a) is p("s(rewrite(a,b),d(b))")
    s2 = apply(s, a)
    assert (s2.term, s2.fuel, s2.budget) == (p("s(rewrite(a,b),d(b))"), 2, 2)


def test_foreign_rewrite_action_is_rejected():
    s = st_("s(rewrite(a,b),d(a))")
    other = rewrite_actions(st_("s(rewrite(a,b),d(c,a))"))[-1]
    with pytest.raises(IllegalMove):
        apply(s, other)


def test_construct_budget_checks():
    s = st_("d(placeholder,placeholder)", fuel=0, budget=3)
    with pytest.raises(IllegalMove, match="Size 4"):
        construct(s, (0,), p("f(a,g(b))"))
    s1 = construct(s, (0,), p("f(a,b)"))  # Size 3 == budget: allowed
    assert (s1.term, s1.budget) == (p("d(f(a,b),placeholder)"), 0)
    assert status(s1) == "lost"  # placeholder left, but no budget and no fuel
    with pytest.raises(IllegalMove, match="ground"):
        construct(s, (1,), p("f(var(X))"))
    with pytest.raises(IllegalMove):
        construct(s, (), p("a"))  # root is not a placeholder
    with pytest.raises(IllegalMove):
        construct(s, (7,), p("a"))  # no such position
    s2 = apply(s, ConstructAction((1,), p("a")))
    assert (s2.term, s2.budget) == (p("d(placeholder,a)"), 2)


def test_win_is_checked_before_loss():
    s = st_("done", fuel=0, budget=0, target="done")
    assert status(s) == "won"
    assert loss_reason(s) is None


def test_loss_requires_no_rewrite_and_no_construct():
    assert status(st_("d(placeholder)", fuel=0, budget=1)) == "playing"
    assert status(st_("d(placeholder)", fuel=3, budget=0)) == "lost"
    assert status(st_("s(rewrite(a,b),a)", fuel=1, budget=0)) == "playing"
    # the LHS q is a ground site itself, so this is still playing (faithful to the seed)
    assert status(st_("s(rewrite(q,b),a)", fuel=1, budget=0)) == "playing"
    assert status(st_("s(rewrite(f(var(X)),b),a)", fuel=1, budget=0)) == "lost"
    assert "no rule matches" in loss_reason(st_("s(rewrite(f(var(X)),b),a)", fuel=1))
    assert "no valid rewrite rule" in loss_reason(st_("s(rewrite(a),a)", fuel=1))


def test_state_and_level_validate_resources():
    with pytest.raises(ValueError):
        State(p("a"), p("b"), -1, 0)
    with pytest.raises(ValueError):
        Level("t", p("a"), p("b"), 0, -2)


# -- brute-force oracle: every ground position x every class member x every valid rule --------


def _subst(t, sigma):
    if t.kind == 1:
        return sigma[t.name]
    return compound(t.name, [_subst(a, sigma) for a in t.args]) if t.kind == 2 else t


def _naive_classes(term):
    """Seed's CalculateEquivalenceRelation with a repeat-until-no-change loop."""
    universe = {ref_str(t): t for _, t in ref_positions(term) if t.ground}
    pairs = [
        (t.args[0], t.args[1])
        for _, t in ref_positions(term)
        if t.kind == 2
        and t.name == "equiv"
        and len(t.args) == 2
        and t.args[0].ground
        and t.args[1].ground
    ]
    label = {k: k for k in universe}

    def rep(k):
        while label[k] != k:
            k = label[k]
        return k

    for a, b in pairs:
        ra, rb = rep(ref_str(a)), rep(ref_str(b))
        if ra != rb:
            label[ra] = rb
    changed = True
    while changed:
        changed = False
        sig = {}
        for k, t in universe.items():
            if t.kind == 2 and t.args:
                key = (t.name, len(t.args), tuple(rep(ref_str(a)) for a in t.args))
                if key in sig and rep(sig[key]) != rep(k):
                    label[rep(k)] = rep(sig[key])
                    changed = True
                sig.setdefault(key, k)
    return {k: [universe[j] for j in universe if rep(j) == rep(k)] for k in universe}


def brute_force_actions(term):
    classes = _naive_classes(term)
    valid_rules = [
        (path, t.args[0], t.args[1])
        for path, t in ref_positions(term)
        if t.kind != 1
        and t.name == "rewrite"
        and len(t.args) == 2
        and ref_vars(t.args[1]) <= ref_vars(t.args[0])
    ]
    found = set()
    for rpath, lhs, _rhs in valid_rules:
        for site, sub in ref_positions(term):
            if not sub.ground:
                continue
            for member in classes[ref_str(sub)]:
                sigma = ref_match(lhs, member, {})
                if sigma is not None:
                    found.add((rpath, site, frozenset((k, ref_str(v)) for k, v in sigma.items())))
    return found


names = st.sampled_from(["a", "b", "c"])
leaf = st.one_of(names.map(const), st.sampled_from(["X", "Y"]).map(var), st.just(compound("a", ())))


def _grow(children):
    return st.one_of(
        st.tuples(st.sampled_from(["f", "g"]), children).map(lambda x: compound(x[0], (x[1],))),
        st.tuples(st.sampled_from(["f", "pair"]), children, children).map(
            lambda x: compound(x[0], (x[1], x[2]))
        ),
    )


small = st.recursive(leaf, _grow, max_leaves=4)
ground_small = small.filter(lambda t: t.ground)
items = st.one_of(
    st.tuples(small, small).map(lambda x: compound("rewrite", x)),
    st.tuples(ground_small, ground_small).map(lambda x: compound("equiv", x)),
    st.tuples(small, small).map(lambda x: compound("equiv", x)),
    small.map(lambda x: compound("rewrite", (x,))),
    ground_small.map(lambda x: compound("data", (x,))),
)
levels = st.lists(items, min_size=1, max_size=6).map(lambda xs: compound("puzzle_state", xs))


@settings(max_examples=250, deadline=None)
@given(term=levels)
def test_rewrite_actions_equal_brute_force(term):
    acts = rewrite_actions(State(term, const("zzz"), 1, 0))
    got = [(a.rule.path, a.site, frozenset((k, ref_str(v)) for k, v in a.sigma)) for a in acts]
    assert len(got) == len(set(got))  # substitutions de-duplicated per (rule, site)
    assert set(got) == brute_force_actions(term)
    for a in acts:
        assert a.replacement.ground
        assert ref_match(a.rule.lhs, a.matched, {}) is not None
        assert ref_str(a.replacement) == ref_str(_subst(a.rule.rhs, dict(a.sigma)))
        # the matched member is equivalent to the site's subterm
        sub = term
        for i in a.site:
            sub = sub.args[i]
        assert a.matched in equivalence_class(term, sub)


def test_actions_order_rule_then_site():
    t = p("s(rewrite(a,b),rewrite(var(X),c),d(a),a)")
    acts = rewrite_actions(State(t, p("x"), 1, 0))
    rule_paths = [a.rule.path for a in acts]
    assert rule_paths == sorted(rule_paths)
    sites = [a.site for a in acts if a.rule.path == (1,)]
    assert sites == sorted(sites)
    assert isinstance(acts[0], RewriteAction)


# -- deep terms: linear-time walks, no RecursionError ------------------------------------------


def test_deep_term_actions_and_sites():
    deep = const("a")
    for _ in range(100_000):
        deep = compound("s", (deep,))
    deep = compound("s", (const("placeholder"), deep))
    term = compound("puzzle", (p("rewrite(s(a),done)"), deep))
    state = State(term, p("x"), 1, 1)
    acts = rewrite_actions(state)
    # the rule's own LHS s(a) at (0, 0), and the innermost s(a) of the chain
    assert [len(a.site) for a in acts] == [2, 100_001]
    nxt = apply(state, acts[1])
    assert nxt.fuel == 0
    assert placeholder_sites(term) == ((1, 0),)
    assert status(state) == "playing"


def test_identifier_pitfalls_are_parse_errors():
    from grammar.errors import ParseError

    with pytest.raises(ParseError):
        p("green-apple")
    with pytest.raises(ParseError):
        p("pair(a:b,c)")
    assert p("green_apple") is const("green_apple")


def test_no_move_is_legal_once_won():
    """The win ends the game: the engine itself refuses rewrites and constructs after it."""
    import pytest

    from core.termcraft import ConstructAction, IllegalMove, State, apply, rewrite_actions, status
    from grammar.terms import parse_term

    term = parse_term("s(rewrite(a,b),a,placeholder)")
    won = State(term, term, fuel=3, budget=3)
    assert status(won) == "won"
    assert rewrite_actions(won)  # moves exist syntactically (rule sites are still there) ...
    with pytest.raises(IllegalMove, match="already won"):
        apply(won, rewrite_actions(won)[0])  # ... but none may be played
    with pytest.raises(IllegalMove, match="already won"):
        apply(won, ConstructAction((2,), parse_term("c")))
    playing = State(term, parse_term("s(rewrite(a,b),b,placeholder)"), fuel=3, budget=3)
    assert status(apply(playing, rewrite_actions(playing)[-1])) == "won"
