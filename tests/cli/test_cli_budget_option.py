"""The shared ``--work-budget`` option and the command's start time that ``--time-limit`` counts from."""

from __future__ import annotations

import time

import click
from click.testing import CliRunner

from tui.cli.options import budget_option, command_started, time_limit_option


@click.command()
@time_limit_option(5.0)
@budget_option(1000)
def probe(time_limit: float, budget: int) -> None:
    began = command_started()
    click.echo(f"{time_limit} {budget} {began <= time.monotonic()} {began == command_started()}")


def test_the_start_is_noted_before_the_command_runs_and_stays_put():
    result = CliRunner().invoke(probe, ["--work-budget", "0"])
    assert result.exit_code == 0 and result.output.split() == ["5.0", "0", "True", "True"]


def test_a_negative_budget_is_a_usage_error():
    result = CliRunner().invoke(probe, ["--work-budget", "-1"])
    assert result.exit_code == 2 and "'--work-budget'" in result.output
