"""The generators the arcade offers for Triangle Carving (the registry's ``generators``).

Each is a fixed set of :func:`core.carving.generator.generate` knobs under a name; a level is
(generator, seed), so it can always be made again. The solver that proves par runs under a
state bound and a work budget, never a time bound, so the same seed gives the same level on
any machine; a play-out it cannot prove is dropped for the seed's next one.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any

from .game import Move
from .generator import Generated, generate
from .level import Level

__all__ = ["GENERATORS", "Difficulty", "known_solution"]

_KNOWN_MAX = 64
"""How many generated levels' solutions :func:`known_solution` remembers (the latest)."""
_KNOWN: OrderedDict[Level, tuple[Move, ...]] = OrderedDict()


def known_solution(level: Level) -> tuple[Move, ...] | None:
    """The solution the generator proved ``level``'s par against, when this process made
    ``level`` (one of the latest :data:`_KNOWN_MAX`): the solver's first known plan for it,
    so ``carving solve`` of a generated level repeats the generator's bounded proof instead
    of searching for a plan from nothing (issue 29: the generator's own play-out is the
    first known solution).

    Args:
        level: A level, compared by value (a level read back from its ID is equal to it).

    Returns:
        The moves of the generator's solution, or None for a level it did not make.
    """
    return _KNOWN.get(level)


def _remember(made: Generated) -> None:
    _KNOWN[made.level] = tuple(made.solution)
    _KNOWN.move_to_end(made.level)
    while len(_KNOWN) > _KNOWN_MAX:
        _KNOWN.popitem(last=False)


@dataclass(frozen=True)
class Difficulty:
    """Generated levels of one difficulty.

    Attributes:
        title: Shown in the level select.
        description: One line for the level select.
        knobs: Keyword arguments of :func:`core.carving.generator.generate`.
    """

    title: str
    """Shown in the level select."""
    description: str
    """One line for the level select."""
    knobs: dict[str, Any] = field(default_factory=dict)
    """The generator's knobs."""

    def generate(self, seed: int, **params: Any) -> Level:
        """The level of ``seed`` (``params`` override the knobs).

        Args:
            seed: The seed (0 to 2**32 - 1).
            **params: Knobs of :func:`core.carving.generator.generate`.

        Returns:
            The level, titled with the difficulty and the seed.

        Raises:
            ValueError: When no usable level comes out of the seed.
        """
        return self.generated(seed, **params).level

    def generated(self, seed: int, **params: Any) -> Generated:
        """The :class:`~core.carving.generator.Generated` of ``seed``: the level (titled
        as :meth:`generate` titles it), its solution, and how the drawing went.

        Args:
            seed: The seed (0 to 2**32 - 1).
            **params: Knobs of :func:`core.carving.generator.generate`.

        Returns:
            The generated level and its record.

        Raises:
            ValueError: When no usable level comes out of the seed
                (:class:`~core.carving.generator.NoProvedLevel` when no par was proved).
        """
        made = generate(seed, **{**self.knobs, **params})
        made = replace(made, level=_retitled(made.level, f"{self.title} #{seed}"))
        _remember(made)
        return made


def _retitled(level: Level, title: str) -> Level:
    return replace(level, title=title)


# Solver bounds for par: states and work, no clock (deterministic); small enough for the
# app's worker. A play-out whose proof passes them is dropped for the seed's next one. The
# budget is above what every seed proved before it existed needed (seeds 0-60 of easy and
# medium, 0-40 of hard: at most 1,184,898 images, Hard #35), so those seeds keep their
# levels; it stops the proofs that ran for minutes (Hard #7: 341 s of CPU, unproved).
_REFINE = {"refine": True, "max_states": 2_000, "time_limit": None, "budget": 2_000_000}

GENERATORS = {
    "easy": Difficulty(
        "Easy",
        "three variables, one type: a step or two",
        {"variables": 3, "types": 1, "steps": 2, **_REFINE},
    ),
    "medium": Difficulty(
        "Medium",
        "three variables, two types, one axiom",
        {"variables": 3, "types": 2, "axioms": 1, "steps": 3, **_REFINE},
    ),
    "hard": Difficulty(
        "Hard",
        "four variables, two axioms, longer play-outs",
        {"variables": 4, "types": 2, "axioms": 2, "steps": 4, **_REFINE},
    ),
}
"""Generated Triangle Carving levels by difficulty."""
