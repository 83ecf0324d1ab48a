"""The SQLite store: solved levels, saved games, best scores and settings.

One database file, ``termarcade.sqlite3``, lives in the user data directory
(``platformdirs.user_data_dir("termarcade")``); the environment variable
``TERMARCADE_DATA_DIR`` overrides the directory (the tests point it at a temporary folder).

Why SQLite in WAL mode: several sessions (two terminals, or later many SSH players) may use the
store at once; WAL lets readers and one writer work concurrently, and every write is one short
transaction, so a crash never leaves half-written progress. Best scores are updated with a
single conditional ``UPSERT`` so two sessions racing cannot lower a best score.

A database that cannot be read is never silently lost: it is renamed aside to
``termarcade.sqlite3.corrupt-<timestamp>``, a fresh one is created, and a message is added to
:attr:`Store.warnings`, which the app shows as a notification. If the directory cannot be
written at all, the store falls back to an in-memory database (progress lasts for the session
only) and says so in the same way.

Also here (from :mod:`._files`): :func:`atomic_write_text`, used by the level editor to write
level files through a temporary file and a rename.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Callable, TypeVar

from ._files import DB_FILENAME, ENV_DATA_DIR, atomic_write_text, data_dir

__all__ = [
    "DB_FILENAME",
    "ENV_DATA_DIR",
    "KEYMAP_SETTING",
    "SCHEMA_VERSION",
    "Store",
    "atomic_write_text",
    "data_dir",
]

KEYMAP_SETTING = "keymap"
"""Setting holding the user's key remapping, ``{binding_id: "key1,key2"}``."""

SCHEMA_VERSION = 1
"""Current schema version, stored in ``PRAGMA user_version``."""

BUSY_TIMEOUT_MS = 5_000
"""How long a connection waits for another session's write lock before giving up."""

# Each entry upgrades the schema from version ``index`` to ``index + 1``.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE IF NOT EXISTS solved (
        game      TEXT NOT NULL,
        pack      TEXT NOT NULL,
        level     TEXT NOT NULL,
        moves     INTEGER,
        solved_at REAL NOT NULL,
        PRIMARY KEY (game, pack, level)
    );
    CREATE TABLE IF NOT EXISTS saves (
        game     TEXT NOT NULL,
        slot     TEXT NOT NULL,
        data     TEXT NOT NULL,
        saved_at REAL NOT NULL,
        PRIMARY KEY (game, slot)
    );
    CREATE TABLE IF NOT EXISTS scores (
        game        TEXT NOT NULL,
        key         TEXT NOT NULL,
        score       INTEGER NOT NULL,
        recorded_at REAL NOT NULL,
        PRIMARY KEY (game, key)
    );
    CREATE TABLE IF NOT EXISTS settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
)
assert len(_MIGRATIONS) == SCHEMA_VERSION

T = TypeVar("T")


