"""An Algebrawl puzzle: numbers, operator cards, targets and the house rules.

The constructor checks every bound, so any puzzle value can be written to a level file and
read back, and play stays fast: at most :data:`MAX_NUMBERS` numbers, :data:`MAX_CARDS`
cards and :data:`MAX_TARGETS` targets, numbers and targets within
:data:`~core.algebrawl.values.MAX_INPUT`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cards import DEFAULT_CARDS, Card, card_from_json, card_to_json
from .values import MAX_INPUT, Number, as_value, format_value, parse_value, within

__all__ = [
    "MAX_CARDS",
    "MAX_NUMBERS",
    "MAX_TARGETS",
    "Puzzle",
    "puzzle_from_json",
    "puzzle_to_json",
]

MAX_NUMBERS = 12
"""Most numbers (leaves) in a puzzle."""
MAX_CARDS = 24
"""Most operator cards in a puzzle."""
MAX_TARGETS = 8
"""Most targets (monsters) in a puzzle."""


def _values(items: Iterable[Number], what: str) -> tuple[Fraction, ...]:
    out = tuple(as_value(x) for x in items)
    for v in out:
        if not within(v, MAX_INPUT):
            raise ValueError(f"{what} {format_value(v)} is out of range (at most {MAX_INPUT:,})")
    return out


@dataclass(frozen=True, slots=True)
class Puzzle:
    """The level value of Algebrawl.

    Attributes:
        numbers: The starting pool (a multiset, in the order shown).
        targets: The monsters' values (a multiset).
        cards: The operator cards in hand; each card is played at most once.
        integer_only: Every result must be a whole number (a card giving ``7/2`` is refused).
        use_all: The pool must be empty at the end (every number used), as in the 24 game.
    """

    numbers: tuple[Fraction, ...]
    """The starting pool."""
    targets: tuple[Fraction, ...]
    """The monsters' values."""
    cards: tuple[Card, ...] = DEFAULT_CARDS
    """The operator cards, each played at most once."""
    integer_only: bool = False
    """Whether every result must be a whole number."""
    use_all: bool = False
    """Whether every number must be used to win."""

    def __post_init__(self) -> None:
        numbers = _values(self.numbers, "number")
        targets = _values(self.targets, "target")
        cards = tuple(self.cards)
        if not 1 <= len(numbers) <= MAX_NUMBERS:
            raise ValueError(f"a puzzle has 1 to {MAX_NUMBERS} numbers")
        if not 1 <= len(targets) <= MAX_TARGETS:
            raise ValueError(f"a puzzle has 1 to {MAX_TARGETS} targets")
        # A poison wizard can fell several monsters with one number; otherwise each strike
        # takes one.
        if len(targets) > len(numbers) and not any(getattr(c, "effect", "") for c in cards):
            raise ValueError("a puzzle needs at least as many numbers as targets")
        if len(cards) > MAX_CARDS or not all(isinstance(c, Card) for c in cards):
            raise ValueError(f"a puzzle has at most {MAX_CARDS} cards")
        by_name: dict[str, Card] = {}
        for c in cards:
            if by_name.setdefault(c.name, c) != c:
                raise ValueError(f"two different cards are named {c.name!r}")
        if not isinstance(self.integer_only, bool) or not isinstance(self.use_all, bool):
            raise TypeError("integer_only and use_all are booleans")
        if self.integer_only and any(v.denominator != 1 for v in numbers + targets):
            raise ValueError("an integer-only puzzle has whole numbers and targets")
        object.__setattr__(self, "numbers", numbers)
        object.__setattr__(self, "targets", targets)
        object.__setattr__(self, "cards", cards)

    @classmethod
    def of(
        cls,
        numbers: Sequence[Number],
        targets: Sequence[Number] | Number,
        cards: Sequence[Card] = DEFAULT_CARDS,
        **rules: bool,
    ) -> Puzzle:
        """Convenience constructor: ``Puzzle.of([3, 4, 5], 35)``.

        Args:
            numbers: The numbers.
            targets: One target or several.
            cards: The cards (default ``+ − × ÷``, one of each).
            **rules: ``integer_only`` and ``use_all``.

        Returns:
            The puzzle.
        """
        wanted = targets if isinstance(targets, (list, tuple)) else (targets,)
        # __post_init__ checks the values and makes them Fractions.
        return cls(tuple(numbers), tuple(wanted), tuple(cards), **rules)  # type: ignore[arg-type]

    def card_counts(self) -> Counter:
        """How many copies of each distinct card the puzzle has."""
        return Counter(self.cards)


def puzzle_to_json(puzzle: Puzzle) -> dict:
    """JSON form of a puzzle (numbers as text such as ``"7/2"``)."""
    return {
        "numbers": [format_value(v) for v in puzzle.numbers],
        "targets": [format_value(v) for v in puzzle.targets],
        "cards": [card_to_json(c) for c in puzzle.cards],
        "integer_only": puzzle.integer_only,
        "use_all": puzzle.use_all,
    }


def puzzle_from_json(data: object) -> Puzzle:
    """Rebuild a puzzle from :func:`puzzle_to_json`'s value.

    Raises:
        ValueError: When the data is malformed or out of bounds.
    """
    if not isinstance(data, dict):
        raise ValueError("a puzzle is a JSON object")
    lists: list[Any] = [data.get(k) for k in ("numbers", "targets", "cards")]
    if not all(isinstance(x, list) for x in lists):
        raise ValueError("a puzzle has lists of numbers, targets and cards")
    if len(lists[2]) > MAX_CARDS or len(lists[0]) > MAX_NUMBERS or len(lists[1]) > MAX_TARGETS:
        raise ValueError("too many numbers, targets or cards")
    return Puzzle(
        tuple(parse_value(x) for x in lists[0]),
        tuple(parse_value(x) for x in lists[1]),
        tuple(card_from_json(c) for c in lists[2]),
        integer_only=data.get("integer_only", False),
        use_all=data.get("use_all", False),
    )
