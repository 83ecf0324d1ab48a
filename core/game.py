"""The seam every game plugs into: the :class:`Game` protocol.

A game engine is a set of pure functions over immutable values. The shell (the puzzle screen
base, saves, the command line, the shared protocol tests) talks to every game through this
one protocol, so it never needs to know which game it is running.

Adding a game: what a new game writes (and nothing shared is edited)
----------------------------------------------------------------------

1. ``core/<game>/``: the level and state values (frozen dataclasses / tuples), the rules,
   and one object ``GAME`` that implements :class:`Game` (usually in ``core/<game>/game.py``).
   Bounds of level values (sizes, counts, resources) are checked in the level constructor,
   so that every value the constructor accepts can be written to a level file and read back.
2. ``grammar/<game>.lark`` (the level body, imported into the shared envelope under the
   game's own namespace) and ``grammar/<game>.py`` (its transformer and value converters,
   exposed as a ``LevelFormat``).
3. ``tui/games/<game>/``, the game's one folder in the interface: ``screen.py`` (a subclass of
   the puzzle screen base, :class:`tui.screens.puzzle.PuzzleScreen`, that renders the current
   state), its widgets and modals, ``styles.tcss``, ``help.md`` and ``cli.py`` (a click
   group, ``termarcade <game> ...``).
4. ``levels/<game>/*.levels``: the bundled packs.
5. The registration, ``INFO`` in ``tui/games/<game>/__init__.py``: a
   :class:`core.registry.GameInfo` naming the pieces above as lazy ``"module:attr"`` strings.
   The folder is found by scanning ``tui.games``; no shared list names the game.

The shared test module ``tests/test_games_protocol.py`` then runs seeded random playouts of
every registered game (``apply`` never mutates its input, every offered move is accepted,
codec round trips, replaying the recorded moves reproduces the final state).

Conventions
-----------

* **Status** is ``"playing"``, ``"won"`` or ``"lost"``. A game may stay open after a win
  (2048's "keep playing"): :meth:`Game.finished` says whether any further move is accepted,
  independently of the status.
* **Moves.** :meth:`Game.moves` lists legal moves. Games whose moves are parametrised by
  an unbounded value (TermCraft's construct takes any ground term) describe that kind in
  :attr:`Game.move_kinds` with ``enumerable=False``; for such kinds ``moves`` offers only a
  finite sample, and :meth:`Game.check` decides any given move.
* **Illegal moves** are signalled one way: :meth:`Game.apply` (and :meth:`Game.check`)
  raise :class:`IllegalMove`, whose text is a sentence for the player.
* **Randomness** comes only from seeds carried in the state or the level, so replaying the
  recorded moves from the initial state always gives the same game.
* **Codec.** States and moves convert to JSON-safe values (dicts, lists, strings, numbers,
  booleans, None) and back; ``move_from_json`` receives the state the move is played in, so
  a move may be saved by reference to the position (a rule's path, a cell).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

__all__ = ["STATUSES", "Game", "IllegalMove", "MoveKind", "Status", "replay_moves"]

L = TypeVar("L", contravariant=True)  # levels only go in
S = TypeVar("S")
M = TypeVar("M")

Status = Literal["playing", "won", "lost"]
"""The three outcomes a state can be in."""

STATUSES: tuple[str, ...] = ("playing", "won", "lost")
"""Every value of :data:`Status`."""

JSON = Any
"""A JSON-safe value: dict with string keys, list, str, int, float, bool or None."""


class IllegalMove(ValueError):
    """A move the rules do not allow; ``str(error)`` is a sentence for the player."""


@dataclass(frozen=True, slots=True)
class MoveKind:
    """One kind of move a game offers.

    Attributes:
        name: Short id of the kind (``"slide"``, ``"rewrite"``, ``"construct"``).
        enumerable: True when :meth:`Game.moves` lists every legal move of this kind; False
            for kinds parametrised by an unbounded value, which ``moves`` only samples.
        description: One line for a person.
    """

    name: str
    """Short id of the kind."""
    enumerable: bool = True
    """Whether :meth:`Game.moves` lists every legal move of this kind."""
    description: str = ""
    """One line for a person."""


@runtime_checkable
class Game(Protocol[L, S, M]):
    """What every game engine provides (structural: no base class to inherit).

    Attributes:
        id: The game id (CLI group, level-file ``game`` field, store key).
        move_kinds: The kinds of moves the game has.
    """

    id: str
    """The game id."""
    move_kinds: tuple[MoveKind, ...]
    """The kinds of moves the game has."""

    def initial(self, level: L) -> S:
        """Return the initial state of ``level`` (a level value or a configuration).

        Raises:
            ValueError: When the level cannot be played (out of bounds values).
        """
        ...

    def moves(self, state: S) -> Sequence[M]:
        """Return the legal moves in ``state``, in a stable order (1-based numbers for people).

        Every legal move of an enumerable kind is listed; parametrised kinds are sampled.
        Empty when :meth:`finished` is true.
        """
        ...

    def check(self, state: S, move: M) -> None:
        """Raise :class:`IllegalMove` when ``move`` is not legal in ``state``."""
        ...

    def apply(self, state: S, move: M) -> S:
        """Return the state after ``move``; never mutates ``state``.

        Raises:
            IllegalMove: When the move is not legal in ``state``.
        """
        ...

    def status(self, state: S) -> Status:
        """Return ``"won"``, ``"lost"`` or ``"playing"``."""
        ...

    def finished(self, state: S) -> bool:
        """True when no further move is accepted (won and over, or lost)."""
        ...

    def describe_move(self, state: S, move: M) -> str:
        """A short text for a person (``"left"``, ``"rewrite red ⇒ blue at 2/0"``)."""
        ...

    def state_to_json(self, state: S) -> JSON:
        """Convert a state to a JSON-safe value."""
        ...

    def state_from_json(self, data: JSON) -> S:
        """Rebuild a state from :meth:`state_to_json`'s value.

        Raises:
            ValueError: When ``data`` is not a valid state.
        """
        ...

    def move_to_json(self, move: M) -> JSON:
        """Convert a move to a JSON-safe value."""
        ...

    def move_from_json(self, state: S, data: JSON) -> M:
        """Rebuild a move played in ``state`` from :meth:`move_to_json`'s value.

        Raises:
            ValueError: When ``data`` is not a move (:class:`IllegalMove` is a ValueError,
                raised when it names something that is not in ``state``).
        """
        ...


def replay_moves(game: Game, state: Any, moves: Sequence[Any]) -> Any:
    """Play ``moves`` (JSON values, as saved) from ``state`` through ``game``.

    Args:
        game: The engine.
        state: The state to start from.
        moves: Moves as produced by ``game.move_to_json``.

    Returns:
        The final state.

    Raises:
        ValueError: (:class:`IllegalMove` included) at the first move that does not decode or
            is not legal; the message says which (1-based).
    """
    for number, data in enumerate(moves, start=1):
        try:
            state = game.apply(state, game.move_from_json(state, data))
        except IllegalMove as error:
            raise IllegalMove(f"move {number}: {error}") from None
        except ValueError as error:
            raise ValueError(f"move {number}: {error}") from None
    return state
