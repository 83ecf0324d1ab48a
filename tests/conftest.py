"""Shared pytest set-up for the whole suite.

Every test gets its own empty data directory (``TERMARCADE_DATA_DIR``), so no test reads or
writes the real user's progress, and tests cannot see each other's saves. ``NO_COLOR`` is
removed so Textual snapshots are rendered in colour whatever the developer's shell has set, and
``COLUMNS``/``LINES`` so that a child on a pseudo-terminal reads the real size.
"""

from __future__ import annotations

import logging
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, settings

if TYPE_CHECKING:
    from tui.store import Store

# Property tests are judged on their answers, never on the machine's speed: CI has two loaded
# cores, where Hypothesis's timing health check (data generation "too slow") fails a test
# whose every example is right. Tests that set their own checks list too_slow as well.
settings.register_profile("termarcade", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("termarcade")


@pytest.fixture(autouse=True)
def isolated_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Point the store at a fresh temporary directory for each test."""
    data = tmp_path_factory.mktemp("termarcade-data")
    monkeypatch.setenv("TERMARCADE_DATA_DIR", str(data))
    monkeypatch.setenv("TERMARCADE_STORE", "")  # never a developer's real database
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERMARCADE_DEBUG", raising=False)
    # pytest-xdist's workers export COLUMNS=80 and LINES=24; shutil.get_terminal_size() (and so
    # Textual in a child on a pseudo-terminal) would believe them over the terminal's real size.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    return data


@pytest.fixture(autouse=True)
def restored_logging() -> Iterator[None]:
    """Put the arcade's loggers back as they were after each test.

    ``termarcade serve`` (run in-process by the CLI tests) configures logging for a host: its own
    handler and ``propagate = False``. Left in place, later tests in the same worker would see
    no records in ``caplog``, which listens on the root logger.
    """
    names = ("termarcade", "termarcade.tui", "termarcade.store", "asyncssh")
    saved = {}
    for name in names:
        logger = logging.getLogger(name)
        saved[name] = (logger.handlers[:], logger.level, logger.propagate)
    yield
    for name, (handlers, level, propagate) in saved.items():
        logger = logging.getLogger(name)
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate


@pytest.fixture(autouse=True)
def restored_signal_handlers() -> Iterator[None]:
    """Put the process's SIGINT and SIGTERM handlers back as they were after each test.

    Importing :mod:`tui.entry` in-process (a test that imports every module does) installs the
    console script's SIGINT handler, which ends the process at once with ``os._exit(130)``.
    Left in a pytest-xdist worker, it turned the SIGINT that execnet sends a worker slow to shut
    down (a busy machine) into an exit without ``atexit``: the worker's private PostgreSQL
    server was left running, and "interrupted" was printed after the run's 100 %.
    """
    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    yield
    for sig, handler in saved.items():
        if handler is not None and signal.getsignal(sig) is not handler:
            signal.signal(sig, handler)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop this process's private PostgreSQL server when its tests are over.

    ``atexit`` alone was too late on a busy machine: after a pytest-xdist worker reports that it
    has finished, the controller interrupts it, then kills it, if it is slow to exit, and a
    server whose stop had not run was left behind (seen once in ``.ci/run`` beside two 2048
    game processes, with every test passed). This hook runs before the worker reports; the
    ``atexit`` stop stays for a run that ends some other way (stopping twice is harmless).
    """
    server = sys.modules.get("tests.postgres_server")
    if server is not None:
        server.SERVER.stop()


@pytest.fixture
def data_dir(isolated_data_dir: Path) -> Path:
    """The temporary data directory of this test (where ``termarcade.sqlite3`` goes)."""
    return isolated_data_dir


@pytest.fixture
def store(isolated_data_dir: Path) -> Iterator[Store]:
    """The store in this test's data directory, closed after the test."""
    from tui.store import Store  # imported late, as arcade_app's app: conftest loads first

    opened = Store()
    yield opened
    opened.close()


@pytest.fixture
def arcade_app():
    """A factory for :class:`tui.app.ArcadeApp` using the test's data directory.

    Usage: ``app = arcade_app()`` or ``arcade_app(start_game="2048")``, then
    ``async with app.run_test(size=(80, 24)) as pilot: ...``.
    """
    from tui.app import ArcadeApp

    def make(**kwargs: object) -> ArcadeApp:
        return ArcadeApp(**kwargs)  # type: ignore[arg-type]

    return make


class TickingClock:
    """``time.monotonic`` that advances 1 ms each time it is read (from the real clock's value
    when installed): a time limit of L seconds falls after 1,000 x L reads on any machine, so a
    test of a time limit no longer depends on how busy the machine is."""

    def __init__(self, start: float) -> None:
        self.start = start
        self.reads = 0
        """How many times the clock was read since it was installed."""

    def __call__(self) -> float:
        self.reads += 1
        return self.start + self.reads / 1000


@pytest.fixture
def ticking_clock(monkeypatch: pytest.MonkeyPatch) -> TickingClock:
    """Replace ``time.monotonic`` everywhere with a :class:`TickingClock` (sync tests only:
    an event loop would see its timers race)."""
    import time

    clock = TickingClock(time.monotonic())
    monkeypatch.setattr(time, "monotonic", clock)
    return clock
