"""The shape every game engine follows.

This module only documents the protocol; engines do not need to inherit from anything.
A game is a set of pure functions over immutable states, so that :class:`core.history.History`
and the generic parts of the TUI and the solvers can work with any of them.
"""

from __future__ import annotations

from typing import Literal, Protocol, Sequence, TypeVar

S = TypeVar("S")
A = TypeVar("A")

Status = Literal["playing", "won", "lost"]
"""The three outcomes a state can be in."""


class Game(Protocol[S, A]):
    """Protocol for a game engine (structural: any module or object with these functions).

    Methods:
        actions: The legal actions in a state (empty when the game is over).
        apply: The state after an action; never mutates its argument.
        status: Whether the state is won, lost or still being played.
    """

    def actions(self, state: S) -> Sequence[A]:
        """Return the legal actions in ``state``."""
        ...

    def apply(self, state: S, action: A) -> S:
        """Return the state after ``action``."""
        ...

    def status(self, state: S) -> Status:
        """Return ``"won"``, ``"lost"`` or ``"playing"``."""
        ...
