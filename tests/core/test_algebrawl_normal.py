"""Normal forms: which expressions are the same solution (core.algebrawl.normal)."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.algebrawl import ADD, DIV, MUL, SUB, Card, Leaf, make_node, nf_text, normal_form, to_infix
from core.algebrawl.expr import Arg, BinOp, EvalError, Num
from core.algebrawl.normal import EQUIVALENCES, nf_value

OPS = {"+": ADD, "-": SUB, "*": MUL, "/": DIV}


def E(text: str):
    """A tiny reader for fully parenthesised test expressions: ``"((1+2)*3)"``."""
    stack: list = [[]]
    num = ""
    for ch in text.replace(" ", "") + " ":
        if ch.isdigit():
            num += ch
            continue
        if num:
            stack[-1].append(Leaf(F(int(num))))
            num = ""
        if ch == "(":
            stack.append([])
        elif ch in OPS:
            stack[-1].append(ch)
        elif ch == ")":
            left, op, right = stack.pop()
            stack[-1].append(make_node(OPS[op], (left, right)))
    (tree,) = stack[0]
    return tree


def same(a: str, b: str, equivalence: str) -> bool:
    return normal_form(E(a), equivalence) == normal_form(E(b), equivalence)


# -- hand-worked cases ---------------------------------------------------------------------

AC_SAME = [
    ("(3+5)", "(5+3)"),
    ("((3+5)+7)", "(3+(5+7))"),
    ("((3*5)*7)", "(7*(5*3))"),
    ("(9-(5-2))", "((9+2)-5)"),  # a − (b − c) = (a + c) − b
    ("((9-5)-2)", "(9-(5+2))"),  # (a − b) − c = a − (b + c)
    ("(9/(6/2))", "((9*2)/6)"),  # a ÷ (b ÷ c) = (a × c) ÷ b
    ("((9/6)/2)", "(9/(6*2))"),
    ("((9*4)/6)", "(9*(4/6))"),
    ("((2+3)-(4-1))", "((2+(3+1))-4)"),
]
AC_DIFFERENT = [
    ("((3+5)*7)", "((3*7)+(5*7))"),  # distributivity is a different solution
    ("(9-5)", "(5-9)"),
    ("((2*3)*4)", "((2+3)*4)"),
    ("(6/(3-1))", "((6/3)-1)"),
]


@pytest.mark.parametrize("a, b", AC_SAME)
def test_commutative_and_associative_variants_collapse(a, b):
    assert E(a).value == E(b).value
    for eq in EQUIVALENCES:
        assert same(a, b, eq), eq


@pytest.mark.parametrize("a, b", AC_DIFFERENT)
def test_genuinely_different_expressions_stay_apart(a, b):
    for eq in EQUIVALENCES:
        assert not same(a, b, eq), eq


def test_helper_reads_what_it_should():
    assert same("((8/2)*3)", "((8*3)/2)", "ac")
    assert to_infix(E("(9-(5-2))")) == "9 − (5 − 2)"


def test_signs():
    # (a − b) × (c − d) = (b − a) × (d − c): only with moving signs.
    a, b = "((1-5)*(2-8))", "((5-1)*(8-2))"
    assert E(a).value == E(b).value == 24
    assert not same(a, b, "ac")
    assert same(a, b, "signs") and same(a, b, "neutral")
    # e − (a − b) × c = e + (b − a) × c
    a, b = "(20-((1-3)*2))", "(20+((3-1)*2))"
    assert not same(a, b, "ac") and same(a, b, "signs")
    # ... but not the value of a genuinely different expression
    assert not same("(20-((3-1)*2))", "(20+((3-1)*2))", "signs")


def test_neutral_elements():
    # × 1 and ÷ 1 are the same, wherever they are.
    assert not same("((2*12)*1)", "((2*12)/1)", "signs")
    assert same("((2*12)*1)", "((2*12)/1)", "neutral")
    assert same("((2*12)*1)", "((2*1)*12)", "neutral")
    assert same("((2*12)*1)", "((2/1)*12)", "neutral")
    # + x − x and × x ÷ x are the same neutral pair, floating to the root.
    assert same("(((12+3)-3)*2)", "(((12*2)+3)-3)", "neutral")
    assert same("(((12*2)*3)/3)", "(((12*2)+3)-3)", "neutral")
    assert not same("(((12+3)-3)*2)", "(((12*2)+3)-3)", "signs")
    # two units make a pair: (a × 1) × 1 = (a + 1) − 1
    assert same("(((3*8)*1)*1)", "(((3*8)+1)-1)", "neutral")
    # 1 ÷ 2 keeps its 1 (it is not "÷ 2 with a spare 1")
    assert not same("(12/(1-(1/2)))", "((12/(2-1))*1)", "neutral")
    # pairs are ordered: × x ÷ y with x, y different expressions of equal value
    assert not same("((8*(1+2))/3)", "((8*3)/(1+2))", "neutral")


def test_nf_text():
    assert nf_text(normal_form(E("((1+3)*(2+4))"))) == "(1 + 3) * (2 + 4)"
    assert nf_text(normal_form(E("((2*12)*1)"))) == "2 * 12 [* 1]"
    assert nf_text(normal_form(E("(((3*8)+1)-1)"))) == "3 * 8 [+ 1 - 1]"
    assert nf_text(normal_form(E("((1-5)*6)"), "signs")) == "-(6 * (5 - 1))"
    assert nf_text(normal_form(E("(9-(5+2))"), "ac")) == "9 - 2 - 5"


def test_unknown_equivalence_is_refused():
    with pytest.raises(ValueError, match="unknown equivalence"):
        normal_form(E("(1+2)"), "magic")


def test_other_cards_are_opaque_nodes():
    avg = Card("avg", ("a", "b"), BinOp("/", BinOp("+", Arg(0, "a"), Arg(1, "b")), Num(2)))
    t1 = make_node(avg, (Leaf(F(3)), Leaf(F(5))))
    t2 = make_node(avg, (Leaf(F(5)), Leaf(F(3))))
    assert t1.value == t2.value == 4
    assert normal_form(t1) != normal_form(t2)  # avg is not declared commutative
    # an avg whose arguments are + chains: the chains inside are normalised
    t3 = make_node(avg, (E("((1+2)+3)"), Leaf(F(2))))
    t4 = make_node(avg, (E("(3+(2+1))"), Leaf(F(2))))
    assert normal_form(t3) == normal_form(t4)
    # a card that is "a + b" under another name combines like +
    plus = Card("plus", ("x", "y"), BinOp("+", Arg(0, "x"), Arg(1, "y")))
    assert normal_form(make_node(plus, (Leaf(F(1)), Leaf(F(2))))) == normal_form(E("(2+1)"))


# -- properties ----------------------------------------------------------------------------


def random_tree(rng: random.Random, leaves: list):
    """A random + − × ÷ tree over ``leaves`` (in random order), avoiding division by 0."""
    items = [Leaf(F(v)) for v in leaves]
    rng.shuffle(items)
    while len(items) > 1:
        i, j = rng.sample(range(len(items)), 2)
        a, b = items[i], items[j]
        ops = "+-*/" if b.value != 0 else "+-*"
        node = make_node(OPS[rng.choice(ops)], (a, b))
        items = [x for k, x in enumerate(items) if k not in (i, j)] + [node]
    return items[0]


def rewrite_once(rng: random.Random, tree):
    """Apply one value-preserving AC (or − / ÷ rearrangement) identity at a random node."""
    nodes = []
    stack = [(tree, ())]
    while stack:
        t, path = stack.pop()
        if not isinstance(t, Leaf):
            nodes.append(path)
            stack.extend((c, path + (i,)) for i, c in enumerate(t.children))
    path = rng.choice(nodes)
    node = tree
    for i in path:
        node = node.children[i]
    new = _identity(rng, node) or node
    return _replace(tree, path, new)


def _op(t):
    return (
        None
        if isinstance(t, Leaf)
        else {"add": "+", "sub": "-", "mul": "*", "div": "/"}[t.card.name]
    )


def _identity(rng, t):
    op, (a, b) = _op(t), t.children
    mk = lambda o, x, y: make_node(OPS[o], (x, y))  # noqa: E731
    options = []
    if op in "+*":
        options.append(lambda: mk(op, b, a))  # commutativity
        if _op(a) == op:
            options.append(lambda: mk(op, a.children[0], mk(op, a.children[1], b)))  # associativity
    for plus, minus in (("+", "-"), ("*", "/")):
        if op == minus and _op(b) == minus:  # a − (x − y) = (a + y) − x
            x, y = b.children
            options.append(lambda p=plus, m=minus, x=x, y=y: mk(m, mk(p, a, y), x))
        if op == minus and _op(a) == minus:  # (x − y) − b = x − (y + b)
            x, y = a.children
            options.append(lambda p=plus, m=minus, x=x, y=y: mk(m, x, mk(p, y, b)))
        if op == plus and _op(b) == minus:  # a + (x − y) = (a + x) − y
            x, y = b.children
            options.append(lambda p=plus, m=minus, x=x, y=y: mk(m, mk(p, a, x), y))
    if not options:
        return None
    try:
        return rng.choice(options)()
    except EvalError:
        return None


def _replace(tree, path, new):
    if not path:
        return new
    kids = list(tree.children)
    kids[path[0]] = _replace(kids[path[0]], path[1:], new)
    return make_node(tree.card, tuple(kids))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-6, 12), min_size=2, max_size=6), st.integers(0, 2**32 - 1))
def test_rewriting_by_ac_identities_never_changes_the_normal_form(numbers, seed):
    rng = random.Random(seed)
    tree = random_tree(rng, numbers)
    before = {eq: normal_form(tree, eq) for eq in EQUIVALENCES}
    for _ in range(6):
        tree2 = rewrite_once(rng, tree)
        assert tree2.value == tree.value
        tree = tree2
    for eq in EQUIVALENCES:
        assert normal_form(tree, eq) == before[eq]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-4, 9), min_size=2, max_size=5), st.integers(0, 2**32 - 1))
def test_equal_normal_forms_have_equal_values(numbers, seed):
    rng = random.Random(seed)
    a, b = random_tree(rng, numbers), random_tree(rng, numbers)
    for eq in EQUIVALENCES:
        fa, fb = normal_form(a, eq), normal_form(b, eq)
        assert nf_value(fa) == a.value and nf_value(fb) == b.value
        if fa == fb:
            assert a.value == b.value


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 9), min_size=2, max_size=5), st.integers(0, 2**32 - 1))
def test_equivalences_are_nested(numbers, seed):
    """Anything equal under a weaker equivalence is equal under every stronger one."""
    rng = random.Random(seed)
    a, b = random_tree(rng, numbers), random_tree(rng, numbers)
    same_at = [normal_form(a, eq) == normal_form(b, eq) for eq in EQUIVALENCES]
    assert same_at == sorted(same_at)


def test_fold_computes_bottom_up_in_child_order() -> None:
    """core.algebrawl.ast.fold: the shared bottom-up walk of to_infix, normal_form and
    tree_to_json; a hand-worked example (leaves left to right, each node after its children)."""
    from core.algebrawl.ast import Ast, fold

    tree = E("((1-2)*(3+4))")
    prefix = fold(tree, lambda a: str(a.value), lambda a, args: f"{a.card.name}[{','.join(args)}]")
    assert prefix == f"{MUL.name}[{SUB.name}[1,2],{ADD.name}[3,4]]"
    assert fold(tree, lambda a: a.value, lambda a, args: a.card.apply(args)) == -7
    assert fold(Leaf(F(5)), lambda a: 1, lambda a, args: 0) == 1
    # Iterative: a chain deeper than Python's recursion limit folds too.
    deep: Ast = Leaf(F(1))
    for _ in range(5000):
        deep = make_node(ADD, (deep, Leaf(F(1))))
    assert fold(deep, lambda a: 1, lambda a, args: sum(args)) == 5001
