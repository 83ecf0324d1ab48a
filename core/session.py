"""A game being played: any :class:`core.game.Game`, its start and its whole history.

A :class:`Session` is what the puzzle screen base holds and what a save records. It is a
pure value: playing, undoing, redoing and restarting return a new session.

* **Restart is a move** (Simon Tatham's convention): it pushes the start state, so it can be
  undone like any other move, and nothing a player did is lost by pressing ``R``.
* **Saves are exact**: :meth:`Session.to_json` records every step from the start (the redo
  branch included) and the cursor; :meth:`Session.from_json` replays them through the engine,
  so a resumed game has its whole undo history back.
* **Resuming does not replay the game**: :meth:`Session.resume` starts at a checkpoint state
  (the one a save keeps beside its moves, :mod:`core.saves`), plays the few moves from it to
  the cursor, and rebuilds the states of the other steps only when they are first looked at:
  the earlier ones by one replay from the start (the first undo past the checkpoint), the redo
  branch by one replay from the cursor (the first redo). The moves themselves are known at
  once, so saving again, counting moves and restarting never force a replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from core.game import Game, IllegalMove
from core.history import History

__all__ = ["REPLAY_ERRORS", "RESTART", "Session", "Step"]

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

    @property
    def problem(self) -> str | None:
        """Why this step's state may not be the saved game's: never, for a played step (a
        step rebuilt from a save's moves can say so, :class:`_ReplayedStep`)."""
        return None


REPLAY_ERRORS = (IllegalMove, ValueError, TypeError, KeyError, IndexError)
"""What a saved move (or state) that no longer replays raises in an engine, decoding or
playing it (IllegalMove is a ValueError; it is named for the reader)."""


def _replayed(game: Game, start: Any, state: Any, move: Any) -> Any:
    """The state a saved move (JSON) leads to from ``state``: ``start`` for :data:`RESTART`.

    Raises:
        One of :data:`REPLAY_ERRORS` when the move no longer replays.
    """
    if move == RESTART:
        return start
    return game.apply(state, game.move_from_json(state, move))


class _Replay:
    """The states reached by playing saved moves from a state, computed once, when first asked.

    A memo, not a mutable value: what it returns never changes; the first call does the work.
    Two threads asking at once would both replay and store equal lists (the engine is pure),
    so no lock is needed.

    A move that does not replay any more (the engine changed since the save) stops the replay:
    the steps from it on keep the last state that replayed, and :attr:`problem` says which
    move failed. Their moves are kept, so saving the session again loses nothing.

    Args:
        game: The engine.
        first: The state the moves are played from.
        start: The level's first state (what a restart move goes back to).
        moves: The saved moves (JSON), in order.
        expect: The state the replay must end in one move later, when known (the checkpoint
            a resumed past leads to); a different state is reported in :attr:`problem`.
        after: The saved move that leads from the last replayed state to ``expect``.
    """

    __slots__ = ("_after", "_expect", "_first", "_game", "_moves", "_start", "_states", "problem")

    def __init__(
        self,
        game: Game,
        first: Any,
        start: Any,
        moves: Sequence[Any],
        expect: Any = None,
        after: Any = None,
    ) -> None:
        self._game, self._first, self._start, self._moves = game, first, start, moves
        self._expect, self._after = expect, after
        self._states: list[Any] | None = None
        self.problem: str | None = None
        """Why the replay did not reach the saved game exactly (None once it did, or before
        it ran)."""

    def state(self, number: int) -> Any:
        """The state after the ``number``-th move (0-based), replaying them all the first time."""
        if self._states is None:
            self._states = self._replay()
        return self._states[number]

    def _replay(self) -> list[Any]:
        states: list[Any] = []
        state, broken = self._first, False
        for number, move in enumerate(self._moves, start=1):
            if not broken:
                try:
                    state = _replayed(self._game, self._start, state, move)
                except REPLAY_ERRORS as error:
                    self.problem = f"move {number} of the saved game no longer replays ({error})"
                    broken = True
            states.append(state)
        if not broken and self._expect is not None:
            try:
                reached = _replayed(self._game, self._start, state, self._after)
            except REPLAY_ERRORS as error:
                self.problem = f"the last move of the saved game no longer replays ({error})"
            else:
                if reached != self._expect:
                    self.problem = "the saved position differs from the replayed moves"
        return states


class _ReplayedStep:
    """A step of a resumed game whose state is rebuilt from the saved moves when first read.

    It reads as a :class:`Step` (``state``, ``move``) without being one: a plain slotted
    object is several times cheaper to make than a frozen dataclass (a long game makes
    thousands at its first walk), and nothing assigns to it after ``__init__``.

    Args:
        replay: The replay that computes the state.
        number: Which of the replay's states it is.
        move: The move that led here, as JSON (known at once).
    """

    __slots__ = ("_number", "_replay", "move")

    def __init__(self, replay: _Replay, number: int, move: Any) -> None:
        self._replay = replay
        self._number = number
        self.move = move
        """The move that led here, as JSON."""

    @property
    def state(self) -> Any:
        """The engine state (replayed the first time any step of its replay is read)."""
        return self._replay.state(self._number)

    @property
    def problem(self) -> str | None:
        """Why the replay behind this step fell short (None when it did not, or has not run)."""
        return self._replay.problem

    def __repr__(self) -> str:
        return f"_ReplayedStep(number={self._number}, move={self.move!r})"


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

    @classmethod
    def resume(
        cls,
        game: Game,
        start: Any,
        moves: Sequence[Any],
        index: int,
        state: Any,
        at: int | None = None,
    ) -> Session:
        """A saved session from a checkpoint: only the moves after the checkpoint are replayed.

        The state at the checkpoint is ``state``; the moves from it to the cursor are played
        now (a save keeps its checkpoint at most :data:`core.saves.CHECKPOINT_EVERY` moves
        behind the cursor). The states before the checkpoint are rebuilt by one replay from
        ``start`` the first time one is read (the first undo past it), checked to lead to
        ``state``; those of the redo branch by one replay from the cursor (the first redo).

        Args:
            game: The engine.
            start: The first state (from the saved level).
            moves: Every saved move from the start (JSON, :meth:`to_json`'s ``moves``).
            index: The cursor: how many of ``moves`` lead to the current state.
            state: The state after the first ``at`` moves (the save's checkpoint).
            at: How many moves lead to ``state``; None: ``index`` (the checkpoint is the
                current state).

        Returns:
            The session, with the same moves, cursor and redo branch as the one saved.

        Raises:
            ValueError: When ``at`` or ``index`` is not a position in ``moves`` (or ``at`` is
                after ``index``); :class:`core.game.IllegalMove` (a ValueError) or the
                engine's error when a move after the checkpoint does not replay.
        """
        moves = tuple(moves)
        at = index if at is None else at
        if not 0 <= at <= index <= len(moves):
            raise ValueError(f"checkpoint {at} and cursor {index} do not fit {len(moves)} moves")
        count = len(moves)
        initial = Step(start)
        checkpoint = initial if at == 0 else Step(state, moves[at - 1])

        # Steps 1 .. at-1 (most recent first) over the start: their moves are known now,
        # their states are replayed from the start when one is first read.
        past: Any = None
        if at > 0:
            replay = _Replay(game, start, start, moves[: at - 1], state, moves[at - 1])
            past = (initial, None)
            for position in range(1, at):
                past = (_ReplayedStep(replay, position - 1, moves[position - 1]), past)
        current = checkpoint
        for number in range(at, index):  # from the checkpoint to the cursor: played now
            past = (current, past)
            move = moves[number]
            current = Step(_replayed(game, start, current.state, move), move)
        # The redo branch (next first): states replayed from the cursor when first read.
        future: Any = None
        if index < count:
            replay = _Replay(game, current.state, start, moves[index:])
            for number in range(count - 1, index - 1, -1):
                future = (_ReplayedStep(replay, number - index, moves[number]), future)
        history: History[Step] = History(
            current, initial, index, count + 1, _past=past, _future=future
        )
        return cls(game, history)

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
    def replay_problem(self) -> str | None:
        """Why the current state may not be the saved game's: a resumed game's earlier states
        are rebuilt from its moves on the first undo, and an engine whose rules changed since
        the save may not replay them to the saved position (None when all is well)."""
        return self.history.current.problem

    @property
    def moves_made(self) -> int:
        """Moves on the played line since the last restart (what is compared with par)."""
        count = 0
        for step in self.history.backwards():
            if step.move is None or step.move == RESTART:
                return count
            count += 1
        return count  # pragma: no cover - the walk always ends at the first step (move None)

    def line_since_restart(self) -> list[Any]:
        """The states of the played line since the last restart (or the start).

        A game whose picture depends on the order of its moves (Longcat's body) derives it
        from these, so undo, redo and restart need nothing of their own.

        Returns:
            The restart's (or the start's) state first, the current state last.
        """
        states: list[Any] = []
        for step in self.history.backwards():
            states.append(step.state)
            if step.move is None or step.move == RESTART:
                break
        states.reverse()
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
                state = _replayed(game, start, history.current.state, move)
            except REPLAY_ERRORS as error:
                problem = f"move {number} of the saved game could not be replayed ({error})"
                break
            history = history.push(Step(state, move))
        index = data.get("index")
        if problem is None and type(index) is int and 0 <= index < len(history):
            for _ in range(len(history) - 1 - index):
                history = history.undo()
        return cls(game, history), problem
