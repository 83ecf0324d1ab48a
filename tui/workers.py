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
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import threading
from asyncio import AbstractEventLoop
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker, WorkerState, active_worker

__all__ = [
    "BACKGROUND_NICE",
    "ENV_BACKGROUND_NICE",
    "background_nice",
    "cancelled",
    "failure_line",
    "is_running",
    "log",
    "lower_this_thread",
    "report_failure",
    "run_workers_at_low_priority",
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
