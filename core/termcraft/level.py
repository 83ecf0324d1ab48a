"""A TermCraft level: the initial current term, the target and the resources (seed 000 §3).

A :class:`Level` is what a level file describes and what the developer panel edits; the game
itself runs on :class:`core.termcraft.state.State` values made by ``State.from_level``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from core.terms import Term

__all__ = ["Level"]


@dataclass(frozen=True, slots=True)
class Level:
    """One TermCraft puzzle.

    Attributes:
        title: Shown in level lists and on the game screen.
        current: The initial current term (rules, axioms and data all live in it).
        target: The term to reach (win = current term identical to it).
        fuel: Initial fuel: how many rewrite actions may be applied.
        budget: Initial budget: the total Size that constructs may spend.
        par: The designer's move count for a good solution, if any.
        description: Flavour / explanation text shown before playing.
        hint: The tip shown on ``t``.
        author: Who made the level.
    """

    title: str
    """Shown in level lists and on the game screen."""
    current: Term
    """The initial current term."""
    target: Term
    """The term to reach."""
    fuel: int
    """Initial fuel (rewrite actions, 1 each)."""
    budget: int
    """Initial budget (constructs cost the Size of the new term)."""
    par: Optional[int] = None
    """The designer's move count for a good solution, if any."""
    description: str = ""
    """Flavour / explanation text."""
    hint: str = ""
    """The tip shown on ``t``."""
    author: str = ""
    """Who made the level."""

    def __post_init__(self) -> None:
        if not isinstance(self.current, Term) or not isinstance(self.target, Term):
            raise TypeError("Level.current and Level.target must be terms")
        for name in ("fuel", "budget"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, not {value!r}")
        if self.par is not None and (type(self.par) is not int or self.par < 0):
            raise ValueError(f"par must be a non-negative integer, not {self.par!r}")
