"""The database schema and its migrations: one list, written once, for SQLite and PostgreSQL.

Version 1 (termarcade 0.1): ``solved``, ``saves``, ``scores`` and ``settings``, one player.

Version 2: every table gains a ``user`` column first in its primary key (``""`` is the local
player; served mode uses the remote user's name), ``saves`` gains a JSON ``summary`` so a
level list can show progress without loading every save, and ``my_levels`` holds the
player's own levels. Migrating from 1 copies every row to the local player ``""``.

Version 3: the leaderboards. ``results`` keeps every win on a level (moves, play time, whether
the game was autoplayed), one row per win, under a random id the store makes, so a write
retried after a lost connection never counts twice. ``game_scores`` keeps one row per game of
a scored game (2048): its best score so far and whether autoplay was ever used in it.

A fresh database goes through every migration in order, on both backends, so the upgrade
path is exercised on every first start, not only on old installations. The statements are
templates: ``{INT}``, ``{REAL}`` and ``{ID}`` become each dialect's column types (see
:mod:`._dialect`; for SQLite they give back exactly the words of its history). All the
migrations a database needs run in one transaction under the backend's migration lock
(:meth:`._db.Database.begin_migration`): another session sees the old schema or the new one,
never a half-built one, and a crash mid-way leaves the old database as it was.
"""

from __future__ import annotations

from ._db import Database

SCHEMA_VERSION = 3
"""Current schema version (SQLite: ``PRAGMA user_version``; PostgreSQL: ``termarcade_schema``)."""

_V1 = (
    """
    CREATE TABLE IF NOT EXISTS solved (
        game      TEXT NOT NULL,
        pack      TEXT NOT NULL,
        level     TEXT NOT NULL,
        moves     {INT},
        solved_at {REAL} NOT NULL,
        PRIMARY KEY (game, pack, level)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS saves (
        game     TEXT NOT NULL,
        slot     TEXT NOT NULL,
        data     TEXT NOT NULL,
        saved_at {REAL} NOT NULL,
        PRIMARY KEY (game, slot)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS scores (
        game        TEXT NOT NULL,
        key         TEXT NOT NULL,
        score       {INT} NOT NULL,
        recorded_at {REAL} NOT NULL,
        PRIMARY KEY (game, key)
    )
    """,
    """
    CREATE TABLE IF NOT EXISTS settings (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    )
    """,
)
"""Version 1 exactly as termarcade 0.1 created it (history, not to be edited; the type tokens
give back its very words in SQLite)."""


def _rebuild(table: str, columns: str, copy_from: str) -> tuple[str, ...]:
    """Statements that rebuild ``table`` with new columns, copying its rows.

    SQLite cannot change a primary key in place, so the table is created anew, filled, and
    renamed over the old one (all inside the migration's transaction).

    Args:
        table: Table name.
        columns: Column and constraint definitions of the new table.
        copy_from: ``INSERT`` column list and ``SELECT`` list, ``"(cols) SELECT ..."``.

    Returns:
        The statements, in order.
    """
    return (
        f"CREATE TABLE {table}_v2 ({columns})",
        f"INSERT INTO {table}_v2 {copy_from} FROM {table}",
        f"DROP TABLE {table}",
        f"ALTER TABLE {table}_v2 RENAME TO {table}",
    )


