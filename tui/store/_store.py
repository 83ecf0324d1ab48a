"""The :class:`Store`: one player's progress, saves, scores, settings and own levels."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ._files import DB_FILENAME, data_dir
from ._opening import connect, error_kind, open_database
from ._schema import migrate, rollback

KEYMAP_SETTING = "keymap"
"""Setting holding the user's key remapping, ``{binding_id: "key1,key2"}``."""

BUSY_TIMEOUT_MS = 5_000
"""How long one statement waits for another session's lock before giving up."""

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]


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


def _dumps(value: Any) -> str:
    """Serialise a JSON value with a stable key order."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def _loads_dict(text: str | None) -> dict[str, Any] | None:
    """Parse stored JSON that should be a dict; None if absent, unreadable or not a dict."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class Store:
    """Progress, saves, best scores, settings and own levels of one player, in SQLite.

    Every method is safe to call from the UI: storage errors (a locked or full disk, a database
    that went bad mid-session) never raise; they add a message to :attr:`warnings` and the
    method returns its "nothing there" value. Only programming errors raise: TypeError for data
    that is not JSON, ValueError for a blank or duplicate level title.

    Everything is per player: two stores on one file with different ``user`` values never see
    each other's rows. Settings are per player too; there are no global settings (the host's
    own preferences are those of the local player ``""``).

    When the database is busy (another program holds it locked), the store keeps its on-disk
    connection: changes that return nothing (saves, deletions, solved levels, settings) are
    queued in order and written before the next write or at :meth:`close`; reads do not wait
    for them. A warning says so once per busy spell.

    Args:
        path: Database file; ``None`` for ``data_dir()/termarcade.sqlite3``; ``":memory:"``
            for a throw-away store.
        user: Whose data this store reads and writes; ``""`` is the local player.
        busy_timeout: Seconds a statement waits for another session's lock. Opening retries
            a locked database for twice as long before carrying on without it.
    """

    def __init__(
        self,
        path: str | Path | None = None,
        user: str = "",
        *,
        busy_timeout: float = BUSY_TIMEOUT_MS / 1000,
    ) -> None:
        if not isinstance(user, str):
            raise TypeError(f"user must be a string, not {type(user).__name__}")
        self.user = user
        """Whose data this store reads and writes (``""``: the local player)."""
        self.warnings: list[str] = []
        """Messages for the user (corrupt database set aside, storage errors)."""
        self.path: Path | None
        """The database file, or ``None`` for an in-memory store."""
        if path is None:
            self.path = data_dir() / DB_FILENAME
        elif str(path) == ":memory:":
            self.path = None
        else:
            self.path = Path(path)
        self._lock = threading.RLock()
        self._busy_timeout = busy_timeout
        self._pending: list[Work[object]] = []
        self._busy_warned = False
        self._closed = False
        self._ready = True
        self._conn = self._open(patience=2 * busy_timeout)

    # -- opening ---------------------------------------------------------------------------

    def _open(self, patience: float) -> sqlite3.Connection:
        """Open the database file (or memory), recording warnings; see :mod:`._opening`.

        Args:
            patience: Seconds to keep retrying a locked database.

        Returns:
            The connection to use; :attr:`_ready` says whether its schema is checked.
        """
        if self.path is None:
            return self._memory()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            self.warnings.append(
                f"Cannot create the data directory {self.path.parent} "
                f"({error.strerror or error}); progress is kept for this session only."
            )
            return self._memory()
        opened = open_database(self.path, self._busy_timeout, patience)
        self.warnings.extend(opened.warnings)
        if opened.conn is None:
            return self._memory()  # The warning already says why.
        self._ready = opened.ready
        if not opened.ready:
            self._warn_busy()
        return opened.conn

    def _memory(self) -> sqlite3.Connection:
        """Switch to a fresh in-memory database (progress lasts for this session)."""
        self.path = None
        self._ready = True
        conn = connect(":memory:", self._busy_timeout)
        migrate(conn)
        return conn

    def _ensure_ready(self) -> bool:
        """After a busy open, try once more to check and set up the database.

        Returns:
            True if the connection is ready (possibly a new one, or memory).
        """
        if self._ready:
            return True
        stale = self._conn
        self._conn = self._open(patience=self._busy_timeout)
        stale.close()
        return self._ready

    def _warn_busy(self) -> None:
        """Say once per busy spell that the database is locked by someone else."""
        if self._busy_warned:
            return
        self._busy_warned = True
        self.warnings.append(
            f"The progress database {self.path} is busy (another program holds it locked); "
            "changes are kept and saved once it is free."
        )

    # -- plumbing --------------------------------------------------------------------------

    def _read(self, default: T, work: Work[T]) -> T:
        """Run a query under the lock; turn storage errors into a warning and ``default``."""
        with self._lock:
            if self._closed:
                return self._closed_default(default)
            if not self._ensure_ready():
                return default
            try:
                return work(self._conn)
            except sqlite3.Error as error:
                self._storage_error(error)
                return default

    def _write(self, default: T, work: Work[T], *, deferrable: bool = False) -> T:
        """Run ``work`` in one ``BEGIN IMMEDIATE`` transaction (all or nothing).

        Args:
            default: What to return when storage fails.
            work: The statements; they must give the same result when run again later.
            deferrable: Queue ``work`` if the database is busy (only for changes whose
                caller needs no answer).

        Returns:
            The result of ``work``, or ``default``.
        """
        with self._lock:
            if self._closed:
                return self._closed_default(default)
            if not (self._ensure_ready() and self._flush()):
                # Still busy: write nothing out of order; queue it behind the others.
                return self._defer(work, default) if deferrable else self._busy(default)
            try:
                return self._transaction(work)
            except sqlite3.Error as error:
                if deferrable and error_kind(error) == "busy":
                    return self._defer(work, default)
                self._storage_error(error)
                return default

    def _transaction(self, work: Work[T]) -> T:
        """Run ``work`` between ``BEGIN IMMEDIATE`` and ``COMMIT``; roll back on any error."""
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = work(conn)
            conn.execute("COMMIT")
        except BaseException:
            rollback(conn)
            raise
        return result

    def _flush(self) -> bool:
        """Write the queued changes in order.

        Returns:
            True when the queue is empty; False if the database is still busy.
        """
        while self._pending:
            try:
                self._transaction(self._pending[0])
            except sqlite3.Error as error:
                if error_kind(error) == "busy":
                    return False
                self._storage_error(error)  # It will never succeed: report it and go on.
            self._pending.pop(0)
        self._busy_warned = False
        return True

    def _defer(self, work: Work[object], default: T) -> T:
        """Queue a change for when the database is free again."""
        self._pending.append(work)
        self._warn_busy()
        return default

    def _busy(self, default: T) -> T:
        """A change that needs an answer now could not be made: the database is busy."""
        self.warnings.append(
            "The progress database is busy (another program holds it locked); "
            "that change was not saved."
        )
        return default

    def _storage_error(self, error: sqlite3.Error) -> None:
        self.warnings.append(f"Storage error: {error}")

    def _closed_default(self, default: T) -> T:
        self.warnings.append("Storage error: the store is closed.")
        return default

    def close(self) -> None:
        """Write queued changes if the database is free now, and close the connection.

        Further calls return their empty value with a warning, never an exception.
        """
        with self._lock:
            if self._closed:
                return
            if self._pending and not (self._ensure_ready() and self._flush()):
                self.warnings.append(
                    f"{len(self._pending)} change(s) could not be saved: the progress "
                    "database stayed busy."
                )
            self._closed = True
            self._conn.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- solved levels ---------------------------------------------------------------------

    def mark_solved(self, game: str, pack: str, level: str, moves: int | None = None) -> None:
        """Record that a level was solved, keeping the fewest moves seen.

        Args:
            game: Game id.
            pack: Pack id.
            level: Level id within the pack.
            moves: Moves used, if the game counts them.
        """
        row = (self.user, game, pack, level, moves, time.time())

        def work(conn: sqlite3.Connection) -> None:
            # SET expressions see the row as it was, so solved_at moves only with a better count.
            conn.execute(
                """
                INSERT INTO solved (user, game, pack, level, moves, solved_at)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (user, game, pack, level) DO UPDATE SET
                    moves = CASE
                        WHEN solved.moves IS NULL THEN excluded.moves
                        WHEN excluded.moves IS NULL THEN solved.moves
                        ELSE MIN(solved.moves, excluded.moves)
                    END,
                    solved_at = CASE
                        WHEN excluded.moves IS NOT NULL
                             AND (solved.moves IS NULL OR excluded.moves < solved.moves)
                        THEN excluded.solved_at
                        ELSE solved.solved_at
                    END
                """,
                row,
            )

        self._write(None, work, deferrable=True)

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
            lambda conn: {
                level: Result(moves, solved_at)
                for level, moves, solved_at in conn.execute(
                    "SELECT level, moves, solved_at FROM solved "
                    "WHERE user = ? AND game = ? AND pack = ?",
                    (self.user, game, pack),
                )
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
        self._write(
            None,
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO saves (user, game, slot, data, summary, saved_at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                row,
            ),
            deferrable=True,
        )

    def load_game(self, game: str, slot: str) -> dict[str, Any] | None:
        """Return the saved data of a slot, or ``None`` if there is none (or it is unreadable)."""

        def work(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute(
                "SELECT data FROM saves WHERE user = ? AND game = ? AND slot = ?",
                (self.user, game, slot),
            ).fetchone()
            if row is None:
                return None
            data = _loads_dict(row[0])
            if data is None:
                self.warnings.append(f"The saved {game} game in slot {slot!r} is unreadable.")
            return data

        return self._read(None, work)

    def delete_game(self, game: str, slot: str) -> None:
        """Delete a saved game (no error if the slot is empty)."""
        key = (self.user, game, slot)
        self._write(
            None,
            lambda conn: conn.execute(
                "DELETE FROM saves WHERE user = ? AND game = ? AND slot = ?", key
            ),
            deferrable=True,
        )

    def saved_slots(self, game: str) -> list[str]:
        """Return the slot names that hold a saved game, newest first."""
        return [info.slot for info in self.saves(game)]

    def saves(self, game: str) -> list[SaveInfo]:
        """Return the saves of a game, newest first, with their summaries (not their data)."""
        return self._read(
            [],
            lambda conn: [
                SaveInfo(slot, saved_at, _loads_dict(summary))
                for slot, saved_at, summary in conn.execute(
                    "SELECT slot, saved_at, summary FROM saves WHERE user = ? AND game = ? "
                    "ORDER BY saved_at DESC, slot",
                    (self.user, game),
                )
            ],
        )

    # -- best scores -----------------------------------------------------------------------

    def best_score(self, game: str, key: str) -> int | None:
        """Return the best score recorded under ``key`` (e.g. a board size), or ``None``."""

        def work(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                "SELECT score FROM scores WHERE user = ? AND game = ? AND key = ?",
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
            True if ``score`` is the new best (including the first score recorded).
        """
        better = "<" if lower_is_better else ">"
        row = (self.user, game, key, int(score), time.time())

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                f"""
                INSERT INTO scores (user, game, key, score, recorded_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user, game, key) DO UPDATE SET
                    score = excluded.score, recorded_at = excluded.recorded_at
                WHERE excluded.score {better} scores.score
                """,
                row,
            )
            return cursor.rowcount > 0

        return self._write(False, work)

    # -- settings --------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """Return one of this player's settings, or ``default`` when unset or unreadable."""

        def work(conn: sqlite3.Connection) -> Any:
            row = conn.execute(
                "SELECT value FROM settings WHERE user = ? AND key = ?", (self.user, key)
            ).fetchone()
            if row is None:
                return default
            try:
                return json.loads(row[0])
            except ValueError:
                return default

        return self._read(default, work)

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable setting value for this player.

        Raises:
            TypeError: If ``value`` cannot be serialised to JSON (a programming error).
        """
        row = (self.user, key, _dumps(value))
        self._write(
            None,
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO settings (user, key, value) VALUES (?, ?, ?)", row
            ),
            deferrable=True,
        )

    # -- my levels -------------------------------------------------------------------------

    def my_levels(self, game: str) -> list[MyLevel]:
        """Return the player's own levels of a game, oldest first."""
        return self._read(
            [],
            lambda conn: [
                MyLevel(*row)
                for row in conn.execute(
                    f"SELECT {_LEVEL_COLUMNS} FROM my_levels WHERE user = ? AND game = ? "
                    "ORDER BY created_at, id",
                    (self.user, game),
                )
            ],
        )

    def get_my_level(self, game: str, level_id: int) -> MyLevel | None:
        """Return one of the player's own levels, or None (also for another player's id)."""
        return self._read(None, lambda conn: _fetch_level(conn, self.user, game, level_id))

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

        def work(conn: sqlite3.Connection) -> MyLevel | None:
            with _unique_title(conn, self.user, game, title):
                cursor = conn.execute(
                    "INSERT INTO my_levels (user, game, title, text, created_at, updated_at) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (self.user, game, title, text, now, now),
                )
            return MyLevel(int(cursor.lastrowid or 0), title, text, now, now)

        return self._write(None, work)

    def replace_my_level(
        self, game: str, level_id: int, title: str, text: str
    ) -> MyLevel | None:
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

        def work(conn: sqlite3.Connection) -> MyLevel | None:
            with _unique_title(conn, self.user, game, title):
                conn.execute(
                    "UPDATE my_levels SET title = ?, text = ?, updated_at = ? "
                    "WHERE id = ? AND user = ? AND game = ?",
                    (title, text, now, level_id, self.user, game),
                )
            return _fetch_level(conn, self.user, game, level_id)

        return self._write(None, work)

    def delete_my_level(self, game: str, level_id: int) -> None:
        """Delete one of the player's own levels (no error if there is no such level)."""
        key = (level_id, self.user, game)
        self._write(
            None,
            lambda conn: conn.execute(
                "DELETE FROM my_levels WHERE id = ? AND user = ? AND game = ?", key
            ),
            deferrable=True,
        )


_LEVEL_COLUMNS = "id, title, text, created_at, updated_at"


def _fetch_level(conn: sqlite3.Connection, user: str, game: str, level_id: int) -> MyLevel | None:
    """Return the player's level ``level_id`` of ``game``, or None."""
    row = conn.execute(
        f"SELECT {_LEVEL_COLUMNS} FROM my_levels WHERE id = ? AND user = ? AND game = ?",
        (level_id, user, game),
    ).fetchone()
    return None if row is None else MyLevel(*row)


def _check_level(title: object, text: object) -> None:
    """Reject a title or text the caller should never pass (programming errors)."""
    if not isinstance(title, str) or not isinstance(text, str):
        raise TypeError("a level's title and text must be strings")
    if not title.strip():
        raise ValueError("A level needs a title.")


@contextmanager
def _unique_title(conn: sqlite3.Connection, user: str, game: str, title: str) -> Iterator[None]:
    """Turn the UNIQUE (user, game, title) violation into :class:`DuplicateTitle`.

    The database enforces uniqueness (two sessions adding the same title at once cannot both
    succeed); this only translates the error and finds the level that has the title.
    """
    try:
        yield
    except sqlite3.IntegrityError as error:
        if getattr(error, "sqlite_errorcode", None) != sqlite3.SQLITE_CONSTRAINT_UNIQUE:
            raise
        row = conn.execute(
            "SELECT id FROM my_levels WHERE user = ? AND game = ? AND title = ?",
            (user, game, title),
        ).fetchone()
        raise DuplicateTitle(game, title, int(row[0]) if row else -1) from error
