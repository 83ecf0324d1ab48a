"""An Algebrawl level: a :class:`~core.algebrawl.puzzle.Puzzle` with a title, texts and par.

What a level file describes (``game algebrawl``). The puzzle checks its own bounds; this
module adds the level's own fields and names the field a complaint is about
(:class:`core.levelpack.LevelFieldError`), so the level-file loader can put its caret on
that field. Every level the constructor accepts can be written to a level file and read
back: the only cards refused are those the file format cannot write (none today: built-in
cards are written by symbol or name, any other card by its definition).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.levelmeta import check_meta
from core.levelpack import LevelFieldError

from .cards import DEFAULT_CARDS
from .puzzle import MAX_CARDS, MAX_NUMBERS, MAX_TARGETS, Puzzle

__all__ = ["MAX_PAR", "Level", "level_of"]

MAX_PAR = 99
"""Largest par (a puzzle has at most 24 cards and 8 targets, so 32 moves at most)."""


@dataclass(frozen=True, slots=True)
class Level:
    """One Algebrawl level.

    Attributes:
        title: Shown in level lists (the metadata fields title, par, description, hint
            and author are checked by ``core.levelmeta.check_meta``).
        puzzle: The numbers, targets, cards and house rules.
        par: The designer's number of moves (card plays and strikes), or None. The bundled
            levels' par is the solver's shortest solution (checked by the tests).
        description: Flavour / explanation text shown before playing.
        hint: The tip shown on the first ``t``.
        author: Who made the level.

    Raises:
        LevelFieldError: (a ValueError) naming the field out of bounds.
    """

    title: str
    """Shown in level lists."""
    puzzle: Puzzle
    """The puzzle."""
    par: int | None = None
    """The designer's number of moves, or None."""
    description: str = ""
    """Flavour / explanation text."""
    hint: str = ""
    """The tip shown on ``t``."""
    author: str = ""
    """Who made the level."""

    def __post_init__(self) -> None:
        check_meta(self)
        if not isinstance(self.puzzle, Puzzle):
            raise LevelFieldError(
                "numbers", f"an Algebrawl level needs a Puzzle, not {type(self.puzzle).__name__}"
            )
        # Stricter than every game's par (check_meta): a puzzle takes at least one move and
        # at most 32.
        par = self.par
        if par is not None and not 1 <= par <= MAX_PAR:
            raise LevelFieldError(
                "par", f"par must be a whole number from 1 to {MAX_PAR}, not {par!r}"
            )


def level_of(
    title: str,
    *,
    numbers,
    targets,
    cards=None,
    integer_only: bool = False,
    use_all: bool = False,
    **fields,
) -> Level:
    """Build a level from the values of a level file, blaming the right field on failure.

    :class:`Puzzle` checks everything at once; its complaints are mapped to the level-file
    field they are about (``numbers``, ``targets``, ``cards``, ``integer_only``).

    Args:
        title: The level's title.
        numbers: The starting numbers.
        targets: The targets.
        cards: The cards (None: the puzzle's default ``+ − × ÷``).
        integer_only: Whether every result must be whole.
        use_all: Whether every number must be used.
        **fields: ``par``, ``description``, ``hint``, ``author``.

    Returns:
        The level.

    Raises:
        LevelFieldError: Naming the field at fault.
    """
    numbers, targets = tuple(numbers), tuple(targets)
    if not 1 <= len(numbers) <= MAX_NUMBERS:
        raise LevelFieldError(
            "numbers", f"a puzzle has 1 to {MAX_NUMBERS} numbers, not {len(numbers)}"
        )
    if not 1 <= len(targets) <= MAX_TARGETS:
        raise LevelFieldError(
            "targets", f"a puzzle has 1 to {MAX_TARGETS} targets, not {len(targets)}"
        )
    if len(targets) > len(numbers):
        raise LevelFieldError(
            "targets",
            f"{len(targets)} targets need at least as many numbers (there are {len(numbers)})",
        )
    if cards is not None and len(cards) > MAX_CARDS:
        raise LevelFieldError("cards", f"a puzzle has at most {MAX_CARDS} cards, not {len(cards)}")
    if integer_only:
        for field, values in (("numbers", numbers), ("targets", targets)):
            if any(getattr(v, "denominator", 1) != 1 for v in values):
                raise LevelFieldError(field, f"an integer-only puzzle has whole {field}")
    rules = {"integer_only": integer_only, "use_all": use_all}
    try:
        puzzle = Puzzle.of(
            numbers, targets, tuple(cards) if cards is not None else DEFAULT_CARDS, **rules
        )
    except (TypeError, ValueError) as error:
        message = str(error)
        field = (
            "targets"
            if message.startswith("target")
            else "cards"
            if "card" in message
            else "numbers"
        )
        raise LevelFieldError(field, message) from None
    return Level(title, puzzle, **fields)
