"""Background work runs in Textual's workers (issue 22): one hint at a time, cancellation
through the worker (x / esc / leaving), failures shown in one line while the arcade goes on,
and game screens extend their bases through declared hooks, never private methods."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from textual.worker import Worker, WorkerState

import tui.games.termcraft.screen as termcraft_screen
from core import registry
from core.search import Interrupted
from tests.tui.helpers import open_level, play_first_level
from tests.tui.test_termcraft_screen import SIZE, big_level, open_first_level
from tui.app import ArcadeApp
from tui.games.termcraft.screen import TermCraftScreen
from tui.screens.designer import DesignerScreen
from tui.screens.puzzle import HINT_GROUP, Hint, MessageBar, PuzzleScreen
from tui.workers import cancelled, failure_line

GAME_ID = "termcraft"

pytestmark = pytest.mark.pilot


async def until(pilot: Any, condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Let the app run until ``condition()`` holds (fails after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        await pilot.pause(0.02)


def workers_of(app: ArcadeApp, group: str) -> list[Worker[Any]]:
    """The app's live workers of ``group``."""
    return [worker for worker in app.workers if worker.group == group]


def in_worker_thread() -> bool:
    """True in a worker's thread (the UI thread runs some of the same code briefly)."""
    return threading.current_thread() is not threading.main_thread()


def hold_until_cancelled(saw_stop: threading.Event) -> Callable[[Callable[[], bool]], None]:
    """A wait that ends when ``should_stop()`` says so (then sets ``saw_stop``), or after
    20 s (then ``saw_stop`` stays clear and the test fails)."""

    def hold(should_stop: Callable[[], bool]) -> None:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if should_stop():
                saw_stop.set()
                return
            time.sleep(0.005)

    return hold


def endless_count_in_workers(started: threading.Event, stopped: threading.Event) -> Any:
    """A ``count_rewrite_actions`` that never ends in a worker until it is cancelled (on the
    UI thread it gives up at the synchronous budget's deadline, as the real one would)."""

    def count(state: Any, watch: Any) -> int:
        if in_worker_thread():
            started.set()
        try:
            while True:
                watch.poll("count", 0, 0)
                time.sleep(0.005)
        except Interrupted:
            if in_worker_thread():
                stopped.set()
            raise

    return count


@pytest.fixture
def endless_count(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event]:
    """TermCraft's screen counts with :func:`endless_count_in_workers`: its (started, stopped)."""
    started, stopped = threading.Event(), threading.Event()
    monkeypatch.setattr(
        termcraft_screen, "count_rewrite_actions", endless_count_in_workers(started, stopped)
    )
    return started, stopped


async def open_while_counting(pilot: Any, started: threading.Event) -> Any:
    """Open a level large enough to count its actions in a worker; return its screen once
    the count has started."""
    screen = await open_level(pilot, GAME_ID, big_level(5_000))
    await until(pilot, started.is_set)
    return screen


def test_cancelled_is_false_outside_a_worker() -> None:
    assert cancelled() is False


def test_failure_line_is_one_line() -> None:
    assert failure_line("The hint", ValueError("no\nway  out")) == (
        "The hint failed: ValueError: no way out"
    )
    assert failure_line("The hint", KeyError()) == "The hint failed: KeyError"
    assert failure_line("The hint", None) == "The hint failed."


async def test_a_second_hint_request_cancels_the_first(monkeypatch) -> None:
    """Exclusive group: the first worker is cancelled, its thread sees it, and only the
    second hint is shown."""
    first_saw_stop = threading.Event()
    hold = hold_until_cancelled(first_saw_stop)
    calls: list[Any] = []

    def compute_hint(self, state, should_stop, time_limit):
        calls.append(state)
        if len(calls) == 1:
            hold(should_stop)
            return Hint("the first hint (stale)")
        return Hint("the second hint")

    monkeypatch.setattr(TermCraftScreen, "compute_hint", compute_hint)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        screen.request_hint()
        [first] = workers_of(app, HINT_GROUP)
        await until(pilot, lambda: len(calls) == 1)  # the first is thinking
        assert screen.hint_running
        screen.request_hint()
        assert first.is_cancelled
        [second] = [w for w in workers_of(app, HINT_GROUP) if w is not first]
        await until(pilot, lambda: second.is_finished and first_saw_stop.is_set())
        await pilot.pause()
        assert first.state == WorkerState.CANCELLED
        assert second.state == WorkerState.SUCCESS
        assert screen.last_message == "the second hint"
        assert not screen.hint_running


