"""Hostile inputs for Algebrawl (issue 28), each with an explicit bound.

* Level files: any mutation of a bundled file loads or is refused with a ParseError (never
  another exception), within a memory bound (tracemalloc).
* Hands: any hand of up to seven numbers, solved under a small work budget, answers within
  that budget and a memory bound, and the same answer whether the memo is cold or warm.
* Refusals are no slower than acceptances: CPU time (min of 3 runs) of refusing a bad file is
  at most twice that of loading a valid file of the same size, plus 0.5 s.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.algebrawl import hands
from core.algebrawl.handrule import HandRule
from grammar.errors import ParseError
from grammar.levels import load_pack
from tests.fuzz.bounds import cpu_seconds, peak_bytes

ROOT = Path(__file__).resolve().parents[2]
VALID = (ROOT / "levels" / "algebrawl" / "02-workshop.levels").read_text(encoding="utf-8")
MEMORY_BOUND = 64 * 1024 * 1024
"""Bytes a small input may make the loader or a budgeted solver allocate at its peak."""
HAND_BUDGET = 20_000
"""Work units per fuzzed hand (a few tenths of a second)."""


def load_or_refuse(text: str) -> None:
    with contextlib.suppress(ParseError):
        load_pack(text, game="algebrawl")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, len(VALID)),
    st.integers(0, 40),
    st.text(alphabet='()[]{}"0123456789+-*/=,abc \n;#.', max_size=40),
)
def test_mutated_level_files_load_or_are_refused(at: int, cut: int, insert: str) -> None:
    text = VALID[:at] + insert + VALID[at + cut :]
    assert peak_bytes(lambda: load_or_refuse(text)) < MEMORY_BOUND


@pytest.mark.slow  # 25 hands under tracemalloc: 83 s on the busy 2-core machine (issue 28)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.integers(-1000, 1000), min_size=1, max_size=7),
    st.integers(-1000, 1000),
    st.booleans(),
)
def test_any_hand_answers_within_its_budget(numbers: list[int], target: int, count: bool) -> None:
    rule = HandRule()
    hand = [F(v) for v in numbers]
    hands.clear_caches()
    answers = []

    def solve() -> None:
        answers.append(rule.solve(hand, F(target), None, budget=HAND_BUDGET))

    assert peak_bytes(solve) < MEMORY_BOUND
    solve()  # again, every table memoised now: the same answer
    first, second = answers
    assert first == second
    assert first.reason in ("", "work budget")
    assert (first.solvable is None) == (first.reason == "work budget" and not first.trees)


def countdown_hand_is_bounded() -> None:
    answer = HandRule(countdown=True).solve(
        [F(v) for v in (100, 75, 50, 25, 9, 7, 3)], F(999), None, budget=HAND_BUDGET
    )
    assert answer.reason in ("", "work budget")


def test_a_seven_number_countdown_hand_stays_in_its_bounds() -> None:
    assert peak_bytes(countdown_hand_is_bounded) < MEMORY_BOUND


# --------------------------------------------------------------------------- refusal speed


def level_block(index: int) -> str:
    return f'level "L{index}" {{\n  numbers [3 4 5]\n  targets [7]\n  cards [+ *]\n  par 2\n}}\n\n'


def valid_file(size: int) -> str:
    """A valid level file of about ``size`` characters (distinct titles)."""
    parts, total, index = ["game algebrawl\n\n"], 0, 0
    while total < size:
        block = level_block(index)
        parts.append(block)
        total += len(block)
        index += 1
    return "".join(parts)


def too_many_numbers(size: int) -> str:
    return 'game algebrawl\nlevel "x" {\n  numbers [' + "1 " * (size // 2) + "]\n}\n"


def garbage_at_the_end(size: int) -> str:
    return valid_file(size) + "level {"


def bad_value_at_the_end(size: int) -> str:
    return valid_file(size) + 'level "z" {\n  numbers [3 x]\n  targets [7]\n  cards [+]\n}\n'


def huge_number(size: int) -> str:
    return 'game algebrawl\nlevel "x" {\n  numbers [' + "9" * size + "]\n}\n"


def cpu(text: str) -> float:
    """CPU seconds to load or refuse ``text``: the least of three runs."""
    return cpu_seconds(lambda: load_or_refuse(text))


@pytest.mark.slow
@pytest.mark.parametrize(
    "bad", [too_many_numbers, garbage_at_the_end, bad_value_at_the_end, huge_number]
)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([20_000, 80_000]))
def test_refusals_are_no_slower_than_acceptances(bad: Callable[[int], str], size: int) -> None:
    text = bad(size)
    with pytest.raises(ParseError):
        load_pack(text, game="algebrawl")
    valid = valid_file(len(text))
    load_pack(valid, game="algebrawl")  # it is valid
    assert cpu(text) <= 2 * cpu(valid) + 0.5
