"""The CPU-time ledger: each player's share of the host follows their name and their address.

A session process's ``RLIMIT_CPU`` alone would start afresh at every reconnect, and one
address may hold several sessions. The ledger therefore keeps, per player name and per IP
address, the CPU seconds their sessions used over a rolling window (:data:`WINDOW`, an hour):
finished sessions by what they had used when last seen, running ones by what they use now
(read from ``/proc`` by the server every few seconds).

* A new session may use what is left: the smaller of its name's and its address's
  remainders. With less than :data:`MIN_GRANT` seconds left it is refused, with the time at
  which enough of the window's use has expired.
* Running sessions that share a name or an address share its remainder: the server sets each
  one's soft limit to what it used plus its part (see :meth:`CpuLedger.limits`), so a second
  session does not double a player's budget, and its end gives the first one its part back.

The ledger does no I/O of its own: the clock and the reader of a process's CPU time are
passed in (tests use their own).
"""

from __future__ import annotations

import math
import os
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass

__all__ = [
    "ADDRESS_PLAYERS",
    "MIN_GRANT",
    "WINDOW",
    "CpuLedger",
    "process_cpu_seconds",
    "set_soft_cpu_limit",
]

WINDOW = 3600.0
"""Seconds of the rolling window the budgets cover (an hour)."""

ADDRESS_PLAYERS = 4
"""An address may use this many players' budgets (a household or an office shares one)."""

MIN_GRANT = 10.0
"""Fewest CPU seconds worth starting a session with (starting one costs about 0.3 s)."""

Key = tuple[str, str]
"""``("name", user)`` or ``("address", ip)``."""


@dataclass
class _Running:
    keys: tuple[Key, Key]
    used: float = 0.0
    """CPU seconds it had used when last seen."""


def process_cpu_seconds(pid: int) -> float | None:
    """A running process's CPU time, all its threads together, from ``/proc/PID/stat``.

    Args:
        pid: The process.

    Returns:
        User plus system seconds, or None when it cannot be read (gone, not Linux).
    """
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            text = stat.read().decode("ascii", "replace")
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: count from its last ')'.
    fields = text.rsplit(")", 1)[-1].split()
    try:
        ticks = int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    except (IndexError, ValueError):
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


def set_soft_cpu_limit(pid: int, seconds: float) -> int | None:
    """Set a running session's soft ``RLIMIT_CPU`` (its hard limit, which kills, stays).

    A process over its new soft limit gets ``SIGXCPU`` from the kernel within a second, and
    the app closes itself cleanly.

    Args:
        pid: The session process (the server's user owns it).
        seconds: The new soft limit; it never exceeds the hard limit.

    Returns:
        The soft limit set (whole seconds), or None when it could not be set.
    """
    import resource  # Unix only; the ledger itself stays importable anywhere

    try:
        _, hard = resource.prlimit(pid, resource.RLIMIT_CPU)
        soft = max(1, math.ceil(seconds))
        if hard != resource.RLIM_INFINITY:
            soft = min(soft, hard)
        resource.prlimit(pid, resource.RLIMIT_CPU, (soft, hard))
    except (OSError, ValueError):  # gone meanwhile, or not ours: nothing to limit
        return None
    return soft


