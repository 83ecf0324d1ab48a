"""``termarcade termcraft solve`` and ``lint`` on issue 29's level: a construct of a term that
the target does not hold wins it in two moves, so neither command may call it unsolvable."""

from __future__ import annotations

import json

import pytest

from core.termcraft import State, rewrite_actions, status
from core.termcraft.engine import apply
from core.termcraft.state import ConstructAction
from core.termcraft.terms import from_str
from grammar.terms import parse_term as p
from tests.cli.helpers import apart_runner
from tui.games.termcraft.cli import termcraft

pytestmark = pytest.mark.cli

CURRENT = "s(rewrite(f(var(X)),g(h(k))),placeholder)"
TARGET = "s(rewrite(f(var(X)),g(h(k))),g(h(k)))"
POSITION = ["--term", CURRENT, "--target", TARGET, "--fuel", "1"]


def run(args: list[str]):
    return apart_runner().invoke(termcraft, args, catch_exceptions=False)


def test_solve_finds_the_two_move_plan():
    result = run(["solve", *POSITION, "--budget", "2", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["status"] == "solved" and answer["why"] == ""
    plan = answer["plan"]
    assert [step["kind"] for step in plan] == ["construct", "rewrite"]
    assert plan[0]["term"] == "f(k)" and plan[0]["site"] == [1]
    # the plan replays to a win with the engine's own legality checks
    state = State(p(CURRENT), p(TARGET), 1, 2)
    state = apply(state, ConstructAction(tuple(plan[0]["site"]), from_str(plan[0]["term"])))
    rewrites = [a for a in rewrite_actions(state) if list(a.site) == plan[1]["site"]]
    assert rewrites and status(apply(state, rewrites[0])) == "won"
    text = run(["solve", *POSITION, "--budget", "2"])
    assert text.exit_code == 0 and "solved" in text.stdout and "construct f(k)" in text.stdout


def test_unsolvable_is_said_only_when_proved():
    # budget 1 cannot pay for f(k): a proof, said as one, exit 1
    result = run(["solve", *POSITION, "--budget", "1"])
    assert result.exit_code == 1 and "unsolvable (proved" in result.stdout
    # a work budget too small to finish says unknown and why, never unsolvable
    short = run(["solve", *POSITION, "--budget", "2", "--work-budget", "30", "--json"])
    answer = json.loads(short.stdout)
    assert short.exit_code == 1 and answer["status"] == "unknown"
    assert answer["why"] == "work budget" and answer["reason"] == "budget"


def test_lint_does_not_flag_the_level():
    result = run(["lint", *POSITION, "--budget", "2", "--json"])
    assert result.exit_code == 0, result.output
    issues = json.loads(result.stdout)["issues"]
    assert [i["code"] for i in issues if i["severity"] == "error"] == []
    assert any(i["code"] == "solvable" and "2 move" in i["message"] for i in issues)
    short = run(["lint", *POSITION, "--budget", "2", "--work-budget", "30", "--json"])
    issues = json.loads(short.stdout)["issues"]
    assert [i["code"] for i in issues if i["severity"] == "error"] == []
    unknown = [i for i in issues if i["code"] == "solver-unknown"]
    assert unknown and "unknown" in unknown[0]["message"] and "work budget" in unknown[0]["message"]
