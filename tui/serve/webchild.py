"""One browser tab's arcade (run by textual-serve as ``python -m tui.serve.webchild``).

textual-serve sets ``TEXTUAL_DRIVER`` so the app talks to the page instead of a terminal;
anything printed to standard error (a crash report) goes to the server's log, never to the page.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

__all__ = ["GUEST_GREETING", "main"]

GUEST_GREETING = (
    "Welcome! You are playing as a guest: your progress is kept until you close this page."
)


def main(argv: Sequence[str] | None = None) -> None:
    """Run the served app for a guest with the server's limits, then exit with its status.

    Args:
        argv: ``--cpu-limit S --idle-timeout S --nice N --memory-limit BYTES`` (default
            ``sys.argv[1:]``).
    """
    parser = argparse.ArgumentParser(prog="python -m tui.serve.webchild")
    parser.add_argument("--cpu-limit", type=float, default=0.0)
    parser.add_argument("--idle-timeout", type=float, default=0.0)
    parser.add_argument("--nice", type=int, default=0)
    parser.add_argument("--memory-limit", type=int, default=0)
    args = parser.parse_args(argv)

    from tui.serve.child import ServedApp, apply_limits
    from tui.serve.spec import EXIT_CPU, EXIT_ERROR, EXIT_OK, EXIT_START
    from tui.store import Store

    apply_limits(args.cpu_limit, args.nice, args.memory_limit)
    try:
        _confine()
    except OSError as error:  # never play unconfined where confinement was possible
        print(f"cannot confine the tab's writes: {error}", file=sys.stderr)
        sys.exit(EXIT_START)
    app = ServedApp(
        "", store=Store(":memory:"), idle_timeout=args.idle_timeout, greeting=GUEST_GREETING
    )
    app.run()
    sys.exit({0: EXIT_OK, EXIT_CPU: EXIT_CPU}.get(app.return_code or 0, EXIT_ERROR))


def _confine() -> None:
    """A guest's store is in memory, so the tab writes no file: where the kernel has Landlock
    it may write only to ``/dev/null`` (its page is the pipes it already holds)."""
    import os

    from tui.serve.confine import confine_writes

    confine_writes([], [os.devnull])


if __name__ == "__main__":
    main()
