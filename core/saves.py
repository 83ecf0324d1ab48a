"""The one save codec: what a saved game is, in every version ever written, and how to resume it.

Every game's saved game is the same JSON object, written by :func:`encode_save` and read by
:func:`decode_save` (the puzzle screen base and the launcher use nothing else), so the
version written and the version checked are one constant, :data:`SAVE_VERSION`.

Versions
--------

* **1** (the first 2048 and TermCraft screens, one save per game in the slot ``"current"``):
  game-specific. 2048: ``{"version": 1, "config": {...}, "moves": "UDLR…", "score": n,
  "win_acknowledged": bool}``; TermCraft: ``{"version": 1, "ref": [pack, index] | null,
  "level": {"title", "current", "target", "fuel", "budget", "par", …}, "moves": [{"rule",
  "site", "sigma": [[name, term], …]} | {"construct": site, "term"}, …]}``.
* **2** (the puzzle screen base, one save per level): ``{"version": 2, "level": text | null,
  "session": {"moves": [...], "index": n}}``; the level is level-file text, the moves are the
  engine's ``move_to_json`` values (or :data:`core.session.RESTART`) from the level's start,
  the redo branch included, and ``index`` is the cursor. Resuming replays every move.
* **3** (this one): version 2 and a **checkpoint**, ``"checkpoint": {"index": c, "state": …,
  "digest": "…"}`` or null: the state after the first ``c`` moves (``c`` at most the cursor,
  on the played line) through the engine's ``state_to_json``, and a SHA-256 of the level, those
  ``c`` moves, ``c`` and that state. Resuming starts at the checkpoint and replays only the
  moves from it to the cursor (:meth:`core.session.Session.resume`).

  The save made on leaving a level (``fresh``) has its checkpoint at the cursor, so coming
  back replays nothing. The saves made after each move keep the last checkpoint still valid
  (same level, same first ``c`` moves, ``c`` not after the cursor) until the cursor is
  :data:`CHECKPOINT_EVERY` moves past it: a game whose states are huge (a TermCraft position
  of 100,000 nodes takes about 25 ms to encode) does not pay that at every move, and a game
  quit without leaving its level (or cut off) still resumes replaying fewer than
  :data:`CHECKPOINT_EVERY` moves, however long it is.

Migrations go one version up at a time (:data:`MIGRATIONS`), so a save of any version is
read through the same chain. Version 1 needs the game's own knowledge to turn its level into
level-file text: the caller passes it (``v1_level``), as core cannot read level files.

Why the checkpoint is trusted
-----------------------------

Saves are written by this program into the player's own store, never received from another
player (a served arcade keeps its players' saves on the server, out of their reach; a local
player who forges a digest only fools their own leaderboards), so the checkpoint is checked,
not re-derived: it must decode through the engine's
``state_from_json`` (which rejects what is not a state) and its digest must match the level,
moves and cursor saved beside it (a save edited or damaged by hand, or stitched from two
saves, fails). Either failure falls back to replaying the moves, as version 2 did. What a
digest cannot see, an engine whose rules changed since the save, shows when the earlier
states are rebuilt (the first undo): the replay must end in the checkpoint state, and a
difference is reported (:attr:`core.session.Session.replay_problem`; the game screen says it
at that undo).

Errors
------

A save that cannot be read raises :class:`UnreadableSave`; one written by a newer version
raises :class:`NewerSave`. Both are :class:`SaveError` (a ValueError) whose text is a
sentence for the player; the caller reports it and keeps the save where it is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from core.game import Game
from core.session import REPLAY_ERRORS, Session

__all__ = [
    "CHECKPOINT_EVERY",
    "MIGRATIONS",
    "SAVE_VERSION",
    "Checkpoint",
    "NewerSave",
    "Resumed",
    "SaveError",
    "SavedGame",
    "UnreadableSave",
    "decode_save",
    "encode_save",
    "migrate",
    "resume",
]

SAVE_VERSION = 3
"""The version :func:`encode_save` writes and the newest :func:`decode_save` reads."""

CHECKPOINT_EVERY = 16
"""Moves between the checkpoints of the saves made after each move: the most a resume
replays, and how often such a save encodes the state (see the module docstring). Replaying
16 moves is well under a millisecond for 2048 and Longcat, about 2 s on a 100,000-node
TermCraft position (hence the fresh checkpoint when leaving a level)."""

V1_SLOT = "current"
"""The store slot where version 1 kept a game's one save (later versions: one per level)."""

