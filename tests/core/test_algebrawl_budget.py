"""Work budgets for Algebrawl's solvers (issue 28): an answer cut short by the budget is the
same whatever ran before (the memoised tables are charged as if built), says which bound
stopped it, and a budget large enough gives the unbounded answer."""

from __future__ import annotations

import json
import time
from fractions import Fraction as F

import pytest
from click.testing import CliRunner

from core.algebrawl import hands
from core.algebrawl.cards import ADD, MUL
from core.algebrawl.countdown import countdown_solutions
from core.algebrawl.handrule import HandAnswer, HandRule
from core.algebrawl.level import level_of
from core.algebrawl.par import shortest, winning_line
from core.algebrawl.play import initial_state
from core.algebrawl.solver import solve
from core.search import Interrupted, Watch


def hand(*values: int) -> list[F]:
    return [F(v) for v in values]


def cost(numbers: tuple[int, ...], count: bool) -> int:
    """Units the 24 solvers spend on a hand with no budget (cold memo)."""
    hands.clear_caches()
    watch = Watch()
    with hands.metered(watch):
        hands.solvable24(numbers)
        if count:
            hands.solutions24(numbers)
    return watch.spent


def test_a_hand_costs_the_same_units_cold_and_memoised() -> None:
    numbers = (1, 5, 7, 9, 12)
    cold = cost(numbers, count=True)
    watch = Watch()  # the tables are all memoised now
    with hands.metered(watch):
        hands.solvable24(numbers)
        hands.solutions24(numbers)
    assert watch.spent == cold > 0
    # and a smaller hand solved first (sharing sub-tables) changes nothing
    hands.clear_caches()
    hands.solutions24((1, 5, 7, 9))
    watch = Watch()
    with hands.metered(watch):
        hands.solvable24(numbers)
        hands.solutions24(numbers)
    assert watch.spent == cold


def test_a_spent_budget_leaves_the_hand_unknown_and_says_so() -> None:
    assert HandRule().solve(hand(4, 7, 8, 8), F(24), None, budget=1) == HandAnswer(
        None, None, False, [], "work budget"
    )
    assert HandRule(countdown=True).solve(hand(25, 50, 3, 7), F(357), None, budget=1) == (
        HandAnswer(None, None, False, [], "work budget")
    )
    cards = HandRule(cards=(ADD, MUL)).solve(hand(1, 2, 3, 4), F(24), None, budget=1)
    assert (cards.solvable, cards.reason) == (None, "work budget")


def test_a_budget_between_solving_and_counting_keeps_the_hand_solvable() -> None:
    numbers = (1, 5, 7, 9, 12)
    solving, counting = cost(numbers, count=False), cost(numbers, count=True)
    assert solving < counting
    for warm in (False, True):  # the same answer with the tables memoised or not
        if not warm:
            hands.clear_caches()
        answer = HandRule().solve(hand(*numbers), F(24), None, budget=solving)
        assert (answer.solvable, answer.distinct, answer.complete) == (True, None, False)
        assert answer.reason == "work budget"
        [tree] = answer.trees
        assert tree.value == 24
    full = HandRule().solve(hand(*numbers), F(24), None, budget=counting)
    assert full.reason == "" and full.complete
    assert full.distinct == len(hands.solutions24(numbers))


def test_a_budget_of_a_hands_exact_cost_is_enough_and_one_less_is_not() -> None:
    numbers = (3, 3, 8, 8)
    exact = cost(numbers, count=True)
    assert HandRule().solve(hand(*numbers), F(24), None, budget=exact).distinct == 1  # 8÷(3−8÷3)
    short = HandRule().solve(hand(*numbers), F(24), None, budget=exact - 1)
    assert short.reason == "work budget" and short.distinct is None


