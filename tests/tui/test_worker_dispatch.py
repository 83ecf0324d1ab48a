"""One place where a job's end arrives (issue 31, item 2): :func:`tui.workers.finished`
routes a worker's result to its group's ``done``, a failure to ``failed`` as one line, and
drops a stale (cancelled) result; each class routes its own groups along Textual's MRO."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from textual import work
from textual.app import App
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from tests.tui.helpers import wait_until
from tui.workers import Route, cancelled, finished, running

pytestmark = pytest.mark.pilot


class Jobs(Screen[None]):
    """A screen with one job group ("sum"); what reaches its routes is recorded."""

    def __init__(self) -> None:
        super().__init__()
        self.results: list[Any] = []
        self.failures: list[str] = []
        self.gate = threading.Event()

    @work(thread=True, exclusive=True, group="sum", exit_on_error=False)
    def add(self, a: int, b: int, wait: bool = False) -> int:
        if wait:  # held until the test opens the gate (or the worker is cancelled)
            while not self.gate.wait(0.005) and not cancelled():
                pass
        if a < 0:
            raise ValueError("no negative\nnumbers")
        return a + b

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        finished(self, event, {"sum": Route("Adding", self.results.append, self.failures.append)})


class Base(Screen[None]):
    """A base with its own job and handler (as PuzzleScreen's hint)."""

    def __init__(self) -> None:
        super().__init__()
        self.got: list[str] = []

    @work(thread=True, exclusive=True, group="base", exit_on_error=False)
    def base_job(self) -> str:
        return "base"

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        finished(self, event, {"base": Route("Base", self.got.append, self.got.append)})


class Sub(Base):
    """A subclass routing only its own group, without calling ``super()``."""

    @work(thread=True, exclusive=True, group="sub", exit_on_error=False)
    def sub_job(self) -> str:
        return "sub"

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        finished(self, event, {"sub": Route("Sub", self.got.append, self.got.append)})


async def test_a_result_is_routed_to_its_groups_done_once() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = Jobs()
        await app.push_screen(screen)
        screen.add(2, 3)
        await app.workers.wait_for_complete()
        await wait_until(pilot, lambda: screen.results, "the result")
        await pilot.pause()
        assert screen.results == [5] and screen.failures == []


async def test_a_failure_arrives_as_one_line_and_the_app_goes_on() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = Jobs()
        await app.push_screen(screen)
        screen.add(-1, 3)
        await wait_until(pilot, lambda: screen.failures, "the failure")
        assert screen.failures == ["Adding failed: ValueError: no negative numbers"]
        assert screen.results == [] and app.is_running
        screen.add(1, 1)  # the screen still works
        await wait_until(pilot, lambda: screen.results, "the next result")
        assert screen.results == [2]


async def test_a_superseded_job_is_dropped_and_running_says_so() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = Jobs()
        await app.push_screen(screen)
        old = screen.add(1, 1, wait=True)
        await wait_until(pilot, lambda: old.state == WorkerState.RUNNING, "the first job")
        assert running(screen, "sum") and not running(screen, "other")
        new = screen.add(10, 10, wait=True)  # exclusive: the first job is cancelled
        assert old.is_cancelled and running(screen, "sum")
        screen.gate.set()
        await wait_until(pilot, lambda: screen.results, "the second result")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.results == [20] and new.result == 20
        assert not running(screen, "sum")


async def test_an_end_already_on_its_way_when_cancelled_is_dropped() -> None:
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = Jobs()
        await app.push_screen(screen)
        worker = screen.add(4, 4)
        await worker.wait()
        await pilot.pause()
        assert screen.results == [8]
        # Its SUCCESS event is delivered again after a cancel: stale, so nothing arrives.
        worker.cancel()
        assert finished(screen, Worker.StateChanged(worker, WorkerState.SUCCESS), {}) is False
        routes = {"sum": Route("Adding", screen.results.append, screen.failures.append)}
        assert finished(screen, Worker.StateChanged(worker, WorkerState.SUCCESS), routes)
        assert screen.results == [8] and screen.failures == []


async def test_each_class_routes_its_own_groups_exactly_once() -> None:
    # Textual calls Base's and Sub's handlers for every event: without super(), each job's
    # result arrives once.
    app: App[None] = App()
    async with app.run_test() as pilot:
        screen = Sub()
        await app.push_screen(screen)
        screen.base_job()
        screen.sub_job()
        await wait_until(pilot, lambda: len(screen.got) >= 2, "both results")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert sorted(screen.got) == ["base", "sub"]
