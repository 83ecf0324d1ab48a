"""core.algebrawl.trees.fold_up: the one bottom-up walk of card trees and card expressions."""

from __future__ import annotations

from core.algebrawl.trees import fold_up


def _kids(t: object) -> tuple:
    return t[1:] if isinstance(t, tuple) else ()


def test_fold_up_visits_children_first_left_to_right() -> None:
    # ("f", ("g", 1, 2), 3): leaves and nodes in post-order, each node given its children's values.
    seen: list[object] = []

    def combine(t: object, args: list[str]) -> str:
        seen.append(t if not isinstance(t, tuple) else t[0])
        return f"{t[0]}({','.join(args)})" if isinstance(t, tuple) else str(t)

    assert fold_up(("f", ("g", 1, 2), 3), _kids, combine) == "f(g(1,2),3)"
    assert seen == [1, 2, "g", 3, "f"]


def test_fold_up_takes_a_leaf_and_a_deep_chain() -> None:
    assert fold_up(7, _kids, lambda t, args: 1) == 1
    deep: object = 0
    for _ in range(5000):  # deeper than the recursion limit
        deep = ("s", deep)
    assert fold_up(deep, _kids, lambda t, args: args[0] + 1 if args else 0) == 5000
