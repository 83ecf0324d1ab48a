"""Which hint may be shown (tui.screens.play.hints.HintJob), with stand-in workers."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from textual.worker import WorkerState

from tui.screens.play.hints import HintJob


def worker(state: WorkerState = WorkerState.RUNNING, cancelled: bool = False) -> Any:
    return SimpleNamespace(state=state, is_cancelled=cancelled)


def test_only_the_latest_uncancelled_worker_is_running() -> None:
    """Which result is shown is tui.workers.finished's (tests/tui/test_worker_dispatch.py:
    a superseded or cancelled job's end is dropped); the job says whether one thinks."""
    job, first, second = HintJob(), worker(), worker()
    position = object()
    job.started(first, position)
    assert job.running
    first.is_cancelled = True  # the exclusive group cancels the older worker
    job.started(second, position)
    assert job.running
    second.is_cancelled = True
    assert not job.running


def test_a_finished_worker_is_not_running() -> None:
    job, done = HintJob(), worker(WorkerState.SUCCESS)
    job.started(done, object())
    assert not job.running


def test_a_hint_about_another_position_is_outdated() -> None:
    job, asked, moved = HintJob(), object(), object()
    assert not job.outdated_by(moved) and not job.running  # nothing asked yet
    job.started(worker(), asked)
    assert not job.outdated_by(asked) and job.outdated_by(moved)


def test_a_tip_is_refused_when_the_game_is_over_or_one_is_thinking() -> None:
    from tui.screens.play.hints import tip_refusal

    assert tip_refusal(finished=False, running=False) is None  # a hint starts
    assert tip_refusal(finished=False, running=True) == "Still thinking…"
    over = "The game is over: no tip to give. u undoes, R restarts."
    assert tip_refusal(finished=True, running=False) == over
    assert tip_refusal(finished=True, running=True) == over  # the end comes first
