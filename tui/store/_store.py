"""The :class:`Store`: one player's progress, saves, scores, settings, own levels, boards.

The SQL here is written once for both backends (see :mod:`._dialect` for the rules it keeps
to); :class:`~._engine.StoreBase` runs it under the store's contract and
:class:`~._boards.Leaderboards` adds the leaderboards and :class:`~._renames.Renames` the
following of renamed bundled levels.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ._changes import Change, record_score
from ._damage import DAMAGED_TABLE, set_aside
from ._db import Database
from ._decode import decode
from ._renames import Renames

KEYMAP_SETTING = "keymap"
"""Setting holding the user's key remapping, ``{binding_id: "key1,key2"}``."""


@dataclass(frozen=True)
class SaveInfo:
    """What a level list needs to know about a save, without loading it.

    Attributes:
        slot: The slot name (e.g. ``"autosave"`` or a level id).
        saved_at: When it was saved (seconds since the epoch).
        summary: The small JSON dict the caller passed to :meth:`Store.save_game`, or None.
    """

    slot: str
    saved_at: float
    summary: dict[str, Any] | None


@dataclass(frozen=True)
class Result:
    """The best result on a solved level.

    Attributes:
        moves: The fewest moves, or None if the game does not count them.
        solved_at: When that result was reached (the first solve if the moves never improved).
    """

    moves: int | None
    solved_at: float


@dataclass(frozen=True)
class MyLevel:
    """One of the player's own levels.

    Attributes:
        id: Its id in the store (never reused).
        title: Its title, unique among the player's levels of that game.
        text: Level-file text (the store does not parse it).
        created_at: When it was added (seconds since the epoch).
        updated_at: When it was last replaced (equals ``created_at`` until then).
    """

    id: int
    title: str
    text: str
    created_at: float
    updated_at: float


class DuplicateTitle(ValueError):
    """The player already has a level of that game with that title.

    Attributes:
        existing_id: The id of that level (to offer replacing it).
    """

    def __init__(self, game: str, title: str, existing_id: int) -> None:
        super().__init__(f"You already have a {game} level titled {title!r}.")
        self.existing_id = existing_id


@dataclass(frozen=True)
class _KeptSave:
    """A save not written yet (the database could not take it): the row's last columns."""

    data: str
    summary: str | None
    saved_at: float

    def info(self, slot: str) -> SaveInfo:
        return SaveInfo(slot, self.saved_at, _loads_dict(self.summary))


