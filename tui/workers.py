"""What every background job of the shell shares: how it stops and how it fails.

Long computations (hints, a designer's solver, TermCraft's listings) run in Textual's
thread workers (``@work(thread=True, exclusive=True, group=...)``). Two facts about those
workers shape every caller:

* A thread cannot be killed. ``Worker.cancel()`` marks the worker cancelled (its state turns
  ``CANCELLED`` at once and its result is never delivered) but the thread runs on until the
  work looks at :attr:`textual.worker.Worker.is_cancelled`. Engines therefore take a
  ``should_stop`` callable: :func:`cancelled` is that callable for the worker running it.
  Textual cancels a screen's workers when the screen is removed and every worker when the
  app exits, so a job that polls stops then too.
* A worker started with ``exit_on_error=True`` (Textual's default) ends the app when it
  raises. The arcade's jobs use ``exit_on_error=False`` deliberately: a solver bug must not
  end the player's game. The failure then has to be shown: :func:`report_failure` logs it
  (with its traceback) and returns the one line the screen shows instead.

Heavy work runs below the interactive loop's priority. Textual runs every thread worker in
the event loop's default executor; :func:`run_workers_at_low_priority` replaces that executor
with one whose threads lower their own scheduling priority (:func:`lower_this_thread`) when
they start. On a shared host (``termarcade serve``) the kernel then gives the CPU to the
players' interactive loops first, and solvers, autoplay and generators take what is left.

One pattern for every job (Textual's own, ``docs/examples/guide/workers/weather05.py``):

* each job is one method decorated ``@work(thread=True, exclusive=True, group=G,
  exit_on_error=False)`` that only computes and returns (it polls :func:`cancelled`); calling
  it starts the job and cancels the node's older job of ``G`` (exclusive);
* its end is handled in one place, the node's ``on_worker_state_changed``, which hands the
  event to :func:`finished` with a :class:`Route` per group the class starts: the result goes
  to ``done`` on the UI thread, a failure goes to ``failed`` as one line, and a stale result
  (its worker cancelled: by a newer job of the group, a move, Cancel, leaving) is dropped;
* :func:`running` says whether a group is at work, so no screen keeps its workers in fields.

Textual calls ``on_worker_state_changed`` of every class along the hierarchy, so each class
routes the groups it starts and never calls ``super()``'s handler (the base routes its own).
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from asyncio import AbstractEventLoop
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker, WorkerState, active_worker

__all__ = [
    "BACKGROUND_NICE",
    "ENV_BACKGROUND_NICE",
    "Route",
    "background_nice",
    "cancelled",
    "failure_line",
    "finished",
    "is_running",
    "log",
    "lower_this_thread",
    "report_failure",
    "run_workers_at_low_priority",
    "running",
]

log = logging.getLogger("termarcade.tui")
"""Where failed background jobs are logged (with their traceback)."""


def cancelled() -> bool:
    """Whether the worker running this code has been cancelled.

    Use it as an engine's ``should_stop`` inside a thread worker. Outside a worker (on the UI
    thread, where a job may run briefly within a time budget) nothing can cancel it: False.

    Returns:
        True once the current worker was cancelled.
    """
    # Textual's own lookup (get_current_worker) raises outside a worker; engines poll this
    # up to once per node, so read the context variable without an exception.
    worker = active_worker.get(None)
    return worker is not None and worker.is_cancelled


def is_running(worker: Worker[Any] | None) -> bool:
    """Whether ``worker`` is still at work: pending or running, and not cancelled.

    Not the state alone: a worker cancelled before its task started stays RUNNING.
    """
    return (
        worker is not None
        and not worker.is_cancelled
        and worker.state in (WorkerState.PENDING, WorkerState.RUNNING)
    )


def failure_line(what: str, error: BaseException | None) -> str:
    """One line for the player saying that a job failed (never a traceback).

    Args:
        what: What failed, as the start of a sentence ("The hint").
        error: The exception the job raised (None: unknown).

    Returns:
        ``"<what> failed: <Type>: <message>"`` on one line.
    """
    if error is None:
        return f"{what} failed."
    detail = " ".join(str(error).split())
    name = type(error).__name__
    return f"{what} failed: {name}: {detail}" if detail else f"{what} failed: {name}"


def report_failure(node: DOMNode, worker: Worker[object], what: str) -> str:
    """Log a failed worker (with its traceback) and return the line to show the player.

    Args:
        node: The screen or widget that ran the worker (its Textual log gets the error too).
        worker: The worker, in state ``ERROR``.
        what: What failed, as the start of a sentence ("The hint").

    Returns:
        The one-line message (see :func:`failure_line`).
    """
    error = worker.error
    line = failure_line(what, error)
    log.error("%s (worker %r, group %r)", line, worker.name, worker.group, exc_info=error)
    node.log.error(line)
    return line


@dataclass(frozen=True)
class Route:
    """Where the end of one group's job goes (see :func:`finished`).

    Args:
        what: What fails, as the start of a sentence ("The solver").
        done: Takes the job's result, on the UI thread.
        failed: Takes the one line that says why the job failed (its traceback is logged).
    """

    what: str
    done: Callable[[Any], object]
    failed: Callable[[str], object]


_ENDED = (WorkerState.SUCCESS, WorkerState.ERROR)
"""The states that deliver a job's result or its failure."""