_V1_TO_V2 = (
    *_rebuild(
        "solved",
        """
        "user"    TEXT NOT NULL,
        game      TEXT NOT NULL,
        pack      TEXT NOT NULL,
        level     TEXT NOT NULL,
        moves     {INT},
        solved_at {REAL} NOT NULL,
        PRIMARY KEY ("user", game, pack, level)
        """,
        '("user", game, pack, level, moves, solved_at) '
        "SELECT '', game, pack, level, moves, solved_at",
    ),
    *_rebuild(
        "saves",
        """
        "user"   TEXT NOT NULL,
        game     TEXT NOT NULL,
        slot     TEXT NOT NULL,
        data     TEXT NOT NULL,
        summary  TEXT,
        saved_at {REAL} NOT NULL,
        PRIMARY KEY ("user", game, slot)
        """,
        '("user", game, slot, data, summary, saved_at) '
        "SELECT '', game, slot, data, NULL, saved_at",
    ),
    *_rebuild(
        "scores",
        """
        "user"      TEXT NOT NULL,
        game        TEXT NOT NULL,
        key         TEXT NOT NULL,
        score       {INT} NOT NULL,
        recorded_at {REAL} NOT NULL,
        PRIMARY KEY ("user", game, key)
        """,
        "(\"user\", game, key, score, recorded_at) SELECT '', game, key, score, recorded_at",
    ),
    *_rebuild(
        "settings",
        """
        "user" TEXT NOT NULL,
        key    TEXT NOT NULL,
        value  TEXT NOT NULL,
        PRIMARY KEY ("user", key)
        """,
        "(\"user\", key, value) SELECT '', key, value",
    ),
    """
    CREATE TABLE my_levels (
        id         {ID},
        "user"     TEXT NOT NULL,
        game       TEXT NOT NULL,
        title      TEXT NOT NULL,
        text       TEXT NOT NULL,
        created_at {REAL} NOT NULL,
        updated_at {REAL} NOT NULL,
        UNIQUE ("user", game, title)
    )
    """,
)
"""``"user"`` is quoted: PostgreSQL reserves the word (SQLite accepts either spelling)."""

_V2_TO_V3 = (
    """
    CREATE TABLE results (
        id          TEXT NOT NULL PRIMARY KEY,
        "user"      TEXT NOT NULL,
        game        TEXT NOT NULL,
        source      TEXT NOT NULL,
        level       TEXT NOT NULL,
        moves       {INT},
        seconds     {REAL},
        autoplayed  {INT} NOT NULL,
        recorded_at {REAL} NOT NULL
    )
    """,
    # The boards read one level's rows (humans or autoplayed); a player's own list reads theirs.
    "CREATE INDEX results_level ON results (game, source, level, autoplayed)",
    'CREATE INDEX results_player ON results ("user", game)',
    """
    CREATE TABLE game_scores (
        "user"      TEXT NOT NULL,
        game        TEXT NOT NULL,
        run         TEXT NOT NULL,
        board       TEXT NOT NULL,
        score       {INT} NOT NULL,
        moves       {INT},
        seconds     {REAL},
        autoplayed  {INT} NOT NULL,
        recorded_at {REAL} NOT NULL,
        PRIMARY KEY ("user", game, run)
    )
    """,
    "CREATE INDEX game_scores_board ON game_scores (game, board, autoplayed)",
)
"""Leaderboards: every win on a level, and the best score of every scored game."""

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V1_TO_V2, _V2_TO_V3)
"""Entry ``i`` upgrades the schema from version ``i`` to ``i + 1`` (templates, see above)."""
assert len(MIGRATIONS) == SCHEMA_VERSION


class NewerSchema(Exception):
    """The database was written by a newer version of termarcade."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema version {version}")
        self.version = version


def migrate(db: Database, target: int = SCHEMA_VERSION) -> bool:
    """Bring the schema up to ``target`` in one transaction, under the migration lock.

    The version is read again once the lock is held: another session may have created or
    migrated the database while this one waited, and then there is nothing left to do.

    Args:
        db: The database (autocommit; no transaction open).
        target: The version to reach; only tests ask for less than :data:`SCHEMA_VERSION`
            (to build an older database and then watch it being upgraded).

    Returns:
        True if this call changed the schema.

    Raises:
        NewerSchema: If the database is newer than this code (nothing is changed).
        Exception: The driver's errors (busy, corrupt, lost ...); the transaction is rolled
            back and the database is as it was.
    """
    db.begin_migration()
    try:
        version = db.schema_version()
        if version > SCHEMA_VERSION:
            raise NewerSchema(version)
        for step in range(version, target):
            for statement in MIGRATIONS[step]:
                db.execute(db.dialect.ddl(statement))
        if version < target:
            db.set_schema_version(target)
        db.execute("COMMIT")
    except BaseException:
        db.rollback()
        raise
    return version < target
