"""2048 on the game seam: :data:`GAME` implements :class:`core.game.Game`.

The seed-004 API (:func:`core.game2048.move` returning the same object when nothing moves)
stays as it is; this adapter gives it the protocol's shape:

* a move is a direction (``"up"``, ``"down"``, ``"left"``, ``"right"``); one that would not
  change the board is illegal (:class:`core.game.IllegalMove`), as is any move once no move
  can change the board;
* a game dealt dead is over from the start: :func:`core.game2048.create_game` leaves
  ``is_game_over`` false as seed 004 §4 says (the first move decides), so :meth:`initial`
  asks :func:`core.game2048.check_if_game_over` once and sets the flag for the session;
* "won, keep playing" is said honestly: :meth:`Game2048.status` is ``"won"`` as soon as the
  goal tile is on the board, and :meth:`Game2048.finished` stays false while a move is left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from core.game import IllegalMove, MoveKind

from .board import DIRECTIONS
from .state import (
    GameConfig,
    GameState,
    check_if_game_over,
    create_game,
    has_won,
    legal_moves,
    move,
    replay_from,
    state_from_board,
)

__all__ = ["GAME", "Game2048", "replay_session", "start_game"]


def start_game(config: GameConfig) -> GameState:
    """The session's first state: :func:`create_game`, flagged over when dealt dead.

    The seed's ``createGame`` sets ``isGameOver`` to false and lets the first move decide; a
    player, though, should see at once that a 2×2 board dealt four unmergeable tiles has no
    move. This is that check, kept out of the seed API.

    Args:
        config: The configuration.

    Returns:
        ``create_game(config)``, with ``is_game_over`` set when no move can change the board.
    """
    state = create_game(config)
    if check_if_game_over(state):
        return replace(state, is_game_over=True)
    return state


def replay_session(config: GameConfig, moves: Iterable[str]) -> tuple[GameState, int]:
    """Replay directions from the session's start (:func:`start_game`: a board dealt dead is
    over at once, where the seed's :func:`replay` would let the first move decide).

    Returns:
        ``(final_state, moves_applied)`` as :func:`replay` counts them.
    """
    return replay_from(start_game(config), moves)


class Game2048:
    """2048 as a :class:`core.game.Game`."""

    id = "2048"
    """The game id."""
    move_kinds = (MoveKind("slide", True, "slide every tile one way; equal neighbours merge"),)
    """One kind: the four directions."""

    def initial(self, level: Any) -> GameState:
        """A new game from a :class:`GameConfig`, or from a 2048 level (its config and, when it
        gives one, its starting board)."""
        if isinstance(level, GameConfig):
            return start_game(level)
        board = getattr(level, "board", None)
        config = level.config
        if board is not None:
            return state_from_board(board, config)
        return start_game(config)

    def moves(self, state: GameState) -> Sequence[str]:
        """The directions that change the board, in the order up, down, left, right."""
        return legal_moves(state)

    def check(self, state: GameState, direction: str) -> None:
        """Raise IllegalMove unless ``direction`` changes the board."""
        self.apply(state, direction)

    def apply(self, state: GameState, direction: str) -> GameState:
        """Slide (and spawn a tile); raises IllegalMove when nothing would move."""
        if direction not in DIRECTIONS:
            raise IllegalMove(f"{direction!r} is not a direction (up, down, left or right)")
        if state.is_game_over:
            raise IllegalMove("the game is over: no move can change the board")
        nxt = move(state, direction)
        if nxt is state:
            raise IllegalMove(f"nothing moves {direction}")
        return nxt

    def status(self, state: GameState) -> str:
        """``"won"`` once the goal tile is on the board, ``"lost"`` when over without it."""
        if has_won(state):
            return "won"
        return "lost" if state.is_game_over else "playing"

    def finished(self, state: GameState) -> bool:
        """True only when no move can change the board (a win does not end the game)."""
        return state.is_game_over

    def describe_move(self, state: GameState, direction: str) -> str:
        """The direction's name."""
        return direction

    def state_to_json(self, state: GameState) -> dict[str, Any]:
        """The state's own snapshot (:meth:`GameState.to_dict`)."""
        return state.to_dict()

    def state_from_json(self, data: Any) -> GameState:
        """Rebuild a state (ValueError on bad data)."""
        if not isinstance(data, dict):
            raise ValueError("a 2048 state is a JSON object")
        return GameState.from_dict(data)

    def move_to_json(self, direction: str) -> str:
        """A move is its direction's name."""
        return direction

    def move_from_json(self, state: GameState, data: Any) -> str:
        """Read a direction (ValueError for anything else)."""
        if data not in DIRECTIONS:
            raise ValueError(f"not a 2048 move: {data!r}")
        return data


GAME = Game2048()
"""The 2048 engine on the seam (the registry's ``engine`` reference)."""