V1Level = Callable[[str, Any], "str | None"]
"""Turns a version-1 save's level (2048: its configuration dict; TermCraft: its level dict)
into level-file text, for a game id; None when it cannot (the level's source is then used)."""


class SaveError(ValueError):
    """A saved game that cannot be resumed; ``str(error)`` is a sentence for the player."""


class UnreadableSave(SaveError):
    """The saved data is not a save of any known version (damaged, or not a save)."""


class NewerSave(SaveError):
    """A save written by a newer version of termarcade than this one.

    Args:
        version: The save's version.
    """

    def __init__(self, version: int) -> None:
        super().__init__(
            f"it was written by a newer termarcade (save format {version}; this one reads "
            f"formats 1 to {SAVE_VERSION})"
        )
        self.version = version
        """The save's version."""


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A state of a save's played line, as the engine's JSON, with the digest that binds it.

    Attributes:
        index: How many of the save's moves lead to it (at most the cursor).
        state: ``game.state_to_json`` of that state.
        digest: :func:`_digest` of the level, those moves, ``index`` and the state.
    """

    index: int
    """How many moves lead to the state."""
    state: Any
    """The state, as JSON."""
    digest: str
    """SHA-256 (hex) of the level, the moves that lead to the state, its index and itself."""


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A save, read and brought up to :data:`SAVE_VERSION`.

    Attributes:
        level: The level as level-file text, or None (its source has it).
        moves: Every move from the level's start (JSON), the redo branch included.
        index: The cursor: how many of ``moves`` lead to the current state.
        checkpoint: A state of the played line at or before the cursor, or None (then
            resuming replays the moves).
        version: The version the save was written in (before migration).
    """

    level: str | None
    """The level as level-file text, or None."""
    moves: tuple[Any, ...]
    """Every move from the start, as JSON."""
    index: int
    """The cursor."""
    checkpoint: Checkpoint | None = None
    """A state of the played line, or None."""
    version: int = SAVE_VERSION
    """The version the save was written in."""


@dataclass(frozen=True, slots=True)
class Resumed:
    """What :func:`resume` made of a save.

    Attributes:
        session: The game, at its saved cursor, with its undo history and redo branch.
        problem: A sentence when part of the game could not be replayed, else None.
        from_checkpoint: True when the session starts at the save's checkpoint (only the
            moves after it were replayed); False when the moves were replayed from the start
            (no checkpoint, or it did not check out).
    """

    session: Session
    """The resumed game."""
    problem: str | None = None
    """What could not be replayed, if anything."""
    from_checkpoint: bool = False
    """Whether the checkpoint was used."""


# -- writing ------------------------------------------------------------------------------------