async def test_a_move_cancels_the_hint_of_the_previous_position(monkeypatch) -> None:
    saw_stop = threading.Event()
    hold = hold_until_cancelled(saw_stop)

    def compute_hint(self, state, should_stop, time_limit):
        hold(should_stop)
        return Hint("a hint about the old position")

    monkeypatch.setattr(TermCraftScreen, "compute_hint", compute_hint)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        screen.request_hint()
        [worker] = workers_of(app, HINT_GROUP)
        await pilot.press("enter")  # plays the highlighted action
        assert screen.session.moves_made == 1
        await until(pilot, saw_stop.is_set)
        await pilot.pause()
        assert worker.state == WorkerState.CANCELLED
        assert "old position" not in screen.last_message


async def test_x_cancels_a_termcraft_count_and_its_worker_ends_cancelled(
    endless_count: tuple[threading.Event, threading.Event],
) -> None:
    started, stopped = endless_count
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_while_counting(pilot, started)
        [count] = workers_of(app, "termcraft-count")
        assert count.state == WorkerState.RUNNING
        await pilot.press("x")
        assert count.is_cancelled
        await until(pilot, stopped.is_set)  # the thread saw the cancellation and ended
        await pilot.pause()
        assert count.state == WorkerState.CANCELLED
        assert "count cancelled" in screen.query_one("#tc-side").border_title
        assert screen.last_message.startswith("Cancelled the count")
        assert not workers_of(app, "termcraft-count")


async def test_leaving_termcraft_cancels_its_workers(
    endless_count: tuple[threading.Event, threading.Event],
) -> None:
    """Whatever closes the screen (here: dismissed, as the palette's commands do), Textual
    cancels the screen's workers and their threads stop."""
    started, stopped = endless_count
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_while_counting(pilot, started)
        [count] = workers_of(app, "termcraft-count")
        screen.dismiss(None)
        await until(pilot, stopped.is_set)
        assert count.is_cancelled and count.state == WorkerState.CANCELLED
        assert app.screen is not screen


async def test_esc_stops_the_work_then_goes_back(
    endless_count: tuple[threading.Event, threading.Event],
) -> None:
    started, stopped = endless_count
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_while_counting(pilot, started)
        await pilot.press("escape")
        await until(pilot, stopped.is_set)
        assert app.screen is screen and "esc again goes back" in screen.last_message
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not screen


async def test_leaving_a_game_cancels_its_hint(monkeypatch) -> None:
    """The base's way back (esc) cancels the hint worker of any game."""
    saw_stop, thinking = threading.Event(), threading.Event()
    hold = hold_until_cancelled(saw_stop)
    info = registry.get("carving")
    screen_class = info.load("screen")

    def compute_hint(self, state, should_stop, time_limit):
        thinking.set()
        hold(should_stop)
        return Hint("too late")

    monkeypatch.setattr(screen_class, "compute_hint", compute_hint)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await play_first_level(pilot, "carving")
        assert isinstance(screen, screen_class)
        screen.request_hint()
        [worker] = workers_of(app, HINT_GROUP)
        await until(pilot, thinking.is_set)
        screen.action_back()
        await until(pilot, saw_stop.is_set)
        assert worker.is_cancelled and app.screen is not screen


async def test_a_failing_hint_shows_one_line_and_the_game_goes_on(monkeypatch, caplog) -> None:
    def compute_hint(self, state, should_stop, time_limit):
        raise ValueError("the solver\nbroke")

    monkeypatch.setattr(TermCraftScreen, "compute_hint", compute_hint)
    app = ArcadeApp()
    with caplog.at_level(logging.ERROR, logger="termarcade.tui"):
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_first_level(pilot)
            await pilot.press("t")  # the level's hint
            await pilot.press("t")  # the solver: it raises in the worker
            await until(pilot, lambda: "failed" in screen.last_message)
            assert screen.last_message == "The hint failed: ValueError: the solver broke"
            assert "Traceback" not in str(screen.query_one(MessageBar).render())
            assert app.is_running and app.screen is screen
            await pilot.press("enter")  # the game goes on
            assert screen.session.moves_made == 1
    [record] = [r for r in caplog.records if r.name == "termarcade.tui"]
    assert record.exc_info is not None and record.exc_info[0] is ValueError


async def test_a_failing_count_says_so_and_the_list_stays(monkeypatch, caplog) -> None:
    def failing_count(state, watch):
        if not in_worker_thread():
            raise Interrupted("limit")  # the UI thread's attempt: out of time
        raise MemoryError("too many actions")

    monkeypatch.setattr(termcraft_screen, "count_rewrite_actions", failing_count)
    app = ArcadeApp()
    with caplog.at_level(logging.ERROR, logger="termarcade.tui"):
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_level(pilot, GAME_ID, big_level(5_000))
            await until(pilot, lambda: "count failed" in screen.query_one("#tc-side").border_title)
            assert screen.last_message == (
                "Counting the actions failed: MemoryError: too many actions"
            )
            before = screen.state
            await pilot.press("enter")
            assert screen.state is not before and app.is_running
    assert any(r.exc_info and r.exc_info[0] is MemoryError for r in caplog.records)


