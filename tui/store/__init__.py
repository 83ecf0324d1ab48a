"""The SQLite store: solved levels, saved games, best scores, settings and the player's levels.

One database file, ``termarcade.sqlite3``, lives in the user data directory
(``platformdirs.user_data_dir("termarcade")``); the environment variable
``TERMARCADE_DATA_DIR`` overrides the directory (the tests point it at a temporary folder).
Every row belongs to a user (``""`` is the local player; the SSH arcade uses the remote
user's name), so one file serves every player of a served arcade.

Why SQLite in WAL mode: several sessions (two terminals, or many SSH players) use the store at
once; WAL lets readers and one writer work concurrently, and every write is one short
transaction, so a crash never leaves half-written progress. Best scores are updated with a
single conditional ``UPSERT`` so two sessions racing cannot lower a best score.

Opening is safe however many sessions start at once (see :mod:`._opening`): the schema is
built or migrated in one exclusive transaction; only SQLite's own corruption codes (or a failed
``quick_check`` of an existing database) count as damage, never "database is locked"; a damaged
file is moved aside once, by one session, under an advisory lock, to
``termarcade.sqlite3.corrupt-<timestamp>``, and never over another file. If that is impossible
(read-only directory) or the database is newer than this code, the file is left untouched and
the store keeps progress in memory for the session. Every such event adds a message to
:attr:`Store.warnings`, which the app shows as a notification.

Layout: :mod:`._files` (data directory, :func:`atomic_write_text` for the level editor),
:mod:`._schema` (tables and migrations), :mod:`._opening` (opening, locking, setting aside),
:mod:`._store` (the :class:`Store` API).
"""

from __future__ import annotations

from ._files import DB_FILENAME, ENV_DATA_DIR, atomic_write_text, data_dir
from ._opening import LOCK_SUFFIX
from ._schema import SCHEMA_VERSION
from ._store import (
    BUSY_TIMEOUT_MS,
    KEYMAP_SETTING,
    DuplicateTitle,
    MyLevel,
    Result,
    SaveInfo,
    Store,
)

__all__ = [
    "BUSY_TIMEOUT_MS",
    "DB_FILENAME",
    "ENV_DATA_DIR",
    "KEYMAP_SETTING",
    "LOCK_SUFFIX",
    "SCHEMA_VERSION",
    "DuplicateTitle",
    "MyLevel",
    "Result",
    "SaveInfo",
    "Store",
    "atomic_write_text",
    "data_dir",
]
