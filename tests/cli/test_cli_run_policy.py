"""The one-shot GC policy is handed down by whoever runs the command group, never read from a
process-wide flag: tui.entry says "this process is one command" (RunPolicy(one_shot=True)),
and only then does a bulk command make its paused blocks end with gc.freeze()."""

from __future__ import annotations

import subprocess
import sys

import click
import pytest
from click.testing import CliRunner

from core.search import quiet_gc
from tui.cli.output import RunPolicy, bulk_command


@pytest.fixture(autouse=True)
def _restore_policy():
    before = quiet_gc.freeze_after
    yield
    quiet_gc.freeze_after = before


@click.command()
def bulk() -> None:
    bulk_command()
    click.echo(f"freeze_after={quiet_gc.freeze_after}")


@pytest.mark.parametrize(
    ("obj", "expected"),
    [(None, False), (RunPolicy(), False), (RunPolicy(one_shot=True), True)],
)
def test_bulk_command_follows_the_policy_it_is_given(obj, expected) -> None:
    quiet_gc.freeze_after = False
    result = CliRunner().invoke(bulk, [], obj=obj)
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"freeze_after={expected}"


def test_outside_a_command_nothing_changes() -> None:
    quiet_gc.freeze_after = False
    bulk_command()
    assert quiet_gc.freeze_after is False


def test_the_entry_point_runs_bulk_commands_one_shot() -> None:
    """`python -m tui parse` (tui.entry) freezes after its bulk block; the embedded group,
    called by a host program, does not."""
    probe = (
        "import sys, core.search as s, tui.entry as e, tui.cli.parse as p\n"
        "from tui.cli.output import bulk_command\n"
        "real = bulk_command\n"
        "def spy():\n"
        "    real(); print('freeze_after', s.quiet_gc.freeze_after, file=sys.stderr)\n"
        "p.bulk_command = spy\n"
        "sys.argv = ['termarcade', 'parse', 'f(x)']\n"
        "e.main()\n"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert "freeze_after True" in run.stderr
    embedded = (
        "import sys, core.search as s\n"
        "from tui.cli import main\n"
        "main.main(['parse', 'f(x)'], standalone_mode=False)\n"
        "print('freeze_after', s.quiet_gc.freeze_after, file=sys.stderr)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", embedded], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    assert "freeze_after False" in run.stderr
