"""TermCraft level linter: each check fires on the case it is about, and only there."""

from __future__ import annotations

from core.termcraft import Level, lint
from grammar.terms import parse_term as p
from tests.core.helpers import TERMCRAFT_SAMPLE as SAMPLE
from tests.core.helpers import TERMCRAFT_SAMPLE_TARGET as SAMPLE_TARGET


def codes(level: Level, **kw) -> list[str]:
    return [i.code for i in lint(level, **kw)]


def test_sample_level_is_clean_and_solvable():
    issues = lint(Level("Sample", p(SAMPLE), p(SAMPLE_TARGET), 2, 1, par=3))
    assert [(i.severity, i.code) for i in issues] == [("info", "solvable")]
    assert "3 move" in issues[0].message


def test_ignored_rules_and_axioms_are_reported_with_paths():
    level = Level(
        "x",
        p("s(rewrite(a,var(X)),rewrite(a),equiv(a,var(Y)),equiv(a),rewrite(a,b),d(a))"),
        p("s(rewrite(a,var(X)),rewrite(a),equiv(a,var(Y)),equiv(a),rewrite(a,b),d(b))"),
        1,
        0,
    )
    issues = lint(level)
    got = [(i.code, i.path) for i in issues if i.severity == "warning"]
    assert got == [
        ("rule-unbound-vars", (0,)),
        ("rule-arity", (1,)),
        ("axiom-not-ground", (2,)),
        ("axiom-arity", (3,)),
    ]
    assert "solvable" in codes(level)


def test_placeholder_misuse():
    level = Level("x", p("s(rewrite(a,b),d(placeholder()),d(var(placeholder)),a)"), p("b"), 1, 0)
    got = codes(level, run_solver=False)
    assert "placeholder-compound" in got and "placeholder-var" in got


def test_already_won_and_no_actions():
    assert codes(Level("x", p("a"), p("a"), 0, 0))[0] == "already-won"
    assert codes(Level("x", p("d(a)"), p("d(b)"), 0, 0))[0] == "no-actions"


def test_unreachable_resources():
    got = codes(Level("x", p("s(rewrite(a,b),a)"), p("s(rewrite(a,b),b)"), 1, 3))
    assert "budget-unused" in got
    got = codes(Level("x", p("d(placeholder,a)"), p("d(b,a)"), 2, 0))
    assert "placeholder-no-budget" in got and "fuel-unused" in got


def test_unsolvable_and_unknown():
    level = Level(
        "x", p("s(rewrite(a,b),rewrite(b,a),a)"), p("s(rewrite(a,b),rewrite(b,a),c)"), 5, 0
    )
    issues = lint(level)
    assert issues[0].severity == "error" and issues[0].code == "unsolvable"
    grow = Level("x", p("s(rewrite(var(X),g(var(X),var(X))),a)"), p("nope"), 30, 0)
    assert "solver-unknown" in codes(grow, max_states=50)


def test_par_checks():
    base = dict(title="S", current=p(SAMPLE), target=p(SAMPLE_TARGET), fuel=2, budget=1)
    assert "par-too-low" in codes(Level(**base, par=2))
    assert "par-above-optimal" in codes(Level(**base, par=5))


def test_errors_come_first():
    level = Level("x", p("s(rewrite(a),d(a))"), p("s(rewrite(a),d(a))"), 0, 2)
    sev = [i.severity for i in lint(level)]
    assert sev == sorted(sev, key=("error", "warning", "info").index)
    assert sev[0] == "error"


def test_compound_named_var_is_flagged():
    """var(f(x)) is legal (a compound named var) but rewriting can make it print as var(x)."""
    from core.termcraft import Level, lint
    from core.termcraft.terms import compound, const, to_str, var

    risky = compound("var", [compound("f", [const("x")])])
    level = Level("v", compound("s", [risky, const("a")]), const("a"), fuel=1, budget=0)
    codes = [i.code for i in lint(level, run_solver=False)]
    assert codes.count("var-compound") == 1
    # the ambiguity it warns about: the ground compound var(x) prints like the variable x
    assert to_str(compound("var", [const("x")])) == to_str(var("x"))
    clean = Level("c", compound("s", [const("a")]), const("b"), fuel=1, budget=0)
    assert "var-compound" not in [i.code for i in lint(clean, run_solver=False)]
