"""Undo/redo history of immutable game states.

A :class:`History` is itself immutable: every operation returns a new ``History``. It never
drops a state: saves are built from it (every move from the level's start), so a history
that forgot its oldest states would make a long game resume from a truncated move list.

The past and the redo branch are persistent linked lists (``(item, rest)`` cells), so push,
undo and redo are O(1) whatever the length of the game, and histories that share a past share
its cells.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

__all__ = ["History"]

S = TypeVar("S")

_Cells = tuple | None
"""A linked list: None, or ``(item, rest)``."""


def _items(cells: _Cells) -> list[Any]:
    out: list[Any] = []
    while cells is not None:
        out.append(cells[0])
        cells = cells[1]
    return out


@dataclass(frozen=True, slots=True, eq=False)
class History(Generic[S]):
    """A list of states with a cursor; nothing is ever dropped except a redo branch.

    Histories compare by identity: comparing two long linked lists structurally would be
    slow (and deep); compare ``states`` when that is what you mean.

    Attributes:
        current: The state under the cursor.
        initial: The first state of the history.
        index: How many states come before the cursor (the moves on the current line).
        size: How many states the history holds (the redo branch included).
    """

    current: S
    """The state under the cursor."""
    initial: S
    """The first state."""
    index: int = 0
    """States before the cursor."""
    size: int = 1
    """States in all."""
    _past: _Cells = None
    """States before the cursor, most recent first."""
    _future: _Cells = None
    """The redo branch, next first."""

    @classmethod
    def start(cls, state: S) -> History[S]:
        """Begin a history with a single state.

        Args:
            state: The initial state.

        Returns:
            A history whose current state is ``state``.
        """
        return cls(state, state)

    @property
    def can_undo(self) -> bool:
        """True when there is an older state to go back to."""
        return self._past is not None

    @property
    def can_redo(self) -> bool:
        """True when an undone state can be restored."""
        return self._future is not None

    @property
    def moves(self) -> int:
        """How many pushes separate the current state from the first one."""
        return self.index

    @property
    def states(self) -> tuple[S, ...]:
        """Every state, oldest first, the redo branch included (O(size))."""
        return tuple(reversed(_items(self._past))) + (self.current,) + tuple(_items(self._future))

    def push(self, state: S) -> History[S]:
        """Record a new state after the current one; the redo branch is discarded.

        Args:
            state: The new current state.

        Returns:
            The new history.
        """
        return History(
            state, self.initial, self.index + 1, self.index + 2, (self.current, self._past), None
        )

    def undo(self) -> History[S]:
        """Step back one state; a no-op (same object) when nothing can be undone."""
        if self._past is None:
            return self
        previous, rest = self._past
        return History(
            previous, self.initial, self.index - 1, self.size, rest, (self.current, self._future)
        )

    def redo(self) -> History[S]:
        """Step forward one state; a no-op (same object) when nothing can be redone."""
        if self._future is None:
            return self
        following, rest = self._future
        return History(
            following, self.initial, self.index + 1, self.size, (self.current, self._past), rest
        )

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[S]:
        """Iterate over the states up to and including the current one (the played line)."""
        yield from reversed(_items(self._past))
        yield self.current

    def backwards(self) -> Iterator[S]:
        """The played line newest first: the current state, then the past, most recent first.

        A reader that needs only the latest states stops early and touches nothing older.
        """
        yield self.current
        cells = self._past
        while cells is not None:
            item, cells = cells
            yield item