class CpuLedger:
    """CPU seconds used per player name and per address over a rolling window.

    Args:
        per_name: CPU seconds one name may use per window.
        per_address: CPU seconds one address may use per window.
        window: The window's length in seconds.
        clock: Wall-clock seconds (``time.time``; tests pass their own).
    """

    def __init__(
        self,
        per_name: float,
        per_address: float,
        *,
        window: float = WINDOW,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.budgets = {"name": per_name, "address": per_address}
        self.window = window
        self.clock = clock
        self.min_grant = min(MIN_GRANT, per_name, per_address)
        """Below this much left, a session is refused (never above the budget itself)."""
        self._finished: dict[Key, deque[tuple[float, float]]] = {}
        self._running: dict[int, _Running] = {}

    @staticmethod
    def keys(user: str, address: str) -> tuple[Key, Key]:
        """The two accounts a session is charged to."""
        return ("name", user), ("address", address)

    # -- what is left ----------------------------------------------------------------------

    def used(self, key: Key) -> float:
        """CPU seconds ``key`` used in the window: finished sessions and running ones."""
        events = self._expire(key)
        running = sum(entry.used for entry in self._running.values() if key in entry.keys)
        return sum(seconds for _, seconds in events) + running

    def left(self, key: Key) -> float:
        """CPU seconds ``key`` may still use in the window (never negative)."""
        return max(0.0, self.budgets[key[0]] - self.used(key))

    def grant(self, user: str, address: str) -> float:
        """What a session of ``user`` from ``address`` may use: the smaller remainder.

        Returns:
            CPU seconds; 0 when less than :attr:`min_grant` is left (refuse the session).
        """
        left = min(self.left(key) for key in self.keys(user, address))
        return left if left >= self.min_grant else 0.0

    def retry_at(self, user: str, address: str) -> float:
        """When a refused player may come back: the wall-clock time at which enough of the
        window's use has expired for :attr:`min_grant` seconds (assuming their running
        sessions stop now).

        Returns:
            Seconds since the epoch (now when a session may start now).
        """
        now = self.clock()
        return max(self._free_at(key, now) for key in self.keys(user, address))

    def _free_at(self, key: Key, now: float) -> float:
        excess = self.used(key) - (self.budgets[key[0]] - self.min_grant)
        if excess <= 0:
            return now
        for stamp, seconds in self._finished.get(key, ()):
            excess -= seconds
            if excess <= 0:
                return stamp + self.window
        return now + self.window  # running sessions hold the rest: a full window after now

    def _expire(self, key: Key) -> deque[tuple[float, float]]:
        events = self._finished.get(key)
        if events is None:
            return deque()
        oldest = self.clock() - self.window
        while events and events[0][0] <= oldest:
            events.popleft()
        if not events:
            del self._finished[key]
        return events

    # -- sessions --------------------------------------------------------------------------

    def start(self, session_id: int, user: str, address: str) -> None:
        """Charge a new session to ``user`` and ``address`` (it has used nothing yet)."""
        self._running[session_id] = _Running(self.keys(user, address))

    def seen(self, session_id: int, used: float | None) -> None:
        """Record what a running session has used so far (None: not readable, ignored)."""
        entry = self._running.get(session_id)
        if entry is not None and used is not None:
            entry.used = max(entry.used, used)  # CPU time only grows

    def finish(self, session_id: int) -> float:
        """A session ended: what it used stays on its accounts until the window passes it.

        Returns:
            The CPU seconds recorded for it (its last reading).
        """
        entry = self._running.pop(session_id, None)
        if entry is None:
            return 0.0
        self._charge(entry.keys, entry.used)
        return entry.used

    def charge(self, user: str, address: str, seconds: float) -> None:
        """Add CPU seconds a finished session is known to have used beyond its last reading
        (it ended at its limit between two readings)."""
        self._charge(self.keys(user, address), seconds)

    def _charge(self, keys: Iterable[Key], seconds: float) -> None:
        if seconds <= 0:
            return
        now = self.clock()
        for key in keys:
            self._finished.setdefault(key, deque()).append((now, seconds))

    def limits(self, session_ids: Iterable[int] | None = None) -> dict[int, float]:
        """Each running session's fair soft limit: what it used plus its part of what is left.

        Sessions sharing a name or an address split that account's remainder equally; a
        session charged to two accounts gets the smaller part.

        Args:
            session_ids: The sessions to answer for (None: every running one).

        Returns:
            CPU seconds by session id.
        """
        sharing: dict[Key, int] = {}
        for entry in self._running.values():
            for key in entry.keys:
                sharing[key] = sharing.get(key, 0) + 1
        left = {key: self.left(key) for key in sharing}
        wanted = self._running if session_ids is None else session_ids
        answer = {}
        for session_id in wanted:
            running = self._running.get(session_id)
            if running is not None:
                part = min(left[key] / sharing[key] for key in running.keys)
                answer[session_id] = running.used + part
        return answer
