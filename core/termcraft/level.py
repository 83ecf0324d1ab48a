"""A TermCraft level: the initial current term, the target and the resources (seed 000 §3).

A :class:`Level` is what a level file describes and what the developer panel edits; the game
itself runs on :class:`core.termcraft.state.State` values made by ``State.from_level``.

The constructor checks every bound (resources, texts, and that both terms print as text that
reads back as the same term), so every level it accepts can be saved and loaded again.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.levelmeta import check_meta
from core.levelpack import LevelFieldError
from core.termcraft.terms import Term, is_identifier

__all__ = ["MAX_RESOURCE", "Level"]

MAX_RESOURCE = 10**9
"""Largest fuel or budget (keeps counters sane and level files readable)."""


def _check_resource(name: str, value: object) -> None:
    if type(value) is not int or not 0 <= value <= MAX_RESOURCE:
        raise LevelFieldError(
            name, f"{name} must be an integer from 0 to {MAX_RESOURCE}, not {value!r}"
        )


# Roots already checked, so a term shared by many levels (a pack's common target, a
# generator's levels) is walked once. Bounded, and it only holds terms that are valid.
_CHECKED: dict[int, Term] = {}
_CHECKED_MAX = 1024


def _check_term(name: str, term: object) -> None:
    """Refuse terms whose printed text would read back as a different term.

    core.termcraft.terms builds any node it is given, but the term syntax has ASCII ``\\w+`` names only,
    and ``var(X)`` is read as a variable: a compound named var (any case) with one constant
    argument would come back as the variable X.
    """
    if not isinstance(term, Term):
        raise LevelFieldError(name, f"{name} must be a term, not {type(term).__name__}")
    if term.id in _CHECKED:
        return
    good_names: set[str] = set()
    seen: set[int] = set()
    stack = [term]  # iterative: deep terms are fine
    while stack:
        node = stack.pop()
        if node.id in seen:
            continue
        seen.add(node.id)
        if node.name not in good_names:
            if not is_identifier(node.name):
                raise LevelFieldError(
                    name,
                    f"{name} has a name that is not an identifier "
                    f"(letters, digits, _): {node.name[:40]!r}",
                )
            good_names.add(node.name)
        args = node.args
        if args:
            if len(args) == 1 and args[0].is_const and node.name.lower() == "var":
                raise LevelFieldError(
                    name,
                    f"{name} holds a compound {node.name}({args[0].name}) "
                    "that reads back as a variable; use var(...) variables",
                )
            stack.extend(args)
    if len(_CHECKED) >= _CHECKED_MAX:
        _CHECKED.clear()
    _CHECKED[term.id] = term


@dataclass(frozen=True, slots=True)
class Level:
    """One TermCraft puzzle.

    Attributes:
        title: Shown in level lists and on the game screen (the metadata fields title, par,
            description, hint and author are checked by ``core.levelmeta.check_meta``).
        current: The initial current term (rules, axioms and data all live in it).
        target: The term to reach (win = current term identical to it).
        fuel: Initial fuel: how many rewrite actions may be applied (0 to ``MAX_RESOURCE``).
        budget: Initial budget: the total Size that constructs may spend (0 to ``MAX_RESOURCE``).
        par: The designer's move count for a good solution, if any.
        description: Flavour / explanation text shown before playing.
        hint: The tip shown on ``t``.
        author: Who made the level.

    Raises:
        LevelFieldError: (a ValueError) naming the first field that is out of bounds or of
            the wrong type.
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
    par: int | None = None
    """The designer's move count for a good solution, if any."""
    description: str = ""
    """Flavour / explanation text."""
    hint: str = ""
    """The tip shown on ``t``."""
    author: str = ""
    """Who made the level."""

    def __post_init__(self) -> None:
        check_meta(self)
        _check_resource("fuel", self.fuel)
        _check_resource("budget", self.budget)
        _check_term("current", self.current)
        _check_term("target", self.target)
