"""Where ``termarcade`` and ``python -m tui`` start: ctrl+c is clean from the first moment.

Importing the CLI (click, rich, the game registry) takes tens of milliseconds, and Python's
default SIGINT handler would turn a ctrl+c in that time into a ``KeyboardInterrupt``
traceback. So this module, which the console script imports first, installs its own handler
before importing anything else; until the CLI is ready a ctrl+c ends the process at once with
status 130 (nothing has been written or opened yet, so there is nothing to clean up). Once
the CLI is loaded, the default handler comes back so that commands see ``KeyboardInterrupt``
(a solver stops cleanly, the app is left the usual way) and the command group turns it into
``interrupted`` and status 130.

Only the Python interpreter's own start-up (before the first line of this module, mostly its
``site`` import) is beyond any program's reach.
"""

import atexit
import contextlib
import os
import signal
import sys
import threading

EXIT_INTERRUPTED = 130
"""Exit status after ctrl+c: 128 + SIGINT, as shells report it."""


def _exit_interrupted(signum: int, frame: object) -> None:
    """SIGINT while nothing can be cleaned up anyway: say so and leave with status 130.

    Args:
        signum: The signal number (SIGINT).
        frame: The interrupted frame (unused).
    """
    with contextlib.suppress(OSError):  # stderr closed: leaving quietly is all that is left.
        os.write(2, b"interrupted\n")
    os._exit(EXIT_INTERRUPTED)


signal.signal(signal.SIGINT, _exit_interrupted)


def _flush_output() -> None:
    """Flush stdout and stderr, quietly: a closed pipe has nothing left to lose."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()


def _leave(code: int) -> None:
    """End the process now with ``code``, without tearing the heap down.

    A normal exit frees every object one by one and runs a last full collection: after a
    command on a 10 MB term (millions of live nodes, a closure, caches) that measured several
    seconds of a 17-second run, spent after the answer was out. Everything a normal exit
    does that matters is done first: the ``atexit`` handlers (logging, the store, the
    benchmarks' peak-memory report) and flushing the output. Only called with this thread
    alone, so no worker is cut short.

    Args:
        code: The exit status.
    """
    _flush_output()
    atexit._run_exitfuncs()  # what Py_Finalize would run first; then nothing left to do
    _flush_output()
    os._exit(code)


def main() -> None:
    """Run the ``termarcade`` command line with ``sys.argv`` and exit with its status.

    Raises:
        SystemExit: Always, with the command's exit status.
    """
    try:
        from tui.cli import main as command
        from tui.cli.output import RunPolicy

        # From here on the command group owns ctrl+c (KeyboardInterrupt -> status 130).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # This process is this one command (it ends in _leave): bulk commands may freeze.
        command.main(prog_name="termarcade", obj=RunPolicy(one_shot=True))
    except SystemExit as exit_:
        if exit_.code == EXIT_INTERRUPTED:
            # After ctrl+c the group has said "interrupted"; end here. Left to the interpreter,
            # about one run in ten of `python -m tui ... ` ctrl+c'd ~100 ms in died by SIGINT
            # (status -2, not 130) during finalisation after the message; the cause inside
            # CPython was not pinned down. Nothing is left to finalise but buffered output.
            _flush_output()
            os._exit(EXIT_INTERRUPTED)
        if (exit_.code is None or isinstance(exit_.code, int)) and threading.active_count() == 1:
            _leave(exit_.code or 0)
        raise
    except KeyboardInterrupt:
        # Only reachable in the instants around the group's own handling.
        _exit_interrupted(signal.SIGINT, None)
    finally:
        # Interpreter shutdown can run Python code too; keep ctrl+c quiet there as well.
        signal.signal(signal.SIGINT, _exit_interrupted)
    sys.exit(0)  # pragma: no cover - command.main always raises SystemExit
