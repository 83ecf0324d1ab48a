"""Following a renamed bundled level: the player's rows move from its old key to its new one.

A bundled level's key in the store is its title (:class:`tui.sources.PackSource`), so a pack
that retitles a level would leave the player's saved game, solved mark and results under a
title nothing lists any more. The pack ships a record of its renames
(``levels/<game>/renames.json``, :mod:`levels.renames`), and :meth:`Renames.follow_renames`
moves the rows, in one transaction, on SQLite and PostgreSQL alike (the same SQL):

* **saves** (this player): the save under the old slot moves to the new slot. When both
  hold one, the newer is put under the new slot and the older stays under the old one,
  where "In progress" still lists it (a save keeps its own level, so it still resumes;
  its title then ends "(older save)" when it came from the new slot); nothing is overwritten.
* **solved marks** (this player): merged into the new title's mark, keeping the fewest
  moves (the same rule as a new solve), then the old mark is deleted.
* **results** (every player's: the boards are shared): relabelled to the new title; each
  win is its own row, so the boards merge by themselves.

Running it again does nothing more (idempotent): the old keys hold nothing left to move but
an older save, which stays. A database that cannot be written now is simply tried again the
next time (nothing is lost: the rows stay under the old key meanwhile).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ._boards import Leaderboards, upsert_solved
from ._db import Database

__all__ = ["RenameMap", "Renames"]

RenameMap = Mapping[str, Mapping[str, str]]
"""``{source_id: {old_key: new_key}}`` (``"pack:01-arduboy"``: ``{old title: new title}``)."""


def _slot(source: str, key: str) -> str:
    """The save slot of a level (as :attr:`tui.sources.LevelRef.slot` makes it)."""
    return f"{source}|{key}"


def _marks(count: int) -> str:
    """``?, ?, ?`` for an ``IN`` list of ``count`` values."""
    return ", ".join("?" * count)


def _pending(db: Database, user: str, game: str, moves: list[tuple[str, str, str]]) -> bool:
    """Whether anything under an old key still has to move (a read before any write).

    A few statements whatever the number of renames (one ``IN`` list per source and table):
    the check runs every time a game is opened, and a server may be a network hop away.
    """
    by_source: dict[str, dict[str, str]] = {}
    for source, old, new in moves:
        by_source.setdefault(source, {})[old] = new
    for source, renames in by_source.items():
        olds = list(renames)
        marks = _marks(len(olds))
        checks = (
            (
                f'SELECT 1 FROM solved WHERE "user" = ? AND game = ? AND pack = ? '
                f"AND level IN ({marks}) LIMIT 1",
                (user, game, source, *olds),
            ),
            (
                f"SELECT 1 FROM results WHERE game = ? AND source = ? AND level IN ({marks}) "
                "LIMIT 1",
                (game, source, *olds),
            ),
        )
        if any(db.execute(sql, params).fetchone() is not None for sql, params in checks):
            return True
        if _saves_due(db, user, game, source, renames):
            return True
    return False


def _saves_due(db: Database, user: str, game: str, source: str, renames: dict[str, str]) -> bool:
    """Whether an old slot of ``source`` holds a save that still has to move: the new slot
    is empty, or holds an older save (an older one under the old slot stays there)."""
    slots = [_slot(source, key) for pair in renames.items() for key in pair]
    found = dict(
        db.execute(
            f'SELECT slot, saved_at FROM saves WHERE "user" = ? AND game = ? '
            f"AND slot IN ({_marks(len(slots))})",
            (user, game, *slots),
        ).fetchall()
    )
    for old, new in renames.items():
        at = found.get(_slot(source, old))
        there = found.get(_slot(source, new))
        if at is not None and (there is None or float(at) > float(there)):
            return True
    return False


def _move_save(db: Database, user: str, game: str, old_slot: str, new_slot: str) -> int:
    """Move one save to its new slot; when both hold one, the newer goes to the new slot.

    Returns:
        1 when something moved, else 0.
    """
    select = 'SELECT data, summary, saved_at FROM saves WHERE "user" = ? AND game = ? AND slot = ?'
    old = db.execute(select, (user, game, old_slot)).fetchone()
    if old is None:
        return 0
    new = db.execute(select, (user, game, new_slot)).fetchone()
    if new is None:
        db.execute(
            'UPDATE saves SET slot = ? WHERE "user" = ? AND game = ? AND slot = ?',
            (new_slot, user, game, old_slot),
        )
        return 1
    if float(old[2]) <= float(new[2]):
        return 0  # The new slot holds the newer game; the older stays reachable where it is.
    update = 'UPDATE saves SET data = ?, summary = ?, saved_at = ? WHERE "user" = ? AND game = ? AND slot = ?'
    db.execute(update, (*old, user, game, new_slot))
    db.execute(update, (new[0], _older(new[1]), new[2], user, game, old_slot))
    return 1


OLDER = " (older save)"
"""Added to the title of a save set aside under an old title, so "In progress" tells the two
saves of one level apart."""


def _older(summary: Any) -> Any:
    """A save summary whose title says it is the older of two saves (unchanged when it is
    not a readable JSON object: the save itself is what matters)."""
    try:
        value = json.loads(summary)
    except (TypeError, ValueError):
        return summary
    if not isinstance(value, dict) or str(value.get("title", "")).endswith(OLDER):
        return summary
    value["title"] = f"{value.get('title') or 'Saved game'}{OLDER}"
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _move_solved(db: Database, user: str, game: str, source: str, old: str, new: str) -> int:
    """Merge the old title's solved mark into the new title's (fewest moves), drop the old."""
    where = '"user" = ? AND game = ? AND pack = ? AND level = ?'
    row = db.execute(
        f"SELECT moves, solved_at FROM solved WHERE {where}", (user, game, source, old)
    ).fetchone()
    if row is None:
        return 0
    upsert_solved(db, (user, game, source, new, row[0], row[1]))
    db.execute(f"DELETE FROM solved WHERE {where}", (user, game, source, old))
    return 1


def _move_results(db: Database, game: str, source: str, old: str, new: str) -> int:
    """Relabel every player's wins on the old title (each win is its own row)."""
    cursor = db.execute(
        "UPDATE results SET level = ? WHERE game = ? AND source = ? AND level = ?",
        (new, game, source, old),
    )
    return max(0, int(cursor.rowcount))


class Renames(Leaderboards):
    """The renames half of :class:`~._store.Store` (see the module docstring)."""

    def follow_renames(self, game: str, renames: RenameMap) -> int:
        """Move this player's rows (and every player's results) from old keys to new ones.

        Args:
            game: Game id.
            renames: ``{source_id: {old_key: new_key}}``, e.g. a game's bundled renames
                (:func:`tui.sources.bundled_renames`).

        Returns:
            How many saves, solved marks and results moved (0 when there was nothing to move,
            or the database cannot be written now: the next call tries again).
        """
        moves = [
            (source, old, new)
            for source, keys in renames.items()
            for old, new in keys.items()
            if old != new
        ]
        if not moves:
            return 0
        if not self._read(False, lambda db: _pending(db, self.user, game, moves)):
            return 0

        def work(db: Database) -> int:
            moved = 0
            for source, old, new in moves:
                moved += _move_save(db, self.user, game, _slot(source, old), _slot(source, new))
                moved += _move_solved(db, self.user, game, source, old, new)
                moved += _move_results(db, game, source, old, new)
            return moved

        result: Any = self._write(0, work)
        return int(result)
