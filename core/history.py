"""Undo/redo history of immutable game states.

A :class:`History` is itself immutable: every operation returns a new ``History``. Screens keep
one ``History`` per game in progress and render ``history.current``; undo and redo only move
an index, so they are O(1), and pushing after an undo drops the redo branch (the usual editor
behaviour).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Iterator, TypeVar

S = TypeVar("S")

DEFAULT_MAX_LEN = 10_000
"""How many states a history keeps by default before dropping the oldest."""


@dataclass(frozen=True, slots=True)
class History(Generic[S]):
    """A bounded, immutable list of states with a cursor.

    Attributes:
        states: The states from oldest to newest (never empty).
        index: Position of the current state in ``states``.
        max_len: The most states kept; pushing beyond it drops the oldest ones.
    """

    states: tuple[S, ...]
    """The states from oldest to newest (never empty)."""
    index: int = 0
    """Position of the current state in ``states``."""
    max_len: int = DEFAULT_MAX_LEN
    """The most states kept; the oldest are dropped first."""

    def __post_init__(self) -> None:
        if not isinstance(self.states, tuple):
            raise TypeError("History.states must be a tuple")
        if not self.states:
            raise ValueError("History needs at least one state")
        if self.max_len < 1:
            raise ValueError("History.max_len must be at least 1")
        if len(self.states) > self.max_len:
            raise ValueError("History holds more states than max_len")
        if not 0 <= self.index < len(self.states):
            raise ValueError("History.index out of range")

    @classmethod
    def start(cls, state: S, max_len: int = DEFAULT_MAX_LEN) -> History[S]:
        """Begin a history with a single state.

        Args:
            state: The initial state.
            max_len: The most states to keep.

        Returns:
            A history whose current state is ``state``.
        """
        return cls((state,), 0, max_len)

    @property
    def current(self) -> S:
        """The state under the cursor."""
        return self.states[self.index]

    @property
    def initial(self) -> S:
        """The oldest state still kept (what a restart goes back to if nothing was dropped)."""
        return self.states[0]

    @property
    def can_undo(self) -> bool:
        """True when there is an older state to go back to."""
        return self.index > 0

    @property
    def can_redo(self) -> bool:
        """True when an undone state can be restored."""
        return self.index < len(self.states) - 1

    @property
    def moves(self) -> int:
        """How many pushes separate the current state from the oldest kept state."""
        return self.index

    def push(self, state: S) -> History[S]:
        """Record a new state after the current one.

        States after the cursor (the redo branch) are discarded. When the history would exceed
        ``max_len`` the oldest states are dropped.

        Args:
            state: The new current state.

        Returns:
            The new history.
        """
        states = self.states[: self.index + 1] + (state,)
        if len(states) > self.max_len:
            states = states[len(states) - self.max_len :]
        return History(states, len(states) - 1, self.max_len)

    def undo(self) -> History[S]:
        """Step back one state; a no-op (same object) when nothing can be undone."""
        if not self.can_undo:
            return self
        return History(self.states, self.index - 1, self.max_len)

    def redo(self) -> History[S]:
        """Step forward one state; a no-op (same object) when nothing can be redone."""
        if not self.can_redo:
            return self
        return History(self.states, self.index + 1, self.max_len)

    def reset(self) -> History[S]:
        """Go back to the oldest kept state, forgetting everything after it."""
        return History((self.states[0],), 0, self.max_len)

    def __len__(self) -> int:
        return len(self.states)

    def __iter__(self) -> Iterator[S]:
        """Iterate over the states up to and including the current one (the played line)."""
        return iter(self.states[: self.index + 1])
