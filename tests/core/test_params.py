"""core.params (issue 31): a parameter declared once reads, stores and spells its values.

Hand-worked examples on a small declaration, the two games' real declarations, and a
hypothesis round trip: any values the declaration holds are stored and read back unchanged.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.game2048.generators import PARAMS as PARAMS_2048
from core.longcat.catalog import BAND_RANGES, GENERATORS
from core.longcat.params import BAND_LABELS, GENERATOR_PARAMS, METHOD
from core.params import Param, Params

SIZE = Param("size", 4, "Side.", choices=((3, "3"), (4, "4"), (5, "5")), low=2, high=9)
RULE = Param("rule", "a", "Rule.", choices=(("a", "A"), ("b", "B")), flag="--merge")
FAST = Param("fast", False, "Fast.", id_text=int)
HEAT = Param("heat", 0.5, "Heat.", low=0.0, high=1.0, generators=("hot",))
TOY = Params([SIZE, RULE, FAST, HEAT], renames={"board_size": "size"})


def test_reading_a_persons_text() -> None:
    assert SIZE.read("7") == 7  # the range, not the offered choices, bounds the text
    assert HEAT.read(" 0.25 ") == 0.25
    assert RULE.read("b") == "b"
    assert FAST.read("yes") is True and FAST.read("0") is False
    with pytest.raises(ValueError, match="between 2 and 9, not '10'"):
        SIZE.read("10")
    with pytest.raises(ValueError, match="whole number"):
        SIZE.read("4.5")
    with pytest.raises(ValueError, match="one of a, b"):
        RULE.read("c")
    with pytest.raises(ValueError, match="give a number"):
        HEAT.read("nan")


def test_stored_settings_load_leniently_under_old_names() -> None:
    old = {"board_size": 5, "rule": "z", "fast": 1, "heat": True, "gone": 3}
    # board_size is size's old name; "z" is no rule; 1 is yes (as an ID writes it); a bool
    # is no number; unknown keys are dropped.
    assert TOY.from_dict(old) == {"size": 5, "rule": "a", "fast": True, "heat": 0.5}
    assert TOY.from_dict({"size": 7}) == TOY.defaults()  # 7 is no offered size
    assert TOY.from_dict(None) == TOY.defaults()
    assert TOY.from_dict({"heat": 1}) == {**TOY.defaults(), "heat": 1.0}


def test_validate_is_strict() -> None:
    assert TOY.validate({"board_size": 3}) == {**TOY.defaults(), "size": 3}
    with pytest.raises(ValueError, match="no parameter 'speed'"):
        TOY.validate({"speed": 1})
    with pytest.raises(ValueError, match="rule cannot be 'c'"):
        TOY.validate({"rule": "c"})


def test_id_form_and_declaration() -> None:
    values = {**TOY.defaults(), "fast": True}
    assert TOY.id_params(values, "cold") == {"size": 4, "rule": "a", "fast": 1}
    assert TOY.id_params(values, "hot") == {"size": 4, "rule": "a", "fast": 1, "heat": 0.5}
    assert TOY.id_declaration() == (("size", 4), ("rule", "a"), ("fast", 0))


def test_a_declaration_refuses_a_name_twice() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        Params([SIZE, SIZE])
    with pytest.raises(ValueError, match="renamed to no parameter"):
        Params([SIZE], renames={"old": "new"})


def test_longcat_declaration_agrees_with_the_catalog() -> None:
    assert METHOD.values == tuple(GENERATORS)
    assert set(BAND_LABELS) == set(BAND_RANGES)
    band = GENERATOR_PARAMS["band"]
    assert (band.option, band.short) == ("--difficulty", "-d")
    assert band.read("Very hard") == "very_hard" and band.read(" 20:50 ") == "20:50"
    assert GENERATOR_PARAMS["size"].read("12 × 10") == "12x10"
    assert GENERATOR_PARAMS.id_params(GENERATOR_PARAMS.defaults(), "rl") == {
        "size": "8x8",
        "band": "any",
        "unique": 0,
        "temperature": "0.3",
    }
    with pytest.raises(ValueError, match="from 0 to 1"):
        GENERATOR_PARAMS["temperature"].read("2")


def test_2048_settings_written_before_the_declaration_load() -> None:
    old = {"board_size": 6, "merge": "fibonacci", "animate": False}
    assert PARAMS_2048.from_dict(old) == {"size": 6, "rule": "fibonacci"}


def _values(params: Params) -> st.SearchStrategy[dict[str, object]]:
    """Any values the declaration holds (a yes/no, an offered choice, a number in range)."""

    def one(p: Param) -> st.SearchStrategy[object]:
        if p.kind is bool:
            return st.booleans()
        if p.values:
            return st.sampled_from(p.values)
        return st.floats(p.low, p.high)

    return st.fixed_dictionaries({p.name: one(p) for p in params})


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_stored_values_read_back_unchanged(data: st.DataObject) -> None:
    for params in (TOY, GENERATOR_PARAMS + Params([METHOD]), PARAMS_2048):
        values = data.draw(_values(params))
        assert params.from_dict(params.to_dict(values)) == values
        assert params.validate(values) == values


def test_the_generators_defaults_are_the_declarations() -> None:
    """The generators' own keyword defaults (what a source without parameters gets) are the
    declared ones, in ID form."""
    import inspect

    from core.game2048.generators import GENERATORS as NEW_GAMES
    from core.longcat.catalog import LevelMaker

    for function, params in (
        (LevelMaker.generate, GENERATOR_PARAMS),
        (type(NEW_GAMES["new"]).generate, PARAMS_2048),
    ):
        signature = inspect.signature(function).parameters
        for name, default in params.id_declaration():
            assert signature[name].default == default, name
