"""How a hand is solved: the 24 rule, Countdown, or the 24 rule with other cards.

A hand is numbers and one target, every number used once (``algebrawl solve --numbers``). The
24-game and Countdown solvers (:mod:`.hands`, :mod:`.countdown`) are memoised pure functions
without a cancel hook; the caller bounds them with a time limit of its own (the command line's
interval timer) that raises :class:`TimeUp` inside the block. This module decides what a hand
is under a rule and what is said when the time runs out: a hand found solvable whose distinct
solutions could not all be counted is still solvable, with one solution and no count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from .ast import Ast
from .cards import Card

__all__ = ["HandAnswer", "HandRule", "TimeLimit", "TimeUp", "no_limit"]


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
    """Distinct solutions (None when they could not be counted)."""
    complete: bool
    """Whether ``distinct`` is exact."""
    trees: list[Ast]
    """The solutions' trees (one, when solvable but not counted)."""


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
        seconds: float,
        limit: TimeLimit = no_limit,
    ) -> HandAnswer:
        """Solve a hand and count its distinct solutions.

        Args:
            numbers: The hand (checked by :meth:`check`).
            target: The value to reach.
            seconds: The time the solvers may take.
            limit: Bounds the 24 and Countdown solvers (the cards' solver polls its own).

        Returns:
            A :class:`HandAnswer`.
        """
        if self.cards is not None:
            return self._with_cards(numbers, target, seconds)
        if self.countdown:
            return _countdown(numbers, target, seconds, limit)
        return _game24(numbers, target, seconds, limit)

    def _with_cards(
        self, numbers: Sequence[Fraction], target: Fraction, seconds: float
    ) -> HandAnswer:
        from .puzzle import Puzzle
        from .solver import solve

        distinct = tuple(dict.fromkeys(self.cards or ()))
        hand = tuple(card for card in distinct for _ in range(len(numbers) - 1))
        puzzle = Puzzle(tuple(numbers), (target,), hand, use_all=True)
        result = solve(puzzle, count=True, time_limit=seconds)
        if result.status == "unknown":
            return HandAnswer(None, None, False, [])
        if result.status == "unsolvable":
            return HandAnswer(False, 0, True, [])
        trees = [strikes[0][1] for strikes in result.solutions] or [
            tree for _, tree in result.strikes
        ]
        return HandAnswer(True, result.count, result.complete, trees)


def _countdown(
    numbers: Sequence[Fraction], target: Fraction, seconds: float, limit: TimeLimit
) -> HandAnswer:
    from .countdown import countdown_solutions

    try:
        with limit(seconds):
            found = countdown_solutions([int(v) for v in numbers], int(target))
    except TimeUp:
        return HandAnswer(None, None, False, [])
    return HandAnswer(bool(found), len(found), True, [tree for _, tree in found])


def _game24(
    numbers: Sequence[Fraction], target: Fraction, seconds: float, limit: TimeLimit
) -> HandAnswer:
    from .hands import solutions24, solvable24, solve24

    solvable: bool | None = None
    try:
        with limit(seconds):
            solvable = solvable24(numbers, target)
            if not solvable:
                return HandAnswer(False, 0, True, [])
            solutions = solutions24(numbers, target)
    except TimeUp:
        if solvable:  # solvable, but the distinct solutions could not all be counted
            tree = solve24(numbers, target)  # its tables are memoised by now: instant
            return HandAnswer(True, None, False, [tree] if tree is not None else [])
        return HandAnswer(None, None, False, [])
    return HandAnswer(True, len(solutions), True, [s.tree for s in solutions])