def finished(node: DOMNode, event: Worker.StateChanged, routes: Mapping[str, Route]) -> bool:
    """Deliver the end of one of ``node``'s jobs to its route: the one place results arrive.

    A result goes to ``done`` and a failure to ``failed`` (as :func:`report_failure`'s
    line) only while the job's worker is not cancelled: a cancelled worker's result is
    stale (a newer job of its group cancelled it, or a move, Cancel, leaving) and is dropped,
    also when its end was already on its way when it was cancelled. Events of other groups,
    of other nodes' workers and of workers still running are not this call's.

    Args:
        node: The screen or widget whose ``on_worker_state_changed`` got ``event``.
        event: The worker's change of state.
        routes: The groups this class starts, each with its route.

    Returns:
        True when the event was one of ``routes``' groups (delivered, dropped or running).
    """
    worker = event.worker
    route = routes.get(worker.group)
    if route is None or worker.node is not node:
        return False
    # The event's state, not the worker's: a RUNNING event may arrive after the end.
    if event.state not in _ENDED or worker.is_cancelled:
        return True
    if event.state == WorkerState.SUCCESS:
        route.done(worker.result)
    else:
        route.failed(report_failure(node, worker, route.what))
    return True


def running(node: DOMNode, group: str) -> bool:
    """Whether a job of ``group`` that ``node`` started is still at work (not cancelled).

    Args:
        node: The screen or widget that starts the group's jobs.
        group: The worker group.

    Returns:
        True while one of its workers is pending or running.
    """
    return any(
        worker.node is node and worker.group == group and is_running(worker)
        for worker in node.workers
    )


BACKGROUND_NICE = 10
"""Niceness a background thread adds to its process's: at +10 the kernel's fair scheduler
weighs it about 10 times lighter than an interactive loop at the process's own nice."""

ENV_BACKGROUND_NICE = "TERMARCADE_BACKGROUND_NICE"
"""The host's variable that overrides :data:`BACKGROUND_NICE` (0: background work keeps the
process's priority; benchmarks use it to compare)."""


def background_nice() -> int:
    """How much background threads lower their priority: ``$TERMARCADE_BACKGROUND_NICE``
    (0 to 19) when it is set to a number, else :data:`BACKGROUND_NICE`.

    Returns:
        The niceness to add (0: none).
    """
    raw = os.environ.get(ENV_BACKGROUND_NICE, "").strip()
    try:
        return max(0, min(19, int(raw))) if raw else BACKGROUND_NICE
    except ValueError:  # a typo in the host's environment must not stop a session
        return BACKGROUND_NICE


def lower_this_thread(step: int | None = None) -> None:
    """Lower the calling thread's scheduling priority (Linux; elsewhere nothing happens).

    Linux keeps a nice value per thread, so this leaves the app's own loop untouched. A thread
    can lower its priority but not raise it back: call it only in threads that do nothing
    else but background work.

    Args:
        step: Niceness to add (None: :func:`background_nice`); capped at 19.
    """
    step = background_nice() if step is None else step
    if step <= 0 or not sys.platform.startswith("linux"):
        return
    tid = threading.get_native_id()
    try:
        current = os.getpriority(os.PRIO_PROCESS, tid)
        os.setpriority(os.PRIO_PROCESS, tid, min(19, current + step))
    except OSError as error:  # a sandbox may forbid it: the work still runs, at full priority
        log.debug("cannot lower a background thread's priority: %s", error)
    # SCHED_IDLE on top: the thread runs only on CPU time no normal thread wants (its weight
    # is 3 against 335 for a loop at nice 5, where nice +10 alone leaves 36), so another
    # player's key is answered first however many solvers run. No privilege is needed to
    # enter it, and the thread never leaves it (it only does background work).
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(tid, os.SCHED_IDLE, os.sched_param(0))


def run_workers_at_low_priority(loop: AbstractEventLoop, step: int | None = None) -> None:
    """Make every thread worker of the app running on ``loop`` start at a lower priority.

    Call it before the first thread worker starts (e.g. in ``on_mount``): Textual runs thread
    workers in the loop's default executor, which this replaces.

    Args:
        loop: The app's event loop.
        step: Niceness the worker threads add (None: :func:`background_nice`).
    """
    executor = ThreadPoolExecutor(
        thread_name_prefix="termarcade-background",
        initializer=lower_this_thread,
        initargs=(step,),
    )
    loop.set_default_executor(executor)
