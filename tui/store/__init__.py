"""The store: progress, saved games, best scores, settings, own levels and leaderboards.

By default one SQLite database file, ``termarcade.sqlite3``, lives in the user data directory
(``platformdirs.user_data_dir("termarcade")``); the environment variable
``TERMARCADE_DATA_DIR`` overrides the directory (the tests point it at a temporary folder).
An arcade that outgrows one host points every ``serve`` process at one PostgreSQL database
instead: ``Store("postgresql://...")``, :meth:`Store.open`, or ``TERMARCADE_STORE`` (what
``termarcade --store URL`` sets); see :mod:`._postgres`. Both backends run the same SQL and
the same migrations; the few differences are spelled out in :mod:`._dialect`.
Every row belongs to a user (``""`` is the local player; the SSH arcade uses the remote
user's name), so one database serves every player of a served arcade.

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
the store keeps progress in memory for the session. Before a damaged file is moved aside,
its readable rows are copied into a fresh database that takes its place (:mod:`._salvage`);
a row whose stored JSON cannot be decoded is reported and set aside in ``damaged_rows``
(:mod:`._decode`, :mod:`._damage`), never raised. Every such event adds a message to
:attr:`Store.warnings`, which the app shows as a notification.

While the database cannot take changes (a server stopped, a file locked), changes are kept in
the session and in a local journal under the data directory, written when it returns, and
replayed by the next session if this one ends first (:mod:`._journal`);
:meth:`Store.watch` tells the app when that starts and ends.

Layout: :mod:`._files` (data directory, :func:`atomic_write_text` for the level editor),
:mod:`._target` (paths and URLs), :mod:`._dialect` (SQL differences), :mod:`._db` (one
connection per backend), :mod:`._schema` (tables and migrations), :mod:`._opening` (opening a
SQLite file, locking, setting aside), :mod:`._postgres` (the PostgreSQL backend),
:mod:`._engine` (transactions, the busy queue, errors as warnings), :mod:`._boards`
(leaderboards), :mod:`._renames` (a renamed bundled level's rows follow it), :mod:`._store`
(the :class:`Store` API).
"""

from __future__ import annotations

from ._boards import BY_MOVES, BY_TIME, BoardEntry
from ._engine import BUSY_TIMEOUT_MS, StoreStatus
from ._files import DB_FILENAME, ENV_DATA_DIR, atomic_write_text, data_dir
from ._opening import LOCK_SUFFIX
from ._schema import SCHEMA_VERSION
from ._store import (
    KEYMAP_SETTING,
    DuplicateTitle,
    MyLevel,
    Result,
    SaveInfo,
    Store,
)
from ._target import (
    ENV_PASSWORD,
    ENV_STORE,
    PASSWORD_ON_COMMAND_LINE,
    has_password,
    parse_store_url,
    read_password_file,
    redact,
)

__all__ = [
    "BUSY_TIMEOUT_MS",
    "BY_MOVES",
    "BY_TIME",
    "DB_FILENAME",
    "ENV_DATA_DIR",
    "ENV_PASSWORD",
    "ENV_STORE",
    "KEYMAP_SETTING",
    "LOCK_SUFFIX",
    "PASSWORD_ON_COMMAND_LINE",
    "SCHEMA_VERSION",
    "BoardEntry",
    "DuplicateTitle",
    "MyLevel",
    "Result",
    "SaveInfo",
    "Store",
    "StoreStatus",
    "atomic_write_text",
    "data_dir",
    "has_password",
    "parse_store_url",
    "read_password_file",
    "redact",
]
