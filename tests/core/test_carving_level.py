"""Carving levels: constructor bounds, JSON interchange form, canonical formula/operator text."""

from __future__ import annotations

import json

import pytest

from core.carving import (
    Formula,
    Operator,
    Target,
    formula_from_str,
    level_from_json,
    level_to_json,
    operator_from_str,
)
from core.carving.level import MAX_AXIOMS, MAX_TYPES, MAX_VARIABLES, LevelJSONError

BASE = {
    "types": ["s", "t"],
    "variables": {"x": "s", "y": "t"},
    "r_delta": [["s", "s", "s"], ["t", "t", "t"], ["s", "t", "t"]],
    "r_nabla": [["s", "s", "s"]],
    "root": ["D", "x", "x", "x"],
    "target": {"vertices": ["v1", "v2", "v3"], "edges": [["v1", "v2"], ["v1", "v2"], ["v2", "v3"]]},
}


def with_(**changes):
    data = json.loads(json.dumps(BASE))
    data.update(changes)
    return data


def test_json_round_trip_with_every_field():
    data = with_(
        axioms=[["D", "x", "y", "y"]],
        density="contiguous",
        new_edges="closure",
        par=4,
        title="T",
        description="d",
        hint="h",
        author="a",
    )
    level = level_from_json(data)
    assert level.axioms == (Formula("D", "x", "y", "y"),)
    assert level.type_of == {"x": "s", "y": "t"}
    assert level.target.edges == (("v1", "v2"), ("v1", "v2"), ("v2", "v3"))  # parallel kept
    assert level_to_json(level) == data
    assert level_from_json(json.loads(json.dumps(level_to_json(level)))) == level


def test_defaults_are_the_seeds_and_the_readings_are_always_written():
    # Issue 29: a level that says nothing reads Φ_dense as seed 001's subsequence and lets
    # e_new hold any well-typed formula (e_new ∈ U); the JSON form always names both, so it
    # means the same game to a reader whose defaults differ.
    level = level_from_json(BASE)
    assert level.density == "subsequence" and level.new_edges == "well_typed"
    assert level.par is None and level.axioms == ()
    assert level_to_json(level) == {**BASE, "density": "subsequence", "new_edges": "well_typed"}


def test_a_bad_new_edges_rule_names_its_key():
    with pytest.raises(LevelJSONError) as caught:
        level_from_json(with_(new_edges="anything"))
    assert caught.value.path == "new_edges" and "well_typed, closure" in str(caught.value)


@pytest.mark.parametrize(
    "data, message",
    [
        (with_(root=["D", "x", "y", "y"]), "diagonal"),
        (with_(root=["N", "y", "y", "y"]), "not well-typed"),
        (with_(root=["D", "q", "q", "q"]), "unknown variable"),
        (with_(axioms=[["N", "x", "y", "y"]]), "not well-typed"),
        (with_(axioms=[["D", "x", "x", "x"], ["D", "x", "x", "x"]]), "twice"),
        (with_(variables={"x": "u"}), "unknown type"),
        (with_(r_delta=[["s", "s"]]), "three types"),
        (with_(r_nabla=[["s", "s", "q"]]), "declared types"),
        (with_(types=[]), "1 to"),
        (with_(types=["s", "s"]), "twice"),
        (with_(types=["a b"]), "not a name"),
        (with_(target={"vertices": ["a", "b"], "edges": [["a"]]}), "2 to 5"),
        (with_(target={"vertices": ["a", "b"], "edges": [["a", "a"]]}), "twice"),
        (with_(target={"vertices": ["a", "b"], "edges": [["a", "c"]]}), "unknown vertex"),
        (with_(target={"vertices": ["a", "b", "c"], "edges": [["a", "b"]]}), "connected"),
        (with_(target={"vertices": ["a"]}), "target must be"),
        (with_(density="sparse"), "density"),
        (with_(par=-1), "par"),
        (with_(par="3"), "par"),
        (with_(title=3), "title"),
        (with_(colour="red"), "unknown level keys"),
        ({k: v for k, v in BASE.items() if k != "root"}, "no 'root'"),
        ([], "JSON object"),
    ],
)
def test_bad_levels_are_refused_with_a_clear_message(data, message):
    with pytest.raises(ValueError, match=message):
        level_from_json(data)


def test_bounds_on_sizes():
    many = [f"t{i}" for i in range(MAX_TYPES + 1)]
    with pytest.raises(ValueError, match="types"):
        level_from_json(with_(types=many))
    variables = {f"x{i}": "s" for i in range(MAX_VARIABLES + 1)}
    with pytest.raises(ValueError, match="variables"):
        level_from_json(with_(variables=variables, root=["D", "x0", "x0", "x0"]))
    names = [f"v{i}" for i in range(12)]
    axioms = [["D", "x", "y", "y"]] * (MAX_AXIOMS + 1)
    with pytest.raises(ValueError, match="axioms"):
        level_from_json(
            with_(axioms=axioms, variables={"x": "s", "y": "t", **dict.fromkeys(names, "s")})
        )


def test_a_single_vertex_target_is_connected():
    level = level_from_json(with_(target={"vertices": ["a"], "edges": []}))
    assert level.target == Target(("a",), ())


def test_canonical_strings_round_trip():
    f = Formula("N", "a", "b", "c")
    assert str(f) == "N(a,b,c)" and formula_from_str("N(a,b,c)") == f
    d = Formula("D", "x", "y", "z")
    theta = Operator(f, d, d, d, d)
    omega = Operator(d, d, d, d, f)
    assert str(theta) == "theta(N(a,b,c),D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z))"
    assert str(omega) == "omega(D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z),N(a,b,c))"
    assert operator_from_str(str(theta)) == theta and operator_from_str(str(omega)) == omega
    assert theta.kind == "theta" and omega.kind == "omega" and theta.concl == d
    assert omega.vertices() == (d, f)


@pytest.mark.parametrize(
    "text",
    [
        "D(x,y)",
        "D(x, y, z)",
        "Q(x,y,z)",
        "d(x,y,z)",
        "",
        "D(x,y,z)z",
    ],
)
def test_bad_formula_text(text):
    with pytest.raises(ValueError):
        formula_from_str(text)


@pytest.mark.parametrize(
    "text",
    [
        "theta(D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z))",  # no ∇ in front
        "omega(N(a,b,c),D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z))",  # that is a theta
        "theta(N(a,b,c),D(x,y,z),D(x,y,z),D(x,y,z))",
        "omega(D(x,y,z),D(x,y,z),D(x,y,z),D(x,y,z),N(a,b,c)",
    ],
)
def test_bad_operator_text(text):
    with pytest.raises(ValueError):
        operator_from_str(text)