def _digest(level: str | None, moves: Any, index: int, state: Any) -> str:
    """SHA-256 of the canonical JSON of a save's level, the moves that lead to its checkpoint,
    the checkpoint's index and state.

    Canonical (sorted keys, no spaces, tuples as lists) so that the value written and the same
    value read back from the store's JSON give the same digest.
    """
    text = json.dumps(
        [level, moves, index, state], sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def encode_save(
    session: Session,
    level: str | None,
    previous: Mapping[str, Any] | None = None,
    fresh: bool = False,
) -> dict[str, Any]:
    """The current version's save of a session.

    Args:
        session: The game.
        level: The level as level-file text, or None when the game has no level format (the
            level's source is then asked for it on resume).
        previous: The save written last for this game, if any: its checkpoint is kept while
            it is valid and fewer than :data:`CHECKPOINT_EVERY` moves behind the cursor
            (encoding a state can cost more than the rest of a save).
        fresh: Put the checkpoint at the cursor (the save made on leaving a level), unless
            the kept one is there already.

    Returns:
        A JSON-safe dict (see the module docstring, version 3).
    """
    played = session.to_json()
    moves, index = played["moves"], played["index"]
    checkpoint = _kept_checkpoint(previous, level, moves, index)
    if fresh and checkpoint is not None and checkpoint["index"] != index:
        checkpoint = None
    if checkpoint is None and index >= (1 if fresh else CHECKPOINT_EVERY):
        state = session.game.state_to_json(session.state)
        checkpoint = {
            "index": index,
            "state": state,
            "digest": _digest(level, moves[:index], index, state),
        }
    return {"version": SAVE_VERSION, "level": level, "session": played, "checkpoint": checkpoint}


def _kept_checkpoint(
    previous: Mapping[str, Any] | None, level: str | None, moves: list[Any], index: int
) -> Any:
    """The previous save's checkpoint when it still fits (same level, same moves up to it,
    not after the cursor, fewer than :data:`CHECKPOINT_EVERY` moves behind it); else None.

    Comparing the moves is cheap: a session's moves are the same objects from save to save,
    so the list comparison mostly checks identities.
    """
    if previous is None or previous.get("level") != level:
        return None
    checkpoint = previous.get("checkpoint")
    if not isinstance(checkpoint, Mapping):
        return None
    at = checkpoint.get("index")
    if type(at) is not int or not 0 <= at <= index or index - at >= CHECKPOINT_EVERY:
        return None
    old = previous.get("session")
    old_moves = old.get("moves") if isinstance(old, Mapping) else None
    if not isinstance(old_moves, list) or old_moves[:at] != moves[:at]:
        return None
    return checkpoint


# -- migrations ---------------------------------------------------------------------------------

_V1_DIRECTIONS = {"U": "up", "D": "down", "L": "left", "R": "right"}
"""Version 1's 2048 moves were one letter each."""


def _v1_termcraft_move(move: Any) -> dict[str, Any]:
    """A version-1 TermCraft move in today's move JSON (``core.termcraft.game.move_to_json``)."""
    if not isinstance(move, dict):
        raise UnreadableSave("a saved TermCraft move is not a JSON object")
    if "construct" in move:
        return {"kind": "construct", "site": move["construct"], "term": move.get("term")}
    sigma = move.get("sigma") or []
    if not isinstance(sigma, list) or not all(
        isinstance(pair, list) and len(pair) == 2 for pair in sigma
    ):
        raise UnreadableSave("a saved TermCraft move has an unreadable substitution")
    return {
        "kind": "rewrite",
        "rule": move.get("rule"),
        "site": move.get("site"),
        "sigma": {str(name): term for name, term in sigma},
    }


def _v1_to_v2(data: Mapping[str, Any], game: str, v1_level: V1Level | None) -> dict[str, Any]:
    """Version 1 (one game-specific save per game) to version 2 (level text and moves)."""
    if game == "2048":
        letters = data.get("moves", "")
        if not isinstance(letters, str) or not set(letters) <= set(_V1_DIRECTIONS):
            raise UnreadableSave("its moves are not a string of U, D, L and R")
        moves: list[Any] = [_V1_DIRECTIONS[letter] for letter in letters]
        level = data.get("config")
    elif game == "termcraft":
        raw = data.get("moves") or []
        if not isinstance(raw, list):
            raise UnreadableSave("its moves are not a list")
        moves = [_v1_termcraft_move(move) for move in raw]
        level = data.get("level")
    else:
        raise UnreadableSave(f"format 1 had no saves of the game {game!r}")
    text = v1_level(game, level) if v1_level is not None else None
    return {"version": 2, "level": text, "session": {"moves": moves, "index": len(moves)}}


def _v2_to_v3(data: Mapping[str, Any], game: str, v1_level: V1Level | None) -> dict[str, Any]:
    """Version 2 to 3: the same fields, no checkpoint yet (the first resume replays)."""
    return {
        "version": 3,
        "level": data.get("level"),
        "session": data.get("session"),
        "checkpoint": None,
    }


MIGRATIONS: Mapping[int, Callable[[Mapping[str, Any], str, V1Level | None], dict[str, Any]]] = {
    1: _v1_to_v2,
    2: _v2_to_v3,
}
"""``version -> step``: each step turns a save of that version into one of the next version
(arguments: the save, the game id, the version-1 level converter)."""


def _version_of(data: Any) -> int:
    if not isinstance(data, Mapping):
        raise UnreadableSave("it is not a JSON object")
    version = data.get("version")
    if type(version) is not int:
        raise UnreadableSave("it has no format version")
    if version > SAVE_VERSION:
        raise NewerSave(version)
    if version < 1:
        raise UnreadableSave(f"its format version {version} was never written")
    return version


def migrate(data: Any, game: str, v1_level: V1Level | None = None) -> dict[str, Any]:
    """Bring a save of any version up to :data:`SAVE_VERSION`, one version at a time.

    Args:
        data: The save as the store returned it.
        game: The game id (version 1 saves were game-specific and did not name their game).
        v1_level: Turns a version-1 level into level-file text (see :data:`V1Level`).

    Returns:
        The save in the current version's shape (not yet checked: :func:`decode_save` does).

    Raises:
        NewerSave: When the save is of a version newer than this program's.
        UnreadableSave: When it is not a save of any version.
    """
    version = _version_of(data)
    current: Mapping[str, Any] = data
    while version < SAVE_VERSION:
        current = MIGRATIONS[version](current, game, v1_level)
        version += 1
    return dict(current)


def decode_save(data: Any, game: str, v1_level: V1Level | None = None) -> SavedGame:
    """Read a save of any version.

    A cursor outside the moves is read as "at the last move" (version 2 did the same), and
    then the checkpoint, made for another line, is not used; nor is one after the cursor.

    Args:
        data: The save as the store returned it.
        game: The game id.
        v1_level: Turns a version-1 level into level-file text (see :data:`V1Level`).

    Returns:
        The save.

    Raises:
        NewerSave: When the save is of a version newer than this program's.
        UnreadableSave: When it is not a save of any version (the message says why).
    """
    written = _version_of(data)
    current = migrate(data, game, v1_level)
    level = current.get("level")
    if level is not None and not isinstance(level, str):
        raise UnreadableSave("its level is not level-file text")
    played = current.get("session")
    if not isinstance(played, Mapping) or not isinstance(played.get("moves"), list):
        raise UnreadableSave("its moves are missing")
    moves = tuple(played["moves"])
    index = played.get("index")
    if type(index) is not int or not 0 <= index <= len(moves):
        return SavedGame(level or None, moves, len(moves), None, written)
    checkpoint = _checkpoint(current.get("checkpoint"), index)
    return SavedGame(level or None, moves, index, checkpoint, written)


def _checkpoint(data: Any, index: int) -> Checkpoint | None:
    """The checkpoint's fields, or None when there is none, it is not one, or it is not on
    the line up to the cursor ``index`` (then: replay)."""
    if not isinstance(data, Mapping) or not isinstance(data.get("digest"), str):
        return None
    at = data.get("index")
    if type(at) is not int or not 0 <= at <= index or "state" not in data:
        return None
    return Checkpoint(at, data["state"], data["digest"])


# -- resuming -----------------------------------------------------------------------------------


def resume(game: Game, start: Any, saved: SavedGame) -> Resumed:
    """The session a save holds: from its checkpoint when that checks out, else replayed.

    Args:
        game: The engine.
        start: The level's first state (``game.initial(level)``).
        saved: The save (:func:`decode_save`).

    Returns:
        The session, what could not be replayed (if anything), and whether the checkpoint
        was used (see "Why the checkpoint is trusted" in the module docstring).
    """
    checked = _checked_state(game, saved)
    if checked is not None:
        at, state = checked
    elif saved.checkpoint is None and saved.index == 0:  # at the start: the start is one
        at, state = 0, start
    else:
        at = None
    if at is not None:
        try:
            session = Session.resume(game, start, saved.moves, saved.index, state, at=at)
        except REPLAY_ERRORS:
            pass  # a move after the checkpoint does not replay: the full replay says which
        else:
            return Resumed(session, None, checked is not None)
    session, problem = Session.from_json(
        game, start, {"moves": list(saved.moves), "index": saved.index}
    )
    return Resumed(session, problem, False)


def _checked_state(game: Game, saved: SavedGame) -> tuple[int, Any] | None:
    """``(index, state)`` of the checkpoint when its digest matches and its state decodes;
    else None."""
    checkpoint = saved.checkpoint
    if checkpoint is None:
        return None
    at = checkpoint.index
    if checkpoint.digest != _digest(saved.level, list(saved.moves[:at]), at, checkpoint.state):
        return None
    try:
        return at, game.state_from_json(checkpoint.state)
    except (*REPLAY_ERRORS, AttributeError):
        # A game's state_from_json should raise ValueError alone; a damaged state that trips
        # an engine's lookups is the same "not a state" to the player: replay instead.
        return None
