"""Triangle Carving texts: level files, formulas, operators, play scripts and JSON levels.

Values are compared with levels built by hand through the constructors; error positions
are exact (line, column, caret); printing then loading gives back every level the
constructor accepts (hypothesis).
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.carving import Formula, Level, Operator, Target, level_to_json
from core.carving.game import Construct, Extend, Finish, Succeed
from core.levelpack import MAX_TEXT, LevelFieldError
from grammar.carving import (
    load_level_json,
    parse_formula,
    parse_operator,
    parse_script,
    script_text,
)
from grammar.errors import ParseError
from grammar.levels import bundled_packs, dump_level, dump_pack, load_pack

D = lambda *v: Formula("D", *v)  # noqa: E731
N = lambda *v: Formula("N", *v)  # noqa: E731

PACK = """title "Hand made"
game carving                                ; once for every level

level "Typed" {
  description "two types"
  types [t, u]
  variables [x: t, y: u]
  r_delta [(t, t, t), (t,t,u), ( u , t , t )]   ; spaces anywhere
  r_nabla [(t, t, u), (u, t, u)]
  axioms [D(y, x, x)]
  root Δ(x,x,x)                             ; Unicode heads too
  target {
    vertices [a, b, c]
    edges [{a, b, c}, {c, a, b}]
  }
  density subsequence
  par 1
}

level "Names like keywords" {
  types [D, N, vertices]                    ; D, N are names when no "(" follows
  variables [edges: D, x: N]
  r_delta [(D, D, D)]
  r_nabla []
  root D(edges, edges, edges)
  target {vertices [edges, vertices] edges [{vertices, edges}, {edges, vertices}]}
}
"""

TYPED = Level(
    types=("t", "u"),
    variables=(("x", "t"), ("y", "u")),
    r_delta=(("t", "t", "t"), ("t", "t", "u"), ("u", "t", "t")),
    r_nabla=(("t", "t", "u"), ("u", "t", "u")),
    axioms=(D("y", "x", "x"),),
    root=D("x", "x", "x"),
    target=Target(("a", "b", "c"), (("a", "b", "c"), ("c", "a", "b"))),
    density="subsequence",
    par=1,
    title="Typed",
    description="two types",
)


def test_a_hand_written_pack_loads_with_exact_values():
    pack = load_pack(PACK, "hand.levels")
    assert pack.game == "carving" and pack.title == "Hand made"
    typed, keywords = pack.levels
    assert typed == TYPED
    assert keywords == Level(
        types=("D", "N", "vertices"),
        variables=(("edges", "D"), ("x", "N")),
        r_delta=(("D", "D", "D"),),
        r_nabla=(),
        root=D("edges", "edges", "edges"),
        target=Target(("edges", "vertices"), (("vertices", "edges"), ("edges", "vertices"))),
        title="Names like keywords",
    )
    assert load_pack(dump_pack(pack)) == pack


def test_printing_is_canonical_and_long_values_wrap():
    text = dump_level(TYPED)
    assert "  root D(x,x,x)\n" in text and "  axioms [D(y,x,x)]\n" in text
    assert "  density subsequence\n" in text and "  par 1\n" in text
    many = Level(
        types=("t",),
        variables=tuple((f"v{i}", "t") for i in range(30)),
        r_delta=(("t", "t", "t"),),
        r_nabla=(),
        root=D("v0", "v0", "v0"),
        target=Target(
            tuple(f"n{i}" for i in range(20)), tuple((f"n{i}", f"n{i + 1}") for i in range(19))
        ),
        title="Wide",
    )
    text = dump_level(many)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert load_pack(dump_pack(_pack(many))) == _pack(many)


def _pack(level: Level):
    from core.levelpack import LevelPack

    return LevelPack(title="p", levels=(level,), game="carving")


GOOD = {
    "types": "[t]",
    "variables": "[x: t]",
    "r_delta": "[(t, t, t)]",
    "r_nabla": "[(t, t, t)]",
    "root": "D(x, x, x)",
    "target": "{vertices [a] edges []}",
}


def _with(key: str, value: str) -> tuple[str, int]:
    """A good level with ``key value`` replacing (or added to) its fields, and that line's number."""
    fields = {**GOOD, key: value}
    lines = [f"  {k} {v}" for k, v in fields.items()]
    return 'game carving\nlevel "L" {\n' + "\n".join(lines) + "\n}\n", 3 + list(fields).index(key)


