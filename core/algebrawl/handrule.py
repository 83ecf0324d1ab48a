"""How a hand is solved: the 24 rule, Countdown, or the 24 rule with other cards.

A hand is numbers and one target, every number used once (``algebrawl solve --numbers``).
Every solver is bounded by one :class:`core.search.Watch` per hand: a *work budget* (units of
combinations: values or normal forms combined, see :mod:`.hands` and :mod:`.countdown`; values
stored for other cards, see :mod:`.solver`), a deadline and a cancel test, polled inside the
solvers' loops. The budget makes an answer the same on an idle and on a busy machine; the
deadline only guards against a hang. A caller may still pass a time limit of its own that
raises :class:`TimeUp` inside the block (a :data:`TimeLimit`). This module decides what a hand
is under a rule and what is said when a bound is hit: a hand found solvable whose distinct
solutions could not all be counted is still solvable, with one solution and no count, and
:attr:`HandAnswer.reason` says which bound stopped it.

A caller that does not want the count (``count=False``) asks for a number of solutions
instead (``wanted``): the 24 rule then stops at the first solution (or the first ``wanted``
distinct ones) and says nothing of the count (None, with no reason: it was not asked). A hand
found unsolvable needed the whole search either way, which is a proof: its count is 0.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from core.search import Interrupted, Watch

from .ast import Ast
from .cards import Card

__all__ = ["REASONS", "HandAnswer", "HandRule", "TimeLimit", "TimeUp", "no_limit"]

REASONS = {"limit": "time limit", "budget": "work budget", "cancelled": "cancelled"}
"""What an answer cut short says, by :class:`core.search.Interrupted` reason."""


class TimeUp(BaseException):
    """The solver ran out of its time (a BaseException: no library code swallows it)."""


TimeLimit = Callable[[float], AbstractContextManager[object]]
"""A time limit: given seconds, a block that raises :class:`TimeUp` once they have passed."""


def no_limit(seconds: float) -> AbstractContextManager[object]:
    """The time limit that never fires (where the caller has no timer)."""
    return nullcontext()


class HandAnswer(NamedTuple):
    """What a hand is under a rule."""

    solvable: bool | None
    """True, False, or None when the time ran out before an answer."""
    distinct: int | None
    """Distinct solutions (None when they could not be counted, or were not asked)."""
    complete: bool
    """Whether ``distinct`` is exact."""
    trees: list[Ast]
    """The solutions' trees (one, when solvable but not counted; at most ``wanted`` when
    the count was not asked)."""
    reason: str = ""
    """Which bound cut the answer short (``"time limit"``, ``"work budget"``,
    ``"cancelled"``), or ``""`` when none did (complete, or not counted because not asked)."""


@dataclass(frozen=True)
class HandRule:
    """How a hand is solved.

    Attributes:
        countdown: Countdown's rule (whole numbers, no fractions on the way) instead of 24's.
        cards: Other cards than ``+ − × ÷`` (each as often as a hand needs); None for 24's.
    """

    countdown: bool = False
    """Countdown's rule."""
    cards: tuple[Card, ...] | None = None
    """The cards, when not the four operators."""

    def check(self, numbers: Sequence[Fraction], target: Fraction) -> None:
        """Refuse hands the rule cannot take (ValueError in words)."""
        from .hands import MAX_HAND
        from .puzzle import MAX_CARDS

        if not 1 <= len(numbers) <= MAX_HAND:
            raise ValueError(f"a hand has 1 to {MAX_HAND} numbers, not {len(numbers)}")
        if self.countdown and not all(
            v.denominator == 1 and 1 <= v <= 10**6 for v in (*numbers, target)
        ):
            raise ValueError("Countdown takes whole numbers from 1 to 1,000,000")
        if self.cards is not None:
            copies = (len(numbers) - 1) * len(set(self.cards))
            if copies > MAX_CARDS:
                raise ValueError(
                    f"{len(numbers)} numbers with {len(set(self.cards))} cards "
                    f"need {copies} cards in hand (at most {MAX_CARDS})"
                )

    def solve(
        self,
        numbers: Sequence[Fraction],
        target: Fraction,
        seconds: float | None,
        limit: TimeLimit = no_limit,
        *,
        budget: int | None = None,
        deadline: float | None = None,
        should_stop: Callable[[], bool] | None = None,
        count: bool = True,
        wanted: int = 0,
    ) -> HandAnswer:
        """Solve a hand and count its distinct solutions (or find only some of them).

        Args:
            numbers: The hand (checked by :meth:`check`).
            target: The value to reach.
            seconds: The time the solvers may take (None: no limit but ``deadline``).
            limit: A time limit of the caller's own around the 24 and Countdown solvers.
            budget: Work units the hand may cost, solving and counting together (None: no
                budget); the unit is the solver's own (see the module docstring).
            deadline: An absolute :func:`time.monotonic` deadline, instead of ``seconds``.
            should_stop: Called now and then; True stops the solvers.
            count: Count the distinct solutions. False: find only ``wanted`` of them and
                leave ``distinct`` None when the hand is solvable (the 24 rule stops early;
                Countdown and other cards find one solution with ``wanted`` 1, else
                still search them all).
            wanted: With ``count`` False, how many distinct solutions to find (0: all).

        Returns:
            A :class:`HandAnswer`.
        """
        watch = Watch(seconds, should_stop, deadline=deadline, budget=budget)
        if self.cards is not None:
            answer = self._with_cards(numbers, target, watch, count or wanted != 1)
        elif self.countdown:
            answer = _countdown(numbers, target, watch, limit, count or wanted != 1)
        elif not count:
            return _some24(numbers, target, watch, limit, wanted)
        else:
            return _game24(numbers, target, watch, limit)
        return answer if count else _uncounted(answer, wanted)

    def _with_cards(
        self, numbers: Sequence[Fraction], target: Fraction, watch: Watch, count: bool = True
    ) -> HandAnswer:
        from .puzzle import Puzzle
        from .solver import solve

        distinct = tuple(dict.fromkeys(self.cards or ()))
        hand = tuple(card for card in distinct for _ in range(len(numbers) - 1))
        puzzle = Puzzle(tuple(numbers), (target,), hand, use_all=True)
        result = solve(puzzle, count=count, watch=watch)
        if result.status == "unknown":
            return HandAnswer(None, None, False, [], result.reason)
        if result.status == "unsolvable":
            return HandAnswer(False, 0, True, [])
        trees = [strikes[0][1] for strikes in result.solutions] or [
            tree for _, tree in result.strikes
        ]
        return HandAnswer(True, result.count, result.complete, trees, result.reason)


