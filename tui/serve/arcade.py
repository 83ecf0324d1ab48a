"""The arcade's book-keeping, whatever the protocol: who is playing, who may still come in,
and what players are told when a session ends.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from core.text import escape_controls, plural
from tui.serve.ledger import (
    ADDRESS_PLAYERS,
    CpuLedger,
    process_cpu_seconds,
    set_soft_cpu_limit,
)
from tui.serve.limits import ServeLimits, valid_user_name
from tui.serve.owners import NameBook, guest_name
from tui.serve.spec import EXIT_CPU, EXIT_OK, SessionSpec, exit_reason

__all__ = ["LEDGER_POLL", "RESET_TERMINAL", "Arcade", "clock_time", "duration", "goodbye"]

LEDGER_POLL = 2.0
"""Seconds between two readings of the running sessions' CPU time (what a session uses in its
last moments before it ends, at most this much, goes unrecorded)."""

log = logging.getLogger("termarcade.serve")

RESET_TERMINAL = (
    "\x1b[<u"  # kitty keyboard protocol off
    "\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?1016l"  # mouse reporting off
    "\x1b[?2004l\x1b[?1004l\x1b[?2048l"  # bracketed paste, focus and in-band resize off
    "\x1b[?7h\x1b[?25h\x1b[0m"  # line wrap and cursor back, attributes reset
    "\x1b[?1049l"  # back to the normal screen
)
"""What the app would have written on a clean exit: sent by the server when a session process
did not get to do it (killed, crashed), so the player's terminal is usable again."""


def clock_time(stamp: float) -> str:
    """A wall-clock time for players anywhere: ``"14:05 UTC"``."""
    return time.strftime("%H:%M UTC", time.gmtime(stamp))


def goodbye(reason: str, limits: ServeLimits, retry_at: str = "") -> str:
    """The line a player reads when the server ended their session ("" when they quit).

    Args:
        reason: ``"idle"``, ``"shutdown"``, or an :func:`tui.serve.spec.exit_reason` phrase.
        limits: The arcade's limits (quoted in the message).
        retry_at: At the CPU limit, when the player's CPU time is back (:func:`clock_time`;
            "" when some is left now).
    """
    if reason == "quit":
        return ""
    if reason == "idle":
        return (
            f"Closed after {duration(limits.idle_timeout)} without a key press. "
            "Your games are saved."
        )
    if reason == "shutdown":
        return "The arcade is closing for now. Your games are saved."
    if reason == "CPU limit":
        share = f"This session used its share of the server ({limits.cpu_limit:g} CPU seconds "
        if retry_at:
            return (
                share + "an hour per player): your CPU time for this hour is used up; "
                f"try again at {retry_at}. Your games are saved."
            )
        return share + "an hour per player). Your games are saved: connect again to go on."
    return (
        "termarcade stopped because of an internal error (the host has the details). "
        "Your games are saved."
    )


@dataclass
class Seat:
    """One session's place in the arcade.

    Attributes:
        session_id: The session's number.
        user: The player.
        address: Their IP address.
    """

    session_id: int
    user: str
    address: str
    ended_by: str | None = field(default=None)
    """Why the server ended it ("idle", "shutdown"), None while it runs or when the player quit."""
    end: Callable[[str], None] | None = field(default=None, repr=False)
    """Ends the session for a reason (set by the protocol's session)."""
    pid: int | None = None
    """The session process, once started."""
    guest: bool = False
    """A guest: a made-up name and progress kept only for the session."""
    cpu_limit: float = 0.0
    """Its soft CPU limit: the grant it started with, then its fair part (0: none)."""
    cpu_used: float = 0.0
    """CPU seconds recorded for it when it ended (its last reading)."""


