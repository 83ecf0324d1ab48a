"""Longcat behind the shared :class:`core.game.Game` protocol (``GAME``).

Moves are the strings ``"up"``, ``"down"``, ``"left"``, ``"right"``. States are
:class:`core.longcat.rules.State` values and carry their level, so a state's JSON holds the
level too (``state_from_json`` needs nothing else).
"""

from __future__ import annotations

from typing import Any

from core.game import IllegalMove, MoveKind
from core.longcat.level import DIRECTIONS, Level, bits
from core.longcat.rules import State, apply_move, initial, legal_moves, status
from core.text import plural

__all__ = ["GAME", "LongcatGame", "level_from_json", "level_to_json"]

_META = ("title", "description", "hint", "author")


def level_to_json(level: Level) -> dict[str, Any]:
    """A JSON-safe dict of a level: its grid rows and its text fields (and par when set).

    Args:
        level: The level.

    Returns:
        ``{"rows": [...], "title": ..., "description": ..., "hint": ..., "author": ...,
        "par": int | None}``.
    """
    data: dict[str, Any] = {"rows": list(level.rows())}
    for name in _META:
        data[name] = getattr(level, name)
    data["par"] = level.par
    return data


def level_from_json(data: Any) -> Level:
    """Rebuild a level from :func:`level_to_json`'s value.

    Raises:
        ValueError: When ``data`` is not such a value.
    """
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise ValueError("a Longcat level must be an object with a list of grid rows")
    rows = data["rows"]
    if not all(isinstance(r, str) for r in rows):
        raise ValueError("Longcat grid rows must be strings")
    meta = {name: data.get(name, "") for name in _META}
    try:
        return Level.from_rows(rows, par=data.get("par"), **meta)
    except TypeError as error:
        raise ValueError(str(error)) from None


class LongcatGame:
    """The Longcat engine as a :class:`core.game.Game` (stateless; use :data:`GAME`).

    Attributes:
        id: ``"longcat"``.
        move_kinds: One kind, ``slide``.
    """

    id = "longcat"
    """The game id."""
    move_kinds = (
        MoveKind(
            "slide", True, "slide the cat up, down, left or right until it hits a wall or its body"
        ),
    )
    """Every move is a slide in one of four directions."""

    def initial(self, level: Level) -> State:
        """The start of ``level`` (see :func:`core.longcat.rules.initial`)."""
        if not isinstance(level, Level):
            raise ValueError("Longcat needs a core.longcat.Level")
        return initial(level)

    def moves(self, state: State) -> tuple[str, ...]:
        """Legal directions in ``up, down, left, right`` order (empty when finished)."""
        return legal_moves(state)

    def check(self, state: State, move: str) -> None:
        """Raise :class:`IllegalMove` unless ``move`` is legal in ``state``."""
        apply_move(state, move)

    def apply(self, state: State, move: str) -> State:
        """The state after ``move`` (see :func:`core.longcat.rules.apply_move`)."""
        return apply_move(state, move)

    def status(self, state: State) -> str:
        """``"won"``, ``"lost"`` or ``"playing"``."""
        return status(state)

    def finished(self, state: State) -> bool:
        """True when won or lost: a Longcat level accepts no move after either."""
        return status(state) != "playing"

    def describe_move(self, state: State, move: str) -> str:
        """``"up, 3 cells"``: the direction and how many cells the head advances."""
        try:
            after = apply_move(state, move)
        except IllegalMove:
            return f"{move} (blocked)"
        return f"{move}, {plural((after.filled & ~state.filled).bit_count(), 'cell')}"

    def state_to_json(self, state: State) -> dict[str, Any]:
        """``{"level": {...}, "head": [x, y], "filled": [[x, y], ...]}`` (cells in board
        order)."""
        level = state.level
        return {
            "level": level_to_json(level),
            "head": list(state.head_xy),
            "filled": [list(level.xy(i)) for i in bits(state.filled)],
        }

    def state_from_json(self, data: Any) -> State:
        """Rebuild a state; checks that the head is filled and every filled cell is empty
        ground (the start included).

        Raises:
            ValueError: When ``data`` is not a valid state.
        """
        if not isinstance(data, dict):
            raise ValueError("a Longcat state must be an object")
        level = level_from_json(data.get("level"))
        head = self._cell(level, data.get("head"))
        filled = 0
        cells = data.get("filled")
        if not isinstance(cells, list):
            raise ValueError("a Longcat state needs a list of filled cells")
        for cell in cells:
            filled |= 1 << self._cell(level, cell)
        if not filled >> head & 1 or not filled >> level.start_index & 1:
            raise ValueError("the head and the start cell must be filled")
        return State(level, head, filled)

    @staticmethod
    def _cell(level: Level, value: Any) -> int:
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        ):
            raise ValueError(f"a cell must be [x, y], not {value!r}")
        x, y = value
        if level.is_wall(x, y):
            raise ValueError(f"cell {value} is a wall or outside the grid")
        return level.index(x, y)

    def move_to_json(self, move: str) -> str:
        """The move itself (a direction name)."""
        return move

    def move_from_json(self, state: State, data: Any) -> str:
        """A direction name back into a move.

        Raises:
            ValueError: When ``data`` is not one of the four direction names.
        """
        if data not in DIRECTIONS:
            raise ValueError(f"{data!r} is not a Longcat move (up, down, left or right)")
        return data


GAME = LongcatGame()
"""The Longcat engine."""
