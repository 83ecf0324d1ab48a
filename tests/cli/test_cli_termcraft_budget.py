"""``termcraft solve``/``lint`` with a work budget (issue 28): the shared ``--work-budget`` option
(term nodes), the level's own budget as ``--budget`` (or ``--construct-budget``), and answers
that say which bound was hit."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tui.games.termcraft.cli import termcraft

pytestmark = pytest.mark.cli

# Constructing `done` (Size 1) at the placeholder wins; the start's Size is 4.
TERM = "s(data(placeholder),keep)"
TARGET = "s(data(done),keep)"


def run(*args: str):
    return CliRunner().invoke(termcraft, list(args), catch_exceptions=False)


def test_solve_says_the_work_budget_stopped_it() -> None:
    common = ("--term", TERM, "--target", TARGET, "--budget", "1")
    stopped = run("solve", *common, "--work-budget", "3", "--json")
    assert stopped.exit_code == 1
    data = json.loads(stopped.output)
    assert (data["status"], data["reason"], data["why"]) == ("unknown", "budget", "work budget")
    assert data["spent"] == 4 and data["explored"] == 1
    text = run("solve", *common, "--work-budget", "3")
    assert "unknown (1 state explored, work budget: 4 nodes spent" in text.output
    unbounded = run("solve", *common, "--work-budget", "0", "--json")  # 0: no budget
    assert unbounded.exit_code == 0
    spent = json.loads(unbounded.output)["spent"]
    solved = run("solve", *common, "--work-budget", str(spent), "--json")
    assert solved.exit_code == 0 and json.loads(solved.output)["status"] == "solved"
    short = run("solve", *common, "--work-budget", str(spent - 1), "--json")
    assert json.loads(short.output)["why"] == "work budget"


def test_the_level_budget_is_construct_budget_in_solve_and_lint() -> None:
    no_budget = run("solve", "--term", TERM, "--target", TARGET, "--json")
    assert json.loads(no_budget.output)["status"] == "unsolvable"  # construct budget 0
    linted = run("lint", "--term", TERM, "--target", TARGET, "--construct-budget", "1", "--json")
    codes = {issue["code"] for issue in json.loads(linted.output)["issues"]}
    assert "solvable" in codes and "placeholder-no-budget" not in codes
    stopped = run("lint", "--term", TERM, "--target", TARGET, "--work-budget", "2")
    assert stopped.exit_code == 1 and "stopped by the work budget" in stopped.output


def test_actions_and_apply_keep_budget_as_the_level_budget() -> None:
    played = run("apply", "--term", TERM, "--target", TARGET, "--budget", "1", "-c", "0/0=done")
    assert played.exit_code == 0 and "won" in played.output
