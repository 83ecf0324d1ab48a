"""History: undo/redo against a plain list-and-cursor model."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.history import History


def test_hand_worked_sequence() -> None:
    h = History.start("a")
    assert h.current == "a" and not h.can_undo and not h.can_redo
    h = h.push("b").push("c")
    assert h.current == "c" and h.moves == 2
    h = h.undo()
    assert h.current == "b" and h.can_redo
    h = h.undo()
    assert h.current == "a" and not h.can_undo
    assert h.undo() is h  # No-op returns the same object.
    h = h.redo()
    assert h.current == "b"
    # Pushing after an undo drops the redo branch ("c").
    h = h.push("d")
    assert list(h.states) == ["a", "b", "d"] and not h.can_redo
    assert h.redo() is h
    assert list(h) == ["a", "b", "d"]
    assert h.reset().current == "a" and len(h.reset()) == 1


def test_immutable() -> None:
    h = History.start(1)
    h2 = h.push(2)
    assert h.current == 1 and h2.current == 2
    with pytest.raises(AttributeError):
        h.index = 5  # type: ignore[misc]


def test_bounded_drops_oldest() -> None:
    h = History.start(0, max_len=3)
    for value in range(1, 6):
        h = h.push(value)
    assert h.states == (3, 4, 5) and h.current == 5
    h = h.undo().undo()
    assert h.current == 3 and not h.can_undo


@pytest.mark.parametrize(
    "states, index, max_len",
    [((), 0, 10), ((1,), 1, 10), ((1,), -1, 10), ((1, 2, 3), 0, 2), ((1,), 0, 0)],
)
def test_invalid_construction(states: tuple[int, ...], index: int, max_len: int) -> None:
    with pytest.raises(ValueError):
        History(states, index, max_len)


def test_states_must_be_tuple() -> None:
    with pytest.raises(TypeError):
        History([1, 2], 0)  # type: ignore[arg-type]


operations = st.lists(
    st.one_of(st.tuples(st.just("push"), st.integers(0, 99)), st.just(("undo",)), st.just(("redo",))),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(ops=operations, max_len=st.integers(1, 8))
def test_matches_list_model(ops: list[tuple], max_len: int) -> None:
    """Compare with a straightforward mutable list + cursor implementation."""
    model, cursor = [-1], 0
    h = History.start(-1, max_len=max_len)
    for op in ops:
        if op[0] == "push":
            del model[cursor + 1 :]
            model.append(op[1])
            if len(model) > max_len:
                del model[0]
            cursor = len(model) - 1
            h = h.push(op[1])
        elif op[0] == "undo":
            cursor = max(0, cursor - 1)
            h = h.undo()
        else:
            cursor = min(len(model) - 1, cursor + 1)
            h = h.redo()
        assert list(h.states) == model
        assert h.index == cursor
        assert h.current == model[cursor]
        assert h.can_undo == (cursor > 0)
        assert h.can_redo == (cursor < len(model) - 1)
