"""A game being played: any :class:`core.game.Game`, its start and its whole history.

A :class:`Session` is what the puzzle screen base holds and what a save records. It is a
pure value: playing, undoing, redoing and restarting return a new session.

* **Restart is a move** (Simon Tatham's convention): it pushes the start state, so it can be
  undone like any other move, and nothing a player did is lost by pressing ``R``.
* **Saves are exact**: :meth:`Session.to_json` records every step from the start (the redo
  branch included) and the cursor; :meth:`Session.from_json` replays them through the engine,
  so a resumed game has its whole undo history back.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.game import Game, IllegalMove
from core.history import History

__all__ = ["RESTART", "Session", "Step"]

RESTART: dict[str, bool] = {"restart": True}
"""The move recorded for a restart (a JSON value, like every saved move)."""


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of a session's history: a state and the move that led to it.

    Attributes:
        state: The engine state.
        move: The move as JSON (``game.move_to_json``), :data:`RESTART`, or None for the
            first state.
    """

    state: Any
    """The engine state."""
    move: Any = None
    """The move that led here, as JSON."""


@dataclass(frozen=True, slots=True, eq=False)
class Session:
    """A game in play.

    Sessions compare by identity (a new one comes out of every move), so a reactive
    attribute holding one never walks the whole history to compare.

    Attributes:
        game: The engine.
        history: Every step so far (undo and redo move its cursor).
    """

    game: Game
    """The engine."""
    history: History[Step]
    """Every step so far."""

    @classmethod
    def begin(cls, game: Game, start: Any) -> Session:
        """A session at ``start`` with nothing played.

        Args:
            game: The engine.
            start: The first state (``game.initial(level)``).

        Returns:
            The session.
        """
        return cls(game, History.start(Step(start)))

    # -- reading ---------------------------------------------------------------------------

    @property
    def state(self) -> Any:
        """The current state."""
        return self.history.current.state

    @property
    def start(self) -> Any:
        """The first state (what a restart goes back to)."""
        return self.history.initial.state

    @property
    def last_move(self) -> Any:
        """The move (JSON) that led to the current state; None at the start."""
        return self.history.current.move

    @property
    def moves_made(self) -> int:
        """Moves on the played line since the last restart (what is compared with par)."""
        count = 0
        for step in self.history:
            if step.move == RESTART:
                count = 0
            elif step.move is not None:
                count += 1
        return count

    def line_since_restart(self) -> list[Any]:
        """The states of the played line since the last restart (or the start).

        A game whose picture depends on the order of its moves (Longcat's body) derives it
        from these, so undo, redo and restart need nothing of their own.

        Returns:
            The restart's (or the start's) state first, the current state last.
        """
        states: list[Any] = []
        for step in self.history:
            if step.move is None or step.move == RESTART:
                states = [step.state]
            else:
                states.append(step.state)
        return states

    @property
    def status(self) -> str:
        """The engine's status of the current state."""
        return self.game.status(self.state)

    @property
    def finished(self) -> bool:
        """True when the current state accepts no move."""
        return self.game.finished(self.state)

    @property
    def can_undo(self) -> bool:
        """True when a step can be taken back."""
        return self.history.can_undo

    @property
    def can_redo(self) -> bool:
        """True when an undone step can be played again."""
        return self.history.can_redo

    @property
    def touched(self) -> bool:
        """True when anything was played (a game worth keeping)."""
        return len(self.history) > 1

    # -- playing ---------------------------------------------------------------------------

    def play(self, move: Any) -> Session:
        """Play ``move`` through the engine.

        Raises:
            IllegalMove: When the engine refuses it (the session is unchanged).
        """
        state = self.game.apply(self.state, move)
        return Session(self.game, self.history.push(Step(state, self.game.move_to_json(move))))

    def undo(self) -> Session:
        """Take back the last step (a no-op returning ``self`` when there is none)."""
        history = self.history.undo()
        return self if history is self.history else Session(self.game, history)

    def redo(self) -> Session:
        """Play again an undone step (a no-op returning ``self`` when there is none)."""
        history = self.history.redo()
        return self if history is self.history else Session(self.game, history)

    def restart(self) -> Session:
        """Go back to the start as a move that can be undone (no-op when already there)."""
        if self.state == self.start and self.moves_made == 0:
            return self
        return Session(self.game, self.history.push(Step(self.start, RESTART)))

    # -- saving ----------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """Every step's move from the start (redo branch included) and the cursor.

        Returns:
            ``{"moves": [...], "index": n}``; the start itself is saved by the caller (as the
            level it comes from).
        """
        moves = [step.move for step in self.history.states[1:]]
        return {"moves": moves, "index": self.history.index}

    @classmethod
    def from_json(cls, game: Game, start: Any, data: Any) -> tuple[Session, str | None]:
        """Replay a saved session from its start.

        Args:
            game: The engine.
            start: The first state (from the saved level).
            data: What :meth:`to_json` returned.

        Returns:
            The session and None, or — when a step no longer replays (the level or the
            engine changed) — the session up to the step before it and a sentence saying so.
        """
        session = cls.begin(game, start)
        if not isinstance(data, dict) or not isinstance(data.get("moves"), list):
            return session, "the saved game is unreadable"
        history = session.history
        problem = None
        for number, move in enumerate(data["moves"], start=1):
            try:
                if move == RESTART:
                    step = Step(start, RESTART)
                else:
                    played = game.move_from_json(history.current.state, move)
                    step = Step(game.apply(history.current.state, played), move)
            except (IllegalMove, ValueError, TypeError, KeyError, IndexError) as error:
                problem = f"move {number} of the saved game could not be replayed ({error})"
                break
            history = history.push(step)
        index = data.get("index")
        if problem is None and type(index) is int and 0 <= index < len(history):
            for _ in range(len(history) - 1 - index):
                history = history.undo()
        return cls(game, history), problem