class Arcade:
    """Sessions and limits, shared by every connection of one server.

    Args:
        limits: The limits.
        data_dir: The data directory handed to sessions (their store).
        glyphs: A glyph set forced on every session (``--ascii``), or None.
        store: The store handed to every session (``--store``: a PostgreSQL URL shared by
            several hosts, or a SQLite path); empty for the default file in ``data_dir``.
        names: The owners of player names (``--names owned``), or None when any client may
            play any name (``--names open``).
    """

    def __init__(
        self,
        limits: ServeLimits,
        *,
        data_dir: str,
        glyphs: str | None = None,
        store: str = "",
        names: NameBook | None = None,
    ) -> None:
        self.limits = limits
        self.data_dir = data_dir
        self.store = store
        self.glyphs = glyphs
        self.names = names
        self.seats: dict[int, Seat] = {}
        """Sessions running or starting, by id."""
        self._ids = itertools.count(1)
        self._per_address: Counter[str] = Counter()
        self.ledger: CpuLedger | None = None
        """CPU seconds per name and per address over the last hour (None: no CPU limit)."""
        if limits.cpu_limit > 0:
            self.ledger = CpuLedger(limits.cpu_limit, limits.cpu_limit * ADDRESS_PLAYERS)
        self._watch: asyncio.TimerHandle | None = None

    def next_id(self) -> int:
        """A new connection/session number (for logs)."""
        return next(self._ids)

    def admit(
        self, session_id: int, user: str, address: str, *, guest: bool = False
    ) -> tuple[Seat | None, str]:
        """Give a session a seat, or say why not.

        Args:
            session_id: The session's number.
            user: The name the client asked for.
            address: Its IP address.
            guest: Play as a guest: a fresh ``guest-XXXX`` name instead of ``user``.

        Returns:
            ``(seat, "")``, or ``(None, message for the player)``.
        """
        if guest:  # whatever name a key-less client asked for, it is not theirs to use
            user = guest_name({seat.user for seat in self.seats.values()})
        if not valid_user_name(user):
            return None, (
                "Choose a player name of letters, digits, '.', '_' or '-' (up to 32), "
                "e.g. ssh -p PORT yourname@HOST"
            )
        if len(self.seats) >= self.limits.max_sessions:
            return None, (
                f"The arcade is full ({self.limits.max_sessions} players). "
                "Please try again in a little while."
            )
        if self._per_address[address] >= self.limits.max_per_address:
            return None, (
                f"Too many sessions from {address} ({self.limits.max_per_address} at most)."
            )
        if self.ledger is not None and not self.ledger.grant(user, address):
            return None, self._cpu_refusal(user, address)
        seat = Seat(session_id, user, address, guest=guest)
        self.seats[session_id] = seat
        self._per_address[address] += 1
        if self.ledger is not None:
            self.ledger.start(session_id, user, address)
            self._start_watch()
        return seat, ""

    def _cpu_refusal(self, user: str, address: str) -> str:
        assert self.ledger is not None
        retry = clock_time(self.ledger.retry_at(user, address))
        return f"Your CPU time for this hour is used up; try again at {retry}."

    def release(self, seat: Seat) -> None:
        """Free a seat (idempotent); what it used stays on its player's CPU account."""
        if self.seats.pop(seat.session_id, None) is not None:
            self._per_address[seat.address] -= 1
            if self._per_address[seat.address] <= 0:
                del self._per_address[seat.address]
            if self.ledger is not None:
                seat.cpu_used = self.ledger.finish(seat.session_id)
                self.share_cpu()  # the others sharing its name or address get its part

    # -- the CPU ledger ------------------------------------------------------------------------

    def _start_watch(self) -> None:
        """Read the sessions' CPU time every :data:`LEDGER_POLL` seconds while any runs."""
        if self._watch is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # book-keeping without a server (tests): nothing to watch
            return
        self._watch = loop.call_later(LEDGER_POLL, self._poll)

    def _poll(self) -> None:
        self._watch = None
        self.share_cpu()
        if self.seats:
            self._start_watch()

    def share_cpu(self) -> None:
        """Read each running session's CPU time into the ledger and set its soft CPU limit to
        its fair part of its name's and address's remainders (see :mod:`tui.serve.ledger`)."""
        ledger = self.ledger
        if ledger is None:
            return
        running = {seat.session_id: seat.pid for seat in self.seats.values() if seat.pid}
        for session_id, pid in running.items():
            ledger.seen(session_id, process_cpu_seconds(pid))
        for session_id, limit in ledger.limits(running).items():
            soft = set_soft_cpu_limit(running[session_id], limit)
            if soft is not None:
                self.seats[session_id].cpu_limit = soft

    def spec(self, seat: Seat, tty_path: str, term: str, env: dict[str, str]) -> SessionSpec:
        """What the session process needs."""
        return SessionSpec(
            session_id=seat.session_id,
            user=seat.user,
            tty_path=tty_path,
            term=term,
            env=env,
            glyphs=self.glyphs,
            data_dir=self.data_dir,
            store=self.store,
            cpu_limit=self._cpu_grant(seat),
            nice=self.limits.nice,
            guest=seat.guest,
            memory_limit=self.limits.memory_limit,
        )

    def _cpu_grant(self, seat: Seat) -> float:
        """The session's CPU limit: what its name and address have left this hour (the
        server lowers it to a fair part once other sessions share them)."""
        if self.ledger is None:
            return self.limits.cpu_limit
        seat.cpu_limit = self.ledger.grant(seat.user, seat.address) or self.ledger.min_grant
        return seat.cpu_limit

    def ended(self, seat: Seat, code: int | None, seconds: float) -> tuple[str, int]:
        """Log a session's end and decide what the player is told.

        Args:
            seat: The session.
            code: The session process's exit status.
            seconds: How long it ran.

        Returns:
            ``(message, exit status for the SSH client)``; the message is "" when the player
            quit.
        """
        reason = seat.ended_by or exit_reason(code)
        if seat.ended_by and code not in (EXIT_OK, EXIT_CPU, None) and code >= 0:
            reason = exit_reason(code)  # it failed while closing: say so
        log.info(
            "session %d user %s ended after %.0f s: %s (exit status %s), %d playing",
            seat.session_id,
            quoted(seat.user),
            seconds,
            reason,
            code,
            len(self.seats) - (seat.session_id in self.seats),
        )
        retry = ""
        if reason == "CPU limit" and self.ledger is not None:
            # It used all of its limit, also what it spent after its last reading.
            self.ledger.charge(seat.user, seat.address, seat.cpu_limit - seat.cpu_used)
            if not self.ledger.grant(seat.user, seat.address):
                retry = clock_time(self.ledger.retry_at(seat.user, seat.address))
        status = 0 if reason in ("quit", "idle", "shutdown") else 1
        return goodbye(reason, self.limits, retry), status


def duration(seconds: float) -> str:
    """A time limit in words, as exact as the limit itself ("15 seconds", "1 minute 30 seconds").

    Args:
        seconds: The limit (rounded to whole seconds; under one second reads "1 second").

    Returns:
        Minutes and seconds, each named only when not zero.
    """
    minutes, rest = divmod(max(1, round(seconds)), 60)
    parts = [plural(minutes, "minute")] if minutes else []
    if rest:
        parts.append(plural(rest, "second"))
    return " ".join(parts)


def quoted(text: str) -> str:
    """A client-supplied string made safe for a log line."""
    return "'" + escape_controls(text[:64]) + "'"