@pytest.mark.parametrize(
    "key, value, offset, message",
    [
        ("types", "t", 0, "types must be a list of names such as [t, u], not the word t"),
        ("types", "[t u]", 3, "unexpected 'u'"),
        ("types", "[D(x, y, z)]", 0, "types: entry 1 must be a name, not the formula D(x,y,z)"),
        ("types", "[(t, t, t)]", 0, "entry 1 must be a name, not a type triple"),
        ("types", "[t, t]", 0, "types lists 't' twice"),
        ("types", "[]", 0, "a level needs 1 to 16 types"),
        ("variables", "[x]", 0, "variables: entry 1 must be a binding like x: t, not the name x"),
        ("variables", "[x: u]", 0, "variable 'x' has an unknown type 'u'"),
        ("r_delta", "[(t, t)]", 6, "unexpected ')'"),
        ("r_nabla", "[(t, t, q)]", 0, "r_nabla: ('t', 't', 'q') is not a triple of declared types"),
        ("root", "D(x, x)", 6, "unexpected ')'"),
        ("root", "D(x, x, q)", 0, "root D(x,x,q) uses an unknown variable 'q'"),
        (
            "root",
            "[D(x, x, x)]",
            0,
            "root must be a formula such as D(x, x, x), not a list of formulas",
        ),
        ("axioms", "[N(x, x, q)]", 0, "axiom N(x,x,q) uses an unknown variable 'q'"),
        ("density", "sparse", 0, "density must be one of contiguous, subsequence, not 'sparse'"),
        ("density", "[t]", 0, "density must be contiguous or subsequence, not a list of names"),
        ("par", "-1", 0, "par must be a non-negative integer, not -1"),
        ("target", "{vertices [a, b] edges [{a}]}", 0, "target edge 1 must list 2 to 5 vertices"),
        ("target", "{vertices [a, b] edges []}", 0, "the target hypergraph must be connected"),
        ("target", "{edges [{a, b}]}", 1, "unexpected 'edges'"),
        ("target", "{vertices [a, b] edges [{a, c}]}", 0, "unknown vertex 'c'"),
    ],
)
def test_errors_point_at_the_offending_text(key, value, offset, message):
    text, line = _with(key, value)
    with pytest.raises(ParseError) as info:
        load_pack(text, "bad.levels")
    error = info.value
    column = len(f"  {key} ") + 1 + offset
    assert (error.line, error.column) == (line, column), str(error)
    assert message in error.message, str(error)
    assert error.caret_lines()[1].index("^") - 2 == column - 1


def test_unknown_and_missing_fields():
    with pytest.raises(ParseError, match="unknown field 'colour' for a carving level"):
        load_pack(_with("colour", "red")[0])
    text = 'game carving\nlevel "L" {\n  types [t]\n}\n'
    with pytest.raises(ParseError, match="missing required fields variables, r_delta"):
        load_pack(text)


def test_a_good_level_loads():
    assert load_pack(_with("par", "0")[0]).levels[0].target == Target(("a",), ())


# -- formulas, operators, scripts --------------------------------------------------------


def test_formulas_and_operators_in_every_spelling():
    assert parse_formula(" D( x ,y, z ) ") == D("x", "y", "z")
    assert parse_formula("∇(a,b,c)") == N("a", "b", "c") == parse_formula("N(a,b,c)")
    theta = Operator(
        N("a", "b", "c"), D("x", "y", "z"), D("x", "y", "z"), D("x", "y", "z"), D("x", "y", "z")
    )
    assert parse_operator(str(theta)) == theta
    assert parse_operator("Θ(∇(a,b,c), Δ(x,y,z), D(x,y,z), D(x,y,z), D(x,y,z))") == theta
    omega = Operator(*theta[1:], theta[0])
    assert parse_operator("omega(D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z),N(a,b,c))") == omega


@pytest.mark.parametrize(
    "text, column, expected",
    [
        ("theta(D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))", 7, '"N("'),
        ("omega(D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x))", 43, '"N("'),
        ("omega(D(x,x,x),D(x,x,x))", 24, '","'),
        ("theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x)) x", 53, "the end of the input"),
    ],
)
def test_operator_errors_have_a_caret_and_say_what_was_expected(text, column, expected):
    with pytest.raises(ParseError) as info:
        parse_operator(text, "<--edge>")
    error = info.value
    assert error.line == 1 and error.column == column and error.filename == "<--edge>"
    assert expected in error.expected


