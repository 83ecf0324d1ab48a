"""Helpers for tests of the command line: a click runner as the CLI tests use it."""

from __future__ import annotations

from click.testing import CliRunner


def apart_runner() -> CliRunner:
    """A click test runner whose result keeps stderr apart from stdout.

    Returns:
        ``CliRunner(mix_stderr=False)`` on click < 8.2; a plain ``CliRunner`` on click 8.2 and
        later, which always keeps the two apart (and no longer takes the argument).
    """
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()
