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
"""

from __future__ import annotations

import logging
from typing import Any

from textual.dom import DOMNode
from textual.worker import Worker, WorkerState, active_worker

__all__ = ["cancelled", "failure_line", "is_running", "log", "report_failure"]

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