def _dumps(value: Any) -> str:
    """Serialise a JSON value with a stable key order."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _loads_dict(text: str | None) -> dict[str, Any] | None:
    """Parse stored JSON that should be a dict; None if absent, unreadable or not a dict."""
    return None if text is None else _dict_or_problem(text)[0]


def _dict_or_problem(text: object) -> tuple[dict[str, Any] | None, str | None]:
    """Decode stored JSON that should be a dict, never raising.

    Returns:
        ``(dict, None)``, or ``(None, why it is unreadable)``.
    """
    decoded = decode(text)
    if decoded.problem is not None:
        return None, decoded.problem
    if not isinstance(decoded.value, dict):
        return None, f"not a JSON object ({type(decoded.value).__name__})"
    return decoded.value, None


class Store(Renames):
    """Progress, saves, best scores, settings, own levels and leaderboards of one player.

    Every method is safe to call from the UI: storage errors (a locked or full disk, a database
    that went bad mid-session, a database server that went away) never raise; they add a
    message to :attr:`warnings` and the method returns its "nothing there" value. Only
    programming errors raise: TypeError for data that is not JSON, ValueError for a blank or
    duplicate level title (or a store URL of an unknown kind).

    Everything is per player: two stores on one database with different ``user`` values never
    see each other's rows (the leaderboards, which show every player, are the exception).
    Settings are per player too; there are no global settings (the host's own preferences
    are those of the local player ``""``).

    When the database is busy (another program holds it locked, or the server does not
    answer), the store keeps its connection: changes that need no answer (saves, deletions,
    solved levels, results, scores, settings) are kept, queued in order and appended to a
    local journal, and written by a background retry, before the next write, or at
    :meth:`close`; a journal left by a session that ended first is replayed by the next one
    (see :mod:`._journal`). Reads do not wait for them; this session reads its kept saves
    back. :meth:`watch` tells the app when this starts and ends; a warning says so once per
    busy spell.

    Args:
        path: Where the data is: ``None`` for ``$TERMARCADE_STORE`` or else
            ``data_dir()/termarcade.sqlite3``; a SQLite file path; a ``postgresql://`` URL
            (needs the ``postgres`` extra, psycopg 3); ``":memory:"`` for a throw-away store.
        user: Whose data this store reads and writes; ``""`` is the local player.
        busy_timeout: Seconds a statement waits for another session's lock. Opening retries
            a locked database for twice as long before carrying on without it; an
            unreachable server is tried once (the journal takes the changes meanwhile).
    """

    @classmethod
    def open(cls, url: str | None = None, user: str = "") -> Store:
        """The store a command line or a server asks for by URL.

        Args:
            url: ``postgresql://...``, ``sqlite:///path``, a path, ``:memory:``; ``None`` for
                ``$TERMARCADE_STORE`` or else the default SQLite file.
            user: Whose data the store reads and writes.

        Raises:
            ValueError: For a URL of a kind the store does not speak.
        """
        return cls(url, user)

    def __enter__(self) -> Store:
        return self

    # -- saves kept while the database cannot take them ----------------------------------------

    def _kept(self, change: Change) -> None:
        """Remember a kept save (or deletion): this session reads it back until it is written.

        A player who leaves a level during an outage and opens it again resumes where they
        were, not at the last save the database holds (whose later save would then win).
        """
        if change.op in ("save", "delete_save"):
            _, game, slot, *rest = change.row
            kept = _KeptSave(*rest) if change.op == "save" else None
            self.__dict__.setdefault("_kept_saves", {})[(game, slot)] = kept

    def _written(self) -> None:
        self.__dict__.pop("_kept_saves", None)

    def _kept_saves_of(self, game: str) -> dict[str, _KeptSave | None]:
        """``{slot: kept save, or None for a kept deletion}`` of a game (empty: none kept)."""
        with self._lock:
            kept = self.__dict__.get("_kept_saves", {})
            return {slot: value for (of, slot), value in kept.items() if of == game}

    # -- solved levels ---------------------------------------------------------------------

    def mark_solved(self, game: str, pack: str, level: str, moves: int | None = None) -> None:
        """Record that a level was solved, keeping the fewest moves seen.

        (A win played in the app goes through :meth:`record_result`, which also does this.)

        Args:
            game: Game id.
            pack: Pack id.
            level: Level id within the pack.
            moves: Moves used, if the game counts them.
        """
        row = (self.user, game, pack, level, moves, time.time())
        self._change(Change("solved", row))

    def solved_levels(self, game: str, pack: str) -> set[str]:
        """Return the ids of the solved levels of a pack."""
        return set(self.best_results(game, pack))

    def solved_moves(self, game: str, pack: str) -> dict[str, int | None]:
        """Return ``{level_id: fewest moves or None}`` for the solved levels of a pack."""
        return {level: result.moves for level, result in self.best_results(game, pack).items()}

    def best_results(self, game: str, pack: str) -> dict[str, Result]:
        """Return ``{level_id: Result(moves, solved_at)}`` for the solved levels of a pack."""
        return self._read(
            {},
            lambda db: {
                level: Result(moves, solved_at)
                for level, moves, solved_at in db.execute(
                    "SELECT level, moves, solved_at FROM solved "
                    'WHERE "user" = ? AND game = ? AND pack = ?',
                    (self.user, game, pack),
                ).fetchall()
            },
        )

    # -- saved games -----------------------------------------------------------------------

    def save_game(
        self,
        game: str,
        slot: str,
        data: dict[str, Any],
        summary: dict[str, Any] | None = None,
    ) -> None:
        """Save a game in a slot, replacing what was there.

        Args:
            game: Game id.
            slot: Slot name (e.g. ``"autosave"`` or a level id).
            data: A JSON-serialisable dict (level id, seed, moves ...).
            summary: A small JSON dict shown in level lists without loading the save
                (e.g. ``{"moves": 12, "status": "playing"}``), returned by :meth:`saves`.

        Raises:
            TypeError: If ``data`` or ``summary`` cannot be serialised to JSON.
        """
        row = (
            self.user,
            game,
            slot,
            _dumps(data),
            None if summary is None else _dumps(summary),
            time.time(),
        )
        self._change(Change("save", row))

    def load_game(self, game: str, slot: str) -> dict[str, Any] | None:
        """Return the saved data of a slot, or ``None`` if there is none (or it is unreadable)."""
        kept = self._kept_saves_of(game)
        if slot in kept:
            save = kept[slot]
            return None if save is None else _loads_dict(save.data)

        row = self._read(
            None,
            lambda db: db.execute(
                'SELECT data FROM saves WHERE "user" = ? AND game = ? AND slot = ?',
                (self.user, game, slot),
            ).fetchone(),
        )
        if row is None:
            return None
        data, problem = _dict_or_problem(row[0])
        if problem is not None:
            self._set_aside_save(game, slot, problem)
        return data

    def delete_game(self, game: str, slot: str) -> None:
        """Delete a saved game (no error if the slot is empty)."""
        self._change(Change("delete_save", (self.user, game, slot, time.time())))

    def saved_slots(self, game: str) -> list[str]:
        """Return the slot names that hold a saved game, newest first."""
        return [info.slot for info in self.saves(game)]

    def saves(self, game: str) -> list[SaveInfo]:
        """Return the saves of a game, newest first, with their summaries (not their data)."""
        rows: list[Any] = self._read(
            [],
            lambda db: db.execute(
                'SELECT slot, saved_at, summary FROM saves WHERE "user" = ? AND game = ? '
                "ORDER BY saved_at DESC, slot",
                (self.user, game),
            ).fetchall(),
        )
        stored = [SaveInfo(slot, at, self._summary(game, slot, text)) for slot, at, text in rows]
        kept = self._kept_saves_of(game)
        if not kept:
            return stored
        merged = [info for info in stored if info.slot not in kept] + [
            save.info(slot) for slot, save in kept.items() if save is not None
        ]
        return sorted(merged, key=lambda info: (-info.saved_at, info.slot))

    def save_info(self, game: str, slot: str) -> SaveInfo | None:
        """Return one save's summary (not its data), or None when the slot is empty."""
        kept = self._kept_saves_of(game)
        if slot in kept:
            save = kept[slot]
            return None if save is None else save.info(slot)

        def work(db: Database) -> Any:
            return db.execute(
                'SELECT saved_at, summary FROM saves WHERE "user" = ? AND game = ? AND slot = ?',
                (self.user, game, slot),
            ).fetchone()

        row = self._read(None, work)
        return None if row is None else SaveInfo(slot, row[0], self._summary(game, slot, row[1]))

    def _summary(self, game: str, slot: str, text: object) -> dict[str, Any] | None:
        """A save's summary; a damaged one is set aside (the save itself stays)."""
        if text is None:
            return None
        summary, problem = _dict_or_problem(text)
        if problem is not None:
            self._set_aside_save(game, slot, problem, summary_only=True)
        return summary

    def _set_aside_save(
        self, game: str, slot: str, problem: str, *, summary_only: bool = False
    ) -> None:
        """Report a damaged save (or only its summary) and set it aside."""
        what = f"saved {game} game in slot {slot!r}"
        self._set_aside(
            "saves",
            {"user": self.user, "game": game, "slot": slot},
            f"The summary of the {what}" if summary_only else f"The {what}",
            problem,
            clear="summary" if summary_only else None,
        )

    def _set_aside(
        self,
        table: str,
        key: dict[str, Any],
        what: str,
        problem: str,
        clear: str | None = None,
    ) -> None:
        """Report a damaged row once (naming its table and key) and move it to damaged_rows.

        The move is a write like any other: if the database cannot take it now, the row
        stays where it is and is found (and set aside) again on a later read.
        """
        moved = self._write(False, set_aside(table, key, problem, clear=clear))
        reported = self.__dict__.setdefault("_reported_damage", set())
        row_key = "/".join(str(value) for column, value in key.items() if column != "user")
        if (table, clear, row_key) in reported:
            return
        reported.add((table, clear, row_key))
        where = f"table {table}, key {row_key!r}"
        self.warnings.append(
            f"{what} is unreadable ({problem}); it was set aside in the {DAMAGED_TABLE} "
            f"table ({where})."
            if moved
            else f"{what} is unreadable ({problem}) and stays where it is for now ({where})."
        )

    # -- best scores -----------------------------------------------------------------------

    def best_score(self, game: str, key: str) -> int | None:
        """Return the best score recorded under ``key`` (e.g. a board size), or ``None``."""

        def work(db: Database) -> int | None:
            row = db.execute(
                'SELECT score FROM scores WHERE "user" = ? AND game = ? AND key = ?',
                (self.user, game, key),
            ).fetchone()
            return None if row is None else int(row[0])

        return self._read(None, work)

    def record_score(
        self, game: str, key: str, score: int, *, lower_is_better: bool = False
    ) -> bool:
        """Record a score; keep it only if it beats the best so far.

        The comparison and the update are one SQL statement, so concurrent sessions cannot
        overwrite a better score with a worse one.

        Args:
            game: Game id.
            key: What the score is for (e.g. ``"4x4-standard"``).
            score: The score reached.
            lower_is_better: Compare for the smallest value (moves, time) instead of the largest.

        Returns:
            True if ``score`` is the new best (including the first score recorded); False
            also while the database cannot take it (the score is then kept and written when
            it can, as a move is).
        """
        change = Change(
            "score", (self.user, game, key, int(score), time.time(), bool(lower_is_better))
        )

        def work(db: Database) -> bool:
            return record_score(db, change.row)

        # Kept (and answered False) while the database cannot take it: a best score reached
        # during an outage is written when the store returns, like a move.
        return self._write(False, work, deferrable=True, change=change)

    # -- settings --------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """Return one of this player's settings, or ``default`` when unset or unreadable."""

        row = self._read(
            None,
            lambda db: db.execute(
                'SELECT value FROM settings WHERE "user" = ? AND key = ?', (self.user, key)
            ).fetchone(),
        )
        if row is None:
            return default
        decoded = decode(row[0])
        if decoded.problem is None:
            return decoded.value
        keyed = {"user": self.user, "key": key}
        self._set_aside("settings", keyed, f"The setting {key!r}", decoded.problem)
        return default

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable setting value for this player.

        Raises:
            TypeError: If ``value`` cannot be serialised to JSON (a programming error).
        """
        self._change(Change("setting", (self.user, key, _dumps(value))))

    # -- my levels -------------------------------------------------------------------------

    def my_levels(self, game: str) -> list[MyLevel]:
        """Return the player's own levels of a game, oldest first."""
        return self._read(
            [],
            lambda db: [
                _level(row)
                for row in db.execute(
                    f'SELECT {_LEVEL_COLUMNS} FROM my_levels WHERE "user" = ? AND game = ? '
                    "ORDER BY created_at, id",
                    (self.user, game),
                ).fetchall()
            ],
        )

    def get_my_level(self, game: str, level_id: int) -> MyLevel | None:
        """Return one of the player's own levels, or None (also for another player's id)."""
        return self._read(None, lambda db: _fetch_level(db, self.user, game, level_id))

    def add_my_level(self, game: str, title: str, text: str) -> MyLevel | None:
        """Add a level to the player's own levels of a game.

        Args:
            game: Game id.
            title: Its title; unique among the player's levels of ``game``.
            text: Level-file text (stored as it is).

        Returns:
            The new level, or None if storage failed (see :attr:`warnings`).

        Raises:
            DuplicateTitle: (a ValueError) The player has a level with that title; its
                ``existing_id`` lets the UI offer :meth:`replace_my_level`.
            ValueError: If ``title`` is blank.
            TypeError: If ``title`` or ``text`` is not a string.
        """
        _check_level(title, text)
        now = time.time()

        def work(db: Database) -> MyLevel | None:
            with _unique_title(db, self.user, game, title):
                (row,) = db.execute(
                    'INSERT INTO my_levels ("user", game, title, text, created_at, updated_at) '
                    "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (self.user, game, title, text, now, now),
                ).fetchall()
            return MyLevel(int(row[0]), title, text, now, now)

        # Not retried on a new connection: had the lost commit arrived, a second insert would
        # report the level as a duplicate of itself.
        return self._write(None, work, retry=False)

    def replace_my_level(self, game: str, level_id: int, title: str, text: str) -> MyLevel | None:
        """Replace the title and text of one of the player's own levels.

        Args:
            game: Game id.
            level_id: The level's id.
            title: Its new title (unique among the player's other levels of ``game``).
            text: Its new level-file text.

        Returns:
            The updated level, or None if there is no such level or storage failed.

        Raises:
            DuplicateTitle: Another of the player's levels has that title.
            ValueError: If ``title`` is blank.
            TypeError: If ``title`` or ``text`` is not a string.
        """
        _check_level(title, text)
        now = time.time()

        def work(db: Database) -> MyLevel | None:
            with _unique_title(db, self.user, game, title):
                db.execute(
                    "UPDATE my_levels SET title = ?, text = ?, updated_at = ? "
                    'WHERE id = ? AND "user" = ? AND game = ?',
                    (title, text, now, int(level_id), self.user, game),
                )
            return _fetch_level(db, self.user, game, level_id)

        return self._write(None, work)

    def delete_my_level(self, game: str, level_id: int) -> None:
        """Delete one of the player's own levels (no error if there is no such level)."""
        self._change(Change("delete_level", (int(level_id), self.user, game, time.time())))


