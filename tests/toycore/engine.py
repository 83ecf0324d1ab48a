"""Slide-1D: a row of numbered tiles and one gap; slide a tile next to the gap into it until
the tiles read in order. The engine of the toy game (pure, immutable, on the Game protocol).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.game import IllegalMove, MoveKind
from core.levelpack import LevelFieldError

GAP = "."
"""The empty cell."""


@dataclass(frozen=True, slots=True)
class Level:
    """A row to sort: digits and exactly one gap, e.g. ``"21.3"``."""

    title: str
    row: str
    par: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= len(self.row) <= 9 or self.row.count(GAP) != 1:
            raise LevelFieldError("row", "a row has 2 to 9 cells and exactly one gap")
        tiles = self.row.replace(GAP, "")
        if not tiles.isdigit() or len(set(tiles)) != len(tiles):
            raise LevelFieldError("row", "tiles are distinct digits")
        if self.par is not None and not 0 <= self.par <= 1000:
            raise LevelFieldError("par", "par must be between 0 and 1000")


@dataclass(frozen=True, slots=True)
class State:
    """The row as it is now."""

    row: str


def _solved(row: str) -> bool:
    tiles = row.replace(GAP, "")
    return tiles == "".join(sorted(tiles)) and row.endswith(GAP)


class Slide1D:
    """The toy game: moves are ``"left"`` (the tile right of the gap slides left) and
    ``"right"`` (the tile left of the gap slides right)."""

    id = "toy"
    move_kinds = (MoveKind("slide", True, "slide a tile into the gap"),)

    def initial(self, level: Level) -> State:
        return State(level.row)

    def moves(self, state: State) -> Sequence[str]:
        if _solved(state.row):
            return ()
        gap = state.row.index(GAP)
        out = []
        if gap + 1 < len(state.row):
            out.append("left")
        if gap > 0:
            out.append("right")
        return tuple(out)

    def check(self, state: State, move: str) -> None:
        if move not in self.moves(state):
            raise IllegalMove(f"cannot slide {move} here")

    def apply(self, state: State, move: str) -> State:
        self.check(state, move)
        cells = list(state.row)
        gap = cells.index(GAP)
        other = gap + 1 if move == "left" else gap - 1
        cells[gap], cells[other] = cells[other], cells[gap]
        return State("".join(cells))

    def status(self, state: State) -> str:
        return "won" if _solved(state.row) else "playing"

    def finished(self, state: State) -> bool:
        return _solved(state.row)

    def describe_move(self, state: State, move: str) -> str:
        return f"slide {move}"

    def state_to_json(self, state: State) -> Any:
        return {"row": state.row}

    def state_from_json(self, data: Any) -> State:
        if not isinstance(data, dict) or not isinstance(data.get("row"), str):
            raise ValueError("not a toy state")
        return State(data["row"])

    def move_to_json(self, move: str) -> Any:
        return move

    def move_from_json(self, state: State, data: Any) -> str:
        if data not in ("left", "right"):
            raise ValueError(f"not a toy move: {data!r}")
        return data


GAME = Slide1D()
