"""Formulas Δ(x,y,z) / ∇(a,b,c) and operator 5-tuples of seed 001 (§I), with canonical text.

A formula is a strictly ordered triple of variables under a head: ``D`` for Δ and ``N`` for
∇. An operator is a 5-tuple of formulas; it is a Θ operator (``theta``) when its first entry
is a ∇ and the other four are Δ, an Ω operator (``omega``) when the first four are Δ and the
last is ∇ (definition 1.3). Its conclusion is the fifth entry and ``V(e)`` is the set of its
entries; the tuple itself is the edge's identity, so two operators with the same ``V(e)`` are
parallel edges.

Canonical strings have no spaces: ``D(x,y,z)``, ``N(a,b,c)``,
``theta(N(..),D(..),D(..),D(..),D(..))``, ``omega(D(..),D(..),D(..),D(..),N(..))``. The
readers here accept exactly that form (the codec of saved games uses it); the forgiving,
whitespace-tolerant reader for people is the Lark grammar in ``grammar/``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "DELTA",
    "NABLA",
    "NAME_RE",
    "OMEGA",
    "THETA",
    "Formula",
    "Operator",
    "formula_from_str",
    "operator_from_str",
    "operator_kind",
]

DELTA = "D"
"""Head of the Δ formulas."""
NABLA = "N"
"""Head of the ∇ formulas."""
THETA = "theta"
"""Kind of the Θ operators ``(n, d1, d2, d3, d_base)``."""
OMEGA = "omega"
"""Kind of the Ω operators ``(d_b, d1, d2, d3, n_core)``."""

NAME_RE = re.compile(r"[A-Za-z0-9_]+")
"""What a name (type, variable, target vertex) may look like: ASCII letters, digits, ``_``."""

_FORMULA = r"([DN])\(([A-Za-z0-9_]+),([A-Za-z0-9_]+),([A-Za-z0-9_]+)\)"
_FORMULA_RE = re.compile(_FORMULA)
_OPERATOR_RE = re.compile(
    r"(theta|omega)\("
    + ",".join([r"([DN]\([A-Za-z0-9_]+,[A-Za-z0-9_]+,[A-Za-z0-9_]+\))"] * 5)
    + r"\)"
)


class Formula(NamedTuple):
    """A formula ``Δ(x,y,z)`` (head ``"D"``) or ``∇(x,y,z)`` (head ``"N"``).

    Attributes:
        head: ``"D"`` or ``"N"``.
        x: First variable.
        y: Second variable.
        z: Third variable.
    """

    head: str
    """``"D"`` (Δ) or ``"N"`` (∇)."""
    x: str
    """First variable."""
    y: str
    """Second variable."""
    z: str
    """Third variable."""

    def __str__(self) -> str:
        return f"{self.head}({self.x},{self.y},{self.z})"

    @property
    def is_delta(self) -> bool:
        """True for a Δ formula."""
        return self.head == DELTA

    @property
    def is_diagonal(self) -> bool:
        """True for ``Δ(x,x,x)`` / ``∇(x,x,x)`` (the initial formulas A_Δ ∪ A_∇)."""
        return self.x == self.y == self.z

    def rotated(self) -> Formula:
        """The cyclic rotation ``Δ(y,z,x)`` of ``Δ(x,y,z)`` (same head)."""
        return Formula(self.head, self.y, self.z, self.x)


class Operator(NamedTuple):
    """An operator 5-tuple ``(f1, ..., f5)``; a hyperedge of the game.

    Attributes:
        f1: First entry (∇ for Θ, the base Δ for Ω).
        f2: Second entry (d1).
        f3: Third entry (d2).
        f4: Fourth entry (d3).
        f5: Fifth entry, the conclusion (Δ for Θ, ∇ for Ω).
    """

    f1: Formula
    """First entry (∇ n for Θ, Δ d_b for Ω)."""
    f2: Formula
    """Second entry (d1)."""
    f3: Formula
    """Third entry (d2)."""
    f4: Formula
    """Fourth entry (d3)."""
    f5: Formula
    """Fifth entry: the conclusion concl(e)."""

    def __str__(self) -> str:
        kind = operator_kind(self) or "op"
        return f"{kind}({','.join(str(f) for f in self)})"

    @property
    def kind(self) -> str | None:
        """``"theta"``, ``"omega"`` or None when the heads fit neither shape."""
        return operator_kind(self)

    @property
    def concl(self) -> Formula:
        """The conclusion concl(e): the fifth entry."""
        return self.f5

    def vertices(self) -> tuple[Formula, ...]:
        """V(e): the distinct entries, in order of first appearance."""
        return tuple(dict.fromkeys(self))


def operator_kind(entries: tuple[Formula, ...]) -> str | None:
    """Classify five formulas as a Θ or Ω operator by their heads (definition 1.3).

    Args:
        entries: Five formulas.

    Returns:
        ``"theta"`` for (∇, Δ, Δ, Δ, Δ), ``"omega"`` for (Δ, Δ, Δ, Δ, ∇), else None.
    """
    heads = "".join(f.head for f in entries)
    if heads == "NDDDD":
        return THETA
    if heads == "DDDDN":
        return OMEGA
    return None


def formula_from_str(text: str) -> Formula:
    """Read a formula in canonical form (``D(x,y,z)``, no spaces).

    Args:
        text: The canonical string.

    Returns:
        The formula.

    Raises:
        ValueError: When ``text`` is not a canonical formula.
    """
    if not isinstance(text, str):
        raise ValueError(f"a formula must be a string like D(x,y,z), not {type(text).__name__}")
    match = _FORMULA_RE.fullmatch(text)
    if match is None:
        raise ValueError(f"not a formula: {text!r} (expected D(x,y,z) or N(x,y,z))")
    return Formula(*match.groups())


def operator_from_str(text: str) -> Operator:
    """Read an operator in canonical form (``theta(N(..),D(..),D(..),D(..),D(..))``).

    Args:
        text: The canonical string.

    Returns:
        The operator.

    Raises:
        ValueError: When ``text`` is not a canonical operator, or its heads do not fit its
            kind.
    """
    if not isinstance(text, str):
        raise ValueError(f"an operator must be a string, not {type(text).__name__}")
    match = _OPERATOR_RE.fullmatch(text)
    if match is None:
        raise ValueError(
            f"not an operator: {text!r} (expected theta(...) or omega(...) of five formulas)"
        )
    kind, *parts = match.groups()
    op = Operator(*(formula_from_str(p) for p in parts))
    if op.kind != kind:
        shape = "(N, D, D, D, D)" if kind == THETA else "(D, D, D, D, N)"
        raise ValueError(f"{kind} needs formulas shaped {shape}: {text!r}")
    return op
