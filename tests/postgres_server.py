"""A real, throw-away PostgreSQL server for the store's tests.

The first test that asks for PostgreSQL starts one server for the whole run: ``initdb`` and
``pg_ctl`` from the distribution's ``postgresql`` package (Debian puts them in
``/usr/lib/postgresql/<version>/bin``), a cluster in a private temporary directory, reachable
only through a Unix socket in that directory (no TCP port, so parallel runs never collide).
PostgreSQL refuses to run as root: as root (CI) the cluster belongs to the ``postgres``
system user the package creates. The server is stopped when the test run ends.

Every test gets a schema of its own (the store works in the connection's current schema), so
tests never see each other's rows and need no cleanup.

When the binaries are missing (or psycopg is), tests that need PostgreSQL are skipped with
the reason. ``TERMARCADE_TEST_POSTGRES=postgresql://...`` uses an existing server instead
(the tests create and drop their schemas in its database), ``TERMARCADE_TEST_POSTGRES=off``
skips them; ``TERMARCADE_PG_BINDIR`` names the directory of ``initdb`` and ``pg_ctl`` when
they are somewhere unusual.
"""

from __future__ import annotations

import atexit
import glob
import os
import pwd
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from tui.store import ENV_STORE

__all__ = ["BACKENDS", "PostgresServer", "admin_connect", "postgres_url", "select_backend"]

ENV_URL = "TERMARCADE_TEST_POSTGRES"
ENV_BINDIR = "TERMARCADE_PG_BINDIR"
ROLE = "termarcade"
"""The superuser role of the test cluster (``initdb -U``), whoever runs it."""
PORT = 5432
"""Only names the socket file (``.s.PGSQL.5432``) in the private directory: no TCP."""


def _bindir() -> Path | None:
    """The directory holding ``initdb`` and ``pg_ctl``, or None."""
    candidates = [os.environ.get(ENV_BINDIR, "")]
    found = shutil.which("initdb")
    if found:
        candidates.append(str(Path(found).resolve().parent))
    # Debian/Ubuntu keep the server binaries off PATH; prefer the newest version.
    candidates += sorted(
        glob.glob("/usr/lib/postgresql/*/bin"),
        key=lambda path: int(path.split("/")[-2].split(".")[0] or 0),
        reverse=True,
    )
    candidates += ["/usr/local/pgsql/bin", "/opt/homebrew/bin", "/usr/pgsql/bin"]
    for candidate in filter(None, candidates):
        directory = Path(candidate)
        if (directory / "initdb").exists() and (directory / "pg_ctl").exists():
            return directory
    return None


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory, started once per test run."""

    def __init__(self) -> None:
        self.url: str | None = None
        """Base URL of the server (no schema chosen)."""
        self.problem: str | None = None
        """Why no server is available (tests skip with it)."""
        self._root: Path | None = None
        self._pg_ctl: list[str] = []
        self._started = False

    def ensure(self) -> str:
        """The server's base URL, starting the server the first time; skips the test if none."""
        if not self._started:
            self._started = True
            try:
                self._start()
            except Exception as error:  # Any failure to start only makes the tests skip.
                self.problem = f"could not start PostgreSQL: {error}"
        if self.url is None:
            pytest.skip(self.problem or "PostgreSQL is not available")
        return self.url

    def _start(self) -> None:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            self.problem = "psycopg is not installed (pip install 'termarcade[postgres]')"
            return
        external = os.environ.get(ENV_URL, "").strip()
        if external.lower() == "off":
            self.problem = f"{ENV_URL}=off"
            return
        if external:
            self.url = external
            return
        bindir = _bindir()
        if bindir is None:
            self.problem = "the PostgreSQL server binaries (initdb, pg_ctl) are not installed"
            return
        run_as: list[str] = []
        owner: tuple[int, int] | None = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root.
            try:
                entry = pwd.getpwnam("postgres")
            except KeyError:
                self.problem = "running as root and there is no 'postgres' user to run the server"
                return
            owner = (entry.pw_uid, entry.pw_gid)
            runuser = shutil.which("runuser")
            run_as = (
                [runuser, "-u", "postgres", "--"]
                if runuser
                else ["su", "postgres", "-s", "/bin/sh", "-c"]
            )
        # Short path: a Unix socket path must fit in about 100 bytes.
        self._root = Path(tempfile.mkdtemp(prefix="ta-pg-"))
        atexit.register(self.stop)
        if owner is not None:
            os.chown(self._root, *owner)
        data, log = self._root / "data", self._root / "server.log"

        def command(*argv: str) -> list[str]:
            if run_as[:1] == ["su"]:
                return run_as + [" ".join(_shell_quote(arg) for arg in argv)]
            return run_as + list(argv)

        subprocess.run(
            command(
                str(bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                ROLE,
                "--auth=trust",
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ),
            check=True,
            capture_output=True,
            timeout=120,
        )
        # Durability is not under test here (the store's SQL is): skip fsync for speed.
        options = (
            f"-k {self._root} -c listen_addresses= -p {PORT} -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
        )
        self._pg_ctl = command(str(bindir / "pg_ctl"), "-D", str(data))
        subprocess.run(
            self._pg_ctl + ["-l", str(log), "-o", options, "-w", "-t", "120", "start"],
            check=True,
            capture_output=True,
            timeout=180,
        )
        self.url = f"postgresql://{ROLE}@/postgres?host={quote(str(self._root))}&port={PORT}"

    def stop(self) -> None:
        """Stop the server and remove its directory (run at exit)."""
        if self._root is None:
            return
        if self._pg_ctl:
            subprocess.run(
                self._pg_ctl + ["-m", "immediate", "stop"],
                capture_output=True,
                timeout=60,
                check=False,
            )
        shutil.rmtree(self._root, ignore_errors=True)
        self._root = None

    @property
    def socket_dir(self) -> Path | None:
        """The directory of the server's Unix socket (None for an external server)."""
        return self._root if self._pg_ctl else None

    port = PORT
    """The port number in the socket's name."""


def _shell_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


SERVER = PostgresServer()
"""The test run's server (started on first use)."""


def admin_connect(url: str | None = None) -> Any:
    """A psycopg connection (autocommit) to the server's database, for checks and set-up."""
    import psycopg

    return psycopg.connect(url or SERVER.ensure(), autocommit=True)


def postgres_url(request: pytest.FixtureRequest) -> str:
    """A URL whose current schema is new and empty (dropped after the test).

    Skips the test when no PostgreSQL server is available.
    """
    base = SERVER.ensure()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with admin_connect(base) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")

    def drop() -> None:
        try:
            with admin_connect(base) as conn:
                conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        except Exception:  # pragma: no cover - the server is going away anyway
            pass

    request.addfinalizer(drop)
    separator = "&" if "?" in base else "?"
    return f"{base}{separator}options={quote(f'-csearch_path={schema}', safe='')}"


BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
"""Parameters for a fixture that runs a test against each backend."""


def select_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Make ``Store()`` use the backend ``request.param`` names for this test.

    SQLite: the test's data directory (the default). PostgreSQL: a fresh schema of the test
    server, through ``TERMARCADE_STORE`` (exactly what ``--store`` sets).

    Returns:
        The backend's name.
    """
    if request.param == "postgresql":
        monkeypatch.setenv(ENV_STORE, postgres_url(request))
    else:
        monkeypatch.setenv(ENV_STORE, "")  # Empty: the default (and restored afterwards).
    return str(request.param)
