"""core.search: the Watch (deadline, cancel, progress), quiet_gc, and bfs limits that hold
inside an expansion, not only between expansions."""

from __future__ import annotations

import gc
import time

import pytest

from core.search import NO_WATCH, Interrupted, KeyVisited, Watch, bfs, quiet_gc


def test_watch_cancel_limit_and_progress():
    NO_WATCH.poll("anything", 1, 2)  # never raises
    flag = []
    watch = Watch(should_stop=lambda: bool(flag))
    watch.poll()
    flag.append(1)
    with pytest.raises(Interrupted) as stop:
        watch.poll()
    assert stop.value.reason == "cancelled"
    with pytest.raises(Interrupted) as late:
        Watch(time_limit=0.0).poll()
    assert late.value.reason == "limit"
    seen = []
    watch = Watch(progress=lambda *args: seen.append(args), interval=0.05)
    watch.poll("a", 1, 10)  # too early: the first report waits one interval
    time.sleep(0.06)
    watch.poll("b", 2, 10)
    watch.poll("c", 3, 10)  # throttled
    assert seen == [("b", 2, 10)]
    assert watch.elapsed >= 0.06


def test_quiet_gc_pauses_and_restores():
    assert gc.isenabled()
    with quiet_gc():
        assert not gc.isenabled()
        with quiet_gc():  # nested: still paused, and the outer one restores
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(ValueError), quiet_gc():
        raise ValueError
    assert gc.isenabled()
    with quiet_gc(10):  # small work: not worth the collection that follows a pause
        assert gc.isenabled()


def _slow_successors(n: int, delay: float):
    """One huge expansion: n successors of the start, each taking ``delay`` seconds."""

    def successors(state):
        if state != 0:
            return
        for i in range(1, n + 1):
            time.sleep(delay)
            yield i, i

    return successors


def test_time_limit_holds_inside_one_expansion(monkeypatch):
    """The watch's clock ticks 1 ms per read (on any machine): the 0.1 s limit falls after
    100 reads, in the middle of the first state's 10,000 successors."""
    import types

    import core.search

    reads = []

    def ticking() -> float:
        reads.append(None)
        return len(reads) / 1000

    monkeypatch.setattr(core.search, "time", types.SimpleNamespace(monotonic=ticking))
    found = bfs(0, _slow_successors(10_000, 0.0), lambda s: False, time_limit=0.1)
    assert found.status == "limit" and found.explored == 1
    assert found.generated < 200 and len(reads) <= 200, (found.generated, len(reads))


def test_cancel_holds_inside_one_expansion():
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 50

    found = bfs(0, _slow_successors(10_000, 0.0), lambda s: False, should_stop=stop)
    assert found.status == "cancelled" and 40 <= found.generated <= 60


def test_interrupted_from_successors_ends_the_search():
    def successors(state):
        raise Interrupted("limit")
        yield  # pragma: no cover

    assert bfs(0, successors, lambda s: False).status == "limit"


def test_weight_cap():
    # A line 0 -> 1 -> 2 ... where state i weighs i: stops once the kept total passes 10.
    found = bfs(
        0, lambda s: [(s + 1, s + 1)], lambda s: False, weight=lambda a, s: s, max_weight=10
    )
    # Kept: 1+2+3+4 = 10; state 5 takes the total to 15 > 10 (generated counts the start).
    assert found.status == "limit" and found.generated == 6 and found.explored == 5
    solved = bfs(
        0,
        lambda s: [(s + 1, s + 1)],
        lambda s: s == 3,
        weight=lambda a, s: s,
        max_weight=10,
        visited=KeyVisited(),
    )
    assert solved.status == "solved" and solved.plan == (1, 2, 3)
