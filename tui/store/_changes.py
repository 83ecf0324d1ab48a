"""Changes that need no answer, as data: what the busy queue and the journal hold.

A save, a deletion, a solved level, a result, a setting: each is a :class:`Change`, an
operation name and the row it writes (JSON values only), so it can be written to the local
journal (:mod:`._journal`) while the database cannot be reached and run later, even by
another session after this one ended.

Running a change again must do no harm (a crash may come between the commit and the
journal's truncation), and a change run late must never overwrite a newer row written
meanwhile by another session (the player went on on another host): :func:`change_work` with
``late=True`` adds the same version test the store already applies to scores, on
``saved_at`` (saves) and ``updated_at`` (own levels). Solved levels, results and game
scores are already idempotent and monotone; a setting has no version and the last one wins.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ._db import Database

__all__ = ["Change", "change_work", "coalesce", "record_score", "replaces"]


@dataclass(frozen=True)
class Change:
    """One change to write: ``op`` (a key of :data:`_OPS`) and its row (JSON values).

    Attributes:
        op: What to do: ``"save"``, ``"delete_save"``, ``"solved"``, ``"result"``,
            ``"move_results"``, ``"game_score"``, ``"score"``, ``"setting"``, ``"delete_level"``.
        row: The statement's parameters, in order; the first that names a player is the
            store's user.
    """

    op: str
    row: tuple[Any, ...]

    def to_json(self) -> dict[str, Any]:
        """The change as a JSON object (a journal line)."""
        return {"op": self.op, "row": list(self.row)}

    @classmethod
    def from_json(cls, value: Any) -> Change | None:
        """The change a journal line holds, or None when it is not one (damaged line)."""
        if not isinstance(value, dict):
            return None
        op, row = value.get("op"), value.get("row")
        if not isinstance(op, str) or op not in _OPS or not isinstance(row, list):
            return None
        if len(row) != _ARITY[op]:
            return None
        if not all(_storable(value) for value in row):
            return None  # A damaged line: the driver would refuse a value in it.
        return cls(op, tuple(row))


_INT_LIMIT = 2**63
"""SQLite's and PostgreSQL's BIGINT hold integers in [-2^63, 2^63)."""


def _storable(value: Any) -> bool:
    """A value a journal row may hold: None, text, a float, or an integer the databases can
    store (a bigger one, or a nested value, is a damaged line, never a driver error)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return -_INT_LIMIT <= value < _INT_LIMIT
    return value is None or isinstance(value, str | float)


def replaces(later: Change, earlier: Change) -> bool:
    """True when running ``later`` makes running ``earlier`` pointless.

    Only a save does that, for an earlier save of the same slot: the later one overwrites it
    whatever ran in between (a move's save holds the whole game). An outage of many moves
    then writes one save per slot, not one per move.
    """
    return later.op == earlier.op == "save" and later.row[:3] == earlier.row[:3]


def coalesce(changes: list[Change]) -> list[Change]:
    """``changes`` without those a later one replaces (:func:`replaces`), order kept."""
    last: dict[tuple[Any, ...], int] = {}
    for index, change in enumerate(changes):
        if change.op == "save":
            last[change.row[:3]] = index
    return [
        change
        for index, change in enumerate(changes)
        if change.op != "save" or last[change.row[:3]] == index
    ]


def change_work(change: Change, *, late: bool = False) -> Callable[[Database], None]:
    """The body of the write transaction that makes ``change``.

    Args:
        change: The change.
        late: It runs after it was made (queued, journalled): never replace a newer row.

    Returns:
        ``work(db)`` for :meth:`._engine.StoreBase._write`.
    """
    run = _OPS[change.op]
    return lambda db: run(db, change.row, late)


def _save(db: Database, row: tuple[Any, ...], late: bool) -> None:
    # Late: a save another session wrote after this one was made stays.
    newer = " WHERE saves.saved_at <= excluded.saved_at" if late else ""
    db.execute(
        'INSERT INTO saves ("user", game, slot, data, summary, saved_at) '
        "VALUES (?, ?, ?, ?, ?, ?) "
        'ON CONFLICT ("user", game, slot) DO UPDATE SET data = excluded.data, '
        "summary = excluded.summary, saved_at = excluded.saved_at" + newer,
        row,
    )