def test_countdown_budget_is_deterministic_and_enough_gives_the_full_answer() -> None:
    numbers, target = [25, 50, 75, 100, 3, 6], 952
    watch = Watch()
    full = countdown_solutions(numbers, target, watch=watch)
    assert full  # 952 = ((100 + 6) × 3 × 75 − 50) ÷ 25, the famous one
    assert countdown_solutions(numbers, target, watch=Watch(budget=watch.spent)) == full
    with pytest.raises(Interrupted) as stop:
        countdown_solutions(numbers, target, watch=Watch(budget=watch.spent - 1))
    assert stop.value.reason == "budget"


def test_a_passed_deadline_says_time_limit() -> None:
    past = time.monotonic() - 1
    answer = HandRule().solve(hand(4, 7, 8, 8), F(24), None, deadline=past)
    assert (answer.solvable, answer.reason) == (None, "time limit")
    cancelled = HandRule().solve(hand(4, 7, 8, 8), F(24), None, should_stop=lambda: True)
    assert cancelled.reason == "cancelled"


LEVEL = level_of("t", numbers=(2, 3, 4, 5), targets=(26,), cards=(ADD, MUL, ADD, MUL))


def test_level_solvers_take_a_budget_and_say_which_bound() -> None:
    free = shortest(LEVEL.puzzle, time_limit=None)  # no clock: only the budget bounds it
    assert free.status == "solved" and free.reason == ""  # 4 × 5 + 2 × 3: par 4
    assert free.moves == 4
    cut = shortest(LEVEL.puzzle, time_limit=None, budget=5)
    assert (cut.status, cut.reason) == ("unknown", "work budget")
    assert shortest(LEVEL.puzzle, time_limit=None, budget=5) == cut  # deterministic
    solved = solve(LEVEL.puzzle, count=True, time_limit=None, budget=5)
    assert (solved.status, solved.reason) == ("unknown", "work budget")
    line = winning_line(initial_state(LEVEL.puzzle), time_limit=None, budget=5)
    assert (line.status, line.reason) == ("unknown", "work budget")
    timed = winning_line(initial_state(LEVEL.puzzle), deadline=time.monotonic() - 1)
    assert (timed.status, timed.reason) == ("unknown", "time limit")


def run_cli(*args: str) -> tuple[int, str]:
    from tui.cli import main

    result = CliRunner().invoke(main, ["algebrawl", *args])
    return result.exit_code, result.output


def test_cli_budget_cuts_the_count_and_says_work_budget() -> None:
    numbers = (1, 5, 7, 9, 12)
    solving = cost(numbers, count=False)
    args = ["solve", "--numbers", *map(str, numbers), "--work-budget", str(solving)]
    status, out = run_cli(*args, "--json")
    data = json.loads(out)
    assert status == 0
    assert (data["solvable"], data["count"], data["complete"]) == (True, None, False)
    assert data["reason"] == "work budget"
    status, out = run_cli(*args)
    assert "solvable (not counted: work budget)" in out
    status, out = run_cli("solve", "--numbers", "4", "7", "8", "8", "--work-budget", "1")
    assert status == 1 and "unknown (work budget)" in out
    status, out = run_cli("solve", "--numbers", "4", "7", "8", "8", "--json")
    data = json.loads(out)
    assert (data["count"], data["reason"]) == (3, None)  # the default budget answers it


def test_cli_level_file_budget(tmp_path) -> None:
    from core.levelpack import LevelPack
    from grammar.levels import dump_pack

    path = tmp_path / "one.levels"
    path.write_text(dump_pack(LevelPack("p", levels=(LEVEL,), game="algebrawl")))
    status, out = run_cli("solve", str(path), "--work-budget", "5", "--json")
    data = json.loads(out)
    assert status == 1 and (data["status"], data["reason"]) == ("unknown", "work budget")
    status, out = run_cli("solve", str(path), "--work-budget", "5")
    assert "unknown (work budget)" in out
    status, out = run_cli("solve", str(path), "--json")
    data = json.loads(out)
    assert (data["status"], data["shortest"], data["reason"]) == ("solved", 4, None)