def _dumps(value: Any) -> str:
    """Serialise a JSON value with a stable key order."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


class Store:
    """Progress, saves, best scores and settings in one SQLite database.

    Every method is safe to call from the UI: storage errors (a locked or full disk, a database
    that went bad mid-session) never raise; they add a message to :attr:`warnings` and the
    method returns its "nothing there" value.

    Args:
        path: Database file; ``None`` for ``data_dir()/termarcade.sqlite3``; ``":memory:"`` for
            a throw-away store.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.warnings: list[str] = []
        """Messages for the user (corrupt database set aside, storage errors)."""
        self._lock = threading.RLock()
        self.path: Path | None
        """The database file, or ``None`` for an in-memory store."""
        if path is None:
            self.path = data_dir() / DB_FILENAME
        elif str(path) == ":memory:":
            self.path = None
        else:
            self.path = Path(path)
        self._conn = self._open()

    # -- opening ---------------------------------------------------------------------------

    def _in_memory(self, why: str) -> sqlite3.Connection:
        """Fall back to an in-memory database for this session, with a warning saying why."""
        self.warnings.append(f"{why}; progress is kept for this session only.")
        self.path = None
        return self._connect(":memory:")

    def _open(self) -> sqlite3.Connection:
        """Open (creating or repairing as needed) and migrate the database."""
        if self.path is None:
            return self._connect(":memory:")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return self._in_memory(
                f"Cannot create the data directory {self.path.parent} ({error.strerror or error})"
            )
        try:
            return self._connect(str(self.path))
        except _NewerSchema as newer:
            return self._in_memory(
                f"{self.path} was written by a newer termarcade (schema {newer.version}); "
                "it was left untouched"
            )
        except sqlite3.DatabaseError as error:
            self._set_aside(error)
            try:
                return self._connect(str(self.path))
            except sqlite3.Error as second:  # pragma: no cover - disk failing under us
                return self._in_memory(f"Cannot open a new database at {self.path} ({second})")

    def _connect(self, target: str) -> sqlite3.Connection:
        """Connect, configure WAL and bring the schema up to date."""
        conn = sqlite3.connect(
            target,
            timeout=BUSY_TIMEOUT_MS / 1000,
            isolation_level=None,  # Autocommit; transactions are explicit below.
            check_same_thread=False,  # Workers may save from threads; self._lock serialises.
        )
        try:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Check the version before anything writes to the file (WAL changes its header).
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise _NewerSchema(version)
            if target != ":memory:":
                mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()
                if mode is None or str(mode[0]).lower() != "wal":
                    # Some file systems (network mounts) cannot do WAL; still usable.
                    self.warnings.append("The database does not support WAL mode here.")
                conn.execute("PRAGMA synchronous = NORMAL")
            self._migrate(conn)
            if target != ":memory:":
                row = conn.execute("PRAGMA quick_check").fetchone()
                if row is None or row[0] != "ok":
                    raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else '?'}")
        except BaseException:
            conn.close()
            raise
        return conn

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        """Apply the migrations the database has not seen yet, each in its own transaction."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise _NewerSchema(version)
        while version < SCHEMA_VERSION:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # Another session may have migrated while we waited for the lock.
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version < SCHEMA_VERSION:
                    for statement in _MIGRATIONS[version].split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    version += 1
                    conn.execute(f"PRAGMA user_version = {version}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise

    def _set_aside(self, error: Exception) -> Path:
        """Rename an unreadable database (and its WAL files) aside and record a warning."""
        assert self.path is not None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        counter = 1
        while aside.exists():
            counter += 1
            aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{counter}")
        os.replace(self.path, aside)
        for suffix in ("-wal", "-shm"):
            extra = self.path.with_name(self.path.name + suffix)
            if extra.exists():
                os.replace(extra, aside.with_name(aside.name + suffix))
        self.warnings.append(
            f"The progress database could not be read ({error}); it was moved to {aside} "
            "and a new one was started."
        )
        return aside

    # -- plumbing --------------------------------------------------------------------------

    def _guard(self, default: T, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` under the lock; turn storage errors into a warning and ``default``."""
        with self._lock:
            try:
                return work(self._conn)
            except sqlite3.Error as error:
                self.warnings.append(f"Storage error: {error}")
                return default

    def _write(self, work: Callable[[sqlite3.Connection], T], default: T) -> T:
        """Run ``work`` in one ``BEGIN IMMEDIATE`` transaction (all or nothing)."""

        def transaction(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(conn)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result

        return self._guard(default, transaction)

    def close(self) -> None:
        """Close the connection (further calls fail with a warning, never an exception)."""
        with self._lock:
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

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(
                """
                INSERT INTO solved (game, pack, level, moves, solved_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (game, pack, level) DO UPDATE SET
                    moves = CASE
                        WHEN solved.moves IS NULL THEN excluded.moves
                        WHEN excluded.moves IS NULL THEN solved.moves
                        ELSE MIN(solved.moves, excluded.moves)
                    END
                """,
                (game, pack, level, moves, time.time()),
            )

        self._write(work, None)

    def solved_levels(self, game: str, pack: str) -> set[str]:
        """Return the ids of the solved levels of a pack."""
        return self._guard(
            set(),
            lambda conn: {
                row[0]
                for row in conn.execute(
                    "SELECT level FROM solved WHERE game = ? AND pack = ?", (game, pack)
                )
            },
        )

    def solved_moves(self, game: str, pack: str) -> dict[str, int | None]:
        """Return ``{level_id: fewest moves or None}`` for the solved levels of a pack."""
        return self._guard(
            {},
            lambda conn: {
                row[0]: row[1]
                for row in conn.execute(
                    "SELECT level, moves FROM solved WHERE game = ? AND pack = ?", (game, pack)
                )
            },
        )

    # -- saved games -----------------------------------------------------------------------

    def save_game(self, game: str, slot: str, data: dict[str, Any]) -> None:
        """Save a game in a slot, replacing what was there.

        Args:
            game: Game id.
            slot: Slot name (e.g. ``"autosave"`` or a level id).
            data: A JSON-serialisable dict (level id, seed, moves ...).

        Raises:
            TypeError: If ``data`` cannot be serialised to JSON (a programming error).
        """
        text = _dumps(data)
        self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO saves (game, slot, data, saved_at) VALUES (?, ?, ?, ?)",
                (game, slot, text, time.time()),
            ),
            None,
        )

    def load_game(self, game: str, slot: str) -> dict[str, Any] | None:
        """Return the saved data of a slot, or ``None`` if there is none (or it is unreadable)."""

        def work(conn: sqlite3.Connection) -> dict[str, Any] | None:
            row = conn.execute(
                "SELECT data FROM saves WHERE game = ? AND slot = ?", (game, slot)
            ).fetchone()
            if row is None:
                return None
            try:
                data = json.loads(row[0])
            except ValueError:
                self.warnings.append(f"The saved {game} game in slot {slot!r} is unreadable.")
                return None
            return data if isinstance(data, dict) else None

        return self._guard(None, work)

    def delete_game(self, game: str, slot: str) -> None:
        """Delete a saved game (no error if the slot is empty)."""
        self._write(
            lambda conn: conn.execute("DELETE FROM saves WHERE game = ? AND slot = ?", (game, slot)),
            None,
        )

    def saved_slots(self, game: str) -> list[str]:
        """Return the slot names that hold a saved game, newest first."""
        return self._guard(
            [],
            lambda conn: [
                row[0]
                for row in conn.execute(
                    "SELECT slot FROM saves WHERE game = ? ORDER BY saved_at DESC, slot", (game,)
                )
            ],
        )

    # -- best scores -----------------------------------------------------------------------

    def best_score(self, game: str, key: str) -> int | None:
        """Return the best score recorded under ``key`` (e.g. a board size), or ``None``."""

        def work(conn: sqlite3.Connection) -> int | None:
            row = conn.execute(
                "SELECT score FROM scores WHERE game = ? AND key = ?", (game, key)
            ).fetchone()
            return None if row is None else int(row[0])

        return self._guard(None, work)

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

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                f"""
                INSERT INTO scores (game, key, score, recorded_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (game, key) DO UPDATE SET
                    score = excluded.score, recorded_at = excluded.recorded_at
                WHERE excluded.score {better} scores.score
                """,
                (game, key, int(score), time.time()),
            )
            return cursor.rowcount > 0

        return self._write(work, False)

    # -- settings --------------------------------------------------------------------------

    def get_setting(self, key: str, default: Any = None) -> Any:
        """Return a setting's JSON value, or ``default`` when unset or unreadable."""

        def work(conn: sqlite3.Connection) -> Any:
            row = conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
            if row is None:
                return default
            try:
                return json.loads(row[0])
            except ValueError:
                return default

        return self._guard(default, work)

    def set_setting(self, key: str, value: Any) -> None:
        """Store a JSON-serialisable setting value.

        Raises:
            TypeError: If ``value`` cannot be serialised to JSON (a programming error).
        """
        text = _dumps(value)
        self._write(
            lambda conn: conn.execute(
                "INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)", (key, text)
            ),
            None,
        )


class _NewerSchema(Exception):
    """The database was written by a newer version of termarcade."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema version {version}")
        self.version = version