def _delete_save(db: Database, row: tuple[Any, ...], late: bool) -> None:
    user, game, slot, at = row
    if late:  # A game saved in that slot after the deletion was asked for stays.
        db.execute(
            'DELETE FROM saves WHERE "user" = ? AND game = ? AND slot = ? AND saved_at <= ?',
            (user, game, slot, at),
        )
    else:
        db.execute(
            'DELETE FROM saves WHERE "user" = ? AND game = ? AND slot = ?', (user, game, slot)
        )


def _solved(db: Database, row: tuple[Any, ...], late: bool) -> None:
    from ._boards import upsert_solved  # _boards builds on the engine, which uses this module

    upsert_solved(db, row)


def _result(db: Database, row: tuple[Any, ...], late: bool) -> None:
    *result, source, level = row
    db.execute(
        """
        INSERT INTO results
            (id, "user", game, source, level, moves, seconds, autoplayed, recorded_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO NOTHING
        """,
        result,
    )
    _, user, game, _, _, moves, _, autoplayed, now = result
    if not autoplayed:
        _solved(db, (user, game, source, level, moves, now), late)


def _move_results(db: Database, row: tuple[Any, ...], late: bool) -> None:
    db.execute(
        'UPDATE results SET source = ?, level = ? WHERE "user" = ? AND game = ? '
        "AND source = ? AND level = ?",
        row,
    )


def _game_score(db: Database, row: tuple[Any, ...], late: bool) -> None:
    better = "excluded.score > game_scores.score"
    db.execute(
        f"""
        INSERT INTO game_scores
            ("user", game, run, board, score, moves, seconds, autoplayed, recorded_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT ("user", game, run) DO UPDATE SET
            autoplayed = CASE WHEN excluded.autoplayed > game_scores.autoplayed
                              THEN excluded.autoplayed ELSE game_scores.autoplayed END,
            moves = CASE WHEN {better} THEN excluded.moves ELSE game_scores.moves END,
            seconds = CASE WHEN {better} THEN excluded.seconds
                           ELSE game_scores.seconds END,
            recorded_at = CASE WHEN {better} THEN excluded.recorded_at
                               ELSE game_scores.recorded_at END,
            score = CASE WHEN {better} THEN excluded.score ELSE game_scores.score END
        """,
        row,
    )


def record_score(db: Database, row: tuple[Any, ...]) -> bool:
    """Keep a score as the best one when it beats the kept one (one statement, so concurrent
    sessions cannot overwrite a better score with a worse one).

    Args:
        db: The open database.
        row: A ``"score"`` change's row: user, game, key, score, time, lower_is_better.

    Returns:
        True if the score is the new best (the first one recorded counts).
    """
    *values, lower_is_better = row
    better = "<" if lower_is_better else ">"  # Monotone: running it late or twice is harmless.
    cursor = db.execute(
        f"""
        INSERT INTO scores ("user", game, key, score, recorded_at)
        VALUES (?, ?, ?, ?, ?)
        ON CONFLICT ("user", game, key) DO UPDATE SET
            score = excluded.score, recorded_at = excluded.recorded_at
        WHERE excluded.score {better} scores.score
        """,
        values,
    )
    return bool(cursor.rowcount > 0)


def _score(db: Database, row: tuple[Any, ...], late: bool) -> None:
    record_score(db, row)


def _setting(db: Database, row: tuple[Any, ...], late: bool) -> None:
    db.execute(
        'INSERT INTO settings ("user", key, value) VALUES (?, ?, ?) '
        'ON CONFLICT ("user", key) DO UPDATE SET value = excluded.value',
        row,
    )


def _delete_level(db: Database, row: tuple[Any, ...], late: bool) -> None:
    level_id, user, game, at = row
    # Late: a level replaced after the deletion was asked for stays.
    newer = " AND updated_at <= ?" if late else ""
    db.execute(
        'DELETE FROM my_levels WHERE id = ? AND "user" = ? AND game = ?' + newer,
        (level_id, user, game, at) if late else (level_id, user, game),
    )


_ARITY = {
    "save": 6,
    "delete_save": 4,
    "solved": 6,
    "result": 11,
    "move_results": 6,
    "game_score": 9,
    "score": 6,
    "setting": 3,
    "delete_level": 4,
}
"""How many values each change's row holds (a journal line with another count is damaged)."""

_OPS: dict[str, Callable[[Database, tuple[Any, ...], bool], None]] = {
    "save": _save,
    "delete_save": _delete_save,
    "solved": _solved,
    "result": _result,
    "move_results": _move_results,
    "game_score": _game_score,
    "score": _score,
    "setting": _setting,
    "delete_level": _delete_level,
}
