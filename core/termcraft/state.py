"""Value types of the TermCraft engine: states, rules, axioms, actions, errors.

Everything here is an immutable value.  Paths are tuples of 0-based child indices from the
root of the current term (``()`` is the root), as in :mod:`core.termcraft.terms`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from core.termcraft.terms import Path, Term, format_path, substitute, to_str

if TYPE_CHECKING:  # pragma: no cover
    from .level import Level

__all__ = [
    "Action",
    "Axiom",
    "ConstructAction",
    "Ignored",
    "IllegalMove",
    "RewriteAction",
    "Rule",
    "State",
    "Substitution",
    "instantiate",
]

Substitution = tuple[tuple[str, Term], ...]
"""A substitution as ``((variable name, ground term), ...)`` sorted by variable name."""


# One exception for every game's illegal moves (core.game); re-exported here.
from core.game import IllegalMove  # noqa: E402


@dataclass(frozen=True, slots=True)
class State:
    """A position in a TermCraft game (``GameState`` of the seed).

    Attributes:
        term: The current term ``T``.
        target: The target term.
        fuel: Fuel left (each rewrite costs 1).
        budget: Budget left (each construct costs the Size of the new term).
    """

    term: Term
    """The current term."""
    target: Term
    """The target term."""
    fuel: int
    """Fuel left."""
    budget: int
    """Budget left."""

    def __post_init__(self) -> None:
        if not isinstance(self.term, Term) or not isinstance(self.target, Term):
            raise TypeError("State.term and State.target must be terms")
        for name in ("fuel", "budget"):
            value = getattr(self, name)
            if type(value) is not int or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, not {value!r}")

    @classmethod
    def from_level(cls, level: Level) -> State:
        """Return the initial state of ``level``.

        Args:
            level: The level.

        Returns:
            A state with the level's current term, target, fuel and budget.
        """
        return cls(level.current, level.target, level.fuel, level.budget)

    @property
    def key(self) -> tuple[int, int, int, int]:
        """A hashable identity of the state (term ids + resources), used by the solver."""
        return (self.term.id, self.target.id, self.fuel, self.budget)


class Rule:
    """A valid rule ``rewrite(lhs, rhs)`` found in the current term (an immutable value).

    Attributes:
        path: Where the ``rewrite(...)`` subterm sits in the current term.
        lhs: The pattern (may contain variables).
        rhs: The replacement; its variables all occur in ``lhs``.

    Args:
        path: The rule's path, or None when ``link`` is given.
        lhs: The pattern.
        rhs: The replacement.
        link: The rule's position as a parent link (:mod:`core.termcraft.links`): the path is
            made from it when first asked for.  A chain of 20,000 nested rules has paths of
            200 million indices in all; the analysis keeps the links, and a path is built for
            the few rules a listing shows (issue 28).
    """

    __slots__ = ("_link", "_path", "lhs", "rhs")

    def __init__(self, path: Path | None, lhs: Term, rhs: Term, link: tuple | None = None):
        self._path = path
        self._link = link
        self.lhs = lhs
        """The pattern."""
        self.rhs = rhs
        """The replacement."""

    @property
    def path(self) -> Path:
        """Where the ``rewrite(...)`` subterm sits (built from the link once, then kept)."""
        if self._path is None:
            from core.termcraft.links import path_of

            self._path = path_of(self._link)
        return self._path

    def _key(self) -> tuple[Path, Term, Term]:
        return (self.path, self.lhs, self.rhs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Rule):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return f"Rule(path={self.path!r}, lhs={self.lhs!r}, rhs={self.rhs!r})"

    def __str__(self) -> str:
        return f"rewrite({to_str(self.lhs)},{to_str(self.rhs)})"


@dataclass(frozen=True, slots=True)
class Axiom:
    """A valid axiom ``equiv(left, right)`` (both sides ground) found in the current term.

    Attributes:
        path: Where the ``equiv(...)`` subterm sits.
        left: One side.
        right: The other side.
    """

    path: Path
    """Where the ``equiv(...)`` subterm sits."""
    left: Term
    """One side."""
    right: Term
    """The other side."""

    def __str__(self) -> str:
        return f"equiv({to_str(self.left)},{to_str(self.right)})"


@dataclass(frozen=True, slots=True)
class Ignored:
    """A ``rewrite``/``equiv`` subterm that the engine ignores, and why (a warning).

    Attributes:
        path: Where the subterm sits.
        code: Machine-readable reason: ``rule-arity``, ``rule-unbound-vars``,
            ``axiom-arity`` or ``axiom-not-ground``.
        message: Human-readable warning.
    """

    path: Path
    """Where the ignored subterm sits."""
    code: str
    """Machine-readable reason."""
    message: str
    """Human-readable warning."""


@lru_cache(maxsize=4096)
def instantiate(rhs: Term, sigma: Substitution) -> Term:
    """``rhs`` with its variables replaced by their bindings in ``sigma`` (cached).

    Args:
        rhs: A rule's right-hand side.
        sigma: The substitution, as in :attr:`RewriteAction.sigma`.

    Returns:
        The instantiated term.
    """
    return substitute(rhs, dict(sigma))


class RewriteAction(NamedTuple):
    """Apply ``rule`` at ``site`` with substitution ``sigma`` (costs 1 fuel).

    An immutable named tuple (cheap to create: a position can have thousands of actions).

    Attributes:
        rule: The rule.
        site: Path of the ground subterm to replace.
        sigma: The matching substitution, sorted by variable name.
        matched: The member of the site's equivalence class that matched ``rule.lhs``
            (the site's own subterm, or an equivalent term via ``equiv``/congruence).
        replacement: (property) ``rule.rhs`` instantiated by ``sigma``: what goes to
            ``site``; built on first use, since most listed actions are never previewed.
    """

    rule: Rule
    """The rule."""
    site: Path
    """Path of the subterm to replace."""
    sigma: Substitution
    """The substitution, sorted by variable name."""
    matched: Term
    """The equivalence-class member that matched the left-hand side."""

    @property
    def replacement(self) -> Term:
        """The instantiated right-hand side (ground)."""
        return instantiate(self.rule.rhs, self.sigma)

    def __str__(self) -> str:
        binds = ", ".join(f"{n}={to_str(t)}" for n, t in self.sigma)
        where = format_path(self.site)
        return f"{self.rule} at {where}" + (f" with {binds}" if binds else "")


@dataclass(frozen=True, slots=True)
class ConstructAction:
    """Replace the ``placeholder`` constant at ``site`` by the ground ``term`` (costs its Size).

    Attributes:
        site: Path of a ``placeholder`` constant.
        term: The ground term to put there.
    """

    site: Path
    """Path of the placeholder."""
    term: Term
    """The new term."""

    def __str__(self) -> str:
        where = format_path(self.site)
        return f"construct {to_str(self.term)} at {where}"


Action = RewriteAction | ConstructAction
"""Any player move."""