_LEVEL_COLUMNS = "id, title, text, created_at, updated_at"


def _level(row: Any) -> MyLevel:
    level_id, title, text, created_at, updated_at = row
    return MyLevel(int(level_id), title, text, created_at, updated_at)


def _fetch_level(db: Database, user: str, game: str, level_id: int) -> MyLevel | None:
    """Return the player's level ``level_id`` of ``game``, or None."""
    row = db.execute(
        f'SELECT {_LEVEL_COLUMNS} FROM my_levels WHERE id = ? AND "user" = ? AND game = ?',
        (int(level_id), user, game),
    ).fetchone()
    return None if row is None else _level(row)


def _check_level(title: object, text: object) -> None:
    """Reject a title or text the caller should never pass (programming errors)."""
    if not isinstance(title, str) or not isinstance(text, str):
        raise TypeError("a level's title and text must be strings")
    if not title.strip():
        raise ValueError("A level needs a title.")


@contextmanager
def _unique_title(db: Database, user: str, game: str, title: str) -> Iterator[None]:
    """Turn the UNIQUE ("user", game, title) violation into :class:`DuplicateTitle`.

    The database enforces uniqueness (two sessions adding the same title at once cannot both
    succeed); this only translates the error and finds the level that has the title. The
    statement runs under a savepoint: after an error PostgreSQL refuses every statement of
    the transaction until it is rolled back to one (SQLite would not mind).
    """
    db.execute("SAVEPOINT unique_title")
    try:
        yield
    except db.errors as error:
        if db.error_kind(error) != "unique":
            raise
        db.execute("ROLLBACK TO SAVEPOINT unique_title")
        row = db.execute(
            'SELECT id FROM my_levels WHERE "user" = ? AND game = ? AND title = ?',
            (user, game, title),
        ).fetchone()
        raise DuplicateTitle(game, title, int(row[0]) if row else -1) from error
    db.execute("RELEASE SAVEPOINT unique_title")