def test_a_blank_input_is_an_error_not_a_crash():
    with pytest.raises(ParseError, match="empty input"):
        parse_operator("   ")
    assert parse_script("  \n ; only a comment\n") == []


SCRIPT = """; a whole step
construct omega(D(y,y,y), D(y,y,y), D(y,y,y), D(y,y,y), N(x,x,x))

step theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x)) N(x,x,x)   # comments both ways
step omega(D(y,y,y),D(y,y,y),D(y,y,y),D(y,y,y),N(x,x,x)) D(y,y,y)
finish
base D(x,x,x)"""


def test_a_script_reads_into_moves_with_their_lines():
    steps = parse_script(SCRIPT, "s.txt")
    e1 = Operator(
        D("y", "y", "y"), D("y", "y", "y"), D("y", "y", "y"), D("y", "y", "y"), N("x", "x", "x")
    )
    th = Operator(N("x", "x", "x"), *[D("x", "x", "x")] * 4)
    assert [s.move for s in steps] == [
        Construct(e1),
        Extend(th, N("x", "x", "x")),
        Extend(e1, D("y", "y", "y")),
        Finish(),
        Succeed(D("x", "x", "x")),
    ]
    assert [(s.kind, s.line) for s in steps] == [
        ("construct", 2),
        ("step", 4),
        ("step", 5),
        ("finish", 6),
        ("base", 7),
    ]
    assert [s.move for s in parse_script(script_text([s.move for s in steps]))] == [
        s.move for s in steps
    ]


@pytest.mark.parametrize(
    "text, line, column",
    [
        ("construct\n", 1, 10),
        ("finish now\n", 1, 8),
        ("finish\nstep D(x,x,x)\n", 2, 6),
        ("construct theta(N(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x),D(x,x,x)) finish\n", 1, 63),
        ("jump\n", 1, 1),
    ],
)
def test_script_errors_name_the_line(text, line, column):
    with pytest.raises(ParseError) as info:
        parse_script(text, "s.txt")
    assert (info.value.line, info.value.column) == (line, column), str(info.value)


# -- JSON ----------------------------------------------------------------------------------


