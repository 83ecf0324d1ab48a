"""CLI JSON of states and moves, made by the engine codecs (:class:`core.game.Game`).

A command that prints a position prints :func:`state_json`: the keys of the game's own
``state_to_json`` (the form saves use), then the keys the command derives for people and
scripts (a status, the moves offered ...), which the engine never writes. A command that
prints a move prints the game's ``move_to_json`` (:func:`move_json`), alone or with derived
keys after its own. So each game has one JSON shape of a state and one of a move, on the
command line, in saves and in the protocol tests; :func:`engine_state` reads a printed state
back through the engine (docs/cli.md, "One vocabulary").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["engine_state", "move_json", "state_json"]


def _merged(base: Any, derived: Mapping[str, Any], what: str) -> dict[str, Any]:
    """``base`` (a JSON object from the engine) followed by ``derived``; a key in both is a
    bug in the command (the derived value would hide the engine's)."""
    if not isinstance(base, dict):
        if derived:
            raise TypeError(f"the engine's {what} is not a JSON object: no key can follow it")
        return base
    clash = sorted(base.keys() & derived.keys())
    if clash:
        raise ValueError(f"derived keys {clash} would hide the engine's {what} keys")
    return {**base, **derived}


def state_json(game: Any, state: Any, **derived: Any) -> dict[str, Any]:
    """A state as the CLI prints it: the engine's keys, then ``derived`` ones.

    Args:
        game: The engine (a :class:`core.game.Game`).
        state: The state.
        **derived: Keys the command adds after the engine's (never one of them).

    Returns:
        The JSON object.

    Raises:
        ValueError: When a derived key is also an engine key (a programming error).
    """
    return _merged(game.state_to_json(state), derived, "state")


def move_json(game: Any, move: Any, **derived: Any) -> Any:
    """A move as the CLI prints it: the engine's form, then ``derived`` keys (if any).

    Args:
        game: The engine.
        move: The move.
        **derived: Keys added after the engine's (only when its form is an object).

    Returns:
        The JSON value.

    Raises:
        ValueError: When a derived key is also an engine key; TypeError when the engine's
            form is not an object and ``derived`` is not empty.
    """
    return _merged(game.move_to_json(move), derived, "move")


def engine_state(game: Any, data: Mapping[str, Any], derived: Iterable[str]) -> Any:
    """Read a printed state back through the engine: drop the derived keys, decode the rest.

    Args:
        game: The engine.
        data: The object :func:`state_json` made.
        derived: The names of the keys the command derived (documented with the command).

    Returns:
        The state (``game.state_from_json``).

    Raises:
        ValueError: When the rest is not a state of ``game``.
    """
    skip = set(derived)
    return game.state_from_json({key: value for key, value in data.items() if key not in skip})
