"""The work budget of :class:`core.search.Watch`: counted work, not time."""

from __future__ import annotations

import pytest

from core.search import Interrupted, Watch


def test_spend_stops_after_the_budget_and_says_why():
    watch = Watch(budget=10)
    for _ in range(10):
        watch.spend()
    assert watch.spent == 10 and watch.budget_left == 0
    with pytest.raises(Interrupted) as stopped:
        watch.spend()
    assert stopped.value.reason == "budget"


def test_spend_counts_units_and_no_budget_never_stops():
    watch = Watch(budget=100)
    watch.spend(60)
    assert watch.budget_left == 40
    with pytest.raises(Interrupted):
        watch.spend(41)
    free = Watch()
    free.spend(10**9)
    assert free.budget_left is None and free.spent == 10**9