def test_json_levels_load_and_their_errors_say_where():
    text = json.dumps(level_to_json(TYPED), indent=2)
    assert load_level_json(text, "l.json") == TYPED
    bad = text.replace('"b",\n', "3,\n", 1)
    with pytest.raises(ParseError) as info:
        load_level_json(bad, "l.json")
    error = info.value
    assert error.message == "at target.vertices[1]: must be a string, not a number"
    assert error.source_line.strip() == "3," and error.line > 1
    with pytest.raises(ParseError) as info:
        load_level_json('{"types": ["t"],\n  "variables": {"x": "t",}}', "l.json")
    assert (info.value.line, info.value.column) == (2, 26) and "bad JSON" in info.value.message
    with pytest.raises(ParseError, match="nested too deeply"):
        load_level_json("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ParseError, match="at variables: variable 'x' has an unknown type 'v'"):
        load_level_json(text.replace('"x": "t"', '"x": "v"'))


# -- round trip ------------------------------------------------------------------------------

names = st.sampled_from(["t", "u", "D", "N", "x", "y1", "007", "_", "vertices", "edges", "theta"])


@st.composite
def carving_levels(draw):
    types = tuple(draw(st.lists(names, min_size=1, max_size=3, unique=True)))
    var_names = draw(st.lists(names, min_size=1, max_size=4, unique=True))
    variables = tuple((v, draw(st.sampled_from(types))) for v in var_names)
    triples = st.tuples(*[st.sampled_from(types)] * 3)
    r_delta = tuple(draw(st.lists(triples, max_size=4, unique=True)))
    r_nabla = tuple(draw(st.lists(triples, max_size=4, unique=True)))
    tau = dict(variables)
    diagonal = [v for v in var_names if (tau[v],) * 3 in r_delta]
    root_var = draw(st.sampled_from(diagonal)) if diagonal else None
    if root_var is None:
        r_delta += ((tau[var_names[0]],) * 3,)
        root_var = var_names[0]
    formulas = st.builds(Formula, st.sampled_from("DN"), *[st.sampled_from(var_names)] * 3).filter(
        lambda f: (tau[f.x], tau[f.y], tau[f.z]) in (r_delta if f.is_delta else r_nabla)
    )
    axioms = tuple(draw(st.lists(formulas, max_size=3, unique=True)))
    vertices = tuple(draw(st.lists(names, min_size=1, max_size=4, unique=True)))
    edges = []
    for i in range(1, len(vertices)):  # each vertex joins an earlier one: connected
        size = draw(st.integers(2, min(5, len(vertices))))
        earlier = vertices[draw(st.integers(0, i - 1))]
        others = [v for v in vertices if v not in (vertices[i], earlier)]
        edge = [vertices[i], earlier] + draw(st.permutations(others))[: size - 2]
        edges.append(tuple(draw(st.permutations(edge))))
    edges += draw(st.lists(st.sampled_from(edges), max_size=2)) if edges else []
    return Level(
        types=types,
        variables=variables,
        r_delta=r_delta,
        r_nabla=r_nabla,
        axioms=axioms,
        root=Formula(draw(st.sampled_from("D")), root_var, root_var, root_var),
        target=Target(vertices, tuple(edges)),
        density=draw(st.sampled_from(["contiguous", "subsequence"])),
        par=draw(st.none() | st.integers(0, 10_000)),
        title=draw(st.text(alphabet='Az09 "\\;{}é', min_size=1, max_size=20).filter(str.strip)),
        description=draw(
            st.text(max_size=30).filter(lambda s: not any("\ud800" <= c <= "\udfff" for c in s))
        ),
        hint=draw(st.sampled_from(["", 'a hint; with "quotes"'])),
        author=draw(st.sampled_from(["", "me"])),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(carving_levels())
def test_every_accepted_level_round_trips_through_a_level_file_and_json(level):
    pack = _pack(level)
    assert load_pack(dump_pack(pack)) == pack
    assert load_level_json(json.dumps(level_to_json(level))) == level


def test_out_of_bounds_values_are_refused_naming_the_field():
    good = dict(
        types=("t",),
        variables=(("x", "t"),),
        r_delta=(("t", "t", "t"),),
        r_nabla=(),
        root=D("x", "x", "x"),
        target=Target(("a",), ()),
    )
    for field, value in [
        ("types", ("t", "t")),
        ("variables", (("x", "q"),)),
        ("r_delta", (("t", "t"),)),
        ("root", D("x", "x", "y")),
        ("axioms", (N("x", "x", "x"),)),
        ("density", "dense"),
        ("par", -1),
        ("title", "a\nb"),
        ("description", "x" * (MAX_TEXT + 1)),  # the bound every game shares
    ]:
        with pytest.raises(LevelFieldError) as info:
            Level(**{**good, field: value})
        assert info.value.field == field


def test_bundled_packs_round_trip():
    packs = bundled_packs("carving")
    assert packs and all(pack.game == "carving" for _, pack in packs)
    for _, pack in packs:
        assert load_pack(dump_pack(pack)) == pack


def test_the_rule_readings_default_to_the_seed_and_stored_texts_keep_theirs():
    # Issue 29: a level file that says nothing reads Φ_dense as a subsequence and lets e_new
    # hold any well-typed formula (seed 001); one that says keeps what it says; a stored text
    # (custom ID, save, My levels) that says nothing was written when leaving them out meant
    # contiguous and edges over F*, and keeps that meaning.
    quiet = dump_level(TYPED).replace("  density subsequence\n", "")
    quiet = quiet.replace("  new_edges well_typed\n", "")
    assert "density" not in quiet and "new_edges" not in quiet
    level = load_pack(quiet).levels[0]
    assert (level.density, level.new_edges) == ("subsequence", "well_typed")
    stored = load_pack(quiet, stored=True).levels[0]
    assert (stored.density, stored.new_edges) == ("contiguous", "closure")
    narrow = load_pack(
        quiet.replace("  par 1", "  density contiguous\n  new_edges closure\n  par 1")
    )
    assert (narrow.levels[0].density, narrow.levels[0].new_edges) == ("contiguous", "closure")
    said = load_pack(dump_level(level), stored=True).levels[0]
    assert said == level  # the writer names both readings, so a stored text is unambiguous
    assert "  density subsequence\n  new_edges well_typed\n" in dump_level(level)


def test_a_bad_new_edges_word_is_refused_with_the_choices():
    text = dump_level(TYPED).replace("new_edges well_typed", "new_edges everything")
    with pytest.raises(ParseError) as caught:
        load_pack(text)
    assert "well_typed" in str(caught.value) and "closure" in str(caught.value)