def _uncounted(answer: HandAnswer, wanted: int) -> HandAnswer:
    """An answer without its count (not asked): at most ``wanted`` trees (0: all); an
    unsolvable hand keeps its proved 0, an answer cut short its reason."""
    if not answer.solvable:
        return answer
    trees = answer.trees[:wanted] if wanted else answer.trees
    return HandAnswer(True, None, False, trees, answer.reason)


def _seconds(watch: Watch) -> float:
    """What is left of the watch's time, for a caller's :data:`TimeLimit` (an hour
    without a deadline: that limit is a guard against a hang, not the bound)."""
    if watch.deadline is None:
        return 3600.0
    return max(watch.deadline - watch.started, 0.0)


def _countdown(
    numbers: Sequence[Fraction],
    target: Fraction,
    watch: Watch,
    limit: TimeLimit,
    count: bool = True,
) -> HandAnswer:
    """Countdown's rule: every distinct solution, or one witness when not ``count``."""
    from .countdown import countdown_solutions, countdown_witness

    whole = [int(v) for v in numbers]
    try:
        with limit(_seconds(watch)):
            if not count:
                tree = countdown_witness(whole, int(target), watch=watch)
                if tree is None:
                    return HandAnswer(False, 0, True, [])
                return HandAnswer(True, None, False, [tree])
            found = countdown_solutions(whole, int(target), watch=watch)
    except TimeUp:
        return HandAnswer(None, None, False, [], REASONS["limit"])
    except Interrupted as stop:
        return HandAnswer(None, None, False, [], REASONS[stop.reason])
    return HandAnswer(bool(found), len(found), True, [tree for _, tree in found])


def _game24(
    numbers: Sequence[Fraction], target: Fraction, watch: Watch, limit: TimeLimit
) -> HandAnswer:
    from .hands import metered, solutions24, solvable24, solve24

    solvable: bool | None = None
    reason = REASONS["limit"]
    try:
        with limit(_seconds(watch)), metered(watch):
            solvable = solvable24(numbers, target)
            if not solvable:
                return HandAnswer(False, 0, True, [])
            solutions = solutions24(numbers, target)
    except TimeUp:
        pass
    except Interrupted as stop:
        reason = REASONS[stop.reason]
    else:
        return HandAnswer(True, len(solutions), True, [s.tree for s in solutions])
    if solvable:  # solvable, but the distinct solutions could not all be counted
        tree = solve24(numbers, target)  # its tables are memoised by now: instant
        return HandAnswer(True, None, False, [tree] if tree is not None else [], reason)
    return HandAnswer(None, None, False, [], reason)


def _some24(
    numbers: Sequence[Fraction], target: Fraction, watch: Watch, limit: TimeLimit, wanted: int
) -> HandAnswer:
    """The 24 rule without the count: one witness when ``wanted`` is 1 (the search stops at
    the first solution), else the first ``wanted`` distinct solutions found (0: all). An
    unsolvable hand is the whole search, so its count, 0, is proved."""
    from .hands import metered, solutions24, solve24

    tree: Ast | None = None
    try:
        with limit(_seconds(watch)), metered(watch):
            tree = solve24(numbers, target)
            if tree is None:
                return HandAnswer(False, 0, True, [])
            if wanted == 1:
                return HandAnswer(True, None, False, [tree])
            found = solutions24(numbers, target, at_most=wanted or None)
    except TimeUp:
        return _cut(tree, REASONS["limit"])
    except Interrupted as stop:
        return _cut(tree, REASONS[stop.reason])
    return HandAnswer(True, None, False, [s.tree for s in found])


def _cut(tree: Ast | None, reason: str) -> HandAnswer:
    """A hand cut short: solvable with its witness when one was found first, else unknown."""
    if tree is None:
        return HandAnswer(None, None, False, [], reason)
    return HandAnswer(True, None, False, [tree], reason)
