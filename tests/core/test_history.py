"""History: undo/redo against a plain list-and-cursor model; nothing is ever dropped."""

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
    assert list(h) == ["a", "b", "d"] and h.initial == "a" and len(h) == 3


def test_immutable() -> None:
    h = History.start(1)
    h2 = h.push(2)
    assert h.current == 1 and h2.current == 2
    with pytest.raises(AttributeError):
        h.index = 5  # type: ignore[misc]


def test_a_long_game_keeps_every_state() -> None:
    """Regression: History used to drop states beyond 10,000, truncating saved games."""
    h = History.start(0)
    for value in range(1, 25_001):
        h = h.push(value)
    assert h.states == tuple(range(25_001)) and h.moves == 25_000
    for _ in range(25_000):
        h = h.undo()
    assert h.current == 0 and not h.can_undo and h.can_redo and len(h) == 25_001


operations = st.lists(
    st.one_of(
        st.tuples(st.just("push"), st.integers(0, 99)), st.just(("undo",)), st.just(("redo",))
    ),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(ops=operations)
def test_matches_list_model(ops: list[tuple]) -> None:
    """Compare with a straightforward mutable list + cursor implementation."""
    model, cursor = [-1], 0
    h = History.start(-1)
    for op in ops:
        if op[0] == "push":
            del model[cursor + 1 :]
            model.append(op[1])
            cursor = len(model) - 1
            h = h.push(op[1])
        elif op[0] == "undo":
            cursor = max(0, cursor - 1)
            h = h.undo()
        else:
            cursor = min(len(model) - 1, cursor + 1)
            h = h.redo()
        assert list(h.states) == model
        assert list(h) == model[: cursor + 1]
        assert h.index == cursor and len(h) == len(model)
        assert h.current == model[cursor]
        assert h.can_undo == (cursor > 0)
        assert h.can_redo == (cursor < len(model) - 1)