async def test_a_failing_analysis_says_so(monkeypatch) -> None:
    def failing_first_page(state, watch):
        if not in_worker_thread():
            raise Interrupted("limit")  # the UI thread's attempt: out of time
        raise RuntimeError("no analysis")

    monkeypatch.setattr(termcraft_screen, "first_page", failing_first_page)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_first_level(pilot)
        await until(pilot, lambda: "failed" in screen.last_message)
        assert screen.last_message == ("Analysing the position failed: RuntimeError: no analysis")
        assert app.is_running and app.screen is screen


def _private_methods_of(base: type) -> set[str]:
    """The base's own private names (``_x``, not ``__x__``), without those Textual gives
    every subclass (CSS, bindings, reactives)."""
    automatic = set(vars(type("Probe", (base,), {})))
    return {
        name
        for name in vars(base)
        if name.startswith("_") and not name.startswith("__") and name not in automatic
    }


def test_no_game_overrides_a_private_method_of_its_base() -> None:
    """Screens and editors extend their bases through declared hooks (issue 22)."""
    bases = (PuzzleScreen, DesignerScreen)
    private = {base: _private_methods_of(base) for base in bases}
    assert "_refresh_all" in private[PuzzleScreen]  # the probe finds real ones
    checked = 0
    for info in registry.games():
        for part in ("screen", "editor"):
            if getattr(info, part) is None:
                continue
            cls = info.load(part)
            base = next(b for b in bases if issubclass(cls, b))
            for klass in cls.__mro__[: cls.__mro__.index(base)]:
                overridden = private[base] & set(vars(klass))
                assert not overridden, f"{klass.__qualname__} overrides {sorted(overridden)}"
            checked += 1
    assert checked >= 10  # five games, each with a screen and an editor


async def test_a_failing_editor_job_shows_one_line_and_the_editor_stays(monkeypatch) -> None:
    import tui.games.termcraft.dev_panel as dev_panel

    def failing_solve(level, **options):
        raise RuntimeError("the solver\nbroke")

    monkeypatch.setattr(dev_panel, "solve", failing_solve)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        await pilot.press("E")
        await pilot.pause()
        bench = app.screen
        assert isinstance(bench, DesignerScreen)
        await pilot.press("f4")
        await until(pilot, lambda: bool(bench.result_text))
        assert bench.result_text == "The job failed: RuntimeError: the solver broke"
        assert app.screen is bench and app.is_running
        assert not bench.query_one("#dev-progress").has_class("-running")


async def test_cancel_drops_the_editor_job_and_its_thread_stops(monkeypatch) -> None:
    import tui.games.termcraft.dev_panel as dev_panel
    from core.termcraft import solve as real_solve

    saw_stop, solving = threading.Event(), threading.Event()
    hold = hold_until_cancelled(saw_stop)

    def slow_solve(level, should_stop, **options):
        solving.set()
        hold(should_stop)
        return real_solve(level, should_stop=should_stop, **options)

    monkeypatch.setattr(dev_panel, "solve", slow_solve)
    app = ArcadeApp()
    async with app.run_test(size=SIZE) as pilot:
        await open_first_level(pilot)
        await pilot.press("E")
        await pilot.pause()
        bench = app.screen
        await pilot.press("f4")
        await until(pilot, solving.is_set)
        [job] = workers_of(app, "designer-job")
        await pilot.press("escape")  # cancels the job; the editor stays
        assert job.is_cancelled and bench.result_text == "Cancelled."
        await until(pilot, saw_stop.is_set)
        await pilot.pause()
        assert bench.result_text == "Cancelled." and app.screen is bench


async def test_a_failing_background_count_is_reported_not_swallowed(monkeypatch, caplog) -> None:
    """Algebrawl counts a level's solutions in a worker nobody waits for: before, its
    failure vanished; now it is logged and said in one line, and the game goes on."""
    import tui.games.algebrawl.screen as algebrawl_screen

    def failing_solve(puzzle, **options):
        raise RuntimeError("count\nbroke")

    monkeypatch.setattr(algebrawl_screen, "solve", failing_solve)
    app = ArcadeApp()
    with caplog.at_level(logging.ERROR, logger="termarcade.tui"):
        async with app.run_test(size=SIZE) as pilot:
            app.start_game("algebrawl")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, algebrawl_screen.AlgebrawlScreen)
            await until(pilot, lambda: "failed" in screen.last_message)
            assert screen.last_message == (
                "Counting the solutions failed: RuntimeError: count broke"
            )
            assert screen.solution_count() == (None, False) and app.is_running
    assert any(r.exc_info and r.exc_info[0] is RuntimeError for r in caplog.records)
